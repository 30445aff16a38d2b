"""A batch refused by a precondition names what is stored, never a version of the batch.

A new user's trial: a batch of two writes of one slot, each expecting the version stored
(V), was refused with "the slot moved on" and ``details.current`` naming the first item's
version, which the refusal rolled back: an id that resolves nowhere, so a writer following
the compare-and-set loop retried against a phantom.
"""

from __future__ import annotations

import pytest

from tests.helpers import Api, assertion

pytestmark = pytest.mark.integration


def _status(subject: str, value: str, valid_from: str, expected: str | None) -> dict[str, object]:
    return assertion(subject, "status", value, valid_from=valid_from, expected_current=expected)


def test_a_batch_refused_by_its_own_item_names_the_stored_version_and_the_item(
    api: dict[str, Api], subject: str
) -> None:
    alice = api["alice"]
    first = alice.post("/v1/assertions", _status(subject, "V", "2026-01-01T00:00:00Z", None))
    assert first.status_code == 201, first.text
    stored = first.json()["assertion"]["id"]
    batch = [
        _status(subject, "W", "2026-02-01T00:00:00Z", stored),
        _status(subject, "X", "2026-03-01T00:00:00Z", stored),
    ]
    refused = alice.post("/v1/assertions", {"assertions": batch})
    assert refused.status_code == 409, refused.text
    error = refused.json()["error"]
    assert error["code"] == "precondition_failed"
    assert "item 1 of the batch" in error["message"] and "same batch" in error["message"]
    assert error["details"]["index"] == 1
    assert error["details"]["current"]["id"] == stored  # what is stored, not W
    history = alice.get("/v1/facts/history", subject=subject, predicate="status").json()
    assert [v["object"] for v in history["versions"]] == ["V"]


def test_a_batch_on_an_empty_slot_names_nothing_as_current(
    api: dict[str, Api], subject: str
) -> None:
    batch = [
        _status(subject, "x", "2026-02-01T00:00:00Z", None),
        _status(subject, "y", "2026-03-01T00:00:00Z", None),
    ]
    refused = api["alice"].post("/v1/assertions", {"assertions": batch})
    assert refused.status_code == 409, refused.text
    details = refused.json()["error"]["details"]
    assert details == {"current": None, "index": 1}


def _lives(subject: str, value: str, valid_from: str, polarity: bool = True) -> dict[str, object]:
    return assertion(subject, "lives_in", value, valid_from=valid_from, polarity=polarity)


@pytest.mark.parametrize(
    ("stored", "batch"),
    [
        ([], [("Paris", "2026-01-01", True), ("Berlin", "2026-03-01", False)]),
        ([], [("Paris", "2026-01-01", True), ("Berlin", "2026-01-01", False)]),
        (["Paris"], [("Rome", "2026-02-01", True), ("Berlin", "2026-03-01", False)]),
    ],
    ids=["empty-slot", "same-start", "over-a-stored-value"],
)
def test_a_batch_retraction_cutting_a_value_of_the_same_batch_is_a_409(
    api: dict[str, Api], subject: str, stored: list[str], batch: list[tuple[str, str, bool]]
) -> None:
    """A new user's trial: a batch holding a value and then a retraction naming another value
    of the same slot answered 500 (the refusal looked up the batch's own version, not yet sent
    to the store). It is the documented 409, naming what is stored; nothing is written."""
    alice = api["alice"]
    kept = None
    for value in stored:
        first = alice.post("/v1/assertions", _lives(subject, value, "2026-01-01T00:00:00Z"))
        assert first.status_code == 201, first.text
        kept = first.json()["assertion"]["id"]
    items = [_lives(subject, v, f"{day}T00:00:00Z", polarity) for v, day, polarity in batch]
    refused = alice.post("/v1/assertions", {"assertions": items})
    assert refused.status_code == 409, refused.text
    error = refused.json()["error"]
    assert error["code"] == "precondition_failed"
    assert "retraction names 'Berlin'" in error["message"], error
    assert "item 1 of the batch" in error["message"], error
    assert error["details"]["index"] == 1
    current = error["details"]["current"]
    assert (current and current["id"]) == kept  # the stored version, never the batch's
    history = alice.get("/v1/facts/history", subject=subject, predicate="lives_in").json()
    assert [v["object"] for v in history["versions"]] == stored
