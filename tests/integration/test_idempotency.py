"""Idempotency keys of POST /v1/assertions (one or a batch) and POST /v1/events: per caller
and per route, the same key and body answer the first answer and write nothing; a different
body is 409; racing twins write once."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from neo4j import Driver

from tests.helpers import Api, assertion, count_nodes, turn

pytestmark = pytest.mark.integration

LABELS = ("Assertion", "Evidence", "Slot", "Event", "Task")


def _counts(driver: Driver) -> dict[str, int]:
    return {label: count_nodes(driver, label) for label in LABELS}


def _post(api: Api, path: str, body: Any, key: str) -> httpx.Response:
    return api.client.post(path, json=body, headers={"Idempotency-Key": key})


def _event(subject: str, action: str = "note") -> dict[str, Any]:
    return {
        "task_id": f"idem-{subject}",
        "actor": "agent:x",
        "action": action,
        "outcome": "success",
        "occurred_at": "2026-06-02T09:00:00Z",
        "before": {},
        "after": {"n": 1},
        "root": True,
        "assertions": [assertion(subject, "tech_stack", "React")],
    }


def _bodies(subject: str) -> dict[str, tuple[str, Any, Any]]:
    """route -> (path, body, a different body)"""
    one = assertion(subject, "tech_stack", "React")
    batch = {"assertions": [one, assertion(subject, "uses", "Vim")]}
    return {
        "assertion": ("/v1/assertions", one, {**one, "object": "Vue"}),
        "batch": ("/v1/assertions", batch, {"assertions": [one]}),
        "event": ("/v1/events", _event(subject), _event(subject, "other")),
    }


@pytest.mark.parametrize("route", ["assertion", "batch", "event"])
def test_the_same_key_and_body_replay_the_first_answer_and_write_nothing(
    api: dict[str, Api], subject: str, driver: Driver, route: str
) -> None:
    path, body, other = _bodies(subject)[route]
    key = f"k-{uuid.uuid4().hex}"
    first = _post(api["alice"], path, body, key)
    assert first.status_code == 201, first.text
    assert first.headers["Idempotent-Replayed"] == "false"
    before = _counts(driver)
    again = _post(api["alice"], path, body, key)
    assert again.status_code == 201, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert _counts(driver) == before
    conflict = _post(api["alice"], path, other, key)
    assert conflict.status_code == 409, conflict.text
    assert conflict.json()["error"]["code"] == "precondition_failed"
    assert conflict.json()["error"]["details"] == {"idempotency_key": key}
    assert _counts(driver) == before
    # another principal's same key is its own key: written, not replayed, no conflict
    theirs = _post(api["bob"], path, other, key)
    assert theirs.status_code == 201, theirs.text
    assert theirs.headers["Idempotent-Replayed"] == "false"


def test_without_a_key_every_request_writes(api: dict[str, Api], subject: str) -> None:
    body = assertion(subject, "uses", "Vim")
    first = api["alice"].post("/v1/assertions", body)
    second = api["alice"].post("/v1/assertions", body)
    assert first.status_code == second.status_code == 201
    assert first.headers["Idempotent-Replayed"] == "false"
    assert first.json()["assertion"]["id"] != second.json()["assertion"]["id"]


def test_a_refused_request_stores_no_key(api: dict[str, Api], subject: str) -> None:
    key = f"k-{uuid.uuid4().hex}"
    bad = assertion(subject, "tech_stack", "React", confidence=7)
    assert _post(api["alice"], "/v1/assertions", bad, key).status_code == 422
    fixed = _post(api["alice"], "/v1/assertions", assertion(subject, "tech_stack", "React"), key)
    assert fixed.status_code == 201, fixed.text
    assert fixed.headers["Idempotent-Replayed"] == "false"


@pytest.mark.parametrize("route", ["assertion", "event"])
def test_racing_twins_write_once(
    api: dict[str, Api], base_url: str, subject: str, driver: Driver, route: str
) -> None:
    path, body, _ = _bodies(subject)[route]
    key = f"k-{uuid.uuid4().hex}"
    headers = {"Authorization": api["alice"].client.headers["Authorization"]}

    def send(_: int) -> httpx.Response:
        with httpx.Client(base_url=base_url, headers=headers, timeout=60) as client:
            return client.post(path, json=body, headers={"Idempotency-Key": key})

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(send, range(8)))
    assert [a.status_code for a in answers] == [201] * 8, [a.text for a in answers]
    assert sorted(a.headers["Idempotent-Replayed"] for a in answers) == ["false"] + ["true"] * 7
    assert len({a.text for a in answers}) == 1
    records, _, _ = driver.execute_query(
        "MATCH (a:Assertion {subject: $s}) RETURN count(a) AS n", s=subject
    )
    assert records[0]["n"] == 1


def test_each_write_route_has_its_own_keys(
    api: dict[str, Api], subject: str, driver: Driver
) -> None:
    """The same key on ``/v1/assertions`` and on ``/v1/events`` answered 409 "already used
    for a different request", while observations kept theirs apart (a database engineer's
    audit): every write route has its own keys now (docs/ingestion.md#idempotency)."""
    key = f"k-{uuid.uuid4().hex}"
    observation = {**turn(f"conv-{subject}", 1, "Mia", "I moved to Lisbon.")}
    del observation["idempotency_key"]
    sent = {
        "/v1/assertions": assertion(subject, "tech_stack", "React"),
        "/v1/events": _event(subject),
        "/v1/observations": observation,
    }
    firsts = {}
    for path, body in sent.items():
        first = _post(api["alice"], path, body, key)
        assert first.status_code == 201, (path, first.text)
        assert first.headers["Idempotent-Replayed"] == "false", path
        firsts[path] = first.json()
    before = _counts(driver)
    for path, body in reversed(sent.items()):
        again = _post(api["alice"], path, body, key)
        assert again.status_code == 201, (path, again.text)
        assert again.headers["Idempotent-Replayed"] == "true", path
        if path != "/v1/observations":  # an observation's answer says it is a replay
            assert again.json() == firsts[path]
    assert _counts(driver) == before


def test_a_key_stored_before_keys_named_their_route_still_replays_on_its_route(
    api: dict[str, Api], subject: str, driver: Driver
) -> None:
    """A request whose key was stored as ``principal + key`` (before the scope named the
    route) is still recognised when it is retried on its route, and only there."""
    key = f"k-{uuid.uuid4().hex}"
    body = assertion(subject, "tech_stack", "React")
    first = _post(api["alice"], "/v1/assertions", body, key)
    assert first.status_code == 201, first.text
    driver.execute_query(
        "MATCH (r:IdempotentRequest {scope: $routed}) SET r.scope = $unrouted",
        routed=f"alice\x1fassertions\x1f{key}",
        unrouted=f"alice\x1f{key}",
    )
    before = _counts(driver)
    again = _post(api["alice"], "/v1/assertions", body, key)
    assert again.headers["Idempotent-Replayed"] == "true", again.text
    assert again.json() == first.json()
    assert _counts(driver) == before
    other = _post(api["alice"], "/v1/events", _event(subject), key)
    assert other.status_code == 201, other.text
    assert other.headers["Idempotent-Replayed"] == "false"
