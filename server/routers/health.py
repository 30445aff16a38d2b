"""GET /healthz (no auth; checks Neo4j) and GET /metrics (Prometheus text)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from graph_schema.schema import cypher
from graph_schema.schema.migrations import LATEST_VERSION, current_version
from server.deps import DriverDep, SettingsDep

router = APIRouter(tags=["health"])


@router.get("/healthz")
def healthz(driver: DriverDep, settings: SettingsDep) -> dict[str, Any]:
    driver.execute_query(cypher.PING, database_=settings.neo4j_database, routing_="r")
    version = current_version(driver, database=settings.neo4j_database)
    return {
        "status": "ok",
        "neo4j": "up",
        "schema_version": version,
        "schema_latest": LATEST_VERSION,
    }


@router.get("/metrics")
def metrics() -> Response:
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)
