"""Step 8: what current fact a question asks for, and the groups holding it first
(graph_schema/recall/facts_asked.py)."""

from __future__ import annotations

from typing import Any

import pytest

from graph_schema.recall import facts_asked
from graph_schema.recall.facts_asked import Asked
from graph_schema.recall.fusion import Scored


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("Who handles the replicas now?", Asked("owner", ("replicas",))),
        ("Who owns the ledger service now?", Asked("owner", ("ledger", "service"))),
        ("Who is responsible for the API spec?", Asked("owner", ("API", "spec"))),
        ("Which version of the db-failover runbook is current?",
         Asked("current_version", ("db", "failover", "runbook"))),
        ("What is the status of the migration?", Asked("status", ("migration",))),
        # the past, a time of its own, an earlier owner: a fact superseded may answer
        ("Who owned the API before Omar?", None),
        ("Which version of the plan was current in April 2026?", None),
        ("Which version of the mobile app was released in May?", None),
        ("Who handled the replicas before Kofi?", None),
        ("Where does Priya work now?", None),
    ],
)  # fmt: skip
def test_what_current_fact_a_question_asks_for(query: str, asked: Asked | None) -> None:
    assert facts_asked.asked(query) == asked


def record(subject: str, predicate: str, obj: str, polarity: bool = True) -> dict[str, Any]:
    return {"assertion": {"subject": subject, "predicate": predicate, "object": obj,
                          "polarity": polarity}}  # fmt: skip


def test_the_groups_holding_the_fact_come_first_with_the_boost() -> None:
    ranked = [Scored("a", 3.0), Scored("b", 2.0), Scored("c", 1.0)]
    records = {
        "a": [record("lena", "said", "Arjun handles the replicas")],
        "b": [record("runbook", "owner", "Bea")],  # another thing
        "c": [record("replicas", "owner", "Kofi")],
    }
    order = facts_asked.fact_first(ranked, records, Asked("owner", ("replicas",)))
    assert [s.gid for s in order] == ["c", "a", "b"]
    assert [s.boosts for s in order] == [["fact"], [], []]


def test_a_denied_fact_or_none_leaves_the_order() -> None:
    ranked = [Scored("a", 3.0), Scored("b", 2.0)]
    records = {"b": [record("replicas", "owner", "Kofi", polarity=False)]}
    order = facts_asked.fact_first(ranked, records, Asked("owner", ("replicas",)))
    assert [s.gid for s in order] == ["a", "b"]
    assert all(not s.boosts for s in order)
