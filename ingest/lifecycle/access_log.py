"""The access log: which assertions reads returned, counted apart from the ledger.

A read hands the ids it returned to :meth:`AccessLog.record`, which only puts them on a
bounded in-process queue and returns: the read's own transaction stays read-only and is
never slowed or failed by the log. One background thread sums the queue by assertion and
writes the sums in batches (``AccessCount`` nodes keyed by assertion id, unconnected to the
record). A full queue drops the read's counts, and a batch the store refuses is dropped too;
both are counted at ``/metrics`` (``tractatus_access_log_dropped_total``). A dropped count
only makes a fact look less used than it was, which can only make it fall silent sooner
(and a read of it wakes it again): no other rule reads the log.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from neo4j import Driver
from neo4j.exceptions import DriverError, Neo4jError

from graph_schema.core.clock import Clock
from graph_schema.core.timeutil import to_rfc3339
from graph_schema.lifecycle import cypher
from ingest.metrics import ACCESS_LOG_DROPPED, ACCESS_LOG_RECORDED

log = logging.getLogger("tractatus.access_log")

ROWS_PER_STATEMENT = 1_000


@dataclass
class _Pending:
    counts: dict[str, int] = field(default_factory=dict)
    last: dict[str, datetime] = field(default_factory=dict)
    since: float | None = None

    def add(self, ids: tuple[str, ...], at: datetime) -> None:
        for assertion_id in ids:
            self.counts[assertion_id] = self.counts.get(assertion_id, 0) + 1
            previous = self.last.get(assertion_id)
            self.last[assertion_id] = at if previous is None or at > previous else previous
        self.since = self.since if self.since is not None else time.monotonic()

    def rows(self) -> list[dict[str, object]]:
        return [
            {"id": i, "reads": self.counts[i], "at": to_rfc3339(self.last[i])}
            for i in sorted(self.counts)
        ]


class _Stop:
    pass


class AccessLog:
    """The bounded queue and its flushing thread (see the module doc)."""

    def __init__(
        self,
        driver: Driver,
        *,
        database: str,
        clock: Clock,
        capacity: int,
        flush_seconds: float,
    ) -> None:
        self.driver, self.database, self.clock = driver, database, clock
        self.flush_seconds = flush_seconds
        self._queue: queue.Queue[tuple[tuple[str, ...], datetime] | threading.Event | _Stop] = (
            queue.Queue(maxsize=capacity)
        )
        self._thread = threading.Thread(target=self._run, name="tractatus-access-log", daemon=True)

    def start(self) -> AccessLog:
        self._thread.start()
        return self

    def record(self, assertion_ids: Iterable[str]) -> None:
        ids = tuple(assertion_ids)
        if not ids:
            return
        try:
            self._queue.put_nowait((ids, self.clock.now()))
        except queue.Full:
            ACCESS_LOG_DROPPED.labels(reason="queue_full").inc(len(ids))

    def flush(self, timeout: float = 60.0) -> bool:
        """Wait until every read recorded before this call is written; False on timeout."""
        done = threading.Event()
        try:
            self._queue.put(done, timeout=timeout)
        except queue.Full:
            return False
        return done.wait(timeout)

    def close(self, timeout: float = 30.0) -> None:
        """Write what is queued and stop the thread."""
        if not self._thread.is_alive():
            return
        try:
            self._queue.put(_Stop(), timeout=timeout)
        except queue.Full:
            log.warning("access log: queue still full at shutdown; its counts are dropped")
            return
        self._thread.join(timeout)

    def _run(self) -> None:
        pending = _Pending()
        while True:
            wait = self.flush_seconds
            if pending.since is not None:
                wait = max(0.0, pending.since + self.flush_seconds - time.monotonic())
            try:
                item = self._queue.get(timeout=wait)
            except queue.Empty:
                item = None
            if isinstance(item, tuple):
                pending.add(*item)
                if time.monotonic() < (pending.since or 0.0) + self.flush_seconds:
                    continue
            if pending.counts:
                pending = self._write(pending)
            if isinstance(item, threading.Event):
                item.set()
            elif isinstance(item, _Stop):
                return

    def _write(self, pending: _Pending) -> _Pending:
        rows = pending.rows()
        for start in range(0, len(rows), ROWS_PER_STATEMENT):
            chunk = rows[start : start + ROWS_PER_STATEMENT]
            reads = sum(int(str(r["reads"])) for r in chunk)
            try:
                self.driver.execute_query(
                    cypher.FLUSH_ACCESS_COUNTS, rows=chunk, database_=self.database
                )
            except (Neo4jError, DriverError) as error:
                # counted, not hidden: a dropped count only makes a fact look less used than it was
                log.warning("access log: %d reads not written: %s", reads, error)
                ACCESS_LOG_DROPPED.labels(reason="store_error").inc(reads)
                continue
            ACCESS_LOG_RECORDED.inc(reads)
        return _Pending()
