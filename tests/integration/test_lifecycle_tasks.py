"""Tasks over HTTP: owned, bounded, ended once (20 at a time), closed to later writes, seen
only by those who may, and pins. Bad input gets a 4xx in the one error shape and writes
nothing."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from neo4j import Driver

from server.settings import Settings
from tests.conftest import KEYS, Api, assertion
from tests.fakes import ShiftedClock
from tests.integration.lifecycle_helpers import (
    at,
    created,
    end,
    facts,
    history,
    lifecycle_server,
    light,
    new,
    snapshot,
    tier_changes,
)
from tests.integration.test_events_support import event

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def apis(settings: Settings, driver: Driver) -> Iterator[dict[str, Api]]:
    with lifecycle_server(light(settings), ShiftedClock()) as apis:
        yield apis


def _counts(driver: Driver) -> dict[str, int]:
    records, _, _ = driver.execute_query(
        "UNWIND ['Assertion', 'Evidence', 'Event', 'Observation', 'Task', 'TierChange'] AS l "
        "CALL (l) { MATCH (n) WHERE l IN labels(n) RETURN count(n) AS c } RETURN l, c"
    )
    return {r["l"]: r["c"] for r in records}


def _error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {
        "code",
        "message",
        "details",
        "request_id",
    }
    assert body["error"]["code"] == code, body
    return body


def test_working_memory_is_bounded_and_the_oldest_promotable_go_first(
    settings: Settings, driver: Driver
) -> None:
    small = light(settings, working_memory_bound=3, access_log=False, embedding_model="none")
    with lifecycle_server(small, ShiftedClock()) as apis:
        alice = apis["alice"]
        task, subject = new("task"), new("user")

        def guess(n: int) -> dict[str, Any]:
            body = assertion(subject, "likes", f"guess {n}", task_id=task, confidence=0.5)
            return created(alice, {**body, "source_kind": "agent_inferred"})

        written = [guess(0)]
        for n in range(5):
            written.append(created(alice, assertion(subject, "likes", f"tea {n}", task_id=task)))
        written.append(guess(1))
        memory = [w["working_memory"] for w in written]
        assert [m["count"] for m in memory] == [1, 2, 3, 4, 5, 6, 7]
        assert [m["over_bound"] for m in memory] == [False] * 3 + [True] * 4
        assert {m["bound"] for m in memory} == {3}
        ids = [w["assertion"]["id"] for w in written]
        report = end(alice, task)
    # 5 promotable, bound 3: the two oldest promotable go; the guesses go as unverified
    assert report["reasons"] == {
        ids[0]: "unverified",
        ids[1]: "over_bound",
        ids[2]: "over_bound",
        ids[3]: "verified",
        ids[4]: "verified",
        ids[5]: "verified",
        ids[6]: "unverified",
    }
    assert report["promoted"] == ids[3:6]


def _task_with(api: Api, n: int) -> tuple[str, list[str]]:
    task, subject = new("task"), new("user")
    bodies = [assertion(subject, "likes", f"thing {i}", task_id=task) for i in range(n)]
    response = api.post("/v1/assertions", {"assertions": bodies})
    assert response.status_code == 201, response.text
    return task, [r["assertion"]["id"] for r in response.json()["results"]]


def test_ending_again_answers_the_same_report_and_writes_nothing(
    apis: dict[str, Api], driver: Driver
) -> None:
    task, ids = _task_with(apis["alice"], 3)
    first = end(apis["alice"], task)
    assert sorted(first["promoted"]) == sorted(ids)
    before = snapshot(driver)
    assert end(apis["alice"], task) == first
    assert snapshot(driver) == before


def test_twenty_concurrent_ends_consolidate_once(apis: dict[str, Api], driver: Driver) -> None:
    task, ids = _task_with(apis["alice"], 6)
    url = str(apis["alice"].client.base_url)
    clients = [Api(url, KEYS["alice"]) for _ in range(20)]
    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(lambda api: api.client.post(f"/v1/tasks/{task}/end"), clients))
    assert {a.status_code for a in answers} == {200}
    assert len({a.text for a in answers}) == 1
    assert all(rules == ["verified"] for rules in tier_changes(driver, ids).values())


def test_writes_into_an_ended_task_are_refused_and_write_nothing(
    apis: dict[str, Api], driver: Driver
) -> None:
    alice, bob = apis["alice"], apis["bob"]
    task, _ = _task_with(alice, 1)
    end(alice, task)
    before = _counts(driver)
    subject = new("user")
    refused = [
        alice.post("/v1/assertions", assertion(subject, "likes", "late", task_id=task)),
        alice.post("/v1/events", event(task, "late_step", at(40))),
        alice.post(
            "/v1/observations",
            {
                "text": "I like late tea.",
                "speaker": subject,
                "occurred_at": at(41),
                "source_kind": "user_stated",
                "task_id": task,
                "idempotency_key": uuid.uuid4().hex,
            },
        ),
        alice.post("/v1/tasks", {"task_id": task}),
    ]
    for response in refused:
        assert _error(response, 409, "task_ended")["error"]["details"] == {"task_id": task}
    assert _counts(driver) == before
    # the same id names bob's own task: his write goes there, and learns nothing of alice's
    mine = created(bob, assertion(subject, "likes", "tea", task_id=task))
    assert mine["working_memory"] == {
        "task_id": task,
        "count": 1,
        "bound": 1000,
        "over_bound": False,
    }


def test_a_write_racing_the_end_is_consolidated_or_refused(
    apis: dict[str, Api], driver: Driver
) -> None:
    url = str(apis["alice"].client.base_url)
    task, subject = new("task"), new("user")
    accepted: list[str] = []
    statuses: list[int] = []
    lock = threading.Lock()

    def writer(n: int) -> None:
        api = Api(url, KEYS["alice"])
        for i in range(12):
            body = assertion(subject, "likes", f"thing {n}-{i}", task_id=task)
            response = api.post("/v1/assertions", body)
            with lock:
                statuses.append(response.status_code)
                if response.status_code == 201:
                    accepted.append(response.json()["assertion"]["id"])

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    while True:
        with lock:
            if len(accepted) >= 10:
                break
        time.sleep(0.01)
    report = end(apis["alice"], task)
    for thread in threads:
        thread.join()
    assert set(statuses) == {201, 409}  # some went in before the end, some were refused
    assert sorted([*report["promoted"], *report["discarded"]]) == sorted(accepted)
    assert all(len(rules) == 1 for rules in tier_changes(driver, accepted).values())
    assert end(apis["alice"], task) == report


def test_tasks_are_owned_and_hidden_ones_do_not_exist(apis: dict[str, Api]) -> None:
    alice, bob, carol, admin = apis["alice"], apis["bob"], apis["carol"], apis["admin"]
    secret, open_ = new("task"), new("task")
    started = alice.post("/v1/tasks", {"task_id": secret, "goal": "quarter", "access": ["finance"]})
    assert started.status_code == 201, started.text
    assert started.json()["status"] == "open" and started.json()["owner"] == "alice"
    again = alice.post("/v1/tasks", {"task_id": secret, "goal": "quarter", "access": ["finance"]})
    assert again.status_code == 200 and again.json()["id"] == secret
    _error(alice.post("/v1/tasks", {"task_id": secret, "goal": "other"}), 409, "task_conflict")
    subject = new("user")
    created(alice, assertion(subject, "likes", "public thing", task_id=open_))
    created(alice, assertion(subject, "likes", "hidden", task_id=open_, access=["finance"]))

    hidden = bob.get(f"/v1/tasks/{secret}", owner="alice")
    unknown = bob.get(f"/v1/tasks/{new('task')}", owner="alice")
    assert hidden.status_code == unknown.status_code == 404
    assert hidden.json()["error"]["message"] == unknown.json()["error"]["message"]
    assert bob.get(f"/v1/tasks/{secret}").status_code == 404  # bob has no task of that id
    ended_hidden = bob.client.post(f"/v1/tasks/{secret}/end", params={"owner": "alice"})
    assert ended_hidden.status_code == 404
    assert carol.get(f"/v1/tasks/{secret}", owner="alice").json()["goal"] == "quarter"
    _error(
        carol.client.post(f"/v1/tasks/{secret}/end", params={"owner": "alice"}), 403, "forbidden"
    )
    assert (
        admin.client.post(f"/v1/tasks/{secret}/end", params={"owner": "alice"}).status_code == 404
    )

    # counts are over what the caller may read
    assert alice.get(f"/v1/tasks/{open_}").json()["counts"]["short"] == 2
    assert bob.get(f"/v1/tasks/{open_}", owner="alice").json()["counts"]["short"] == 1
    # an admin may end a task of someone else it can see; the report names what it may read
    report = end(admin, open_, owner="alice")
    assert len(report["promoted"]) == 1 and report["owner"] == "alice"
    assert len(end(alice, open_)["promoted"]) == 2


def test_the_timeline_spans_writers_and_owner_narrows_it(apis: dict[str, Api]) -> None:
    alice, carol = apis["alice"], apis["carol"]
    task = new("task")
    first = alice.post("/v1/events", event(task, "plan", at(50), goal="ship it")).json()
    assert first["working_memory"]["task_id"] == task
    second = carol.post(
        "/v1/events", event(task, "review", at(51), caused_by=[first["event"]["id"]])
    ).json()
    every = alice.get(f"/v1/tasks/{task}/timeline").json()
    assert [e["id"] for e in every["events"]] == [first["event"]["id"], second["event"]["id"]]
    assert every["task"]["goal"] == "ship it"
    carols = alice.get(f"/v1/tasks/{task}/timeline", owner="carol").json()
    assert [e["id"] for e in carols["events"]] == [second["event"]["id"]]
    assert carols["task"]["goal"] is None
    # each writer has its own task of that id
    assert alice.get(f"/v1/tasks/{task}").json()["owner"] == "alice"
    assert carol.get(f"/v1/tasks/{task}").json()["owner"] == "carol"


def test_the_timeline_of_a_task_without_steps_is_its_card(apis: dict[str, Api]) -> None:
    # a new user's trial: the caller's own task, started, answered not_found as for no task
    carol = apis["carol"]
    task = new("task")
    assert carol.post("/v1/tasks", {"task_id": task, "goal": "carol goal"}).status_code == 201
    empty = carol.get(f"/v1/tasks/{task}/timeline").json()
    assert empty["status"] == "answered"
    assert empty["events"] == [] and empty["truncated"] is False
    assert empty["task"]["goal"] == "carol goal"
    unknown = carol.get(f"/v1/tasks/{new('task')}/timeline").json()
    assert unknown["status"] == "not_found" and unknown["task"] is None


def test_pins_by_the_writer_or_an_admin(apis: dict[str, Api]) -> None:
    alice, bob, carol, admin = apis["alice"], apis["bob"], apis["carol"], apis["admin"]
    subject = new("user")
    public = created(alice, assertion(subject, "lives_in", "Rome"))["assertion"]["id"]
    hidden = created(alice, assertion(subject, "likes", "x", access=["finance"]))["assertion"]["id"]
    pin = alice.post(f"/v1/assertions/{public}/pin").json()
    assert pin["pinned"] is True and pin["changed"] is True and pin["at"]
    assert alice.post(f"/v1/assertions/{public}/pin").json()["changed"] is False
    _error(bob.post(f"/v1/assertions/{public}/pin"), 403, "forbidden")
    _error(carol.post(f"/v1/assertions/{hidden}/unpin"), 403, "forbidden")
    hidden_pin = bob.post(f"/v1/assertions/{hidden}/pin")
    unknown_pin = bob.post("/v1/assertions/01HZZZZZZZZZZZZZZZZZZZZZZZ/pin")
    assert hidden_pin.status_code == unknown_pin.status_code == 404
    assert hidden_pin.json()["error"]["message"] == unknown_pin.json()["error"]["message"]
    assert admin.post(f"/v1/assertions/{public}/unpin").json()["changed"] is True
    [version] = history(alice, subject, "lives_in")
    assert [(t["change"], t["to"], t["rule"]) for t in version["transitions"]] == [
        ("pin", "pinned", "pin"),
        ("pin", "unpinned", "unpin"),
    ]
    assert facts(alice, subject, "lives_in")["facts"][0]["tier"] == "long"


@pytest.mark.parametrize(
    ("method", "path", "body", "params", "status"),
    [
        ("POST", "/v1/tasks", {}, None, 422),
        ("POST", "/v1/tasks", {"task_id": ""}, None, 422),
        ("POST", "/v1/tasks", {"task_id": "t", "extra": 1}, None, 422),
        ("POST", "/v1/tasks", {"task_id": "t", "access": ["no spaces"]}, None, 422),
        ("POST", "/v1/tasks", {"task_id": "t", "goal": ""}, None, 422),
        ("POST", "/v1/tasks", {"task_id": 7}, None, 422),
        ("POST", "/v1/tasks", {"task_id": "t", "access": ["sales"]}, None, 403),
        ("GET", "/v1/tasks/x", None, {"owner": ""}, 422),
        ("GET", "/v1/tasks/" + "x" * 513, None, None, 422),
        ("POST", "/v1/tasks/x/end", None, {"owner": ""}, 422),
        ("POST", "/v1/tasks/never-started/end", None, None, 404),
        ("POST", "/v1/assertions/" + "X" * 65 + "/pin", None, None, 422),
        ("POST", "/v1/sleep", {}, None, 403),
    ],
)
def test_bad_input_is_refused_and_writes_nothing(
    apis: dict[str, Api],
    driver: Driver,
    method: str,
    path: str,
    body: Any,
    params: Any,
    status: int,
) -> None:
    before = _counts(driver)
    response = apis["alice"].client.request(method, path, json=body, params=params)
    codes = {403: "forbidden", 404: "not_found", 422: "invalid_request"}
    _error(response, status, codes[status])
    assert _counts(driver) == before


def test_an_event_naming_another_goal_than_its_tasks_is_refused(apis: dict[str, Api]) -> None:
    """A new agent developer's trial: an event's goal started the task, and a later event's
    other goal was dropped without a word (201). It is refused as a start with another goal
    is (409 task_conflict), nothing written; the same goal, or none, is written."""
    alice, task = apis["alice"], f"goal-{uuid.uuid4().hex[:8]}"
    first = alice.post("/v1/events", event(task, "s1", "2026-12-06T12:00:00Z", goal="goal A"))
    assert first.status_code == 201, first.text
    cause = [first.json()["event"]["id"]]
    other = event(task, "s2", "2026-12-06T12:01:00Z", caused_by=cause, goal="goal B")
    error = _error(alice.post("/v1/events", other), 409, "task_conflict")
    assert error["error"]["details"]["goal"] == "goal A"
    timeline = alice.get(f"/v1/tasks/{task}/timeline").json()
    assert [e["action"] for e in timeline["events"]] == ["s1"]
    same = event(task, "s2", "2026-12-06T12:01:00Z", caused_by=cause, goal="goal A")
    assert alice.post("/v1/events", same).status_code == 201
    bare = event(task, "s3", "2026-12-06T12:02:00Z", caused_by=cause)
    assert alice.post("/v1/events", bare).status_code == 201
    assert alice.get(f"/v1/tasks/{task}").json()["goal"] == "goal A"


def test_steps_writing_facts_into_one_task_at_once_all_land(apis: dict[str, Api]) -> None:
    """A new agent developer's trial: 40 steps, each writing one fact, sent at once into one
    task deadlocked on the Task (MERGE's shared lock, then the write lock) and 11 answered
    503 after the driver's retries; the tasks are locked first now."""
    url = str(apis["alice"].client.base_url)
    task, subject = new("task"), new("order")
    first = apis["alice"].post("/v1/events", event(task, "start", "2026-01-05T12:00:00Z"))
    assert first.status_code == 201, first.text

    def step(i: int) -> int:
        body = event(task, f"step {i}", "2026-01-05T12:01:00Z")
        body["assertions"] = [assertion(f"{subject}-{i}", "status", "ok")]
        return Api(url, KEYS["alice"]).post("/v1/events", body).status_code

    with ThreadPoolExecutor(max_workers=20) as pool:
        statuses = list(pool.map(step, range(40)))
    assert statuses == [201] * 40
    timeline = apis["alice"].get(f"/v1/tasks/{task}/timeline", limit=100).json()
    assert len(timeline["events"]) == 41


def test_a_task_started_by_a_write_takes_the_first_goal_given_to_it(apis: dict[str, Api]) -> None:
    """A new agent builder's trial: a task started by an assertion (no goal) could never get
    one: a later event or start with a goal answered 409 "exists with another goal", goal
    null. The first goal given sets it, once; another one after it stays a conflict."""
    alice = apis["alice"]
    by_start, by_event, subject = new("task"), new("task"), new("user")
    for task in (by_start, by_event):
        created(alice, assertion(subject, "likes", "tea", task_id=task, access=["finance"]))
        assert alice.get(f"/v1/tasks/{task}").json()["goal"] is None

    started = alice.post(
        "/v1/tasks", {"task_id": by_start, "goal": "audit tea", "access": ["finance"]}
    )
    assert started.status_code == 200, started.text
    assert started.json()["goal"] == "audit tea"
    again = alice.post(
        "/v1/tasks", {"task_id": by_start, "goal": "audit tea", "access": ["finance"]}
    )
    assert again.status_code == 200, again.text
    other = alice.post("/v1/tasks", {"task_id": by_start, "goal": "other", "access": ["finance"]})
    assert _error(other, 409, "task_conflict")["error"]["details"]["goal"] == "audit tea"
    # a start naming another access sets nothing
    wider = alice.post("/v1/tasks", {"task_id": by_event, "goal": "wrong"})
    assert _error(wider, 409, "task_conflict")["error"]["details"]["goal"] is None

    first = alice.post("/v1/events", event(by_event, "s1", "2026-12-06T12:00:00Z", goal="goal A"))
    assert first.status_code == 201, first.text
    assert alice.get(f"/v1/tasks/{by_event}").json()["goal"] == "goal A"
    cause = [first.json()["event"]["id"]]
    later = event(by_event, "s2", "2026-12-06T12:01:00Z", caused_by=cause, goal="goal B")
    assert (
        _error(alice.post("/v1/events", later), 409, "task_conflict")["error"]["details"]["goal"]
        == "goal A"
    )
    assert alice.get(f"/v1/tasks/{by_event}/timeline").json()["task"]["goal"] == "goal A"


def test_the_working_memory_count_of_a_card_means_the_same_for_every_caller(
    apis: dict[str, Api],
) -> None:
    """A new agent builder's trial: the card's ``working_memory.count`` was every assertion
    ever written for the owner, and the working ones it may read for anyone else (0 after
    the end). For every caller it is the task's working assertions it may read now."""
    alice, bob = apis["alice"], apis["bob"]
    task, subject = new("task"), new("user")
    assert alice.post("/v1/tasks", {"task_id": task}).status_code == 201
    created(alice, assertion(subject, "likes", "tea", task_id=task))
    for drink in ("coffee", "juice"):
        created(alice, assertion(subject, "likes", drink, task_id=task, access=["finance"]))

    cards = {
        name: api.get(f"/v1/tasks/{task}", owner="alice").json()
        for name, api in (("alice", alice), ("bob", bob))
    }
    for name, card in cards.items():
        assert card["working_memory"]["count"] == card["counts"]["short"], name
    assert (cards["alice"]["working_memory"]["count"], cards["bob"]["working_memory"]["count"]) == (
        3,
        1,
    )

    end(alice, task)
    for api in (alice, bob):
        card = api.get(f"/v1/tasks/{task}", owner="alice").json()
        assert card["status"] == "ended"
        assert card["working_memory"]["count"] == card["counts"]["short"] == 0
    assert alice.get(f"/v1/tasks/{task}").json()["counts"]["long"] == 3
