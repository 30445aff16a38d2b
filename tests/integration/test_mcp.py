"""``tractatus-mcp`` against the real API: the MCP SDK's own client session over stdio (list
the tools, call each, a precondition failure, a permission-hidden fact, an error as a tool
error), and the streamable-HTTP transport's bearer token."""

from __future__ import annotations

import json
import os
import queue
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from tractatus_client import Tractatus

from tests.conftest import KEYS
from tests.fakes import free_port

pytestmark = pytest.mark.integration

TOOLS = {
    "remember",
    "recall",
    "get_fact",
    "fact_history",
    "assert_fact",
    "record_event",
    "why",
    "replay_chain",
    "find_entities",
    "entity",
    "procedures",
    "get_task",
    "task_timeline",
    "end_task",
}
COMMAND = str(Path(sys.executable).with_name("tractatus-mcp"))


def _env(base_url: str, key: str, **extra: str) -> dict[str, str]:
    # public: these tests are about the tools, not the scope (tests/integration/test_mcp_access.py)
    return {
        "TRACTATUS_URL": base_url,
        "TRACTATUS_API_KEY": key,
        "TRACTATUS_MCP_ACCESS": "public",
        **extra,
    }


def _json(result: Any) -> Any:
    assert not result.is_error, result.content
    return json.loads(result.content[0].text)


def _error(result: Any) -> str:
    assert result.is_error
    text: str = result.content[0].text
    return text


async def _stdio_story(base_url: str, subject: str, hidden: str) -> dict[str, Any]:
    params = StdioServerParameters(command=COMMAND, env=_env(base_url, KEYS["alice"]))
    seen: dict[str, Any] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        seen["instructions"] = (await session.initialize()).instructions
        tools = (await session.list_tools()).tools
        seen["tools"] = {t.name: t for t in tools}
        call = session.call_tool
        seen["remember"] = _json(
            await call("remember", {"text": "I live in Porto.", "speaker": subject})
        )
        slot = {"subject": subject, "predicate": "tech_stack"}
        vue = {**slot, "object": "Vue", "evidence": "we use Vue", "confidence": 0.9}
        seen["assert"] = _json(await call("assert_fact", {**vue, "expected_current": None}))
        react = {**vue, "object": "React", "expected_current": None}
        seen["conflict"] = _error(await call("assert_fact", react))
        seen["get"] = _json(await call("get_fact", slot))
        seen["as_of"] = _json(await call("get_fact", {**slot, "as_of": "2000-01-01T00:00:00Z"}))
        seen["history"] = _json(
            await call("fact_history", {"subject": subject, "predicate": "tech_stack"})
        )
        seen["hidden"] = _json(await call("get_fact", {"subject": hidden, "predicate": "lives_in"}))
        task = f"task:{uuid.uuid4().hex[:8]}"
        root = _json(await call("record_event", {"task_id": task, "action": "open_order",
                                                 "outcome": "success", "root": True}))  # fmt: skip
        step = _json(await call("record_event", {
            "task_id": task, "action": "pay_order", "outcome": "failure",
            "caused_by": [root["event"]["id"]], "after": {"payment_status": "timed_out"},
            "wrote": [{"subject": subject, "predicate": "payment_status", "object": "timed_out",
                       "evidence": "gateway timeout", "confidence": 0.99,
                       "expected_current": None}],
        }))  # fmt: skip
        seen["event"] = step
        seen["chain"] = _json(await call("replay_chain", {"event_id": step["event"]["id"]}))
        seen["why"] = _json(await call("why", {"subject": subject, "predicate": "payment_status"}))
        seen["recall"] = _json(await call("recall", {"query": "Where do I live?", "k": 5}))
        seen["ended"] = _json(await call("end_task", {"task_id": task}))
        retry = {"task_id": task, "action": "retry", "outcome": "success",
                 "caused_by": [step["event"]["id"]]}  # fmt: skip
        seen["after_end"] = _error(await call("record_event", retry))
        seen["missing"] = _error(await call("replay_chain", {"event_id": "no-such-event"}))
        seen["invalid"] = _error(await call("recall", {"query": "x", "as_of": "yesterday"}))
        found = _json(await call("find_entities", {"q": subject}))
        seen["found"] = found
        first = found["entities"][0]["id"]
        seen["entity"] = _json(await call("entity", {"entity_id": first}))
        seen["no_entity"] = _error(await call("entity", {"entity_id": "ent_" + "0" * 24}))
        seen["procedures"] = _json(await call("procedures", {"trigger": f"open_{subject}"}))
        seen["no_procedures"] = _json(await call("procedures", {"trigger": f"never_{subject}"}))
        seen["alive"] = _json(await call("get_fact", {"subject": subject, "predicate": "shoe"}))
    return seen


