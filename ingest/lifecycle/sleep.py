"""Sleep: consolidate ended tasks left unconsolidated, expire ephemeral facts of no task, let
unused long-term facts fall dormant, wake dormant facts that were read, give kept facts back
the place a discarded version still holds (the repair: a store written before an end looked
again at its slots can hold one), and mine the procedures of recurring tasks
(:mod:`ingest.lifecycle.procedures`).

One sleep at a time across API replicas: a lease on one ``SleepLock`` node (a second sleep is
refused with 409 ``sleep_running`` rather than queued: an HTTP call should not wait minutes,
and the scheduler simply tries again at its next turn). The work goes in batches, each its
own transaction that first renews the lease (a sleep that lost its lease stops before
writing) and re-reads the state it decides on, so a sleep killed half way and run again
reaches the same end state: what was done is not eligible any more, what was not is done.
A dry run takes no lease, writes nothing and previews the same decisions at any ``now``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from neo4j import Driver, ManagedTransaction
from neo4j.exceptions import DriverError, Neo4jError

from graph_schema.core.errors import SleepRunning, TractatusError
from graph_schema.core.records import as_datetime
from graph_schema.core.timeutil import new_id, utcnow
from graph_schema.core.types import Principal, Tier
from graph_schema.lifecycle import cypher, rules
from graph_schema.lifecycle.reads import readable
from graph_schema.lifecycle.types import MAX_REPORT_IDS, Rule, SleepCounts, SleepReport
from graph_schema.procedures import reads as procedure_reads
from graph_schema.procedures.types import MinedVersion
from ingest.lifecycle.consolidate import (
    Lifecycle,
    consolidate_in_tx,
    count,
    ephemeral_predicates,
    plan,
    record_changes,
)
from ingest.lifecycle.procedures import mine
from ingest.lifecycle.restore import (
    held_in,
    lock_slots,
    plan_restorations,
    restore,
    slots_of,
)
from ingest.metrics import LIFECYCLE_TRANSITIONS, SLEEP_RUNS

log = logging.getLogger("tractatus.sleep")

SCHEDULER = Principal(id="tractatus:scheduler", role="admin")


@dataclass(frozen=True)
class SleepConfig:
    lease: timedelta = timedelta(seconds=60)
    batch: int = 500
    # tasks a sequence of steps must be seen in to be a procedure (0: no mining)
    min_support: int = 3


@dataclass
class _Tally:
    """Counts of everything; ids (bounded) of what the caller may read."""

    counts: SleepCounts = field(default_factory=SleepCounts)
    ids: dict[str, list[str]] = field(
        default_factory=lambda: {
            "promoted": [],
            "discarded": [],
            "dormant": [],
            "woken": [],
            "restored": [],
            "procedures": [],
        }
    )
    versions: list[MinedVersion] = field(default_factory=list)
    truncated: bool = False
    # a preview: the discarded versions whose restorations a task's end already counted
    previewed: set[str] = field(default_factory=set)

    def version(self, version: MinedVersion, shown: bool) -> None:
        """A procedure version written (or that a dry run would write, no id): counted, and
        listed (its id too, when it has one) if the caller may read it."""
        self.counts.procedures += 1
        if not shown:
            return
        if len(self.versions) >= MAX_REPORT_IDS:
            self.truncated = True
            return
        self.versions.append(version)
        if version.id is not None:
            self.ids["procedures"].append(version.id)

    def add(self, kind: str, assertion_id: str, shown: bool) -> None:
        setattr(self.counts, kind, getattr(self.counts, kind) + 1)
        if not shown:
            return
        if len(self.ids[kind]) < MAX_REPORT_IDS:
            self.ids[kind].append(assertion_id)
        else:
            self.truncated = True

    def decision(self, d: rules.Decision, shown: bool) -> None:
        kind = {
            Tier.long: "woken" if d.from_tier is Tier.dormant else "promoted",
            Tier.discarded: "discarded",
            Tier.dormant: "dormant",
        }[d.to_tier]
        self.add(kind, d.id, shown)

    def report(self, run_id: str | None, now: datetime, dry_run: bool) -> SleepReport:
        return SleepReport(
            run_id=run_id,
            now=now,
            dry_run=dry_run,
            counts=self.counts,
            truncated=self.truncated,
            procedure_versions=self.versions,
            **self.ids,
        )


@dataclass(frozen=True)
class _Run:
    driver: Driver
    database: str
    principal: Principal
    life: Lifecycle
    config: SleepConfig
    now: datetime  # the lifecycle clock's now (or a dry run's)
    run_id: str | None  # None: a dry run

    def known_at(self) -> datetime:
        """The record time the sleep reads at: a sleep, the present; a preview, its ``now``
        (a preview at a past time reads what was recorded by then, as a sleep then would)."""
        return self.now if self.run_id is None else utcnow()

    def renew(self, tx: ManagedTransaction) -> None:
        if self.run_id is None:
            return
        expires = utcnow() + self.config.lease
        held = tx.run(cypher.RENEW_SLEEP_LOCK, run_id=self.run_id, expires_at=expires).single()
        if held is None or held["held"] != 1:
            raise SleepRunning("this sleep lost its lease to another sleep; it stopped")


# --- the lease ------------------------------------------------------------------------------


def _acquire(run: _Run) -> None:
    now = utcnow()
    records, _, _ = run.driver.execute_query(
        cypher.ACQUIRE_SLEEP_LOCK,
        run_id=run.run_id,
        now=now,
        expires_at=now + run.config.lease,
        database_=run.database,
    )
    if not records[0]["free"]:
        expires = as_datetime(records[0]["expires_at"])
        raise SleepRunning(
            "another sleep is running",
            details={"lease_expires_at": expires.isoformat() if expires else None},
        )


def _release(run: _Run) -> None:
    run.driver.execute_query(cypher.RELEASE_SLEEP_LOCK, run_id=run.run_id, database_=run.database)


# --- 1. ended tasks not yet consolidated -----------------------------------------------------


def _one_task(
    tx: ManagedTransaction, run: _Run, task: dict[str, Any], ephemeral: frozenset[str]
) -> dict[str, Any] | None:
    run.renew(tx)
    if run.run_id is None:
        now = utcnow()
        decisions = plan(
            tx,
            task_id=task["id"],
            owner=task["owner"],
            ephemeral=ephemeral,
            policy=run.life.policy,
            known_at=now,
        )
        discarded = [d.id for d in decisions if not d.promoted]
        tiers = {d.id: d.to_tier for d in decisions}
        slots = [
            r["key"] for r in tx.run(cypher.TASK_SLOTS, task_id=task["id"], owner=task["owner"])
        ]
        held = held_in(tx, discarded, slots, now=now)
        return {
            "promoted": [d.id for d in decisions if d.promoted],
            "discarded": discarded,
            "restored": [],
            "restorations": len(plan_restorations(tx, held, now=now, tiers=tiers)),
            "held": held,
        }
    report, made = consolidate_in_tx(
        tx,
        task_id=task["id"],
        owner=task["owner"],
        ephemeral=ephemeral,
        life=run.life,
        run_id=run.run_id,
    )
    if made:
        count(report)
    return report if made else None


def _ended_tasks(run: _Run, tally: _Tally) -> None:
    ephemeral = ephemeral_predicates(run.driver, database=run.database)
    records, _, _ = run.driver.execute_query(
        cypher.ENDED_UNCONSOLIDATED,
        limit=100_000,
        known_at=run.known_at(),
        database_=run.database,
        routing_="r",
    )
    with run.driver.session(database=run.database) as session:
        for task in (dict(r) for r in records):
            execute = session.execute_read if run.run_id is None else session.execute_write
            done = execute(_one_task, run, task, ephemeral)
            if done is None:
                continue
            tally.counts.tasks += 1
            restored = done.get("restored", [])
            visible = session.execute_read(
                readable, [*done["promoted"], *done["discarded"], *restored], run.principal
            )
            for kind in ("promoted", "discarded", "restored"):
                for assertion_id in done.get(kind, []):
                    tally.add(kind, assertion_id, assertion_id in visible)
            tally.counts.restored += done.get("restorations", 0)
            tally.previewed.update(done.get("held", []))


# --- 2. the sweep: expiry, dormancy, waking ----------------------------------------------------


def _resting(record: Any) -> rules.Resting:
    change = record["change"]
    recorded_at = as_datetime(record["recorded_at"])
    entered = as_datetime(change["clock_at"]) if change else None
    return rules.Resting(
        id=record["id"],
        written_tier=Tier(record["written_tier"]),
        tier=Tier(record["tier"]),
        task_id=record["task_id"],
        alive=bool(record["alive"]),
        polarity=bool(record["polarity"]),
        recorded_at=recorded_at,  # type: ignore[arg-type]
        entered_at=entered or recorded_at,  # type: ignore[arg-type]
        pinned=bool(record["pinned"]),
        last_read_at=as_datetime(record["last_read_at"]),
        object=record["object"],
    )


@dataclass(frozen=True)
class _Swept:
    """One batch of the sweep: where the next starts, its transitions (and whether the caller
    may read each), and its restorations (ids; a dry run only counts them)."""

    after: str | None
    changes: list[tuple[rules.Decision, bool]]
    restored: list[str]
    restorations: int


def _apply_batch(tx: ManagedTransaction, run: _Run, decisions: list[rules.Decision]) -> _Swept:
    """Record a batch's transitions and restore what its expired ephemeral facts displaced,
    under the locks of their slots; a dry run plans the restorations and writes nothing."""
    expired = [d.id for d in decisions if d.rule is Rule.ephemeral_expired]
    if run.run_id is None:
        tiers = {d.id: d.to_tier for d in decisions}
        planned = plan_restorations(tx, expired, now=utcnow(), tiers=tiers)
        return _Swept(None, [], [], len(planned))
    now = lock_slots(tx, slots_of(tx, expired))
    record_changes(tx, decisions, run_id=run.run_id, now=now, clock_at=run.now)
    restored = restore(tx, expired, now=now)
    return _Swept(None, [], restored, len(restored))


def _batch(tx: ManagedTransaction, run: _Run, after: str) -> _Swept:
    run.renew(tx)
    rows = list(
        tx.run(
            cypher.SWEEP_BATCH,
            after=after,
            batch=run.config.batch,
            known_at=utcnow(),
            groups=list(run.principal.groups),
        )
    )
    decided = [(rules.rest(_resting(r), run.now, run.life.policy), bool(r["shown"])) for r in rows]
    changes = [(d, shown) for d, shown in decided if d is not None]
    applied = _apply_batch(tx, run, [d for d, _ in changes])
    next_after = rows[-1]["id"] if rows else None
    return _Swept(next_after, changes, applied.restored, applied.restorations)


def _sweep(run: _Run, tally: _Tally) -> None:
    after: str | None = ""
    with run.driver.session(database=run.database) as session:
        while after is not None:
            execute = session.execute_read if run.run_id is None else session.execute_write
            swept = execute(_batch, run, after)
            after = swept.after
            for decision, shown in swept.changes:
                tally.decision(decision, shown)
                if run.run_id is not None:
                    LIFECYCLE_TRANSITIONS.labels(rule=decision.rule.value).inc()
            visible = session.execute_read(readable, swept.restored, run.principal)
            for assertion_id in swept.restored:
                tally.add("restored", assertion_id, assertion_id in visible)
            if run.run_id is None:
                tally.counts.restored += swept.restorations


# --- 3. the repair: discarded versions still hiding a kept fact ------------------------------


@dataclass(frozen=True)
class _Repaired:
    """One page of the repair: where the next starts, the restorations written (ids), and
    how many a preview would write."""

    after: str | None
    restored: list[str]
    restorations: int


def _repair_batch(
    tx: ManagedTransaction, run: _Run, after: str, previewed: frozenset[str]
) -> _Repaired:
    """Restore, in the slots of one page's alive discarded versions, what every discarded
    version still alive there displaced, as the end of a task does (``held_in``, ``restore``),
    under the slots' locks; a preview plans and writes nothing."""
    run.renew(tx)
    page = tx.run(cypher.REPAIR_BATCH, after=after, batch=run.config.batch, now=utcnow())
    record = page.single(strict=True)
    keys: list[str] = list(record["keys"])
    if run.run_id is None:
        now = utcnow()
        held = [h for h in held_in(tx, [], keys, now=now) if h not in previewed]
        return _Repaired(record["last"], [], len(plan_restorations(tx, held, now=now)))
    now = lock_slots(tx, keys)
    restored = restore(tx, held_in(tx, [], keys, now=now), now=now) if keys else []
    return _Repaired(record["last"], restored, len(restored))


