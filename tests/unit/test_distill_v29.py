"""Distiller version 29: what two new users' trials found missing or misread (a personal
assistant's chat of one user, and entities and aliases): a bare place visited, an employer
left by its bare name, a nickname an alias, and a relative's own dislike. Each sentence is
theirs or of the same shape."""

from __future__ import annotations

from typing import Any

import pytest

from ingest.distill.offline import distill_text

SPEAKER = "h3-Maya"
AT = "2026-11-20T10:00:00+00:00"  # a Friday
M = SPEAKER


def facts(text: str) -> list[tuple[str, str, Any, bool]]:
    drafts = distill_text(text, speaker=SPEAKER, occurred_at=AT)
    return [
        (d["subject"], d["predicate"], d["object"], d["polarity"])
        for d in drafts
        if d["predicate"] != "said"
    ]


def dated(text: str) -> dict[tuple[str, str, Any, bool], str | None]:
    drafts = distill_text(text, speaker=SPEAKER, occurred_at=AT)
    return {
        (d["subject"], d["predicate"], d["object"], d["polarity"]): d.get("valid_from")
        for d in drafts
        if d["predicate"] != "said"
    }


# --- (a) a bare place visited -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "place", "when"),
    [
        ("I visited Rome.", "Rome", None),
        ("I visited Kyoto last month.", "Kyoto", "2026-10-01T00:00:00+00:00"),
        ("Last summer I visited Rome.", "Rome", None),  # "last summer" is never guessed
        ("We visited Berlin last week.", "Berlin", "2026-11-09T00:00:00+00:00"),
        ("I visited Rome in March 2023.", "Rome", "2023-03-01T00:00:00+00:00"),
        ("I visited New York last year.", "New York", "2025-01-01T00:00:00+00:00"),
        ("I visited Florence, Italy.", "Florence", None),  # a given name, placed by its country
    ],
)
def test_a_known_place_visited_by_its_bare_name(text: str, place: str, when: str | None) -> None:
    found = dated(text)
    assert (M, "visited", place, True) in found
    assert found[(M, "visited", place, True)] == when


def test_two_places_visited() -> None:
    assert facts("We visited Lisbon and Porto.") == [
        (M, "visited", "Lisbon", True),
        (M, "visited", "Porto", True),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "I visited Harry last week.",  # a person (LoCoMo has one)
        "I visited Harry.",
        "We visited Grandma on Sunday.",
        "I visited Florence at her new flat.",  # a given name as often as a city
        "I visited Georgia last summer.",
        "I visited Mike and Sarah last weekend.",
        "I visit Rome every summer.",  # a habit, not one visit done
        "I didn't visit Rome.",
        "I'd love to visit Japan someday.",
    ],
)
def test_a_bare_name_that_may_be_a_person_is_no_visit(text: str) -> None:
    assert [f for f in facts(text) if f[1] == "visited"] == []


# --- (b) an employer left by its bare name ----------------------------------------------------


def test_an_employer_left_by_its_bare_name_is_withdrawn_dated() -> None:
    assert dated("I left Fretlog last month.") == {
        (M, "works_at", "Fretlog", False): "2026-10-31T23:59:59+00:00"  # version 31: its end
    }
    assert dated("I left Fretlog two weeks ago.") == {
        (M, "works_at", "Fretlog", False): "2026-11-08T23:59:59+00:00"
    }


@pytest.mark.parametrize(
    "text",
    [
        "I left Fretlog.",  # no time: as "I left Tom", nothing says it was a job
        "I left Tom.",
        "I left Paris last month.",  # a known place
        "I left Porto last year.",
        "I left Mom at the station last week.",  # a relative
        "I'm leaving Fretlog next month.",  # not yet
        "I didn't leave Fretlog last month.",
        "My husband left Fretlog last month.",  # not the speaker's employer
    ],
)
def test_a_name_left_that_is_no_employer_left_is_not_withdrawn(text: str) -> None:
    assert [f for f in facts(text) if f[1] == "works_at"] == []


# --- (c) a nickname is an alias ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "nickname"),
    [
        ("Everyone calls me Bobby.", "Bobby"),
        ("Everyone calls me Zuzzle.", "Zuzzle"),
        ("Hi, I'm Robert Fennimore, but everyone calls me Bob.", "Bob"),
        ("My friends call me Bobby.", "Bobby"),
        ("My nickname is Bobby.", "Bobby"),
    ],
)
def test_a_nickname_is_an_alias_not_the_name(text: str, nickname: str) -> None:
    found = facts(text)
    assert (M, "alias", nickname, True) in found
    assert [f for f in found if f[1] == "name"] == []


def test_the_name_stays_the_name_and_nobody_names_nothing() -> None:
    assert facts("My name is Gretchenna Ostrova.") == [(M, "name", "Gretchenna Ostrova", True)]
    assert facts("I'm called Bob.") == [(M, "name", "Bob", True)]
    assert facts("Nobody calls me Bobby.") == []
    # a pet named by the speaker is no name of the speaker's (the parse reads "her Mochi")
    named = facts("She's a 10-week-old Shiba Inu and we've called her Mochi.")
    assert [f for f in named if f[0] == M and f[1] in ("name", "alias")] == []


# --- (d) a relative's own preference ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "who", "what", "polarity"),
    [
        ("My husband Tiago hates running.", f"{M}/husband", "running", False),
        ("My husband hates running.", f"{M}/husband", "running", False),
        ("My sister hates cilantro.", f"{M}/sister", "cilantro", False),
        ("My sister Emma hates jazz.", f"{M}/sister:Emma", "jazz", False),
        ("My husband Tiago enjoys cooking.", f"{M}/husband", "cooking", True),
        ("My cat Mochi hates baths.", f"{M}/cat:Mochi", "baths", False),
    ],
)
def test_a_relatives_preference_is_the_relatives(
    text: str, who: str, what: str, polarity: bool
) -> None:
    found = facts(text)
    assert (who, "likes", what, polarity) in found
    assert [f for f in found if f[0] == M and f[1] in ("likes", "activity", "prefers")] == []


def test_a_relative_who_hates_running_does_not_run() -> None:
    """ "My husband hates running" wrote `<speaker>/husband activity running`."""
    for text in ("My husband hates running.", "My husband Tiago and I hate running."):
        assert [f for f in facts(text) if f[1] == "activity"] == []
    both = facts("My husband Tiago and I hate running.")
    assert (M, "likes", "running", False) in both  # the speaker's own, said with "I"
    assert (M, "name", "Tiago", True) not in both