def _recurring_task(base_url: str, subject: str) -> None:
    """Three tasks of the same two steps, ended, and a sleep that mines them."""
    with Tractatus(base_url, KEYS["alice"]) as alice:
        for _ in range(3):
            task = f"task:{uuid.uuid4().hex[:8]}"
            opened = alice.record_event(task, "agent", f"open_{subject}", "success", root=True)
            alice.record_event(task, "agent", "ship", "success", caused_by=[opened.event.id])
            alice.end_task(task)
    with Tractatus(base_url, KEYS["admin"]) as admin:
        admin.sleep(dry_run=False)


def test_every_tool_over_stdio(base_url: str, subject: str) -> None:
    hidden = f"test:{uuid.uuid4().hex[:8]}"
    with Tractatus(base_url, KEYS["bob"], timeout=120) as bob:  # may load the model
        bob.assert_fact(
            hidden, "lives_in", "Oslo", source_kind="user_stated", asserted_by=hidden,
            confidence=0.9, evidence="I live in Oslo", access=["sales"],
        )  # fmt: skip
    _recurring_task(base_url, subject)
    seen = anyio.run(_stdio_story, base_url, subject, hidden)
    assert set(seen["tools"]) == TOOLS
    described = seen["tools"]["get_fact"].description
    assert "out_of_scope" in described and "as of" in described
    assert seen["remember"]["observation_id"] and seen["remember"]["assertions"]
    vue = seen["assert"]["assertion"]
    assert vue["object"] == "Vue" and vue["asserted_by"] == "agent:mcp"
    assert "precondition_failed: the slot moved on" in seen["conflict"]
    assert vue["id"] in seen["conflict"]  # the current version, so the agent can re-read
    assert seen["get"]["status"] == "answered" and seen["get"]["facts"][0]["id"] == vue["id"]
    assert seen["as_of"]["status"] == "not_found" and seen["as_of"]["as_of"].startswith("2000")
    assert [v["object"] for v in seen["history"]["versions"]] == ["Vue"]
    assert seen["hidden"]["status"] == "not_found" and seen["hidden"]["facts"] == []
    assert seen["event"]["event"]["outcome"] == "failure"
    assert [e["action"] for e in seen["chain"]["events"]] == ["pay_order", "open_order"]
    [explanation] = seen["why"]["explanations"]
    assert explanation["event"]["id"] == seen["event"]["event"]["id"]
    assert seen["recall"]["status"] in ("answered", "not_found") and "results" in seen["recall"]
    ended = seen["ended"]  # the step's fact was working memory; the end decided it
    assert ended["task_id"].startswith("task:") and ended["ended_at"]
    decided = ended["promoted"] + ended["discarded"]
    assert len(decided) == 1 and set(ended["reasons"]) == set(decided)
    assert "task_ended" in seen["after_end"]
    assert "not_found: no visible event with this id" in seen["missing"]
    assert "invalid_request: body.as_of" in seen["invalid"]
    assert seen["found"]["entities"][0]["name"] == subject
    assert "lives_in" in {a["predicate"] for a in seen["entity"]["about"]}
    assert "not_found: no visible entity with this id" in seen["no_entity"]
    [procedure] = seen["procedures"]["procedures"]
    assert procedure["steps"] == [f"open_{subject}", "ship"] and procedure["support"] == 3
    assert seen["no_procedures"]["status"] == "not_found"
    assert "procedures(trigger=" in seen["instructions"]  # the agent is told when to ask
    assert seen["alive"]["status"] == "out_of_scope"  # the server kept running after errors


