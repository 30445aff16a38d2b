"""The person a question mentions who never speaks (graph_schema.recall.mentions)."""

from __future__ import annotations

from typing import Any

import pytest

from graph_schema.recall.fusion import Scored
from graph_schema.recall.mentions import Mentioned, mentioned_person, persons
from graph_schema.recall.query import spoken_of


def fact(subject: str, predicate: str, obj: Any) -> dict[str, Any]:
    return {"assertion": {"subject": subject, "predicate": predicate, "object": obj}}


RECORDS = {
    "t1": [fact("Priya", "has_relative", "Priya/partner"), fact("Priya/partner", "name", "Sam")],
    "t2": [fact("Priya", "has_relative", "Priya/sister:Meera")],
    "t3": [fact("Priya", "lives_in", "Lisbon")],
    "t4": [fact("Priya", "said", "Ana called.")],
}


def group(gid: str, speaker: str, turn: str) -> Scored:
    return Scored(gid, speaker=speaker, texts=[f"{speaker}: {turn}"], turn=turn)


WINDOW = [
    group("t1", "Priya", "My partner Sam is in Manchester."),
    group("t2", "Priya", "My sister Meera is visiting."),
    group("t3", "Priya", "I live in Lisbon."),
    group("t4", "Ana", "Ana called."),
]


def test_the_persons_known_by_a_name_are_named_relatives_and_the_subjects_of_name_facts() -> None:
    known = persons(RECORDS.values())
    assert known == {"Sam": {"Priya/partner"}, "Meera": {"Priya/sister:Meera"}}


def test_a_question_naming_a_mentioned_person_finds_them() -> None:
    found = mentioned_person("Where does Meera work?", RECORDS, WINDOW)
    assert found == Mentioned("Meera", frozenset({"Priya/sister:Meera"}))
    assert mentioned_person("What does Sam do?", RECORDS, WINDOW) == Mentioned(
        "Sam", frozenset({"Priya/partner"})
    )


def test_places_speakers_and_two_persons_are_no_mentioned_person() -> None:
    assert mentioned_person("Where is Lisbon?", RECORDS, WINDOW) is None  # a place
    assert mentioned_person("Where do Sam and Meera live?", RECORDS, WINDOW) is None  # two
    speaking = {**RECORDS, "t4": [fact("Priya/friend:Ana", "said", "x")]}
    assert mentioned_person("What did Ana say?", speaking, WINDOW) is None  # Ana speaks


def test_a_group_is_about_the_person_by_their_name_in_its_own_turn_or_by_its_facts() -> None:
    sam = Mentioned("Sam", frozenset({"Priya/partner"}))
    assert sam.in_group(WINDOW[0], RECORDS["t1"])
    by_fact = group("t9", "Priya", "He starts teaching in May.")
    assert sam.in_group(by_fact, [fact("Priya/partner", "works_as", "teacher")])
    assert not sam.in_group(WINDOW[2], RECORDS["t3"])
    # a name inside another word, or only in the turn before (the passage), is not about them
    assert not sam.in_group(group("t5", "Priya", "We ate samosas."), [])
    passage = Scored(
        "t6", speaker="Priya", texts=["Priya: Sam called.\nPriya: Lunch?"], turn="Lunch?"
    )
    assert not sam.in_group(passage, [])


@pytest.mark.parametrize(
    ("text", "about"),
    [
        ("Ines: Carlos is on vacation until September 22.", True),
        ("Carlos's build failed again.", True),
        ("I told Carlos about the retry policy.", True),
        ("Told Carlos I'd come back to him by Friday.", True),  # "I" after the name
        ("Thanks, Carlos! Great job.", False),  # spoken to
        ("Hey Carlos how was the trip?", False),
        ("Thanks Carlos for the fix", False),
        ("Carlos, can you check the build?", False),
        ("Carlos: I'm reverting it.", False),  # his own turn's speaker
        ("Carlosito is here.", False),  # another word
        ("carlos is a word here, not a name.", False),  # lower case: no name
        # the name closing a clause after a word of it
        ("Let's go with Carlos.", True),
        ("We can go to $165k base for Carlos, equity stays at 0.15%.", True),
        ("Sent: offer letter to Carlos Diaz. Base salary $158,000.", True),
        ("Sure, Carlos.", False),
        ("Great job Carlos!", False),
        ("Thank you Carlos", False),
        # a record's field names its person (a blind trial: the DMV's "Applicant: Jonah
        # Harper-Lin, DOB ..." was not about Jonah, and the time of his test went unread)
        ("Service: knowledge test. Applicant: Carlos Diaz, DOB 2007-11-02.", True),
        ("email: To: Carlos Diaz <c@example.org> | Subject: your visit", True),
        ("Mia: Carlos, look at this!", False),  # the turn's speaker, then the one spoken to
        ("agent: Done. Note: Carlos, can you check it?", False),  # asked, after a label
        # Chinese writes the name against its own words: the subject of the sentence
        ("Carlos下个星期五下午考驾照", True),
        ("Carlos，你好", False),  # spoken to
    ],
)
def test_a_turn_speaks_of_a_person_in_the_third_person(text: str, about: bool) -> None:
    assert spoken_of(text, "Carlos") is about


def test_a_full_name_closing_a_clause_is_spoken_of() -> None:
    """A blind trial's "how much did cancelling Li Wei's Osaka room cost us" was not_found: the
    booking's "(..., guest Li Wei) cancelled" was no turn about Li Wei, "Wei" following another
    word of the name; the whole name after a word of the clause is."""
    booking = "booking: Reservation OSA-31177 (Cross Hotel Osaka, guest Li Wei) cancelled."
    assert spoken_of(booking, "Li Wei")
    assert not spoken_of("tutor: Practice test - Lucas Chen.", "Lucas Chen")  # a header
    assert not spoken_of("Mia: Thanks, Li Wei!", "Li Wei")


def test_a_name_that_is_also_a_word_is_spoken_of_only_as_a_name() -> None:
    assert spoken_of("Mark is on leave until Monday.", "Mark")
    assert not spoken_of("Please mark it done when the build passes.", "Mark")


def test_words_said_and_paths_are_no_person_identifiers() -> None:
    """A tool's line with a path and a colon ("runbooks/disk-full.md: add step ... before
    deleting any WAL") was read as a person named by its whole tail, and "How many replicas
    did payments-api have before it was scaled up?" became a question about them."""
    said = "Merged PR #482 'runbooks/disk-full.md: add step to check before deleting any WAL'"
    records = [[fact("github", "said", said)], [fact("Ops", "uses", "docs/run.md: step two")]]
    assert persons(records) == {}
    window = [group("g1", "github", said)]
    question = "How many replicas did payments-api have before it was scaled up?"
    assert mentioned_person(question, {"g1": records[0]}, window) is None
    assert persons([[fact("Li", "has_pet", "Li/dog:Mochi Bean")]]) == {
        "Mochi Bean": {"Li/dog:Mochi Bean"}
    }


def test_a_surname_after_the_first_name_is_no_word_of_the_clause() -> None:
    """A tool's header "Practice test - Lucas Chen." read "Chen" as a name closing a clause
    after the word "Lucas", and the record counted for Lucas's own statements."""
    assert not spoken_of("Practice test - Lucas Chen. AP Calculus AB: 74/100.", "Lucas Chen")
    assert spoken_of("Sent: the offer letter to Lucas Chen. Base salary $158,000.", "Lucas Chen")
