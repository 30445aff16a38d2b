"""Step 8: what current fact a question asks for, and the groups holding it first
(graph_schema/recall/facts_asked.py)."""

from __future__ import annotations

from typing import Any

import pytest

from graph_schema.recall import facts_asked
from graph_schema.recall.facts_asked import Asked
from graph_schema.recall.fusion import Scored


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("Who handles the replicas now?", Asked("owner", ("replicas",))),
        ("Who owns the ledger service now?", Asked("owner", ("ledger", "service"))),
        ("Who is responsible for the API spec?", Asked("owner", ("API", "spec"))),
        ("Which version of the db-failover runbook is current?",
         Asked("current_version", ("db", "failover", "runbook"))),
        ("What is the status of the migration?", Asked("status", ("migration",))),
        # the past, a time of its own, an earlier owner: a fact superseded may answer
        ("Who owned the API before Omar?", None),
        ("Which version of the plan was current in April 2026?", None),
        ("Which version of the mobile app was released in May?", None),
        ("Who handled the replicas before Kofi?", None),
        # a person's fact of one value, the person named by a capital
        ("Where does Priya work now?", Asked("works_at", ("Priya",))),
        ("Who does Hana work for?", Asked("works_at", ("Hana",))),
        ("Where is Dev living these days?", Asked("lives_in", ("Dev",))),
        ("Where does Hana Kim live?", Asked("lives_in", ("Hana", "Kim"))),
        ("Where does Hana work out?", None),
        ("Where did Hana work before Lumen Labs?", None),
        ("Where does the team work?", None),
        # what someone's work is called (a new user's trial: "what's my job title?" was
        # `not_found`, `works_as data analyst` second, under a plan)
        ("What does Hana do for a living?", Asked("works_as", ("Hana",))),
        ("What's Hana's job title?", Asked("works_as", ("Hana",))),
        ("What is Hana Kim's current job?", Asked("works_as", ("Hana", "Kim"))),
        ("What was Hana's job before?", None),
        ("What is Hana's job title at Acme and when did she start?", None),
        # a practice asked about "still": given up since answers it
        ("Is Hana still learning Korean?",
         Asked("dropped", ("Hana", "learning", "Korean"), of_object=True)),
        ("Does Priya still take the pottery class?",
         Asked("dropped", ("Priya", "take", "pottery", "class"), of_object=True)),
    ],
)  # fmt: skip
def test_what_current_fact_a_question_asks_for(query: str, asked: Asked | None) -> None:
    assert facts_asked.asked(query) == asked


def record(subject: str, predicate: str, obj: str, polarity: bool = True) -> dict[str, Any]:
    return {"assertion": {"subject": subject, "predicate": predicate, "object": obj,
                          "polarity": polarity}}  # fmt: skip


def test_the_groups_holding_the_fact_come_first_with_the_boost() -> None:
    ranked = [Scored("a", 3.0), Scored("b", 2.0), Scored("c", 1.0)]
    records = {
        "a": [record("lena", "said", "Arjun handles the replicas")],
        "b": [record("runbook", "owner", "Bea")],  # another thing
        "c": [record("replicas", "owner", "Kofi")],
    }
    order = facts_asked.fact_first(ranked, records, Asked("owner", ("replicas",)))
    assert [s.gid for s in order] == ["c", "a", "b"]
    assert [s.boosts for s in order] == [["fact"], [], []]


def test_a_denied_fact_or_none_leaves_the_order() -> None:
    ranked = [Scored("a", 3.0), Scored("b", 2.0)]
    records = {"b": [record("replicas", "owner", "Kofi", polarity=False)]}
    order = facts_asked.fact_first(ranked, records, Asked("owner", ("replicas",)))
    assert [s.gid for s in order] == ["a", "b"]
    assert all(not s.boosts for s in order)


def test_a_person_question_puts_the_current_fact_of_that_person_first() -> None:
    ranked = [Scored("a", 3.0), Scored("b", 2.0), Scored("c", 1.0)]
    records = {
        "a": [record("Hana", "works_as", "UX designer")],  # "I work as a UX designer at Finch"
        "b": [record("Mei", "works_at", "Osaka Bank")],  # another person
        "c": [record("Hana", "works_at", "Lumen Labs")],
    }
    order = facts_asked.fact_first(ranked, records, Asked("works_at", ("Hana",)))
    assert [s.gid for s in order] == ["c", "a", "b"]


