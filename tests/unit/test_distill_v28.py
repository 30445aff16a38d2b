"""Distiller version 28: the false facts and missed facts two new users' trials found (a
personal assistant's two-month chat with probes of everyday phrasing, and a bilingual
support agent's month). Each sentence is theirs or of the same shape."""

from __future__ import annotations

from typing import Any

import pytest

from ingest.distill.offline import distill_text

SPEAKER = "h3-Maya"
AT = "2026-11-20T10:00:00+00:00"  # a Friday


def facts(text: str, at: str = AT, speaker: str = SPEAKER) -> list[tuple[str, str, Any, bool]]:
    drafts = distill_text(text, speaker=speaker, occurred_at=at)
    return [
        (d["subject"], d["predicate"], d["object"], d["polarity"])
        for d in drafts
        if d["predicate"] != "said"
    ]


def dated(text: str, at: str = AT) -> dict[tuple[str, Any], str | None]:
    drafts = distill_text(text, speaker=SPEAKER, occurred_at=at)
    return {(d["predicate"], d["object"]): d.get("valid_from") for d in drafts}


M = SPEAKER


@pytest.mark.parametrize(
    "text",
    [
        "Let's say I live in Paris.",
        "Pretend I live in Paris.",
        "Pretend I live in Paris for this role-play.",
        "Suppose I move to Berlin.",
        "Say I quit my job tomorrow.",
        "Just imagine: I bought a yacht.",
        "I hope I get the job at Google.",
        "I hope I get a job at Google.",
    ],
)
def test_a_hypothesis_or_a_hope_is_no_fact(text: str) -> None:
    assert facts(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "I lost my sister in the crowd at the concert.",
        "I lost my dad in the supermarket for ten minutes.",
        "I lost my brother at the airport but found him at the gate.",
    ],
)
def test_a_relative_lost_sight_of_is_not_dead(text: str) -> None:
    assert not [f for f in facts(text) if f[1] == "deceased"]


@pytest.mark.parametrize(
    ("text", "who"),
    [
        ("I lost my mum last year.", f"{M}/mother"),
        ("I lost my dad in a car accident.", f"{M}/father"),
        ("I lost my mum to cancer in 2019.", f"{M}/mother"),
    ],
)
def test_a_relative_lost_is_still_a_death(text: str, who: str) -> None:
    assert (who, "deceased", True, True) in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "I lived in London.",
        "I lived in London for five years before moving back.",
        "When I was a kid I lived in Angola.",
        "I worked at Google.",
        "I worked at Google from 2015 to 2019.",
        "I was a teacher.",
        "I was a teacher before I became an analyst.",
    ],
)
def test_a_past_state_is_no_current_fact(text: str) -> None:
    assert not [f for f in facts(text) if f[1] in ("lives_in", "works_at", "works_as")]


def test_a_state_that_still_holds_is_written() -> None:
    assert (M, "lives_in", "London", True) in facts("I've lived in London for years.")
    assert (M, "lives_in", "London", True) in facts("I live in London.")
    assert (M, "works_as", "teacher", True) in facts("I'm a teacher.")


@pytest.mark.parametrize(
    "text",
    [
        "Tiago said: I'm moving to London next month.",
        "Tiago said: I live in London.",
        "Tiago: I got a job at Sonae.",
        "Emma: I moved to Lisbon last week.",
        "Forwarded from Tiago: I bought a boat yesterday.",
        "She said I live in a bubble.",
        "According to Tiago, I'm allergic to cats.",
        "Sara thinks I'm a terrible cook.",
        "Apparently I'm moving to Mars next year, according to my kids.",
    ],
)
def test_another_persons_words_are_not_the_speakers_facts(text: str) -> None:
    assert not [f for f in facts(text) if f[0] == M and f[1] != "has_relative"]


def test_the_speakers_own_heading_and_name_keep_their_facts() -> None:
    assert (M, "lives_in", "Porto", True) in facts("Update: I live in Porto now.")
    assert (M, "lives_in", "Porto", True) in facts("Maya: I live in Porto.")
    assert (M, "works_at", "Fretlog", True) in facts("I told Tiago I work at Fretlog.")


def test_an_in_law_is_not_the_blood_relative() -> None:
    assert facts("My brother-in-law bought a Tesla.") == []
    assert facts("My sister-in-law is a doctor.") == []
    assert (f"{M}/sister", "works_as", "doctor", True) in facts("My sister is a doctor.")


