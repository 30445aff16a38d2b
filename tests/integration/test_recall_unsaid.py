"""A name the person asked about never says, that another person states, is not_found
(graph_schema/recall/unsaid.py): "When did Dev go to Lisbon?" of a chat where only Priya was
there. Written as a new user writes: turns, then recall straight after."""

from __future__ import annotations

import uuid

import pytest

from server.settings import Settings
from tests.helpers import Api, recall_in, serving_without, write_chat

pytestmark = pytest.mark.integration

CHAT = [
    ("Priya", "I'm back from Lisbon! Five days of pastries and tiles."),
    ("Dev", "Jealous. I bought a used Subaru Outback last month, so road trips are possible."),
    ("Priya", "Nice! What color is it?"),
    ("Dev", "Dark green, a 2019 model. I drove it to Porto and back last weekend."),
]
QUESTION = "When did Dev go to Lisbon?"


@pytest.fixture(scope="module")
def chat(api: dict[str, Api]) -> str:
    return write_chat(api["alice"], CHAT)


def _write_sourced(writer: Api, rows: list[tuple[str, str, str]], hour: str) -> str:
    """Writes ``(speaker, source_kind, text)`` rows a minute apart from ``hour``
    ("2023-05-08T13") into a new conversation, and returns its id."""
    conversation = f"conv-{uuid.uuid4().hex[:8]}"
    for n, (speaker, kind, text) in enumerate(rows):
        body = {
            "text": text,
            "speaker": speaker,
            "source_kind": kind,
            "occurred_at": f"{hour}:{n:02d}:00+00:00",
            "conversation_id": conversation,
            "idempotency_key": f"{conversation}:{n}",
        }
        assert writer.post("/v1/observations", body).status_code == 201
    return conversation


def test_a_place_only_another_person_went_to_is_not_found(api: dict[str, Api], chat: str) -> None:
    answer = recall_in(api["bob"], QUESTION, chat)
    assert answer["status"] == "not_found"
    assert answer["unsaid"] == ["Lisbon"]
    assert answer["unmentioned"] == []  # Lisbon is mentioned, by Priya
    assert answer["results"]  # the results are still returned


def test_the_person_who_says_it_is_answered(api: dict[str, Api], chat: str) -> None:
    answer = recall_in(api["bob"], "When did Priya go to Lisbon?", chat)
    assert answer["status"] == "answered"
    assert answer["unsaid"] == []
    porto = recall_in(api["bob"], "When did Dev drive to Porto?", chat)
    assert porto["status"] == "answered", porto
    assert porto["unsaid"] == []


def test_a_note_about_the_person_is_no_other_persons_statement(api: dict[str, Api]) -> None:
    """In an agent's notes a teammate's decision is named in the agent's note about it."""
    bodies = [
        ("Maya", "user_stated", "We need a queue for the orders service this quarter."),
        ("agent", "agent_inferred", "Maya decided to drop Kafka for the orders service."),
    ]
    conversation = _write_sourced(api["alice"], bodies, "2023-05-08T13")
    answer = recall_in(api["bob"], "Why did Maya drop Kafka?", conversation)
    assert answer["unsaid"] == []


def test_switched_off_the_name_is_not_read(settings: Settings, chat: str) -> None:
    """``TRACTATUS_RECALL_DISABLE=unsaid``."""
    with serving_without(settings, {"unsaid"}) as served:
        answer = recall_in(served, QUESTION, chat)
    assert answer["unsaid"] == []


TEAM = [
    ("Carlos", "The SyncServiceTest failures come from the new retry policy. I'm reverting it."),
    ("Ines", "Carlos is on vacation until September 22; Priya covers Android until then."),
    ("Wei", "The iOS build is uploaded to TestFlight."),
]


def test_another_persons_turn_about_the_person_answers_for_them(api: dict[str, Api]) -> None:
    """A new user's trial of a team's notes: "When is Carlos back from vacation?" and "Who
    covers Android while Carlos is away?" were not_found: Ines's turn about Carlos counted as
    another person's statement (the contrast between people, and Android a name Carlos never
    says); a turn speaking of him in the third person is about him."""
    team = write_chat(api["alice"], TEAM)
    back = recall_in(api["bob"], "When is Carlos back from vacation?", team)
    assert back["status"] == "answered", back
    covers = recall_in(api["bob"], "Who covers Android while Carlos is away?", team)
    assert covers["status"] == "answered", covers
    assert covers["unsaid"] == []


ACCOUNT = [
    ("Luis", "user_stated", "Heads up, today is my last day. Jordan Blake is taking over billing"),
    ("billing", "tool_returned", "Refund of $450.00 issued for the duplicate charge."),
    ("crm", "tool_returned", "Jordan Blake added with roles Billing Contact and Account Admin."),
]


def test_a_tools_name_as_a_common_word_names_no_person(api: dict[str, Api]) -> None:
    """A new user's trial of a customer-success agent's notes: in "Who was in charge of
    billing before Jordan took over?" the word "billing" named the tool "billing" as the
    person asked about; a name written in lower case is a person's only when capitalised."""
    conversation = _write_sourced(api["alice"], ACCOUNT, "2025-03-28T20")
    answer = recall_in(
        api["bob"], "Who was in charge of billing before Jordan took over?", conversation
    )
    assert answer["person"] is None, answer["person"]
    assert answer["status"] == "answered"
    named = recall_in(api["bob"], "What did Billing say about the refund?", conversation)
    assert named["person"] is not None and named["person"]["name"] == "billing"


BAKERY = [
    ("Tomás", "Could I switch to Tue/Thu/Sat from May? My sister starts school then."),
    (
        "Rosa",
        "Quick setup for you: Tomás opens Mon, Wed and Fri. Our flour comes from "
        "Millbrook Grain, 25kg sacks at $31.50 each.",
    ),
    ("Rosa", "Fine with the swap, starting May 5."),
]


def test_another_persons_turn_counts_for_the_person_by_what_it_says_of_them(
    api: dict[str, Api],
) -> None:
    """A blind trial of a bakery's notes: "How much does Tomás make per hour?" was answered,
    since Rosa's turn that speaks of him states a price; it is about him by its sentence
    about him only, which states no sum."""
    bakery = write_chat(api["alice"], BAKERY)
    pay = recall_in(api["bob"], "How much does Tomás make per hour?", bakery)
    assert pay["person"] is not None and pay["person"]["name"] == "Tomás", pay["person"]
    assert pay["missing_kinds"] == ["amount"], pay
    assert pay["status"] == "not_found"
    days = recall_in(api["bob"], "Which days does Tomás open?", bakery)
    assert days["status"] == "answered", days
