"""Ending a task: its working memory consolidated in ONE write transaction.

The transaction first locks the Task node (the lock every write into the task takes too), so
a write either commits before the end and is consolidated, or waits and is refused as
``task_ended``. It then locks the slots of the task's assertions, reads every assertion whose
tier (as known now) is still ``short``, decides each one with
:func:`graph_schema.lifecycle.rules.consolidate`, records the decisions as ``TierChange`` nodes
and stores the report on the Task, once. A repeated end finds the report and writes nothing:
20 concurrent ends wait on the lock, and all but the first replay the stored report.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from neo4j import Driver, ManagedTransaction

from graph_schema.core.clock import Clock
from graph_schema.core.errors import NotFound, PermissionDenied
from graph_schema.core.records import as_datetime
from graph_schema.core.timeutil import new_id, parse_rfc3339, to_rfc3339
from graph_schema.core.types import Principal
from graph_schema.lifecycle import cypher, rules
from graph_schema.lifecycle.reads import find_task, readable
from graph_schema.lifecycle.types import ConsolidationReport, Rule, task_key
from graph_schema.schema.ontology import predicate_map
from ingest.lifecycle.restore import held_in, lock_slots, restore
from ingest.metrics import LIFECYCLE_TRANSITIONS

NO_TASK = "no visible task with this id"


@dataclass(frozen=True)
class Lifecycle:
    """What every lifecycle path needs besides the store: the rules' settings and the clock."""

    policy: rules.Policy
    clock: Clock


def ephemeral_predicates(driver: Driver, *, database: str) -> frozenset[str]:
    return frozenset(
        p.name for p in predicate_map(driver, database=database).values() if p.ephemeral
    )


def _span(evidence: dict[str, Any]) -> rules.Span:
    return rules.Span(evidence.get("observation_id"), evidence.get("start"), evidence.get("end"))


def _working(
    record: Any, ephemeral: frozenset[str], supports: list[rules.Support]
) -> rules.Working:
    evidence = [dict(e) for e in record["evidence"]]
    return rules.Working(
        id=record["id"],
        predicate=record["predicate"],
        polarity=bool(record["polarity"]),
        confidence=float(record["confidence"]),
        source_kind=record["source_kind"],
        recorded_at=as_datetime(record["recorded_at"]),  # type: ignore[arg-type]
        clauses=rules.clauses(record["access"] or [], record["access_all"]),
        source=rules.source_key(
            [e.get("observation_id") for e in evidence],
            record["asserted_by"],
            record["source_kind"],
        ),
        ephemeral=record["predicate"] in ephemeral,
        spans=tuple(_span(e) for e in evidence),
        supports=tuple(supports),
    )


def _supports(
    tx: ManagedTransaction, rows: Sequence[Any], ephemeral: frozenset[str]
) -> dict[str, list[rules.Support]]:
    facts = [
        {"id": r["id"], "subject": r["subject"], "predicate": r["predicate"], "object": r["object"]}
        for r in rows
        if r["polarity"] and r["predicate"] != rules.SAID and r["predicate"] not in ephemeral
    ]
    found: dict[str, list[rules.Support]] = {}
    if not facts:
        return found
    for s in tx.run(cypher.SUPPORTS, facts=facts):
        source = rules.source_key(s["observations"], s["asserted_by"], s["source_kind"])
        clauses = rules.clauses(s["access"] or [], s["access_all"])
        found.setdefault(s["fact"], []).append(rules.Support(source, clauses))
    return found


def plan(
    tx: ManagedTransaction,
    *,
    task_id: str,
    owner: str,
    ephemeral: frozenset[str],
    policy: rules.Policy,
    known_at: datetime,
) -> list[rules.Decision]:
    """The decisions for the task's working memory as known at ``known_at`` (no writes)."""
    rows = list(tx.run(cypher.WORKING, task_id=task_id, owner=owner, known_at=known_at))
    supports = _supports(tx, rows, ephemeral)
    items = [_working(r, ephemeral, supports.get(r["id"], [])) for r in rows]
    return rules.consolidate(items, policy)


def change_rows(decisions: Sequence[rules.Decision]) -> list[dict[str, str]]:
    return [
        {
            "id": new_id(),
            "assertion_id": d.id,
            "from_tier": d.from_tier.value,
            "to_tier": d.to_tier.value,
            "rule": d.rule.value,
            "reason": d.reason,
        }
        for d in decisions
    ]