@pytest.fixture
def http_mcp(base_url: str) -> Iterator[tuple[str, str]]:
    token = f"mcp-token-{uuid.uuid4().hex}"
    port = free_port()
    env = {**os.environ, **_env(base_url, KEYS["alice"], TRACTATUS_MCP_TOKEN=token)}
    process = subprocess.Popen(
        [COMMAND, "--transport", "http", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "tractatus-mcp did not listen"
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp", token
    finally:
        process.terminate()
        process.wait(timeout=10)


async def _http_tools(url: str, token: str, scheme: str = "Bearer") -> set[str]:
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"{scheme} {token}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=30) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        result = await session.call_tool("get_fact", {"subject": "user:x", "predicate": "name"})
        assert not result.is_error
        return {t.name for t in (await session.list_tools()).tools}


def test_the_http_transport_requires_its_own_token(http_mcp: tuple[str, str]) -> None:
    url, token = http_mcp
    probe = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    accept = {"Accept": "application/json, text/event-stream"}
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": KEYS["alice"]}):
        refused = httpx.post(url, json=probe, headers={**accept, **headers}, timeout=10)
        assert refused.status_code == 401
        assert KEYS["alice"] not in refused.text
    assert anyio.run(_http_tools, url, token) == TOOLS
    # the scheme in any case (RFC 7235): a new agent developer's "bearer <token>" was 401
    assert anyio.run(_http_tools, url, token, "bearer") == TOOLS


def test_the_http_transport_refuses_to_start_without_a_token_or_with_the_key(
    base_url: str,
) -> None:
    for extra in ({}, {"TRACTATUS_MCP_TOKEN": KEYS["alice"]}):
        env = {**os.environ, **_env(base_url, KEYS["alice"], **extra)}
        env.pop("TRACTATUS_MCP_TOKEN", None) if not extra else None
        done = subprocess.run(
            [COMMAND, "--transport", "http"], env=env, capture_output=True, text=True, timeout=30
        )
        assert done.returncode == 2 and "TRACTATUS_MCP_TOKEN" in done.stderr


# --- a new agent developer's trial -------------------------------------------------------------


async def _session_calls(base_url: str, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """Each call's result, in one stdio session as alice."""
    params = StdioServerParameters(command=COMMAND, env=_env(base_url, KEYS["alice"]))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        return [await session.call_tool(name, arguments) for name, arguments in calls]


def test_wrote_needs_expected_current_like_assert_fact(base_url: str, subject: str) -> None:
    """The trial: `record_event(wrote=...)` superseded the current fact with no precondition,
    the lost update `assert_fact` refuses (docs/mcp.md, Decision)."""
    with Tractatus(base_url, KEYS["alice"], timeout=120) as alice:
        delta = alice.assert_fact(
            subject, "owner", "Delta", source_kind="user_stated", asserted_by=subject,
            confidence=0.9, evidence="Delta owns it",
        )  # fmt: skip
    task = f"task:{uuid.uuid4().hex[:8]}"
    fact = {"subject": subject, "predicate": "owner", "object": "Zeta",
            "evidence": "registry says Zeta", "confidence": 0.99}  # fmt: skip
    step = {"task_id": task, "action": "lookup_owner", "outcome": "success", "root": True}
    unread, stale, read = anyio.run(_session_calls, base_url, [
        ("record_event", {**step, "wrote": [fact]}),
        ("record_event", {**step, "wrote": [{**fact, "expected_current": None}]}),
        ("record_event", {**step, "wrote": [{**fact, "expected_current": delta.assertion.id}]}),
    ])  # fmt: skip
    assert "expected_current" in _error(unread)
    refused = _error(stale)
    assert "precondition_failed" in refused and delta.assertion.id in refused
    [written] = _json(read)["assertions"]
    assert written["superseded"] == delta.assertion.id
    with Tractatus(base_url, KEYS["alice"]) as alice:
        assert len(alice.timeline(task).events) == 1  # the refused steps recorded nothing
        versions = alice.history(subject, "owner").versions
    assert [v.object for v in versions] == ["Delta", "Zeta"]


def test_a_body_over_the_limit_is_the_servers_413_at_once(base_url: str, subject: str) -> None:
    """The trial: `remember` with 9 MB of text answered "connection_failed: ReadError" after
    four uploads (about 4.5 s), which tells an agent to try again."""
    started = time.monotonic()
    [big] = anyio.run(
        _session_calls, base_url, [("remember", {"text": "ab " * 3_000_000, "speaker": subject})]
    )
    assert "body_too_large: the body exceeds" in _error(big)
    assert time.monotonic() - started < 30


def _initialize() -> list[str]:
    hello = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "trial", "version": "0"},
    }
    return [
        json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ]


def _raw_stdio(base_url: str, lines: list[str]) -> list[dict[str, Any]]:
    """Send JSON-RPC requests as written (the SDK's client would turn NaN into null) and read
    the answer to each (after the answer to ``initialize``)."""
    env = {**os.environ, **_env(base_url, KEYS["alice"])}
    process = subprocess.Popen(
        [COMMAND], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    stdin, stdout = process.stdin, process.stdout
    assert stdin is not None and stdout is not None
    lines_out: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines_out.put(line) for line in stdout], daemon=True).start()
    answers: list[dict[str, Any]] = []
    try:
        stdin.write("\n".join([*_initialize(), *lines]) + "\n")
        stdin.flush()
        while len(answers) < len(lines) + 1:
            answer = json.loads(lines_out.get(timeout=60))
            if "id" in answer:  # not a notification
                answers.append(answer)
    finally:
        stdin.close()
        process.terminate()
        process.wait(timeout=10)
    return sorted(answers, key=lambda a: a["id"])[1:]


