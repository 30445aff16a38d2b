"""GET /v1/ontology (everyone) and POST /v1/ontology/predicates (admins)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Response
from pydantic import ValidationError

from graph_schema.schema.ontology import as_json, list_predicates, register_predicate
from graph_schema.schema.types import Predicate
from server.deps import AdminDep, DriverDep, PrincipalDep, SettingsDep
from server.errors import error_response

router = APIRouter(prefix="/v1/ontology", tags=["ontology"])


@router.get("")
def get_ontology(driver: DriverDep, settings: SettingsDep, _: PrincipalDep) -> dict[str, Any]:
    predicates = list_predicates(driver, database=settings.neo4j_database)
    return {"predicates": [as_json(p) for p in predicates]}


@router.post(
    "/predicates",
    status_code=201,
    openapi_extra={
        "requestBody": {
            "content": {"application/json": {"schema": Predicate.model_json_schema()}},
            "required": True,
        }
    },
)
def post_predicate(
    payload: Annotated[Any, Body()],
    response: Response,
    driver: DriverDep,
    settings: SettingsDep,
    _: AdminDep,
) -> Any:
    try:
        predicate = Predicate.model_validate(payload)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "body"
        return error_response(422, "invalid_request", f"{where}: {first['msg']}")
    created = register_predicate(driver, database=settings.neo4j_database, predicate=predicate)
    if not created:
        response.status_code = 200
    return {"predicate": as_json(predicate), "created": created}
