"""The audit's `two_spellings_current` (graph_schema/ledger/check.py): one value, in any case
and spacing as the writer compares it, current in two slots of one scope at once."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from graph_schema.ledger.check import spelling_pairs


def d(month: int) -> datetime:
    return datetime(2026, month, 1, tzinfo=UTC)


def v(
    vid: str,
    obj: str,
    start: int,
    end: int | None = None,
    *,
    slot: str | None = None,
    access: list[str] | None = None,
    access_all: list[str] | None = None,
) -> dict[str, Any]:
    return {
        "subject": "user:ann",
        "predicate": "likes",
        "id": vid,
        "slot": slot or f"slot-{vid}",
        "object": obj,
        "polarity": True,
        "valid_from": d(start),
        "valid_to": None if end is None else d(end),
        "access": access or [],
        "access_all": access_all or [],
    }


def _ids(pairs: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return sorted((p["first"], p["second"]) for p in pairs)


def test_two_spellings_current_at_once_in_two_slots_are_one_pair() -> None:
    pairs = spelling_pairs([v("b", "acme ", 2), v("a", "Acme", 1)])
    assert pairs == [
        {
            "subject": "user:ann",
            "predicate": "likes",
            "value": "acme",
            "first": "a",
            "second": "b",
            "objects": ["Acme", "acme "],
            "slots": ["slot-a", "slot-b"],
        }
    ]


def test_spellings_are_compared_as_the_writer_compares_them() -> None:
    # casefold and any whitespace: not what a lower-casing in Cypher would give
    assert _ids(spelling_pairs([v("a", "Straße", 1), v("b", "STRASSE", 1)])) == [("a", "b")]
    assert _ids(spelling_pairs([v("a", "new\tyork", 1), v("b", " New  York", 1)])) == [("a", "b")]
    assert spelling_pairs([v("a", "Acme", 1), v("b", "Acme Corp", 1)]) == []


def test_one_slot_other_scopes_and_times_apart_are_not_reported() -> None:
    assert spelling_pairs([v("a", "Jazz", 1, slot="k"), v("b", "jazz", 1, slot="k")]) == []
    assert spelling_pairs([v("a", "Jazz", 1), v("b", "jazz", 1, access=["finance"])]) == []
    assert spelling_pairs([v("a", "Jazz", 1), v("b", "jazz", 1, access_all=["sales"])]) == []
    assert spelling_pairs([v("a", "Jazz", 1, 3), v("b", "jazz", 3)]) == []
    # the scope is compared sorted, as it is stored
    same = [v("a", "Jazz", 1, access=["x", "y"]), v("b", "jazz", 2, access=["y", "x"])]
    assert _ids(spelling_pairs(same)) == [("a", "b")]


def test_three_slots_of_one_value_are_three_pairs() -> None:
    three = [v("a", "Jazz", 1), v("b", "jazz", 1), v("c", "JAZZ", 2, 4)]
    assert _ids(spelling_pairs(three)) == [("a", "b"), ("a", "c"), ("b", "c")]
