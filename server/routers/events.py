"""Ordered memory over HTTP: write a step, replay its causes or effects, ask why a fact holds.

``POST /v1/events`` goes through the gate (refused input is quarantined, 422);
``GET /v1/events/{id}/chain`` replays the causal DAG; ``GET /v1/facts/why`` explains the
current fact of a slot with the event that wrote it and that event's chain.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query
from fastapi.responses import Response

from graph_schema.core.errors import NotFound
from graph_schema.core.secrets import refuse_secrets
from graph_schema.core.types import Status, as_sent
from graph_schema.events import replay as events
from graph_schema.events.types import (
    ChainAnswer,
    Direction,
    EventOut,
    EventWrite,
    EventWritten,
    WhyAnswer,
)
from ingest import events as event_writes
from server.batches import no_item
from server.deps import AccessLogDep, DriverDep, EmbedderDep, PrincipalDep, SettingsDep
from server.errors import BODY, EMBEDS, NOT_AN_OBJECT, PARAMS, V1, declared, invalid_request
from server.params import (
    IDEMPOTENCY_HEADER,
    IdempotencyKey,
    PredicateName,
    Subject,
    TimeParam,
    coordinates,
    replayed,
    replayed_header,
)
from server.routing import JSONRoute, answer

router = APIRouter(prefix="/v1", tags=["events"], route_class=JSONRoute)

EventIdPath = Annotated[str, Path(min_length=1, max_length=128)]
MaxDepth = Annotated[
    int,
    Query(ge=0, description=f"hops to follow; capped at {events.MAX_DEPTH_CAP}"),
]
# the gate sees the event as sent, so that it can quarantine a malformed one with its reason
EventBody = Annotated[Any, as_sent(EventWrite), Body()]
NO_EVENT = "no visible event with this id"


@router.post(
    "/events",
    status_code=201,
    response_model=EventWritten,
    responses={
        201: {
            "description": "the event and the assertions it wrote (with"
            " `Idempotent-Replayed: true`, the first answer to this idempotency key)",
            "headers": replayed_header(),
        },
        **declared(
            *V1,
            *BODY,
            *EMBEDS,
            "precondition_failed",
            "rejected",
            "secret_detected",
            "task_ended",
            "task_conflict",
        ),
    },
)
def post_event(
    payload: EventBody,
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    embedder: EmbedderDep,
    idempotency_key: IdempotencyKey = None,
) -> Response:
    """One step of a task with its causes and the assertions it wrote, in one transaction.
    Idempotent per (caller, ``Idempotency-Key``)."""
    if not isinstance(payload, dict):
        return invalid_request(*NOT_AN_OBJECT)
    refuse_secrets(payload, settings.secrets, headers={IDEMPOTENCY_HEADER.lower(): idempotency_key})
    refused = no_item(
        payload, item="event", fields=EventWrite.model_fields, secrets=settings.secrets
    )
    if refused is not None:
        return refused
    written = event_writes.record_event(
        driver,
        database=settings.neo4j_database,
        raw=payload,
        principal=principal,
        retention=settings.quarantine_retention,
        bound=settings.working_memory_bound,
        idempotency_key=idempotency_key,
        embedder=embedder,
        max_future=settings.max_future,
    )
    return answer(written.value, status_code=201, headers=replayed(written.replayed))


@router.get(
    "/events/{event_id}", response_model=EventOut, responses=declared(*V1, *PARAMS, "not_found")
)
def get_event(
    event_id: EventIdPath, driver: DriverDep, settings: SettingsDep, principal: PrincipalDep
) -> EventOut:
    event = events.get_event(
        driver, database=settings.neo4j_database, principal=principal, event_id=event_id
    )
    if event is None:
        raise NotFound(NO_EVENT, details={"id": event_id})
    return event


@router.get(
    "/events/{event_id}/chain",
    response_model=ChainAnswer,
    responses=declared(*V1, *PARAMS, "not_found"),
)
def get_chain(
    event_id: EventIdPath,
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    access_log: AccessLogDep,
    direction: Direction = Direction.causes,
    max_depth: MaxDepth = events.DEFAULT_MAX_DEPTH,
) -> Response:
    depth = min(max_depth, events.MAX_DEPTH_CAP)
    replay = events.chain(
        driver,
        database=settings.neo4j_database,
        principal=principal,
        event_id=event_id,
        direction=direction,
        max_depth=depth,
        recorder=access_log,
    )
    if replay is None:
        raise NotFound(NO_EVENT, details={"id": event_id})
    return answer(
        ChainAnswer(
            status=Status.answered,
            direction=direction,
            max_depth=depth,
            events=replay.events,
            edges=replay.edges,
            truncated=replay.truncated,
        )
    )


@router.get("/facts/why", response_model=WhyAnswer, responses=declared(*V1, *PARAMS))
def get_why(
    subject: Subject,
    predicate: PredicateName,
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    access_log: AccessLogDep,
    as_of: TimeParam = None,
    known_at: TimeParam = None,
    max_depth: MaxDepth = events.DEFAULT_MAX_DEPTH,
) -> Response:
    valid, known = coordinates(as_of, known_at)
    return answer(
        events.why_answer(
            driver,
            database=settings.neo4j_database,
            principal=principal,
            subject=subject,
            predicate=predicate,
            as_of=valid,
            known_at=known,
            max_depth=max_depth,
            recorder=access_log,
        )
    )
