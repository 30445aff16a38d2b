"""GET /v1/quarantine: what the gate refused, and why (admins only)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from graph_schema.quarantine.reads import list_quarantine
from graph_schema.quarantine.types import QuarantineAnswer
from server.deps import AdminDep, DriverDep, SettingsDep
from server.errors import PARAMS, V1, declared
from server.routing import JSONRoute

router = APIRouter(prefix="/v1/quarantine", tags=["quarantine"], route_class=JSONRoute)


@router.get("", response_model=QuarantineAnswer, responses=declared(*V1, *PARAMS, "forbidden"))
def get_quarantine(
    driver: DriverDep,
    settings: SettingsDep,
    _: AdminDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    origin: Annotated[str | None, Query(max_length=64)] = None,
) -> QuarantineAnswer:
    items = list_quarantine(driver, database=settings.neo4j_database, limit=limit, origin=origin)
    return QuarantineAnswer(items=items)
