"""Scoring of the LoCoMo retrieval benchmark on dialog identity only (never on text).

Per question: the ranked list of dialog ids that recall returned (each result's evidence ->
observation -> idempotency key ``{sample_id}:{dia_id}``), deduplicated in order, against the
gold ``evidence`` dialog ids.

* Hit@k: at least one gold turn in the top k.
* Recall@k strict: every gold turn in the top k.
* MRR: reciprocal rank of the first gold turn in the returned list (0 if none).

Category 5 (adversarial, unanswerable) is scored on ``status`` only: the share answered
``not_found``; for categories 1-4 the share wrongly ``not_found`` is reported next to it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from statistics import mean
from typing import Any

_DIA = re.compile(r"D:?(\d+):(\d+)")
ANSWERABLE = (1, 2, 3, 4)
ADVERSARIAL = 5
CATEGORY_NAMES = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}


def gold_ids(evidence: Iterable[str]) -> list[str]:
    """Dialog ids of a question's evidence; tolerates the dataset's few malformed entries
    (``"D8:6; D9:17"``, ``"D:11:26"``) and drops what names no turn (``"D"``)."""
    found: dict[str, None] = {}
    for item in evidence:
        for m in _DIA.finditer(str(item)):
            found.setdefault(f"D{int(m.group(1))}:{int(m.group(2))}", None)
    return list(found)


def dedupe(ids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(ids))


def first_hit(ranked: Sequence[str], gold: set[str]) -> int | None:
    """0-based rank of the first gold id, or None."""
    return next((i for i, d in enumerate(ranked) if d in gold), None)


def hit_at(ranked: Sequence[str], gold: set[str], k: int) -> bool:
    first = first_hit(ranked, gold)
    return first is not None and first < k


def recall_strict_at(ranked: Sequence[str], gold: set[str], k: int) -> bool:
    return bool(gold) and gold <= set(ranked[:k])


def reciprocal_rank(ranked: Sequence[str], gold: set[str]) -> float:
    first = first_hit(ranked, gold)
    return 0.0 if first is None else 1.0 / (first + 1)


@dataclass
class Outcome:
    """One question's answer as the harness saw it."""

    sample_id: str
    category: int
    gold: list[str]
    ranked: list[str]
    status: str
    relevance: float = 0.0
    latency_ms: float = 0.0
    # the others' best relevance when the query names one person (the answer's ``person``)
    others: float | None = None
    # the query's names and identifiers that nothing visible mentions (then not_found)
    unmentioned: list[str] = field(default_factory=list)
    # the kinds of thing the query asks for that no result read names (then not_found)
    missing_kinds: list[str] = field(default_factory=list)


@dataclass
class Scores:
    questions: int = 0
    hit5: float = 0.0
    hit10: float = 0.0
    recall10_strict: float = 0.0
    mrr: float = 0.0
    not_found: float = 0.0
    extra: dict[str, float] = field(default_factory=dict)


def score(outcomes: Sequence[Outcome]) -> Scores:
    """Retrieval metrics over questions that have gold turns (categories 1-4 expected)."""
    rows = [o for o in outcomes if o.gold]
    if not rows:
        return Scores()
    return Scores(
        questions=len(rows),
        hit5=mean(hit_at(o.ranked, set(o.gold), 5) for o in rows),
        hit10=mean(hit_at(o.ranked, set(o.gold), 10) for o in rows),
        recall10_strict=mean(recall_strict_at(o.ranked, set(o.gold), 10) for o in rows),
        mrr=mean(reciprocal_rank(o.ranked, set(o.gold)) for o in rows),
        not_found=mean(o.status == "not_found" for o in rows),
    )


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, math.ceil(p / 100 * len(ordered)) - 1))
    return ordered[index]


def others_relevance(answer: dict[str, Any]) -> float | None:
    """The others' relevance in a recall answer that names one person (None: it names no one,
    or no one who states things: the contrast does not apply)."""
    person = answer.get("person") or {}
    value = person.get("others_relevance")
    return None if value is None else float(value)