def test_a_practice_given_up_answers_a_still_question() -> None:
    question = facts_asked.asked("Is Hana still learning Korean?")
    assert question is not None
    ranked = [Scored("a", 3.0), Scored("b", 2.0), Scored("c", 1.0)]
    records = {
        "a": [record("Hana", "studies", "Korean")],  # "I started learning Korean"
        "b": [record("Hana", "dropped", "pottery class")],  # another thing given up
        "c": [record("Hana", "dropped", "Korean")],  # "I've given up Korean for now"
    }
    order = facts_asked.fact_first(ranked, records, question)
    assert [s.gid for s in order] == ["c", "a", "b"]
    assert order[0].boosts == ["fact"]


@pytest.mark.parametrize(
    ("query", "predicate"),
    [
        ("where do I live?", "lives_in"),
        ("Where do I live now?", "lives_in"),
        ("where am I living these days", "lives_in"),
        ("where do I work?", "works_at"),
        ("Who do I work for now?", "works_at"),
        ("what's my job title?", "works_as"),
        ("What is my occupation now?", "works_as"),
        ("what do I do for work?", "works_as"),
    ],
)
def test_a_question_in_the_first_person_asks_for_the_speakers_own_fact(
    query: str, predicate: str
) -> None:
    """A new user's trial of a personal assistant: "where do I live now?" ranked the
    sister's city first (a newer near tie) and the user's own current city fifth."""
    assert facts_asked.asked(query) == Asked(predicate, (), of_self=True)
    assert facts_asked.asked("where did I live before Bristol?") is None
    ranked = [Scored("a", 3.0), Scored("b", 2.0), Scored("c", 1.0)]
    records = {
        "a": [record("maya/sister", predicate, "Oslo")],  # a relative's
        "b": [record("maya", "said", "if I won the lottery I'd live in Lisbon")],
        "c": [record("maya", predicate, "Bristol")],
    }
    question = facts_asked.asked(query)
    assert question is not None
    assert [s.gid for s in facts_asked.fact_first(ranked, records, question)] == ["c", "a", "b"]


def test_the_current_fact_asked_for_first_answers_the_question() -> None:
    """The status: the fact of the predicate asked for, about whom it is asked, first among
    the results, answers it whatever words it shares with the question ("what's my job
    title?" and ``works_as data analyst``, relevance 0.41, was `not_found`)."""
    question = facts_asked.asked("what's my job title?")
    assert question is not None
    fact = {"a": [record("maya", "works_as", "data analyst")]}
    relative = {"a": [record("maya/sister", "works_as", "nurse")]}
    plan = {"a": [record("maya", "plans", "moving to Berlin (2027)")]}
    first = [Scored("a", 3.0)]
    assert facts_asked.answers(first, fact, question)
    assert not facts_asked.answers(first, relative, question)
    assert not facts_asked.answers(first, plan, question)
    assert not facts_asked.answers([], fact, question)
    assert not facts_asked.answers(first, fact, None)
    still = facts_asked.asked("Is Hana still learning Korean?")
    dropped = {"a": [record("Hana", "dropped", "Korean")]}
    assert still is not None and not facts_asked.answers(first, dropped, still)
    person = facts_asked.asked("What does Hana do for a living?")
    assert person is not None
    assert facts_asked.answers(first, {"a": [record("Hana", "works_as", "nurse")]}, person)
    assert not facts_asked.answers(first, {"a": [record("Mei", "works_as", "nurse")]}, person)


def test_the_persons_own_fact_comes_before_a_relatives() -> None:
    """A new user's trial of an assistant: "What is Nina allergic to?" put the daughter's
    peanut allergy first, Nina's own penicillin allergy second."""
    ranked = [Scored("kid", 3.0), Scored("cilantro", 2.5), Scored("own", 2.0), Scored("x", 1.0)]
    records = {
        "kid": [record("Nina", "said", "My daughter is allergic to peanuts."),
                record("Nina/daughter", "allergic_to", "peanuts"),
                record("Nina", "has_relative", "Nina/daughter")],
        "cilantro": [record("Nina", "dislikes", "cilantro")],
        "own": [record("Nina", "said", "I'm allergic to penicillin."),
                record("Nina", "allergic_to", "penicillin")],
        "x": [record("Nina", "allergic_to", "dust")],
    }  # fmt: skip
    order = facts_asked.own_first(ranked, records, "Nina", "What is Nina allergic to?")
    assert [s.gid for s in order] == ["own", "kid", "cilantro", "x"]
    assert order[0].boosts == ["fact"]
    # the question speaks of the relative, or names no one: the order as it was
    for person, query in [("Nina", "What is Nina's daughter allergic to?"), (None, "Allergies?")]:
        kept = facts_asked.own_first(ranked, records, person, query)
        assert [s.gid for s in kept] == ["kid", "cilantro", "own", "x"]
    # no own fact of the predicate below: the relative's stays first
    alone = {k: v for k, v in records.items() if k == "kid"}
    assert facts_asked.own_first(ranked, alone, "Nina", "Allergic?")[0].gid == "kid"
