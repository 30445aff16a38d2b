"""The person a question asks about who never speaks: in a chat between a user and an
assistant, the user's sister and partner are spoken about, never speakers. A question naming
one is read against what is said about them (docs/recall.md, "The person mentioned"). Written
as a new user writes (observations, then recall straight after, no admin call)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import Api, recall_in, write_chat

pytestmark = pytest.mark.integration

CHAT = [
    ("Priya", "I'm a data engineer at a solar startup. Work is intense this month."),
    ("assistant", "Noted. Anything else I should remember?"),
    ("Priya", "My partner Sam is staying in Manchester until September for his teaching job."),
    ("Priya", "My sister Meera is visiting me from Leeds next week."),
    ("Priya", "Meera got engaged to her boyfriend Karan! The wedding is in Jaipur next April."),
    ("Priya", "I drive an old blue Fiat to the office."),
    ("Priya", "I'm vegetarian and I can't eat anything with sesame, I'm allergic."),
    ("Priya", "Sam's mum is coming for Christmas. She doesn't eat gluten, so I need recipes."),
]


ask = recall_in


def top_text(answer: dict[str, Any]) -> str:
    text: str = answer["results"][0]["turn"]["text"]
    return text


@pytest.fixture(scope="module")
def chat(api: dict[str, Api]) -> str:
    return write_chat(api["alice"], CHAT)


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


def test_what_is_about_the_person_mentioned_ranks_as_a_named_persons_turns_do(
    api: dict[str, Api], chat: str
) -> None:
    """Priya's own diet ranked first for a question about Sam's mother's (failed before)."""
    answer = ask(api["bob"], "What dietary restriction does Sam's mother have?", chat)
    assert answer["person"] == {"name": "Sam", "others_relevance": None}
    top = answer["results"][0]
    assert "gluten" in top["turn"]["text"]
    assert "mentioned" in top["why"]["boosts"]
    assert all(
        "mentioned" not in r["why"]["boosts"] or "Sam" in r["turn"]["text"]
        for r in answer["results"]
    )


def test_a_relation_the_reader_may_not_see_mentions_no_one(api: dict[str, Api]) -> None:
    """Who Meera is comes from the turn naming her a sister; a reader who may not see it reads
    the conversation as if it had never been written (it comes last: no turn's passage holds
    it)."""
    others = [*CHAT[:3], *CHAT[4:]]
    without = write_chat(api["alice"], others)
    hidden = write_chat(api["alice"], [*others, CHAT[3]], {len(others): ["finance"]})
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