@dataclass(frozen=True)
class Rule:
    """The status rule of ``graph_schema.recall.fusion.answered`` with its settings.

    A query naming no one is not_found under ``threshold``. One naming a person (``others``
    known) is not_found when the best of anyone's own statements is under ``person_threshold``
    or the others' best is more than ``margin`` above the person's; ``margin`` None reads the
    person's relevance against ``threshold`` (the rule without the contrast). A query naming a
    thing nothing visible mentions (``unmentioned``), or asking for a kind of thing no result
    read names (``missing_kinds``), is not_found whatever the settings, as in
    ``graph_schema.recall.pipeline.recall``."""

    threshold: float
    person_threshold: float = 0.0
    margin: float | None = None

    def not_found(self, o: Outcome) -> bool:
        if o.unmentioned or o.missing_kinds:
            return True
        if o.others is None or self.margin is None:
            return o.relevance < self.threshold
        low = max(o.relevance, o.others) < self.person_threshold
        return low or o.others - o.relevance > self.margin


def absence(outcomes: Sequence[Outcome], rule: Rule) -> tuple[float, float]:
    """Share of category 5 not_found, share of categories 1-4 wrongly not_found."""

    def share(rows: list[Outcome]) -> float:
        return mean(rule.not_found(o) for o in rows) if rows else 0.0

    adversarial = [o for o in outcomes if o.category == ADVERSARIAL]
    answerable = [o for o in outcomes if o.category in ANSWERABLE]
    return share(adversarial), share(answerable)


def threshold_curve(
    outcomes: Sequence[Outcome], thresholds: Sequence[float]
) -> list[dict[str, float]]:
    """For each relevance threshold (the contrast off): share of category 5 that would be
    not_found, and share of categories 1-4 that would be wrongly not_found."""
    return [_row({"threshold": t}, absence(outcomes, Rule(t))) for t in thresholds]


def margin_curve(
    outcomes: Sequence[Outcome], margins: Sequence[float], threshold: float, person: float
) -> list[dict[str, float]]:
    """The same along the margin of the contrast, its thresholds fixed."""
    return [_row({"margin": m}, absence(outcomes, Rule(threshold, person, m))) for m in margins]


def _row(setting: dict[str, float], shares: tuple[float, float]) -> dict[str, float]:
    return {**setting, "cat5_not_found": shares[0], "cat1_4_wrongly_not_found": shares[1]}


def fit_rule(outcomes: Sequence[Outcome], grid: Sequence[Rule], cap: float) -> Rule:
    """The rule of ``grid`` with the most category 5 not_found among those keeping at most
    ``cap`` of the answerable questions wrongly not_found (with none that keeps the cap, the
    one with fewest wrongly). Ties go to fewer wrongly, then to the strictest: the highest
    person threshold, then the smallest margin (a guard the questions cannot tell apart from
    none is kept)."""

    def key(rule: Rule) -> tuple[bool, float, float, float, float]:
        cat5, wrongly = absence(outcomes, rule)
        strict = (rule.person_threshold, -(rule.margin or 0.0))
        return wrongly <= cap, cat5 if wrongly <= cap else 0.0, -wrongly, *strict

    return max(grid, key=key)


def rule_held_out(
    outcomes: Sequence[Outcome], grid: Sequence[Rule], cap: float
) -> list[dict[str, Any]]:
    """Leave one conversation out: the rule fitted on the others (:func:`fit_rule`), scored
    on the held-out one; the last row pools the held-out answers."""
    rows: list[dict[str, Any]] = []
    fitted: dict[str, Rule] = {}
    for sample in sorted({o.sample_id for o in outcomes}):
        fitted[sample] = fit_rule([o for o in outcomes if o.sample_id != sample], grid, cap)
        cat5, wrongly = absence([o for o in outcomes if o.sample_id == sample], fitted[sample])
        rows.append({"held_out": sample, "rule": fitted[sample], "cat5": cat5, "wrongly": wrongly})
    # pooled: every question judged by the rule fitted without its conversation
    judged = [
        (o, fitted[o.sample_id].not_found(o))
        for o in outcomes
        if o.category in (*ANSWERABLE, ADVERSARIAL)
    ]
    cat5 = [nf for o, nf in judged if o.category == ADVERSARIAL]
    wrongly = [nf for o, nf in judged if o.category != ADVERSARIAL]
    rows.append({"held_out": "pooled", "cat5": mean(cat5), "wrongly": mean(wrongly)})
    return rows
