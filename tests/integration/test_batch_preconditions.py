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
