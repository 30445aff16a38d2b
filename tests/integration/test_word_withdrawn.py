"""A distiller's withdrawal of an activity or a condition by a word reaches the value held
that names it; a change of job said ahead is read as of its day.

A new user's trial: "I signed up for a wheel-throwing pottery class" wrote ``activity
wheel-throwing pottery class``; "I quit pottery last week" wrote ``activity pottery``,
``polarity: false``, a value that never held, and the class stayed current beside ``dropped
pottery``. "I sprained my ankle" then "My ankle is finally healed" left the sprain current.
The distiller sees one text, so the writer moves such a withdrawal (docs/distillers.md,
version 33).
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.helpers import Api

pytestmark = pytest.mark.integration


def _chat(api: Api, *turns: tuple[str, str]) -> tuple[str, list[dict[str, Any]]]:
    conversation, speaker = f"conv-{uuid.uuid4().hex[:8]}", f"Priya{uuid.uuid4().hex[:6]}"
    bodies = []
    for n, (at, text) in enumerate(turns, start=1):
        body = {
            "text": text,
            "speaker": speaker,
            "source_kind": "user_stated",
            "occurred_at": at,
            "conversation_id": conversation,
            "idempotency_key": f"{conversation}:{n}",
        }
        response = api.post("/v1/observations", body)
        assert response.status_code == 201, response.text
        bodies.append(response.json())
    return speaker, bodies


def _current(api: Api, subject: str, predicate: str, as_of: str | None = None) -> list[str]:
    params = {"subject": subject, "predicate": predicate} | ({"as_of": as_of} if as_of else {})
    body = api.get("/v1/facts", **params).json()
    return sorted(f["object"] for f in body["facts"])


def test_quitting_pottery_ends_the_pottery_class_held(api: dict[str, Api]) -> None:
    alice = api["alice"]
    speaker, bodies = _chat(
        alice,
        ("2026-02-07T19:00:00Z", "I signed up for a wheel-throwing pottery class."),
        ("2026-03-22T20:00:00Z", "I quit pottery last week, honestly."),
    )
    written = [
        (a["assertion"]["object"], a["assertion"]["polarity"])
        for a in bodies[1]["assertions"]
        if a["assertion"]["predicate"] == "activity"
    ]
    assert written == [("wheel-throwing pottery class", False)]
    assert _current(alice, speaker, "activity") == []
    assert _current(alice, speaker, "activity", "2026-03-01T00:00:00Z") == [
        "wheel-throwing pottery class"
    ]
    assert _current(alice, speaker, "dropped") == ["pottery"]


def test_a_healed_ankle_ends_the_sprain(api: dict[str, Api]) -> None:
    alice = api["alice"]
    speaker, _ = _chat(
        alice,
        ("2026-04-19T17:00:00Z", "I sprained my ankle in Iceland."),
        ("2026-05-30T16:00:00Z", "My ankle is finally healed."),
    )
    assert _current(alice, speaker, "health_condition", "2026-05-01T00:00:00Z") == [
        "sprained ankle"
    ]
    assert _current(alice, speaker, "health_condition") == []


def test_two_values_naming_the_word_keep_the_withdrawal_as_said(api: dict[str, Api]) -> None:
    alice = api["alice"]
    speaker, _ = _chat(
        alice,
        ("2026-02-07T19:00:00Z", "I signed up for a wheel-throwing pottery class."),
        ("2026-02-08T19:00:00Z", "I joined a pottery club."),
        ("2026-03-22T20:00:00Z", "I quit pottery last week."),
    )
    assert _current(alice, speaker, "activity") == ["pottery club", "wheel-throwing pottery class"]


def test_a_change_of_job_said_ahead_holds_from_its_days(api: dict[str, Api]) -> None:
    alice = api["alice"]
    speaker, _ = _chat(
        alice,
        ("2026-02-07T19:00:00Z", "Work at Lumora is keeping me busy."),
        ("2026-03-22T20:00:00Z", "My last day at Lumora is April 3."),
        ("2026-04-19T17:00:00Z", "I start at Halden tomorrow."),
    )
    assert _current(alice, speaker, "works_at", "2026-03-30T00:00:00Z") == ["Lumora"]
    assert _current(alice, speaker, "works_at", "2026-04-10T00:00:00Z") == []
    assert _current(alice, speaker, "works_at", "2026-04-21T00:00:00Z") == ["Halden"]
