"""POST /v1/assertions: one assertion or a batch, through the gate, in one transaction."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body
from fastapi.responses import JSONResponse

from graph_schema.domain import AssertionWrite
from graph_schema.ontology import predicate_map
from ingest import gate, writer
from server.deps import DriverDep, PrincipalDep, SettingsDep
from server.errors import error_response

router = APIRouter(prefix="/v1", tags=["assertions"])

_SCHEMA = {
    "requestBody": {
        "content": {
            "application/json": {
                "schema": {
                    "oneOf": [
                        AssertionWrite.model_json_schema(ref_template="#/components/schemas/{model}"),
                        {
                            "type": "object",
                            "properties": {"assertions": {"type": "array", "maxItems": 1000}},
                            "required": ["assertions"],
                        },
                    ]
                }
            }
        },
        "required": True,
    }
}


def _items(payload: Any, max_batch: int) -> tuple[list[Any], bool] | JSONResponse:
    if isinstance(payload, dict) and set(payload) == {"assertions"}:
        items = payload["assertions"]
        if not isinstance(items, list) or not items:
            return error_response(422, "invalid_request", "assertions must be a non-empty list")
        if len(items) > max_batch:
            return error_response(
                413, "batch_too_large", f"a batch holds at most {max_batch} assertions"
            )
        return items, True
    if isinstance(payload, dict):
        return [payload], False
    return error_response(422, "invalid_request", "the body must be a JSON object")


@router.post("/assertions", status_code=201, openapi_extra=_SCHEMA)
def post_assertions(
    payload: Annotated[Any, Body()],
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
) -> Any:
    parsed = _items(payload, settings.max_batch)
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
    prepared = writer.prepare(accepted, ontology=ontology, source_access=requirements)
    results = writer.write_assertions(
        driver, database=database, prepared=prepared, principal=principal
    )
    gate.count_accepted("assertions", len(results))
    if is_batch:
        return {"results": [r.model_dump(mode="json") for r in results]}
    return results[0].model_dump(mode="json")
