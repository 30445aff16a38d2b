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


def threshold_curve(
    outcomes: Sequence[Outcome], thresholds: Sequence[float]
) -> list[dict[str, float]]:
    """For each relevance threshold: share of category 5 that would be not_found, and share
    of categories 1-4 that would be wrongly not_found."""
    adversarial = [o.relevance for o in outcomes if o.category == ADVERSARIAL]
    answerable = [o.relevance for o in outcomes if o.category in ANSWERABLE]
    curve = []
    for t in thresholds:
        curve.append(
            {
                "threshold": t,
                "cat5_not_found": mean(r < t for r in adversarial) if adversarial else 0.0,
                "cat1_4_wrongly_not_found": mean(r < t for r in answerable) if answerable else 0.0,
            }
        )
    return curve


def _absence(outcomes: Sequence[Outcome], t: float) -> tuple[float, float]:
    row = threshold_curve(outcomes, [t])[0]
    return row["cat5_not_found"], row["cat1_4_wrongly_not_found"]


def fit_threshold(outcomes: Sequence[Outcome], grid: Sequence[float], cap: float) -> float:
    """The highest threshold of ``grid`` at which at most ``cap`` of the answerable questions
    are wrongly not_found (the most category 5 not_found the cap allows)."""
    allowed = [t for t in grid if _absence(outcomes, t)[1] <= cap]
    return max(allowed, default=min(grid))


def threshold_held_out(
    outcomes: Sequence[Outcome], grid: Sequence[float], cap: float
) -> list[dict[str, Any]]:
    """Leave one conversation out: the threshold fitted on the others (:func:`fit_threshold`),
    scored on the held-out one; the last row pools the held-out answers."""
    rows: list[dict[str, Any]] = []
    for sample in sorted({o.sample_id for o in outcomes}):
        train = [o for o in outcomes if o.sample_id != sample]
        t = fit_threshold(train, grid, cap)
        held = [o for o in outcomes if o.sample_id == sample]
        cat5, wrongly = _absence(held, t)
        rows.append({"held_out": sample, "threshold": t, "cat5": cat5, "wrongly": wrongly})
    # pooled: every question judged by the threshold fitted without its conversation
    by_sample = {r["held_out"]: r["threshold"] for r in rows}
    adversarial = [o for o in outcomes if o.category == ADVERSARIAL]
    answerable = [o for o in outcomes if o.category in ANSWERABLE]
    rows.append(
        {
            "held_out": "pooled",
            "cat5": mean(o.relevance < by_sample[o.sample_id] for o in adversarial),
            "wrongly": mean(o.relevance < by_sample[o.sample_id] for o in answerable),
        }
    )
    return rows