@pytest.mark.parametrize(
    ("text", "relative"),
    [
        ("I bought my mom a scarf for her birthday.", f"{M}/mother"),
        ("I bought my sister a bike last week.", f"{M}/sister"),
        ("I bought my dad a new watch.", f"{M}/father"),
    ],
)
def test_a_gift_is_not_owned_and_its_recipient_is_no_thing(text: str, relative: str) -> None:
    assert facts(text) == [(M, "has_relative", relative, True)]


def test_a_thing_bought_for_oneself_is_owned() -> None:
    assert facts("I bought Tiago a book.") == []
    assert (M, "owns", "new bike", True) in facts("I bought myself a new bike.")
    assert (M, "owns", "house", True) in facts("We bought a house for the kids.")
    assert not [f for f in facts("I returned the Kindle I bought last week.") if f[1] == "owns"]


@pytest.mark.parametrize(
    "text",
    [
        "I'm a huge Benfica fan, just kidding.",
        "I'm a huge Benfica fan, just kidding, I support Porto.",
        "Yeah right, and I work at NASA.",
    ],
)
def test_a_joke_is_no_fact(text: str) -> None:
    assert not [f for f in facts(text) if f[2] in ("Benfica", "NASA")]


def test_not_kidding_confirms() -> None:
    assert (M, "likes", "Benfica", True) in facts("I'm not kidding, I'm a huge Benfica fan.")


def test_a_skill_judged_is_no_occupation() -> None:
    assert facts("I'm a terrible cook.") == []
    assert facts("I'm a great teacher.") == []


def test_pre_diabetic_is_not_diabetes() -> None:
    assert facts("I'm pre-diabetic.") == [(M, "health_condition", "prediabetes", True)]
    assert facts("I'm diabetic.") == [(M, "health_condition", "diabetes", True)]


def test_a_chinese_time_from_is_no_old_stack_and_an_address_no_stack() -> None:
    text = (
        "Hi，我是李强，从下周开始我接手北辰科技的 account，"
        "请把 billing email 改成 liqiang@beichen.cn。"
    )
    assert not [f for f in facts(text, speaker="李强") if f[1] == "tech_stack"]
    assert facts("从下周开始我接手这个账户，请把邮箱改成 liqiang@beichen.cn。") == []
    assert (M, "tech_stack", "Postgres", True) in facts("我们从 MySQL 换成了 Postgres。")


def test_a_chinese_object_stops_at_the_clause_comma() -> None:
    assert facts("我们公司用的是专业版，一共二十个座位。") == [(M, "uses", "专业版", True)]


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("We will refund the duplicate charge by Friday, November 20.", "2026-11-20"),
        ("We will refund the duplicate charge on Friday, November 20.", "2026-11-20"),
        ("We will refund the duplicate charge by Friday, November 27.", "2026-11-27"),
        ("We are going to refund the duplicate charge by Friday 20 November.", "2026-11-20"),
    ],
)
def test_a_written_date_wins_over_its_weekday(text: str, day: str) -> None:
    plans = [f[2] for f in facts(text, at="2026-11-12T11:20:00+00:00") if f[1] == "plans"]
    assert plans == [f"refund the duplicate charge ({day})"]


def test_a_visit_in_a_named_place() -> None:
    found = dated("I visited my grandmother in Braga last weekend.")
    assert found[("visited", "Braga")] == "2026-11-09T00:00:00+00:00"


@pytest.mark.parametrize(
    "text",
    ["I started running in September.", "I took up running in September."],
)
def test_an_activity_started_is_dated_from_its_start(text: str) -> None:
    found = dated(text, at="2026-10-07T18:00:00+01:00")
    assert found[("activity", "running")] == "2026-09-01T00:00:00+01:00"


@pytest.mark.parametrize(
    ("text", "pet"),
    [
        ("Our cat Luna turned five today.", f"{M}/cat:Luna"),
        ("Our cat Luna is sleeping.", f"{M}/cat:Luna"),
        ("Our dog is sleeping.", f"{M}/dog"),
    ],
)
def test_our_pet_is_the_speakers(text: str, pet: str) -> None:
    assert (M, "has_pet", pet, True) in facts(text)


def test_our_daughter_is_the_speakers() -> None:
    found = facts("Our daughter Ana is allergic to peanuts.")
    assert (M, "has_relative", f"{M}/daughter:Ana", True) in found
