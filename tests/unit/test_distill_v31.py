"""Distiller version 31: what a new user's trial of eight months of one user's life found
misread: an ending read as the activity going on ("I stopped doing yoga" wrote ``activity
yoga``), an ending that withdrew nothing ("I don't do pottery anymore", "I gave up
pottery"), a bakery that could be worked at but never left or joined ("Crumb Bakery"), and a
leaving dated by the first day of its period, before the job it ends was said to hold. Each
sentence is theirs or of the same shape."""

from __future__ import annotations

from typing import Any

import pytest

from ingest.distill.offline import distill_text

N = "h3-Noor"
AT = "2026-11-20T10:00:00+00:00"


def drafts(text: str, *, at: str = AT) -> list[dict[str, Any]]:
    return [d for d in distill_text(text, speaker=N, occurred_at=at) if d["predicate"] != "said"]


def facts(text: str, **kw: str) -> list[tuple[str, str, Any, bool]]:
    return [(d["subject"], d["predicate"], d["object"], d["polarity"]) for d in drafts(text, **kw)]


def dated(text: str, **kw: str) -> dict[tuple[str, str, Any, bool], str | None]:
    return {
        (d["subject"], d["predicate"], d["object"], d["polarity"]): d.get("valid_from")
        for d in drafts(text, **kw)
    }


# --- (a) an ending verb withdraws the activity, never restates it ------------------------------


@pytest.mark.parametrize(
    ("text", "activity"),
    [
        ("I stopped doing yoga.", "yoga"),
        ("I stopped doing pottery.", "pottery"),
        ("I stopped going to the running club.", "running club"),
        ("I stopped running.", "running"),
        ("I stopped playing the cello.", "cello"),
        ("I gave up running.", "running"),
    ],
)
def test_an_activity_stopped_is_withdrawn(text: str, activity: str) -> None:
    """ "I stopped doing yoga" wrote `activity yoga`, polarity true: the ending became the
    current evidence that the activity goes on."""
    assert facts(text) == [(N, "activity", activity, False)]


def test_an_activity_stopped_at_a_time_is_withdrawn_by_then() -> None:
    assert dated("I stopped doing yoga last month.") == {
        (N, "activity", "yoga", False): "2026-10-31T23:59:59+00:00"
    }


@pytest.mark.parametrize(
    "text",
    [
        "I never stopped painting.",  # it goes on
        "I haven't stopped running.",
    ],
)
def test_an_ending_denied_leaves_the_activity_held(text: str) -> None:
    assert [f[3] for f in facts(text) if f[1] == "activity"] == [True]


def test_an_ending_still_ahead_withdraws_nothing_now() -> None:
    assert [f for f in facts("I'll stop doing yoga next month.") if f[1] == "activity"] == []


# --- (b) "no longer", "anymore", "gave up", "quit" ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "activity"),
    [
        ("I don't do pottery anymore.", "pottery"),
        ("I no longer do pottery.", "pottery"),
        ("I don't do yoga anymore.", "yoga"),
        ("I'm not doing pottery any more.", "pottery"),
        ("I don't play the cello anymore.", "cello"),
    ],
)
def test_an_activity_done_no_longer_is_withdrawn(text: str, activity: str) -> None:
    """They wrote only `said`, so the activity stayed current."""
    assert facts(text) == [(N, "activity", activity, False)]


def test_a_plain_negation_says_nothing_ended() -> None:
    assert facts("I don't do yoga.") == []


def test_a_diet_ended_withdraws_nothing_the_sentence_does_not_name() -> None:
    """ "I don't eat meat anymore": which liking or activity it ends, the sentence does not
    say (`likes bacon sandwiches` is meat only to a reader who knows it)."""
    assert facts("I don't eat meat anymore.") == []


@pytest.mark.parametrize(
    ("text", "activity"),
    [
        ("I gave up pottery.", "pottery"),
        ("I quit the running club.", "running club"),
        ("I had to quit the pottery class.", "pottery class"),
    ],
)
def test_an_activity_given_up_is_withdrawn_beside_the_giving_up(text: str, activity: str) -> None:
    """ "I quit the running club" wrote `dropped running club` only, and `activity running
    club` stayed current beside it: two contradicting facts."""
    assert facts(text) == [(N, "dropped", activity, True), (N, "activity", activity, False)]


def test_a_tool_given_up_is_no_activity() -> None:
    assert facts("We quit Slack.") == [(N, "dropped", "Slack", True)]


def test_a_tool_stopped_is_no_longer_used() -> None:
    """ "I stopped using Vim" wrote `uses Vim`, polarity true, as the yoga did."""
    assert facts("I stopped using Vim.") == [(N, "uses", "Vim", False)]


def test_a_relatives_activity_stopped_is_theirs() -> None:
    assert (f"{N}/sister", "activity", "yoga", False) in facts("My sister stopped doing yoga.")


