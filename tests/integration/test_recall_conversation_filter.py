"""A recall filtered to one conversation reads and returns that conversation only, also when
one speaker restates a fact in another (a new user's trial: a consumer app keeps each user's
chat as a conversation of one store, every user speaking as ``user``; the restated fact cites
both chats' turns, and recall filtered to the first returned the second's private turns and
answered from them)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.helpers import Api, recall_in

pytestmark = pytest.mark.integration

FIRST = [
    ("assistant", "Hello! What would you like to talk about?"),
    ("user", "I live in Leeds with my partner."),
]
SECOND = [
    ("assistant", "Hello! What would you like to talk about?"),
    ("user", "I live in Leeds with my partner, and I think I'm pregnant but haven't told anyone."),
    ("assistant", "Thank you for trusting me. Would you like information about pregnancy care?"),
]


def write(api: Api, conversation: str, day: int, chat: list[tuple[str, str]]) -> list[str]:
    ids = []
    for n, (speaker, text) in enumerate(chat):
        body = {
            "text": text,
            "speaker": speaker,
            "source_kind": "user_stated",
            "occurred_at": f"2026-03-{day:02d}T09:{n:02d}:00+00:00",
            "conversation_id": conversation,
            "access": ["legal"],
        }
        response = api.post("/v1/observations", body)
        assert response.status_code == 201, response.text
        ids.append(response.json()["observation_id"])
    return ids


@pytest.fixture(scope="module")
def chats(api: dict[str, Api]) -> dict[str, Any]:
    run = uuid.uuid4().hex[:8]
    first, second = f"app-{run}-u5", f"app-{run}-u6"
    return {
        "first": first,
        "first_ids": write(api["erin"], first, 3, FIRST),
        "second": second,
        "second_ids": write(api["erin"], second, 4, SECOND),
    }


@pytest.mark.parametrize(
    "question", ["Is the user pregnant?", "Where does the user live?", "pregnancy care"]
)
def test_a_filtered_recall_returns_no_turn_of_another_conversation(
    api: dict[str, Api], chats: dict[str, Any], question: str
) -> None:
    answer = recall_in(api["erin"], question, chats["first"])
    cited = {e["observation_id"] for r in answer["results"] for e in r["evidence"]}
    assert cited, answer
    assert cited <= set(chats["first_ids"]), [
        e["quote"] for r in answer["results"] for e in r["evidence"]
    ]
    quotes = " ".join(e["quote"] for r in answer["results"] for e in r["evidence"])
    assert "pregnan" not in quotes


def test_the_restated_fact_is_found_in_each_conversation_with_its_own_turn(
    api: dict[str, Api], chats: dict[str, Any]
) -> None:
    for name in ("first", "second"):
        answer = recall_in(api["erin"], "Where does the user live?", chats[name])
        assert answer["status"] == "answered", answer["relevance"]
        top = answer["results"][0]
        assert top["evidence"][0]["observation_id"] == chats[f"{name}_ids"][1]
        assert {e["observation_id"] for e in top["evidence"]} <= set(chats[f"{name}_ids"])
    # unfiltered, the caller reads every turn the fact cites
    response = api["erin"].post("/v1/recall", {"query": "Where does the user live?", "k": 10})
    assert response.status_code == 200, response.text
    cited = {e["observation_id"] for r in response.json()["results"] for e in r["evidence"]}
    assert {chats["first_ids"][1], chats["second_ids"][1]} <= cited
