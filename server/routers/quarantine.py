"""GET /v1/quarantine: what the gate refused, and why (admins only)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from graph_schema.quarantine.reads import list_quarantine
from server.deps import AdminDep, DriverDep, SettingsDep

router = APIRouter(prefix="/v1/quarantine", tags=["quarantine"])


@router.get("")
def get_quarantine(
    driver: DriverDep,
    settings: SettingsDep,
    _: AdminDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    origin: Annotated[str | None, Query(max_length=64)] = None,
) -> dict[str, Any]:
    items = list_quarantine(driver, database=settings.neo4j_database, limit=limit, origin=origin)
    return {"items": items}
