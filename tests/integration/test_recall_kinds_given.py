"""The kinds and sums a question asks for, read against what its person said (recall's
``missing_kinds``: docs/recall.md, *Kinds nothing names*), over HTTP as a new user writes.
From a new user's trial of many chats in one store: a dog's name given as "<Name> is a
<breed>" was refused, a cat's name answered for a dog, a salary read or not by the order of
its question and reply, and a sum of something else answered for a house or a job."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import Api, recall_in, write_chat

pytestmark = pytest.mark.integration

DOG = [
    ("Kai", "Hi Ruth, guess what, we adopted a puppy last week."),
    ("Ruth", "Oh lovely! Tell me about him."),
    ("Kai", "Luckily the landlord allows pets. Biscuit is a beagle, he is small enough."),
]

CAT = [
    ("Aisha", "Tom, I got the head of year job at Riverside Academy!"),
    ("Tom", "That's brilliant Aisha, you deserved it after six years teaching there."),
    ("Aisha", "Are you still thinking about getting a dog?"),
    ("Tom", "No, I found out I'm allergic to dogs, so I adopted a cat instead, her name is Mochi."),
    ("Aisha", "Oh no, the allergy test! Mochi is a great name."),
    ("Tom", "She's a grey British shorthair, she already ate my headphones."),
]

MOVE = [
    ("Jordan", "Sam, how did the last day at Monzo go?"),
    ("Sam", "Weird but good. I handed in my laptop and they gave me a card from the team."),
    ("Jordan", "So the new job starts Monday?"),
    ("Sam", "Yes, I'm joining a climate startup called Verdant as a senior software engineer."),
    ("Jordan", "You're leaving London? When is the move?"),
    (
        "Sam",
        "The removal van comes on the 28th of November. We bought a terraced house in Bedminster.",
    ),
    ("Jordan", "Nice. I'm going to Lisbon in March myself, for a friend's wedding."),
    ("Sam", "Go to the Time Out Market and eat a bifana, trust me."),
    ("Jordan", "Noted. What's the salary like at Verdant?"),
    ("Sam", "Lower than Monzo, 85k, but I get equity and a four-day week."),
    ("Jordan", "Four-day week sounds great honestly."),
]

# the salary's chat without the house: nothing else Sam says holds a number and money
SALARY = [*MOVE[:4], *MOVE[6:]]

JOB = [
    ("Lena", "Marco, are you free this weekend? I need help packing boxes."),
    ("Marco", "Saturday works. Are you moving already?"),
    ("Lena", "Yes, I'm moving to Berlin for a new job at Zalando, the flat is ready on the 20th."),
    ("Marco", "Wow. What will you do at Zalando?"),
    ("Lena", "I'll be a product designer on the checkout team."),
]


def asked(api: Api, question: str, chat: str) -> dict[str, Any]:
    answer = recall_in(api, question, chat)
    top = [r["evidence"][0]["quote"] for r in answer["results"][:3]]
    answer["seen"] = (answer["status"], answer["missing_kinds"], answer["relevance"], top)
    return answer


@pytest.fixture(scope="module")
def chats(api: dict[str, Api]) -> dict[str, str]:
    return {
        name: write_chat(api["alice"], chat)
        for name, chat in (
            ("dog", DOG),
            ("cat", CAT),
            ("move", MOVE),
            ("salary", SALARY),
            ("job", JOB),
        )
    }


def test_a_name_given_as_the_subject_of_a_breed_answers(
    api: dict[str, Api], chats: dict[str, str]
) -> None:
    """ "Biscuit is a beagle" names Kai's dog: it was `not_found`, `missing_kinds: ["name"]`."""
    answer = asked(api["alice"], "What is the name of Kai's dog?", chats["dog"])
    assert answer["missing_kinds"] == [], answer["seen"]
    assert answer["status"] == "answered", answer["seen"]


def test_a_name_given_to_another_kind_does_not_answer(
    api: dict[str, Api], chats: dict[str, str]
) -> None:
    """Tom is allergic to dogs and named his cat: the cat's name is no dog's."""
    dog = asked(api["alice"], "What is the name of Tom's dog?", chats["cat"])
    assert dog["missing_kinds"] == ["name"], dog["seen"]
    assert dog["status"] == "not_found", dog["seen"]
    cat = asked(api["alice"], "What is the name of Tom's cat?", chats["cat"])
    assert cat["missing_kinds"] == [], cat["seen"]
    assert cat["status"] == "answered", cat["seen"]


@pytest.mark.parametrize("chat", ["move", "salary"])
def test_a_salary_stated_in_reply_to_its_question_answers(
    api: dict[str, Api], chats: dict[str, str], chat: str
) -> None:
    """Sam's "85k" replies to Jordan's question about the salary: the sum is stated. It was
    read as no sum (no word of money in the reply), and the status came from whatever else
    was read: "the 28th" beside "we bought" in the chat with the house, nothing without it
    (and in the trial, a different turn read in another order of the results)."""
    answer = asked(api["alice"], "What is Sam's salary at Verdant?", chats[chat])
    assert answer["missing_kinds"] == [], answer["seen"]
    assert answer["status"] == "answered", answer["seen"]


@pytest.mark.parametrize(
    ("question", "chat"),
    [
        ("How much did Sam pay for the house in Bedminster?", "move"),  # only a salary said
        ("How much does Lena earn at Zalando?", "job"),  # "are you free" is no sum
    ],
)
def test_a_sum_of_something_else_does_not_answer(
    api: dict[str, Api], chats: dict[str, str], question: str, chat: str
) -> None:
    answer = asked(api["alice"], question, chats[chat])
    assert answer["missing_kinds"] == ["amount"], answer["seen"]
    assert answer["status"] == "not_found", answer["seen"]
