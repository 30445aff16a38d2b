"""POST /v1/assertions: one assertion or a batch, through the gate, in one transaction;
POST /v1/assertions/{id}/pin and /unpin (docs/lifecycle.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path
from fastapi.responses import JSONResponse

from graph_schema.ledger.types import AssertionWrite
from graph_schema.lifecycle.types import PinAnswer
from ingest.assertions import write_assertions
from ingest.lifecycle.pins import set_pin
from server.batches import batch_items, batch_schema
from server.deps import DriverDep, EmbedderDep, PrincipalDep, SettingsDep
from server.errors import responses

router = APIRouter(prefix="/v1", tags=["assertions"])

_SCHEMA = batch_schema(AssertionWrite, "assertions", 1000)


@router.post("/assertions", status_code=201, openapi_extra=_SCHEMA)
def post_assertions(
    payload: Annotated[Any, Body()],
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    embedder: EmbedderDep,
) -> Any:
    parsed = batch_items(payload, key="assertions", max_batch=settings.max_batch)
    if isinstance(parsed, JSONResponse):
        return parsed
    raw_items, is_batch = parsed
    results = write_assertions(
        driver,
        database=settings.neo4j_database,
        raw_items=raw_items,
        principal=principal,
        embedder=embedder,
        bound=settings.working_memory_bound,
    )
    if is_batch:
        return {"results": [r.model_dump(mode="json") for r in results]}
    return results[0].model_dump(mode="json")


AssertionId = Annotated[str, Path(min_length=1, max_length=64, description="an assertion id")]


@router.post(
    "/assertions/{assertion_id}/pin",
    response_model=PinAnswer,
    responses=responses(401, 403, 404, 422),
)
def post_pin(
    assertion_id: AssertionId, driver: DriverDep, settings: SettingsDep, principal: PrincipalDep
) -> PinAnswer:
    """Pin an assertion (its writer or an admin) so it never falls dormant; recorded as a
    transition. Pinning a pinned assertion changes nothing (``changed: false``)."""
    return set_pin(
        driver,
        database=settings.neo4j_database,
        principal=principal,
        assertion_id=assertion_id,
        pinned=True,
    )


@router.post(
    "/assertions/{assertion_id}/unpin",
    response_model=PinAnswer,
    responses=responses(401, 403, 404, 422),
)
def post_unpin(
    assertion_id: AssertionId, driver: DriverDep, settings: SettingsDep, principal: PrincipalDep
) -> PinAnswer:
    """Unpin an assertion (its writer or an admin); recorded as a transition."""
    return set_pin(
        driver,
        database=settings.neo4j_database,
        principal=principal,
        assertion_id=assertion_id,
        pinned=False,
    )
