"""Ordered memory over HTTP: write a step, replay its causes or effects, ask why a fact holds.

``POST /v1/events`` goes through the gate (refused input is quarantined, 422);
``GET /v1/events/{id}/chain`` replays the causal DAG; ``GET /v1/facts/why`` explains the
current fact of a slot with the event that wrote it and that event's chain.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query
from fastapi.responses import Response
from pydantic import BaseModel

from graph_schema.core.errors import NotFound
from graph_schema.core.types import Status
from graph_schema.events import replay as events
from graph_schema.events.types import ChainAnswer, Direction, EventOut, EventWrite, WhyAnswer
from graph_schema.schema.ontology import get_predicate
from ingest import events as event_writes
from server.deps import AccessLogDep, DriverDep, PrincipalDep, SettingsDep
from server.errors import error_response
from server.params import coordinates

router = APIRouter(prefix="/v1", tags=["events"])

EventIdPath = Annotated[str, Path(min_length=1, max_length=128)]
Subject = Annotated[str, Query(min_length=1, max_length=512)]
PredicateName = Annotated[str, Query(min_length=1, max_length=64)]
MaxDepth = Annotated[
    int,
    Query(ge=0, description=f"hops to follow; capped at {events.MAX_DEPTH_CAP}"),
]

_SCHEMA = {
    "requestBody": {
        "content": {
            "application/json": {
                "schema": EventWrite.model_json_schema(ref_template="#/components/schemas/{model}")
            }
        },
        "required": True,
    }
}
NO_EVENT = "no visible event with this id"


def _json(model: BaseModel, status_code: int = 200) -> Response:
    """Serialise an already-validated answer once (a 1,000-step replay is large; FastAPI
    would validate it again against the response model)."""
    return Response(
        model.model_dump_json(by_alias=True),
        status_code=status_code,
        media_type="application/json",
    )


@router.post("/events", status_code=201, openapi_extra=_SCHEMA)
def post_event(
    payload: Annotated[Any, Body()],
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
) -> Any:
    if not isinstance(payload, dict):
        return error_response(422, "invalid_request", "the body must be a JSON object")
    written = event_writes.record_event(
        driver,
        database=settings.neo4j_database,
        raw=payload,
        principal=principal,
        bound=settings.working_memory_bound,
    )
    return _json(written, status_code=201)


@router.get("/events/{event_id}", response_model=EventOut)
def get_event(
    event_id: EventIdPath, driver: DriverDep, settings: SettingsDep, principal: PrincipalDep
) -> EventOut:
    event = events.get_event(
        driver, database=settings.neo4j_database, principal=principal, event_id=event_id
    )
    if event is None:
        raise NotFound(NO_EVENT, details={"id": event_id})
    return event


@router.get("/events/{event_id}/chain", response_model=ChainAnswer)
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
    return _json(
        ChainAnswer(
            status=Status.answered,
            direction=direction,
            max_depth=depth,
            events=replay.events,
            edges=replay.edges,
            truncated=replay.truncated,
        )
    )


@router.get("/facts/why", response_model=WhyAnswer)
def get_why(
    subject: Subject,
    predicate: PredicateName,
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    access_log: AccessLogDep,
    as_of: str | None = None,
    known_at: str | None = None,
    max_depth: MaxDepth = events.DEFAULT_MAX_DEPTH,
) -> Response:
    valid, known = coordinates(as_of, known_at)
    database = settings.neo4j_database
    if get_predicate(driver, database=database, name=predicate) is None:
        return _json(
            WhyAnswer(
                status=Status.out_of_scope,
                subject=subject,
                predicate=predicate,
                explanations=[],
                as_of=valid,
                known_at=known,
            )
        )
    explanations = events.why(
        driver,
        database=database,
        principal=principal,
        subject=subject,
        predicate=predicate,
        as_of=valid,
        known_at=known,
        max_depth=min(max_depth, events.MAX_DEPTH_CAP),
        recorder=access_log,
    )
    return _json(
        WhyAnswer(
            status=Status.answered if explanations else Status.not_found,
            subject=subject,
            predicate=predicate,
            explanations=explanations,
            as_of=valid,
            known_at=known,
        )
    )
