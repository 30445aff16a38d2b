"""Restoration, pure: what a discarded working version gives back to its slot.

A working version takes its place in its slot like any write: it closes or supersedes the
versions it covers. When it is discarded (at the end of its task, or when an ephemeral fact
expires) while it still holds some valid time, the versions it displaced there are written
again as *restorations*: copies of their content for exactly the part of valid time the
discarded version still holds, which supersede it there. Nothing is edited.

Only a version every reader of the discarded one may read is restored: superseding the
discarded version is visible to its readers (its ``superseded_at`` and ``superseded_by``; it
stays in the reads of ``tier=discarded``), so a reader of the guess who may not read the fact
it displaced would learn that the fact exists. Since migration 9 a slot's key holds the whole
reading condition (``access`` and ``access_all``), so two versions of one slot share their
readers and the test (:func:`graph_schema.lifecycle.rules.readers_included`, the implication
consolidation uses for corroboration) is a guard.

What a part of valid time is restored to: the version that governed it just before the
discarded version's origin (the version it was cut from, through ``remnant_of``) was written.
When that version is kept (``long`` or ``dormant``) it is restored; when it is working memory
itself (``short``: of an open task, or an ephemeral fact not yet expired) or ``discarded``, it
is not restored, and the search goes on to what *it* displaced, and so on. Each step goes back
in record time, so the search ends. The store reads are the caller's (``origin_of``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

from graph_schema.core.types import Tier
from graph_schema.lifecycle.rules import Clauses, readers_included

RESTORE_RULE = "displaced_by_discarded"
RESTORE_REASON = "restores the version whose place a working version took and then lost"
KEPT = frozenset({Tier.long, Tier.dormant})


@dataclass(frozen=True)
class Displaced:
    """A version that an origin closed or superseded, with its valid interval as it was known
    just before (``valid_to`` None: open-ended then) and its tier now."""

    id: str
    valid_from: datetime
    valid_to: datetime | None
    tier: Tier
    clauses: Clauses = frozenset()


@dataclass(frozen=True)
class Held:
    """A discarded version still alive in its slot: the valid time it still holds, and who
    may read it (:func:`graph_schema.lifecycle.rules.clauses`)."""

    id: str
    slot_key: str
    valid_from: datetime
    valid_to: datetime | None
    clauses: Clauses = frozenset()


@dataclass(frozen=True)
class Piece:
    """One restoration to write: ``source_id``'s content over ``[valid_from, valid_to)``, in
    place of the discarded version ``held``."""

    held: Held
    source_id: str
    valid_from: datetime
    valid_to: datetime | None


def _before(start: datetime, end: datetime | None) -> bool:
    return end is None or start < end


def _min_end(a: datetime | None, b: datetime | None) -> datetime | None:
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)


def pieces(
    held: Held,
    origin_of: Callable[[str], tuple[Displaced, ...]],
    tiers: Mapping[str, Tier] | None = None,
) -> list[Piece]:
    """The restorations of one discarded version, in valid-time order (a kept version some
    reader of ``held`` may not read is not restored: see the module doc).

    ``origin_of(id)`` answers what the origin of version ``id`` displaced; ``tiers`` overrides
    the tiers it reports (a dry run's decisions, which are not written)."""
    overrides = tiers or {}
    found: list[Piece] = []

    def walk(version_id: str, start: datetime, end: datetime | None) -> None:
        for d in sorted(origin_of(version_id), key=lambda x: (x.valid_from, x.id)):
            lo, hi = max(d.valid_from, start), _min_end(d.valid_to, end)
            if not _before(lo, hi):
                continue
            if overrides.get(d.id, d.tier) not in KEPT:
                walk(d.id, lo, hi)
            elif readers_included(held.clauses, d.clauses):
                found.append(Piece(held, d.id, lo, hi))

    walk(held.id, held.valid_from, held.valid_to)
    return sorted(found, key=lambda p: p.valid_from)
