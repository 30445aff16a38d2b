"""Step 6 for a question about how things stood before a change (graph_schema/recall/rerank.py,
``past_first``): among the near ties of the best, the oldest first. Written as a new user
writes: turns, then recall straight after. The turns come from a new user's trial of a
family chat (bench/trials, T36)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from server.settings import Settings
from tests.helpers import Api, recall_in, serving_without, write_chat

pytestmark = pytest.mark.integration

CHAT = [
    (
        "Zoe",
        "Flat sorted for next term! Lin and I are taking Flat 3, 9 Albany Road. £520 each a"
        " month, move-in date Saturday 14 December.",
    ),
    ("Ruth", "That's lovely news, love. Is the landlord nice?"),
    ("Zoe", "Mr Deakin seems fine. The kitchen is tiny but I get the room with the bay window."),
    ("Ruth", "Hospital rang, my knee op has moved to Tuesday 26 November."),
    (
        "Zoe",
        "Mr Deakin says the new boiler can't go in until 20 December, and he's putting the"
        " rent up to £545 each from January to cover it.",
    ),
    ("Ruth", "Well, at least you'll be warm."),
]
PAST = "What was the rent per person before the landlord put it up?"
NOW = "What is the rent per person now?"


@pytest.fixture(scope="module")
def chat(api: dict[str, Api]) -> str:
    return write_chat(api["alice"], CHAT)


@pytest.fixture(scope="module")
def without_past(settings: Settings) -> Iterator[Api]:
    """``TRACTATUS_RECALL_DISABLE=past``: the order steps 1-5 give."""
    with serving_without(settings, {"past"}) as served:
        yield served


def first(answer: dict[str, Any]) -> dict[str, Any]:
    results = answer["results"]
    assert results, answer
    result: dict[str, Any] = results[0]
    return result


def test_the_rent_before_the_rise_comes_first(api: dict[str, Api], chat: str) -> None:
    answer = recall_in(api["bob"], PAST, chat)
    assert answer["status"] == "answered"
    result = first(answer)
    assert "£520" in result["turn"]["text"], result
    assert "past" in result["why"]["boosts"]


def test_switched_off_the_rise_came_first(without_past: Api, chat: str) -> None:
    """The order before the step: the rise shares more of the question's words."""
    result = first(recall_in(without_past, PAST, chat))
    assert "£545" in result["turn"]["text"], result
    assert "past" not in result["why"]["boosts"]


def test_a_question_about_now_keeps_the_newest_first(api: dict[str, Api], chat: str) -> None:
    result = first(recall_in(api["bob"], NOW, chat))
    assert "£545" in result["turn"]["text"], result
    assert "past" not in result["why"]["boosts"]
