"""Every ```cypher block of docs/analyst-cypher.md runs against seeded data and answers
what the doc says it answers."""

from __future__ import annotations

import re
import uuid
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from neo4j import Driver

from graph_schema.core.timeutil import utcnow
from graph_schema.entities.names import entity_ref
from tests.helpers import Api, assertion
from tests.integration.test_events_support import at, event, fact, new_task

pytestmark = pytest.mark.integration

DOCS = Path(__file__).resolve().parents[2] / "docs"
DOC = DOCS / "analyst-cypher.md"
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
# entities.md's Browser walk, person -> company -> city (its other blocks take an entity id)
[ENTITIES_WALK] = [
    text
    for text in BLOCK.findall((DOCS / "entities.md").read_text("utf-8"))
    if "located_in" in text
]


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
    assert api["admin"].post("/v1/sleep", {"dry_run": False}).status_code == 200
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


def _day(days: int) -> str:
    """Midnight UTC, ``days`` from today (negative: in the past)."""
    now = utcnow() + timedelta(days=days)
    return now.replace(hour=0, minute=0, second=0, microsecond=0).isoformat()


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _written(response: Any) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.text
    body: dict[str, Any] = response.json()
    return body


def _guess(api: Api, subject: str, predicate: str, obj: str) -> None:
    """A low-confidence guess in a task of its own, discarded when the task ends."""
    task = new_task()
    _written(api.post("/v1/tasks", {"task_id": task, "goal": f"guess {predicate}"}))
    guess = assertion(subject, predicate, obj, task_id=task, source_kind="agent_inferred")
    _written(api.post("/v1/assertions", {**guess, "asserted_by": "agent", "confidence": 0.4}))
    assert _written(api.post(f"/v1/tasks/{task}/end"))["discarded"]


def write_copies(api: dict[str, Api]) -> dict[str, str]:
    """A remnant and a restoration, written through the API as a new analyst did: a queue a
    step started 120 days ago, paused for a month 60 days ago (the active version is closed
    and its part after the pause written as a remnant, `remnant_of`); a supplier a step
    looked up, then a guess discarded at its task's end (the supplier's version is written
    again as a restoration, `restored_from`). Public data: the queries see what the API
    shows the `public` principal."""
    agent, tag = api["public"], uuid.uuid4().hex[:8]
    queue, store = f"service:queue-{tag}", f"store:{tag}"

    def step(task: str, action: str, day: int, causes: list[str], said: dict[str, Any]) -> str:
        body = event(task, action, _day(day), caused_by=causes or None, assertions=[said])
        return str(_written(agent.post("/v1/events", body))["event"]["id"])

    def status(subject: str, value: str, **times: str) -> dict[str, Any]:
        return {**fact(subject, "status", value, value, "tool_returned", "tool:ops"), **times}

    task = new_task()
    alert = _written(agent.post("/v1/events", event(task, "alert", _day(-121), goal="queue")))
    started = step(task, "start_queue", -120, [alert["event"]["id"]],
                   status(queue, "active", valid_from=_day(-120)))  # fmt: skip
    step(task, "pause_queue", -60, [started],
         status(queue, "paused", valid_from=_day(-60), valid_to=_day(-30)))  # fmt: skip
    lookup = new_task()
    step(lookup, "lookup_supplier", -10, [], status(store, "supplied by Acme"))
    _written(agent.post(f"/v1/tasks/{lookup}/end"))  # verified: long-term
    _guess(agent, store, "status", "supplied by Bolt")
    return {"queue": queue, "store": store}


def test_why_fact_of_a_remnant_or_a_restoration_is_the_step_of_the_version_it_copies(
    driver: Driver, api: dict[str, Api]
) -> None:
    """A new analyst's trial: why_fact gave a remnant and a restored fact an empty chain (and
    fact_history no step), while GET /v1/facts/why answered the step that wrote the version
    the copy copies, and its chain."""
    slots = write_copies(api)
    for subject, copied in ((slots["queue"], "remnant_of"), (slots["store"], "restored_from")):
        why = _written(api["public"].get("/v1/facts/why", subject=subject, predicate="status"))
        [explained] = why["explanations"]
        assert explained["fact"][copied] is not None  # the current version is a copy
        chain = [f"{e['action']} ({e['outcome']})" for e in explained["chain"]["events"]]
        assert chain[0] == f"{explained['event']['action']} (success)"
        [row] = _run(driver, "why_fact", subject=subject, predicate="status")
        assert (row["object"], row["chain"]) == (explained["fact"]["object"], chain)
        history = _run(driver, "fact_history", subject=subject, predicate="status")
        [copy] = [r for r in history if r["id"] == explained["fact"]["id"]]
        assert copy["copies"] == explained["fact"][copied] and copy["current"]
        assert copy["written_by_step"] == explained["event"]["action"]
    [queue] = _run(driver, "why_fact", subject=slots["queue"], predicate="status")
    assert queue["chain"] == ["start_queue (success)", "alert (success)"]


