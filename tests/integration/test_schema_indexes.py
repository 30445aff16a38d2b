"""The indexes the migrations leave: what recall reads exists, nothing unread is maintained."""

from __future__ import annotations

import pytest
from neo4j import Driver

from graph_schema import cypher_recall
from graph_schema.migrations import LATEST_VERSION, current_version

pytestmark = pytest.mark.integration


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