def _repair(run: _Run, tally: _Tally) -> None:
    """Give kept facts back their place where a discarded version still holds it (a store
    written before an end looked again at every discarded version of its slots; docs/
    lifecycle.md "Sleep"). Runs after the ends and the sweep, which restore their own."""
    after: str | None = ""
    previewed = frozenset(tally.previewed)
    with run.driver.session(database=run.database) as session:
        while after is not None:
            execute = session.execute_read if run.run_id is None else session.execute_write
            repaired = execute(_repair_batch, run, after, previewed)
            after = repaired.after
            visible = session.execute_read(readable, repaired.restored, run.principal)
            for assertion_id in repaired.restored:
                tally.add("restored", assertion_id, assertion_id in visible)
            if run.run_id is None:
                tally.counts.restored += repaired.restorations


# --- 4. procedures ------------------------------------------------------------------------------


def _procedures(run: _Run, tally: _Tally) -> None:
    """Mine at the sleep's ``now``: a sleep from everything recorded, a preview from what was
    recorded by its ``now`` (a preview at a past time sees the store as it was then)."""
    mined = mine(
        run.driver,
        database=run.database,
        now=run.now,
        known_at=run.known_at(),
        min_support=run.config.min_support,
        run_id=run.run_id,
        renew=run.renew,
    )
    visible: set[str] = set()
    if mined.versions:  # a sleep that found nothing new reads nothing more
        with run.driver.session(database=run.database) as session:
            visible = session.execute_read(
                procedure_reads.readable_versions, mined.versions, run.principal
            )
    for version in mined.versions:
        tally.version(version, version.key in visible)
    log.info(
        "procedures: %d whole tasks read, %d changed (%d versions written), %d unchanged",
        mined.tasks,
        mined.changed,
        len(mined.written),
        mined.unchanged,
    )