def test_fact_history_reads_the_tier_the_scope_and_the_closing(
    driver: Driver, api: dict[str, Api]
) -> None:
    """A new analyst's trial: fact_history's rule called a version discarded at its task's
    end current, showed two current versions of a one-valued slot with nothing to tell their
    scopes apart, and had no time for a version closed by a later one."""
    agent, tag = api["public"], uuid.uuid4().hex[:8]
    store, task = f"store:{tag}", new_task()
    level = fact(store, "stock_level", 40, "40 units", "tool_returned", "tool:inventory")
    _written(agent.post("/v1/events", event(task, "count", at("09:00"), assertions=[level])))
    assert _written(agent.post(f"/v1/tasks/{task}/end"))["discarded"]
    [row] = _run(driver, "fact_history", subject=store, predicate="stock_level")
    [version] = _written(agent.get("/v1/facts/history", subject=store, predicate="stock_level"))[
        "versions"
    ]
    assert (row["tier"], row["current"]) == (version["tier"], False) == ("discarded", False)
    assert agent.get("/v1/facts", subject=store, predicate="stock_level").json()["facts"] == []

    person = f"person:nora-{tag}"
    for who, obj, day, access in (
        ("public", "Kestrel", -300, []),
        ("public", "Brightwave", -100, []),
        ("alice", "Quillbyte", -200, ["finance"]),
    ):
        body = assertion(person, "works_at", obj, valid_from=_day(day), access=access)
        _written(api[who].post("/v1/assertions", body))
    rows = {
        r["object"]: r for r in _run(driver, "fact_history", subject=person, predicate="works_at")
    }
    facts = _written(api["carol"].get("/v1/facts", subject=person, predicate="works_at"))["facts"]
    current = {(r["object"], tuple(r["access"])) for r in rows.values() if r["current"]}
    assert (
        current
        == {(f["object"], tuple(f["access"])) for f in facts}
        == {("Brightwave", ()), ("Quillbyte", ("finance",))}
    )
    # Kestrel was closed where Brightwave starts, at Brightwave's record time, not superseded
    history = _written(api["carol"].get("/v1/facts/history", subject=person, predicate="works_at"))
    stored = {v["object"]: v for v in history["versions"]}
    kestrel, brightwave = rows["Kestrel"], rows["Brightwave"]
    assert kestrel["valid_to"] == brightwave["valid_from"] and kestrel["superseded_at"] is None
    assert kestrel["valid_to"].to_native() == _time(stored["Kestrel"]["valid_to"])
    assert kestrel["closed_at"] == brightwave["recorded_at"]
    assert kestrel["closed_at"].to_native() == _time(stored["Brightwave"]["recorded_at"])
    assert brightwave["replaced"] == ["Kestrel"] and not kestrel["current"]


def test_task_failures_names_each_owner_and_a_failed_root_as_its_own_root(
    driver: Driver, api: dict[str, Api]
) -> None:
    """A new analyst's trial: a failed root step was listed with no root (`roots: []`), and
    two owners' tasks of one id were mixed with no column to tell them apart."""
    task = new_task()
    alert = _written(api["public"].post("/v1/events", event(task, "alert_fired", at("10:00"))))
    restart = event(task, "restart_service", at("10:05"), caused_by=[alert["event"]["id"]],
                    outcome="failure")  # fmt: skip
    _written(api["public"].post("/v1/events", restart))
    page = event(task, "page_oncall", at("10:01"), outcome="failure", goal="bob's own incident")
    _written(api["bob"].post("/v1/events", page))
    rows = _run(driver, "task_failures", task_id=task)
    assert {(r["owner"], r["action"], tuple(r["roots"])) for r in rows} == {
        ("public", "restart_service", ("alert_fired",)),
        ("bob", "page_oncall", ("page_oncall",)),
    }
    for row in rows:  # the API agrees: the owner's own task holds the failure, and its roots
        owner = api[row["owner"]]
        timeline = _written(owner.get(f"/v1/tasks/{task}/timeline", owner=row["owner"]))
        assert row["id"] in {e["id"] for e in timeline["events"]}
        chain = _written(owner.get(f"/v1/events/{row['id']}/chain"))
        effects = {edge["from"] for edge in chain["edges"]}
        assert row["roots"] == [e["action"] for e in chain["events"] if e["id"] not in effects]
    owners = {(r["owner"], r["goal"]) for r in _run(driver, "task_timeline", task_id=task)}
    assert ("bob", "bob's own incident") in owners and {o for o, _ in owners} == {"bob", "public"}


