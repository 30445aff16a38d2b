"""Read paths of the ledger. Every read runs in a read transaction and writes nothing."""

from __future__ import annotations

from datetime import datetime

from neo4j import Driver

from graph_schema.core.types import Principal, Tier
from graph_schema.ledger import cypher
from graph_schema.ledger.records import assertion_out
from graph_schema.ledger.types import AssertionOut

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


def overlapping_versions(driver: Driver, *, database: str) -> list[dict[str, object]]:
    """Pairs of versions of one slot that are both current at some (valid, record) point."""
    records, _, _ = driver.execute_query(
        cypher.OVERLAPPING_VERSIONS, database_=database, routing_="r"
    )
    return [dict(r) for r in records]
