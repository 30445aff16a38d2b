"""Append-only: across a batch of supersessions only closing stamps change, each once."""

from __future__ import annotations

from typing import Any

import pytest
from neo4j import Driver

from tests.helpers import Api, assertion

pytestmark = pytest.mark.integration

CLOSING = {"valid_to", "closed_at", "superseded_at"}
DISPLAY = {"Superseded"}  # for Neo4j Browser's style (docs/browser.md); never read
# serialisation devices and bookkeeping, not the record (docs/semantics.md): their counters
# move with every write (Slot, Task), every flush of the access log (AccessCount, written by
# a server's background thread at any moment), every sleep (SleepLock) or every write of a
# conversation's turns (PassageLock)
BOOKKEEPING = ("Slot", "SchemaVersion", "Task", "AccessCount", "SleepLock", "PassageLock")


def _snapshot(driver: Driver) -> dict[str, dict[str, Any]]:
    records, _, _ = driver.execute_query(
        "MATCH (n) WHERE none(label IN labels(n) WHERE label IN $bookkeeping) "
        "RETURN elementId(n) AS id, labels(n) AS labels, properties(n) AS props",
        bookkeeping=list(BOOKKEEPING),
    )
    return {r["id"]: {"labels": r["labels"], **r["props"]} for r in records}


def _edges(driver: Driver) -> set[tuple[str, str, str]]:
    records, _, _ = driver.execute_query(
        "MATCH (a)-[r]->(b) RETURN elementId(a) AS a, type(r) AS t, elementId(b) AS b"
    )
    return {(r["a"], r["t"], r["b"]) for r in records}


def test_only_closing_stamps_change_and_each_once(
    api: dict[str, Api], subject: str, driver: Driver
) -> None:
    pub = api["public"]
    seeds = [
        assertion(f"{subject}-{n}", "tech_stack", "Vue", valid_from="2026-01-01T00:00:00Z")
        for n in range(10)
    ]
    assert pub.post("/v1/assertions", {"assertions": seeds}).status_code == 201
    before, edges_before = _snapshot(driver), _edges(driver)
    stamps: dict[str, set[str]] = {}
    for month in ("03", "06", "09"):
        batch = [
            assertion(
                f"{subject}-{n}",
                "tech_stack",
                f"React-{month}",
                valid_from=f"2026-{month}-01T00:00:00Z",
            )
            for n in range(10)
        ]
        batch += [
            assertion(
                f"{subject}-{n}", "tech_stack", "Svelte", valid_from=f"2026-{month}-01T00:00:00Z"
            )
            for n in range(2)
        ]  # corrections
        assert pub.post("/v1/assertions", {"assertions": batch}).status_code == 201
        after = _snapshot(driver)
        for node_id, old in before.items():
            new = after[node_id]
            changed = {k for k in set(old) | set(new) if old.get(k) != new.get(k)}
            if "labels" in changed:  # a closed version gains the display label, once
                added = set(new["labels"]) - set(old["labels"])
                assert added == DISPLAY and set(old["labels"]) <= set(new["labels"]), (old, new)
                changed.discard("labels")
            assert changed <= CLOSING, (old, new)
            for key in changed:
                assert old.get(key) is None, f"{key} set twice on {node_id}"
                stamps.setdefault(node_id, set()).add(key)
        before = after
    assert stamps, "the batches should have closed earlier versions"
    assert edges_before <= _edges(driver), "no relationship may disappear"
