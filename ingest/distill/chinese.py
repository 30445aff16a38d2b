"""Facts of one Chinese sentence, through the patterns of :mod:`ingest.distill.patterns`.

Each rule is tried where it matches (at most ``MAX_TRIES_PER_RULE`` times); an accepted match
claims its span, so a later, more general rule cannot read the same words again. A match
preceded, in its clause, by a condition or a plan word (如果, 打算, 可能 ...) is not a fact,
except for the plan rules themselves. Relatives named by a possessive (我爸, 我的狗) are facts
on their own (``has_relative``, ``has_pet``). A time phrase in the same clause as a fact
dates it (see :mod:`ingest.distill.dates`); a time still ahead makes the fact a plan. A
clause that only says when (下个月，…; 下个月妹妹婚礼之后，…) dates the clause after it, and
is no plan of its own.

Version 32, from a new user's trial (a bilingual assistant's chat): a plan that is someone
else's (妹妹婚礼), a time (婚礼后), a naming (叫它“汤圆”) or an unbalanced quotation is
refused; a pet named as it is told of takes the name; an activity given up (停了羽毛球,
不打羽毛球了, 放弃了羽毛球, and a topic 羽毛球…所以暂时不打了) is withdrawn.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

from ingest.distill.dates import Phrase, When, find_times
from ingest.distill.facts import Fact
from ingest.distill.identifiers import named, relative_id
from ingest.distill.matcher import Matcher, relative_match
from ingest.distill.patterns import (
    _ZACTS,
    _ZPLAY,
    _ZREL,
    NOT_VALUES,
    RULES,
    ZH_ACTIVITIES,
    ZH_BARE_RELATIONS,
    hypothetical,
    question,
)

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


# a clause that says when the next one happens: it ends on 之后 / 以后 / 之前 / 的时候 (下个月
# 妹妹婚礼之后，我打算…) or is a time alone (下个月，…); version 32
_WHEN_CLAUSE_END = re.compile(r"(?:之后|以后|后|之前|以前|前|的时候|时)$")
# a plan that is a time (婚礼后, 下班以后), someone else's (妹妹婚礼, 她下个月…: another
# opens it and no 我 is in it) or a naming (叫它“汤圆”): none (version 32)
_NO_PLAN = re.compile(
    rf"^.{{1,4}}?[后前时]$|(?:之后|以后|之前|以前|的时候)$|"
    rf"^(?:你们?|您|他们?|她们?|{ZH_BARE_RELATIONS})(?!.*我)|^(?:叫|给)[它他她]|^(?:取|起)名"
)
# a pet named as it is told of: 打算叫它“汤圆”, 给它取名叫汤圆, 取名叫豆豆
_PET_NAMING = re.compile(
    r"(?:叫它|给它(?:取|起)(?:了个?)?名(?:字)?叫?|(?:取|起)了?(?:个)?名(?:字)?叫?)"
    r"[“\"「『]?(?P<name>[\u4e00-\u9fffA-Za-z]{1,6}?)[”\"」』]?(?=$|[，,。；;！!…~～])"
)
_QUOTES = (("“", "”"), ("「", "」"), ("『", "』"))
# an activity a sentence opens on, given up in a later clause that names none: 羽毛球打到手腕
# 拉伤了，…所以暂时不打了 (version 32)
_TOPIC = re.compile(rf"^(?:我的?)?(?P<act>{_ZACTS})(?![赛场馆队鞋服衣拍包比课班池机老教])")
_GIVEN_UP_BARE = re.compile(
    rf"[，,；;]?(?:所以|因此|于是|只好|只能|就|也|我)*(?:暂时|先|已经|再也)*"
    rf"不再?(?:{_ZPLAY})?了(?=$|[，,。；;！!…])"
)
_CLAUSE_START = re.compile(r"[，,；;]")
_CONDITION = re.compile(r"如果|要是|假如|假设|万一|的话|除非")
# once or for a while ahead, not for good: 今天不去游泳了, 下个月不学钢琴了 say nothing of the
# habit now
_ONCE = re.compile(
    r"今天|明天|今晚|明晚|今早|这次|这回|待会|等会|一会儿?|上午|下午|中午|晚上|周末|这周|本周|"
    r"下周|下个?月|明年"
)


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
    found = _kept(text, [*_keep_last_status(matcher.run()), *_topic_given_up(text, speaker)])
    times = find_times(text)
    facts: list[Fact] = []
    for at, fact in found:
        start, end = _clause_of(text, at)
        phrase = _time_of(text, times, start, end)
        if phrase is None and fact.plan:
            phrase = _weekend(text, start, end)
        dated = _dated(fact, phrase, today) if not _also(fact, found, at) else fact
        if dated is not None:
            facts.append(dated)
    facts.extend(relation_facts(text, speaker))
    unique: dict[tuple[str, str, str, bool], Fact] = {}
    for fact in _named_pet(text, speaker, facts):
        unique.setdefault(fact.key(), fact)
    return list(unique.values())


def _time_of(text: str, times: list[Phrase], start: int, end: int) -> Phrase | None:
    """The time of a clause: its own, else that of a clause before it that only says when
    (下个月妹妹婚礼之后，我打算…; 下个月，…)."""
    own = next((p for p in times if start <= p.start < end), None)
    if own is not None or start == 0:
        return own
    before, _ = _clause_of(text, start - 1)
    clause = text[before : start - 1].strip()
    phrase = next((p for p in times if before <= p.start < start - 1), None)
    if phrase is None or not (clause == phrase.text or _WHEN_CLAUSE_END.search(clause)):
        return None
    return phrase


def _kept(text: str, found: list[tuple[int, Fact]]) -> list[tuple[int, Fact]]:
    """The facts found less those refused (:data:`_NO_PLAN`, an activity given up only for
    a time: :data:`_ONCE`), quotation marks balanced, and an activity dropped (放弃了羽毛球)
    withdrawn as well, as in English (version 31)."""
    kept: list[tuple[int, Fact]] = []
    for at, fact in found:
        value = _balanced(fact.object)
        if fact.plan and isinstance(value, str) and _NO_PLAN.search(value):
            continue
        if fact.predicate == "activity" and not fact.polarity:
            start, end = _clause_of(text, at)
            if _ONCE.search(text, start, end):
                continue
        kept.append((at, replace(fact, object=value)))
        if fact.predicate == "dropped" and fact.polarity and value in ZH_ACTIVITIES:
            kept.append((at, replace(fact, predicate="activity", polarity=False)))
    return kept


def _balanced(value: str | bool) -> str | bool:
    """``value`` without a quotation mark whose other half it lacks: 叫它“汤圆 (the closing
    mark cut with the clause) is 叫它汤圆."""
    if not isinstance(value, str):
        return value
    for left, right in _QUOTES:
        if value.count(left) != value.count(right):
            value = value.replace(left, "").replace(right, "")
    return value


def _topic_given_up(text: str, speaker: str) -> list[tuple[int, Fact]]:
    """羽毛球打到手腕拉伤了，医生让我停一个月，所以暂时不打了: the activity the sentence opens
    on, given up in a later clause that names no other (version 32)."""
    topic = _TOPIC.match(text)
    if topic is None:
        return []
    starts = [topic.end(), *(m.end() for m in _CLAUSE_START.finditer(text, topic.end()))]
    for at in starts:
        bare = _GIVEN_UP_BARE.match(text, at)
        if bare is not None and not _CONDITION.search(text, 0, at):
            fact = Fact(speaker, "activity", topic.group("act"), False, 0.75)
            return [(bare.end() - 1, fact)]  # in the clause that gives it up
    return []


def _named_pet(text: str, speaker: str, facts: list[Fact]) -> list[Fact]:
    """我领养了一只橘猫，两个月大，打算叫它“汤圆”: the one unnamed pet of the speaker's the
    sentence tells of takes the name it is given (version 32; a name planned as the pet is
    told of is its name, as "a kitten named Tangyuan" is)."""
    naming = pet_name(text)
    pets = [f for f in facts if f.predicate == "has_pet" and f.subject == speaker]
    if naming is None or len(pets) != 1:
        return facts
    role = str(pets[0].object).removeprefix(f"{speaker}/")
    if not role.isalpha() or not named(role):
        return facts  # named already (cat:咪咪), a nested identifier, or a group
    pet = replace(pets[0], object=relative_id(speaker, role, naming))
    return [pet if f is pets[0] else f for f in facts]


def pet_name(text: str) -> str | None:
    """The name a Chinese sentence gives a pet it calls 它 (打算叫它“汤圆”, 给它取名叫豆豆),
    or None: for a pet told of in the same sentence, or, by the caller, in the one before."""
    found = _PET_NAMING.search(text)
    return found.group("name") if found else None


def _also(fact: Fact, found: list[tuple[int, Fact]], at: int) -> bool:
    """A fact a rule adds beside its main one (从X毕业 -> studied_at X) takes no time; a
    retraction it adds does (从X离职 -> works_at X withdrawn when the sentence says)."""
    same = [f for a, f in found if a == at]
    return len(same) > 1 and fact is not same[0] and fact.polarity
