"""Read paths of the ledger. Every read runs in a read transaction and writes nothing."""

from __future__ import annotations

from datetime import datetime

from neo4j import Driver

from graph_schema.core.types import Principal, Status, Tier
from graph_schema.ledger import cypher
from graph_schema.ledger.records import assertion_out, history_version
from graph_schema.ledger.types import AssertionOut, FactsAnswer, HistoryAnswer, HistoryVersion
from graph_schema.lifecycle import access
from graph_schema.schema.ontology import get_predicate
from graph_schema.schema.types import Cardinality

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
        caller=principal.id,
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
        caller=principal.id,
        database_=database,
        routing_="r",
    )
    versions = [history_version(r, known_at=known_at) for r in records]
    access.record(recorder, access.returned(versions))
    return versions


def in_scope(driver: Driver, *, database: str, predicate: str) -> bool:
    """Whether the ontology tracks ``predicate``; a question about another is out of scope."""
    return get_predicate(driver, database=database, name=predicate) is not None


def _status(found: list[AssertionOut] | list[HistoryVersion]) -> Status:
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
    recorder: access.AccessRecorder | None = None,
) -> FactsAnswer:
    """``GET /v1/facts``: the current facts of a slot, answered, not found or out of scope."""
    status, facts = Status.out_of_scope, list[AssertionOut]()
    tracked = get_predicate(driver, database=database, name=predicate)
    if tracked is not None:
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
            recorder=recorder,
        )
        status = _status(facts)
    one_valued = tracked is not None and tracked.cardinality is Cardinality.one
    return FactsAnswer(
        status=status,
        subject=subject,
        predicate=predicate,
        facts=facts,
        scopes_disagree=one_valued and scopes_disagree(facts),
        as_of=as_of,
        known_at=known_at,
    )


def scopes_disagree(facts: list[AssertionOut]) -> bool:
    """Whether the current facts of a one-valued predicate hold more than one value. One slot
    has one current version, so several can only come from slots of different scopes (access
    lists, source requirements) that the caller reads together; computed from the facts the
    caller was answered (disclosure views included), so it tells nothing of a hidden one."""
    return len({fact.object for fact in facts}) > 1


def history_answer(
    driver: Driver,
    *,
    database: str,
    principal: Principal,
    subject: str,
    predicate: str,
    known_at: datetime,
    recorder: access.AccessRecorder | None = None,
) -> HistoryAnswer:
    """``GET /v1/facts/history``: every version of a slot, or why there is none."""
    status, versions = Status.out_of_scope, list[HistoryVersion]()
    if in_scope(driver, database=database, predicate=predicate):
        versions = history(
            driver,
            database=database,
            principal=principal,
            subject=subject,
            predicate=predicate,
            known_at=known_at,
            recorder=recorder,
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
