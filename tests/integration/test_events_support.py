"""Helpers shared by the event tests (no tests here): bodies, times, counts."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from neo4j import Driver

from graph_schema.core.timeutil import utcnow

pytestmark = pytest.mark.integration

# The story happens yesterday (UTC), so "now" reads see its end state.
STORY_DAY = (utcnow() - timedelta(days=1)).date().isoformat()


def at(hhmm: str, day: str = STORY_DAY) -> str:
    return f"{day}T{hhmm}:00+00:00"


def new_task() -> str:
    return f"task:{uuid.uuid4().hex[:12]}"


def event(
    task_id: str,
    action: str,
    occurred_at: str,
    *,
    caused_by: list[str] | None = None,
    actor: str = "agent",
    outcome: str = "success",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "task_id": task_id,
        "actor": actor,
        "action": action,
        "outcome": outcome,
        "occurred_at": occurred_at,
        "before": before or {},
        "after": after or {},
    }
    if caused_by is None:
        body["root"] = True
    else:
        body["caused_by"] = caused_by
    body.update(extra)
    return body


def fact(
    subject: str, predicate: str, obj: Any, quote: str, source_kind: str, by: str
) -> dict[str, Any]:
    return {
        "subject": subject,
        "predicate": predicate,
        "object": obj,
        "source_kind": source_kind,
        "asserted_by": by,
        "confidence": 0.95,
        "evidence": {"quote": quote},
    }


def count(driver: Driver, cypher: str, **params: Any) -> int:
    records, _, _ = driver.execute_query(cypher, **params)
    return int(records[0][0])


def ledger_counts(driver: Driver) -> dict[str, int]:
    """How many nodes of each written kind exist (to prove nothing was written)."""
    return {
        label: count(driver, f"MATCH (n:{label}) RETURN count(n)")
        for label in ("Event", "Task", "Assertion", "Evidence")
    } | {"CAUSED_BY": count(driver, "MATCH ()-[r:CAUSED_BY]->() RETURN count(r)")}


def quarantined(driver: Driver) -> int:
    return count(driver, "MATCH (q:Quarantine {origin: 'events'}) RETURN count(q)")
