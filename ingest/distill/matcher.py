"""The pattern matcher shared by the Chinese rules and the English fallback rules.

Each rule is tried where it matches (at most ``MAX_TRIES_PER_RULE`` times); an accepted match
claims its span, so a later, more general rule cannot read the same words again. A match
preceded by a condition or a plan word (``if``, ``would``; 如果, 打算, 可能 ...) is not a fact,
except for the plan rules themselves. Who a match is about is decided as documented in
:mod:`ingest.distill.patterns`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import date

from ingest.distill.dates import find_times
from ingest.distill.facts import HEDGE_PENALTY, Fact
from ingest.distill.identifiers import named, relation, relative_id
from ingest.distill.objects import Extracted, dangling
from ingest.distill.objects import extract as extract_values
from ingest.distill.patterns import (
    _ZREL,
    IMPLIED_PENALTY,
    ZH_ACTIVITIES,
    ZH_BARE_RELATIONS,
    ZH_OTHERS,
    Rule,
)

HYPOTHETICAL_WINDOW = 60
MAX_TRIES_PER_RULE = 16
# who a clause is about, when it says so at its start: an assistant's acknowledgement of what
# it was told (已记录：, 我会记住：, 记下了：; never a bare 记录：, which may be a user's own
# note) and someone other than the speaker (你, 她, 妹妹) leave the clauses after them to
# nobody, so no fact of theirs is the speaker's (version 32, a new user's trial:
# 已记录：下个月婚礼后，你计划… wrote the assistant's plan)
_NOTE_VERB = r"(?:记录|记下|记住|更新|更正|备注|保存)(?:好)?"
_NOTED = rf"(?:(?:已经?|我(?:会|已经?|都)?){_NOTE_VERB}了?|{_NOTE_VERB}了)[：:]"
_SUBJECT = re.compile(
    rf"(?:^|(?<=[，,；;]))(?:(?P<noted>{_NOTED})|{_ZREL}|(?P<me>我们?)|(?P<other>{ZH_OTHERS}))"
)
# someone other than the speaker before a pattern's verb: 妹妹下个月结婚, 她打球把手腕拉伤了
# (我妹妹 too: 下个月我妹妹结婚 is the sister's, told by the rule only when it opens the match)
_OTHER_BEFORE = re.compile(
    rf"{ZH_OTHERS}|(?<![和跟同带陪给为帮与替把让叫])我(?:们?家的?|的)?(?:{ZH_BARE_RELATIONS})"
)
_CLAUSE_BREAK = re.compile(r"[，,；;：:。！？!?]")
# 本来打算放在 Lily 姨妈家, 但...: a plan given up is no plan (version 30)
_GIVEN_UP = re.compile(r"本来|原来|原本|原先|本想")
_THING_TRIM = re.compile(r"(?:现在|目前|已经|还在|还|正在|都|也|昨天|今天|刚刚|刚)+$")
# 下周的数据库迁移: a time said relative to today is no part of the thing's name, which it
# would make another thing a week on (version 30, a new user's trial)
_THING_WHEN = re.compile(
    r"^(?:[上下这本]个?(?:周|星期|礼拜)[一二三四五六日天末]?|[上下这本]个?月|[前去今明后]年|"
    r"大?[前昨今明后]天|[昨今]晚|今早|最近|近期)的(?=..)"
)
_HEDGES = re.compile(
    r"可能|也许|大概|好像|我觉得|我想|\b(?:maybe|probably|perhaps|I think)\b", re.I
)


def relative_match(match: re.Match[str], speaker: str) -> tuple[str, str] | None:
    found = relation(match.group("rel"))
    if found is None:
        return None
    predicate, role = found
    name = match.groupdict().get("relname") or match.groupdict().get("called")
    return predicate, relative_id(speaker, role, name)


class Matcher:
    """Applies the rules to one sentence, keeping accepted matches from overlapping."""

    def __init__(
        self,
        text: str,
        speaker: str,
        today: date | None,
        *,
        rules: Sequence[Rule],
        hypothetical: Callable[[str], bool],
        not_values: dict[str, frozenset[str]],
    ) -> None:
        self.text = text
        self.speaker = speaker
        self.today = today
        self.rules = rules
        self.hypothetical = hypothetical
        self.not_values = not_values
        self.claims: list[tuple[int, int]] = []
        self.found: list[tuple[int, Fact]] = []
        self.subjects = [(m.start(), self._who_of(m)) for m in _SUBJECT.finditer(text)]

    def _who_of(self, match: re.Match[str]) -> str:
        if match.groupdict().get("noted") or match.groupdict().get("other"):
            return ""  # nobody the words name: no fact of the speaker's
        rel = relative_match(match, self.speaker) if match.groupdict().get("rel") else None
        return rel[1] if rel is not None else self.speaker

    def run(self) -> list[tuple[int, Fact]]:
        for rule in self.rules:
            self._apply(rule)
        return sorted(self.found, key=lambda pair: pair[0])

    def _apply(self, rule: Rule) -> None:
        pos = 0
        for _ in range(MAX_TRIES_PER_RULE):
            match = rule.regex.search(self.text, pos)
            if match is None:
                return
            pos = max(match.start() + 1, self._accept(rule, match))

    def _subject(self, rule: Rule, match: re.Match[str]) -> tuple[str, bool]:
        """Who the match is about, and whether that was implied rather than said."""
        groups = match.groupdict()
        if groups.get("rel"):
            rel = relative_match(match, self.speaker)
            if rel is not None:
                return rel[1], False
        if groups.get("thing") is not None:
            thing = _THING_TRIM.sub("", groups["thing"]).strip().removesuffix("的")
            thing = _THING_WHEN.sub("", thing)
            if thing:
                return thing, False
            return self._last_thing(match.start()), True
        if groups.get("subj") or groups.get("subj_after"):  # "下个月我要...": after the time
            return self.speaker, False
        if rule.chinese and _OTHER_BEFORE.search(self._before_verb(match)):
            return "", True
        earlier = [who for at, who in self.subjects if at < match.start()]
        implied = "subj" in rule.regex.groupindex
        return (earlier[-1] if earlier else self.speaker), implied

    def _before_verb(self, match: re.Match[str]) -> str:
        """The words of a match before its object (all of it when the rule gives a value)."""
        obj = match.start("obj") if match.groupdict().get("obj") else match.end()
        return self.text[match.start() : obj]

    def _last_thing(self, before: int) -> str:
        things = [f.subject for at, f in self.found if at < before and f.predicate == "status"]
        return things[-1] if things else ""

    def _values(self, rule: Rule, match: re.Match[str]) -> Extracted:
        if "obj" not in rule.regex.groupindex:
            value = match.group(0) if rule.value is None else str(rule.value)
            return Extracted([value], match.end() - match.start())
        obj = match.groupdict().get("obj") or ""
        return (
            extract_values(obj, many=rule.many, chinese=rule.chinese) if obj else Extracted([], 0)
        )

    def _accept(self, rule: Rule, match: re.Match[str]) -> int:
        """Turn a match into facts; return where the claimed span ends (0 if refused)."""
        found = self._values(rule, match)
        if rule.chinese and (rule.plan or rule.predicate == "decided"):
            found = Extracted([v for v in found.values if not dangling(v)], found.consumed)
        if not found.values and rule.predicate == "dropped":
            found = Extracted(self._tried(), 0)
        end = (
            match.start("obj") + max(found.consumed, 1)
            if match.groupdict().get("obj")
            else match.end()
        )
        span = (match.start(), max(end, match.end() if rule.value is not None else end))
        if not found.values or any(span[0] < e and s < span[1] for s, e in self.claims):
            return 0
        prefix = self.text[max(0, match.start() - HYPOTHETICAL_WINDOW) : match.start()]
        if not rule.plan and self.hypothetical(prefix):
            return 0
        if rule.plan and rule.chinese and _GIVEN_UP.search(self._head(match)):
            return 0
        if "when" in rule.regex.groupindex and not self._ahead(match.group("when")):
            return 0
        facts = self._facts(rule, match, found.values)
        if not facts:
            return 0
        self.claims.append(span)
        self.found.extend((match.start(), fact) for fact in facts)
        return span[1]

    def _head(self, match: re.Match[str]) -> str:
        """The words of a match's clause before its object."""
        start = max(
            [0, *(m.end() for m in _CLAUSE_BREAK.finditer(self.text, 0, match.start("obj")))]
        )
        return self.text[start : match.start("obj")]

    def _ahead(self, phrase: str) -> bool:
        """Whether a plan rule's time phrase lies ahead of the day it was said."""
        times = find_times(phrase)
        when = times[0].resolve(self.today, future=True) if times and self.today else None
        return when is not None and when.future(self.today or when.start)

    def _tried(self) -> list[str]:
        tried = [str(f.object) for _, f in self.found if f.predicate in ("tried", "uses")]
        return tried[-1:]

    def _facts(self, rule: Rule, match: re.Match[str], values: list[str]) -> list[Fact]:
        predicate, confidence = rule.predicate, rule.confidence
        if rule.resolve is not None:
            decided = rule.resolve(match, self.text, values[0])
            if decided is None:
                return []
            predicate, confidence = decided[0], min(decided[1], confidence)
        subject, implied = self._subject(rule, match)
        if not subject:
            return []
        confidence -= IMPLIED_PENALTY if implied else 0.0
        confidence -= HEDGE_PENALTY if _HEDGES.search(self.text[: match.end()]) else 0.0
        polarity = (
            not (match.groupdict().get("neg"))
            if rule.polarity
            else bool(match.groupdict().get("neg"))
        )
        return self._build(rule, match, predicate, subject, values, round(confidence, 2), polarity)

    def _build(
        self,
        rule: Rule,
        match: re.Match[str],
        predicate: str,
        subject: str,
        values: list[str],
        confidence: float,
        polarity: bool,
    ) -> list[Fact]:
        if rule.name == "zh_pet":
            found = relation(match.group("kind"))
            role = found[1] if found else "pet"
            return [
                Fact(
                    subject,
                    "has_pet",
                    relative_id(subject, role, match.group("name")),
                    confidence=confidence,
                )
            ]
        if rule.name == "zh_rel_name":
            role = (relation(match.group("rel")) or ("", ""))[1]
            return [] if named(role) else [Fact(subject, "name", values[0], confidence=confidence)]
        if predicate == "studies" and values[0] in ZH_ACTIVITIES:
            predicate = "activity"
        banned = self.not_values.get(predicate, frozenset())
        kept = [v for v in (values if rule.many else values[:1]) if v.lower() not in banned]
        value: str | bool = rule.value if rule.value is not None else ""
        facts = [
            Fact(
                subject,
                predicate,
                value if rule.value is not None else v,
                polarity,
                confidence,
                plan=rule.plan,
            )
            for v in (kept if rule.value is None else kept[:1])
        ]
        for also, fixed in rule.also if facts else ():
            facts.append(
                Fact(subject, also, values[0] if fixed is None else fixed, True, confidence)
            )
        for also, group in rule.also_groups:  # "在公司做设计师": the job, where is no place
            facts.extend(
                Fact(subject, also, v, True, confidence) for v in [match.group(group)] if v
            )
        for also, group in rule.also_retracted:  # "从星河科技离职了": no longer works there
            unnamed = self.not_values.get(also, frozenset())  # "从公司辞职了" names none
            facts.extend(
                Fact(subject, also, v, False, confidence)
                for v in [match.group(group)]
                if v and v.lower() not in unnamed
            )
        return facts