# --- the whole sleep ----------------------------------------------------------------------------


def run_sleep(
    driver: Driver,
    *,
    database: str,
    principal: Principal,
    life: Lifecycle,
    config: SleepConfig,
    now: datetime | None = None,
    dry_run: bool = False,
    flush: Callable[[], bool] | None = None,
) -> SleepReport:
    """One sleep (see the module doc). ``now`` is the lifecycle time to decide at (a dry run
    may name any; a real sleep runs at the clock's present). ``flush`` writes this process's
    queued access counts first, so reads made just before the sleep count."""
    if flush is not None:
        flush()
    run = _Run(
        driver,
        database,
        principal,
        life,
        config,
        now=now if dry_run and now is not None else life.clock.now(),
        run_id=None if dry_run else new_id(),
    )
    tally = _Tally()
    if dry_run:
        _ended_tasks(run, tally)
        _sweep(run, tally)
        _repair(run, tally)
        _procedures(run, tally)
        SLEEP_RUNS.labels(outcome="dry_run").inc()
        return tally.report(None, run.now, True)
    try:
        _acquire(run)
    except SleepRunning:
        SLEEP_RUNS.labels(outcome="running").inc()
        raise
    try:
        _ended_tasks(run, tally)
        _sweep(run, tally)
        _repair(run, tally)
        _procedures(run, tally)
    finally:
        _release(run)
    SLEEP_RUNS.labels(outcome="done").inc()
    return tally.report(run.run_id, run.now, False)


class Scheduler:
    """``TRACTATUS_SLEEP_INTERVAL``: a sleep every interval in a background thread. A turn
    that finds another sleep running, or the store unreachable, is counted and skipped: the
    next turn does the same work (a sleep is idempotent), so nothing is lost by skipping."""

    def __init__(self, every: timedelta, sleep: Callable[[], SleepReport]) -> None:
        self.every, self.sleep = every, sleep
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tractatus-sleep", daemon=True)

    def start(self) -> Scheduler:
        self._thread.start()
        return self

    def close(self, timeout: float = 30.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        while not self._stop.wait(self.every.total_seconds()):
            try:
                report = self.sleep()
            except SleepRunning:
                continue
            except (TractatusError, Neo4jError, DriverError) as error:
                SLEEP_RUNS.labels(outcome="failed").inc()
                log.warning("scheduled sleep failed (the next turn redoes it): %s", error)
                continue
            log.info("scheduled sleep %s: %s", report.run_id, report.counts.model_dump())
