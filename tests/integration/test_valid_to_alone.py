"""A ``valid_to`` sent without ``valid_from`` (a new user's trial).

The start then defaults (to the time the request arrived, the event's ``occurred_at``, or the
evidence's ``occurred_at``), and the gate refused ``valid_to <= valid_from`` only when both
were sent: ``Rome`` with ``valid_to`` 2021 was stored as ``[now, 2021)``, the open ``Oslo``
version was closed at now and a remnant of it written from 2021, so two versions of a
one-valued fact were current from 2021 to now. Every path now refuses such a write with the
422 a ``valid_to`` before its ``valid_from`` gets, and writes nothing: a single write, a
batch, a retraction in a batch, an event's assertions (docs/semantics.md, *Slots and
versions*).
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.helpers import Api, assertion

pytestmark = pytest.mark.integration

Y20, Y21 = "2020-01-01T00:00:00Z", "2021-01-01T00:00:00Z"
REFUSED = "body: valid_to must be after valid_from"


def _history(api: Api, subject: str, predicate: str) -> list[dict[str, Any]]:
    answer = api.get("/v1/facts/history", subject=subject, predicate=predicate)
    return list(answer.json().get("versions", [])) if answer.status_code == 200 else []


def _refused(response: Any, message: str) -> dict[str, Any]:
    assert response.status_code == 422, response.text
    error: dict[str, Any] = response.json()["error"]
    assert error["code"] == "rejected"
    first = error["details"]["rejections"][0]
    assert first["reason"] == "invalid"
    assert first["message"].startswith(message), first["message"]
    return error


def _oslo(api: Api, subject: str) -> list[dict[str, Any]]:
    """``lives_in`` Oslo from 2020, open-ended; the slot's history."""
    written = api.post("/v1/assertions", assertion(subject, "lives_in", "Oslo", valid_from=Y20))
    assert written.status_code == 201, written.text
    return _history(api, subject, "lives_in")


def test_a_single_write_with_valid_to_alone_in_the_past_is_refused(
    api: dict[str, Api], subject: str
) -> None:
    alice = api["alice"]
    before = _oslo(alice, subject)
    rome = alice.post("/v1/assertions", assertion(subject, "lives_in", "Rome", valid_to=Y21))
    error = _refused(rome, REFUSED)
    assert "valid_from not sent" in error["message"]
    assert "the time the request arrived" in error["message"]
    assert _history(alice, subject, "lives_in") == before
    now = alice.get("/v1/facts", subject=subject, predicate="lives_in").json()["facts"]
    assert [(f["object"], f["valid_to"]) for f in now] == [("Oslo", None)]


def test_the_same_refusal_as_with_both_sent(api: dict[str, Api], subject: str) -> None:
    """The start the server gives is checked as a start sent would be: equal is refused."""
    alice = api["alice"]
    both = assertion(subject, "lives_in", "Rome", valid_from=Y21, valid_to=Y21)
    sent = _refused(alice.post("/v1/assertions", both), REFUSED)
    quote = {"quote": "Rome until 2021", "occurred_at": Y21}
    alone = assertion(subject, "lives_in", "Rome", valid_to=Y21, evidence=quote)
    defaulted = _refused(alice.post("/v1/assertions", alone), REFUSED)
    assert sent["details"]["rejections"][0]["reason"] == "invalid"
    assert "the evidence's occurred_at, 2021-01-01T00:00:00+00:00" in defaulted["message"]
    assert _history(alice, subject, "lives_in") == []
    # a valid_to after the default start is written, as before
    timed = assertion(
        subject, "lives_in", "Rome", valid_to=Y21, evidence={**quote, "occurred_at": Y20}
    )
    later = alice.post("/v1/assertions", timed)
    assert later.status_code == 201, later.text
    written = later.json()["assertion"]
    assert (written["valid_from"], written["valid_to"]) == (Y20, Y21)


def test_a_batch_item_with_valid_to_alone_refuses_the_batch(
    api: dict[str, Api], subject: str
) -> None:
    alice = api["alice"]
    before = _oslo(alice, subject)
    good = assertion(subject, "works_at", "Initech", valid_from=Y20)
    bad = assertion(subject, "lives_in", "Rome", valid_to=Y21)
    answer = alice.post("/v1/assertions", {"assertions": [good, bad]})
    error = _refused(answer, REFUSED)
    assert error["details"]["rejections"][0]["index"] == 1
    assert _history(alice, subject, "lives_in") == before
    assert _history(alice, subject, "works_at") == []


def test_a_retraction_in_a_batch_with_valid_to_alone_is_refused(
    api: dict[str, Api], subject: str
) -> None:
    alice = api["alice"]
    before = _oslo(alice, subject)
    retraction = assertion(subject, "lives_in", None, polarity=False, valid_to=Y21)
    answer = alice.post("/v1/assertions", {"assertions": [retraction]})
    _refused(answer, REFUSED)
    assert _history(alice, subject, "lives_in") == before
    as_of = alice.get(
        "/v1/facts", subject=subject, predicate="lives_in", as_of="2023-01-01T00:00:00Z"
    )
    assert [f["object"] for f in as_of.json()["facts"]] == ["Oslo"]


def test_an_events_assertion_with_valid_to_before_the_event_is_refused(
    api: dict[str, Api], subject: str
) -> None:
    alice = api["alice"]
    task = f"task-{uuid.uuid4().hex[:8]}"
    planning = assertion(subject, "status", "planning", valid_from=Y20)
    assert alice.post("/v1/assertions", planning).status_code == 201
    before = _history(alice, subject, "status")
    event = {
        "task_id": task,
        "actor": "agent:a",
        "action": "finish",
        "outcome": "success",
        "occurred_at": "2025-01-01T00:00:00Z",
        "root": True,
        "before": {},
        "after": {"status": "done"},
        "assertions": [assertion(subject, "status", "done", valid_to="2024-01-01T00:00:00Z")],
    }
    error = _refused(alice.post("/v1/events", event), f"assertions[0]: {REFUSED}")
    assert "the event's occurred_at, 2025-01-01T00:00:00+00:00" in error["message"]
    assert _history(alice, subject, "status") == before
    assert alice.get(f"/v1/tasks/{task}").status_code == 404
    # with valid_to after the event's time, the same event is written
    event["assertions"] = [assertion(subject, "status", "done", valid_to="2026-01-01T00:00:00Z")]
    written = alice.post("/v1/events", event)
    assert written.status_code == 201, written.text
    done = written.json()["assertions"][0]["assertion"]
    assert done["valid_from"] == "2025-01-01T00:00:00Z"
