"""GET /v1/tasks/{id}/timeline: every visible step of a task, in time order."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from graph_schema.core.types import MAX_NAME_CHARS, Status
from graph_schema.events import replay as events
from graph_schema.events.types import TimelineAnswer
from server.deps import DriverDep, PrincipalDep, SettingsDep
from server.errors import PARAMS, V1, declared
from server.routing import JSONRoute

router = APIRouter(prefix="/v1/tasks", tags=["tasks"], route_class=JSONRoute)

MAX_TIMELINE = 10_000


@router.get(
    "/{task_id:path}/timeline",
    response_model=TimelineAnswer,
    responses=declared(*V1, *PARAMS, "not_found"),
)
def get_timeline(
    task_id: Annotated[str, Path(min_length=1, max_length=MAX_NAME_CHARS)],
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    limit: Annotated[int, Query(ge=1, le=MAX_TIMELINE)] = 1_000,
) -> TimelineAnswer:
    task, steps, truncated = events.timeline(
        driver,
        database=settings.neo4j_database,
        principal=principal,
        task_id=task_id,
        limit=limit,
    )
    return TimelineAnswer(
        status=Status.answered if steps else Status.not_found,
        task_id=task_id,
        task=task,
        events=steps,
        truncated=truncated,
    )
