"""Tasks: start one, read it with its counts per tier, end it (consolidation), its timeline.

A task is (owner, task_id). ``{task_id}`` names the caller's own task unless ``owner`` names
another principal whose task the caller may see (it is public or shares a group with the
caller); a task the caller may not see answers 404 exactly like one that does not exist.
See docs/lifecycle.md.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Response

from graph_schema.core.errors import NotFound
from graph_schema.core.secrets import refuse_secrets
from graph_schema.core.types import Name, Status
from graph_schema.events import replay as events
from graph_schema.events.types import TimelineAnswer
from graph_schema.lifecycle.reads import find_task
from graph_schema.lifecycle.types import ConsolidationReport, TaskAnswer, TaskStart
from ingest.lifecycle.consolidate import NO_TASK, end_task
from ingest.lifecycle.tasks import start_task
from server.deps import AccessLogDep, DriverDep, LifecycleDep, PrincipalDep, SettingsDep
from server.errors import BODY, PARAMS, V1, declared
from server.routing import JSONRoute

router = APIRouter(prefix="/v1/tasks", tags=["tasks"], route_class=JSONRoute)

MAX_TIMELINE = 10_000

# names, as writes take them: not blank, no NUL, 1-512 characters (docs/api.md)
TaskId = Annotated[Name, Path(description="the task id")]
Owner = Annotated[
    Name | None,
    Query(description="the principal whose task it is (default: the caller)"),
]


@router.post(
    "",
    status_code=201,
    response_model=TaskAnswer,
    responses={
        200: {"model": TaskAnswer, "description": "the caller's task exists, same goal and access"},
        **declared(*V1, *BODY, "forbidden", "secret_detected", "task_conflict", "task_ended"),
    },
)
def post_task(
    request: TaskStart,
    response: Response,
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
) -> TaskAnswer:
    """Start the caller's task with a goal and access (a write naming a new task id starts
    one too, with that write's access). 201 when created, 200 when it existed unchanged;
    409 ``task_conflict`` (another goal or access) or ``task_ended``."""
    refuse_secrets(request.model_dump(mode="json"), settings.secrets)
    answer, created = start_task(
        driver,
        database=settings.neo4j_database,
        principal=principal,
        request=request,
        bound=settings.working_memory_bound,
    )
    response.status_code = 201 if created else 200
    return answer


@router.get(
    "/{task_id:path}/timeline",
    response_model=TimelineAnswer,
    responses=declared(*V1, *PARAMS, "not_found"),
)
def get_timeline(
    task_id: TaskId,
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    access_log: AccessLogDep,
    owner: Owner = None,
    limit: Annotated[int, Query(ge=1, le=MAX_TIMELINE)] = 1_000,
) -> TimelineAnswer:
    """Every visible step with this task id, in time order: of every writer's task of that
    id, or of ``owner``'s only. Each step shows only to readers of its own access list."""
    task, steps, truncated = events.timeline(
        driver,
        database=settings.neo4j_database,
        principal=principal,
        task_id=task_id,
        limit=limit,
        owner=owner,
        recorder=access_log,
    )
    return TimelineAnswer(
        status=Status.answered if steps or task else Status.not_found,
        task_id=task_id,
        task=task,
        events=steps,
        truncated=truncated,
    )


@router.post(
    "/{task_id:path}/end",
    response_model=ConsolidationReport,
    responses=declared(*V1, *PARAMS, "forbidden", "not_found"),
)
def post_end(
    task_id: TaskId,
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    life: LifecycleDep,
    owner: Owner = None,
) -> ConsolidationReport:
    """End the task and consolidate its working memory in one transaction (owner or admin).
    Ending it again answers the same report and writes nothing."""
    return end_task(
        driver,
        database=settings.neo4j_database,
        principal=principal,
        task_id=task_id,
        owner=owner,
        life=life,
    )


@router.get(
    "/{task_id:path}",
    response_model=TaskAnswer,
    responses=declared(*V1, *PARAMS, "not_found"),
)
def get_task(
    task_id: TaskId,
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    owner: Owner = None,
) -> TaskAnswer:
    """The task with its status, times, working memory and counts per tier (of the
    assertions the caller may read)."""
    task = find_task(
        driver,
        database=settings.neo4j_database,
        principal=principal,
        task_id=task_id,
        owner=owner,
        bound=settings.working_memory_bound,
    )
    if task is None:
        raise NotFound(NO_TASK, details={"task_id": task_id})
    return task
