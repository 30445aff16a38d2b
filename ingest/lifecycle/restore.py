"""Restoring what discarded working versions displaced (docs/lifecycle.md "Restoration").

The end of a task and the sweep's ephemeral expiry call :func:`restore` in the transaction that
records the discards, under the locks of the slots concerned: it finds, for every discarded
version still alive in its slot, the kept versions it displaced over the valid time it still
holds (:func:`graph_schema.lifecycle.restore.pieces`), and writes them again through the
writer's planner (:func:`ingest.writer.restore_in_tx`). A dry run plans without writing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from neo4j import ManagedTransaction

from graph_schema.core.records import as_datetime
from graph_schema.core.timeutil import utcnow
from graph_schema.core.types import Tier
from graph_schema.lifecycle import cypher
from graph_schema.lifecycle.restore import Displaced, Held, Piece, pieces
from graph_schema.lifecycle.rules import clauses
from ingest import writer

ONE_MICROSECOND = timedelta(microseconds=1)


def lock_slots(tx: ManagedTransaction, keys: Sequence[str]) -> datetime:
    """Lock the slots (in key order, like every writer) and return a record time later than
    every stamp already in them."""
    wall = utcnow()
    if not keys:
        return wall
    record = tx.run(cypher.LOCK_SLOTS, keys=sorted(set(keys))).single(strict=True)
    last = as_datetime(record["last_recorded_at"])
    return max(wall, last + ONE_MICROSECOND) if last is not None else wall


def slots_of(tx: ManagedTransaction, ids: Sequence[str]) -> list[str]:
    return sorted(r["key"] for r in tx.run(cypher.SLOTS_OF, ids=list(ids)))


def _displaced(row: Any, origin_recorded_at: datetime | None) -> Displaced:
    """A version its origin closed (it was open-ended until then) or superseded (it had the
    interval it has now: a superseded version is never closed again)."""
    superseded_by_origin = as_datetime(row["superseded_at"]) == origin_recorded_at
    return Displaced(
        id=row["id"],
        valid_from=as_datetime(row["valid_from"]),  # type: ignore[arg-type]
        valid_to=as_datetime(row["valid_to"]) if superseded_by_origin else None,
        tier=Tier(row["tier"]),
        clauses=clauses(row["access"] or [], row["access_all"]),
    )


def _steps(tx: ManagedTransaction, ids: Sequence[str], now: datetime) -> dict[str, Any]:
    """One step towards the origin of each version (``cypher.ORIGINS``), by id."""
    return {r["id"]: r for r in tx.run(cypher.ORIGINS, ids=list(ids), now=now)}


def _displaced_by(record: Any) -> tuple[Displaced, ...]:
    at = as_datetime(record["recorded_at"])
    return tuple(_displaced(row, at) for row in record["displaced"])


def _origin(tx: ManagedTransaction, version_id: str, now: datetime) -> tuple[Displaced, ...]:
    """What the origin of ``version_id`` displaced: remnants are followed to the version they
    were cut from (a chain that only goes back in record time, so it ends)."""
    record = _steps(tx, [version_id], now)[version_id]
    while record["remnant_of"] is not None:
        record = _steps(tx, [record["remnant_of"]], now)[record["remnant_of"]]
    return _displaced_by(record)


def plan_restorations(
    tx: ManagedTransaction,
    discarded: Sequence[str],
    *,
    now: datetime,
    tiers: Mapping[str, Tier] | None = None,
) -> list[Piece]:
    """The restorations the discarded versions call for, in their order (reads only).
    ``tiers`` are decisions not written yet (a dry run)."""
    if not discarded:
        return []
    rank = {vid: n for n, vid in enumerate(discarded)}
    held = sorted(
        (
            Held(
                id=r["id"],
                slot_key=r["key"],
                valid_from=as_datetime(r["valid_from"]),  # type: ignore[arg-type]
                valid_to=as_datetime(r["valid_to"]),
                clauses=clauses(r["access"] or [], r["access_all"]),
            )
            for r in tx.run(cypher.HELD, ids=list(discarded))
        ),
        key=lambda h: rank[h.id],
    )
    # one statement for the common case: each discarded version is its own origin
    first = _steps(tx, [h.id for h in held], now)
    seen = {i: _displaced_by(r) for i, r in first.items() if r["remnant_of"] is None}

    def origin_of(version_id: str) -> tuple[Displaced, ...]:
        if version_id not in seen:
            seen[version_id] = _origin(tx, version_id, now)
        return seen[version_id]

    return [piece for h in held for piece in pieces(h, origin_of, tiers)]


def held_in(
    tx: ManagedTransaction, discarded: Sequence[str], keys: Sequence[str], *, now: datetime
) -> list[str]:
    """The discarded versions an end restores for: its own (``discarded``, in order), then
    every other discarded version still alive in the slots ``keys`` (oldest first). An earlier
    one may have displaced a version this end promotes, which was working memory when that
    one was discarded, so nothing was kept to restore then (docs/lifecycle.md, "Restoration");
    for one that displaced nothing kept, nothing is found again."""
    mine = set(discarded)
    earlier = tx.run(cypher.DISCARDED_IN_SLOTS, keys=sorted(set(keys)), now=now)
    return [*discarded, *(r["id"] for r in earlier if r["id"] not in mine)]


def restore(tx: ManagedTransaction, discarded: Sequence[str], *, now: datetime) -> list[str]:
    """Write the restorations of versions whose discard this transaction recorded at ``now``
    (their slots locked); the ids written."""
    return writer.restore_in_tx(tx, plan_restorations(tx, discarded, now=now), now=now)
