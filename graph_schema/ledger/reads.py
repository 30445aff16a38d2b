"""Read paths of the ledger. Every read runs in a read transaction and writes nothing."""

from __future__ import annotations

from datetime import datetime

from neo4j import Driver

from graph_schema.core.types import Principal, Status, Tier
from graph_schema.ledger import cypher
from graph_schema.ledger.records import assertion_out
from graph_schema.ledger.types import AssertionOut, FactsAnswer, HistoryAnswer
from graph_schema.schema.ontology import get_predicate

DEFAULT_TIERS = (Tier.short, Tier.long)


def current_facts(
    driver: Driver,
    *,
    database: str,
    principal: Principal,
    subject: str,
    predicate: str,
    as_of: datetime,
    known_at: datetime,
    min_confidence: float = 0.0,
    tiers: tuple[Tier, ...] = DEFAULT_TIERS,
) -> list[AssertionOut]:
    records, _, _ = driver.execute_query(
        cypher.CURRENT_FACTS,
        subject=subject,
        predicate=predicate,
        as_of=as_of,
        known_at=known_at,
        min_confidence=min_confidence,
        tiers=[t.value for t in tiers],
        groups=list(principal.groups),
        database_=database,
        routing_="r",
    )
    return [assertion_out(r, known_at=known_at) for r in records]


def history(
    driver: Driver,
    *,
    database: str,
    principal: Principal,
    subject: str,
    predicate: str,
    known_at: datetime,
) -> list[AssertionOut]:
    records, _, _ = driver.execute_query(
        cypher.HISTORY,
        subject=subject,
        predicate=predicate,
        known_at=known_at,
        groups=list(principal.groups),
        database_=database,
        routing_="r",
    )
    return [assertion_out(r, known_at=known_at) for r in records]


def in_scope(driver: Driver, *, database: str, predicate: str) -> bool:
    """Whether the ontology tracks ``predicate``; a question about another is out of scope."""
    return get_predicate(driver, database=database, name=predicate) is not None


def _status(found: list[AssertionOut]) -> Status:
    return Status.answered if found else Status.not_found


def facts_answer(
    driver: Driver,
    *,
    database: str,
    principal: Principal,
    subject: str,
    predicate: str,
    as_of: datetime,
    known_at: datetime,
    min_confidence: float = 0.0,
    tiers: tuple[Tier, ...] = DEFAULT_TIERS,
) -> FactsAnswer:
    """``GET /v1/facts``: the current facts of a slot, answered, not found or out of scope."""
    status, facts = Status.out_of_scope, []
    if in_scope(driver, database=database, predicate=predicate):
        facts = current_facts(
            driver,
            database=database,
            principal=principal,
            subject=subject,
            predicate=predicate,
            as_of=as_of,
            known_at=known_at,
            min_confidence=min_confidence,
            tiers=tiers,
        )
        status = _status(facts)
    return FactsAnswer(
        status=status,
        subject=subject,
        predicate=predicate,
        facts=facts,
        as_of=as_of,
        known_at=known_at,
    )


def history_answer(
    driver: Driver,
    *,
    database: str,
    principal: Principal,
    subject: str,
    predicate: str,
    known_at: datetime,
) -> HistoryAnswer:
    """``GET /v1/facts/history``: every version of a slot, or why there is none."""
    status, versions = Status.out_of_scope, []
    if in_scope(driver, database=database, predicate=predicate):
        versions = history(
            driver,
            database=database,
            principal=principal,
            subject=subject,
            predicate=predicate,
            known_at=known_at,
        )
        status = _status(versions)
    return HistoryAnswer(
        status=status, subject=subject, predicate=predicate, versions=versions, known_at=known_at
    )


def overlapping_versions(driver: Driver, *, database: str) -> list[dict[str, object]]:
    """Pairs of versions of one slot that are both current at some (valid, record) point."""
    records, _, _ = driver.execute_query(
        cypher.OVERLAPPING_VERSIONS, database_=database, routing_="r"
    )
    return [dict(r) for r in records]
