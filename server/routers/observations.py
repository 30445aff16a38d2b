"""POST /v1/observations (one, or a batch of up to ``max_observation_batch``) and
GET /v1/observations/{id} with its neighbouring turns. See docs/ingestion.md."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query, Response
from fastapi.responses import JSONResponse

from graph_schema.core.errors import SecretDetected, TractatusError
from graph_schema.core.secrets import Policy as SecretsPolicy
from graph_schema.core.secrets import refuse_secrets
from graph_schema.core.types import ErrorObject, as_sent
from graph_schema.observations.reads import get_observation
from graph_schema.observations.types import (
    ObservationAccepted,
    ObservationBatch,
    ObservationIn,
    ObservationInContext,
    ObservationRefused,
    ObservationsWritten,
    ObservationWritten,
)
from ingest.observations import Outcome, write_observations
from server import request_ids
from server.batches import batch_items, keyed_by_header
from server.deps import DistillerDep, DriverDep, EmbedderDep, PrincipalDep, SettingsDep
from server.errors import BODY, EMBEDS, PARAMS, V1, declared, status_of
from server.params import IDEMPOTENCY_HEADER, ObservationKeyHeader, replayed, replayed_header
from server.routing import JSONRoute, answer

router = APIRouter(prefix="/v1/observations", tags=["observations"], route_class=JSONRoute)

ObservationBody = Annotated[Any, as_sent(ObservationIn | ObservationBatch), Body()]
ObservationId = Annotated[str, Path(min_length=1, max_length=64)]

_WRITTEN = {
    "description": "the observation, its assertions and its refused drafts (or, with"
    " `Idempotent-Replayed: true`, the first answer to this idempotency key)",
    "headers": replayed_header(),
}
_BATCH = {"model": ObservationsWritten, "description": "a batch: one result per observation"}


def _batch_item(outcome: Outcome) -> ObservationAccepted | ObservationRefused:
    if isinstance(outcome, TractatusError):
        error = ErrorObject(
            code=outcome.code,
            message=outcome.message,
            details=outcome.details,
            request_id=request_ids.current(),
        )
        return ObservationRefused(status=status_of(outcome), error=error)
    return ObservationAccepted(status=201, **dict(outcome))


def _holding_secrets(raw_items: list[Any], policy: SecretsPolicy) -> dict[int, Outcome]:
    """The items of a batch refused for a secret (``secret_detected``, named by their place
    in the batch): refused one by one, like the gate's refusals, and never written."""
    refused: dict[int, Outcome] = {}
    for index, raw in enumerate(raw_items):
        try:
            refuse_secrets(raw, policy, where=f"body.observations[{index}]")
        except SecretDetected as error:
            refused[index] = error
    return refused


def _merged(written: list[Outcome], refused: dict[int, Outcome], count: int) -> list[Outcome]:
    """The outcomes of the items written and of those refused, in the batch's order."""
    rest = iter(written)
    return [refused[i] if i in refused else next(rest) for i in range(count)]


@router.post(
    "",
    status_code=201,
    response_model=ObservationWritten,
    responses={
        200: _BATCH,
        201: _WRITTEN,
        **declared(
            *V1,
            *BODY,
            *EMBEDS,
            "precondition_failed",
            "batch_too_large",
            "rejected",
            "secret_detected",
            "task_ended",
        ),
    },
)
def post_observations(
    payload: ObservationBody,
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    distiller: DistillerDep,
    embedder: EmbedderDep,
    idempotency_key: ObservationKeyHeader = None,
) -> Response:
    """Distil raw text into assertions through the gate; idempotent per (caller, key).

    A batch answers 200 with one result per observation, each with its own ``status``.
    """
    parsed = batch_items(
        payload,
        key="observations",
        max_batch=settings.max_observation_batch,
        fields=ObservationIn.model_fields,
        secrets=settings.secrets,
    )
    if isinstance(parsed, JSONResponse):
        return parsed
    raw_items, is_batch = parsed
    # the header keys the observations it is copied into: a secret in it refuses the request
    header = {IDEMPOTENCY_HEADER.lower(): idempotency_key}
    refuse_secrets(None if is_batch else raw_items[0], settings.secrets, headers=header)
    refused = _holding_secrets(raw_items, settings.secrets) if is_batch else {}
    keyed_by_header(raw_items, is_batch, idempotency_key)
    written = write_observations(
        driver,
        database=settings.neo4j_database,
        raw_items=[item for i, item in enumerate(raw_items) if i not in refused],
        principal=principal,
        distiller=distiller,
        embedder=embedder,
        retain_raw_text=settings.retain_raw_text,
        retention=settings.quarantine_retention,
        working_memory_bound=settings.working_memory_bound,
        max_future=settings.max_future,
    )
    outcomes = _merged(written, refused, len(raw_items))
    if is_batch:
        return answer(ObservationsWritten(results=[_batch_item(o) for o in outcomes]))
    outcome = outcomes[0]
    if isinstance(outcome, TractatusError):
        raise outcome
    return answer(outcome, status_code=201, headers=replayed(outcome.replayed))


@router.get(
    "/{observation_id}",
    response_model=ObservationInContext,
    responses=declared(*V1, *PARAMS, "not_found"),
)
def get_one(
    observation_id: ObservationId,
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    context: Annotated[int, Query(ge=0, le=50)] = 0,
) -> ObservationInContext:
    """One observation (its text if retained) and up to ``context`` visible turns either side
    in its conversation, ordered by ``occurred_at``."""
    return get_observation(
        driver,
        database=settings.neo4j_database,
        principal=principal,
        observation_id=observation_id,
        context=context,
    )
