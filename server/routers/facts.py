"""GET /v1/facts and /v1/facts/history: bitemporal reads with an explicit status."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from graph_schema.core.types import Status, Tier
from graph_schema.ledger import reads
from graph_schema.ledger.types import FactsAnswer, HistoryAnswer
from graph_schema.schema.ontology import get_predicate
from server.deps import AccessLogDep, DriverDep, PrincipalDep, SettingsDep
from server.params import coordinates

router = APIRouter(prefix="/v1/facts", tags=["facts"])

Subject = Annotated[str, Query(min_length=1, max_length=512)]
PredicateName = Annotated[str, Query(min_length=1, max_length=64)]


@router.get("", response_model=FactsAnswer)
def get_facts(
    subject: Subject,
    predicate: PredicateName,
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    access_log: AccessLogDep,
    as_of: str | None = None,
    known_at: str | None = None,
    min_confidence: Annotated[float, Query(ge=0, le=1)] = 0.0,
    tier: Annotated[list[Tier] | None, Query()] = None,
) -> FactsAnswer:
    valid, known = coordinates(as_of, known_at)
    database = settings.neo4j_database
    if get_predicate(driver, database=database, name=predicate) is None:
        return FactsAnswer(
            status=Status.out_of_scope,
            subject=subject,
            predicate=predicate,
            facts=[],
            as_of=valid,
            known_at=known,
        )
    facts = reads.current_facts(
        driver,
        database=database,
        principal=principal,
        subject=subject,
        predicate=predicate,
        as_of=valid,
        known_at=known,
        min_confidence=min_confidence,
        tiers=tuple(tier) if tier else reads.DEFAULT_TIERS,
        recorder=access_log,
    )
    status = Status.answered if facts else Status.not_found
    return FactsAnswer(
        status=status,
        subject=subject,
        predicate=predicate,
        facts=facts,
        as_of=valid,
        known_at=known,
    )


@router.get("/history", response_model=HistoryAnswer)
def get_history(
    subject: Subject,
    predicate: PredicateName,
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    access_log: AccessLogDep,
    known_at: str | None = None,
) -> HistoryAnswer:
    _, known = coordinates(None, known_at)
    database = settings.neo4j_database
    if get_predicate(driver, database=database, name=predicate) is None:
        return HistoryAnswer(
            status=Status.out_of_scope,
            subject=subject,
            predicate=predicate,
            versions=[],
            known_at=known,
        )
    versions = reads.history(
        driver,
        database=database,
        principal=principal,
        subject=subject,
        predicate=predicate,
        known_at=known,
        recorder=access_log,
    )
    status = Status.answered if versions else Status.not_found
    return HistoryAnswer(
        status=status, subject=subject, predicate=predicate, versions=versions, known_at=known
    )
