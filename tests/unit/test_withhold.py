"""The drafts a write did not write are reported once by their draft's index, even when the
write's transaction function runs again (the driver retries it after a transient error)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from graph_schema.ledger.types import AssertionWrite
from ingest import gate
from ingest.observations import WITHHELD, withhold


def _item(obj: str) -> AssertionWrite:
    body = {"subject": "u", "predicate": "lives_in", "object": obj, "polarity": False}
    said = {"source_kind": "user_stated", "asserted_by": "u", "confidence": 0.9}
    return AssertionWrite.model_validate({**body, **said, "evidence": {"quote": obj}})


def test_a_withheld_draft_is_reported_once_by_its_draft_index() -> None:
    accepted = [_item("Berlin"), _item("Rome")]
    refused = gate.Rejection(1, "unknown_predicate", "no such predicate", {})
    rejections = [refused]  # drafts 0 and 2 were accepted, 1 refused by the gate
    withheld: list[Any] = [(SimpleNamespace(item=accepted[1]), "Paris holds")]
    for _attempt in range(2):  # the transaction function run twice
        kept = withhold(accepted, rejections, withheld)
    assert kept == 1
    assert [(r.index, r.reason) for r in rejections] == [(1, "unknown_predicate"), (2, WITHHELD)]
