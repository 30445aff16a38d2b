"""GET /healthz (liveness), GET /readyz (readiness), no auth; GET /metrics (Prometheus text).

Both probes answer within ``TRACTATUS_PROBE_TIMEOUT`` (server/probe.py), whatever the store
does: ``/healthz`` is 200 while the process serves, with the store's state in the body (an
orchestrator that restarts on it does not kill an API whose store is down); ``/readyz`` is
503 ``store_unavailable`` (with ``Retry-After``) while the store cannot answer.
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from graph_schema.core.errors import StoreUnavailable
from graph_schema.schema.types import Health
from server.errors import declared
from server.probe import StoreProbe
from server.routing import JSONRoute

router = APIRouter(tags=["health"], route_class=JSONRoute)


def _probe(request: Request) -> StoreProbe:
    probe: StoreProbe = request.app.state.probe
    return probe


@router.get("/healthz", response_model=Health, responses=declared())
async def healthz(request: Request) -> Health:
    """Liveness: 200 while the process serves; ``neo4j`` says whether the store answers."""
    return await _probe(request).check()


@router.get("/readyz", response_model=Health, responses=declared("store_unavailable"))
async def readyz(request: Request) -> Health:
    """Readiness: 200 when the store answers, else 503 ``store_unavailable``."""
    state = await _probe(request).check()
    if state.neo4j != "up":
        raise StoreUnavailable(
            "the graph store is unavailable", details={"store_error": state.store_error}
        )
    return state


@router.get(
    "/metrics",
    response_class=Response,
    responses={
        200: {
            "description": "Prometheus text exposition",
            "content": {CONTENT_TYPE_LATEST: {"schema": {"type": "string"}}},
        },
        **declared(),
    },
)
def metrics() -> Response:
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)
