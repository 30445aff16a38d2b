"""POST /v1/assertions: one assertion or a batch, through the gate, in one transaction;
POST /v1/assertions/{id}/pin and /unpin (docs/lifecycle.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Response
from fastapi.responses import JSONResponse

from graph_schema.core.secrets import refuse_secrets
from graph_schema.core.types import as_sent
from graph_schema.ledger.types import (
    AssertionBatch,
    AssertionsWritten,
    AssertionWrite,
    WriteResult,
)
from graph_schema.lifecycle.types import PinAnswer
from ingest.assertions import write_assertions
from ingest.lifecycle.pins import set_pin
from server.batches import batch_items
from server.deps import DriverDep, EmbedderDep, PrincipalDep, SettingsDep
from server.errors import BODY, EMBEDS, PARAMS, V1, declared
from server.params import IDEMPOTENCY_HEADER, IdempotencyKey, replayed, replayed_header
from server.routing import JSONRoute, answer

router = APIRouter(prefix="/v1", tags=["assertions"], route_class=JSONRoute)

# the gate sees each item as sent, so that it can quarantine a malformed one with its reason
AssertionBody = Annotated[Any, as_sent(AssertionWrite | AssertionBatch), Body()]


@router.post(
    "/assertions",
    status_code=201,
    response_model=WriteResult | AssertionsWritten,
    responses={
        201: {
            "description": "the result, or one per item of a batch (with"
            " `Idempotent-Replayed: true`, the first answer to this idempotency key)",
            "headers": replayed_header(),
        },
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
def post_assertions(
    payload: AssertionBody,
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    embedder: EmbedderDep,
    idempotency_key: IdempotencyKey = None,
) -> Response:
    """One assertion (answered with its result) or ``{"assertions": [...]}`` (answered with
    one result per item), written in one transaction: all of them or none. Idempotent per
    (caller, ``Idempotency-Key``)."""
    refuse_secrets(payload, settings.secrets, headers={IDEMPOTENCY_HEADER.lower(): idempotency_key})
    parsed = batch_items(
        payload,
        key="assertions",
        max_batch=settings.max_batch,
        fields=AssertionWrite.model_fields,
        secrets=settings.secrets,
    )
    if isinstance(parsed, JSONResponse):
        return parsed
    raw_items, is_batch = parsed
    written = write_assertions(
        driver,
        database=settings.neo4j_database,
        raw_items=raw_items,
        principal=principal,
        embedder=embedder,
        retention=settings.quarantine_retention,
        bound=settings.working_memory_bound,
        idempotency_key=idempotency_key,
    )
    headers = replayed(written.replayed)
    if is_batch:
        return answer(AssertionsWritten(results=written.value), status_code=201, headers=headers)
    return answer(written.value[0], status_code=201, headers=headers)


AssertionId = Annotated[str, Path(min_length=1, max_length=64, description="an assertion id")]


@router.post(
    "/assertions/{assertion_id}/pin",
    response_model=PinAnswer,
    responses=declared(*V1, *PARAMS, "forbidden", "not_found"),
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
    responses=declared(*V1, *PARAMS, "forbidden", "not_found"),
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
