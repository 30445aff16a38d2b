"""The Neo4j Browser guide (docs/browser/guide.html): every query runs against seeded data and
answers what its slide says; the style's display labels are written and backfilled; the local
runtime serves guide and style to the Browser's origin and allows them in its configuration."""

from __future__ import annotations

import html
import re
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from neo4j import Driver

from graph_schema.schema import migrations
from scripts.neo4j_local import GUIDE_FILE, STYLE_FILE, Settings, guide_pid
from tests.conftest import Api, assertion
from tests.integration.test_analyst_cypher import var_length_expansions, write_copies
from tests.integration.test_events_support import at, event, fact, new_task

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "browser" / GUIDE_FILE
STYLE = ROOT / "docs" / "browser" / STYLE_FILE
RUNNABLE = re.compile(r'<pre class="runnable">(.*?)</pre>', re.DOTALL)
NAME = re.compile(r"^// name: (\w+)\n")


def guide_queries() -> dict[str, str]:
    queries = {}
    for block in RUNNABLE.findall(GUIDE.read_text("utf-8")):
        text = html.unescape(block)
        if text.startswith(":"):
            continue  # a Browser command (:param), not Cypher
        match = NAME.match(text)
        assert match, f"every query of the guide starts with '// name: ...': {text[:60]!r}"
        queries[match.group(1)] = text
    return queries


QUERIES = guide_queries()


def _run(driver: Driver, name: str, **params: Any) -> list[dict[str, Any]]:
    records, _, _ = driver.execute_query(QUERIES[name], **params)
    return [dict(r) for r in records]


@pytest.fixture(scope="module")
def seeded(api: dict[str, Api]) -> dict[str, Any]:
    """A payment that fails on channel A, switches and succeeds on B (public); a fact only
    finance may see; a write the gate refuses."""
    agent, task = api["public"], new_task()
    order = f"order:{uuid.uuid4().hex[:8]}"
    ids: dict[str, str] = {}

    def post(name: str, body: dict[str, Any]) -> None:
        response = agent.post("/v1/events", body)
        assert response.status_code == 201, response.text
        ids[name] = response.json()["event"]["id"]

    paid = fact(order, "payment_status", "timed_out", "timeout", "tool_returned", "tool:pay")
    post("order", event(task, "create_order", at("14:03"), goal="restock"))
    post("fail", event(task, "pay_order", at("14:30"), caused_by=[ids["order"]],
                       outcome="failure", assertions=[paid]))  # fmt: skip
    post("switch", event(task, "switch_channel", at("14:31"), caused_by=[ids["fail"]]))
    succeeded = {**paid, "object": "succeeded", "evidence": {"quote": "ok"}}
    post("pay", event(task, "pay_order", at("15:00"), caused_by=[ids["switch"]],
                      assertions=[succeeded]))  # fmt: skip
    secret = f"test:{uuid.uuid4().hex[:8]}"
    written = api["alice"].post(
        "/v1/assertions", assertion(secret, "revenue", 99, access=["finance"])
    )
    assert written.status_code == 201, written.text
    refused = api["alice"].post("/v1/assertions", assertion(secret, "shoe_size", "42"))
    assert refused.status_code == 422
    quarantined = refused.json()["error"]["details"]["quarantine_ids"][0]
    return {
        "task": task,
        "order": order,
        "ids": ids,
        "quarantined": quarantined,
        "secret": secret,
    }


def test_the_guide_has_the_promised_queries() -> None:
    assert set(QUERIES) == {
        "fact_history",
        "why_current",
        "task_chain",
        "group_can_see",
        "quarantine_reasons",
        "quarantine",
    }


def test_fact_history(driver: Driver, seeded: dict[str, Any]) -> None:
    rows = _run(driver, "fact_history", subject=seeded["order"], predicate="payment_status")
    versions = {r["version"]["object"]: r for r in rows}
    assert set(versions) == {"timed_out", "succeeded"}
    assert versions["succeeded"]["older"]["object"] == "timed_out"
    assert versions["timed_out"]["older"] is None
    assert "Superseded" in versions["timed_out"]["version"].labels
    assert "Superseded" not in versions["succeeded"]["version"].labels
    assert versions["timed_out"]["step"]["id"] == seeded["ids"]["fail"]


