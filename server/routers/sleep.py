"""POST /v1/sleep (admin): consolidate ended tasks, expire ephemeral facts, let unused
long-term facts fall dormant, wake the dormant ones that were read; the caller states
``dry_run`` every time. See docs/lifecycle.md."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body

from graph_schema.core.timeutil import parse_rfc3339
from graph_schema.lifecycle.types import SleepReport, SleepRequest
from ingest.lifecycle.sleep import run_sleep
from server.deps import AccessLogDep, AdminDep, DriverDep, LifecycleDep, SettingsDep
from server.errors import BODY, V1, declared
from server.routing import JSONRoute

router = APIRouter(prefix="/v1", tags=["lifecycle"], route_class=JSONRoute)


@router.post(
    "/sleep",
    response_model=SleepReport,
    responses=declared(*V1, *BODY, "forbidden", "sleep_running"),
)
def post_sleep(
    request: Annotated[SleepRequest, Body()],
    driver: DriverDep,
    settings: SettingsDep,
    principal: AdminDep,
    life: LifecycleDep,
    access_log: AccessLogDep,
) -> SleepReport:
    """Run one sleep at the present (``dry_run: false``), or preview one (``dry_run: true``:
    nothing written, at any ``now``). ``dry_run`` must be stated: a body without it (``{}``,
    ``null``, none) is 422 ``invalid_request`` and runs nothing.
    409 ``sleep_running`` when another sleep holds the lock."""
    now = parse_rfc3339(request.now) if request.now is not None else None
    return run_sleep(
        driver,
        database=settings.neo4j_database,
        principal=principal,
        life=life,
        config=settings.sleep_config(),
        now=now,
        dry_run=request.dry_run,
        flush=access_log.flush if access_log is not None else None,
    )
