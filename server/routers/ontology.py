"""GET /v1/ontology (everyone) and POST /v1/ontology/predicates (admins)."""

from __future__ import annotations

from fastapi import APIRouter, Response

from graph_schema.core.secrets import refuse_secrets
from graph_schema.schema.ontology import list_predicates, register_predicate
from graph_schema.schema.types import OntologyAnswer, Predicate, PredicateRegistered
from server.deps import AdminDep, DriverDep, PrincipalDep, SettingsDep
from server.errors import BODY, PARAMS, V1, declared
from server.routing import JSONRoute

router = APIRouter(prefix="/v1/ontology", tags=["ontology"], route_class=JSONRoute)


@router.get("", response_model=OntologyAnswer, responses=declared(*V1, *PARAMS))
def get_ontology(driver: DriverDep, settings: SettingsDep, _: PrincipalDep) -> OntologyAnswer:
    return OntologyAnswer(predicates=list_predicates(driver, database=settings.neo4j_database))


@router.post(
    "/predicates",
    status_code=201,
    response_model=PredicateRegistered,
    responses={
        200: {
            "model": PredicateRegistered,
            "description": "an identical predicate was already registered (`created: false`)",
        },
        **declared(*V1, *BODY, "forbidden", "ontology_conflict", "secret_detected"),
    },
)
def post_predicate(
    predicate: Predicate,
    response: Response,
    driver: DriverDep,
    settings: SettingsDep,
    _: AdminDep,
) -> PredicateRegistered:
    """Register a predicate: 201 when created, 200 when an identical one exists, 409 when one
    of that name exists with another definition."""
    refuse_secrets(predicate.model_dump(mode="json"), settings.secrets)
    created = register_predicate(driver, database=settings.neo4j_database, predicate=predicate)
    if not created:
        response.status_code = 200
    return PredicateRegistered(predicate=predicate, created=created)