def test_why_current(driver: Driver, seeded: dict[str, Any]) -> None:
    rows = _run(driver, "why_current", subject=seeded["order"], predicate="payment_status")
    ids = seeded["ids"]
    assert {r["fact"]["object"] for r in rows} == {"succeeded"}
    assert {r["written"]["id"] for r in rows} == {ids["pay"]}
    links = {(r["effect"]["id"], r["earlier"]["id"]) for r in rows if r["cause"] is not None}
    assert links == {(ids["pay"], ids["switch"]), (ids["switch"], ids["fail"]),
                     (ids["fail"], ids["order"])}  # fmt: skip


def test_why_current_leaves_out_a_fact_discarded_at_its_tasks_end(
    driver: Driver, api: dict[str, Api]
) -> None:
    """A new user's trial: a stock level written in a task (ephemeral) and discarded at its
    end was drawn as governing, while GET /v1/facts/why answered not_found."""
    agent, task = api["public"], new_task()
    store = f"store:{uuid.uuid4().hex[:8]}"
    level = fact(store, "stock_level", 80, "80 units", "tool_returned", "tool:inventory")
    posted = agent.post("/v1/events", event(task, "count", at("09:00"), assertions=[level]))
    assert posted.status_code == 201, posted.text
    assert _run(driver, "why_current", subject=store, predicate="stock_level")
    ended = agent.post(f"/v1/tasks/{task}/end")
    assert ended.status_code == 200 and ended.json()["discarded"], ended.text
    assert (
        agent.get("/v1/facts/why", subject=store, predicate="stock_level").json()["status"]
        == "not_found"
    )
    assert _run(driver, "why_current", subject=store, predicate="stock_level") == []


def test_task_chain(driver: Driver, seeded: dict[str, Any]) -> None:
    rows = _run(driver, "task_chain", task_id=seeded["task"])
    ids = seeded["ids"]
    assert {r["step"]["id"] for r in rows} == set(ids.values())
    assert {r["task"]["goal"] for r in rows} == {"restock"}
    failed = {r["step"]["id"] for r in rows if "Failed" in r["step"].labels}
    assert failed == {ids["fail"]}
    assert {r["fact"]["object"] for r in rows if r["fact"] is not None} == {
        "timed_out",
        "succeeded",
    }


def test_group_can_see_matches_the_api(
    driver: Driver, seeded: dict[str, Any], api: dict[str, Api]
) -> None:
    def counts(groups: list[str]) -> dict[str, tuple[int, int]]:
        rows = _run(driver, "group_can_see", groups=groups)
        return {r["kind"]: (r["visible"], r["hidden"]) for r in rows}

    finance, hr = counts(["finance"]), counts(["hr"])
    assert finance["fact revenue"][0] == hr["fact revenue"][0] + 1
    assert finance["fact revenue"][1] == hr["fact revenue"][1] - 1
    assert hr["event pay_order"][1] == 0  # the story's events are public
    # the API agrees: what the query counts as hidden from hr, dave (hr) cannot read
    hidden = api["dave"].get("/v1/facts", subject=seeded["secret"], predicate="revenue").json()
    seen = api["alice"].get("/v1/facts", subject=seeded["secret"], predicate="revenue").json()
    assert (hidden["status"], seen["status"]) == ("not_found", "answered")


def test_quarantine(driver: Driver, seeded: dict[str, Any]) -> None:
    latest = _run(driver, "quarantine")
    assert seeded["quarantined"] in {r["id"] for r in latest}
    [item] = [r for r in latest if r["id"] == seeded["quarantined"]]
    assert item["reason"] == "unknown_predicate" and item["submitted_by"] == "alice"
    reasons = {(r["origin"], r["reason"]): r["items"] for r in _run(driver, "quarantine_reasons")}
    assert reasons[("assertions", "unknown_predicate")] >= 1


def test_display_labels_are_backfilled_by_the_migration(
    driver: Driver, seeded: dict[str, Any]
) -> None:
    ids = seeded["ids"]
    driver.execute_query("MATCH (e:Event {id: $id}) REMOVE e:Failed", id=ids["fail"])
    driver.execute_query(
        "MATCH (a:Assertion {subject: $s, object: 'timed_out'}) REMOVE a:Superseded",
        s=seeded["order"],
    )
    [backfill] = [m for m in migrations.MIGRATIONS if m.version == 6]
    for statement in backfill.statements:
        driver.execute_query(statement)
    records, _, _ = driver.execute_query(
        "MATCH (e:Event {id: $id}) MATCH (a:Assertion {subject: $s, object: 'timed_out'}) "
        "RETURN e:Failed AS failed, a:Superseded AS superseded",
        id=ids["fail"],
        s=seeded["order"],
    )
    assert (records[0]["failed"], records[0]["superseded"]) == (True, True)