def test_entity_walk_is_where_people_work_now_as_the_api_reads_it(
    driver: Driver, api: dict[str, Api]
) -> None:
    """A new analyst's trial: entity_walk listed a discarded guess and a job announced for
    next year as current employers, entities.md's walk every earlier job and address too,
    and entity_graph an earlier job; GET /v1/facts left all of these out."""
    agent, tag = api["public"], uuid.uuid4().hex[:8]
    nora, omar, zoe = (f"person:{name}-{tag}" for name in ("nora", "omar", "zoe"))
    kestrel, bright, quill = (f"{name} {tag}" for name in ("Kestrel", "Brightwave", "Quillbyte"))
    for subject, predicate, obj, day in (
        (kestrel, "located_in", f"Tartu {tag}", -400),
        (bright, "located_in", f"Lisbon {tag}", -400),
        (bright, "located_in", f"Porto {tag}", -50),  # the company moved
        (quill, "located_in", f"Riga {tag}", -400),
        (nora, "works_at", kestrel, -300),
        (nora, "works_at", bright, -100),  # closes Kestrel
        (omar, "works_at", kestrel, -200),
        (omar, "works_at", quill, 365),  # next year
    ):
        _written(
            agent.post("/v1/assertions", assertion(subject, predicate, obj, valid_from=_day(day)))
        )
    _guess(agent, zoe, "works_at", quill)

    def read(subject: str, predicate: str) -> list[str]:
        facts = _written(agent.get("/v1/facts", subject=subject, predicate=predicate))["facts"]
        return [f["object"] for f in facts]

    def api_walk(person: str) -> set[tuple[str, str, str]]:
        return {
            (person, c, city) for c in read(person, "works_at") for city in read(c, "located_in")
        }

    expected = {(nora, bright, f"Porto {tag}"), (omar, kestrel, f"Tartu {tag}")}
    assert api_walk(nora) | api_walk(omar) | api_walk(zoe) == expected
    for person in (nora, omar, zoe):
        rows = _run(driver, "entity_walk", person=person)
        assert {(r["person"], r["company"], r["city"]) for r in rows} == api_walk(person)
    records, _, _ = driver.execute_query(ENTITIES_WALK)
    walked = [(r["person"], r["company"], r["city"]) for r in records if r["person"].endswith(tag)]
    assert sorted(walked) == sorted(expected)  # once each
    drawn = _run(driver, "entity_graph", person=nora)
    assert [path["p"].end_node["object"] for path in drawn] == [bright]


def _expansions(plan: dict[str, Any]) -> list[str]:
    own = [plan["operatorType"]] if "VarLengthExpand" in plan["operatorType"] else []
    return own + [op for child in plan.get("children", []) for op in _expansions(child)]


def var_length_expansions(driver: Driver, query: str) -> list[str]:
    """The var-length expansion operators of a query's plan (EXPLAIN: nothing runs)."""
    params = dict.fromkeys(("event_id", "task_id", "subject", "predicate"), "x")
    _, summary, _ = driver.execute_query("EXPLAIN " + query, parameters_=params)
    assert summary.plan is not None
    return _expansions(summary.plan)


@pytest.mark.parametrize(
    "name", ["causal_chain", "causal_chain_graph", "task_failures", "why_fact"]
)
def test_chain_queries_visit_each_step_once(driver: Driver, name: str) -> None:
    """A new analyst's trial: task_failures and why_fact enumerated every path of a DAG
    (2^22 paths: minutes, where the API took a fifth of a second) before DISTINCT. A
    var-length expansion followed at once by DISTINCT end nodes is planned with pruning:
    each step visited once. Every var-length expansion of these queries must be one."""
    expansions = var_length_expansions(driver, QUERIES[name])
    assert expansions and all(op.startswith("VarLengthExpand(Pruning") for op in expansions), (
        expansions
    )


def test_why_fact_and_task_failures_on_a_dag_list_each_step_once_as_the_api(
    driver: Driver, api: dict[str, Api]
) -> None:
    """Six diamond levels (64 paths) between a root and a failed deploy: each step once, in
    the API's order."""
    agent, task, minute = api["public"], new_task(), iter(range(60))
    subject = f"service:dag-{uuid.uuid4().hex[:8]}"

    def step(action: str, causes: list[str] | None, **extra: Any) -> str:
        body = event(task, action, at(f"11:{next(minute):02d}"), caused_by=causes, **extra)
        return str(_written(agent.post("/v1/events", body))["event"]["id"])

    level = [step("start", None, goal="dag")]
    for i in range(1, 7):
        level = [step(f"step{i}{side}", level) for side in "ab"]
    broken = fact(subject, "status", "broken", "deploy failed", "tool_returned", "tool:ci")
    step("deploy", [step("finish", level)], outcome="failure", assertions=[broken])
    why = _written(agent.get("/v1/facts/why", subject=subject, predicate="status", max_depth=100))
    events = why["explanations"][0]["chain"]["events"]
    [row] = _run(driver, "why_fact", subject=subject, predicate="status")
    assert row["chain"] == [f"{e['action']} ({e['outcome']})" for e in events]
    assert len(row["chain"]) == 15
    [failure] = _run(driver, "task_failures", task_id=task)
    assert (failure["action"], failure["roots"]) == ("deploy", ["start"])
