"""Facts of one Chinese sentence, through the patterns of :mod:`ingest.distill.patterns`.

Each rule is tried where it matches (at most ``MAX_TRIES_PER_RULE`` times); an accepted match
claims its span, so a later, more general rule cannot read the same words again. A match
preceded, in its clause, by a condition or a plan word (如果, 打算, 可能 ...) is not a fact,
except for the plan rules themselves. Relatives named by a possessive (我爸, 我的狗) are facts
on their own (``has_relative``, ``has_pet``). A time phrase in the same clause as a fact
dates it (see :mod:`ingest.distill.dates`); a time still ahead makes the fact a plan.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

from ingest.distill.dates import Phrase, When, find_times
from ingest.distill.facts import Fact
from ingest.distill.matcher import Matcher, relative_match
from ingest.distill.patterns import _ZREL, NOT_VALUES, RULES, hypothetical, question

HYPOTHETICAL_WINDOW = 60
MAX_TRIES_PER_RULE = 16
_CLAUSE_BREAK = re.compile(r"[，,；;：:]")
_RELATION = re.compile(rf"{_ZREL}(?:(?:叫做?|名叫|名字叫)(?P<called>[\u4e00-\u9fff]{{1,4}}))?")
_SUBJECT = re.compile(rf"(?:^|(?<=[，,；;]))(?:{_ZREL}|(?P<me>我们?))")
_THING_TRIM = re.compile(r"(?:现在|目前|已经|还在|还|正在|都|也|昨天|今天|刚刚|刚)+$")
_HEDGES = re.compile(r"可能|也许|大概|好像|我觉得|我想")
_EVENTFUL = frozenset(
    {
        "attended",
        "visited",
        "owns",
        "activity",
        "life_event",
        "deceased",
        "lives_in",
        "tried",
        "dropped",
        "decided",
        "status",
        "tech_stack",
        "health_condition",
        "studied_at",
        "has_pet",
    }
)


def relation_facts(text: str, speaker: str) -> list[Fact]:
    """我爸, 我的狗叫旺财, 我朋友小张: the relation itself."""
    found = []
    for match in _RELATION.finditer(text):
        rel = relative_match(match, speaker)
        if rel is not None:
            found.append(Fact(speaker, rel[0], rel[1], confidence=0.8))
    return found


def _clause_of(text: str, at: int) -> tuple[int, int]:
    starts = [0, *(m.end() for m in _CLAUSE_BREAK.finditer(text) if m.end() <= at)]
    ends = [m.start() for m in _CLAUSE_BREAK.finditer(text) if m.start() >= at] + [len(text)]
    return max(starts), min(ends)


def _dated(fact: Fact, phrase: Phrase | None, today: date | None) -> Fact | None:
    if phrase is None or today is None:
        return fact
    when: When | None = phrase.resolve(today, future=fact.plan)
    if when is None:
        return fact
    if fact.plan:
        return (
            replace(fact, when=when, object=_untimed(fact.object, phrase))
            if when.end() > today
            else fact
        )
    if when.past(today):
        # a retraction is dated by its time too: "我上个月从星河科技离职了" withdraws the
        # employer from last month (version 26)
        eventful = fact.predicate in _EVENTFUL or not fact.polarity
        return replace(fact, when=when) if eventful else fact
    if (
        fact.subject
        and isinstance(fact.object, str)
        and fact.predicate in ("life_event", "attended", "visited")
    ):
        return Fact(fact.subject, "plans", fact.object, confidence=0.75, when=when, plan=True)
    return fact


def _untimed(value: str | bool, phrase: Phrase) -> str | bool:
    """A plan's object without the time that dates it: 参加十二月的广州马拉松 -> 参加广州马拉松
    (the time goes in brackets; version 13)."""
    if not isinstance(value, str) or phrase.text not in value:
        return value
    kept = value.replace(phrase.text + "的", "", 1).replace(phrase.text, "", 1)
    return kept if len(kept) >= 2 else value


_WEEKEND = re.compile(r"(?<![上下这本个每])周末(?!了)")


def _weekend(text: str, start: int, end: int) -> Phrase | None:
    """A bare 周末 in a plan's clause is the coming weekend: it dates the plan and is no part
    of its object (version 30, a new user's trial: 计划周末把 Redis 换成 Valkey wrote the plan
    周末把). Only a plan's: 我周末去爬了黄山 may be any weekend before."""
    found = _WEEKEND.search(text, start, end)
    return Phrase(found.start(), found.end(), found.group(0), "week", 0) if found else None


def _keep_last_status(facts: list[tuple[int, Fact]]) -> list[tuple[int, Fact]]:
    last = {f.subject: at for at, f in facts if f.predicate == "status"}
    return [(at, f) for at, f in facts if f.predicate != "status" or last[f.subject] == at]


def extract(text: str, speaker: str, today: date | None) -> list[Fact]:
    """The facts of one Chinese sentence said by ``speaker`` on ``today``."""
    if question(text):
        return []
    matcher = Matcher(
        text, speaker, today, rules=RULES, hypothetical=hypothetical, not_values=NOT_VALUES
    )
    found = _keep_last_status(matcher.run())
    times = find_times(text)
    facts: list[Fact] = []
    for at, fact in found:
        start, end = _clause_of(text, at)
        phrase = next((p for p in times if start <= p.start < end), None)
        if phrase is None and fact.plan:
            phrase = _weekend(text, start, end)
        dated = _dated(fact, phrase, today) if not _also(fact, found, at) else fact
        if dated is not None:
            facts.append(dated)
    facts.extend(relation_facts(text, speaker))
    unique: dict[tuple[str, str, str, bool], Fact] = {}
    for fact in facts:
        unique.setdefault(fact.key(), fact)
    return list(unique.values())


def _also(fact: Fact, found: list[tuple[int, Fact]], at: int) -> bool:
    """A fact a rule adds beside its main one (从X毕业 -> studied_at X) takes no time; a
    retraction it adds does (从X离职 -> works_at X withdrawn when the sentence says)."""
    same = [f for a, f in found if a == at]
    return len(same) > 1 and fact is not same[0] and fact.polarity
