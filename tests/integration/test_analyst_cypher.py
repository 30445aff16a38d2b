"""Every ```cypher block of docs/analyst-cypher.md runs against seeded data and answers
what the doc says it answers."""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from neo4j import Driver

from graph_schema.entities.names import entity_ref
from tests.helpers import Api, assertion
from tests.integration.test_events_support import at, event, fact, new_task

pytestmark = pytest.mark.integration

DOC = Path(__file__).resolve().parents[2] / "docs" / "analyst-cypher.md"
BLOCK = re.compile(r"```cypher\n(.*?)```", re.DOTALL)
NAME = re.compile(r"^// name: (\w+)\n")


def _blocks() -> dict[str, str]:
    blocks = {}
    for text in BLOCK.findall(DOC.read_text("utf-8")):
        match = NAME.match(text)
        assert match, f"every cypher block starts with '// name: ...': {text[:60]!r}"
        blocks[match.group(1)] = text
    return blocks


QUERIES = _blocks()


def _run(driver: Driver, name: str, **params: Any) -> list[dict[str, Any]]:
    records, _, _ = driver.execute_query(QUERIES[name], **params)
    return [dict(r) for r in records]


@pytest.fixture(scope="module")
def seeded(api: dict[str, Api]) -> dict[str, Any]:
    """A payment that fails on channel A, switches, and succeeds on B (public data)."""
    agent = api["public"]
    task = new_task()
    order = f"order:{uuid.uuid4().hex[:8]}"
    ids: dict[str, str] = {}

    def post(name: str, body: dict[str, Any]) -> None:
        response = agent.post("/v1/events", body)
        assert response.status_code == 201, response.text
        ids[name] = response.json()["event"]["id"]

    post(
        "order",
        event(
            task,
            "create_order",
            at("14:03"),
            goal="restock",
            after={"order": order},
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
    post(
        "fail",
        event(
            task,
            "pay_order",
            at("14:30"),
            caused_by=[ids["order"]],
            outcome="failure",
            before={"payment_channel": "A"},
            after={"payment_status": "timed_out"},
            assertions=[
                fact(
                    order,
                    "payment_status",
                    "timed_out",
                    "timeout",
                    "tool_returned",
                    "tool:payments",
                )
            ],
        ),
    )
    post(
        "switch",
        event(
            task,
            "switch_channel",
            at("14:31"),
            caused_by=[ids["fail"]],
            after={"payment_channel": "B"},
        ),
    )
    post(
        "pay",
        event(
            task,
            "pay_order",
            at("15:00"),
            caused_by=[ids["switch"], ids["order"]],
            after={"payment_status": "succeeded"},
            assertions=[
                fact(order, "payment_status", "succeeded", "paid", "tool_returned", "tool:payments")
            ],
        ),
    )
    return {"task": task, "order": order, "ids": ids}


def test_the_doc_has_the_promised_queries() -> None:
    assert set(QUERIES) == {
        "causal_chain",
        "causal_chain_graph",
        "fact_history",
        "task_failures",
        "why_fact",
        "task_timeline",
        "fact_lifecycle",
        "entity_walk",
        "entity_graph",
        "procedures",
        "procedure_tasks",
    }


def test_causal_chain(driver: Driver, seeded: dict[str, Any]) -> None:
    rows = _run(driver, "causal_chain", event_id=seeded["ids"]["pay"])
    assert [r["action"] for r in rows] == [
        "pay_order",
        "switch_channel",
        "pay_order",
        "create_order",
    ]
    assert sorted(rows[0]["caused_by"]) == ["create_order", "switch_channel"]
    assert rows[2]["outcome"] == "failure" and '"timed_out"' in rows[2]["after"]
    assert rows[0]["wrote"] == [f"{seeded['order']} payment_status = succeeded"]


def test_causal_chain_graph(driver: Driver, seeded: dict[str, Any]) -> None:
    rows = _run(driver, "causal_chain_graph", event_id=seeded["ids"]["pay"])
    ids = seeded["ids"]
    links = {(r["effect"]["id"], r["cause"]["id"]) for r in rows if r["link"] is not None}
    assert links == {
        (ids["pay"], ids["switch"]),
        (ids["pay"], ids["order"]),
        (ids["switch"], ids["fail"]),
        (ids["fail"], ids["order"]),
    }
    assert {r["effect"]["id"] for r in rows} == set(ids.values())


def test_fact_history(driver: Driver, seeded: dict[str, Any]) -> None:
    rows = _run(driver, "fact_history", subject=seeded["order"], predicate="payment_status")
    assert [r["object"] for r in rows] == ["timed_out", "succeeded"]
    assert rows[1]["replaced"] == ["timed_out"] and rows[0]["replaced"] == []
    assert rows[0]["valid_to"] == rows[1]["valid_from"]
    assert [r["written_by_step"] for r in rows] == ["pay_order", "pay_order"]
    assert rows[1]["evidence"] == "paid"


def test_task_failures(driver: Driver, seeded: dict[str, Any]) -> None:
    rows = _run(driver, "task_failures", task_id=seeded["task"])
    assert len(rows) == 1
    [row] = rows
    assert row["action"] == "pay_order" and row["caused_by"] == ["create_order"]
    assert row["roots"] == ["create_order"] and row["led_to"] == ["switch_channel"]
    assert '"B"' not in row["after"] and '"timed_out"' in row["after"]


def test_why_fact(driver: Driver, seeded: dict[str, Any]) -> None:
    rows = _run(driver, "why_fact", subject=seeded["order"], predicate="payment_status")
    assert len(rows) == 1
    assert rows[0]["object"] == "succeeded"
    assert rows[0]["chain"] == [
        "pay_order (success)",
        "switch_channel (success)",
        "pay_order (failure)",
        "create_order (success)",
    ]


def test_task_timeline(driver: Driver, seeded: dict[str, Any]) -> None:
    rows = _run(driver, "task_timeline", task_id=seeded["task"])
    assert [r["action"] for r in rows] == [
        "create_order",
        "pay_order",
        "switch_channel",
        "pay_order",
    ]
    assert {r["goal"] for r in rows} == {"restock"}


def test_fact_lifecycle(driver: Driver, seeded: dict[str, Any], api: dict[str, Api]) -> None:
    before = _run(driver, "fact_lifecycle", subject=seeded["order"], predicate="payment_status")
    assert before and all(r["transitions"] == [] for r in before)
    assert {r["written_tier"] for r in before} == {"short"}
    ended = api["public"].client.post(f"/v1/tasks/{seeded['task']}/end")
    assert ended.status_code == 200, ended.text
    rows = _run(driver, "fact_lifecycle", subject=seeded["order"], predicate="payment_status")
    assert [r["object"] for r in rows] == [r["object"] for r in before]
    assert all(len(r["transitions"]) == 1 for r in rows)
    assert all(r["transitions"][0].startswith("short -> ") for r in rows)


def test_entity_walk(driver: Driver, api: dict[str, Api]) -> None:
    tag = uuid.uuid4().hex[:8]
    alice, acme, berlin = f"user:alice-{tag}", f"Acme {tag}", f"Berlin {tag}"
    written = api["public"].post(
        "/v1/assertions",
        {
            "assertions": [
                assertion(alice, "works_at", acme, valid_from="2026-01-01T00:00:00Z"),
                assertion(acme, "located_in", berlin, valid_from="2026-01-01T00:00:00Z"),
            ]
        },
    )
    assert written.status_code == 201, written.text
    rows = _run(driver, "entity_walk", person=alice)
    assert [(r["person"], r["company"], r["city"]) for r in rows] == [(alice, acme, berlin)]
    assert rows[0]["company_id"] == entity_ref(acme, [])["id"]
    paths = _run(driver, "entity_graph", person=alice)
    assert len(paths) == 1  # the works_at version: Alice's entity and its one assertion


def test_procedures(driver: Driver, api: dict[str, Api]) -> None:
    trigger = f"check_stock_{uuid.uuid4().hex[:8]}"
    for hour in (9, 10, 11):
        task, first = new_task(), None
        for i, action in enumerate((trigger, "reserve", "charge_card")):
            body = event(task, action, at(f"{hour:02d}:0{i}"), caused_by=first)
            response = api["public"].post("/v1/events", body)
            assert response.status_code == 201, response.text
            first = [response.json()["event"]["id"]]
        ended = api["public"].client.post(f"/v1/tasks/{task}/end")  # running ones wait
        assert ended.status_code == 200, ended.text
    assert api["admin"].post("/v1/sleep").status_code == 200
    [row] = _run(driver, "procedures", trigger=trigger)
    assert row["steps"] == [trigger, "reserve", "charge_card"] and row["support"] == 3
    paths = _run(driver, "procedure_tasks", trigger=trigger)
    assert len(paths) == 9  # each task's first step alone, then with one and two steps after


def test_why_fact_answers_a_fact_no_step_wrote(driver: Driver, api: dict[str, Api]) -> None:
    """An operator's trial: a fact written by POST /v1/assertions had no row, though
    GET /v1/facts/why answered it; it is current with an empty chain."""
    subject = f"user:{uuid.uuid4().hex[:8]}"
    written = api["public"].post("/v1/assertions", assertion(subject, "tech_stack", "React"))
    assert written.status_code == 201, written.text
    [row] = _run(driver, "why_fact", subject=subject, predicate="tech_stack")
    assert (row["object"], row["chain"], row["states"]) == ("React", [], [])
