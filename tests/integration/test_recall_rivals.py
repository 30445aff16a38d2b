"""A thing asked about against another thing of its name: a support agent's notes on two
customers, Acme Ltd and Acme Labs. A question about one answered by the other's turn was a
made-up answer (a new user's trial: "When does Acme Labs' contract renew?" was `answered`
with Acme Ltd's renewal). Written as a new user writes (observations, then recall straight
after, no admin call)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import Api, recall_in, write_chat

pytestmark = pytest.mark.integration

CHAT = [
    (
        "Priya Nair",
        "Hi, this is Priya Nair, IT manager at Acme Ltd. We are on the Business plan with 40 "
        "seats and our contract renews on March 31.",
    ),
    ("support", "Opened ticket TCK-1042 for Acme Ltd: SSO login fails for plus-sign emails."),
    (
        "Marco Rossi",
        "Marco Rossi here, CTO of Acme Labs. We are on the Starter plan with 8 seats. Our API "
        "keys keep expiring after 24 hours.",
    ),
    ("support", "Opened ticket TCK-2210 for Acme Labs: API keys expire after 24 hours."),
    ("Marco Rossi", "We would like to cancel the data export add-on, we never use it."),
    ("support", "Cancelled the data export add-on for Acme Labs, with a credit of $45."),
]
KINDS = {1: "agent_inferred", 3: "agent_inferred", 5: "agent_inferred"}


@pytest.fixture(scope="module")
def notes(api: dict[str, Api]) -> str:
    return write_chat(api["alice"], CHAT, kinds=KINDS)


def _top(answer: dict[str, Any]) -> str:
    """The first result's whole turn."""
    text: str = answer["results"][0]["turn"]["text"]
    return text


@pytest.mark.parametrize(
    "question",
    ["When does Acme Labs' contract renew?", "Who is the CTO of Acme Ltd?"],
)
def test_a_question_answered_only_by_the_other_thing_of_its_name_is_not_found(
    api: dict[str, Api], notes: str, question: str
) -> None:
    answer = recall_in(api["bob"], question, notes)
    assert answer["status"] == "not_found", (answer["relevance"], _top(answer))
    assert answer["results"], "the nearest candidates are still returned"


@pytest.mark.parametrize(
    ("question", "holds"),
    [
        ("When does Acme Ltd's contract renew?", "March 31"),
        ("Who is the CTO of Acme Labs?", "CTO of Acme Labs"),
        ("What plan is Acme Labs on?", "Starter plan"),
        ("What did Acme Labs cancel?", "data export"),
    ],
)
def test_a_question_about_the_thing_its_own_turns_answer_is_answered(
    api: dict[str, Api], notes: str, question: str, holds: str
) -> None:
    answer = recall_in(api["bob"], question, notes)
    assert answer["status"] == "answered", (answer["relevance"], _top(answer))
    assert holds in _top(answer)
