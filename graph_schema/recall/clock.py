"""Times of day and time zones nothing states: a question asking at what time something
happens, or in which time zone someone is, read against the texts that could answer it
(docs/recall.md, *Kinds nothing names*, times of day). Pure.

"What time is our entry slot at the Oceanario?" asks for a time of day; a text that answers
it holds one ("timed entry 09:30", "at 3pm", "Tuesday mornings"). "What time zone is Jordan
in?" asks for a zone; a text that answers it names one ("I'm on Singapore time", "Mountain
Time (UTC-7)", "CET") or a place ("we're in Denver"). When none of the texts read holds one,
nothing there answers the question, however close its words are (the note of the Oceanario
tickets, with their date and price). The answer lists the kind (``clock_time``,
``time_zone``) in ``missing_kinds``, as it lists a kind of thing nothing names.

For a time of day the texts are read sentence by sentence: when the question names a thing
("the Oceanario"), only the sentences that hold it (each with the one after it) are read,
since a note of bookings gives the time of one and not of the other ("(1) Pena Palace, timed
entry 09:30. (2) Oceanario de Lisboa, 26 Jul, 5 tickets."). Lenient otherwise: any time of
day counts ("in the morning"), and so does any zone or place.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from graph_schema.recall.named import named_terms, sentences_about

CLOCK_TIME, TIME_ZONE = "clock_time", "time_zone"
# "What time zone is Jordan in?", "Which timezone does Wei work in?", 什么时区
_ASKS_ZONE = re.compile(r"\btime[\s-]?zones?\b|\btimezones?\b|\u65f6\u533a", re.I)
# "What time is the standup?", "At what time do we land?", 几点 (not "what time of year")
_ASKS_CLOCK = re.compile(
    r"\bwhat\s+time\b(?!\s*(?:zones?|frame|period|span|line|of\s+(?:the\s+)?(?:year|month|week))"
    r"\b)|\u51e0\u70b9",
    re.I,
)
# a time of day: "09:30", "at 9.30", "6pm", "9 a.m.", "noon", "14h30", "mornings", "between 8
# and 1", 三点, 下午
_CLOCK = re.compile(
    r"(?<![\d:])\d{1,2}:\d{2}(?![\d:])|\bat\s+\d{1,2}\.\d{2}\b"
    r"|\b\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)(?!\w)"
    r"|\b\d{1,2}h\d{0,2}\b"
    # a window of hours: "engineer visit between 8 and 1", "from 9 to 5"
    r"|\b(?:between|from)\s+\d{1,2}\s+(?:and|to|till|until)\s+\d{1,2}(?![\d,:/]|\.\d)"
    r"|\b(?:noon|midday|midnight|o['\u2019]clock|mornings?|afternoons?|evenings?|tonight|"
    r"overnight|lunchtime|nights?)\b"
    # 3点, 三点; 上午 下午 晚上 早上 中午
    r"|[\d\u4e00\u4e8c\u4e09\u56db\u4e94\u516d\u4e03\u516b\u4e5d\u5341\u4e24]\s*\u70b9"
    r"|\u4e0a\u5348|\u4e0b\u5348|\u665a\u4e0a|\u65e9\u4e0a|\u4e2d\u5348",
    re.I,
)
_ZONE_NAMES = (
    "UTC|GMT|PST|PDT|PT|MST|MDT|MT|CST|CDT|CT|EST|EDT|ET|AKST|AKDT|HST|BST|IST|CET|CEST|EET|"
    "EEST|WET|WEST|SGT|HKT|JST|KST|AEST|AEDT|ACST|AWST|NZST|NZDT|MSK|WIB|ICT|PHT"
)
# a zone: "UTC-7", "CET", "Singapore time", "Mountain Time", "time zone", 北京时间; or a place
# ("we're in Denver", "based in Lisbon"): lenient, a place tells the zone
_ZONE = re.compile(
    rf"\b(?:{_ZONE_NAMES})\b|\b(?:UTC|GMT)\s?[+\-\u2212]\s?\d"
    r"|\b[A-Z][a-z]+\s+[Tt]ime\b|\btime[\s-]?zone\b|\btimezone\b|\u65f6\u533a|\u65f6\u95f4"
    r"|\b(?:in|from|near)\s+[A-Z][a-z]{2,}"
)
# "[A-Z][a-z]+ time" that names no zone: "Last time", "Some time", "Dinner time"
_NO_ZONE = frozenset(
    {"first", "last", "next", "this", "that", "some", "any", "every", "each", "one", "same",
     "full", "part", "long", "short", "screen", "lunch", "dinner", "bed", "tea", "quality",
     "free", "spare", "real", "half", "over", "no", "the", "what", "which", "about", "on",
     "in", "by", "at", "from", "near"}
)  # fmt: skip
_MONTHS_AND_DAYS = re.compile(
    r"\b(?:in|from|near)\s+(?:January|February|March|April|May|June|July|August|September|"
    r"October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Monday|"
    r"Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Q[1-4])\b"
)


def asked(query: str) -> list[str]:
    """The details of time ``query`` asks for: ``time_zone``, else ``clock_time``."""
    if _ASKS_ZONE.search(query):
        return [TIME_ZONE]
    return [CLOCK_TIME] if _ASKS_CLOCK.search(query) else []


def states(kind: str, text: str) -> bool:
    """Whether ``text`` holds a detail of ``kind`` (module docstring)."""
    if kind == CLOCK_TIME:
        return _CLOCK.search(text) is not None
    return any(_names_zone(m) for m in _ZONE.finditer(_MONTHS_AND_DAYS.sub(" ", text)))


def _names_zone(found: re.Match[str]) -> bool:
    words = found.group(0).split()
    return not (len(words) == 2 and words[1].lower() == "time" and words[0].lower() in _NO_ZONE)


def missing(query: str, texts: Iterable[str], *, narrow: bool = True) -> list[str]:
    """The details of time ``query`` asks for that none of ``texts`` holds. Recall passes
    the texts of the groups that can answer (for a question about one person, theirs and
    what others say of them, with ``narrow`` False: the person's own turns never name them);
    otherwise a time of day is read in the sentences that hold the things the question
    names, when any does (:func:`~graph_schema.recall.named.sentences_about`)."""
    kinds = asked(query)
    if not kinds:
        return []
    read = list(texts)
    if kinds == [CLOCK_TIME] and narrow:
        read = sentences_about(named_terms(query), read)
    return [k for k in kinds if not any(states(k, t) for t in read)]
