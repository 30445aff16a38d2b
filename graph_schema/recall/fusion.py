"""Fusion of recall candidates (steps 1-4): pure functions over already-filtered lists.

Every list handed in here was produced by a database query that applied visibility, validity
and the caller's filters *before* ranking, so ranks are ranks among what the caller may see.
Scores use ranks (reciprocal rank fusion) and per-item values (cosine similarity, query-term
coverage) only; nothing is normalised over a candidate set, so one result's score never
depends on a node the caller cannot see.

Pipeline (see docs/recall.md):

1. RRF: ``score(g) = sum_l w_l / (K + rank_l(g))`` over the candidate lists, per group ``g``
   (a conversation turn, or a single assertion that came from no observation).
2. Speaker boost: when the query names exactly one speaker/subject among the candidates, the
   groups by or about that person get an extra RRF list (in their current order).
3. Time boost: groups observed inside a window the query names get an extra RRF list.
4. Graph expansion: each group inherits ``NEIGHBOUR`` times the best score of its graph
   neighbours (adjacent turns of its conversation, assertions of the same event chain).

Step 5, the learned rerank of the fused groups, is :mod:`graph_schema.recall.rerank`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from graph_schema.recall.query import (
    Window,
    is_question,
    names_in_query,
    not_compared,
    numbered_thing,
    speaker_asks,
    time_windows,
)

FEATURES = (
    "speaker",
    "time",
    "graph",
    "rerank",
    "work",
    "person",
    "contrast",
    "names",
    "unmentioned",
    "kinds",
    "present",
    "past",
    "mentioned",
    "asked_kind",
    "code",
    "fact",
    "unsaid",
    "cjk",
    "done",
)
EXPAND = 30  # groups whose graph neighbours are looked up
# Fitted on LoCoMo with bench/locomo/crossval.py (round grid values, with e5-small-v2);
# held-out estimate in docs/recall.md. The assertion full-text list deviates from the fit
# (0.5): for facts without passages the assertion lists are the only lists, and an exact match
# of rare words (names, ids) must beat a loose semantic neighbour; LoCoMo cannot show this.
DEFAULT_WEIGHTS: Mapping[str, float] = {
    "passage_vector": 1.0,
    "context_vector": 2.0,
    "passage_fulltext": 1.0,
    "context_fulltext": 1.0,
    "assertion_vector": 0.5,
    "assertion_fulltext": 0.75,
}
# what can be switched off (FusionConfig.disabling, TRACTATUS_RECALL_DISABLE)
RECALL_STEPS = frozenset((*FEATURES, *DEFAULT_WEIGHTS))
# the status threshold on relevance, calibrated on LoCoMo (docs/recall.md)
ANSWER_THRESHOLD = 0.52
# A query naming one person (docs/recall.md "Threshold"): answered when the best of anyone's
# own statements reaches PERSON_THRESHOLD and the others' best is at most PERSON_MARGIN above
# the person's. Fitted on LoCoMo, leave one conversation out (bench/locomo/crossval.py threshold
# --cap 0.048), with a query naming a thing nothing mentions not_found (pipeline._unmentioned)
PERSON_THRESHOLD = 0.38
PERSON_MARGIN = 0.03


@dataclass(frozen=True)
class StatusRule:
    """The three values of the status rule (:func:`answered`)."""

    threshold: float
    person_threshold: float
    person_margin: float


# relevance from a cosine and coverage (the values above, fitted for e5-small-v2)
SEMANTIC = StatusRule(ANSWER_THRESHOLD, PERSON_THRESHOLD, PERSON_MARGIN)
# relevance from coverage alone (a CJK query, or no embedding model): no cosine is in it, so
# the model's values do not apply; these are the values this reading had before e5 (the
# thresholds of MiniLM's rule), unchanged; docs/recall.md "Threshold"
LEXICAL = StatusRule(0.35, 0.18, 0.04)
SIMILARITY_WEIGHT = 0.5
# up to this many nodes of a kind that a caller's groups can read, its vector candidates are
# an exact scan of them, not an index query (docs/security.md "Timing")
DEFAULT_EXACT_LIMIT = 2_000


@dataclass(frozen=True)
class FusionConfig:
    k: int = 10
    weights: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    speaker: float = 3.0
    time: float = 4.0
    neighbour: float = 0.3
    disabled: frozenset[str] = frozenset()
    exact_limit: int = DEFAULT_EXACT_LIMIT

    def enabled(self, name: str) -> bool:
        return name not in self.disabled

    @classmethod
    def disabling(cls, names: Iterable[str]) -> FusionConfig:
        """The defaults minus the named steps: features (:data:`FEATURES`) or candidate lists,
        for ablations. The server builds its one configuration this way at start-up, from
        ``Settings.recall_disable`` (``TRACTATUS_RECALL_DISABLE``)."""
        disabled = frozenset(names)
        unknown = disabled - RECALL_STEPS
        if unknown:
            raise ValueError(
                f"unknown recall steps {sorted(unknown)}; known: {sorted(RECALL_STEPS)}"
            )
        config = cls()
        weights = {n: w for n, w in config.weights.items() if n not in disabled}
        return replace(config, weights=weights, disabled=disabled)

    def max_score(self) -> float:
        """The score a group ranked first everywhere would get: a constant, not a set maximum."""
        total = sum(self.weights.values())
        total += self.speaker if self.enabled("speaker") else 0.0
        total += self.time if self.enabled("time") else 0.0
        factor = 1.0 + (self.neighbour if self.enabled("graph") else 0.0)
        return factor * total / (self.k + 1)


@dataclass(frozen=True)
class Candidate:
    """One row of a candidate list: a group, its similarity to the query, what it says."""

    gid: str
    similarity: float | None = None
    text: str = ""
    speaker: str | None = None
    occurred_at: datetime | None = None
    turn: bool = False  # ``text`` is a conversation turn (a passage), not one sentence
    source_kind: str | None = None  # of its observation (a turn) or its assertion


@dataclass
class Scored:
    gid: str
    score: float = 0.0
    sources: dict[str, int] = field(default_factory=dict)
    boosts: list[str] = field(default_factory=list)
    similarity: float | None = None
    speaker: str | None = None
    occurred_at: datetime | None = None
    texts: list[str] = field(default_factory=list)
    turn: str | None = None  # the turn's own text, when the group is a conversation turn
    near: float | None = None  # the best cosine to the query among its graph neighbours
    after_question: bool = False  # the turn before it (a graph neighbour) asks something
    question: str | None = None  # that question's text
    rerank: float | None = None  # step 5's score (graph_schema.recall.rerank), when it ran
    source_kind: str | None = None  # what its source is (user_stated, tool_returned...)

    def absorb(self, c: Candidate) -> None:
        if c.similarity is not None and (self.similarity is None or c.similarity > self.similarity):
            self.similarity = c.similarity
        self.speaker = self.speaker or c.speaker
        self.occurred_at = self.occurred_at or c.occurred_at
        self.source_kind = self.source_kind or c.source_kind
        if c.text and c.text not in self.texts:
            self.texts.append(c.text)
        if c.turn and c.text:
            self.turn = c.text


def rrf(lists: Mapping[str, Sequence[Candidate]], config: FusionConfig) -> dict[str, Scored]:
    """Reciprocal rank fusion; a group counts once per list, at its best rank."""
    scored: dict[str, Scored] = {}
    for name, rows in lists.items():
        weight = config.weights.get(name, 0.0)
        rank = 0
        seen: set[str] = set()
        for c in rows:
            item = scored.setdefault(c.gid, Scored(c.gid))
            item.absorb(c)
            if c.gid in seen:
                continue
            seen.add(c.gid)
            rank += 1
            item.sources[name] = rank
            item.score += weight / (config.k + rank)
    return scored


def ordered(scored: Mapping[str, Scored]) -> list[Scored]:
    return sorted(scored.values(), key=lambda s: (-s.score, s.gid))


def _boost(items: Iterable[Scored], weight: float, k: int, label: str) -> None:
    for rank, item in enumerate(items, start=1):
        item.score += weight / (k + rank)
        item.boosts.append(label)


def boost_named(scored: Mapping[str, Scored], named: set[str], config: FusionConfig) -> None:
    """Extra list of the groups by or about the one person the query names."""
    if len(named) != 1 or not config.enabled("speaker"):
        return
    chosen = [s for s in ordered(scored) if s.speaker in named]
    _boost(chosen, config.speaker, config.k, "speaker")


def boost_time(
    scored: Mapping[str, Scored], windows: Sequence[Window], config: FusionConfig
) -> None:
    """Extra list of the groups observed (or valid from) inside a window the query names."""
    if not windows or not config.enabled("time"):
        return
    chosen = [
        s
        for s in ordered(scored)
        if s.occurred_at is not None and any(w.contains(s.occurred_at) for w in windows)
    ]
    _boost(chosen, config.time, config.k, "time")


def expand(
    scored: dict[str, Scored],
    neighbours: Mapping[str, Sequence[Candidate]],
    config: FusionConfig,
) -> None:
    """Each group gains ``neighbour`` x the best base score among its graph neighbours.

    Neighbours that were no candidate join with that inherited score alone. Each linked group
    also records its neighbours' best cosine (``near``) and whether the turn before it asks a
    question (``after_question``), for the rerank.
    """
    if not config.enabled("graph"):
        return
    base = {gid: s.score for gid, s in scored.items()}
    for rows in neighbours.values():
        for c in rows:
            if c.gid not in scored:
                scored[c.gid] = Scored(c.gid)
                scored[c.gid].absorb(c)
    links: dict[str, set[str]] = {}
    for gid, rows in neighbours.items():
        for c in rows:
            links.setdefault(gid, set()).add(c.gid)
            links.setdefault(c.gid, set()).add(gid)
            _mark_answer(scored[gid], scored[c.gid])
    for gid, linked in links.items():
        best = max((base.get(n, 0.0) for n in linked), default=0.0)
        if best > 0:
            scored[gid].score += config.neighbour * best
            scored[gid].boosts.append("graph")
        similar = [x for x in (scored[n].similarity for n in linked) if x is not None]
        scored[gid].near = max(similar, default=None)


def _mark_answer(a: Scored, b: Scored) -> None:
    """Of two adjacent turns, the later one follows a question when the earlier asks one."""
    if a.occurred_at is None or b.occurred_at is None or a.occurred_at == b.occurred_at:
        return
    before, after = (a, b) if a.occurred_at < b.occurred_at else (b, a)
    if is_question(before.turn or ""):
        after.after_question = True
        after.question = before.turn


def fuse(
    lists: Mapping[str, Sequence[Candidate]],
    text: str,
    config: FusionConfig,
    neighbours_of: Callable[[list[str]], Mapping[str, Sequence[Candidate]]],
) -> list[Scored]:
    """Steps 1-4 of the pipeline, best first. ``neighbours_of`` looks up the graph
    neighbours of the top groups (a read query in recall, a stored answer offline)."""
    scored = rrf(lists, config)
    speakers = {s.speaker for s in scored.values() if s.speaker}
    # "What did we promise Priya?": Priya is spoken to, her own turns are not the answer
    boost_named(scored, set() if speaker_asks(text) else names_in_query(text, speakers), config)
    boost_time(scored, time_windows(text, _latest(scored)), config)
    if config.enabled("graph") and scored:
        expand(scored, neighbours_of([s.gid for s in ordered(scored)[:EXPAND]]), config)
    return ordered(scored)


def _latest(scored: Mapping[str, Scored]) -> datetime | None:
    """The newest time among the groups: a day the query names without its year is the
    last such day on or before it."""
    times = [s.occurred_at for s in scored.values() if s.occurred_at is not None]
    return max(times) if times else None


def named_person(ranked: Sequence[Scored], text: str, config: FusionConfig) -> str | None:
    """The one speaker/subject among the ranked groups that the query names, if exactly one
    (the status then counts only that person's groups: :func:`answers_for`); a name it
    compares with ("Who handled X before Sana?") is not the one asked about."""
    if not config.enabled("person"):
        return None
    speakers = {s.speaker for s in ranked if s.speaker and not numbered_thing(s.speaker)}
    named = names_in_query(not_compared(text), speakers, people=True)
    return next(iter(named)) if len(named) == 1 else None


def answers_for(s: Scored, person: str | None) -> bool:
    """Whether group ``s`` can answer a query about ``person`` (None: any group can): a
    question about one person is answered by what that person said (or, for a group from no
    observation, by facts about them)."""
    return person is None or s.speaker == person


def answered(
    relevance: float, others: float | None, config: FusionConfig, rule: StatusRule = SEMANTIC
) -> bool:
    """The status rule on an answer's relevance. ``others``: for a query naming one person,
    the best relevance of what the other people state of their own, read the same way as the
    person's (None: the query names no one, or no one who states things, such as a tool).
    Such a query is answered when someone's statements match it (the best of both reaches
    :data:`PERSON_THRESHOLD`) and the person's own are not outmatched by another's (by more
    than :data:`PERSON_MARGIN`): "What did Zed realise after his charity race?" is
    ``not_found`` when Mia's turns tell of her race and Zed's of nothing close. ``rule``:
    :data:`LEXICAL` when the relevance is read from coverage alone."""
    if others is None or not config.enabled("contrast"):
        return relevance >= rule.threshold
    return (
        max(relevance, others) >= rule.person_threshold and others - relevance <= rule.person_margin
    )


def relevance(similarity: float | None, coverage: float) -> float:
    """How well one result answers the query, from its own values only (cosine, coverage).

    Without a similarity (no embedding model, or a fact stored without an embedding) the
    lexical coverage alone decides."""
    if similarity is None:
        return coverage
    sim = min(max(similarity, 0.0), 1.0)
    return SIMILARITY_WEIGHT * sim + (1.0 - SIMILARITY_WEIGHT) * coverage
