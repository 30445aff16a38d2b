"""The person a question asks about who never speaks: in a chat between a user and an
assistant, the user's sister and partner are spoken about, never speakers. A question naming
one is read against what is said about them (docs/recall.md, "The person mentioned"). Written
as a new user writes (observations, then recall straight after, no admin call)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.helpers import Api, turn

pytestmark = pytest.mark.integration

CHAT = [
    ("Priya", "I'm a data engineer at a solar startup. Work is intense this month."),
    ("assistant", "Noted. Anything else I should remember?"),
    ("Priya", "My partner Sam is staying in Manchester until September for his teaching job."),
    ("Priya", "My sister Meera is visiting me from Leeds next week."),
    ("Priya", "Meera got engaged to her boyfriend Karan! The wedding is in Jaipur next April."),
    ("Priya", "I drive an old blue Fiat to the office."),
]


def write(api: Api, chat: list[tuple[str, str]], hidden: dict[int, list[str]]) -> str:
    conversation = f"conv-{uuid.uuid4().hex[:8]}"
    for n, (speaker, text) in enumerate(chat):
        body = turn(conversation, n, speaker, text, hidden.get(n))
        response = api.post("/v1/observations", body)
        assert response.status_code == 201, response.text
    return conversation


def ask(api: Api, query: str, conversation: str) -> dict[str, Any]:
    response = api.post(
        "/v1/recall", {"query": query, "k": 10, "filters": {"conversation_id": conversation}}
    )
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def top_text(answer: dict[str, Any]) -> str:
    text: str = answer["results"][0]["turn"]["text"]
    return text


@pytest.fixture(scope="module")
def chat(api: dict[str, Api]) -> str:
    return write(api["alice"], CHAT, {})


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Who is Meera engaged to?", "Karan"),
        ("Where is Meera's wedding?", "Jaipur"),
        ("Where is Sam staying until September?", "Manchester"),
        ("Who is Sam?", "partner Sam"),  # nothing asked but the person
    ],
)
def test_a_question_about_someone_the_user_mentions_is_answered_from_what_is_said_of_them(
    api: dict[str, Api], chat: str, question: str, said: str
) -> None:
    answer = ask(api["bob"], question, chat)
    assert answer["status"] == "answered", answer["relevance"]
    assert answer["person"]["name"] in question
    assert answer["person"]["others_relevance"] is None  # no contrast: nobody speaks for them
    assert said in top_text(answer)


@pytest.mark.parametrize(
    "question",
    [
        "Where does Meera work?",  # was answered with Priya's own work (relevance 0.68)
        "What car does Sam drive?",  # was answered: Priya's car is hers
    ],
)
def test_what_is_said_of_the_user_does_not_answer_for_someone_they_mention(
    api: dict[str, Api], chat: str, question: str
) -> None:
    answer = ask(api["bob"], question, chat)
    assert answer["status"] == "not_found", (answer["relevance"], answer["person"])
    assert answer["person"] is not None and answer["person"]["name"] in question


def test_a_relation_the_reader_may_not_see_mentions_no_one(api: dict[str, Api]) -> None:
    """Who Meera is comes from the turn naming her a sister; a reader who may not see it reads
    the conversation as if it had never been written (it comes last: no turn's passage holds
    it)."""
    others = [*CHAT[:3], *CHAT[4:]]
    without = write(api["alice"], others, {})
    hidden = write(api["alice"], [*others, CHAT[3]], {len(others): ["finance"]})
    question = "Where does Meera work?"
    assert ask(api["alice"], question, hidden)["person"]["name"] == "Meera"
    before, after = ask(api["bob"], question, without), ask(api["bob"], question, hidden)
    assert after["person"] == before["person"] is None
    assert after["status"] == before["status"]
    # the vector index's scores are quantized per index segment: any write moves them a little
    assert after["relevance"] == pytest.approx(before["relevance"], abs=0.02)
    assert [r["turn"]["text"] for r in after["results"]] == [
        r["turn"]["text"] for r in before["results"]
    ]
