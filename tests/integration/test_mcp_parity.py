"""``tractatus-mcp`` as an agent developer used it from a real MCP client session (docs/mcp.md):
a step could not be dated and a retried call recorded it twice; recall took no filter but
``conversation_id``; no tool read a task, its timeline or what ``end_task`` discarded;
``procedures`` and ``remember`` lacked the API's arguments; and tool errors came in two
forms, without the request id or the quarantine ids. Real stdio sessions against the real
server; what they wrote is read back over HTTP."""

from __future__ import annotations

import re
import sys
import uuid
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from tractatus_client import Tractatus

from tests.conftest import KEYS
from tests.integration.test_mcp_access import _error, _json

pytestmark = pytest.mark.integration

COMMAND = str(Path(sys.executable).with_name("tractatus-mcp"))
Call = tuple[str, dict[str, Any]]
REQUEST_ID = re.compile(r"; request_id: ([0-9A-Za-z_.:-]+)")


async def _session(base_url: str, calls: list[Call]) -> tuple[dict[str, Any], list[Any]]:
    """The tools by name and each call's result, in one stdio session as alice."""
    env = {"TRACTATUS_URL": base_url, "TRACTATUS_API_KEY": KEYS["alice"]}
    params = StdioServerParameters(command=COMMAND, args=["--access", "public"], env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = {t.name: t for t in (await session.list_tools()).tools}
        return tools, [await session.call_tool(name, arguments) for name, arguments in calls]


def _run(base_url: str, calls: list[Call]) -> list[Any]:
    return anyio.run(_session, base_url, calls)[1]


def _fact(subject: str, obj: Any, **extra: Any) -> dict[str, Any]:
    return {"subject": subject, "predicate": "tech_stack", "object": obj,
            "evidence": f"the stack is {obj}", "confidence": 0.9, **extra}  # fmt: skip


def test_a_step_is_dated_and_a_retry_with_its_key_answers_the_same_event(
    base_url: str, subject: str
) -> None:
    """The trial: ``record_event`` took neither ``occurred_at`` nor an idempotency key, so a
    host retrying a timed-out call recorded the step twice. A retry with the key answers the
    first event, says it is a replay, and writes nothing."""
    task = f"task:{uuid.uuid4().hex[:8]}"
    step = {"task_id": task, "action": "open_order", "outcome": "success", "root": True,
            "occurred_at": "2026-01-05T10:00:00Z", "idempotency_key": f"k-{task}",
            "wrote": [{**_fact(subject, "Vue"), "expected_current": None}]}  # fmt: skip
    unkeyed_time = {**step, "idempotency_key": None}
    del unkeyed_time["idempotency_key"]
    fact = {**_fact(subject, "Svelte", predicate="uses"), "expected_current": None,
            "idempotency_key": f"f-{task}"}  # fmt: skip
    said = {"text": "I live in Porto.", "speaker": subject, "idempotency_key": f"o-{task}",
            "occurred_at": "2026-01-05T09:00:00Z"}  # fmt: skip
    first, again, changed, untimed, asserted, reasserted, remembered, reremembered = _run(
        base_url, [
            ("record_event", step), ("record_event", step),
            ("record_event", {**step, "outcome": "failure"}),
            ("record_event", {**step, "occurred_at": None}),
            ("assert_fact", fact), ("assert_fact", fact),
            ("remember", said), ("remember", said),
        ])  # fmt: skip
    event = _json(first)
    assert event["replayed"] is False and event["event"]["occurred_at"] == "2026-01-05T10:00:00Z"
    replay = _json(again)
    assert replay["replayed"] is True and replay["event"]["id"] == event["event"]["id"]
    assert replay["assertions"][0]["assertion"]["id"] == event["assertions"][0]["assertion"]["id"]
    assert _error(changed).startswith("precondition_failed: ")  # the key names another body
    assert _error(untimed).startswith(
        "invalid_argument: record_event: an idempotency_key of your own needs an occurred_at"
    )
    assert _json(asserted)["replayed"] is False
    assert _json(reasserted)["replayed"] is True  # not precondition_failed: the slot moved on
    assert _json(reasserted)["assertion"]["id"] == _json(asserted)["assertion"]["id"]
    assert _json(remembered)["replayed"] is False and _json(reremembered)["replayed"] is True
    with Tractatus(base_url, KEYS["alice"]) as alice:
        [recorded] = alice.timeline(task).events
        assert recorded.occurred_at.isoformat() == "2026-01-05T10:00:00+00:00"
        assert len(alice.history(subject, "tech_stack").versions) == 1
        assert len(alice.history(subject, "uses").versions) == 1


def test_recall_takes_the_filters_an_agent_needs(base_url: str, subject: str) -> None:
    """The trial: ``recall`` took only ``conversation_id``. ``task_id``, ``subject``,
    ``tiers``, ``include_superseded``, ``min_confidence`` and ``source_kinds`` are the API's
    filters, refused as the API refuses them."""
    task, other = f"task:{uuid.uuid4().hex[:8]}", f"{subject}-other"
    word = f"zorblax{uuid.uuid4().hex[:6]}"
    calls: list[Call] = [
        ("assert_fact", {**_fact(subject, f"{word} one"), "evidence": f"we use {word} one",
                         "expected_current": None}),
        ("assert_fact", {**_fact(other, f"{word} two"), "evidence": f"we use {word} two",
                         "expected_current": None, "task_id": task}),
    ]  # fmt: skip
    written = [_json(r)["assertion"] for r in _run(base_url, calls)]
    newer = {**_fact(subject, f"{word} three"), "evidence": f"we use {word} three"}
    [moved] = _run(base_url, [("assert_fact", {**newer, "expected_current": written[0]["id"]})])
    query = {"query": f"which stack uses {word}?", "k": 20}
    results = _run(base_url, [
        ("recall", {**query, "subject": subject}),
        ("recall", {**query, "task_id": task}),
        ("recall", {**query, "tiers": ["long"]}),
        ("recall", {**query, "subject": subject, "include_superseded": True}),
        ("recall", {**query, "source_kinds": ["document"]}),
        ("recall", {**query, "tiers": ["forever"], "min_confidence": 2}),
        ("recall", {**query, "tiers": []}),
    ])  # fmt: skip
    by_subject, by_task, long_only, with_old, documents = (
        [r["assertion"] for r in _json(result)["results"]] for result in results[:5]
    )
    assert {a["id"] for a in by_subject} == {_json(moved)["assertion"]["id"]}
    assert [a["id"] for a in by_task] == [written[1]["id"]]  # the task's working memory
    assert written[1]["id"] not in {a["id"] for a in long_only}  # short: in the task
    assert written[0]["id"] in {a["id"] for a in with_old}  # the superseded version too
    assert documents == []
    refused = _error(results[5])
    assert refused.startswith("invalid_argument: recall: tiers[0]: Input should be 'short',")
    assert "min_confidence: Input should be less than or equal to 1" in refused
    assert _error(results[6]).startswith("invalid_argument: recall: tiers: List should have")


def test_an_agent_reads_its_task_and_what_end_task_discarded(base_url: str, subject: str) -> None:
    """The trial: no tool read a task's card or timeline, and ``get_fact`` took no tier, so
    an agent could not see that ``end_task`` discarded its own note (``agent_inferred``, one
    source: ``unverified``). The tools say so before the agent writes."""
    task = f"task:{uuid.uuid4().hex[:8]}"
    note = {**_fact(subject, "Svelte"), "evidence": "tried Svelte", "expected_current": None,
            "task_id": task}  # fmt: skip
    slot = {"subject": subject, "predicate": "tech_stack"}
    tools, results = anyio.run(_session, base_url, [
        ("record_event", {"task_id": task, "action": "try_svelte", "outcome": "success",
                          "root": True, "goal": "pick a frontend"}),
        ("assert_fact", note),
        ("get_task", {"task_id": task}),
        ("task_timeline", {"task_id": task}),
        ("end_task", {"task_id": task}),
        ("get_fact", slot),
        ("get_fact", {**slot, "tiers": ["discarded"]}),
        ("get_task", {"task_id": task}),
        ("get_task", {"task_id": f"{task}-never"}),
        ("task_timeline", {"task_id": f"{task}-never"}),
    ])  # fmt: skip
    assert _json(results[0])["event"]["action"] == "try_svelte"
    noted = _json(results[1])["assertion"]
    assert noted["source_kind"] == "agent_inferred" and noted["tier"] == "short"
    card = _json(results[2])
    assert card["status"] == "open" and card["goal"] == "pick a frontend"
    assert card["counts"]["short"] == 1 and card["working_memory"]["count"] == 1
    assert [e["action"] for e in _json(results[3])["events"]] == ["try_svelte"]
    report = _json(results[4])
    assert report["discarded"] == [noted["id"]] and report["reasons"][noted["id"]] == "unverified"
    assert _json(results[5])["status"] == "not_found"  # default reads: short and long
    [kept] = _json(results[6])["facts"]
    assert kept["id"] == noted["id"] and kept["tier"] == "discarded"
    ended = _json(results[7])
    assert ended["status"] == "ended" and ended["counts"]["discarded"] == 1
    assert _error(results[8]).startswith("not_found: ")
    assert _json(results[9])["status"] == "not_found"
    described = " ".join((tools["assert_fact"].description or "").split())
    assert "`agent_inferred` (the default)" in described
    assert "discards it as `unverified`" in described
    source_kind = tools["assert_fact"].input_schema["properties"]["source_kind"]
    assert "end_task" in source_kind["description"]


def _recurring_task(base_url: str, trigger: str) -> None:
    """Three tasks of the same two steps, ended, and a sleep that mines them."""
    with Tractatus(base_url, KEYS["alice"]) as alice:
        for _ in range(3):
            task = f"task:{uuid.uuid4().hex[:8]}"
            opened = alice.record_event(task, "agent", trigger, "success", root=True)
            alice.record_event(task, "agent", "ship", "success", caused_by=[opened.event.id])
            alice.end_task(task)
    with Tractatus(base_url, KEYS["admin"]) as admin:
        admin.sleep(dry_run=False)


def test_procedures_and_remember_take_the_apis_arguments(base_url: str, subject: str) -> None:
    """The trial: ``procedures`` had no ``min_support``, ``known_at`` nor ``limit``, and
    ``remember`` no ``task_id``."""
    trigger = f"open_{subject}"
    _recurring_task(base_url, trigger)
    task = f"task:{uuid.uuid4().hex[:8]}"
    results = _run(base_url, [
        ("procedures", {"trigger": trigger, "min_support": 3, "limit": 1}),
        ("procedures", {"trigger": trigger, "min_support": 4}),
        ("procedures", {"trigger": trigger, "known_at": "2000-01-01T00:00:00Z"}),
        ("procedures", {"trigger": trigger, "min_support": 0, "limit": 101}),
        ("remember", {"text": "I live in Porto.", "speaker": subject, "task_id": task}),
    ])  # fmt: skip
    [procedure] = _json(results[0])["procedures"]
    assert procedure["support"] == 3
    assert _json(results[1])["status"] == "not_found"
    assert _json(results[2])["status"] == "not_found"
    refused = _error(results[3])
    assert "min_support: Input should be greater than or equal to 1" in refused
    assert "limit: Input should be less than or equal to 100" in refused
    remembered = _json(results[4])
    assert remembered["working_memory"]["task_id"] == task
    assert remembered["assertions"] and all(
        a["assertion"]["task_id"] == task and a["assertion"]["tier"] == "short"
        for a in remembered["assertions"]
    )


def test_every_tool_error_has_one_form(base_url: str, subject: str) -> None:
    """The trial: the server's errors read "Error executing tool replay_chain: not_found: ..."
    and the client's "invalid_argument: ..."; neither had the request id, and ``rejected``
    dropped the quarantine ids. Now every tool error is ``CODE: MESSAGE[; request_id: ID]
    [; details: JSON]`` and its structured content is the API's error body."""
    [vue] = _run(base_url, [("assert_fact", {**_fact(subject, "Vue"), "expected_current": None})])
    vue_id = _json(vue)["assertion"]["id"]
    missing, rejected, stale, unsigned, undeclared = _run(base_url, [
        ("replay_chain", {"event_id": "no-such-event"}),
        ("assert_fact", {**_fact(subject, "x", predicate="no_such_predicate"),
                         "expected_current": None}),
        ("assert_fact", {**_fact(subject, "React"), "expected_current": None}),
        ("assert_fact", {**_fact(subject, None), "expected_current": vue_id}),
        ("get_fact", {"subject": subject, "predicate": "tech_stack", "tier": ["long"]}),
    ])  # fmt: skip
    text = _error(missing)
    assert "Error executing tool" not in text
    request_id = REQUEST_ID.search(text)
    assert text.startswith("not_found: no visible event with this id; request_id: ")
    assert request_id is not None and text.endswith('; details: {"id": "no-such-event"}')
    assert missing.structured_content == {"error": {
        "code": "not_found", "message": "no visible event with this id",
        "request_id": request_id.group(1), "details": {"id": "no-such-event"},
    }}  # fmt: skip
    error = rejected.structured_content["error"]
    assert error["code"] == "rejected" and error["request_id"]
    assert error["details"]["rejections"][0]["reason"] == "unknown_predicate"
    [quarantined] = error["details"]["quarantine_ids"]
    assert quarantined in _error(rejected)
    with Tractatus(base_url, KEYS["admin"]) as admin:
        assert quarantined in {item.id for item in admin.quarantine(limit=100)}
    assert _error(stale).startswith("precondition_failed: ")
    assert stale.structured_content["error"]["details"]["current"]["id"] == vue_id
    for result in (unsigned, undeclared):  # refused before anything was sent: no request id
        assert _error(result).startswith("invalid_argument: ")
        assert "Error executing tool" not in _error(result)
        assert "; request_id: " not in _error(result)
        error = result.structured_content["error"]
        assert error["code"] == "invalid_argument" and error["request_id"] is None
        assert _error(result) == f"invalid_argument: {error['message']}"
