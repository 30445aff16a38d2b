"""A validation problem is placed in the request's own terms (graph_schema.core.problems)."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from graph_schema.core import problems
from graph_schema.ledger.types import AssertionWrite
from graph_schema.recall.types import RecallRequest
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


def test_an_integer_too_long_to_read_names_the_limit() -> None:
    """A new user's trial: ``max_depth`` of 5,001 digits was told "Unable to parse input string
    as an integer, exceeded maximum size", which names no size."""
    with pytest.raises(ValidationError) as raised:
        TypeAdapter(int).validate_python("1" * (sys.get_int_max_str_digits() + 1))
    said = problems.message(raised.value.errors()[0])
    assert said == f"an integer here has at most {sys.get_int_max_str_digits()} digits"


def test_a_body_that_is_no_object_is_told_so_in_json_terms() -> None:
    """The request parser's wording is the write routes' (a new user's trial read "Input should
    be a JSON object or object to extract fields from" on some routes only)."""
    with pytest.raises(ValidationError) as raised:  # as the request parser validates a body
        RecallRequest.model_validate([1], from_attributes=True)
    assert problems.message(raised.value.errors()[0]) == "Input should be a JSON object"
