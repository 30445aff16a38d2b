"""bench/distill_agreement.py: two readings of the same turns compared with the bench's own
matching, and the second reading of the fifth sealed set is a reading of exactly its turns."""

from __future__ import annotations

from typing import Any

import pytest

from bench.distill_agreement import FIRST, SECOND, compare, read, same_fact


def fact(obj: str, **extra: Any) -> dict[str, Any]:
    return {"subject": "Alex", "predicate": "activity", "object": obj, "polarity": True, **extra}


def test_the_same_fact_is_read_through_normalisation_and_either_readings_alternatives() -> None:
    assert same_fact(fact("The Pottery Lessons!"), fact("pottery lesson"))
    assert same_fact(fact("clay work", alternatives=["pottery"]), fact("pottery"))
    assert same_fact(fact("pottery"), fact("clay work", alternatives=["pottery"]))
    assert not same_fact(fact("pottery"), fact("pottery", polarity=False))
    assert not same_fact(fact("pottery"), {**fact("pottery"), "predicate": "likes"})
    assert not same_fact(fact("pottery"), fact("painting"))


def test_two_readings_are_matched_one_to_one_with_their_dates() -> None:
    first = {
        ("c", "D1:1"): [fact("pottery", time="2023-05"), fact("running")],
        ("c", "D1:2"): [],
    }
    second = {
        ("c", "D1:1"): [fact("pottery", time="2023-06"), fact("pottery")],
        ("c", "D1:2"): [fact("hiking")],
    }
    tally = compare(first, second)
    figures = tally.figures()
    assert (figures["facts_first"], figures["facts_second"], figures["matched"]) == (2, 3, 1)
    assert (figures["precision_of_second"], figures["recall_of_second"]) == (0.333, 0.5)
    assert figures["f1"] == 0.4
    assert (figures["dates"], figures["dates_same"]) == (1, 0.0)
    assert sum("ONLY FIRST" in e for e in tally.errors) == 1
    assert sum("ONLY SECOND" in e for e in tally.errors) == 2
    swapped = compare(second, first).figures()
    assert (swapped["precision_of_second"], swapped["recall_of_second"]) == (0.5, 0.333)


def test_readings_of_different_turns_are_refused() -> None:
    with pytest.raises(ValueError, match="different turns"):
        compare({("c", "D1:1"): []}, {("c", "D1:2"): []})


def test_the_second_reading_covers_exactly_the_fifth_sealed_sets_turns_without_text() -> None:
    first, second = read(FIRST), read(SECOND)
    assert first.keys() == second.keys()
    assert len(second) == 155
    lines = SECOND.read_text("utf-8").splitlines()
    assert all('"text"' not in line for line in lines)
    assert compare(first, second).figures()["matched"] > 0
