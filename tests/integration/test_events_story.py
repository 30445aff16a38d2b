"""The restock story end to end over HTTP: steps with causes and assertions, then `why`."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.helpers import Api
from tests.integration.test_events_support import at, event, fact, new_task

pytestmark = pytest.mark.integration


def _post(api: Api, body: dict[str, Any]) -> dict[str, Any]:
    response = api.post("/v1/events", body)
    assert response.status_code == 201, response.text
    return response.json()


@pytest.fixture
def story(api: dict[str, Api]) -> dict[str, Any]:
    """Write the restock story as the public agent; return ids and subjects."""
    agent = api["public"]
    task = new_task()
    store = f"store:east-{uuid.uuid4().hex[:8]}"
    order = f"order:{uuid.uuid4().hex[:8]}"
    said = "the east-side store needs restocking"
    asked = _post(
        agent,
        event(
            task,
            "request_restock",
            at("14:00"),
            actor="user:dana",
            goal="restock the east store",
            after={"needs_restock": True},
            assertions=[fact(store, "needs_restock", True, said, "user_stated", "user:dana")],
        ),
    )
    looked = _post(
        agent,
        event(
            task,
            "lookup_stock",
            at("14:01"),
            caused_by=[asked["event"]["id"]],
            before={"stock_level": None},
            after={"stock_level": 80, "safety_stock": 100},
            assertions=[
                fact(store, "stock_level", 80, "stock: 80", "tool_returned", "tool:inventory"),
                fact(store, "safety_stock", 100, "safety: 100", "tool_returned", "tool:inventory"),
            ],
        ),
    )
    decided = _post(
        agent,
        event(
            task,
            "decide_restock",
            at("14:02"),
            caused_by=[looked["event"]["id"]],
            before={"stock_level": 80, "safety_stock": 100},
            after={"decision": "restock"},
        ),
    )
    created = _post(
        agent,
        event(
            task,
            "create_order",
            at("14:03"),
            caused_by=[decided["event"]["id"]],
            before={"order": None},
            after={"order": order, "order_status": "created"},
            assertions=[
                fact(
                    order,
                    "order_status",
                    "created",
                    "order created",
                    "tool_returned",
                    "tool:orders",
                )
            ],
        ),
    )
    failed = _post(
        agent,
        event(
            task,
            "pay_order",
            at("14:30"),
            caused_by=[created["event"]["id"]],
            outcome="failure",
            before={"payment_status": "pending", "payment_channel": "A"},
            after={"payment_status": "timed_out", "payment_channel": "A"},
            assertions=[
                fact(
                    order,
                    "payment_status",
                    "timed_out",
                    "channel A: timeout",
                    "tool_returned",
                    "tool:payments",
                )
            ],
        ),
    )
    switched = _post(
        agent,
        event(
            task,
            "switch_channel",
            at("14:31"),
            caused_by=[failed["event"]["id"]],
            before={"payment_channel": "A"},
            after={"payment_channel": "B"},
            assertions=[
                fact(
                    order,
                    "payment_channel",
                    "B",
                    "switching to channel B",
                    "agent_inferred",
                    "agent",
                )
            ],
        ),
    )
    paid = _post(
        agent,
        event(
            task,
            "pay_order",
            at("15:00"),
            caused_by=[switched["event"]["id"], created["event"]["id"]],
            before={"payment_status": "timed_out", "payment_channel": "B"},
            after={"payment_status": "succeeded", "payment_channel": "B"},
            assertions=[
                fact(
                    order,
                    "payment_status",
                    "succeeded",
                    "channel B: paid",
                    "tool_returned",
                    "tool:payments",
                )
            ],
        ),
    )
    steps = [asked, looked, decided, created, failed, switched, paid]
    return {
        "task": task,
        "store": store,
        "order": order,
        "ids": [s["event"]["id"] for s in steps],
        "steps": steps,
    }


def test_the_write_answers_with_the_event_and_its_assertions(story: dict[str, Any]) -> None:
    looked = story["steps"][1]
    assert looked["event"]["caused_by"] == [story["ids"][0]]
    assert looked["event"]["after"] == {"stock_level": 80, "safety_stock": 100}
    assert looked["event"]["occurred_at"].startswith(at("14:01")[:19])
    written = {r["assertion"]["predicate"]: r["assertion"] for r in looked["assertions"]}
    assert written["stock_level"]["object"] == "80"
    assert written["stock_level"]["task_id"] == story["task"]  # the step's task by default
    assert written["stock_level"]["valid_from"].startswith(at("14:01")[:19])
    paid = story["steps"][6]
    assert (
        paid["assertions"][0]["superseded"] == story["steps"][4]["assertions"][0]["assertion"]["id"]
    )
    # one transaction, one record time: the step and every fact it wrote (a new user's trial:
    # the step was recorded before its facts, so a read known at its time missed them)
    for step in story["steps"]:
        times = {r["assertion"]["recorded_at"] for r in step["assertions"]}
        assert times <= {step["event"]["recorded_at"]}, step["event"]["action"]


def test_why_replays_the_whole_chain_back_to_the_user(
    api: dict[str, Api], story: dict[str, Any]
) -> None:
    answer = (
        api["public"]
        .get("/v1/facts/why", subject=story["order"], predicate="payment_status")
        .json()
    )
    assert answer["status"] == "answered"
    [explanation] = answer["explanations"]
    assert explanation["fact"]["object"] == "succeeded"
    assert explanation["event"]["id"] == story["ids"][6]
    chain = explanation["chain"]
    asked, looked, decided, created, failed, switched, paid = story["ids"]
    assert [e["id"] for e in chain["events"]] == [
        paid,
        switched,
        failed,
        created,
        decided,
        looked,
        asked,
    ]
    assert [e["action"] for e in chain["events"]] == [
        "pay_order",
        "switch_channel",
        "pay_order",
        "create_order",
        "decide_restock",
        "lookup_stock",
        "request_restock",
    ]
    assert {(e["from"], e["to"]) for e in chain["edges"]} == {
        (paid, switched),
        (paid, created),
        (switched, failed),
        (failed, created),
        (created, decided),
        (decided, looked),
        (looked, asked),
    }
    by_id = {e["id"]: e for e in chain["events"]}
    assert by_id[failed]["outcome"] == "failure"
    assert by_id[failed]["before"] == {"payment_status": "pending", "payment_channel": "A"}
    assert by_id[failed]["after"] == {"payment_status": "timed_out", "payment_channel": "A"}
    assert by_id[failed]["occurred_at"].startswith(at("14:30")[:19])
    assert by_id[failed]["assertions"][0]["quote"] == "channel A: timeout"
    assert by_id[switched]["after"] == {"payment_channel": "B"}
    assert by_id[paid]["occurred_at"].startswith(at("15:00")[:19])
    assert by_id[asked]["actor"] == "user:dana"
    assert by_id[created]["depth"] == 1 and by_id[asked]["depth"] == 4
    produced = {(a["predicate"], a["object"]) for a in by_id[looked]["assertions"]}
    assert produced == {("stock_level", "80"), ("safety_stock", "100")}
    assert [(a["predicate"], a["object"]) for a in by_id[failed]["assertions"]] == [
        ("payment_status", "timed_out")
    ]
    assert chain["truncated"] is False


def test_why_as_of_the_timeout_explains_the_failure(
    api: dict[str, Api], story: dict[str, Any]
) -> None:
    answer = (
        api["public"]
        .get("/v1/facts/why", subject=story["order"], predicate="payment_status", as_of=at("14:45"))
        .json()
    )
    [explanation] = answer["explanations"]
    assert explanation["fact"]["object"] == "timed_out"
    assert explanation["event"]["outcome"] == "failure"
    assert len(explanation["chain"]["events"]) == 5
    assert answer["as_of"].startswith(at("14:45")[:19])


def test_timeline_and_effects(api: dict[str, Api], story: dict[str, Any]) -> None:
    timeline = api["public"].get(f"/v1/tasks/{story['task']}/timeline").json()
    assert timeline["status"] == "answered"
    assert [e["id"] for e in timeline["events"]] == story["ids"]
    assert timeline["task"]["goal"] == "restock the east store"
    assert timeline["task"]["started_at"].startswith(at("14:00")[:19])
    effects = api["public"].get(f"/v1/events/{story['ids'][0]}/chain", direction="effects").json()
    assert [e["id"] for e in effects["events"]] == story["ids"]
    assert effects["events"][-1]["depth"] == 4  # paid <- created <- decided <- looked <- asked


def test_why_status_for_unknown_slots(api: dict[str, Api], story: dict[str, Any]) -> None:
    missing = api["public"].get("/v1/facts/why", subject="order:none", predicate="payment_status")
    assert missing.json()["status"] == "not_found" and missing.json()["explanations"] == []
    unknown = f"unknown_{uuid.uuid4().hex[:8]}"
    scope = api["public"].get("/v1/facts/why", subject=story["order"], predicate=unknown)
    assert scope.json()["status"] == "out_of_scope"


def test_a_fact_written_without_an_event_has_no_chain(api: dict[str, Api], subject: str) -> None:
    """One shape for "no step wrote this": ``null``, in why as in recall (a new user's trial
    found an empty chain object in why and ``null`` in recall for the same fact)."""
    body = fact(subject, "status", "open", "it is open", "user_stated", subject)
    assert api["public"].post("/v1/assertions", body).status_code == 201
    answer = api["public"].get("/v1/facts/why", subject=subject, predicate="status").json()
    assert answer["status"] == "answered"
    [explanation] = answer["explanations"]
    assert explanation["event"] is None and explanation["chain"] is None
    recalled = api["public"].post(
        "/v1/recall", {"query": f"status of {subject}", "filters": {"subject": subject}}
    )
    assert recalled.status_code == 200, recalled.text
    results = recalled.json()["results"]
    [result] = [r for r in results if r["assertion"]["id"] == explanation["fact"]["id"]]
    assert result["chain"] is None