def test_a_number_json_cannot_carry_is_a_tool_error_that_says_so(
    base_url: str, subject: str
) -> None:
    """The trial: `1e400` or `NaN` in a tool's arguments came back as "Error executing tool
    record_event", with neither a code nor a reason."""
    step = {"task_id": f"task:{uuid.uuid4().hex[:8]}", "action": "a", "outcome": "success",
            "root": True}  # fmt: skip
    head = json.dumps(step)[:-1]
    calls = [
        ("record_event", head + ', "after": {"x": 1e400}}'),
        ("record_event", head + ', "after": {"y": [1, NaN]}}'),
        ("assert_fact", json.dumps({"subject": subject, "predicate": "revenue", "evidence": "x",
                                    "confidence": 0.5, "expected_current": None})[:-1]
         + ', "object": 1e400}'),
    ]  # fmt: skip
    lines = [
        f'{{"jsonrpc": "2.0", "id": {n}, "method": "tools/call",'
        f' "params": {{"name": "{name}", "arguments": {arguments}}}}}'
        for n, (name, arguments) in enumerate(calls, start=1)
    ]
    texts = []
    for answer in _raw_stdio(base_url, lines):
        assert answer["result"]["isError"] is True, answer
        texts.append(answer["result"]["content"][0]["text"])
    assert "invalid_argument: after.x: inf is not a number JSON can carry" in texts[0]
    assert "invalid_argument: after.y[1]: nan is not a number JSON can carry" in texts[1]
    assert "invalid_argument: object: inf is not a number JSON can carry" in texts[2]
    assert all("1e400" in text and "nothing was sent" in text for text in texts)


async def _chain_story(base_url: str, subject: str) -> dict[str, Any]:
    params = StdioServerParameters(command=COMMAND, env=_env(base_url, KEYS["alice"]))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = {t.name: t for t in (await session.list_tools()).tools}
        task, ids = f"task:{uuid.uuid4().hex[:8]}", []
        for action in ["open_order", "check", "charge", "notify"]:
            cause = {"root": True} if not ids else {"caused_by": [ids[-1]]}
            step = {"task_id": task, "action": action, "outcome": "success", **cause}
            ids.append(_json(await session.call_tool("record_event", step))["event"]["id"])
        replay = session.call_tool
        causes = _json(await replay("replay_chain", {"event_id": ids[-1]}))
        effects = _json(await replay("replay_chain", {"event_id": ids[0], "direction": "effects"}))
    return {"description": tools["replay_chain"].description, "causes": causes, "effects": effects}


def test_replay_chain_says_the_order_of_each_direction(base_url: str, subject: str) -> None:
    """The trial: the description said "newest first" for both; effects come oldest first."""
    seen = anyio.run(_chain_story, base_url, subject)
    causes = [e["action"] for e in seen["causes"]["events"]]
    effects = [e["action"] for e in seen["effects"]["events"]]
    assert causes == ["notify", "charge", "check", "open_order"]  # newest first
    assert effects == ["open_order", "check", "charge", "notify"]  # oldest first
    described = " ".join(seen["description"].split())
    assert "`causes` (default): it and its causes back to the root, newest first" in described
    assert "`effects`: it and what it led to, oldest first" in described
