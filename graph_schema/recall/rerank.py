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
* ``exchange``: for a turn that follows a question (``after_question``), the share of the
  query's content words that the question and the turn hold together ("Did you go to the
  festival?" - "Yes, with my sister"); otherwise its ``coverage``;
* ``idf_coverage``: the share of the query's content words its texts hold together, each word
  weighted by its inverse document frequency among the fused groups (each group's texts one
  document: ``log((N + 1) / (df + 0.5))``), so that a rare word of the query counts more than
  one most candidates hold;
* ``list:<name>``: ``1 / (K + rank)`` in each candidate list, 0 when absent.

The result's score is the logistic of the sum, calibrated (``SCALE``, ``OFFSET``: the chance
that the group is evidence, fitted on LoCoMo): in (0, 1), monotone in the order, from the
group's own values, its ranks and the query's word weights (both read among the visible
candidates only), never normalised over the set. The weights were fitted by pairwise logistic
regression on LoCoMo, each conversation held out in turn (``bench/locomo/crossval.py rerank``).
One set per query (:class:`WeightSets`): ``WEIGHTS`` for a chat between people,
``WORK_WEIGHTS`` when a tool's result or an agent's own note is among the groups (``--work``,
also fitted on the new users' trials of ``bench/trials``), ``FACT_WEIGHTS`` when no group is a
conversation turn (``--facts``), ``LEXICAL_WEIGHTS`` for a query without a vector
(``--lexical``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from graph_schema.core.types import SourceKind
from graph_schema.recall import kinds
from graph_schema.recall.fusion import DEFAULT_WEIGHTS, Candidate, FusionConfig, Scored, fuse
from graph_schema.recall.query import (
    asks_past,
    asks_present,
    asks_when,
    content_terms,
    coverage,
    found_terms,
    has_cjk,
    is_question,
    mentions_time,
    name_keys,
    stem,
)

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
    "exchange",
    "idf_coverage",
    *(f"list:{name}" for name in LISTS),
)
# The score's calibration, in each weight set: the pairwise fit orders but has no level, so
# the result's score is logistic(SCALE * sum + OFFSET), fitted as the probability that the
# group is a gold turn among the fused top 30 (`crossval.py rerank`): monotone, the same order.
SCALE, OFFSET = "calibration:scale", "calibration:offset"
# Fitted with `bench/locomo/crossval.py rerank` (all five conversations, e5-small-v2, the query
# searched with its vector with and without names: docs/recall.md), rounded.
WEIGHTS: Mapping[str, float] = {
    "fused": 4.18,
    "rank": 0.33,
    "similarity": 14.6,
    "coverage": -1.32,
    "speaker": 1.83,
    "time": 2.98,
    "near": 12.8,
    "length": 2.47,
    "question": -0.632,
    "after_question": 0.188,
    "when_time": 1.64,
    "exchange": 1.31,
    "idf_coverage": 1.43,
    "list:passage_vector": 2.23,
    "list:context_vector": 2.89,
    "list:passage_fulltext": -5.71,
    "list:context_fulltext": 10.1,
    "list:assertion_vector": 6.89,
    "list:assertion_fulltext": -3.2,
    SCALE: 0.834,
    OFFSET: -26.9,
}


# For a query recall has no vector for (a CJK query, no embedding model): no vector lists,
# no cosines. Fitted the same way on LoCoMo read so (`crossval.py rerank --lexical`), without
# ``idf_coverage``: it cost Hit@10 there (the full-text ranks already weigh rare words).
LEXICAL_WEIGHTS: Mapping[str, float] = {
    "fused": 6.72,
    "rank": 0.338,
    "similarity": 0.0,
    "coverage": 0.299,
    "speaker": 1.15,
    "time": 2.12,
    "near": 0.0,
    "length": 4.43,
    "question": -0.439,
    "after_question": 0.347,
    "when_time": 1.9,
    "exchange": 2.66,
    "idf_coverage": 0.0,
    "list:passage_vector": 0.0,
    "list:context_vector": 0.0,
    "list:passage_fulltext": -13.7,
    "list:context_fulltext": 21.2,
    "list:assertion_vector": 0.0,
    "list:assertion_fulltext": 9.18,
    SCALE: 0.874,
    OFFSET: -10.6,
}

# For groups that are no conversation turn (structured facts, events' assertions). Fitted the
# same way on LoCoMo read as such a store (`crossval.py rerank --facts`).
FACT_WEIGHTS: Mapping[str, float] = {
    "fused": 10.0,
    "rank": 0.57,
    "similarity": 12.8,
    "coverage": 0.209,
    "speaker": 0.66,
    "time": 0.0823,
    "near": 13.9,
    "length": 0.0,
    "question": -1.0,
    "after_question": 0.0,
    "when_time": 1.96,
    "exchange": 0.209,
    "idf_coverage": 3.36,
    "list:passage_vector": 0.0,
    "list:context_vector": 0.0,
    "list:passage_fulltext": 0.0,
    "list:context_fulltext": 0.0,
    "list:assertion_vector": -8.91,
    "list:assertion_fulltext": -5.3,
    SCALE: 0.871,
    OFFSET: -24.1,
}


# For turns among which are a tool's results or an agent's own notes (an agent's working
# memory, not a chat between people: `at_work`). Fitted on LoCoMo and the new users' trials
# together (bench/trials, its `fit` split, each trial question weighing 3, each conversation
# held out in turn; `crossval.py rerank --work`; docs/recall.md): LoCoMo's long turns are its
# answers, an agent's long tool output is not.
WORK_WEIGHTS: Mapping[str, float] = {
    "fused": 1.75,
    "rank": 0.621,
    "similarity": 27.8,
    "coverage": -0.75,
    "speaker": 1.26,
    "time": 3.64,
    "near": 10.2,
    "length": -1.66,
    "question": -0.804,
    "after_question": 0.0834,
    "when_time": 1.07,
    "exchange": 2.19,
    "idf_coverage": 1.06,
    "list:passage_vector": 7.61,
    "list:context_vector": 7.49,
    "list:passage_fulltext": -5.91,
    "list:context_fulltext": 9.81,
    "list:assertion_vector": 10.4,
    "list:assertion_fulltext": -1.82,
    SCALE: 0.702,
    OFFSET: -26.8,
}


def features(
    s: Scored,
    position: int,
    terms: list[str],
    config: FusionConfig,
    *,
    when: bool = False,
    idf: Mapping[str, float] | None = None,
) -> list[float]:
    """The values of one group, in ``FEATURES`` order; ``when``: the query asks for a time;
    ``idf``: the weight of each query term (:func:`term_weights`; None: all alike)."""
    text = s.turn if s.turn is not None else max(s.texts, key=len, default="")
    own = max(s.similarity or 0.0, 0.0)
    found = [found_terms(terms, t) for t in s.texts]
    covered = max((len(f) for f in found), default=0) / len(terms) if terms else 0.0
    exchange = coverage(terms, f"{s.question}\n{text}") if s.question else covered
    return [
        s.score / config.max_score(),
        1.0 / position,
        own,
        covered,
        float("speaker" in s.boosts or "mentioned" in s.boosts),
        float("time" in s.boosts),
        own if s.near is None else max(s.near, 0.0),
        _length(len(s.turn) if s.turn is not None else TYPICAL_TURN),
        float(is_question(text)),
        float(s.after_question),
        float(when and mentions_time(text)),
        exchange,
        idf_coverage(terms, frozenset().union(*found), idf),
        *(1.0 / (config.k + s.sources[n]) if n in s.sources else 0.0 for n in LISTS),
    ]


def held(terms: list[str], s: Scored) -> frozenset[str]:
    """The query terms that any of the group's texts holds."""
    return frozenset().union(*(found_terms(terms, t) for t in s.texts))


def term_weights(terms: list[str], fused: Sequence[Scored]) -> dict[str, float]:
    """Each query term's inverse document frequency among the fused groups, each group's
    texts one document: ``log((N + 1) / (df + 0.5))``, always above 0. The groups are the
    visible candidates (permissions are applied before ranking), as for the ranks."""
    df = dict.fromkeys(terms, 0)
    for s in fused:
        for t in held(terms, s):
            df[t] += 1
    n = len(fused)
    return {t: math.log((n + 1) / (d + 0.5)) for t, d in df.items()}


def idf_coverage(terms: list[str], found: frozenset[str], idf: Mapping[str, float] | None) -> float:
    """The weighted share of ``terms`` in ``found``; unweighted without ``idf``."""
    weight = {t: 1.0 if idf is None else idf.get(t, 0.0) for t in terms}
    total = sum(weight.values())
    return sum(weight[t] for t in found if t in weight) / total if total > 0 else 0.0


def table(fused: Sequence[Scored], text: str, config: FusionConfig) -> list[list[float]]:
    """The values of every fused group (:func:`features`), in the fused order."""
    terms, when = content_terms(text), asks_when(text)
    idf = term_weights(terms, fused)
    return [
        features(s, position, terms, config, when=when, idf=idf)
        for position, s in enumerate(fused, start=1)
    ]


def _length(chars: int) -> float:
    return min(math.log1p(chars) / math.log1p(LONG_TEXT), 1.0)


def logistic(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


@dataclass(frozen=True)
class WeightSets:
    """The weight sets one query chooses from (:meth:`choose`): ``turns`` for a conversation's
    turns, ``work`` for turns among which are a tool's results or an agent's own notes,
    ``facts`` when no group is a turn. A set left None falls back to ``turns``."""

    turns: Mapping[str, float]
    work: Mapping[str, float] | None = None
    facts: Mapping[str, float] | None = None

    def choose(self, fused: Sequence[Scored]) -> Mapping[str, float]:
        """One set per query (sets fitted apart have no common scale): ``facts`` if no group
        is a conversation turn (a store or scope of facts), else ``work`` if any group's
        source is no person's statement (:func:`at_work`), else ``turns``."""
        if self.facts is not None and all(s.turn is None for s in fused):
            return self.facts
        if self.work is not None and any(at_work(s) for s in fused):
            return self.work
        return self.turns


def at_work(s: Scored) -> bool:
    """Whether ``s`` comes from a tool's result, an agent's own note or a document, rather
    than from what a person said (``user_stated``; an older group without a kind counts as
    said)."""
    return s.source_kind is not None and s.source_kind != SourceKind.user_stated


# the sets of a query recall has a vector for, and of one it has none for (a CJK query, no
# embedding model: no cosines, lexical weights whatever the groups)
WITH_VECTOR = WeightSets(WEIGHTS, WORK_WEIGHTS, FACT_WEIGHTS)
WITHOUT_VECTOR = WeightSets(LEXICAL_WEIGHTS)


def sets_for(config: FusionConfig, vector: bool) -> WeightSets:
    """The sets of a query with or without a vector; without the work weights when the
    configuration switches them off (``TRACTATUS_RECALL_DISABLE=work``, an ablation)."""
    if not vector:
        return WITHOUT_VECTOR
    return WITH_VECTOR if config.enabled("work") else replace(WITH_VECTOR, work=None)


def rerank(
    fused: Sequence[Scored],
    text: str,
    config: FusionConfig,
    weights: Mapping[str, float] | WeightSets = WEIGHTS,
) -> list[Scored]:
    """The fused groups ordered by the rerank score, which each gets as ``rerank``, with
    ``weights`` (one set) or the set the query's groups choose among ``weights``
    (:meth:`WeightSets.choose`)."""
    chosen = weights.choose(fused) if isinstance(weights, WeightSets) else weights
    w = [chosen.get(name, 0.0) for name in FEATURES]
    scale, offset = chosen.get(SCALE, 1.0), chosen.get(OFFSET, 0.0)
    for s, values in zip(fused, table(fused, text, config), strict=True):
        z = sum(a * b for a, b in zip(w, values, strict=True))
        s.rerank = logistic(scale * z + offset)
    return sorted(fused, key=lambda s: (-(s.rerank or 0.0), s.gid))


def rank(
    lists: Mapping[str, Sequence[Candidate]],
    text: str,
    config: FusionConfig,
    neighbours_of: Callable[[list[str]], Mapping[str, Sequence[Candidate]]],
    weights: Mapping[str, float] | WeightSets = WEIGHTS,
) -> list[Scored]:
    """The whole ranking of recall (steps 1-7), best first; used by recall and the bench."""
    return reorder(fuse(lists, text, config, neighbours_of), text, config, weights)


def reorder(
    fused: list[Scored],
    text: str,
    config: FusionConfig,
    weights: Mapping[str, float] | WeightSets = WEIGHTS,
) -> list[Scored]:
    """Steps 5-7 on groups in their fused order (:func:`~graph_schema.recall.fusion.ordered`);
    again when reading the results found a boost (a group about the person a question
    mentions, :mod:`graph_schema.recall.mentions`)."""
    if config.enabled("rerank"):
        fused = rerank(fused, text, config, weights)
    codes = codes_in(text)
    if config.enabled("present") and asks_present(text):
        fused = present_first(fused, content_terms(text), codes)
    elif config.enabled("past") and asks_past(text):
        fused = past_first(fused, content_terms(text), codes)
    if config.enabled("asked_kind"):
        fused = kind_first(fused, kinds.table().asked_in(text))
    if config.enabled("code"):
        fused = code_first(fused, codes)
    return fused


NEAR_TIE = 0.8  # a group scoring this share of the best is as good an answer as the best
PRESENT_DEPTH = 5  # the best groups among which a question about the present prefers the newest
# a group about the same thing as the best (a word of the best's text beyond the question's)
# answers a question about the present from this share of the best's score (docs/recall.md)
SAME_THING = 0.3


# a code of capitals and a number joined by a hyphen ("INC-4452", "PLAT-201"), or a version
# ("v2.1"): it names one thing; never a number with its unit ("30-day", "top-10")
_CODE = re.compile(
    r"(?<![\w-])[A-Z]{2,}[A-Z0-9]*-\d+[A-Za-z0-9]*(?![\w-])|(?<![\w.])[vV]\d+(?:\.\d+)+(?![\w.])"
)


def codes_in(text: str) -> tuple[str, ...]:
    """The codes a question names ("What is the status of INC-4452 now?": INC-4452; "Who
    approved the RFC v2.1?": v2.1)."""
    return tuple(dict.fromkeys(c.lower() for c in _CODE.findall(text)))


def code_first(ranked: list[Scored], codes: Sequence[str]) -> list[Scored]:
    """Step 9, for a question naming a code (:func:`codes_in`): among the best
    PRESENT_DEPTH, the groups naming every code come first, each part in its order. A new
    user's trial: "Who approved the Checkout Redesign RFC v2.1?" ranked the note of v2.0
    first and the one tool result that names v2.1 (and who approved it) second. A group moved
    up carries the boost ``code``. Scores are left as they are."""
    if not codes:
        return ranked
    head = ranked[:PRESENT_DEPTH]
    naming = [s for s in head if holds_codes(s, codes)]
    if not naming or len(naming) == len(head):
        return ranked
    order = naming + [s for s in head if s not in naming]
    mark_moved_up(head, order, "code")
    return order + ranked[PRESENT_DEPTH:]


def holds_codes(s: Scored, codes: Sequence[str]) -> bool:
    """Whether a group's texts name every code of ``codes`` whole."""
    joined = " ".join([*s.texts, s.turn or ""]).lower()
    return all(re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", joined) for c in codes)


def present_first(
    ranked: list[Scored], terms: Sequence[str] = (), codes: Sequence[str] = ()
) -> list[Scored]:
    """Step 6, for a question about the present ("Where does Nadia live now?"): the groups of
    the best PRESENT_DEPTH that score at least NEAR_TIE of the best, or SAME_THING of it and
    speak of the same thing as the best (:func:`same_thing`; ``terms``: the question's, which
    every candidate shares), newest first, then the rest in order. Two statements nearly
    tied as answers, or a later one about the thing the best answer is about, the newer one
    says how things stand ("I live in Kreuzberg" in March, "we moved to Neukölln" in July;
    "She's put me on amlodipine 5mg" in January, "the amlodipine made my ankles swell, she
    switched me to losartan" in March); a group moved up carries the boost ``present``.
    Scores are left as they are. ``codes``: the question's (:func:`codes_in`); a group that
    does not name them all is no answer about the thing they number, so it is not moved (a
    new user's trial: "What is the status of INC-4452 now?" put INC-4460's newer status
    first)."""
    return _in_time(ranked, terms, "present", codes)


def past_first(
    ranked: list[Scored], terms: Sequence[str] = (), codes: Sequence[str] = ()
) -> list[Scored]:
    """Step 6 for a question about how things stood before a change ("What was the rent
    before the landlord put it up?", "Who was originally going to water the greenhouse?"):
    the groups :func:`present_first` would move, oldest first. Of two statements nearly tied
    as answers, or an earlier one about the thing the best answer is about, the older one
    says how things stood ("£520 each a month" before "he's putting the rent up to £545").
    A group moved up carries the boost ``past``. Scores are left as they are."""
    return _in_time(ranked, terms, "past", codes)


def _in_time(
    ranked: list[Scored],
    terms: Sequence[str],
    boost: Literal["present", "past"],
    codes: Sequence[str] = (),
) -> list[Scored]:
    """:func:`present_first` (newest first) or :func:`past_first` (oldest first)."""
    head = ranked[:PRESENT_DEPTH]
    first = head[0].occurred_at if head else None
    if first is None:
        return ranked
    best, about = _value(head[0]), same_thing(head[0], terms, ranked)

    def eligible(s: Scored) -> bool:
        near = _value(s) >= NEAR_TIE * best or bool(about(s))  # the best is its own tie
        return s.occurred_at is not None and near and holds_codes(s, codes)

    def in_order(tied: list[Scored]) -> list[Scored]:
        return sorted(tied, key=lambda s: s.occurred_at or first, reverse=boost == "present")

    return _near_ties_first(ranked, in_order, boost, eligible, SAME_THING)


def same_thing(
    best: Scored, terms: Sequence[str], ranked: Sequence[Scored] = ()
) -> Callable[[Scored], frozenset[str]]:
    """The words (:func:`~graph_schema.recall.query.content_terms`) another group's own text
    shares with ``best``'s, beyond the question's ``terms``: what says the two speak of the
    same thing ("amlodipine", "PureGym", "pipeline.yaml", "6" replicas). Not a speaker's name
    among ``ranked`` ("Marcus"), nor a word of fewer than three letters ("Dr", "ve") or "not":
    these link any two turns."""
    speakers = {s.speaker for s in ranked if s.speaker}
    names = {stem(k) for speaker in speakers for k in name_keys(speaker)}
    words = frozenset(
        w
        for w in content_terms(own_text(best))
        if w not in terms and w not in names and w != "not" and _thing_word(w)
    )
    return lambda s: words & frozenset(content_terms(own_text(s)))


def _thing_word(term: str) -> bool:
    """A number, a CJK bigram or a word of three letters at least."""
    return any(c.isdigit() for c in term) or has_cjk(term) or (term.isalpha() and len(term) >= 3)


def kind_first(ranked: list[Scored], asked: Sequence[str]) -> list[Scored]:
    """Step 7, for a question asking for a thing of a kind ("What language is Priya
    learning?", :mod:`graph_schema.recall.kinds`): among the groups of the best PRESENT_DEPTH
    that score at least NEAR_TIE of the best, those whose own text names a thing of every kind
    asked come first ("I started Portuguese lessons" before "I'm a data engineer"), each part
    in its order, then the rest. A group moved up carries the boost ``kind``. Scores are left
    as they are."""
    if not asked:
        return ranked
    table = kinds.table()

    def naming_first(tied: list[Scored]) -> list[Scored]:
        naming = [s for s in tied if all(table.names(kind, own_text(s)) for kind in asked)]
        return naming + [s for s in tied if s not in naming]

    return _near_ties_first(ranked, naming_first, "kind")


def _near_ties_first(
    ranked: list[Scored],
    arrange: Callable[[list[Scored]], list[Scored]],
    boost: str,
    eligible: Callable[[Scored], bool] = lambda s: True,
    share: float = NEAR_TIE,
) -> list[Scored]:
    """Steps 6 and 7: the groups of the best PRESENT_DEPTH that are ``eligible`` and score at
    least ``share`` of the best (NEAR_TIE unless said), put in the order ``arrange`` gives
    them, then the rest in order; a group moved up carries ``boost``. Scores are left as they
    are."""
    head = ranked[:PRESENT_DEPTH]
    if not head:
        return ranked
    best = _value(head[0])
    tied = [s for s in head if eligible(s) and _value(s) >= share * best]
    order = arrange(tied)
    mark_moved_up(tied, order, boost)
    moved = {s.gid for s in tied}
    return order + [s for s in ranked if s.gid not in moved]


def mark_moved_up(before: list[Scored], after: list[Scored], boost: str) -> None:
    """Each group ``after`` puts higher than ``before`` had it carries ``boost`` (steps 6-8)."""
    was = {s.gid: n for n, s in enumerate(before)}
    for n, s in enumerate(after):
        if n < was[s.gid]:
            s.boosts.append(boost)


def own_text(s: Scored) -> str:
    """A group's own text: its turn, else its texts (steps 6, 7 and 10)."""
    return s.turn if s.turn is not None else "\n".join(s.texts)


def _value(s: Scored) -> float:
    return s.rerank if s.rerank is not None else s.score
