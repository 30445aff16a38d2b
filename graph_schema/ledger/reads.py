"""Read paths of the ledger. Every read runs in a read transaction and writes nothing."""

from __future__ import annotations

from datetime import datetime

from neo4j import Driver

from graph_schema.core.types import Principal, Tier
from graph_schema.ledger import cypher
from graph_schema.ledger.records import assertion_out, history_version
from graph_schema.ledger.types import AssertionOut, HistoryVersion
from graph_schema.lifecycle import access

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
    recorder: access.AccessRecorder | None = None,
) -> list[AssertionOut]:
    """The versions that govern the slot at (``as_of``, ``known_at``), in the tiers asked for
    (each assertion's tier as known at ``known_at``); counted in the access log."""
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
    facts = [assertion_out(r, known_at=known_at) for r in records]
    access.record(recorder, access.returned(facts))
    return facts


def history(
    driver: Driver,
    *,
    database: str,
    principal: Principal,
    subject: str,
    predicate: str,
    known_at: datetime,
    recorder: access.AccessRecorder | None = None,
) -> list[HistoryVersion]:
    """Every version of the slot recorded by ``known_at``, with its transitions."""
    records, _, _ = driver.execute_query(
        cypher.HISTORY,
        subject=subject,
        predicate=predicate,
        known_at=known_at,
        groups=list(principal.groups),
        database_=database,
        routing_="r",
    )
    versions = [history_version(r, known_at=known_at) for r in records]
    access.record(recorder, access.returned(versions))
    return versions


def overlapping_versions(driver: Driver, *, database: str) -> list[dict[str, object]]:
    """Pairs of versions of one slot that are both current at some (valid, record) point."""
    records, _, _ = driver.execute_query(
        cypher.OVERLAPPING_VERSIONS, database_=database, routing_="r"
    )
    return [dict(r) for r in records]
