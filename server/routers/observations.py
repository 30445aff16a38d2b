"""POST /v1/observations (one, or a batch of up to ``max_observation_batch``) and
GET /v1/observations/{id} with its neighbouring turns. See docs/ingestion.md."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query
from fastapi.responses import JSONResponse

from graph_schema.core.errors import TractatusError
from graph_schema.observations.reads import get_observation
from graph_schema.observations.types import ObservationIn
from graph_schema.schema.ontology import predicate_map
from ingest.observations import Context, Outcome, ingest_observations
from server.batches import batch_items, batch_schema
from server.deps import DistillerDep, DriverDep, EmbedderDep, PrincipalDep, SettingsDep
from server.errors import STATUS, error_body

router = APIRouter(prefix="/v1/observations", tags=["observations"])

REPLAYED_HEADER = "Idempotent-Replayed"

_SCHEMA = batch_schema(ObservationIn, "observations", 256)


def _status(error: TractatusError) -> int:
    return next((s for cls, s in STATUS.items() if isinstance(error, cls)), 500)


def _batch_item(outcome: Outcome) -> dict[str, Any]:
    if isinstance(outcome, TractatusError):
        return {
            "status": _status(outcome),
            **error_body(outcome.code, outcome.message, outcome.details),
        }
    return {"status": 201, **outcome.body()}


@router.post("", status_code=201, openapi_extra=_SCHEMA)
def post_observations(
    payload: Annotated[Any, Body()],
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    distiller: DistillerDep,
    embedder: EmbedderDep,
) -> Any:
    """Distil raw text into assertions through the gate; idempotent per (caller, key).

    A batch answers 200 with one result per observation, each with its own ``status``.
    """
    parsed = batch_items(payload, key="observations", max_batch=settings.max_observation_batch)
    if isinstance(parsed, JSONResponse):
        return parsed
    raw_items, is_batch = parsed
    database = settings.neo4j_database
    ctx = Context(
        driver=driver,
        database=database,
        principal=principal,
        distiller=distiller,
        embedder=embedder,
        ontology=predicate_map(driver, database=database),
        retain_raw_text=settings.retain_raw_text,
        working_memory_bound=settings.working_memory_bound,
    )
    outcomes = ingest_observations(ctx, raw_items)
    if is_batch:
        return JSONResponse({"results": [_batch_item(o) for o in outcomes]}, status_code=200)
    outcome = outcomes[0]
    if isinstance(outcome, TractatusError):
        raise outcome
    replayed = "true" if outcome.replayed else "false"
    return JSONResponse(outcome.body(), status_code=201, headers={REPLAYED_HEADER: replayed})


@router.get("/{observation_id}")
def get_one(
    observation_id: Annotated[str, Path(min_length=1, max_length=64)],
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    context: Annotated[int, Query(ge=0, le=50)] = 0,
) -> dict[str, Any]:
    """One observation (its text if retained) and up to ``context`` visible turns either side
    in its conversation, ordered by ``occurred_at``."""
    body = get_observation(
        driver,
        database=settings.neo4j_database,
        principal=principal,
        observation_id=observation_id,
        context=context,
    )
    return body
