"""Recall's WHERE clauses read the caller's filters from one map parameter: Neo4j caches a
plan per statement and per parameter type and size class, so separate filter parameters
(null, or strings and lists of different lengths) made each combination of filters a plan of
its own, planned on its first use (graph_schema/recall/cypher.py)."""

from __future__ import annotations

import itertools
import re
from datetime import UTC, datetime
from typing import Any

from graph_schema.core.types import Principal, SourceKind
from graph_schema.recall import cypher as q
from graph_schema.recall.pipeline import RecallQuery, parameters
from graph_schema.recall.types import RecallFilters

NOW = datetime(2026, 6, 1, tzinfo=UTC)
GIVEN: dict[str, Any] = {
    "subject": "user:alice",
    "task_id": "task-1",
    "conversation_id": "conversation-with-a-long-id-0001",
    "source_kinds": [SourceKind("user_stated"), SourceKind("document")],
}
SEPARATE = re.compile(r"\$(subject|task_id|conversation_id|source_kinds|tiers)\b")


def test_the_filters_are_read_from_the_map_only() -> None:
    for clause in (q.assertion_filter("a"), q.passage_filter("n"), q.observation_filter("o")):
        assert "$filter." in clause and not SEPARATE.search(clause), clause


def test_every_combination_of_filters_gives_the_same_map_shape() -> None:
    shapes = set()
    for present in itertools.product((False, True), repeat=len(GIVEN)):
        given = {n: v for (n, v), on in zip(GIVEN.items(), present, strict=True) if on}
        query = RecallQuery("what?", 10, NOW, NOW, filters=RecallFilters(**given))
        p = parameters(Principal(id="alice", groups=("finance",)), query)
        assert set(p["filter"]) == {*GIVEN, "tiers"} and "tiers" not in p
        assert p["filter"]["source_kinds"] in (None, ["user_stated", "document"])
        assert all(p["filter"][n] == given.get(n) for n in ("subject", "task_id"))
        shapes.add(tuple(sorted(p["filter"])))
    assert len(shapes) == 1


def test_a_separate_filter_parameter_is_found() -> None:
    assert SEPARATE.search("WHERE ($subject IS NULL OR a.subject = $subject)")
    assert not SEPARATE.search("WHERE ($filter.subject IS NULL OR a.subject = $filter.subject)")
