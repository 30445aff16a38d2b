"""The access log: reads are counted apart from the record, off the request path; a full
buffer drops counts and counts the drops at /metrics; the log never shows in a read."""

from __future__ import annotations

import re

import pytest
from neo4j import Driver

from server.settings import Settings
from tests.conftest import Api, assertion
from tests.fakes import ShiftedClock
from tests.integration.lifecycle_helpers import (
    created,
    facts,
    history,
    lifecycle_server,
    light,
    new,
)

pytestmark = pytest.mark.integration


def _dropped(api: Api) -> float:
    text = api.client.get("/metrics").text
    match = re.search(
        r'^tractatus_access_log_dropped_total\{reason="queue_full"\} (\S+)$', text, re.M
    )
    return float(match.group(1)) if match else 0.0


def _reads(driver: Driver, assertion_id: str) -> int | None:
    records, _, _ = driver.execute_query(
        "OPTIONAL MATCH (c:AccessCount {assertion_id: $id}) RETURN c.reads AS reads",
        id=assertion_id,
    )
    reads = records[0]["reads"]
    return None if reads is None else int(reads)


def test_reads_are_counted_apart_from_the_record_and_a_full_buffer_drops(
    settings: Settings, driver: Driver
) -> None:
    # room for two reads, and no flush of its own for an hour: only a sleep flushes it
    small = light(settings, access_log_queue=2, access_log_flush=3_600.0, embedding_model="none")
    with lifecycle_server(small, ShiftedClock()) as apis:
        alice = apis["alice"]
        subject = new("user")
        fact_id = created(alice, assertion(subject, "lives_in", "Quito"))["assertion"]["id"]
        first = history(alice, subject, "lives_in")  # one read, buffered
        before = _dropped(alice)
        for _ in range(4):
            assert facts(alice, subject, "lives_in")["status"] == "answered"
        assert _dropped(alice) - before == 3  # one more fits, three are dropped and counted
        assert _reads(driver, fact_id) is None  # nothing written on the request path
        preview = alice.post("/v1/sleep", {"dry_run": True})
        assert preview.status_code == 403  # a member may not sleep; an admin's sleep flushes
        assert apis["admin"].post("/v1/sleep", {"dry_run": True}).status_code == 200
        assert _reads(driver, fact_id) == 2
        # the log is not part of the record: history reads the same as before it was written
        assert history(alice, subject, "lives_in") == first


def test_the_log_off_counts_nothing(settings: Settings, driver: Driver) -> None:
    off = light(settings, access_log=False, embedding_model="none")
    with lifecycle_server(off, ShiftedClock()) as apis:
        subject = new("user")
        fact_id = created(apis["alice"], assertion(subject, "lives_in", "Lima"))["assertion"]["id"]
        facts(apis["alice"], subject, "lives_in")
        assert apis["admin"].post("/v1/sleep", {"dry_run": True}).status_code == 200
    assert _reads(driver, fact_id) is None
