"""GET /healthz (no auth; checks Neo4j) and GET /metrics (Prometheus text)."""

from __future__ import annotations

from fastapi import APIRouter, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from graph_schema.schema.migrations import health
from graph_schema.schema.types import Health
from server.deps import DriverDep, SettingsDep
from server.errors import declared
from server.routing import JSONRoute

router = APIRouter(tags=["health"], route_class=JSONRoute)


@router.get("/healthz", response_model=Health, responses=declared("store_unavailable"))
def healthz(driver: DriverDep, settings: SettingsDep) -> Health:
    return health(driver, database=settings.neo4j_database)


@router.get(
    "/metrics",
    response_class=Response,
    responses={
        200: {
            "description": "Prometheus text exposition",
            "content": {CONTENT_TYPE_LATEST: {"schema": {"type": "string"}}},
        }
    },
)
def metrics() -> Response:
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)
