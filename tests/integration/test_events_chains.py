"""Causal replay over HTTP: a 1,000-step chain, a DAG with fan-in, visibility, timelines."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from neo4j import Driver

from graph_schema.core.types import Principal
from ingest.events import record_event
from server.settings import Settings
from tests.helpers import Api
from tests.integration.test_events_support import at, event, new_task

pytestmark = pytest.mark.integration

LONG = 1_000


def _post(api: Api, body: dict[str, Any]) -> str:
    response = api.post("/v1/events", body)
    assert response.status_code == 201, response.text
    return str(response.json()["event"]["id"])


def _chain(api: Api, event_id: str, **params: Any) -> dict[str, Any]:
    response = api.get(f"/v1/events/{event_id}/chain", **params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    assert body["status"] == "answered"
    return body


@pytest.fixture(scope="module")
def long_chain(driver: Driver, settings: Settings) -> list[str]:
    """1,000 steps written through the library (the same gate and writer as HTTP)."""
    task = new_task()
    start = datetime(2026, 2, 1, tzinfo=UTC)
    principal = Principal(id="public")
    ids: list[str] = []
    for n in range(LONG):
        when = (start + timedelta(seconds=n)).isoformat()
        body = event(
            task,
            f"step-{n}",
            when,
            caused_by=ids[-1:] if ids else None,
            before={"n": n - 1},
            after={"n": n},
        )
        written = record_event(
            driver,
            database=settings.neo4j_database,
            raw=body,
            principal=principal,
            retention=settings.quarantine_retention,
        )
        ids.append(written.value.event.id)
    return ids


def test_a_thousand_steps_replay_in_order(api: dict[str, Api], long_chain: list[str]) -> None:
    body = _chain(api["public"], long_chain[-1])
    assert [e["id"] for e in body["events"]] == long_chain[::-1]
    assert [e["depth"] for e in body["events"]] == list(range(LONG))
    assert [(e["from"], e["to"]) for e in body["edges"]] == [
        (long_chain[n], long_chain[n - 1]) for n in range(LONG - 1, 0, -1)
    ]
    last = body["events"][0]
    assert last["before"] == {"n": LONG - 2} and last["after"] == {"n": LONG - 1}
    assert body["truncated"] is False and body["max_depth"] == 1000


def test_depth_limit_cuts_and_says_so(api: dict[str, Api], long_chain: list[str]) -> None:
    ten = _chain(api["public"], long_chain[-1], max_depth=10)
    assert [e["id"] for e in ten["events"]] == long_chain[-11:][::-1]
    assert len(ten["edges"]) == 10 and ten["truncated"] is True
    exact = _chain(api["public"], long_chain[-1], max_depth=LONG - 1)
    assert len(exact["events"]) == LONG and exact["truncated"] is False
    one_short = _chain(api["public"], long_chain[-1], max_depth=LONG - 2)
    assert len(one_short["events"]) == LONG - 1 and one_short["truncated"] is True
    zero = _chain(api["public"], long_chain[500], max_depth=0)
    assert [e["id"] for e in zero["events"]] == [long_chain[500]] and zero["edges"] == []
    effects = _chain(api["public"], long_chain[0], direction="effects", max_depth=5)
    assert [e["id"] for e in effects["events"]] == long_chain[:6]
    assert effects["truncated"] is True
    capped = _chain(api["public"], long_chain[-1], max_depth=50_000)
    assert capped["max_depth"] == 10_000 and len(capped["events"]) == LONG
    bad = api["public"].get(f"/v1/events/{long_chain[-1]}/chain", max_depth=-1)
    assert bad.status_code == 422
    wrong = api["public"].get(f"/v1/events/{long_chain[-1]}/chain", direction="sideways")
    assert wrong.status_code == 422


@pytest.fixture
def diamond(api: dict[str, Api]) -> dict[str, str]:
    """root -> a, b; c caused by a and b (fan-in); d caused by c; e caused by root and d."""
    api_ = api["public"]
    task = new_task()
    root = _post(api_, event(task, "root", at("10:00")))
    a = _post(api_, event(task, "a", at("10:01"), caused_by=[root]))
    b = _post(api_, event(task, "b", at("10:02"), caused_by=[root]))
    c = _post(api_, event(task, "c", at("10:03"), caused_by=[b, a]))
    d = _post(api_, event(task, "d", at("10:04"), caused_by=[c]))
    e = _post(api_, event(task, "e", at("10:05"), caused_by=[root, d, d]))
    return {"root": root, "a": a, "b": b, "c": c, "d": d, "e": e, "task": task}


def test_fan_in_comes_back_as_a_dag_ordered_by_time(
    api: dict[str, Api], diamond: dict[str, str]
) -> None:
    name = {v: k for k, v in diamond.items()}
    body = _chain(api["public"], diamond["e"])
    assert [name[e["id"]] for e in body["events"]] == ["e", "d", "c", "b", "a", "root"]
    assert {(name[x["from"]], name[x["to"]]) for x in body["edges"]} == {
        ("e", "d"),
        ("e", "root"),
        ("d", "c"),
        ("c", "a"),
        ("c", "b"),
        ("a", "root"),
        ("b", "root"),
    }
    assert len(body["edges"]) == 7  # the repeated cause is linked once
    depth = {name[e["id"]]: e["depth"] for e in body["events"]}
    assert depth == {"e": 0, "d": 1, "root": 1, "c": 2, "a": 3, "b": 3}
    two = _chain(api["public"], diamond["e"], max_depth=2)
    assert [name[e["id"]] for e in two["events"]] == ["e", "d", "c", "root"]
    assert {(name[x["from"]], name[x["to"]]) for x in two["edges"]} == {
        ("e", "d"),
        ("e", "root"),
        ("d", "c"),
    }
    assert two["truncated"] is True
    effects = _chain(api["public"], diamond["a"], direction="effects")
    assert [name[e["id"]] for e in effects["events"]] == ["a", "c", "d", "e"]
    assert {(name[x["from"]], name[x["to"]]) for x in effects["edges"]} == {
        ("c", "a"),
        ("d", "c"),
        ("e", "d"),
    }


def test_a_chain_stops_silently_at_what_the_reader_may_not_see(
    api: dict[str, Api],
) -> None:
    task = new_task()
    secret = _post(api["alice"], event(task, "budget_check", at("09:00"), access=["finance"]))
    shared = _post(
        api["carol"],
        event(task, "approve", at("09:30"), caused_by=[secret], access=["finance", "sales"]),
    )
    sales = _post(
        api["carol"], event(task, "announce", at("10:00"), caused_by=[shared], access=["sales"])
    )
    for_bob = _chain(api["bob"], sales)
    assert [e["id"] for e in for_bob["events"]] == [sales, shared]
    assert for_bob["events"][1]["caused_by"] == []
    assert for_bob["truncated"] is False
    assert "root" not in for_bob["events"][1]
    for_carol = _chain(api["carol"], sales)
    assert [e["id"] for e in for_carol["events"]] == [sales, shared, secret]
    assert for_carol["events"][1]["caused_by"] == [secret]
    for_alice = _chain(api["alice"], shared, direction="effects")
    assert [e["id"] for e in for_alice["events"]] == [shared]
    effects_for_bob = _chain(api["bob"], shared, direction="effects")
    assert [e["id"] for e in effects_for_bob["events"]] == [shared, sales]

    hidden = api["bob"].get(f"/v1/events/{secret}/chain")
    unknown = api["bob"].get("/v1/events/01ZZZZZZZZZZZZZZZZZZZZZZZZ/chain")
    assert hidden.status_code == unknown.status_code == 404
    assert hidden.json()["error"]["code"] == unknown.json()["error"]["code"] == "not_found"
    assert hidden.json()["error"]["message"] == unknown.json()["error"]["message"]
    assert api["public"].get(f"/v1/events/{sales}/chain").status_code == 404
    assert api["bob"].get(f"/v1/events/{secret}").status_code == 404
    assert api["alice"].get(f"/v1/events/{secret}").json()["action"] == "budget_check"


def test_timeline_shows_only_visible_steps(api: dict[str, Api]) -> None:
    task = new_task()
    first = _post(
        api["alice"], event(task, "plan", at("09:00"), access=["finance"], goal="close the quarter")
    )
    second = _post(
        api["carol"],
        event(task, "report", at("09:10"), caused_by=[first], access=["finance", "sales"]),
    )
    third = _post(
        api["alice"], event(task, "archive", at("09:20"), caused_by=[second], access=["finance"])
    )
    alice = api["alice"].get(f"/v1/tasks/{task}/timeline").json()
    assert alice["status"] == "answered"
    assert [e["id"] for e in alice["events"]] == [first, second, third]
    assert alice["task"]["goal"] == "close the quarter"
    bob = api["bob"].get(f"/v1/tasks/{task}/timeline").json()
    assert bob["status"] == "answered" and [e["id"] for e in bob["events"]] == [second]
    # the start bob sees is his first visible step: the hidden first step stays hidden
    assert bob["task"]["goal"] is None
    assert bob["task"]["started_at"] == at("09:10").replace("+00:00", "Z")
    nobody = api["public"].get(f"/v1/tasks/{task}/timeline").json()
    assert nobody["status"] == "not_found" and nobody["events"] == []
    assert nobody["task"] is None
    unknown = api["public"].get("/v1/tasks/task:nope/timeline").json()
    assert {k: v for k, v in unknown.items() if k != "task_id"} == {
        k: v for k, v in nobody.items() if k != "task_id"
    }
    limited = api["alice"].get(f"/v1/tasks/{task}/timeline", limit=2).json()
    assert [e["id"] for e in limited["events"]] == [first, second] and limited["truncated"]


def test_timeline_of_a_task_id_with_slashes(api: dict[str, Api]) -> None:
    task = f"{new_task()}/sub/step"
    only = _post(api["public"], event(task, "go", at("08:00")))
    body = api["public"].get(f"/v1/tasks/{task}/timeline").json()
    assert [e["id"] for e in body["events"]] == [only] and body["task_id"] == task
