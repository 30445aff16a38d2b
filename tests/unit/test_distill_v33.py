"""Distiller version 33: what two new users' trials found misread (a chat between two friends
over five months, and an agent's notes): one phrase that gave two dates, a change of job that
wrote no employer, a recovery that ended nothing, and agent phrasings that lost their fact.
Each sentence is theirs or of the same shape. (The withdrawal of ``pottery`` reaching the
``wheel-throwing pottery class`` held is the writer's: tests/integration/test_word_withdrawn.py.)
"""

from __future__ import annotations

from typing import Any

import pytest

from ingest.distill.offline import OfflineDistiller

N = "Priya"


def drafts(text: str, at: str) -> list[dict[str, Any]]:
    found = OfflineDistiller().distill_text(text, speaker=N, occurred_at=at)
    return [d for d in found if d["predicate"] != "said"]


def dated(text: str, at: str = "2026-03-22T20:00:00Z") -> dict[tuple[str, str, Any, bool], Any]:
    return {
        (d["subject"], d["predicate"], d["object"], d["polarity"]): d.get("valid_from")
        for d in drafts(text, at)
    }


# --- one phrase, one date ---------------------------------------------------------------------


def test_an_ending_and_what_was_dropped_share_the_date_of_their_phrase() -> None:
    """ "I quit pottery last week" wrote ``dropped pottery`` from the week's first day and the
    withdrawal of ``activity pottery`` from its last second: two dates for one phrase."""
    assert dated("I quit pottery last week, honestly.") == {
        (N, "dropped", "pottery", True): "2026-03-15T23:59:59+00:00",
        (N, "activity", "pottery", False): "2026-03-15T23:59:59+00:00",
    }


def test_a_period_still_going_on_keeps_the_event_its_first_day() -> None:
    """The withdrawal is dated when it was said while the period goes on; the life event
    beside it keeps the only date of the period it can give."""
    found = dated("I lost my job at Door Dash this month.", "2023-01-20T16:04:02Z")
    assert found[(N, "life_event", "lost job", True)] == "2023-01-01T00:00:00+00:00"


# --- a change of job --------------------------------------------------------------------------


def test_a_start_ahead_at_a_named_employer_is_the_employer_from_that_day() -> None:
    """ "I start at Halden tomorrow" wrote the plan alone: no ``works_at`` was ever written
    for the new job. The plan stays; the employer holds from the day it starts."""
    assert dated("I start at Halden tomorrow.", "2026-04-19T17:00:00Z") == {
        (N, "plans", "start at Halden (2026-04-20)", True): None,
        (N, "works_at", "Halden", True): "2026-04-20T00:00:00+00:00",
    }
    assert dated("I start at Halden.", "2026-04-19T17:00:00Z") == {}  # no day, no plan
    assert "works_at" not in {k[1] for k in dated("I start as charge nurse in January.")}


def test_a_last_day_ahead_ends_the_employer_at_that_day() -> None:
    """ "My last day at Lumora is April 3": the plan, and the job withdrawn from the day's last
    second (before it, a read still finds the job)."""
    assert dated("My last day at Lumora is April 3.") == {
        (N, "plans", "last day at Lumora (2026-04-03)", True): None,
        (N, "works_at", "Lumora", False): "2026-04-03T23:59:59+00:00",
    }


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("Work at Lumora is keeping me busy, I'm still the UX designer on their app.", "Lumora"),
        ("My job at Lumora is stressful.", "Lumora"),
        ("I'm still at Vantage Rail in London doing structural checks on bridges.", "Vantage Rail"),
    ],
)
def test_the_speakers_work_at_a_named_employer(text: str, employer: str) -> None:
    assert (N, "works_at", employer, True) in dated(text, "2026-02-07T19:00:00Z")


@pytest.mark.parametrize(
    "text",
    ["Her job at Lumora is stressful.", "Work at Lumora was hard.", "Work at the office is fun."],
)
def test_no_work_of_anothers_a_past_or_a_place(text: str) -> None:
    assert "works_at" not in {k[1] for k in dated(text, "2026-02-07T19:00:00Z")}


# --- a recovery -------------------------------------------------------------------------------


def test_a_healed_body_part_withdraws_its_condition() -> None:
    """ "My ankle is finally healed" left ``sprained ankle`` current: it withdraws the condition
    of the ankle (the writer moves it to the one held that names the ankle)."""
    found = dated("My ankle is finally healed.", "2026-05-30T16:00:00Z")
    assert found == {(N, "health_condition", "ankle", False): None}
    assert dated("My ankle has healed.", "2026-05-30T16:00:00Z") == found
    assert dated("My ankle hasn't healed.", "2026-05-30T16:00:00Z") == {}
    assert (
        dated("My sister's ankle healed.", "2026-05-30T16:00:00Z").get(
            (N, "health_condition", "ankle", False)
        )
        is None
    )


def test_a_recovery_is_the_condition_over_and_a_recovering_the_condition_held() -> None:
    assert dated("I've fully recovered from my knee injury.") == {
        (N, "health_condition", "knee injury", False): None
    }
    assert dated("I recovered from the flu last week.") == {
        (N, "health_condition", "flu", False): "2026-03-15T23:59:59+00:00"
    }
    assert (N, "health_condition", "flu", True) in dated("I'm recovering from the flu.")


# --- an agent's notes -------------------------------------------------------------------------


def test_an_owner_said_in_the_passive() -> None:
    """ "The billing service is owned by Frank" wrote nothing; "Frank owns ..." did."""
    at = "2026-03-13T10:00:00Z"
    assert dated("The billing service is owned by Frank.", at) == {
        ("billing service", "owner", "Frank", True): None
    }
    assert ("billing service", "owner", N, True) in dated("The billing service is owned by me.", at)
    assert dated("My car is owned by the bank.", at) == {}


def test_a_thing_tried_and_dropped_by_its_pronoun() -> None:
    """ "We tried pytest-rerunfailures and dropped it" lost the ``dropped``."""
    assert dated("We tried pytest-rerunfailures and dropped it.", "2026-03-13T10:00:00Z") == {
        (N, "tried", "pytest-rerunfailures", True): None,
        (N, "dropped", "pytest-rerunfailures", True): None,
    }


def test_the_current_version_of_a_thing_named_in_two_words() -> None:
    """The small model cut *doc* from "the design doc" and the thing was ``design``."""
    assert dated("The current version of the design doc is v3.", "2026-03-13T10:00:00Z") == {
        ("design doc", "current_version", "v3", True): None
    }


def test_a_role_said_by_its_initials() -> None:
    assert dated("I work at Initrode as an SRE.", "2026-03-13T10:00:00Z") == {
        (N, "works_at", "Initrode", True): None,
        (N, "works_as", "SRE", True): None,
    }
