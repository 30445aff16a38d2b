"""The scoring of bench/distill.py: what counts as the same fact, the same date, and the
LLM part skipped with a message when no endpoint is configured (and run against one when it
is: the stub endpoint of tests/stubs/llm_stub.py)."""

from __future__ import annotations

import argparse
import sys
from datetime import date
from typing import Any

import pytest

from bench.distill import (
    Item,
    _distillers,
    _rows,
    at_granularity,
    evaluate,
    load_items,
    main,
    normalise,
    score_item,
)
from bench.harness import LocomoMissing, locomo_file
from graph_schema.observations.types import ObservationIn
from ingest import bulk
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


def test_the_development_data_pools_apart_from_the_fifteenth_sealed_set() -> None:
    development = ("dev", "sealed", *(f"sealed{n}" for n in range(2, 15)))  # read once scored
    items = [Item("locomo", f"t{n}", split, OBS, [LABEL]) for n, split in enumerate(development)]
    items += [
        Item("notes", "b", "test", OBS, [LABEL]),
        Item("locomo", "o", "sealed15", OBS, [LABEL]),
    ]
    result = evaluate(lambda _: [draft("half marathon", "2023-05-20T00:00:00+00:00")], items)
    pooled = result["pooled"]
    assert pooled["development"]["facts_labelled"] == 16
    assert pooled["sealed15"]["facts_labelled"] == 1
    assert pooled["dev"]["facts_labelled"] == pooled["test"]["facts_labelled"] == 1


def test_the_fifteenth_sealed_sets_errors_are_never_listed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "argv", ["distill.py", "--errors", "sealed15"])
    with pytest.raises(SystemExit) as refused:
        main()
    assert refused.value.code == 2


def _turns(rows: list[dict[str, Any]]) -> set[tuple[str, str]]:
    return {(r["conversation"], r["dia_id"]) for r in rows}


# each sealed set: its label file's name, its split, how many turns it labels, the residue
# modulo 18 of the turns it picks
SEALED_SETS = (
    ("locomo-sealed", "sealed", 155, 4),
    ("locomo-sealed2", "sealed2", 153, 13),
    ("locomo-sealed3", "sealed3", 154, 7),
    ("locomo-sealed4", "sealed4", 151, 16),
    ("locomo-sealed5", "sealed5", 155, 2),
    ("locomo-sealed6", "sealed6", 153, 11),
    ("locomo-sealed7", "sealed7", 154, 5),
    ("locomo-sealed8", "sealed8", 155, 1),
    ("locomo-sealed9", "sealed9", 155, 3),
    ("locomo-sealed10", "sealed10", 154, 6),
    ("locomo-sealed11", "sealed11", 154, 8),
    ("locomo-sealed12", "sealed12", 153, 10),
    ("locomo-sealed13", "sealed13", 153, 12),
    ("locomo-sealed14", "sealed14", 152, 14),
    ("locomo-sealed15", "sealed15", 151, 15),
)


def test_the_sealed_sets_are_their_own_and_share_no_turn_with_any_other_set() -> None:
    seen = _turns(_rows("locomo"))
    assert len(_rows("locomo")) == 308
    for name, split, size, _ in SEALED_SETS:
        rows = _rows(name)
        assert (len(rows), {r["split"] for r in rows}) == (size, {split}), name
        assert not _turns(rows) & seen, name
        assert all("text" not in r for r in rows), name  # no LoCoMo text here
        seen |= _turns(rows)
    development = {split for _, split, _, _ in SEALED_SETS[:-1]}
    assert not [i for i in load_items(None) if i.split in development | {"sealed15"}]


def _numbered(residue: int) -> set[str]:
    """The LoCoMo turns whose number (per conversation, from 0, in ingest order) is
    ``residue`` modulo 18."""
    try:
        locomo = locomo_file()
    except LocomoMissing:
        pytest.skip("the LoCoMo dev file is not here (TRACTATUS_LOCOMO)")
    numbers: dict[str, int] = {}
    chosen = set()
    for turn in bulk.read_locomo(locomo):
        conversation = turn["conversation_id"]
        number = numbers.get(conversation, 0)
        numbers[conversation] = number + 1
        if number % 18 == residue:
            chosen.add(turn["idempotency_key"])
    return chosen


def test_the_sealed_sets_are_every_turn_numbered_by_their_residue_modulo_18() -> None:
    for name, _, _, residue in SEALED_SETS:
        assert _numbered(residue) == {f"{c}:{d}" for c, d in _turns(_rows(name))}, name
    # multiples of 9 are 0 or 9 modulo 18 (the first set): no two rules pick the same turn
    residues = [0, 9, *(residue for *_, residue in SEALED_SETS)]
    assert len(set(residues)) == len(residues) == 17


def test_fourteen_sealed_sets_are_development_data_and_the_fifteenth_only_asked_for() -> None:
    try:
        locomo = locomo_file()
    except LocomoMissing:
        pytest.skip("the LoCoMo dev file is not here (TRACTATUS_LOCOMO)")
    plain = {i.split for i in load_items(locomo) if i.set == "locomo"}
    assert plain == {"dev", "test", *(split for _, split, _, _ in SEALED_SETS[:-1])}
    asked = {i.split for i in load_items(locomo, sealed=True) if i.set == "locomo"}
    assert asked == plain | {"sealed15"}
