"""A time of day or a time zone asked for, and whether a text holds one (recall's
``missing_kinds``: graph_schema/recall/clock.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from graph_schema.core.types import SourceKind
from graph_schema.recall import clock
from graph_schema.recall.clock import CLOCK_TIME, TIME_ZONE
from graph_schema.recall.fusion import Scored
from graph_schema.recall.pipeline import about_person, details_of_person
from graph_schema.recall.query import without_name


@pytest.mark.parametrize(
    ("query", "kinds"),
    [
        ("What time is our entry slot at the Oceanario?", [CLOCK_TIME]),
        ("At what time do we land in Lisbon?", [CLOCK_TIME]),
        ("What flight are we on now and what time do we land?", [CLOCK_TIME]),
        ("What time zone is Jordan Blake in?", [TIME_ZONE]),
        ("Which timezone does Wei work in?", [TIME_ZONE]),
        ("Maya在哪个时区？", [TIME_ZONE]),
        ("明天几点开会？", [CLOCK_TIME]),
        ("What time of year do they go to Crete?", []),
        ("What time frame did they give for the fix?", []),
        ("When is the standup?", []),  # a day would answer it too
    ],
)  # fmt: skip
def test_the_questions_that_ask_for_a_time_of_day_or_a_zone(query: str, kinds: list[str]) -> None:
    assert clock.asked(query) == kinds


@pytest.mark.parametrize(
    ("kind", "text", "holds"),
    [
        (CLOCK_TIME, "Pena Palace day trip, timed entry 09:30", True),
        (CLOCK_TIME, "the call is at 3pm on Friday", True),
        (CLOCK_TIME, "moved the loads to 01:30 UTC", True),
        (CLOCK_TIME, "he trains on Tuesday evenings", True),
        (CLOCK_TIME, "开会改到下午三点", True),
        # a window of hours (a new user's try: "engineer visit on 20 May between 8 and 1")
        (CLOCK_TIME, "Zen engineer visit on 20 May between 8 and 1.", True),
        (CLOCK_TIME, "the courier comes from 9 to 5 on weekdays", True),
        (CLOCK_TIME, "prices went from 12 to 15.50 a box", False),
        (CLOCK_TIME, "Oceanario de Lisboa, 26 Jul 2025 - 5 tickets, EUR 92.", False),
        (CLOCK_TIME, "version 3.12 is out, p99 is 1.25 s", False),
        (TIME_ZONE, "I'm on Singapore time, ping me before 6pm SGT", True),
        (TIME_ZONE, "works on Mountain Time (UTC-7)", True),
        (TIME_ZONE, "We're in Denver, so nothing before 9am", True),  # a place tells the zone
        (TIME_ZONE, "14:00 CET suits everyone", True),
        (TIME_ZONE, "Jordan here. We hired more coordinators in March.", False),
        (TIME_ZONE, "Last time we spoke, the PO number was missing.", False),
        (TIME_ZONE, "Please send the invoice to Priya in March.", False),  # a person, a month
    ],
)  # fmt: skip
def test_whether_a_text_holds_a_time_of_day_or_a_zone(kind: str, text: str, holds: bool) -> None:
    assert clock.states(kind, text) is holds


BOOKINGS = (
    "Activities booked: (1) Pena Palace & Sintra day trip, 29 Jul 2025, timed entry 09:30 - 5 "
    "tickets, EUR 148. (2) Oceanario de Lisboa, 26 Jul 2025 - 5 tickets, EUR 92. Total EUR 240."
)


def test_a_time_of_day_is_read_in_the_sentences_about_the_thing_named() -> None:
    """A blind trial's "What time is our entry slot at the Oceanario?" was answered at 0.79
    by the note of bookings, whose only time of day is the other booking's."""
    assert clock.missing("What time is our entry slot at the Oceanario?", [BOOKINGS]) == [
        CLOCK_TIME
    ]
    assert clock.missing("What time is our entry slot at Pena Palace?", [BOOKINGS]) == []
    later = ["We land in Lisbon on the 24th. Arrival is 09:55, terminal 1."]
    assert clock.missing("What time do we land in Lisbon?", later) == []  # the sentence after
    # a name no sentence holds is another rule's: every text is read
    assert clock.missing("What time is the Sintra tour?", ["pickup at 8am"]) == []


def test_a_zone_is_missing_when_no_text_read_names_one_or_a_place() -> None:
    jordan = ["Jordan here. Please raise us to 48 seats.", "Can the invoice show PO-7734?"]
    assert clock.missing("What time zone is Jordan Blake in?", jordan) == [TIME_ZONE]
    assert clock.missing("What time zone is Maya in?", ["We're in Denver."]) == []
    assert clock.missing("What did Jordan ask for?", jordan) == []


def test_for_a_speaker_every_text_read_counts() -> None:
    """A speaker's own turns never name them: "What time does Ben train now?" is answered by
    Ben's "can we do 7am from now on?", which a reading by the sentences naming Ben drops."""
    texts = ["Ben Zhou's programme: deadlifts out until the physio has seen him.", "can we do 7am?"]
    query = "What time does Ben train on Wednesdays now?"
    assert clock.missing(query, texts) == [CLOCK_TIME]
    assert clock.missing(query, texts, narrow=False) == []


def test_a_detail_of_a_person_is_read_in_the_sentence_after_the_one_naming_them() -> None:
    """A blind trial's "what time and where was jonah's knowledge test" was not_found: the
    DMV's record names Jonah in one field and gives the time in the next, and only the
    sentences naming him were read for a question about him."""
    record = (
        "dmv: Appointment confirmed. Service: learner permit knowledge test. Applicant: Jonah "
        "Harper-Lin, DOB 2007-11-02. Date/time: 2024-03-15 15:30. Location: Riverside DMV."
    )
    group = Scored(
        "g1", speaker="dmv", texts=[record], turn=record, source_kind=SourceKind.tool_returned
    )
    read = details_of_person(group, "Jonah")
    assert read == ["Applicant: Jonah Harper-Lin, DOB 2007-11-02. Date/time: 2024-03-15 15:30."]
    query = "what time and where was jonah's knowledge test"
    assert clock.missing(query, read, narrow=False) == []
    assert clock.missing(query, about_person(group, "Jonah"), narrow=False) == [CLOCK_TIME]


def test_in_a_persons_turn_the_next_sentence_is_read_when_it_goes_on_with_the_question() -> None:
    """A person's turn may move on to other things after the sentence about someone ("Tomás
    opens Mon, Wed and Fri. Our flour is $31.50 a sack." states no pay of his): the next
    sentence is read when it holds a word of the question besides the name ("Harold gets
    hardware keys. I've ordered two YubiKey keys at £52 each." for a question about his
    keys); a tool's record, an agent's note or a document is always read on."""
    turn = "Rosa: Quick setup: Tomás opens Mon, Wed and Fri. Our flour is $31.50 a sack."
    said = Scored("g1", speaker="Rosa", texts=[turn], turn=turn, source_kind=SourceKind.user_stated)
    pay = without_name("How much does Tomás make per hour?", "Tomás")
    assert details_of_person(said, "Tomás", pay) == [
        "Rosa: Quick setup: Tomás opens Mon, Wed and Fri."
    ]
    flour = without_name("How much is the flour Tomás uses?", "Tomás")
    assert details_of_person(said, "Tomás", flour) == [turn]
    noted = replace(said, source_kind=SourceKind.agent_inferred)  # an agent's note reads on
    assert details_of_person(noted, "Tomás", pay) == [turn]
