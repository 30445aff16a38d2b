"""When a write is recorded (docs/semantics.md, *Two times*).

A new user's trial: a read at known_at K answered "Base", and the same read repeated later
answered "W", recorded 15 ms before K: the record time was read from the clock before the write
waited for its slot's lock, so writers queued on one slot were stamped a microsecond apart,
earlier than the commits they had waited for, and became visible "in the past" by as much as
the wait (up to 0.8 s under 20 writers). The record time is now read once the locks are held.
"""

from __future__ import annotations

import itertools
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta

import pytest
from neo4j import Driver

from graph_schema.core.timeutil import parse_rfc3339, utcnow
from tests.helpers import Api, assertion

pytestmark = pytest.mark.integration

HOLD = 1.0


def _slot_key(driver: Driver, assertion_id: str) -> str:
    records, _, _ = driver.execute_query(
        "MATCH (a:Assertion {id: $id}) RETURN a.slot_key AS key", id=assertion_id
    )
    return str(records[0]["key"])


def test_a_write_queued_behind_the_slot_lock_is_recorded_after_it_got_the_lock(
    api: dict[str, Api], subject: str, driver: Driver
) -> None:
    alice = api["alice"]
    first = alice.post("/v1/assertions", assertion(subject, "status", "base"))
    assert first.status_code == 201, first.text
    key = _slot_key(driver, first.json()["assertion"]["id"])
    answers: list[dict[str, object]] = []

    def queued() -> None:
        answers.append(alice.post("/v1/assertions", assertion(subject, "status", "queued")).json())

    with driver.session() as session, session.begin_transaction() as tx:
        tx.run("MATCH (s:Slot {key: $key}) SET s.version = s.version + 1", key=key).consume()
        writer = threading.Thread(target=queued)
        writer.start()
        time.sleep(HOLD)  # the write waits for the lock this transaction holds
        released = utcnow()
        tx.commit()
    writer.join(timeout=30)
    recorded = parse_rfc3339(str(answers[0]["assertion"]["recorded_at"]))  # type: ignore[index]
    # read from the clock once the lock was held, not when the write arrived (1 s earlier)
    assert recorded >= released - timedelta(milliseconds=50), (recorded, released)


def test_writers_queued_on_one_slot_are_recorded_in_commit_order_not_a_microsecond_apart(
    api: dict[str, Api], subject: str
) -> None:
    """Each write reads the clock after the one before it committed: the record times of 12
    queued writers are apart by at least that write's own work, never one microsecond."""
    alice = api["alice"]

    def write(n: int) -> int:
        return alice.post("/v1/assertions", assertion(subject, "status", f"w{n}")).status_code

    with ThreadPoolExecutor(max_workers=12) as pool:
        assert set(pool.map(write, range(12))) == {201}
    history = alice.get("/v1/facts/history", subject=subject, predicate="status").json()
    # one record time per write (a write's remnants share it)
    stamps: list[datetime] = sorted({parse_rfc3339(v["recorded_at"]) for v in history["versions"]})
    gaps = [later - earlier for earlier, later in itertools.pairwise(stamps)]
    assert len(stamps) == 12
    assert min(gaps) >= timedelta(microseconds=100), gaps
