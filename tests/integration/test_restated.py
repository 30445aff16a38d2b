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


LISBON = [
    ("I moved to Lisbon last month.", "2026-11-20T10:02:00Z"),
    ("I live in Lisbon now, near Alfama.", "2026-11-20T10:08:00Z"),
    ("I live in Lisbon now.", "2026-11-20T10:15:00Z"),
]


def _current_quoted(api: Api, speaker: str) -> list[tuple[str, str, str]]:
    facts = api.get("/v1/facts", subject=speaker, predicate="lives_in").json()["facts"]
    return [(f["object"], f["valid_from"], f["evidence"][0]["quote"]) for f in facts]


def test_a_restatement_ends_the_same_whatever_the_order_of_arrival(api: dict[str, Api]) -> None:
    """A new user's trial: "I moved to Lisbon last month", then "I live in Lisbon now" leaves
    Lisbon from 1 October; in the reverse order (a parallel or retried load) it left Lisbon
    from the day of the restatement. Both orders end with one version from 1 October, the
    restatement's content; the earlier versions stay in history (append-only)."""
    alice = api["alice"]
    ends = {}
    for order in ([0, 1], [1, 0]):
        speaker = f"Lucia{uuid.uuid4().hex[:6]}"
        for n in order:
            _say(alice, speaker, *LISBON[n])
        ends[tuple(order)] = _current_quoted(alice, speaker)
        history = alice.get("/v1/facts/history", subject=speaker, predicate="lives_in").json()
        assert len(history["versions"]) >= 2
    assert ends[(0, 1)] == [
        ("Lisbon", "2026-10-01T00:00:00Z", "I live in Lisbon now, near Alfama.")
    ], ends
    assert ends[(1, 0)] == ends[(0, 1)], ends


@pytest.mark.parametrize("order", [[2, 1, 0], [1, 2, 0], [2, 0, 1], [1, 0, 2]])
def test_three_statements_of_one_stay_keep_its_start_in_any_order(
    api: dict[str, Api], order: list[int]
) -> None:
    alice, speaker = api["alice"], f"Lucia{uuid.uuid4().hex[:6]}"
    for n in order:
        _say(alice, speaker, *LISBON[n])
    current = _current_quoted(alice, speaker)
    assert [(o, since) for o, since, _ in current] == [("Lisbon", "2026-10-01T00:00:00Z")]
    assert current[0][2] in {text for text, _ in LISBON[1:]}
