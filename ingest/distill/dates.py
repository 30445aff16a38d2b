"""Times in what people say, resolved against when they said it.

:func:`find_times` finds the time phrases of a sentence (English and Chinese): ``yesterday``,
``two days ago``, ``last Saturday``, ``on the 17th``, ``last week``, ``next month``, ``a year
ago``, ``in March``, 前天, 上周六, 下个月, 去年, 十七号 ... Each :class:`Phrase` is resolved
by :meth:`Phrase.resolve` against the observation's date (in the observation's own offset)
into a :class:`When`: a day, an ISO week, a month or a year. Forms whose direction depends on
the tense (``on Monday``, ``in March``, ``the 17th``) take the most recent one for a past
statement and the next one for a plan. Vague times (``recently``, ``the other day``, ``a few
days ago``, 最近) are not matched at all: an unresolvable time is left open, never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta, timezone
from typing import Final, Literal

Granularity = Literal["day", "week", "month", "year"]

_EN_NUMBERS: Final = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
_ZH_DIGITS: Final = {
    "零": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
WEEKDAYS: Final = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ZH_WEEKDAYS: Final = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
MONTHS: Final = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTH_ABBR: Final = {m[:3]: n for n, m in enumerate(MONTHS, start=1)} | {"sept": 9}


@dataclass(frozen=True)
class When:
    """A resolved time: the first day of a day, ISO week, month or year."""

    granularity: Granularity
    start: date

    def label(self) -> str:
        """``2023-05-20``, ``2023-W20``, ``2023-05`` or ``2023``."""
        if self.granularity == "week":
            year, week, _ = self.start.isocalendar()
            return f"{year}-W{week:02d}"
        if self.granularity == "month":
            return f"{self.start.year}-{self.start.month:02d}"
        if self.granularity == "year":
            return str(self.start.year)
        return self.start.isoformat()

    def end(self) -> date:
        """The day after the period."""
        if self.granularity == "day":
            return self.start + timedelta(days=1)
        if self.granularity == "week":
            return self.start + timedelta(days=7)
        if self.granularity == "month":
            return _add_months(self.start, 1)
        return date(self.start.year + 1, 1, 1)

    def valid_from(self, at: datetime) -> datetime:
        """Midnight at the start of the period, in the offset of ``at`` (the observation)."""
        return datetime(self.start.year, self.start.month, self.start.day, tzinfo=at.tzinfo)

    def last_moment(self, at: datetime) -> datetime:
        """The last second of the period in the offset of ``at`` (the observation), or ``at``
        itself while the period goes on: the latest time a thing said to have ended in it
        can have ended (version 31)."""
        return min(self.last_second(at), at)

    def last_second(self, at: datetime) -> datetime:
        """The last second of the period in the offset of ``at``, even one still ahead."""
        end = self.end()
        return datetime(end.year, end.month, end.day, tzinfo=at.tzinfo) - timedelta(seconds=1)

    def future(self, today: date) -> bool:
        """Whether the whole period lies after ``today``."""
        return self.start > today

    def past(self, today: date) -> bool:
        """Whether the period started on or before ``today``."""
        return self.start <= today


def _add_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


@dataclass(frozen=True)
class Phrase:
    """A time phrase in a sentence: where it is and how it resolves.

    ``kind`` is one of ``day`` / ``week`` / ``month`` / ``year`` (``n``: an offset from the
    observation's own period), ``weekday`` (``n``: 0 = Monday; ``rel``: ``last``, ``next``,
    ``this`` or ``bare``; ``week``: a week offset for 上周六-style forms), ``month_name``
    (``n``: 1-12), ``month_day`` (``n``: the day; ``month``: 1-12 or 0 when not given),
    ``year_month`` (明年四月: ``n`` the year, an offset when ``rel`` is "rel"; ``month``;
    ``day`` or 0), ``month_offset_day`` (下个月五号: ``n`` the month offset; ``day``) and
    ``year_number`` (``n``)."""

    start: int
    end: int
    text: str
    kind: str
    n: int
    rel: str = "bare"
    month: int = 0
    week: int | None = None
    day: int = 0

    def resolve(self, today: date, *, future: bool = False) -> When | None:
        """The period this phrase names, said on ``today``; ``future`` picks the direction
        of forms that have none of their own. None when it names no real date."""
        try:
            return _RESOLVERS[self.kind](self, today, future)
        except ValueError:  # the 31st of a 30-day month, February 30th
            return None


def _relative(p: Phrase, today: date, _: bool) -> When:
    if p.kind == "day":
        return When("day", today + timedelta(days=p.n))
    if p.kind == "week":
        return When("week", _monday(today) + timedelta(weeks=p.n))
    if p.kind == "month":
        return When("month", _add_months(date(today.year, today.month, 1), p.n))
    return When("year", date(today.year + p.n, 1, 1))


def _weekday(p: Phrase, today: date, future: bool) -> When:
    if p.week is not None:  # 上周六: the Saturday of last week
        return When("day", _monday(today) + timedelta(weeks=p.week, days=p.n))
    ahead = (p.n - today.weekday()) % 7
    behind = (today.weekday() - p.n) % 7
    if p.rel == "next" or (p.rel in ("bare", "this") and future):
        return When("day", today + timedelta(days=ahead or 7))
    return When("day", today - timedelta(days=behind or 7))


def _month_name(p: Phrase, today: date, future: bool) -> When:
    year = today.year
    if p.rel == "last" or (p.rel == "bare" and not future):
        year -= 1 if p.n > today.month or (p.rel == "last" and p.n == today.month) else 0
    elif p.rel == "next" or (p.rel == "bare" and future):
        year += 1 if p.n < today.month or (p.rel == "next" and p.n == today.month) else 0
    return When("month", date(year, p.n, 1))


def _month_day(p: Phrase, today: date, future: bool) -> When:
    if p.month:
        return When("day", _nearest_day(p.month, p.n, today, future))
    month = date(today.year, today.month, 1)
    if future and p.n < today.day:
        month = _add_months(month, 1)
    elif not future and p.n > today.day:
        month = _add_months(month, -1)
    return When("day", month.replace(day=p.n))


def _nearest_day(month: int, day: int, today: date, future: bool) -> date:
    """The most recent ``month``/``day`` (the next one when ``future``), the years tried one
    by one: "on February 29" said in March 2025 is 2024-02-29 (a new user's trial: left
    open, as a February 29th of 2025 does not exist). ValueError when none is near."""
    step = 1 if future else -1
    for year in range(today.year - (1 if future else 0), today.year + 9 * step, step):
        try:
            found = date(year, month, day)
        except ValueError:
            continue
        if (found >= today) if future else (found <= today):
            return found
    raise ValueError(f"no {month}/{day} near {today}")


def _year_number(p: Phrase, _today: date, _future: bool) -> When:
    return When("year", date(p.n, 1, 1))


def _year_month(p: Phrase, today: date, _future: bool) -> When:
    """明年四月: ``n`` the year (``rel`` "rel": an offset), ``month``, ``day`` or 0."""
    year = p.n if p.rel == "abs" else today.year + p.n
    if p.day:
        return When("day", date(year, p.month, p.day))
    return When("month", date(year, p.month, 1))


def _month_offset_day(p: Phrase, today: date, _future: bool) -> When:
    """下个月五号: ``n`` the month offset, ``day`` the day."""
    month = _add_months(date(today.year, today.month, 1), p.n)
    return When("day", month.replace(day=p.day))


_RESOLVERS = {
    "year_month": _year_month,
    "month_offset_day": _month_offset_day,
    "day": _relative,
    "week": _relative,
    "month": _relative,
    "year": _relative,
    "weekday": _weekday,
    "month_name": _month_name,
    "month_day": _month_day,
    "year_number": _year_number,
}

# --- English ----------------------------------------------------------------------------------

_NUM = r"(?P<num>\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
# a weekday, or a short form no other word spells ("last Tues"; not "sat", "sun", "wed")
_WD = (
    r"(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|tues|tue|weds|thurs|thur|thu|fri)"
    r"(?:(?P<habit>s\b|\s+(?:mornings|afternoons|evenings|nights)\b)|\.)?"
)
_MONTH = (
    r"(?P<mon>january|february|march|april|may|june|july|august|september|october|november|"
    r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?"
)


def _weekday_number(word: str) -> int:
    """Monday 0 ... Sunday 6, from the full name or a short form ("Tues", "Thurs")."""
    return next(n for n, day in enumerate(WEEKDAYS) if day.startswith(word.lower()[:3]))


_ORD = r"(?P<day>[12]?\d|3[01])(?:st|nd|rd|th)?"
_ORDINAL_WORDS: Final = (
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
)
# "the first of May", "the twenty-first of June": a day spelt out, always with its "of"
# (version 30, a new user's trial: "I start on the first of May as a senior product
# designer" wrote works_on "first of May")
_WORD_ORD = (
    r"(?P<wday>(?:twenty[-\s]?|thirty[-\s]?)?(?:"
    + "|".join(_ORDINAL_WORDS[:9])
    + ")|"
    + "|".join(_ORDINAL_WORDS[9:])
    + "|thirtieth)"
)
_YEAR = r"(?P<year>(?:19|20)\d\d)"
# the preposition before a dated phrase, kept in it so that the longer phrase wins over "in
# March" or "of 2026" starting at the same word
_BY = r"(?:(?:in|on|since|from|by|as\s+of|of|back\s+in)\s+)?"

_EN_FIXED: Final = {
    "the day before yesterday": ("day", -2),
    "day before yesterday": ("day", -2),
    "the day after tomorrow": ("day", 2),
    "yesterday": ("day", -1),
    "last night": ("day", -1),
    "today": ("day", 0),
    "tonight": ("day", 0),
    "this morning": ("day", 0),
    "this afternoon": ("day", 0),
    "this evening": ("day", 0),
    "tomorrow": ("day", 1),
    "last week": ("week", -1),
    "last weekend": ("week", -1),
    "this week": ("week", 0),
    "this weekend": ("week", 0),
    "next week": ("week", 1),
    "next weekend": ("week", 1),
    "last month": ("month", -1),
    "this month": ("month", 0),
    "next month": ("month", 1),
    "last year": ("year", -1),
    "this year": ("year", 0),
    "next year": ("year", 1),
}
# "two weekends ago" is the week of the weekend two weeks back (version 22)
_EN_UNITS: Final = {
    "day": "day",
    "week": "week",
    "weekend": "week",
    "month": "month",
    "year": "year",
}

_EN_PATTERNS: Final = (
    (
        "fixed",
        re.compile(
            r"\b(?:" + "|".join(sorted(map(re.escape, _EN_FIXED), key=len, reverse=True)) + r")\b",
            re.I,
        ),
    ),
    (
        "ago",  # "about six years ago" is approximate: left open, never guessed
        re.compile(
            rf"(?<!about )(?<!around )(?<!almost )(?<!nearly )(?<!roughly )(?<!over )"
            rf"\b{_NUM}\s+(?P<unit>day|weekend|week|month|year)s?\s+ago\b",
            re.I,
        ),
    ),
    ("in_n", re.compile(rf"\bin\s+{_NUM}\s+(?P<unit>day|week|month|year)s?\b", re.I)),
    # "every Saturday", "each Monday": a habit, no day (and "since January" beside it dates it)
    (
        "weekday",
        re.compile(rf"(?<!every )(?<!each )\b(?:(?P<rel>last|next|this|on)\s+)?{_WD}\b", re.I),
    ),
    ("month_day", re.compile(rf"\b{_MONTH}\s+{_ORD}\b(?!\s*(?:%|am|pm|:))", re.I)),
    ("day_month", re.compile(rf"\b(?:the\s+)?{_ORD}\s+(?:of\s+)?{_MONTH}\b", re.I)),
    ("ordinal", re.compile(r"\bon\s+the\s+(?P<day>[12]?\d|3[01])(?:st|nd|rd|th)\b", re.I)),
    (
        "word_day_month",
        re.compile(rf"\b(?:the\s+)?{_WORD_ORD}\s+of\s+{_MONTH}(?:,?\s+{_YEAR})?\b", re.I),
    ),
    ("month_name", re.compile(rf"\b(?P<rel>in|last|next|this|since)\s+{_MONTH}\b", re.I)),
    # a month or a day with its year ("in March 2023", "on March 3, 2023", "3 March 2023",
    # "2023-03-03"): that year, never the most recent such month (a new user's trial: "in
    # March 2023" said in May 2024 was dated March 2024, "in May 2022" not at all)
    ("month_year", re.compile(rf"\b{_BY}{_MONTH}\s+(?:of\s+)?{_YEAR}\b", re.I)),
    ("month_day_year", re.compile(rf"\b{_BY}{_MONTH}\s+{_ORD},?\s+{_YEAR}\b", re.I)),
    (
        "day_month_year",
        re.compile(rf"\b{_BY}(?:the\s+)?{_ORD}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}\b", re.I),
    ),
    (
        "iso_date",
        re.compile(rf"\b{_BY}{_YEAR}-(?P<mm>0[1-9]|1[0-2])-(?P<day>0[1-9]|[12]\d|3[01])\b", re.I),
    ),
    ("year_number", re.compile(r"\b(?:in|since|of|back in)\s+(?P<year>(?:19|20)\d\d)\b", re.I)),
)


def _number(text: str) -> int:
    return int(text) if text.isdigit() else _EN_NUMBERS[text.lower()]


def _month_number(text: str) -> int:
    key = text.lower().rstrip(".")
    return (
        MONTHS.index(key) + 1
        if key in MONTHS
        else _MONTH_ABBR[key[:4] if key == "sept" else key[:3]]
    )


def _word_day(word: str) -> int:
    """ "first" 1 ... "twentieth" 20, "twenty-first" 21, "thirtieth" 30, "thirty-first" 31."""
    word = word.lower().replace("-", " ").replace("twenty", "twenty ").replace("thirty", "thirty ")
    parts = word.split()
    tens = {"twenty": 20, "thirty": 30}.get(parts[0], 0) if len(parts) > 1 else 0
    last = parts[-1]
    return tens + (_ORDINAL_WORDS.index(last) + 1 if last in _ORDINAL_WORDS else 30)


def _english(kind: str, m: re.Match[str]) -> Phrase | None:
    base = (m.start(), m.end(), m.group(0))
    if kind == "fixed":
        unit, n = _EN_FIXED[m.group(0).lower()]
        return Phrase(*base, unit, n)
    if kind in ("ago", "in_n"):
        n = _number(m.group("num"))
        return Phrase(*base, _EN_UNITS[m.group("unit").lower()], -n if kind == "ago" else n)
    if kind == "weekday":
        if m.group("habit"):
            return None  # "on Sundays", "on Tuesday evenings" (version 16): a habit, no one day
        rel = (m.group("rel") or "bare").lower()
        return Phrase(
            *base, "weekday", _weekday_number(m.group("wd")), "bare" if rel == "on" else rel
        )
    if kind in ("month_year", "month_day_year", "day_month_year", "iso_date"):
        year = int(m.group("year"))
        month = int(m.group("mm")) if kind == "iso_date" else _month_number(m.group("mon"))
        day = 0 if kind == "month_year" else int(m.group("day"))
        return Phrase(*base, "year_month", year, "abs", month=month, day=day)
    if kind == "word_day_month":
        day = _word_day(m.group("wday"))
        month = _month_number(m.group("mon"))
        if m.group("year"):
            return Phrase(*base, "year_month", int(m.group("year")), "abs", month=month, day=day)
        return Phrase(*base, "month_day", day, month=month) if day <= 31 else None
    if kind in ("month_day", "day_month"):
        return Phrase(*base, "month_day", int(m.group("day")), month=_month_number(m.group("mon")))
    if kind == "ordinal":
        return Phrase(*base, "month_day", int(m.group("day")))
    if kind == "month_name":
        rel = m.group("rel").lower()
        if m.group("mon").lower() == "may" and rel in ("in", "since"):
            return None  # "in May" is a month, but "may" alone is a verb far more often
        return Phrase(
            *base,
            "month_name",
            _month_number(m.group("mon")),
            "bare" if rel in ("in", "since") else rel,
        )
    return Phrase(*base, "year_number", int(m.group("year")))


# --- Chinese ----------------------------------------------------------------------------------

_ZN = r"[0-9零一二两三四五六七八九十]{1,3}"
_ZH_FIXED: Final = {
    "大前天": ("day", -3),
    "前天": ("day", -2),
    "昨天": ("day", -1),
    "昨晚": ("day", -1),
    "昨日": ("day", -1),
    "今天": ("day", 0),
    "今早": ("day", 0),
    "今晚": ("day", 0),
    "今日": ("day", 0),
    "明天": ("day", 1),
    "后天": ("day", 2),
    "上周末": ("week", -1),
    "上个周末": ("week", -1),
    "这个周末": ("week", 0),
    "这周末": ("week", 0),
    "本周末": ("week", 0),
    "下周末": ("week", 1),
    "下个周末": ("week", 1),
    "上周": ("week", -1),
    "上个星期": ("week", -1),
    "上星期": ("week", -1),
    "上个礼拜": ("week", -1),
    "上礼拜": ("week", -1),
    "这周": ("week", 0),
    "本周": ("week", 0),
    "这个星期": ("week", 0),
    "这星期": ("week", 0),
    "下周": ("week", 1),
    "下个星期": ("week", 1),
    "下星期": ("week", 1),
    "下礼拜": ("week", 1),
    "上个月": ("month", -1),
    "上月": ("month", -1),
    "这个月": ("month", 0),
    "本月": ("month", 0),
    "下个月": ("month", 1),
    "下月": ("month", 1),
    "前年": ("year", -2),
    "去年": ("year", -1),
    "今年": ("year", 0),
    "明年": ("year", 1),
    "后年": ("year", 2),
}
# 上 / 这 / 本 / 下 before 周 or 个月: the period before, this one, the next
_ZH_REL: Final = {"上": -1, "这": 0, "本": 0, "下": 1}
_ZH_PATTERNS: Final = (
    # 明年四月, 去年十二月五号, 2025年3月: a month of a year said (version 13)
    (
        "zh_year_month",
        re.compile(
            rf"(?:(?P<yrel>[前去今明后])年|(?P<year>(?:19|20)\d\d)年)(?P<mon>{_ZN})月份?"
            rf"(?:(?P<day>{_ZN})(?:号|日)(?![本子记]))?"
        ),
    ),
    # 下个月五号: a day of a month said by its place (version 13)
    (
        "zh_rel_month_day",
        re.compile(rf"(?P<mrel>上|下|这|本)个?月(?P<day>{_ZN})(?:号|日)(?![本子记])"),
    ),
    (
        "zh_weekday",
        # 每周六, 每个星期天: a habit, no one day (version 13)
        re.compile(
            r"(?<!每)(?<!每个)(?P<rel>上|这|本|下)?个?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天])"
        ),
    ),
    ("zh_fixed", re.compile("|".join(sorted(map(re.escape, _ZH_FIXED), key=len, reverse=True)))),
    (
        "zh_ago",
        re.compile(
            rf"(?P<num>{_ZN})(?:个)?(?P<unit>天|周|星期|礼拜|月|年)(?P<dir>前|以前|之前|后|以后|之后)"
        ),
    ),
    ("zh_month_day", re.compile(rf"(?:(?P<mon>{_ZN})月)?(?P<day>{_ZN})(?:号|日)(?![本子记])")),
    ("zh_month", re.compile(rf"(?P<mon>{_ZN})月份?(?![0-9零一二两三四五六七八九十号日])")),
    ("zh_year", re.compile(r"(?P<year>(?:19|20)\d\d)年")),
)
_ZH_UNITS: Final = {
    "天": "day",
    "周": "week",
    "星期": "week",
    "礼拜": "week",
    "月": "month",
    "年": "year",
}


def chinese_number(text: str) -> int:
    """``17``, 十七, 二十, 两, 三十一 -> an int (0 when it is not a number)."""
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, units = text.partition("十")
        return (_ZH_DIGITS.get(tens, 1) if tens else 1) * 10 + (
            _ZH_DIGITS.get(units, 0) if units else 0
        )
    return _ZH_DIGITS.get(text, 0) if len(text) == 1 else 0


def _chinese_month(kind: str, m: re.Match[str]) -> Phrase | None:
    """明年四月 (a month of a year), 去年十二月五号, 下个月五号 (a day of a month)."""
    base = (m.start(), m.end(), m.group(0))
    day = chinese_number(m.group("day") or "")
    if kind == "zh_rel_month_day":
        rel = _ZH_REL[m.group("mrel")]
        return Phrase(*base, "month_offset_day", rel, day=day) if 1 <= day <= 31 else None
    month = chinese_number(m.group("mon"))
    if not 1 <= month <= 12 or (m.group("day") and not 1 <= day <= 31):
        return None
    absolute = m.group("year") is not None
    # 明年: the year offset _ZH_FIXED gives it (("year", 1))
    year = int(m.group("year")) if absolute else _ZH_FIXED[m.group("yrel") + "年"][1]
    return Phrase(*base, "year_month", year, "abs" if absolute else "rel", month=month, day=day)


def _chinese(kind: str, m: re.Match[str]) -> Phrase | None:
    base = (m.start(), m.end(), m.group(0))
    if kind in ("zh_year_month", "zh_rel_month_day"):
        return _chinese_month(kind, m)
    if kind == "zh_weekday":
        rel = m.group("rel")
        week = _ZH_REL[rel] if rel else None
        return Phrase(*base, "weekday", _ZH_WEEKDAYS[m.group("wd")], week=week)
    if kind == "zh_fixed":
        unit, n = _ZH_FIXED[m.group(0)]
        return Phrase(*base, unit, n)
    if kind == "zh_ago":
        n = chinese_number(m.group("num"))
        sign = -1 if m.group("dir").endswith("前") else 1
        return Phrase(*base, _ZH_UNITS[m.group("unit")], sign * n) if n else None
    if kind == "zh_month_day":
        day, month = chinese_number(m.group("day")), chinese_number(m.group("mon") or "")
        return (
            Phrase(*base, "month_day", day, month=month) if 1 <= day <= 31 and month <= 12 else None
        )
    if kind == "zh_month":
        month = chinese_number(m.group("mon"))
        return Phrase(*base, "month_name", month) if 1 <= month <= 12 else None
    return Phrase(*base, "year_number", int(m.group("year")))


def find_times(text: str) -> list[Phrase]:
    """The time phrases of ``text``, in order, without overlaps (the longer one wins)."""
    found: list[Phrase] = []
    for patterns, build in ((_EN_PATTERNS, _english), (_ZH_PATTERNS, _chinese)):
        for kind, pattern in patterns:
            for m in pattern.finditer(text):
                phrase = build(kind, m)
                if phrase is not None:
                    found.append(phrase)
    found.sort(key=lambda p: (p.start, -(p.end - p.start)))
    kept: list[Phrase] = []
    for phrase in found:
        if kept and phrase.start < kept[-1].end:
            continue
        if kept and _names_the_weekday(text, kept[-1], phrase):
            kept[-1] = replace(phrase, start=kept[-1].start, text=text[kept[-1].start : phrase.end])
            continue
        kept.append(phrase)
    return kept


_WEEKDAY_THEN_DATE = re.compile(r"\s*,?\s*(?:the\s+)?", re.IGNORECASE)
_DATES = frozenset({"month_day", "year_month"})


def _names_the_weekday(text: str, weekday: Phrase, after: Phrase) -> bool:
    """ "by Friday, November 20", "Friday 20 November": a weekday that only names the
    written date after it; the date wins, even when the weekday disagrees with it (version
    28: the weekday's next Friday was written, a week early)."""
    between = text[weekday.end : after.start]
    if weekday.kind != "weekday" or after.kind not in _DATES:
        return False
    return _WEEKDAY_THEN_DATE.fullmatch(between) is not None


def local(occurred_at: str) -> datetime:
    """An RFC 3339 time in its own offset (the gate has checked its shape): times people
    give ("yesterday") are resolved in the calendar of the one who said them."""
    return datetime.fromisoformat(occurred_at.replace("z", "Z").replace("t", "T"))


def offset_of(occurred_at: str) -> str:
    """The UTC offset an RFC 3339 time was written with (``+08:00``), kept beside the UTC
    instant so that a later distiller resolves "yesterday" in the speaker's calendar."""
    return (
        local(occurred_at).isoformat()[-6:] if not occurred_at.upper().endswith("Z") else "+00:00"
    )


def in_offset(instant: datetime, offset: str | None) -> str:
    """``instant`` written in ``offset`` (``+08:00``; UTC when unknown), RFC 3339."""
    sign = -1 if (offset or "+00:00").startswith("-") else 1
    hours, _, minutes = (offset or "+00:00")[1:].partition(":")
    delta = timedelta(hours=int(hours or 0), minutes=int(minutes or 0)) * sign
    return instant.astimezone(timezone(delta)).isoformat()
