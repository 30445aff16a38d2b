"""POST /v1/assertions: one assertion or a batch, through the gate, in one transaction."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body
from fastapi.responses import JSONResponse

from graph_schema.ledger.types import AssertionWrite
from ingest.assertions import write_assertions
from server.batches import batch_items, batch_schema
from server.deps import DriverDep, EmbedderDep, PrincipalDep, SettingsDep

router = APIRouter(prefix="/v1", tags=["assertions"])

_SCHEMA = batch_schema(AssertionWrite, "assertions", 1000)


@router.post("/assertions", status_code=201, openapi_extra=_SCHEMA)
def post_assertions(
    payload: Annotated[Any, Body()],
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    embedder: EmbedderDep,
) -> Any:
    parsed = batch_items(payload, key="assertions", max_batch=settings.max_batch)
    if isinstance(parsed, JSONResponse):
        return parsed
    raw_items, is_batch = parsed
    results = write_assertions(
        driver,
        database=settings.neo4j_database,
        raw_items=raw_items,
        principal=principal,
        embedder=embedder,
    )
    if is_batch:
        return {"results": [r.model_dump(mode="json") for r in results]}
    return results[0].model_dump(mode="json")
