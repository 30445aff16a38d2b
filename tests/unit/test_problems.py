"""A validation problem is placed in the request's own terms (graph_schema.core.problems)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from graph_schema.core import problems
from graph_schema.ledger.types import AssertionWrite
from ingest.gate import schema_reason

BASE = {
    "subject": "a",
    "predicate": "uses",
    "object": "Vue",
    "source_kind": "user_stated",
    "asserted_by": "a",
    "confidence": 0.9,
}


def _reason(**extra: Any) -> str:
    with pytest.raises(ValidationError) as raised:
        AssertionWrite.model_validate({**BASE, **extra})
    return schema_reason(raised.value)[1]


def test_union_members_and_list_positions_are_said_as_the_caller_sent_them() -> None:
    tag = "function-after[_quote_in_source(), EvidenceWrite]"
    assert problems.where(("evidence", tag)) == "evidence"
    assert problems.where(("body", "assertions", 2, "evidence", f"list[{tag}]", 1, "quote")) == (
        "body.assertions[2].evidence[1].quote"
    )
    assert problems.where(("object", "str")) == "object"
    assert problems.where((), "answer") == "answer"


def test_the_deepest_problem_is_reported_first() -> None:
    # a list whose second span is blank: the span member's "not a dictionary" says nothing
    reason = _reason(evidence=[{"quote": "Vue"}, {"quote": ""}])
    assert reason == "evidence[1].quote: String should have at least 1 character"


def test_a_bare_string_for_evidence_is_told_what_a_span_is() -> None:
    reason = _reason(evidence="we use Vue")
    assert reason.startswith("evidence: must be one span, an object with a quote")
    assert "EvidenceWrite" not in reason and "function-after" not in reason
