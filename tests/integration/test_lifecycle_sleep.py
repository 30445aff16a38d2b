"""The sleep as an operation: one at a time (a lease in Neo4j), killed half way and run again,
the same end state; `tractatus sleep` from the command line; bad requests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from neo4j import Driver

from graph_schema.core.timeutil import utcnow
from server.settings import Settings
from tests.conftest import KEYS, Api, assertion
from tests.fakes import ShiftedClock
from tests.integration.lifecycle_helpers import lifecycle_server, light, new, sleep

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def quiet(fresh_store: None, clock: ShiftedClock) -> Iterator[None]:
    clock.reset()
    yield
    clock.reset()


def _scalar(driver: Driver, query: str, **params: Any) -> Any:
    records, _, _ = driver.execute_query(query, **params)
    return records[0][0]


def _facts(api: Api, n: int) -> list[str]:
    subject = new("bulk")
    ids: list[str] = []
    for start in range(0, n, 1000):
        bodies = [
            assertion(f"{subject}-{i}", "lives_in", f"town {i}")
            for i in range(start, min(n, start + 1000))
        ]
        response = api.post("/v1/assertions", {"assertions": bodies})
        assert response.status_code == 201, response.text
        ids += [r["assertion"]["id"] for r in response.json()["results"]]
    return ids


def _cli(*args: str, **env: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "server.cli", "sleep", *args],
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _displacing_stock_levels(api: Api, driver: Driver, n: int) -> dict[str, str]:
    """``n`` stores each with a long-term stock level (as stores older than tiers wrote them)
    and a later ephemeral one of no task that displaced it: {ephemeral id: long-term id}."""
    stores = [new("store") for _ in range(n)]
    older = [assertion(s, "stock_level", 80, valid_from="2026-01-01T00:00:00Z") for s in stores]
    response = api.post("/v1/assertions", {"assertions": older})
    assert response.status_code == 201, response.text
    long_ids = [r["assertion"]["id"] for r in response.json()["results"]]
    driver.execute_query(
        "UNWIND $ids AS id MATCH (a:Assertion {id: id}) SET a.tier = 'long'", ids=long_ids
    )
    later = [assertion(s, "stock_level", 42, valid_from="2026-02-01T00:00:00Z") for s in stores]
    response = api.post("/v1/assertions", {"assertions": later})
    assert response.status_code == 201, response.text
    later_ids = [r["assertion"]["id"] for r in response.json()["results"]]
    return dict(zip(later_ids, long_ids, strict=True))


def _restored_once(driver: Driver, displaced: dict[str, str]) -> None:
    """Every expired ephemeral fact was discarded once and superseded by exactly one
    restoration of the long-term fact it displaced."""
    rows, _, _ = driver.execute_query(
        "UNWIND $ids AS id MATCH (w:Assertion {id: id}) "
        "RETURN id, [(c:TierChange)-[:CHANGES]->(w) | c.rule] AS rules, "
        "[(r:Assertion)-[:SUPERSEDES]->(w) | r.restored_from] AS restorations",
        ids=list(displaced),
    )
    assert len(rows) == len(displaced)
    for r in rows:
        assert r["rules"] == ["ephemeral_expired"], r
        assert r["restorations"] == [displaced[r["id"]]], r


def test_a_sleep_killed_half_way_and_run_again_reaches_the_same_end_state(
    apis: dict[str, Api], quiet: None, driver: Driver
) -> None:
    # first in id order (ids grow with time): 300 long-term stock levels fall dormant, then the
    # 300 ephemeral ones that displaced them expire and restore them; the kill lands after
    # the first restorations
    displaced = _displacing_stock_levels(apis["alice"], driver, 300)
    ids = _facts(apis["alice"], 3000)
    # every long-term fact is old enough at once (a millisecond: 0 is refused); small
    # batches, a short lease
    env = {
        "TRACTATUS_DORMANT_AFTER": "0.001",
        "TRACTATUS_SLEEP_BATCH": "10",
        "TRACTATUS_SLEEP_LEASE": "2",
        "TRACTATUS_EPHEMERAL_TTL": "0.001",
    }
    process = _cli(**env)
    deadline = time.monotonic() + 120
    restored = 0
    while restored < 20:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the sleep made no progress"
        restored = _scalar(
            driver, "MATCH (r:Assertion) WHERE r.restored_from IS NOT NULL RETURN count(r)"
        )
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    done = _scalar(driver, "MATCH (c:TierChange) RETURN count(c)")
    assert 0 < done < len(ids), "the kill should land half way"
    assert _scalar(
        driver, "MATCH (r:Assertion) WHERE r.restored_from IS NOT NULL RETURN count(r)"
    ) < len(displaced)
    held = _scalar(driver, "MATCH (l:SleepLock) RETURN l.holder IS NOT NULL")
    assert held is True  # the killed sleep's lease outlives it, until it expires

    while True:  # the lease expires within 2 s; until then a second sleep is refused
        again = _cli("--json", **env)
        out, err = again.communicate(timeout=300)
        if again.returncode != 3:
            break
        assert b"another sleep is running" in err
        time.sleep(0.5)
    assert again.returncode == 0, err
    assert b'"dormant"' in out
    rows, _, _ = driver.execute_query(
        "MATCH (a:Assertion) WHERE a.id IN $ids "
        "RETURN a.id AS id, [(c:TierChange)-[:CHANGES]->(a) | c.to_tier] AS changes",
        ids=ids,
    )
    assert {r["id"] for r in rows} == set(ids)
    assert all(r["changes"] == ["dormant"] for r in rows), "one transition each, none twice"
    _restored_once(driver, displaced)
    assert _scalar(driver, "MATCH (l:SleepLock) RETURN l.holder IS NULL") is True


def test_one_sleep_at_a_time(apis: dict[str, Api], quiet: None, driver: Driver) -> None:
    admin = apis["admin"]
    _facts(apis["alice"], 50)
    later = utcnow() + timedelta(minutes=5)
    driver.execute_query(
        "MERGE (l:SleepLock {id: 'sleep'}) SET l.holder = 'another', l.expires_at = $later",
        later=later,
    )
    refused = admin.post("/v1/sleep", {"dry_run": False})
    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["code"] == "sleep_running"
    assert refused.json()["error"]["details"]["lease_expires_at"]
    assert _scalar(driver, "MATCH (c:TierChange) RETURN count(c)") == 0
    # a dry run needs no lock
    assert admin.post("/v1/sleep", {"dry_run": True}).status_code == 200
    # a lease that expired is taken over
    driver.execute_query(
        "MATCH (l:SleepLock {id: 'sleep'}) SET l.expires_at = $past",
        past=utcnow() - timedelta(seconds=1),
    )
    assert sleep(admin)["run_id"]
    url = str(admin.client.base_url)
    clients = [Api(url, KEYS["admin"]) for _ in range(4)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(lambda api: api.post("/v1/sleep", {"dry_run": False}), clients))
    assert {a.status_code for a in answers} <= {200, 409}
    assert 200 in {a.status_code for a in answers}


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"now": "2031-01-01T00:00:00Z"}, 422, "invalid_request"),
        ({"now": "2031-01-01T00:00:00Z", "dry_run": False}, 422, "invalid_request"),
        ({"now": "next tuesday", "dry_run": True}, 422, "invalid_request"),
        ({"now": "2031-01-01T00:00:00", "dry_run": True}, 422, "invalid_request"),
        ({"dry_run": "yes"}, 422, "invalid_request"),
        ({"dry_run": True, "extra": 1}, 422, "invalid_request"),
        ([], 422, "invalid_request"),
    ],
)
def test_bad_sleep_requests(
    apis: dict[str, Api], driver: Driver, body: Any, status: int, code: str
) -> None:
    before = _scalar(driver, "MATCH (c:TierChange) RETURN count(c)")
    response = apis["admin"].post("/v1/sleep", body)
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code
    assert _scalar(driver, "MATCH (c:TierChange) RETURN count(c)") == before


NO_BODY = "body: Field required"


@pytest.mark.parametrize(
    ("sent", "message"),
    [
        (None, NO_BODY),
        (b"", NO_BODY),
        (b"  \n", NO_BODY),
        (b"null", "body: Input should be a JSON object"),
        (b"{}", "body.dry_run: Field required"),
        (b'{"now": null}', "body.dry_run: Field required"),
    ],
    ids=["no body", "empty", "whitespace", "null", "{}", "now only"],
)
def test_a_sleep_without_dry_run_is_refused_and_runs_nothing(
    apis: dict[str, Api], quiet: None, driver: Driver, sent: bytes | None, message: str
) -> None:
    """``dry_run`` defaulted to false: an empty ``POST /v1/sleep`` (or ``null``, ``{}``) ran a
    real sleep on the shared store, in a database engineer's audit. Now the caller states it;
    without it, 422 ``invalid_request`` in the one error shape, and nothing runs."""
    alice, admin = apis["alice"], apis["admin"]
    task = new("task")
    alice.post("/v1/assertions", assertion(new("user"), "likes", "tea", task_id=task))
    driver.execute_query(
        "MATCH (t:Task {id: $task, owner: 'alice'}) SET t.status = 'ended', t.ended_at = $now",
        task=task,
        now=utcnow(),
    )
    headers = {"Content-Type": "application/json"} if sent is not None else {}
    response = admin.client.post("/v1/sleep", content=sent, headers=headers)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_request"
    assert error["request_id"] == response.headers["x-request-id"]
    assert error["message"] == message
    assert [p["where"] for p in error["details"]["problems"]] == [message.split(":")[0]]
    assert alice.get(f"/v1/tasks/{task}").json()["consolidated"] is False
    assert _scalar(driver, "MATCH (c:TierChange) RETURN count(c)") == 0
    # stated, it runs
    assert sleep(admin, dry_run=False)["counts"]["tasks"] == 1


def test_a_real_sleep_runs_at_the_present_only(apis: dict[str, Api], clock: ShiftedClock) -> None:
    now = clock.now().isoformat()
    refused = apis["admin"].post("/v1/sleep", {"now": now})
    assert refused.status_code == 422, refused.text
    assert "dry_run" in refused.json()["error"]["message"]
    assert apis["admin"].post("/v1/sleep", {"now": now, "dry_run": True}).status_code == 200


def test_the_command_line_refuses_a_now_without_dry_run() -> None:
    refused = _cli("--now", "2031-01-01T00:00:00Z")
    _, err = refused.communicate(timeout=60)
    assert refused.returncode == 2 and b"--now only with --dry-run" in err
    preview = _cli("--dry-run", "--now", "2031-01-01T00:00:00Z", "--json")
    out, err = preview.communicate(timeout=120)
    assert preview.returncode == 0, err
    assert b'"dry_run": true' in out


def _runs(api: Api, outcome: str) -> float:
    text = api.client.get("/metrics").text
    for line in text.splitlines():
        if line.startswith(f'tractatus_sleep_runs_total{{outcome="{outcome}"}} '):
            return float(line.split()[-1])
    return 0.0


def test_the_scheduler_sleeps_every_interval_and_skips_a_turn_while_another_runs(
    settings: Settings, driver: Driver
) -> None:
    every = light(settings, sleep_interval=timedelta(seconds=0.3), embedding_model="none")
    driver.execute_query(
        "MERGE (l:SleepLock {id: 'sleep'}) SET l.holder = 'another', l.expires_at = $later",
        later=utcnow() + timedelta(minutes=5),
    )
    try:
        with lifecycle_server(every, ShiftedClock()) as apis:
            api = apis["public"]
            skipped = _runs(api, "running")
            deadline = time.monotonic() + 30
            while _runs(api, "running") < skipped + 2:
                assert time.monotonic() < deadline, "no scheduled sleep found the lock taken"
                time.sleep(0.1)
            driver.execute_query("MATCH (l:SleepLock {id: 'sleep'}) SET l.holder = null")
            done = _runs(api, "done")
            while _runs(api, "done") < done + 2:
                assert time.monotonic() < deadline, "no scheduled sleep ran"
                time.sleep(0.1)
    finally:
        driver.execute_query("MATCH (l:SleepLock {id: 'sleep'}) SET l.holder = null")


def test_a_sleep_consolidates_a_task_ended_without_its_report(
    apis: dict[str, Api], quiet: None, driver: Driver
) -> None:
    """A task ends and consolidates in one transaction; a task marked ended by other means
    (an older version) is consolidated by the next sleep, previewed by a dry run first."""
    alice, admin = apis["alice"], apis["admin"]
    task = new("task")
    body = assertion(new("user"), "likes", "tea", task_id=task)
    fact_id = alice.post("/v1/assertions", body).json()["assertion"]["id"]
    driver.execute_query(
        "MATCH (t:Task {id: $task, owner: 'alice'}) SET t.status = 'ended', t.ended_at = $now",
        task=task,
        now=utcnow(),
    )
    preview = sleep(admin, dry_run=True)
    assert preview["counts"]["tasks"] == 1 and preview["promoted"] == [fact_id]
    assert _scalar(driver, "MATCH (c:TierChange) RETURN count(c)") == 0
    done = sleep(admin)
    assert done["counts"]["tasks"] == 1 and done["promoted"] == [fact_id]
    card = alice.get(f"/v1/tasks/{task}").json()
    assert card["consolidated"] is True and card["counts"]["long"] == 1
    assert sleep(admin)["counts"]["tasks"] == 0
