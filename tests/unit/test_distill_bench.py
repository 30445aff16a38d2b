"""The scoring of bench/distill.py: what counts as the same fact, the same date, and the
LLM part skipped with a message when no endpoint is configured (and run against one when it
is: the stub endpoint of tests/stubs/llm_stub.py)."""

from __future__ import annotations

import argparse
from datetime import date
from typing import Any

from bench.distill import (
    Item,
    _distillers,
    at_granularity,
    evaluate,
    normalise,
    score_item,
)
from graph_schema.observations.types import ObservationIn
from tests.stubs.llm_stub import LlmStub

AT = "2023-05-25T13:14:00+00:00"
TEXT = "I ran a half marathon last Saturday."
OBS = ObservationIn(text=TEXT, speaker="Alex", occurred_at=AT, source_kind="user_stated")
LABEL = {
    "subject": "Alex",
    "predicate": "attended",
    "object": "half marathon",
    "alternatives": ["half marathon in the park"],
    "polarity": True,
    "time": "2023-05-20",
}


def draft(obj: str, valid_from: str | None = None, **extra: Any) -> dict[str, Any]:
    found = {"subject": "Alex", "predicate": "attended", "object": obj, "polarity": True}
    if valid_from:
        found["valid_from"] = valid_from
    return {**found, **extra}


def test_objects_are_compared_normalised() -> None:
    assert normalise("A Half Marathons!") == normalise("half marathon") == "half marathon"
    assert normalise("my favourite novels") == normalise("favourite novel")
    assert normalise("road trip (2023-11)") == "road trip"
    assert normalise(True) == "true"
    assert normalise("《肖申克的救赎》") == normalise("肖申克的救赎")


def test_dates_are_read_at_the_labels_granularity() -> None:
    day = date(2023, 5, 20)
    assert [at_granularity(day, g) for g in ("2023-05-01", "2023-W01", "2023-01", "2023")] == [
        "2023-05-20",
        "2023-W20",
        "2023-05",
        "2023",
    ]


def test_a_match_needs_subject_predicate_object_and_polarity() -> None:
    item = Item("locomo", "t", "dev", OBS, [LABEL])
    right = score_item(item, [draft("a half marathon", "2023-05-20T00:00:00+00:00")])
    assert (right.matched, right.found, right.dates, right.dates_right) == (1, 1, 1, 1)
    undated = score_item(item, [draft("half marathon")])
    assert (undated.matched, undated.dates, undated.dates_right) == (1, 1, 0)
    wrong = score_item(item, [draft("race", "2023-05-20T00:00:00+00:00")])
    assert (wrong.predicted, wrong.matched, wrong.found) == (1, 0, 0)
    said = score_item(item, [{**draft(TEXT), "predicate": "said"}])
    assert (said.predicted, said.turns_with_fact) == (0, 0)


def test_the_llm_part_is_skipped_with_a_message_without_an_endpoint() -> None:
    args = argparse.Namespace(llm_url=None, llm_model="m", llm_timeout=5.0)
    (offline, _, _), (_, llm, message) = _distillers(args)
    assert offline == "offline" and llm is None
    assert "skipped" in message and "TRACTATUS_LLM_URL" in message


def test_the_llm_part_runs_against_a_configured_endpoint() -> None:
    with LlmStub() as stub:
        stub.reply_drafts(
            [
                {
                    "subject": "I",
                    "predicate": "attended",
                    "object": "half marathon",
                    "confidence": 0.9,
                    "quote": TEXT,
                    "valid_from": "2023-05-20T00:00:00+00:00",
                }
            ]
        )
        args = argparse.Namespace(llm_url=stub.url, llm_model="stub-model", llm_timeout=5.0)
        _, (name, llm, _) = _distillers(args)
        assert llm is not None and name == "llm (stub-model)"
        result = evaluate(llm.distill, [Item("locomo", "t", "test", OBS, [LABEL])])
    test = result["pooled"]["test"]
    assert (test["precision"], test["recall"], test["date_accuracy"]) == (1.0, 1.0, 1.0)
    assert "- attended (many, string)" in stub.requests[0].json["messages"][0]["content"]
