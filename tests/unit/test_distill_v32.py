"""Distiller version 32: what a new user's trial of a bilingual personal-assistant app found
misread: an employer written with its dot ("Trip.com") or in the possessive ("St Mary's"), a
last day at an employer that withdrew nothing, one start planned twice, and a relative's name
of two words cut to its last ("My boyfriend Chen Hao" was named ``Hao``). Each sentence is
theirs or of the same shape."""

from __future__ import annotations

from typing import Any

import pytest

from ingest.distill.offline import OfflineDistiller

N = "Mei"
AT = "2025-02-24T10:00:00Z"  # a Monday


def drafts(text: str, *, speaker: str = N) -> list[dict[str, Any]]:
    found = OfflineDistiller().distill_text(text, speaker=speaker, occurred_at=AT)
    return [d for d in found if d["predicate"] != "said"]


def facts(text: str, *, speaker: str = N) -> list[tuple[str, str, Any, bool]]:
    return [
        (d["subject"], d["predicate"], d["object"], d["polarity"])
        for d in drafts(text, speaker=speaker)
    ]


def dated(text: str) -> dict[tuple[str, str, Any, bool], str | None]:
    return {
        (d["subject"], d["predicate"], d["object"], d["polarity"]): d.get("valid_from")
        for d in drafts(text)
    }


# --- (a) an employer with a dot or in the possessive, or after the role -----------------------


@pytest.mark.parametrize(
    ("text", "employer", "role"),
    [
        ("I work at Trip.com as a product manager.", "Trip.com", "product manager"),
        ("I work at Trip.com.", "Trip.com", None),
        ("I got a job at Booking.com as a designer.", "Booking.com", "designer"),
        ("I'm a nurse at St Mary's.", "St Mary's", "nurse"),
        ("I work at McDonald's.", "McDonald's", None),
        ("I work as a barista at Blue Bottle.", "Blue Bottle", "barista"),
        ("I'm working as a product manager at Trip.com.", "Trip.com", "product manager"),
    ],
)
def test_an_employer_is_named_whole(text: str, employer: str, role: str | None) -> None:
    """ "I work at Trip.com as a product manager" wrote ``works_as`` and no ``works_at``
    (no word of "Trip.com" was alphabetic, so the phrase was refused), and "St Mary's" was
    ``St Mary``."""
    found = set(facts(text))
    assert (N, "works_at", employer, True) in found
    if role is not None:
        assert (N, "works_as", role, True) in found
    assert [f for f in found if f[1] == "works_at"] == [(N, "works_at", employer, True)]


@pytest.mark.parametrize(
    "text",
    [
        "I'm a nurse at St Mary's Hospital.",
        "I work for Google as an engineer.",
        "I'm working at Acme now.",
    ],
)
def test_the_other_common_forms_still_name_their_employer(text: str) -> None:
    assert [f[2] for f in facts(text) if f[1] == "works_at"] in (
        ["St Mary's Hospital"],
        ["Google"],
        ["Acme"],
    )


def test_a_volunteer_at_a_place_names_no_employer_after_the_role() -> None:
    assert facts("I work as a volunteer at the shelter.") == [(N, "works_as", "volunteer", True)]


# --- (b) a last day at an employer ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "employer", "valid_from"),
    [
        ("Last day at Trip.com was March 14.", "Trip.com", "2024-03-14T23:59:59+00:00"),
        ("My last day at Trip.com was Friday.", "Trip.com", "2025-02-21T23:59:59+00:00"),
        ("Friday was my last day at Acme Corp.", "Acme Corp", "2025-02-21T23:59:59+00:00"),
        ("Last day at DJI was yesterday.", "DJI", "2025-02-23T23:59:59+00:00"),
        ("Today was my last day at Trip.com.", "Trip.com", "2025-02-24T10:00:00+00:00"),
    ],
)
def test_a_last_day_past_withdraws_the_employer_by_that_day(
    text: str, employer: str, valid_from: str
) -> None:
    """They wrote nothing, and the job stayed current; dated as "I left X" is (the day's last
    second, or the time said while the day goes on)."""
    assert dated(text) == {(N, "works_at", employer, False): valid_from}


