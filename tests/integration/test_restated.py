"""A value stated again, with no time of its own, keeps the start of the version it restates.

A new user's trial of a six-month chat: "My dog Bruno has an ear infection" in October closed
"My dog Bruno is already chewing everything" of June and started the dog in October; "I live
in Gdansk now" moved the move of "I moved to Gdansk last week" to the day it was said.
"""

from __future__ import annotations

import uuid

import pytest

from tests.helpers import Api

pytestmark = pytest.mark.integration


def _say(api: Api, speaker: str, text: str, at: str) -> None:
    body = {"text": text, "speaker": speaker, "source_kind": "user_stated", "occurred_at": at,
            "conversation_id": f"conv-{speaker}"}  # fmt: skip
    response = api.post("/v1/observations", body)
    assert response.status_code == 201, response.text


def _current(api: Api, speaker: str, predicate: str) -> list[tuple[str, str]]:
    facts = api.get("/v1/facts", subject=speaker, predicate=predicate).json()["facts"]
    return [(f["object"], f["valid_from"][:10]) for f in facts]


def test_a_restated_value_keeps_its_start(api: dict[str, Api]) -> None:
    alice, speaker = api["alice"], f"Tomasz{uuid.uuid4().hex[:6]}"
    _say(alice, speaker, "I moved to Gdansk last week.", "2026-11-15T16:00:00Z")
    assert _current(alice, speaker, "lives_in") == [("Gdansk", "2026-11-02")]
    _say(alice, speaker, "I live in Gdansk now.", "2026-11-15T16:05:00Z")
    assert _current(alice, speaker, "lives_in") == [("Gdansk", "2026-11-02")]
    history = alice.get("/v1/facts/history", subject=speaker, predicate="lives_in").json()
    versions = history["versions"]
    assert len(versions) == 2  # both statements are kept: the second supersedes the first
    assert {v["evidence"][0]["quote"] for v in versions} == {
        "I moved to Gdansk last week.",
        "I live in Gdansk now.",
    }
    # a new value still starts when it is said, and a value stated with its own time keeps it
    _say(alice, speaker, "I live in Sopot now.", "2026-12-01T10:00:00Z")
    assert _current(alice, speaker, "lives_in") == [("Sopot", "2026-12-01")]
