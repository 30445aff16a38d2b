"""The sleep's procedure step: read every whole task's steps, mine the recurring ones, write a
new version of each procedure whose figures changed (docs/procedures.md).

Append-only like the rest of memory: a version is never edited; a procedure whose tasks grew
gets a new version that supersedes the old one, both kept. Mining again with nothing new
writes nothing. The current versions are read once, before any write; each write
transaction first renews the sleep's lease (``renew``), so no other sleep has written since
and two sleeps never write the same procedure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from neo4j import Driver, ManagedTransaction

from graph_schema.core.records import as_datetime
from graph_schema.core.timeutil import new_id, utcnow
from graph_schema.procedures import cypher
from graph_schema.procedures.mine import Step, Trace, Variant, shown_access, variants
from graph_schema.procedures.types import MinedVersion

# a task with no step for this long (on the step's time and on its record time) is read as
# whole, ended or not
QUIET = timedelta(hours=1)
TRACE_BATCH = 500
WRITER = "tractatus:sleep"

Renew = Callable[[ManagedTransaction], None]


@dataclass
class Mined:
    """What one mining did: versions to write (``changed``; a dry run writes none), the ids
    of those written, procedures unchanged, whole tasks read, and each version written (or
    that a dry run would write, with no id) described."""

    changed: int = 0
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    tasks: int = 0
    versions: list[MinedVersion] = field(default_factory=list)


def _trace(row: Any) -> Trace:
    steps = tuple(
        Step(
            id=s["id"],
            action=s["action"],
            outcome=s["outcome"],
            occurred_at=as_datetime(s["occurred_at"]),  # type: ignore[arg-type]
            access=tuple(s["access"] or ()),
        )
        for s in row["steps"]
    )
    return Trace(task=row["task"], steps=steps)


def _whole(trace: Trace, ended: bool, last_recorded: datetime | None, now: datetime) -> bool:
    """At ``now``: an ended task whose steps have all happened, or one whose last step is an
    hour old both when it happened and when it was recorded: a new user's trial recorded
    steps dated three hours back seconds before a sleep, and the task still running was
    mined as a shorter sequence than it became."""
    if not trace.steps:
        return False
    happened = trace.steps[-1].occurred_at
    if ended:
        return happened <= now
    quiet_before = now - QUIET
    return happened <= quiet_before and (last_recorded is None or last_recorded <= quiet_before)


def traces(
    driver: Driver,
    *,
    database: str,
    now: datetime,
    known_at: datetime,
    between: Callable[[], None],
) -> Iterator[Trace]:
    """Every task whole at ``now`` (the lifecycle clock) as the steps and ends recorded by
    ``known_at`` show it, its trace; a page of tasks per read transaction; ``between`` runs
    before each page (the sleep renews its lease there: a large store is read for minutes)."""
    after = ""
    while True:
        between()
        records, _, _ = driver.execute_query(
            cypher.TRACES,
            after=after,
            batch=TRACE_BATCH,
            known_at=known_at,
            database_=database,
            routing_="r",
        )
        for row in records:
            trace = _trace(row)
            last_recorded = as_datetime(row["last_recorded"])
            if _whole(trace, bool(row["ended"]), last_recorded, now):
                yield trace
        if len(records) < TRACE_BATCH:
            return
        after = records[-1]["task"]


def _same(variant: Variant, current: dict[str, Any] | None) -> bool:
    if current is None:
        return False
    return (
        current["support"] == variant.support
        and current["successes"] == variant.successes
        and as_datetime(current["first_seen"]) == variant.first_seen
        and as_datetime(current["last_seen"]) == variant.last_seen
    )


def _props(variant: Variant, now: datetime, run_id: str) -> dict[str, Any]:
    return {
        "id": new_id(),
        "key": variant.key,
        "trigger": variant.trigger,
        "steps": list(variant.steps),
        "support": variant.support,
        "successes": variant.successes,
        "success_rate": variant.success_rate,
        "first_seen": variant.first_seen,
        "last_seen": variant.last_seen,
        "recorded_at": now,
        "source_kind": "agent_inferred",
        "asserted_by": WRITER,
        "run_id": run_id,
        "access": [],
        "access_all": list(variant.scope),
        "evidence": variant.evidence(),
    }


@dataclass(frozen=True)
class _Change:
    """A variant whose figures differ from its current version (``replaces``; None: new)."""

    variant: Variant
    replaces: str | None


def _write(tx: ManagedTransaction, change: _Change, run_id: str, renew: Renew) -> str:
    """Write the variant's new version, superseding ``change.replaces``; its id. The current
    versions were read before (:func:`_changes`): the lease renewed here first means no other
    sleep has written since."""
    renew(tx)
    now = utcnow()
    props = _props(change.variant, now, run_id)
    tx.run(
        cypher.WRITE_VERSION,
        props=props,
        replaces=change.replaces,
        now=now,
        evidence=props["evidence"],
    ).consume()
    return str(props["id"])


def _described(change: _Change, version_id: str | None) -> MinedVersion:
    """A version written (``version_id``) or that a dry run would write (None), as the
    sleep's report describes it."""
    variant = change.variant
    access, access_all = shown_access((), variant.scope)
    return MinedVersion(
        id=version_id,
        key=variant.key,
        trigger=variant.trigger,
        steps=list(variant.steps),
        support=variant.support,
        successes=variant.successes,
        success_rate=variant.success_rate,
        first_seen=variant.first_seen,
        last_seen=variant.last_seen,
        access=access,
        access_all=access_all,
        supersedes=change.replaces,
    )


def _changes(
    driver: Driver, database: str, found: list[Variant], known_at: datetime
) -> list[_Change]:
    """The variants whose figures differ from their versions current at ``known_at``, read in
    one query."""
    records, _, _ = driver.execute_query(
        cypher.CURRENT,
        keys=[v.key for v in found],
        known_at=known_at,
        database_=database,
        routing_="r",
    )
    current = {r["key"]: dict(r) for r in records}
    return [
        _Change(v, current[v.key]["id"] if v.key in current else None)
        for v in found
        if not _same(v, current.get(v.key))
    ]


def mine(
    driver: Driver,
    *,
    database: str,
    now: datetime,
    known_at: datetime,
    min_support: int,
    run_id: str | None,
    renew: Renew,
) -> Mined:
    """Mine every task whole at the lifecycle time ``now`` from what was recorded by
    ``known_at`` (a sleep: the present; a preview: its ``now``), against the versions current
    then; ``run_id`` None is a dry run (describes what would be written, writes nothing).
    ``min_support`` 0 mines nothing."""
    mined = Mined()
    if min_support <= 0:
        return mined

    def keep_lease() -> None:
        if run_id is not None:
            with driver.session(database=database) as session:
                session.execute_write(renew)

    read = list(traces(driver, database=database, now=now, known_at=known_at, between=keep_lease))
    mined.tasks = len(read)
    found = variants(read, min_support)
    changes = _changes(driver, database, found, known_at)
    mined.changed, mined.unchanged = len(changes), len(found) - len(changes)
    if run_id is None:
        mined.versions = [_described(change, None) for change in changes]
        return mined
    with driver.session(database=database) as session:
        for change in changes:
            written = session.execute_write(_write, change, run_id, renew)
            mined.written.append(written)
            mined.versions.append(_described(change, written))
    return mined
