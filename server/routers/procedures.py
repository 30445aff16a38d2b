"""GET /v1/procedures and /v1/procedures/{id}: the ways recurring tasks have been done, as a
sleep mined them from their steps (docs/procedures.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from graph_schema.core.errors import NotFound
from graph_schema.core.types import Name
from graph_schema.procedures import reads
from graph_schema.procedures.types import ProcedureAnswer, ProceduresAnswer
from server.deps import DriverDep, PrincipalDep, SettingsDep
from server.errors import PARAMS, V1, declared
from server.params import Fraction, TimeParam, coordinates
from server.routing import JSONRoute

router = APIRouter(prefix="/v1/procedures", tags=["procedures"], route_class=JSONRoute)

ProcedureIdPath = Annotated[
    str,
    Path(
        pattern=r"^[0-9A-Z]{26}$",
        min_length=26,
        max_length=26,
        description="a procedure version's id",
    ),
]
NO_PROCEDURE = "no visible procedure with this id"


@router.get("", response_model=ProceduresAnswer, responses=declared(*V1, *PARAMS))
def get_procedures(
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    trigger: Annotated[Name | None, Query(description="the action its tasks start with")] = None,
    action: Annotated[Name | None, Query(description="an action among its steps")] = None,
    min_support: Annotated[int, Query(ge=1, le=1_000_000, description="tasks, at least")] = 1,
    min_success_rate: Fraction = 0.0,
    known_at: TimeParam = None,
    limit: Annotated[int, Query(ge=1, le=reads.MAX_LIMIT)] = reads.DEFAULT_LIMIT,
) -> ProceduresAnswer:
    """The procedures current at ``known_at`` that the caller may read, most supported first;
    ``not_found`` when none. A sleep writes them (POST /v1/sleep)."""
    _, known = coordinates(None, known_at)
    return reads.procedures(
        driver,
        database=settings.neo4j_database,
        principal=principal,
        known_at=known,
        want=reads.Filter(trigger, action, min_support, min_success_rate, limit),
    )


@router.get(
    "/{procedure_id}",
    response_model=ProcedureAnswer,
    responses=declared(*V1, *PARAMS, "not_found"),
)
def get_procedure(
    procedure_id: ProcedureIdPath,
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    known_at: TimeParam = None,
) -> ProcedureAnswer:
    """One version, current or superseded, as known at ``known_at``; 404 when the caller may
    not read it, exactly as for an id that does not exist."""
    _, known = coordinates(None, known_at)
    answer = reads.procedure(
        driver,
        database=settings.neo4j_database,
        principal=principal,
        known_at=known,
        procedure_id=procedure_id,
    )
    if answer is None:
        raise NotFound(NO_PROCEDURE, details={"id": procedure_id})
    return answer
