"""A question whether a thing was done, asked of notes that hold the promise and, later, the
deed: the deed comes first (a new user's trial of a support agent's notes ranked the promise
first). Written as a new user writes (observations, then recall straight after)."""

from __future__ import annotations

import pytest

from tests.helpers import Api, recall_in, write_chat

pytestmark = pytest.mark.integration

NOTES = [
    ("Priya Nair", "We were double-charged for October: invoice INV-7781 shows two charges."),
    ("support", "Promised Priya that we will refund the duplicate charge on INV-7781 by Friday."),
    ("Priya Nair", "Thanks. Also, SSO still fails for two of our users."),
    ("support", "Issued the refund for INV-7781 to Acme Ltd."),
]
KINDS = {1: "agent_inferred", 3: "agent_inferred"}


@pytest.fixture(scope="module")
def notes(api: dict[str, Api]) -> str:
    return write_chat(api["alice"], NOTES, kinds=KINDS)


@pytest.mark.parametrize(
    "question",
    [
        "Did we refund the duplicate charge on INV-7781?",
        "Has the duplicate charge on INV-7781 been refunded yet?",
    ],
)
def test_the_deed_comes_before_the_promise_of_it(
    api: dict[str, Api], notes: str, question: str
) -> None:
    answer = recall_in(api["bob"], question, notes)
    first = answer["results"][0]
    assert first["turn"]["text"] == NOTES[3][1], [r["turn"]["text"] for r in answer["results"]]
    assert "done" in first["why"]["boosts"]
    assert answer["status"] == "answered"


def test_a_question_about_the_promise_keeps_it_first(api: dict[str, Api], notes: str) -> None:
    answer = recall_in(api["bob"], "What did we promise Priya about INV-7781?", notes)
    assert answer["results"][0]["turn"]["text"] == NOTES[1][1]
