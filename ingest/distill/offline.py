"""The offline distiller: deterministic English and Chinese patterns, no network, no model.

Each sentence of the observation yields its pattern drafts (``I use Vim`` -> ``uses Vim``,
``我们项目从Vue换成React了`` -> ``tech_stack React``), followed by one faithful ``said``
draft whose object is the sentence itself, so recall keeps the exact wording. The evidence
of every draft is its whole sentence: ``quote == text[start:end]`` always holds.
"""

from __future__ import annotations

import re

from graph_schema.observations.types import ObservationIn
from ingest.distill.base import Draft
from ingest.distill.objects import Extracted, extract
from ingest.distill.patterns import (
    IMPLIED_PENALTY,
    NOT_VALUES,
    RULES,
    Rule,
    hypothetical,
    question,
)
from ingest.distill.sentences import Sentence, split_sentences

SAID = "said"
SAID_CONFIDENCE = 1.0
HYPOTHETICAL_WINDOW = 60
MAX_TRIES_PER_RULE = 16


def _draft(
    speaker: str,
    predicate: str,
    value: str,
    confidence: float,
    sentence: Sentence,
    *,
    polarity: bool = True,
) -> Draft:
    return {
        "subject": speaker,
        "predicate": predicate,
        "object": value,
        "polarity": polarity,
        "confidence": confidence,
        "quote": sentence.text,
        "start": sentence.start,
        "end": sentence.end,
    }


def _overlaps(claims: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(start < c_end and c_start < end for c_start, c_end in claims)


def _confidence(rule: Rule, match: re.Match[str]) -> float:
    implied = "subj" in rule.regex.groupindex and match.group("subj") is None
    return round(rule.confidence - (IMPLIED_PENALTY if implied else 0.0), 2)


def _decide(rule: Rule, match: re.Match[str], text: str, found: Extracted) -> tuple[str, float]:
    confidence = _confidence(rule, match)
    if rule.resolve is None:
        return rule.predicate, confidence
    decided = rule.resolve(match, text, found.values[0])
    if decided is None:
        return "", 0.0
    return decided[0], min(decided[1], confidence)


class _Matcher:
    """Applies the rules to one sentence, keeping accepted matches from overlapping."""

    def __init__(self, sentence: Sentence, speaker: str) -> None:
        self.sentence = sentence
        self.speaker = speaker
        self.claims: list[tuple[int, int]] = []
        self.found: list[tuple[int, Draft]] = []

    def run(self) -> list[Draft]:
        """Pattern drafts in the order their statements appear in the sentence."""
        if question(self.sentence.text):
            return []
        for rule in RULES:
            self._apply(rule)
        return [draft for _, draft in sorted(self.found, key=lambda pair: pair[0])]

    def _apply(self, rule: Rule) -> None:
        """Try ``rule`` at each place it matches, at most ``MAX_TRIES_PER_RULE`` times (a
        real sentence says a thing a few times; a pathological one must stay cheap)."""
        text = self.sentence.text
        pos = 0
        for _ in range(MAX_TRIES_PER_RULE):
            match = rule.regex.search(text, pos)
            if match is None:
                return
            pos = max(match.start() + 1, self._accept(rule, match))

    def _accept(self, rule: Rule, match: re.Match[str]) -> int:
        """Turn a match into drafts; return where the claimed span ends (0 if refused)."""
        text = self.sentence.text
        tail_start = match.start("obj")
        found = extract(match.group("obj"), many=rule.many, chinese=rule.chinese)
        span = (match.start(), tail_start + max(found.consumed, 1))
        if not found.values or _overlaps(self.claims, *span):
            return 0
        if hypothetical(text[max(0, match.start() - HYPOTHETICAL_WINDOW) : match.start()]):
            return 0
        predicate, confidence = _decide(rule, match, text, found)
        if not predicate:
            return 0
        polarity = rule.polarity
        if "neg" in rule.regex.groupindex and match.group("neg"):
            polarity = not polarity
        self.claims.append(span)
        banned = NOT_VALUES.get(predicate, frozenset())
        values = found.values if rule.many else found.values[:1]
        for value in (v for v in values if v.lower() not in banned):
            draft = _draft(
                self.speaker, predicate, value, confidence, self.sentence, polarity=polarity
            )
            self.found.append((match.start(), draft))
        return span[1]


def _unique(drafts: list[Draft]) -> list[Draft]:
    """Drop a pattern draft that repeats an earlier (predicate, object, polarity)."""
    seen: set[tuple[str, str, bool]] = set()
    kept: list[Draft] = []
    for draft in drafts:
        key = (draft["predicate"], str(draft["object"]), bool(draft["polarity"]))
        if draft["predicate"] != SAID and key in seen:
            continue
        seen.add(key)
        kept.append(draft)
    return kept


def distill_text(text: str, *, speaker: str) -> list[Draft]:
    """Drafts for ``text`` spoken by ``speaker``; pure, deterministic, never raises on text."""
    drafts: list[Draft] = []
    for sentence in split_sentences(text):
        drafts.extend(_Matcher(sentence, speaker).run())
        drafts.append(_draft(speaker, SAID, sentence.text, SAID_CONFIDENCE, sentence))
    return _unique(drafts)


class OfflineDistiller:
    """The default distiller when no language model is configured."""

    name = "offline"

    def distill(self, observation: ObservationIn) -> list[Draft]:
        return distill_text(observation.text, speaker=observation.speaker)
