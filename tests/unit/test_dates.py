"""Time phrases resolved against the day they were said (ingest/distill/dates.py)."""

from __future__ import annotations

from datetime import date

import pytest

from ingest.distill.dates import chinese_number, find_times, in_offset, local, offset_of

THURSDAY = date(2023, 5, 25)  # ISO week 21
WEDNESDAY = date(2024, 3, 13)  # ISO week 11


def resolve(text: str, today: date, *, future: bool = False) -> str | None:
    found = find_times(text)
    assert len(found) == 1, found
    when = found[0].resolve(today, future=future)
    return None if when is None else when.label()


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("I ran a race yesterday", "2023-05-24"),
        ("we met two days ago", "2023-05-23"),
        ("I ran a half marathon last Saturday", "2023-05-20"),
        ("last Thursday", "2023-05-18"),  # said on a Thursday: a week before
        ("on Monday", "2023-05-22"),
        ("on the 17th", "2023-05-17"),
        ("on the 28th", "2023-04-28"),  # the most recent 28th
        ("last week", "2023-W20"),
        ("last weekend", "2023-W20"),
        ("this week", "2023-W21"),
        ("three weeks ago", "2023-W18"),
        ("last month", "2023-04"),
        ("in March", "2023-03"),
        ("in June", "2022-06"),  # the most recent June
        ("a year ago", "2022"),
        ("last year", "2022"),
        ("back in 2019", "2019"),
        ("May 20", "2023-05-20"),
        ("the 3rd of January", "2023-01-03"),
        ("this morning", "2023-05-25"),
    ],
)
def test_english_past_times(text: str, label: str) -> None:
    assert resolve(text, THURSDAY) == label


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("tomorrow", "2023-05-26"),
        ("next week", "2023-W22"),
        ("next month", "2023-06"),
        ("next year", "2024"),
        ("on Saturday", "2023-05-27"),
        ("next Thursday", "2023-06-01"),
        ("in June", "2023-06"),
        ("in two weeks", "2023-W23"),
    ],
)
def test_english_future_times_for_plans(text: str, label: str) -> None:
    assert resolve(text, THURSDAY, future=True) == label


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("我爸前天去世了", "2024-03-11"),
        ("我昨天买了车", "2024-03-12"),
        ("我三天前去了医院", "2024-03-10"),
        ("上周六", "2024-03-09"),
        ("下周三要出差", "2024-03-20"),
        ("上周", "2024-W10"),
        ("上个星期", "2024-W10"),
        ("上周末", "2024-W10"),
        ("这个周末", "2024-W11"),
        ("上个月", "2024-02"),
        ("下个月", "2024-04"),
        ("去年", "2023"),
        ("两年前", "2022"),
        ("明年", "2025"),
        ("十七号", "2024-02-17"),
        ("三月五号", "2024-03-05"),
    ],
)
def test_chinese_times(text: str, label: str) -> None:
    future = any(w in text for w in ("下", "明", "要"))
    assert resolve(text, WEDNESDAY, future=future) == label


@pytest.mark.parametrize(
    "text",
    ["recently", "the other day", "a few days ago", "this summer", "最近", "前几天", "I may go"],
)
def test_vague_times_are_not_resolved(text: str) -> None:
    assert find_times(text) == []


def test_an_impossible_day_is_left_open() -> None:
    found = find_times("on the 31st")
    assert found[0].resolve(date(2024, 3, 13)) is None  # the most recent 31st: February has none


def test_overlapping_phrases_keep_the_longer() -> None:
    assert [p.text for p in find_times("the day before yesterday")] == ["the day before yesterday"]
    assert [p.text for p in find_times("下周三")] == ["下周三"]


def test_chinese_numbers() -> None:
    assert [chinese_number(t) for t in ("十七", "二十", "三十一", "两", "7", "十")] == [
        17,
        20,
        31,
        2,
        7,
        10,
    ]


def test_times_resolve_in_the_speakers_offset() -> None:
    """23:30 on 1 January in Shanghai is still 1 January there (15:30 UTC)."""
    at = local("2024-01-01T23:30:00+08:00")
    assert at.date() == date(2024, 1, 1)
    assert offset_of("2024-01-01T23:30:00+08:00") == "+08:00"
    assert offset_of("2024-01-01T23:30:00Z") == "+00:00"
    assert in_offset(local("2024-01-01T15:30:00Z"), "+08:00") == "2024-01-01T23:30:00+08:00"
    when = find_times("我上周六去参加了马拉松")[0].resolve(at.date())
    assert when is not None and when.valid_from(at).isoformat() == "2023-12-30T00:00:00+08:00"


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("I moved to Riga in March 2023.", "2023-03"),
        ("In March 2023 I moved to Riga.", "2023-03"),
        ("I moved to Riga in May 2022.", "2022-05"),
        ("I moved to Riga on March 3, 2023.", "2023-03-03"),
        ("the 3rd of March 2023", "2023-03-03"),
        ("spent $31,200 as of 2026-11-10.", "2026-11-10"),
        ("since January 2020", "2020-01"),
    ],
)
def test_a_month_or_day_with_its_year_is_that_year(text: str, label: str) -> None:
    """A new user's trial: "in March 2023" said in May 2024 was March 2024 (the most recent
    March), "in May 2022" no time at all; a year written is that year."""
    assert resolve(text, date(2024, 5, 10)) == label


def test_february_29_is_the_most_recent_or_next_one() -> None:
    """A new user's trial: "on February 29" said in March 2025 was left open."""
    assert resolve("I moved on February 29.", date(2025, 3, 1)) == "2024-02-29"
    assert resolve("I move on February 29.", date(2026, 3, 1), future=True) == "2028-02-29"