def record_changes(
    tx: ManagedTransaction,
    decisions: Sequence[rules.Decision],
    *,
    run_id: str,
    now: datetime,
    clock_at: datetime,
) -> None:
    """Write one TierChange per decision (real record time ``now``, lifecycle time ``clock_at``)."""
    if not decisions:
        return
    tx.run(
        cypher.CREATE_TIER_CHANGES,
        changes=change_rows(decisions),
        run_id=run_id,
        now=now,
        clock_at=to_rfc3339(clock_at),
    ).consume()


def _report(
    task_id: str,
    owner: str,
    ended_at: datetime,
    decisions: Sequence[rules.Decision],
    restored: Sequence[str],
) -> dict[str, Any]:
    return {
        "task_id": task_id,
        "owner": owner,
        "ended_at": to_rfc3339(ended_at),
        "promoted": [d.id for d in decisions if d.promoted],
        "discarded": [d.id for d in decisions if not d.promoted],
        "reasons": {d.id: d.rule.value for d in decisions},
        "restored": list(restored),
    }


def consolidate_in_tx(
    tx: ManagedTransaction,
    *,
    task_id: str,
    owner: str,
    ephemeral: frozenset[str],
    life: Lifecycle,
    run_id: str,
) -> tuple[dict[str, Any], bool]:
    """End and consolidate the task (see the module doc): its report, and True if this
    transaction made it (False: the stored report of an earlier end, nothing written)."""
    key = task_key(owner, task_id)
    locked = tx.run(cypher.LOCK_TASK, key=key).single(strict=True)
    if locked["report"] is not None:
        stored: dict[str, Any] = json.loads(locked["report"])
        return stored, False
    slots = [r["key"] for r in tx.run(cypher.TASK_SLOTS, task_id=task_id, owner=owner)]
    now = lock_slots(tx, slots)
    decisions = plan(
        tx, task_id=task_id, owner=owner, ephemeral=ephemeral, policy=life.policy, known_at=now
    )
    record_changes(tx, decisions, run_id=run_id, now=now, clock_at=life.clock.now())
    discarded = [d.id for d in decisions if not d.promoted]
    restored = restore(tx, held_in(tx, discarded, slots, now=now), now=now)
    ended_at = as_datetime(locked["ended_at"]) or now
    report = _report(task_id, owner, ended_at, decisions, restored)
    tx.run(
        cypher.SET_TASK_ENDED, key=key, now=now, report=json.dumps(report), run_id=run_id
    ).consume()
    return report, True


def shown(report: dict[str, Any], visible: set[str]) -> ConsolidationReport:
    """The stored report as one caller sees it: only the ids it may read."""
    return ConsolidationReport(
        task_id=report["task_id"],
        owner=report["owner"],
        ended_at=parse_rfc3339(report["ended_at"]),
        promoted=[i for i in report["promoted"] if i in visible],
        discarded=[i for i in report["discarded"] if i in visible],
        reasons={i: Rule(r) for i, r in report["reasons"].items() if i in visible},
        restored=[i for i in report.get("restored", []) if i in visible],
    )


def end_task(
    driver: Driver,
    *,
    database: str,
    principal: Principal,
    task_id: str,
    owner: str | None,
    life: Lifecycle,
) -> ConsolidationReport:
    """``POST /v1/tasks/{task_id}/end``: end the task ``(owner or the caller, task_id)`` and
    consolidate it. A task the caller may not see is NotFound, exactly like one that does
    not exist; a visible task of someone else, for a caller who is not an admin, is
    PermissionDenied. Ending again answers the same report and writes nothing."""
    bound = life.policy.working_memory_bound
    task = find_task(
        driver, database=database, principal=principal, task_id=task_id, owner=owner, bound=bound
    )
    if task is None:
        raise NotFound(NO_TASK, details={"task_id": task_id})
    if task.owner != principal.id and not principal.is_admin:
        raise PermissionDenied("only the task's owner or an admin may end it")
    ephemeral = ephemeral_predicates(driver, database=database)
    with driver.session(database=database) as session:
        report, made = session.execute_write(
            lambda tx: consolidate_in_tx(
                tx,
                task_id=task_id,
                owner=task.owner,
                ephemeral=ephemeral,
                life=life,
                run_id=new_id(),
            )
        )
        ids = [*report["promoted"], *report["discarded"], *report.get("restored", [])]
        visible = session.execute_read(readable, ids, principal)
    if made:
        count(report)
    return shown(report, visible)


def count(report: dict[str, Any]) -> None:
    """Count a new report's transitions by rule in /metrics (after its commit)."""
    for rule in report["reasons"].values():
        LIFECYCLE_TRANSITIONS.labels(rule=rule).inc()
