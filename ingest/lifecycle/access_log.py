"""The access log: which assertions reads returned, counted apart from the ledger.

A read hands the ids it returned to :meth:`AccessLog.record`, which only appends them to a
bounded in-process buffer and returns: the read's own transaction stays read-only and is
never slowed or failed by the log. One background thread sums the buffer by assertion and
writes the sums in batches (``AccessCount`` nodes keyed by assertion id, unconnected to the
record). A full buffer drops the read's counts, and a batch the store refuses is dropped too;
both are counted at ``/metrics`` (``tractatus_access_log_dropped_total``). A dropped count
only makes a fact look less used than it was, which can only make it fall silent sooner
(and a read of it wakes it again): no other rule reads the log.
"""

from __future__ import annotations

import logging
import threading
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

    def add(self, ids: tuple[str, ...], at: datetime) -> None:
        for assertion_id in ids:
            self.counts[assertion_id] = self.counts.get(assertion_id, 0) + 1
            previous = self.last.get(assertion_id)
            self.last[assertion_id] = at if previous is None or at > previous else previous

    def rows(self) -> list[dict[str, object]]:
        return [
            {"id": i, "reads": self.counts[i], "at": to_rfc3339(self.last[i])}
            for i in sorted(self.counts)
        ]


class AccessLog:
    """The bounded buffer and its flushing thread (see the module doc).

    A read only appends to the buffer under a lock: it never wakes the thread (a wake-up per
    read would hand the interpreter lock to the flusher in the middle of requests). The
    thread wakes every ``flush_seconds``, or when :meth:`flush` asks, swaps the buffer out and
    writes it."""

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
        self.capacity, self.flush_seconds = capacity, flush_seconds
        self._lock = threading.Lock()
        self._buffer: list[tuple[tuple[str, ...], datetime]] = []
        self._waiters: list[threading.Event] = []
        self._wake = threading.Event()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="tractatus-access-log", daemon=True)

    def start(self) -> AccessLog:
        self._thread.start()
        return self

    def record(self, assertion_ids: Iterable[str]) -> None:
        ids = tuple(assertion_ids)
        if not ids:
            return
        at = self.clock.now()
        with self._lock:
            if len(self._buffer) < self.capacity:
                self._buffer.append((ids, at))
                return
        ACCESS_LOG_DROPPED.labels(reason="queue_full").inc(len(ids))

    def flush(self, timeout: float = 60.0) -> bool:
        """Wait until every read recorded before this call is written; False on timeout."""
        done = threading.Event()
        with self._lock:
            self._waiters.append(done)
        self._wake.set()
        return done.wait(timeout)

    def close(self, timeout: float = 30.0) -> None:
        """Write what is buffered and stop the thread."""
        self._stopping = True
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            self._wake.wait(self.flush_seconds)
            self._wake.clear()
            with self._lock:
                batch, self._buffer = self._buffer, []
                waiters, self._waiters = self._waiters, []
            pending = _Pending()
            for ids, at in batch:
                pending.add(ids, at)
            if pending.counts:
                self._write(pending)
            for waiter in waiters:
                waiter.set()
            if self._stopping:
                return

    def _write(self, pending: _Pending) -> None:
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