# --- (c) a business's name is an employer left, quit or joined --------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "I left Crumb Bakery last month.",
        "I left my job at Crumb Bakery last month.",
        "I quit Crumb Bakery last month.",
    ],
)
def test_a_bakery_left_is_no_longer_the_employer(text: str) -> None:
    """ "I work at Crumb Bakery" was written and its leaving was not ("bakery" is a place one
    visits, so the name was taken for no company's), while "Northwind Bank" was."""
    assert dated(text)[(N, "works_at", "Crumb Bakery", False)] == "2026-10-31T23:59:59+00:00"


def test_a_bakery_one_is_no_longer_at_is_no_longer_the_employer() -> None:
    assert facts("I'm no longer at Crumb Bakery.") == [(N, "works_at", "Crumb Bakery", False)]
    assert facts("I quit Crumb Bakery.") == [(N, "works_at", "Crumb Bakery", False)]


def test_a_bakery_joined_is_the_employer_from_then() -> None:
    """ "I joined Crumb Bakery in May 2025" wrote nothing, where "I joined Northwind Bank in
    May 2025" is `works_at` from May 2025."""
    assert dated("I joined Crumb Bakery in May 2025.") == {
        (N, "works_at", "Crumb Bakery", True): "2025-05-01T00:00:00+00:00"
    }
    assert dated("I joined Crumb Bakery as a pastry chef in May 2025.") == {
        (N, "works_at", "Crumb Bakery", True): "2025-05-01T00:00:00+00:00",
        (N, "works_as", "pastry chef", True): "2025-05-01T00:00:00+00:00",
    }


@pytest.mark.parametrize(
    "text",
    [
        "I'm at Luna Cafe.",  # a visit, as "I'm at a cafe called Luna"
        "I left Crumb Bakery.",  # no time: a shop one walked out of
        "I left the bakery last month.",  # no name
        "I left Central Park last month.",  # a place, no business
        "I joined Anytime Gym in May.",  # a gym is joined as a member
    ],
)
def test_a_business_visited_or_a_place_left_is_no_employer(text: str) -> None:
    assert [f for f in facts(text) if f[1] == "works_at"] == []


# --- (d) a leaving dated by a period is dated by its end ---------------------------------------


@pytest.mark.parametrize(
    ("text", "when"),
    [
        ("I left Helios Grid last month.", "2026-10-31T23:59:59+00:00"),
        ("I left Helios Grid last week.", "2026-11-15T23:59:59+00:00"),
        ("I left Helios Grid yesterday.", "2026-11-19T23:59:59+00:00"),
        ("I left Helios Grid last year.", "2025-12-31T23:59:59+00:00"),
        ("I left Helios Grid this month.", AT),  # not over yet: when it was said
        ("I lost my job at the bank last month.", "2026-10-31T23:59:59+00:00"),
    ],
)
def test_a_leaving_dated_by_a_period_holds_from_its_end(text: str, when: str) -> None:
    """ "I left Helios Grid last month", said on 20 November of a job first told on 5
    October, was dated 1 October, before the job began: the ledger painted the withdrawal
    before the job and the job stayed current. By the month's end, at the latest, the job
    was left; so the withdrawal starts then, after every day of the month it was said."""
    (withdrawal,) = [d for d in drafts(text) if d["predicate"] == "works_at"]
    assert (withdrawal["polarity"], withdrawal["valid_from"]) == (False, when)


def test_the_event_of_leaving_keeps_its_period_and_a_start_since_keeps_its_start() -> None:
    # version 33: one phrase, one date: the event takes the withdrawal's (its period's last
    # second, still in the period) where it took the period's first day
    assert dated("I left my job at Helios Grid last month.") == {
        (N, "life_event", "left job", True): "2026-10-31T23:59:59+00:00",
        (N, "works_at", "Helios Grid", False): "2026-10-31T23:59:59+00:00",
    }
    assert dated("I haven't lived in Berlin since last year.") == {
        (N, "lives_in", "Berlin", False): "2025-01-01T00:00:00+00:00"
    }
    assert dated("我去年十二月从腾讯离职了。")[(N, "works_at", "腾讯", False)] == (
        "2025-12-31T23:59:59+00:00"
    )


# --- (e) a pet one no longer has ----------------------------------------------------------------


def test_a_pet_no_longer_had_is_withdrawn_by_its_kind() -> None:
    """ "I don't have a cat anymore" wrote nothing. The distiller does not know the cat held
    is `/cat:Biscuit`; it withdraws the speaker's unnamed cat, as "I have a cat" names it."""
    assert facts("I don't have a cat anymore.") == [(N, "has_pet", f"{N}/cat", False)]
    assert facts("I no longer have a dog.") == [(N, "has_pet", f"{N}/dog", False)]
    assert facts("I no longer have a car.") == [(N, "owns", "car", False)]
