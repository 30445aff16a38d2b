"""The lifecycle rules, pure: what consolidation and sleep decide, given what the store holds.

Nothing here reads the store or the clock; the write paths (``ingest/lifecycle/``) fetch the
inputs, call these functions and record the decisions as transitions. docs/lifecycle.md
states the same rules in prose.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta

from graph_schema.core.types import SourceKind, Tier
from graph_schema.ledger.types import UTTERANCE
from graph_schema.lifecycle.types import Rule

SAID = UTTERANCE
DEFAULT_BOUND = 1_000  # working assertions per task (TRACTATUS_WORKING_MEMORY_BOUND)
TRUSTED_SOURCES = frozenset({SourceKind.user_stated, SourceKind.tool_returned, SourceKind.document})


@dataclass(frozen=True)
class Policy:
    """The settings every rule reads (defaults documented in docs/lifecycle.md)."""

    promote_confidence: float = 0.8
    trusted_sources: frozenset[str] = frozenset(s.value for s in TRUSTED_SOURCES)
    corroboration_sources: int = 2
    working_memory_bound: int = DEFAULT_BOUND
    ephemeral_ttl: timedelta = timedelta(days=1)
    dormant_after: timedelta = timedelta(days=180)


@dataclass(frozen=True)
class Decision:
    id: str
    from_tier: Tier
    to_tier: Tier
    rule: Rule
    reason: str

    @property
    def promoted(self) -> bool:
        return self.to_tier is Tier.long


# --- who may read what: a sound implication on access lists ------------------------------------

Clauses = frozenset[frozenset[str]]


def clauses(access: Iterable[str], access_all: Iterable[str]) -> Clauses:
    """The reading condition of a node as a conjunction of clauses, each "any of these groups":
    its ``access`` list (when restricted) and every ``access_all`` requirement ("g1|g2")."""
    own = [frozenset(access)] if access else []
    required = [frozenset(req.split("|")) for req in access_all]
    return frozenset(c for c in (*own, *required) if c)


def readers_included(fact: Clauses, source: Clauses) -> bool:
    """True only if every principal who may read ``fact`` may also read ``source``.

    Each clause of the source must be implied by a clause of the fact that is a subset of it
    (a reader of the fact holds a group of that clause, hence of the source's). Sound, not
    complete: when in doubt the source does not count. A public source is readable by all."""
    return all(any(f <= s for f in fact) for s in source)


# --- consolidation ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Span:
    observation_id: str | None
    start: int | None
    end: int | None

    def overlaps(self, other: Span) -> bool:
        if self.observation_id is None or self.observation_id != other.observation_id:
            return False
        if None in (self.start, self.end, other.start, other.end):
            return False
        return max(self.start or 0, other.start or 0) < min(self.end or 0, other.end or 0)


@dataclass(frozen=True)
class Support:
    """An alive, positive version with the same (subject, predicate, object)."""

    source: tuple[str, ...]
    clauses: Clauses


@dataclass(frozen=True)
class Working:
    """One working assertion of an ending task, with what the rules need to know about it."""

    id: str
    predicate: str
    polarity: bool
    confidence: float
    source_kind: str
    recorded_at: datetime
    clauses: Clauses
    source: tuple[str, ...]
    ephemeral: bool
    spans: tuple[Span, ...] = ()
    supports: tuple[Support, ...] = field(default_factory=tuple)

    @property
    def said(self) -> bool:
        return self.predicate == SAID

    @property
    def order(self) -> tuple[datetime, str]:
        return self.recorded_at, self.id


def source_key(
    observation_ids: Sequence[str | None], asserted_by: str, kind: str
) -> tuple[str, ...]:
    """What makes two supports independent: the observation they cite, or, for evidence that
    cites none, who asserted it and the kind of source."""
    cited = sorted(o for o in observation_ids if o)
    return ("observation", cited[0]) if cited else ("speaker", asserted_by, kind)


def corroborating_sources(item: Working) -> int:
    """Independent sources of the item's (subject, predicate, object) that every reader of
    the item may also read; the item's own source always counts."""
    sources = {item.source}
    for support in item.supports:
        if readers_included(item.clauses, support.clauses):
            sources.add(support.source)
    return len(sources)


def _fact(item: Working, policy: Policy) -> Decision:
    short = Tier.short
    if item.ephemeral:
        reason = f"predicate {item.predicate} is ephemeral: never consolidated"
        return Decision(item.id, short, Tier.discarded, Rule.ephemeral, reason)
    trusted = item.source_kind in policy.trusted_sources
    if trusted and item.confidence >= policy.promote_confidence:
        reason = (
            f"confidence {item.confidence:g} >= {policy.promote_confidence:g}"
            f" from a trusted source ({item.source_kind})"
        )
        return Decision(item.id, short, Tier.long, Rule.verified, reason)
    sources = corroborating_sources(item) if item.polarity else 1
    if sources >= policy.corroboration_sources:
        reason = f"supported by {sources} independent sources its readers may read"
        return Decision(item.id, short, Tier.long, Rule.corroborated, reason)
    why = (
        f"confidence {item.confidence:g} < {policy.promote_confidence:g}"
        if trusted
        else f"source {item.source_kind} is not trusted"
    )
    reason = f"{why}, and {sources} independent source(s) < {policy.corroboration_sources}"
    return Decision(item.id, short, Tier.discarded, Rule.unverified, reason)


def _said(item: Working, kept: Sequence[Working]) -> Decision:
    """Promoted when a kept fact that every reader of the sentence may read cites an
    overlapping span: a restricted fact never keeps a public sentence (a red-team trial: the
    public sentence's tier and transition told everyone a hidden fact cited it)."""
    readable = [f for f in kept if readers_included(item.clauses, f.clauses)]
    if any(s.overlaps(k) for s in item.spans for fact in readable for k in fact.spans):
        reason = "states a fact kept from this task (same observation span)"
        return Decision(item.id, Tier.short, Tier.long, Rule.said_supported, reason)
    reason = "states no fact kept from this task"
    return Decision(item.id, Tier.short, Tier.discarded, Rule.said_unsupported, reason)


def _over_bound(item: Working, bound: int) -> Decision:
    reason = f"past the working-memory bound of {bound}: the oldest promotable go first"
    return Decision(item.id, Tier.short, Tier.discarded, Rule.over_bound, reason)


def consolidate(items: Sequence[Working], policy: Policy) -> list[Decision]:
    """Decide every working assertion of an ending task (see docs/lifecycle.md):

    1. facts (every predicate but ``said``): ephemeral -> discarded; trusted and confident
       enough -> promoted (verified); corroborated -> promoted; else discarded;
    2. ``said`` sentences: promoted when a promoted fact cites an overlapping span of the
       same observation, else discarded;
    3. the bound: when more than ``working_memory_bound`` would stay, the oldest promotable
       ones (by recorded_at, id) are discarded (``over_bound``), and a ``said`` sentence
       whose supporting facts all went is discarded too.

    Deterministic: the same inputs decide the same way, in the order of ``items``."""
    by_id = {item.id: item for item in items}
    facts = {i.id: _fact(i, policy) for i in items if not i.said}
    kept = [by_id[d.id] for d in facts.values() if d.promoted]
    decided = {**facts, **{i.id: _said(i, kept) for i in items if i.said}}
    promotable = sorted(
        (by_id[d.id] for d in decided.values() if d.promoted), key=lambda i: i.order
    )
    bound = policy.working_memory_bound
    over = over_bound(promotable, bound)
    for item in promotable:
        if item.id in over:
            decided[item.id] = _over_bound(item, bound)
    if over:
        still = [by_id[d.id] for d in decided.values() if d.promoted and not by_id[d.id].said]
        for item in promotable:
            if item.said and item.id not in over and not _said(item, still).promoted:
                decided[item.id] = _said(item, still)
    return [decided[item.id] for item in items]


def over_bound(promotable: Sequence[Working], bound: int) -> set[str]:
    """The ids past the bound (``promotable`` in age order): for each reading scope, as many
    of its own oldest as the promotable items every reader of it may read exceed ``bound``.
    What is readable more widely is never pushed out by what is more restricted (a red-team
    trial: a thousand hidden facts discarded a public one, and its transition told everyone
    so); what a scope's readers see stays within the bound when its own items can make room.
    The task as a whole may keep more than ``bound``."""
    over: set[str] = set()
    scopes: dict[Clauses, list[Working]] = {}
    for item in promotable:
        scopes.setdefault(item.clauses, []).append(item)
    for scope, members in scopes.items():
        seen = sum(1 for j in promotable if readers_included(scope, j.clauses))
        over.update(m.id for m in members[: max(0, seen - bound)])
    return over


# --- sleep: ephemeral expiry, dormancy, waking ------------------------------------------------


@dataclass(frozen=True)
class Resting:
    """One assertion as the sleep sweep sees it."""

    id: str
    written_tier: Tier
    tier: Tier
    task_id: str | None
    alive: bool
    polarity: bool
    recorded_at: datetime
    entered_at: datetime
    pinned: bool
    last_read_at: datetime | None
    object: str | None = None  # its object when a string: a plan's date is in brackets


def _days(span: timedelta) -> str:
    return f"{span.total_seconds() / 86_400:g} days"


# The date in brackets that ends a plan's object, in the ontology's form ("trip to Iceland
# (2026-11)"): a day, an ISO week, a month or a year, the forms the distillers write.
_NAMED_DATE = re.compile(r"\s\((\d{4})(?:-(\d{2})(?:-(\d{2}))?|-W(\d{2}))?\)$")
# the last place a date ends is twelve hours behind UTC: a date has passed everywhere at noon
# UTC of the day after it
_LAST_ZONE = time(12, tzinfo=UTC)


def _period_end(year: int, month: str | None, day: str | None, week: str | None) -> date:
    if week is not None:
        return date.fromisocalendar(year, int(week), 1) + timedelta(days=7)
    if month is None:
        return date(year + 1, 1, 1)
    if day is None:
        first = date(year, int(month), 1)
        return date(year + 1, 1, 1) if first.month == 12 else first.replace(month=first.month + 1)
    return date(year, int(month), int(day)) + timedelta(days=1)


def date_passed(value: str | None) -> tuple[str, datetime] | None:
    """The date in brackets at the end of ``value`` and the moment it has passed everywhere
    on Earth, or None when it names no date in the ontology's form (or an impossible one)."""
    found = _NAMED_DATE.search(value or "")
    if found is None:
        return None
    year, month, day, week = found.groups()
    try:
        end = _period_end(int(year), month, day, week)
    except ValueError:  # "2026-13", "2026-02-30", "2026-W60": no date, the undated rule
        return None
    label = found.group(0).strip()[1:-1]
    return label, datetime.combine(end, _LAST_ZONE)


def _expiry(item: Resting, now: datetime, policy: Policy) -> Decision | None:
    """An ephemeral fact of no task expires ``ephemeral_ttl`` after it was recorded, or, when
    its object ends with a date in brackets (a plan's), after that date has passed, whichever
    is later: a plan for next year is not forgotten the day after it was said."""
    dated = date_passed(item.object)
    ttl = _days(policy.ephemeral_ttl)
    if dated is not None and dated[1] > item.recorded_at:
        if dated[1] > now - policy.ephemeral_ttl:
            return None
        reason = f"ephemeral, outside any task, its date {dated[0]} passed more than {ttl} ago"
        return Decision(item.id, Tier.short, Tier.discarded, Rule.ephemeral_expired, reason)
    if item.recorded_at <= now - policy.ephemeral_ttl:
        reason = f"ephemeral, outside any task, older than {ttl}"
        return Decision(item.id, Tier.short, Tier.discarded, Rule.ephemeral_expired, reason)
    return None


def rest(item: Resting, now: datetime, policy: Policy) -> Decision | None:
    """What a sleep at ``now`` (the lifecycle clock) does to one assertion, if anything.

    * an ephemeral fact written outside any task (written ``short``, no task) expires
      ``ephemeral_ttl`` after it was recorded, or after the date its object names in brackets
      has passed, whichever is later (:func:`_expiry`);
    * a long-term, alive, positive, unpinned fact falls dormant when neither a read nor its
      becoming long-term happened within ``dormant_after``;
    * a dormant fact wakes when it was read since it fell dormant, or is pinned."""
    if item.tier is Tier.short and item.task_id is None and item.written_tier is Tier.short:
        return _expiry(item, now, policy)
    if item.tier is Tier.long and item.alive and item.polarity and not item.pinned:
        since = max(item.entered_at, item.last_read_at or item.entered_at)
        if since <= now - policy.dormant_after:
            reason = f"not read for {_days(policy.dormant_after)}"
            return Decision(item.id, Tier.long, Tier.dormant, Rule.dormant, reason)
        return None
    if item.tier is Tier.dormant:
        read = item.last_read_at is not None and item.last_read_at > item.entered_at
        if read or item.pinned:
            reason = "read since it fell dormant" if read else "pinned"
            return Decision(item.id, Tier.dormant, Tier.long, Rule.woken, reason)
    return None
