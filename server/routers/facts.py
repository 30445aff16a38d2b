"""GET /v1/facts and /v1/facts/history: bitemporal reads with an explicit status."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from graph_schema.core.types import Tier
from graph_schema.ledger import reads
from graph_schema.ledger.types import FactsAnswer, HistoryAnswer
from server.deps import AccessLogDep, DriverDep, PrincipalDep, SettingsDep
from server.errors import PARAMS, V1, declared
from server.params import Fraction, PredicateName, Subject, TimeParam, coordinates
from server.routing import JSONRoute

router = APIRouter(prefix="/v1/facts", tags=["facts"], route_class=JSONRoute)


@router.get("", response_model=FactsAnswer, responses=declared(*V1, *PARAMS))
def get_facts(
    subject: Subject,
    predicate: PredicateName,
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    access_log: AccessLogDep,
    as_of: TimeParam = None,
    known_at: TimeParam = None,
    min_confidence: Fraction = 0.0,
    tier: Annotated[list[Tier] | None, Query()] = None,
) -> FactsAnswer:
    valid, known = coordinates(as_of, known_at)
    return reads.facts_answer(
        driver,
        database=settings.neo4j_database,
        principal=principal,
        subject=subject,
        predicate=predicate,
        as_of=valid,
        known_at=known,
        min_confidence=min_confidence,
        tiers=tuple(tier) if tier else reads.DEFAULT_TIERS,
        recorder=access_log,
    )


@router.get("/history", response_model=HistoryAnswer, responses=declared(*V1, *PARAMS))
def get_history(
    subject: Subject,
    predicate: PredicateName,
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    access_log: AccessLogDep,
    known_at: TimeParam = None,
) -> HistoryAnswer:
    _, known = coordinates(None, known_at)
    return reads.history_answer(
        driver,
        database=settings.neo4j_database,
        principal=principal,
        subject=subject,
        predicate=predicate,
        known_at=known,
        recorder=access_log,
    )
