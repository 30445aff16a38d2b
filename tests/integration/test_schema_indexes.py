"""The indexes the migrations leave: what recall reads exists, nothing unread is maintained."""

from __future__ import annotations

from typing import Any

import pytest
from neo4j import Driver

from graph_schema.core import cypher
from graph_schema.events import cypher as cypher_events
from graph_schema.ledger import cypher as cypher_ledger
from graph_schema.observations import cypher as cypher_observations
from graph_schema.quarantine import cypher as cypher_quarantine
from graph_schema.recall import cypher as cypher_recall
from graph_schema.schema import cypher as cypher_schema
from graph_schema.schema.migrations import LATEST_VERSION, current_version

pytestmark = pytest.mark.integration

CAPABILITY_CYPHER = (
    cypher,
    cypher_events,
    cypher_ledger,
    cypher_observations,
    cypher_quarantine,
    cypher_recall,
    cypher_schema,
)


def test_recall_indexes_exist_and_the_unread_evidence_full_text_indexes_are_gone(
    driver: Driver,
) -> None:
    assert current_version(driver, database="neo4j") == LATEST_VERSION
    records, _, _ = driver.execute_query("SHOW INDEXES YIELD name RETURN collect(name) AS n")
    names = set(records[0]["n"])
    read_by_recall = set(cypher_recall.VECTOR_INDEXES.values())
    read_by_recall |= set(cypher_recall.FULLTEXT_INDEXES.values())
    assert read_by_recall <= names
    # every Evidence node paid two Lucene documents for these; nothing queried them
    assert not {"evidence_quote", "evidence_quote_cjk"} & names


def _operators(plan: Any) -> list[str]:
    found = [str(plan.get("operatorType", "")).split("@")[0]]
    for child in plan.get("children", []):
        found += _operators(child)
    return found


def test_statements_that_skip_replanning_plan_as_index_seeks_on_an_empty_store(
    driver: Driver,
    fresh_store: None,
) -> None:
    # The plan a statement keeps under `replan=skip` may be made on an empty store; it must be
    # the plan it would get on a full one: every node found by an indexed key, nothing scanned.
    # every capability keeps its statements in its own cypher.py
    stable = {
        name: value
        for module in CAPABILITY_CYPHER
        for name, value in vars(module).items()
        if isinstance(value, str)
        and value.startswith(cypher.STABLE_PLAN)
        and value != cypher.STABLE_PLAN
    }
    assert {"CREATE_ASSERTIONS", "ALIVE_VERSIONS", "MERGE_OBSERVATIONS"} <= set(stable)
    records, _, _ = driver.execute_query(
        "MATCH (n) WHERE n:Assertion OR n:Observation OR n:Slot RETURN count(n) AS c"
    )
    assert records[0]["c"] == 0
    driver.execute_query("CALL db.clearQueryCaches()")
    for name, statement in stable.items():
        with driver.session(database="neo4j") as session:
            summary = session.run(f"EXPLAIN {statement}").consume()
        assert summary.plan is not None, name
        operators = _operators(summary.plan)
        scans = [op for op in operators if "Scan" in op]
        assert not scans, f"{name} scans on an empty store: {operators}"