@pytest.mark.parametrize(
    ("text", "plan"),
    [
        ("My last day at Trip.com is March 14.", "last day at Trip.com (2025-03-14)"),
        ("My last day at Trip.com is Friday.", "last day at Trip.com (2025-02-28)"),
    ],
)
def test_a_last_day_ahead_is_a_plan_and_the_job_still_holds(text: str, plan: str) -> None:
    """The plan, and (version 33) the employer withdrawn from the day's last second: a read
    as of any time before it still finds the job."""
    day = plan[-11:-1]
    assert dated(text) == {
        (N, "plans", plan, True): None,
        (N, "works_at", "Trip.com", False): f"{day}T23:59:59+00:00",
    }


@pytest.mark.parametrize(
    "text",
    [
        "My last day at Trip.com was emotional.",  # which day, it does not say
        "My last day at work was Friday.",  # no employer named
        "My last day in Paris was Friday.",
        "Today is my last day at Trip.com.",  # the job holds today
        "My last day at Trip.com wasn't Friday.",
        "If my last day at Trip.com is March 14, I'll travel.",
    ],
)
def test_no_last_day_withdrawal_without_a_day_or_an_employer(text: str) -> None:
    assert [f for f in facts(text) if f[1] in ("works_at", "plans")] == []


def test_a_start_ahead_is_one_clean_plan() -> None:
    """ "start at DJI on (2025-03-24)" and "start at DJI (2025-03-24)" were both written: the
    time was cut from the plan and its "on" left dangling."""
    plan = (N, "plans", "start at DJI (2025-03-24)", True)
    joined = (N, "works_at", "DJI", True)  # version 33: from the day it starts
    assert facts("I accepted the DJI offer and I start at DJI on March 24.") == [plan, joined]
    assert facts("I start at DJI on March 24.") == [plan, joined]


# --- (c) a relative's name of two words -------------------------------------------------------


def test_a_one_holder_role_is_named_whole() -> None:
    """ "My boyfriend Chen Hao is a teacher" named the partner ``Hao``."""
    assert facts("My boyfriend Chen Hao is a teacher.") == [
        (f"{N}/partner", "works_as", "teacher", True),
        (N, "has_relative", f"{N}/partner", True),
        (f"{N}/partner", "name", "Chen Hao", True),
    ]


def test_a_name_the_parse_makes_the_subject_is_named_whole() -> None:
    """ "My boyfriend Chen Hao voted for Mochi and I agreed" gave no name at all (the parse
    hangs "boyfriend" on the verb and makes "Hao" its subject)."""
    assert facts("My boyfriend Chen Hao voted for Mochi and I agreed.") == [
        (N, "has_relative", f"{N}/partner", True),
        (f"{N}/partner", "name", "Chen Hao", True),
    ]


def test_a_named_role_takes_the_whole_name_into_its_identifier() -> None:
    """ "my sister Lin Yue is getting married in May" was ``Lin Xiao/sister:Yue``."""
    found = facts("my sister Lin Yue is getting married in May", speaker="Lin Xiao")
    assert ("Lin Xiao", "has_relative", "Lin Xiao/sister:Lin Yue", True) in found
    assert all(f[0] in ("Lin Xiao", "Lin Xiao/sister:Lin Yue") for f in found)
    assert facts("My sister Lin Yue lives in Shanghai.") == [
        (f"{N}/sister:Lin Yue", "lives_in", "Shanghai", True),
        (N, "has_relative", f"{N}/sister:Lin Yue", True),
    ]


def test_one_word_names_and_places_are_as_before() -> None:
    assert (f"{N}/partner", "name", "Ines", True) in facts("My girlfriend Ines is a nurse.")
    assert facts("My cat Miso is so lazy.") == [(N, "has_pet", f"{N}/cat:Miso", True)]
    assert facts("I have a cat named Biscuit.") == [(N, "has_pet", f"{N}/cat:Biscuit", True)]
    # two capitalised words that are a known place name nobody
    assert facts("I visited my dad New York last week.") == [
        (N, "has_relative", f"{N}/father", True)
    ]