def test_the_style_captions_and_colours_what_the_issue_asks() -> None:
    style = STYLE.read_text("utf-8")
    rule = r"^(node\.\w+|relationship\.\w+|node|relationship) \{\n(.*?)^\}"
    rules = dict(re.findall(rule, style, flags=re.S | re.M))
    assert "caption: '{action} · {outcome}'" in rules["node.Event"]
    assert "caption: '{predicate}: {object}'" in rules["node.Assertion"]
    assert "color: #E8590C" in rules["node.Failed"]  # a warning orange
    assert "color: #EEEEEE" in rules["node.Superseded"]  # dimmed
    order = list(rules)  # later rules win in the Browser: the state labels come after
    assert order.index("node.Failed") > order.index("node.Event")
    assert order.index("node.Superseded") > order.index("node.Assertion")


def _local() -> Settings:
    settings = Settings.from_env()
    if guide_pid(settings) is None:
        pytest.skip("the local runtime's guide server is not running (external NEO4J_URI?)")
    return settings


def test_the_runtime_serves_the_guide_to_the_browser_only() -> None:
    settings = _local()
    origin = settings.browser_origins[0]
    for name in (GUIDE_FILE, STYLE_FILE):
        served = httpx.get(f"{settings.guide_base}/{name}", headers={"Origin": origin})
        assert served.status_code == 200
        assert served.headers["Access-Control-Allow-Origin"] == origin
        stored = (GUIDE.parent / name).read_text("utf-8")
        assert served.text == stored.replace("{{guide_base}}", settings.guide_base)
    guide = httpx.get(f"{settings.guide_base}/{GUIDE_FILE}").text
    assert f":style {settings.guide_base}/{STYLE_FILE}</pre>" in guide  # the guide loads it
    other = httpx.get(f"{settings.guide_base}/{GUIDE_FILE}", headers={"Origin": "http://x.test"})
    assert "Access-Control-Allow-Origin" not in other.headers
    assert httpx.get(f"{settings.guide_base}/").status_code == 404  # no listing
    conf = settings.conf_file.read_text("utf-8")
    assert "browser.remote_content_hostname_whitelist=127.0.0.1,localhost" in conf
    assert f";play {settings.guide_base}/{GUIDE_FILE}" in conf


def test_why_current_draws_a_fact_no_step_wrote(driver: Driver, api: dict[str, Api]) -> None:
    """An operator's trial: a fact written by POST /v1/assertions drew nothing."""
    subject = f"user:{uuid.uuid4().hex[:8]}"
    written = api["public"].post("/v1/assertions", assertion(subject, "tech_stack", "React"))
    assert written.status_code == 201, written.text
    [row] = _run(driver, "why_current", subject=subject, predicate="tech_stack")
    assert row["fact"]["object"] == "React"
    assert (row["written"], row["effect"], row["earlier"]) == (None, None, None)


def test_why_current_of_a_remnant_or_a_restoration_draws_the_step_of_the_version_it_copies(
    driver: Driver, api: dict[str, Api]
) -> None:
    """A new analyst's trial: a remnant and a restored fact were drawn alone, while
    GET /v1/facts/why answered the step that wrote the version each copies, and its chain."""
    slots = write_copies(api)
    for subject, copied in ((slots["queue"], "remnant_of"), (slots["store"], "restored_from")):
        why = api["public"].get("/v1/facts/why", subject=subject, predicate="status").json()
        [explained] = why["explanations"]
        rows = _run(driver, "why_current", subject=subject, predicate="status")
        assert {r["fact"]["id"] for r in rows} == {explained["fact"]["id"]}
        assert {r["copies"]["id"] for r in rows} == {explained["fact"][copied]}
        assert {r["written"]["id"] for r in rows} == {explained["event"]["id"]}
        chain = {e["id"] for e in explained["chain"]["events"]}
        assert {r["effect"]["id"] for r in rows} == chain
        links = {(r["effect"]["id"], r["earlier"]["id"]) for r in rows if r["cause"] is not None}
        assert links == {(e["from"], e["to"]) for e in explained["chain"]["edges"]}


def test_why_current_visits_each_step_once(driver: Driver) -> None:
    """A new analyst's trial: why_current enumerated every path of a DAG (minutes on 2^22
    paths) before DISTINCT. Its var-length expansion must be planned with pruning."""
    expansions = var_length_expansions(driver, QUERIES["why_current"])
    assert expansions and all(op.startswith("VarLengthExpand(Pruning") for op in expansions), (
        expansions
    )
