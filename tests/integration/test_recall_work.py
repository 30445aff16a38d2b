"""The rerank's weights for an agent's working memory (graph_schema/recall/rerank.py,
``WORK_WEIGHTS``): turns among which are a tool's results or an agent's own notes are ranked
with weights of their own, not with those of a chat between people. Written as a new user
writes: turns, then recall straight after. The turns come from a new user's trial of a
fitness coach's assistant (bench/trials, T25)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from server.settings import Settings
from tests.helpers import Api, recall_in, serving_without, turn, write_chat

pytestmark = pytest.mark.integration

TURNS = [
    (
        "Sofia Marchetti",
        "So I've been reading a lot and I'm going fully vegetarian from this week, honestly"
        " mostly for ethical reasons. Eggs and dairy are still fine! Can we redo my meal plan?",
    ),
    (
        "Dana Whitfield",
        "Sofia's new plan: 110 g protein a day from Greek yogurt, eggs, tofu, tempeh and"
        " lentils, plus a pea protein shake after training. Chicken and tuna lunches are gone.",
    ),
    (
        "email",
        "Registration confirmed - Sofia Marchetti, Riverside Half Marathon, Sunday 11 May 2025."
        " Bib number 2217, wave B start 08:30.",
    ),
    (
        "Sofia Marchetti",
        "I signed up for the half!! tbh the scale matters way less to me now. New goal: finish"
        " under 2 hours and just stay somewhere around 65 kg.",
    ),
]
EMAIL = 2
QUESTION = "When is Sofia's half marathon?"


@pytest.fixture(scope="module")
def at_work(api: dict[str, Api]) -> str:
    """The four turns, the third a tool's result (an email)."""
    return write_chat(api["alice"], TURNS, kinds={EMAIL: "tool_returned"})


@pytest.fixture(scope="module")
def chat(api: dict[str, Api]) -> str:
    """The same four turns, every one a person's statement."""
    return write_chat(api["alice"], TURNS)


@pytest.fixture(scope="module")
def without_work(settings: Settings) -> Iterator[Api]:
    """``TRACTATUS_RECALL_DISABLE=work``: the chat's weights for every conversation."""
    with serving_without(settings, {"work"}) as served:
        yield served


def first_text(answer: dict[str, Any]) -> str:
    results = answer["results"]
    assert results, answer
    text: str = results[0]["turn"]["text"]
    return text


def test_the_tool_result_that_states_the_date_comes_first(
    api: dict[str, Api], at_work: str
) -> None:
    answer = recall_in(api["bob"], QUESTION, at_work)
    assert answer["status"] == "answered"
    assert first_text(answer).startswith("Registration confirmed"), answer["results"][0]


def test_with_the_chats_weights_the_reply_after_it_came_first(
    without_work: Api, at_work: str
) -> None:
    """The order before the work weights: Sofia's turn, whose context is the email, first."""
    answer = recall_in(without_work, QUESTION, at_work)
    assert first_text(answer).startswith("I signed up for the half"), answer["results"][0]


def test_a_chat_between_people_keeps_the_chats_weights(
    api: dict[str, Api], without_work: Api, chat: str
) -> None:
    """No tool's result or agent's note among the turns: the same scores with the work
    weights on or off."""
    on, off = recall_in(api["bob"], QUESTION, chat), recall_in(without_work, QUESTION, chat)
    assert [r["score"] for r in on["results"]] == [r["score"] for r in off["results"]]
    assert first_text(on).startswith("I signed up for the half")


def test_a_tool_result_the_reader_may_not_see_changes_nothing(api: dict[str, Api]) -> None:
    """What a reader may not see is indistinguishable from nothing: an email in the finance
    group, added to a chat, leaves an outsider's ranking on the chat's weights, score for
    score; its reader gets the work weights and the email first."""
    conversation = write_chat(api["alice"], [TURNS[0], TURNS[1], TURNS[3]])
    before = recall_in(api["bob"], QUESTION, conversation)
    email = turn(conversation, 9, "email", TURNS[EMAIL][1], ["finance"], "tool_returned")
    response = api["alice"].post("/v1/observations", email)
    assert response.status_code == 201, response.text
    after = recall_in(api["bob"], QUESTION, conversation)
    scored = [(r["assertion"]["id"], r["score"]) for r in after["results"]]
    assert scored == [(r["assertion"]["id"], r["score"]) for r in before["results"]]
    assert first_text(recall_in(api["alice"], QUESTION, conversation)).startswith(
        "Registration confirmed"
    )
