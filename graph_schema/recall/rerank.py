"""Step 5 of recall: a learned linear rerank of the fused groups (docs/recall.md, *Rerank*).

Fusion (steps 1-4, :mod:`graph_schema.recall.fusion`) ranks by reciprocal ranks, which forget how
close a match was. The rerank describes each fused group by values of its own and scores it
with a weighted sum:

* ``fused``, ``rank``: its fused score (over the configuration's constant maximum) and 1 / its
  position in the fused order;
* ``similarity``: its best cosine to the query (its turn's or one of its sentences');
* ``coverage``: the share of the query's content words its own text holds;
* ``speaker``, ``time``: whether the speaker or the time boost chose it;
* ``near``: the best cosine among its graph neighbours (an answer sits next to the turns that
  talk about the same thing); its own cosine when none were looked up;
* ``length``: log of its turn's length, saturating at ``LONG_TEXT`` (long turns state more);
  a group that is no conversation turn (a structured fact, an event's assertion) counts as a
  turn of ``TYPICAL_TURN`` characters, so that the length never decides among such facts;
* ``question``: its text ends with a question mark (a turn that asks rarely holds the answer);
* ``after_question``: the turn before it asks a question (it may be the answer);
* ``when_time``: the query asks for a time ("When did …") and its text places something in
  time ("last week", a weekday, a year; ``recall_query.mentions_time``);
* ``list:<name>``: ``1 / (K + rank)`` in each candidate list, 0 when absent.

The result's score is the logistic of the sum: in (0, 1), monotone in the order, from the
group's own values and ranks only (ranks among visible candidates), never normalised over the
set. The weights were fitted by pairwise logistic regression on LoCoMo, each conversation
held out in turn (``bench/locomo/crossval.py rerank``). One set per query: ``WEIGHTS``,
``FACT_WEIGHTS`` when no group is a conversation turn (``--facts``), ``LEXICAL_WEIGHTS`` for
a query without a vector (``--lexical``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from graph_schema.recall.fusion import DEFAULT_WEIGHTS, Candidate, FusionConfig, Scored, fuse
from graph_schema.recall.query import asks_when, content_terms, coverage, is_question, mentions_time

LONG_TEXT = 1_000  # characters; the length value saturates here
TYPICAL_TURN = 120  # characters: the median turn of LoCoMo ("Speaker: text")
LISTS = tuple(DEFAULT_WEIGHTS)
FEATURES = (
    "fused",
    "rank",
    "similarity",
    "coverage",
    "speaker",
    "time",
    "near",
    "length",
    "question",
    "after_question",
    "when_time",
    *(f"list:{name}" for name in LISTS),
)
# Fitted with `bench/locomo/crossval.py rerank` (all five conversations, e5-small-v2), rounded.
WEIGHTS: Mapping[str, float] = {
    "fused": 6.07,
    "rank": 0.439,
    "similarity": 10.5,
    "coverage": 0.655,
    "speaker": 1.41,
    "time": 2.54,
    "near": 7.6,
    "length": 3.8,
    "question": -0.614,
    "after_question": 0.344,
    "when_time": 1.87,
    "list:passage_vector": -0.0518,
    "list:context_vector": 2.4,
    "list:passage_fulltext": -4.17,
    "list:context_fulltext": 11.7,
    "list:assertion_vector": 2.36,
    "list:assertion_fulltext": 0.363,
}


# For a query recall has no vector for (a CJK query, no embedding model): no vector lists,
# no cosines. Fitted the same way on LoCoMo read so (`crossval.py rerank --lexical`).
LEXICAL_WEIGHTS: Mapping[str, float] = {
    "fused": 6.99,
    "rank": 0.394,
    "similarity": 0.0,
    "coverage": 2.04,
    "speaker": 1.12,
    "time": 2.14,
    "near": 0.0,
    "length": 5.1,
    "question": -0.469,
    "after_question": 0.614,
    "when_time": 1.89,
    "list:passage_vector": 0.0,
    "list:context_vector": 0.0,
    "list:passage_fulltext": -15.6,
    "list:context_fulltext": 25.2,
    "list:assertion_vector": 0.0,
    "list:assertion_fulltext": 9.37,
}

# For groups that are no conversation turn (structured facts, events' assertions). Fitted the
# same way on LoCoMo read as such a store (`crossval.py rerank --facts`).
FACT_WEIGHTS: Mapping[str, float] = {
    "fused": 10.2,
    "rank": 0.682,
    "similarity": 12.7,
    "coverage": 3.34,
    "speaker": 0.245,
    "time": -0.00379,
    "near": 14.4,
    "length": 0.0,
    "question": -1.01,
    "after_question": 0.0,
    "when_time": 1.89,
    "list:passage_vector": 0.0,
    "list:context_vector": 0.0,
    "list:passage_fulltext": 0.0,
    "list:context_fulltext": 0.0,
    "list:assertion_vector": -9.47,
    "list:assertion_fulltext": 1.38,
}


def features(
    s: Scored, position: int, terms: list[str], config: FusionConfig, *, when: bool = False
) -> list[float]:
    """The values of one group, in ``FEATURES`` order; ``when``: the query asks for a time."""
    text = s.turn if s.turn is not None else max(s.texts, key=len, default="")
    own = max(s.similarity or 0.0, 0.0)
    return [
        s.score / config.max_score(),
        1.0 / position,
        own,
        max((coverage(terms, t) for t in s.texts), default=0.0),
        float("speaker" in s.boosts),
        float("time" in s.boosts),
        own if s.near is None else max(s.near, 0.0),
        _length(len(s.turn) if s.turn is not None else TYPICAL_TURN),
        float(is_question(text)),
        float(s.after_question),
        float(when and mentions_time(text)),
        *(1.0 / (config.k + s.sources[n]) if n in s.sources else 0.0 for n in LISTS),
    ]


def _length(chars: int) -> float:
    return min(math.log1p(chars) / math.log1p(LONG_TEXT), 1.0)


def logistic(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


def rerank(
    fused: Sequence[Scored],
    text: str,
    config: FusionConfig,
    weights: Mapping[str, float] = WEIGHTS,
    fact_weights: Mapping[str, float] | None = None,
) -> list[Scored]:
    """The fused groups ordered by the rerank score, which each gets as ``rerank``. One weight
    set per query: ``fact_weights``, when given, if no group is a conversation turn (a store
    or scope of facts), else ``weights`` (two sets fitted apart have no common scale)."""
    terms, when = content_terms(text), asks_when(text)
    facts = fact_weights is not None and all(s.turn is None for s in fused)
    chosen = fact_weights if facts and fact_weights is not None else weights
    w = [chosen.get(name, 0.0) for name in FEATURES]
    for position, s in enumerate(fused, start=1):
        values = features(s, position, terms, config, when=when)
        s.rerank = logistic(sum(a * b for a, b in zip(w, values, strict=True)))
    return sorted(fused, key=lambda s: (-(s.rerank or 0.0), s.gid))


def rank(
    lists: Mapping[str, Sequence[Candidate]],
    text: str,
    config: FusionConfig,
    neighbours_of: Callable[[list[str]], Mapping[str, Sequence[Candidate]]],
    weights: Mapping[str, float] = WEIGHTS,
    fact_weights: Mapping[str, float] | None = None,
) -> list[Scored]:
    """The whole ranking of recall (steps 1-5), best first; used by recall and the bench."""
    fused = fuse(lists, text, config, neighbours_of)
    if not config.enabled("rerank"):
        return fused
    return rerank(fused, text, config, weights, fact_weights)
