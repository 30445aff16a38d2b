"""`tractatus check-chains`: silent on a clean store, loud (exit 1) on broken chains."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from neo4j import Driver

from graph_schema.events import check as chaincheck
from server import cli
from server.settings import Settings
from tests.helpers import Api
from tests.integration.test_events_support import at, event, fact, new_task

pytestmark = pytest.mark.integration

MARK = "check-chains-test"


def _run_cli(capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = cli.main(["check-chains", "--json"])
    return code, json.loads(capsys.readouterr().out)


def _by_kind(report: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    return {f["kind"]: f["sample"] for f in report["findings"]}


@pytest.fixture
def broken(driver: Driver, api: dict[str, Api], fresh_store: None) -> Iterator[dict[str, str]]:
    """Broken states no API call can make, created with raw Cypher and removed afterwards."""
    task = new_task()
    ok = api["public"].post("/v1/events", event(task, "start", at("10:00"))).json()["event"]["id"]
    ids = {
        k: f"{MARK}-{k}-{uuid.uuid4().hex[:8]}"
        for k in ("orphan", "ghost_child", "early", "public_effect", "secret", "assertion")
    }
    driver.execute_query(
        """
        MATCH (ok:Event {id: $ok})
        CREATE (orphan:Event {id: $ids.orphan, task_id: $task, root: false, access: [],
                              occurred_at: datetime(), recorded_at: datetime(), mark: $mark})
        CREATE (ghost:Ghost {mark: $mark})
        CREATE (child:Event {id: $ids.ghost_child, task_id: $task, root: false, access: [],
                             occurred_at: datetime(), recorded_at: datetime(), mark: $mark})
        CREATE (child)-[:CAUSED_BY]->(ghost)
        CREATE (early:Event {id: $ids.early, task_id: $task, root: false, access: [],
                             occurred_at: ok.occurred_at - duration('PT1H'),
                             recorded_at: datetime(), mark: $mark})-[:CAUSED_BY]->(ok)
        CREATE (secret:Event {id: $ids.secret, task_id: $task, root: true, access: ['finance'],
                              occurred_at: ok.occurred_at, recorded_at: datetime(),
                              mark: $mark})
        CREATE (pub:Event {id: $ids.public_effect, task_id: $task, root: false, access: [],
                           occurred_at: datetime(), recorded_at: datetime(), mark: $mark})
        CREATE (pub)-[:CAUSED_BY]->(secret)
        CREATE (a:Assertion {id: $ids.assertion, subject: 'x', predicate: 'status',
                             mark: $mark})-[:CAUSED_BY]->(ghost)
        """,
        ok=ok,
        ids=ids,
        task=task,
        mark=MARK,
    )
    yield ids
    driver.execute_query("MATCH (n {mark: $mark}) DETACH DELETE n", mark=MARK)


def test_a_clean_store_reports_nothing(
    driver: Driver,
    settings: Settings,
    api: dict[str, Api],
    subject: str,
    capsys: pytest.CaptureFixture[str],
    fresh_store: None,
) -> None:
    task = new_task()
    root = (
        api["carol"]
        .post("/v1/events", event(task, "plan", at("09:00"), access=["finance", "sales"]))
        .json()
    )
    api["carol"].post(
        "/v1/events",
        event(
            task,
            "act",
            at("09:05"),
            caused_by=[root["event"]["id"]],
            access=["sales"],
            assertions=[fact(subject, "status", "done", "done", "tool_returned", "tool")],
        ),
    )
    report = chaincheck.check_chains(driver, database=settings.neo4j_database)
    assert report.ok, chaincheck.render(report)
    assert chaincheck.render(report) == "chains ok: no problems found"
    code, body = _run_cli(capsys)
    assert code == 0 and body == {"ok": True, "problems": 0, "findings": [], "notes": []}

    # a public step caused by a step of one group, written through the API: a note, exit 0
    # (a new user's trial: a store written only through the API failed the audit)
    secret = api["alice"].post("/v1/events", event(task, "plan", at("09:10"), access=["finance"]))
    public = api["alice"].post(
        "/v1/events", event(task, "tell", at("09:15"), caused_by=[secret.json()["event"]["id"]])
    )
    assert public.status_code == 201, public.text
    code, body = _run_cli(capsys)
    assert code == 0 and body["ok"] and body["findings"] == []
    assert [n["kind"] for n in body["notes"]] == ["cause_hidden_from_readers"]
    text = chaincheck.render(chaincheck.check_chains(driver, database=settings.neo4j_database))
    assert text.startswith("chains ok: no problems found\nnotes (not problems):")


def test_broken_chains_are_reported(
    broken: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, body = _run_cli(capsys)
    assert code == 1 and body["ok"] is False
    kinds = _by_kind(body)
    # a cause that is not an event is no cause: the ghost's child lacks one too
    assert {p["event"] for p in kinds["missing_cause"]} == {broken["orphan"], broken["ghost_child"]}
    assert {p["event"] for p in kinds["cause_not_an_event"]} == {broken["ghost_child"]}
    assert [(p["event"]) for p in kinds["cause_after_effect"]] == [broken["early"]]
    # a cause hidden from the effect's readers is a note: the API writes it on purpose
    assert "cause_hidden_from_readers" not in kinds
    [hidden] = body["notes"]
    assert hidden["kind"] == "cause_hidden_from_readers"
    assert [(p["event"], p["cause"]) for p in hidden["sample"]] == [
        (broken["public_effect"], broken["secret"])
    ]
    assert [p["assertion"] for p in kinds["assertion_cause_missing"]] == [broken["assertion"]]
    assert {p["event"] for p in kinds["event_without_task"]} == {
        broken[k] for k in ("orphan", "ghost_child", "early", "secret", "public_effect")
    }
    assert body["problems"] == sum(f["total"] for f in body["findings"])
    cli.main(["check-chains"])
    text = capsys.readouterr().out
    assert "chain problem(s) found" in text and "- missing_cause: 2" in text
