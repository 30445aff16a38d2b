"""Step 8: a question asking for a current fact of one value per thing (an owner, a version,
a status) puts the groups holding that fact first (graph_schema/recall/facts_asked.py).
Written as a new user writes: notes, then recall straight after."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from server.settings import Settings
from tests.helpers import Api, recall_in, serving_without, write_chat

pytestmark = pytest.mark.integration

NOTES = [
    (
        "lena",
        "We need to move the orders database from Postgres 13 to Postgres 16 before support"
        " ends. I'm leading it; Arjun handles the replicas and Bea owns the runbook.",
    ),
    ("ops", "Plan: logical replication into a new cluster, then a cutover in a short window."),
    ("arjun", "Upgraded pg_partman to 5.1 on the new cluster; job 772 passed."),
    ("lena", "Arjun is moving to the data platform team; Kofi takes over the replicas."),
]


@pytest.fixture(scope="module")
def notes(api: dict[str, Api]) -> str:
    return write_chat(api["alice"], NOTES)


@pytest.fixture(scope="module")
def step_8(settings: Settings) -> Iterator[Api]:
    """Step 8 alone: step 6 switched off, which puts these answers first too since it reads a
    newer answer about the same thing as the best (docs/recall.md)."""
    with serving_without(settings, {"present"}) as served:
        yield served


def top(answer: dict[str, object]) -> dict[str, object]:
    results = answer["results"]
    assert isinstance(results, list) and results
    first: dict[str, object] = results[0]
    return first


def test_the_current_owner_comes_first(api: dict[str, Api], step_8: Api, notes: str) -> None:
    """The first note shares more words with the question; the last one's fact (`replicas
    owner Kofi`) is the owner as of now, and its turn comes first: by step 8 alone, and with
    every step on."""
    answer = recall_in(step_8, "Who handles the replicas now?", notes)
    first = top(answer)
    assert first["assertion"]["object"] == "Kofi", first["assertion"]  # type: ignore[index]
    assert "fact" in first["why"]["boosts"]  # type: ignore[index]
    assert answer["status"] == "answered"
    every = top(recall_in(api["bob"], "Who handles the replicas now?", notes))
    assert every["assertion"]["object"] == "Kofi", every["assertion"]  # type: ignore[index]


def test_switched_off_the_longer_note_comes_first(settings: Settings, notes: str) -> None:
    """``TRACTATUS_RECALL_DISABLE=fact`` (and ``present``): the order the rerank gave."""
    with serving_without(settings, {"fact", "present"}) as served:
        answer = recall_in(served, "Who handles the replicas now?", notes)
    first = top(answer)
    assert first["assertion"]["object"] != "Kofi"  # type: ignore[index]
    assert "fact" not in first["why"]["boosts"]  # type: ignore[index]


def test_a_question_about_an_earlier_owner_is_not_reordered(
    api: dict[str, Api], notes: str
) -> None:
    answer = recall_in(api["bob"], "Who handled the replicas before Kofi?", notes)
    assert all("fact" not in r["why"]["boosts"] for r in answer["results"])


PERSON = [
    ("hana", "I work as a UX designer at Finch Health in Toronto."),
    ("hana", "I started learning Korean on Duolingo, aiming for 15 minutes a day."),
    ("hana", "I accepted an offer from Lumen Labs! I start on April 7 as a senior designer."),
    ("hana", "I've given up Korean for now; work is too busy."),
]


@pytest.fixture(scope="module")
def person(api: dict[str, Api]) -> str:
    return write_chat(api["alice"], PERSON)


def test_where_a_person_works_now_is_the_current_employer(step_8: Api, person: str) -> None:
    """A new user's trial: "Where does Hana work now?" put the first turn (Finch Health, a
    job of the past) first; `works_at Lumen Labs` superseded it."""
    first = top(recall_in(step_8, "Where does Hana work now?", person))
    assert first["assertion"]["predicate"] == "works_at", first["assertion"]  # type: ignore[index]
    assert first["assertion"]["object"] == "Lumen Labs"  # type: ignore[index]
    assert "fact" in first["why"]["boosts"]  # type: ignore[index]


def test_a_practice_given_up_answers_still(api: dict[str, Api], person: str) -> None:
    """A new user's trial: "Is Hana still learning Korean?" put "I started learning Korean"
    first; "I've given up Korean for now" answers it."""
    first = top(recall_in(api["bob"], "Is Hana still learning Korean?", person))
    assert first["assertion"]["predicate"] == "dropped", first["assertion"]  # type: ignore[index]
    assert "fact" in first["why"]["boosts"]  # type: ignore[index]


LIFE = [
    ("maya", "Morning! Coffee first, then standup at 9."),
    ("maya", "I'm a data analyst at Brightline, mostly dashboards and SQL all day."),
    ("maya", "My boss said we might be moving to Berlin in 2027, which is wild."),
    ("maya", "My sister is a nurse in Leeds and works nights."),
    ("maya", "Booked a pottery class for Saturday."),
]


def test_the_current_fact_asked_for_answers_the_question(api: dict[str, Api]) -> None:
    """A new user's trial of a personal assistant: "what's my job title?" was `not_found`
    (relevance 0.41, a plan first), though `works_as data analyst` answers it; the fact
    asked for, first, answers the question whatever words it shares with it."""
    life = write_chat(api["alice"], LIFE)
    answer = recall_in(api["bob"], "what's my job title?", life)
    first = top(answer)
    assert "data analyst" in first["assertion"]["object"], first["assertion"]  # type: ignore[index]
    assert answer["status"] == "answered", (answer["relevance"], answer["results"][:3])
    unasked = recall_in(api["bob"], "what's my blood type?", life)
    assert unasked["status"] == "not_found", unasked["results"][:1]


NINA = [
    ("nina", "I'm allergic to penicillin."),
    ("nina", "My daughter is allergic to peanuts."),
    ("nina", "I hate cilantro."),
    ("nina", "My husband Tiago hates running."),
]


def test_the_persons_own_fact_before_a_relatives(api: dict[str, Api]) -> None:
    """A new user's trial of an assistant: "What is Nina allergic to?" put the daughter's
    peanut allergy first; "What is the name of Nina's daughter?" was `answered`, though no
    turn names her."""
    chat = write_chat(api["alice"], NINA)
    first = top(recall_in(api["bob"], "What is Nina allergic to?", chat))
    assert first["assertion"]["subject"] == "nina", first["assertion"]  # type: ignore[index]
    assert "penicillin" in first["assertion"]["object"]  # type: ignore[index]
    theirs = top(recall_in(api["bob"], "What is Nina's daughter allergic to?", chat))
    assert "peanuts" in theirs["assertion"]["object"], theirs["assertion"]  # type: ignore[index]
    unnamed = recall_in(api["bob"], "What is the name of Nina's daughter?", chat)
    assert unnamed["status"] == "not_found", unnamed["results"][:2]
    assert unnamed["missing_kinds"] == ["name"]
    named = recall_in(api["bob"], "What is the name of Nina's husband?", chat)
    assert named["status"] == "answered", (named["relevance"], named["results"][:2])
