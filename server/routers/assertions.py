"""POST /v1/assertions: one assertion or a batch, through the gate, in one transaction."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body
from fastapi.responses import JSONResponse

from graph_schema.domain import AssertionWrite
from graph_schema.ontology import predicate_map
from ingest import gate, writer
from ingest.embeddings import embed_items
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
    database = settings.neo4j_database
    ontology = predicate_map(driver, database=database)
    accepted, rejected = gate.check_batch(raw_items, ontology=ontology, principal=principal)
    if rejected:
        raise gate.refuse(
            driver, database=database, rejections=rejected, origin="assertions", principal=principal
        )
    rejected, requirements = gate.check_sources(
        driver, database=database, items=accepted, principal=principal
    )
    if rejected:
        raise gate.refuse(
            driver, database=database, rejections=rejected, origin="assertions", principal=principal
        )
    prepared = writer.prepare(
        accepted,
        ontology=ontology,
        source_access=requirements,
        embeddings=embed_items(embedder, accepted),
    )
    results = writer.write_assertions(
        driver, database=database, prepared=prepared, principal=principal
    )
    gate.count_accepted("assertions", len(results))
    if is_batch:
        return {"results": [r.model_dump(mode="json") for r in results]}
    return results[0].model_dump(mode="json")
