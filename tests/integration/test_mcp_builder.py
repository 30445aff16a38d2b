"""``tractatus-mcp`` as an agent builder tried it (docs/mcp.md): ``procedures`` sent
``min_success_rate=0.0`` when the agent gave none; a way that failed every time was listed
first and nothing told the agent how to ask for the ways that worked; a server started with
``--access`` naming a group its key is not in started, and every write was refused with
nothing saying why; and every request it sent was logged to stderr at INFO with its query
string (subjects, task ids). Real stdio sessions against the real server; the requests it
sends are seen through a recording proxy in front of the server."""

from __future__ import annotations

import json
import sys
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import parse_qs, urlsplit

import anyio
import httpx
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from tractatus_client import Tractatus

from tests.conftest import KEYS
from tests.integration.test_mcp_access import _error, _json

pytestmark = pytest.mark.integration

COMMAND = str(Path(sys.executable).with_name("tractatus-mcp"))
Call = tuple[str, dict[str, Any]]


class _Recorder(BaseHTTPRequestHandler):
    """Forwards each request to the real server and notes its path with its query string."""

    target: ClassVar[str] = ""
    seen: ClassVar[list[str]] = []

    def _forward(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else None
        self.seen.append(f"{self.command} {self.path}")
        headers = {k: v for k, v in self.headers.items() if k.lower() != "host"}
        answer = httpx.request(
            self.command, self.target + self.path, headers=headers, content=body, timeout=60
        )
        self.send_response(answer.status_code)
        for name, value in answer.headers.items():
            if name.lower() not in ("content-length", "transfer-encoding", "connection"):
                self.send_header(name, value)
        self.send_header("content-length", str(len(answer.content)))
        self.end_headers()
        self.wfile.write(answer.content)

    do_GET = do_POST = _forward

    def log_message(self, format: str, *args: Any) -> None:
        return


@pytest.fixture
def proxy(base_url: str) -> Iterator[tuple[str, list[str]]]:
    """A recording proxy's URL in front of the real server, and the requests it saw."""
    seen: list[str] = []
    handler = type("Recorder", (_Recorder,), {"target": base_url, "seen": seen})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()


async def _session(
    url: str, key: str, access: str, calls: list[Call], errlog: Any
) -> tuple[str, dict[str, Any], list[Any]]:
    """The instructions, the tools by name and each call's result, in one stdio session."""
    env = {"TRACTATUS_URL": url, "TRACTATUS_API_KEY": KEYS[key]}
    params = StdioServerParameters(command=COMMAND, args=["--access", access], env=env)
    async with (
        stdio_client(params, errlog=errlog) as (read, write),
        ClientSession(read, write) as session,
    ):
        instructions = (await session.initialize()).instructions or ""
        tools = {t.name: t for t in (await session.list_tools()).tools}
        results = [await session.call_tool(name, arguments) for name, arguments in calls]
        return instructions, tools, results


def _run(
    url: str, calls: list[Call], tmp_path: Path, *, key: str = "alice", access: str = "public"
) -> tuple[str, dict[str, Any], list[Any], str]:
    """:func:`_session`, and what ``tractatus-mcp`` wrote to its stderr."""
    log = tmp_path / f"stderr-{uuid.uuid4().hex[:6]}.txt"
    with log.open("w") as errlog:
        instructions, tools, results = anyio.run(_session, url, key, access, calls, errlog)
    return instructions, tools, results, log.read_text()


def _tasks(base_url: str, actions: list[str], last: str, count: int) -> None:
    """``count`` ended tasks of ``actions`` as alice, the last step ending ``last``."""
    with Tractatus(base_url, KEYS["alice"]) as alice:
        for _ in range(count):
            task = f"task:{uuid.uuid4().hex[:8]}"
            cause: list[str] = []
            for i, action in enumerate(actions):
                outcome = last if i == len(actions) - 1 else "success"
                step = alice.record_event(
                    task, "agent", action, outcome, root=not cause, caused_by=cause or None
                )
                cause = [step.event.id]
            alice.end_task(task)


def _sleep(base_url: str) -> None:
    with Tractatus(base_url, KEYS["admin"]) as admin:
        admin.sleep(dry_run=False)


def test_a_left_out_min_success_rate_is_left_out_of_the_request(
    base_url: str, proxy: tuple[str, list[str]], tmp_path: Path
) -> None:
    """The trial: ``procedures(trigger=...)`` sent ``min_success_rate=0.0`` (docs/mcp.md: a
    left-out argument is left out of the request, so the API's default holds)."""
    trigger = f"check_{uuid.uuid4().hex[:8]}"
    url, seen = proxy
    _, tools, results, _ = _run(url, [
        ("procedures", {"trigger": trigger}),
        ("procedures", {"trigger": trigger, "min_success_rate": 0.5}),
    ], tmp_path)  # fmt: skip
    assert [_json(r)["status"] for r in results] == ["not_found", "not_found"]
    asked = [parse_qs(urlsplit(r.split(" ", 1)[1]).query) for r in seen if "/v1/procedures" in r]
    assert asked == [{"trigger": [trigger]}, {"trigger": [trigger], "min_success_rate": ["0.5"]}]
    rate = tools["procedures"].input_schema["properties"]["min_success_rate"]
    assert rate.get("default") is None and "min_success_rate" not in json.dumps(
        tools["procedures"].input_schema.get("required", [])
    )


def test_the_agent_is_told_how_to_get_the_ways_that_worked(base_url: str, tmp_path: Path) -> None:
    """The trial: a way that failed in 4 tasks of 4 was listed before one that worked in 3 of
    3, and the instructions said to call ``procedures(trigger=...)`` without a word about it.
    The order stays (most supported first: a way that always fails is worth knowing); the
    instructions and the tool say so and how to ask for the ways that worked."""
    tag = uuid.uuid4().hex[:8]
    failing = [f"check_{tag}", f"deploy_{tag}", f"verify_{tag}"]
    working = [f"check_{tag}", f"csr_{tag}", f"deploy_{tag}", f"verify_{tag}"]
    _tasks(base_url, failing, "failure", 4)
    _tasks(base_url, working, "success", 3)
    _sleep(base_url)
    instructions, tools, results, _ = _run(base_url, [
        ("procedures", {"trigger": failing[0]}),
        ("procedures", {"trigger": failing[0], "min_success_rate": 0.5}),
    ], tmp_path)  # fmt: skip
    every, worked = (_json(r)["procedures"] for r in results)
    assert [(p["steps"], p["support"], p["success_rate"]) for p in every] == [
        (failing, 4, 0.0),
        (working, 3, 1.0),
    ]
    assert [p["steps"] for p in worked] == [working]
    said = " ".join(instructions.split())
    assert "procedures(trigger=..., min_success_rate=0.5)" in said
    assert "check each one's `success_rate` before you follow it" in said
    described = " ".join((tools["procedures"].description or "").split())
    assert "a way that failed every time (success_rate 0) is listed before one" in described
    assert "pass `min_success_rate`" in described
    rate = tools["procedures"].input_schema["properties"]["min_success_rate"]
    assert "omitted: every way, the ones that failed too" in rate["description"]


def test_a_default_access_the_key_is_not_in_is_named_in_the_refusal(
    base_url: str, subject: str, tmp_path: Path
) -> None:
    """The trial: ``--access finance`` with a key not in finance started, and every write was
    refused ``access_not_allowed`` with nothing pointing at ``--access``. The server tells no
    key its groups, so tractatus-mcp cannot refuse at start: it says so on start, and a write
    sent with the default that is refused this way says the default is to blame."""
    fact = {"subject": subject, "predicate": "tech_stack", "object": "Vue", "confidence": 0.9,
            "evidence": "the stack is Vue", "expected_current": None}  # fmt: skip
    _, _, results, stderr = _run(base_url, [
        ("assert_fact", fact),
        ("assert_fact", {**fact, "access": ["finance"]}),
        ("assert_fact", {**fact, "access": ["sales"]}),
    ], tmp_path, key="bob", access="finance")  # fmt: skip
    assert "the key's principal must be in each of these groups (not checked here" in stderr
    defaulted, named, own = results
    text = _error(defaulted)
    assert text.startswith("rejected: ") and "access_not_allowed" in text
    assert 'this call wrote with tractatus-mcp\'s default access ["finance"] (--access)' in text
    assert "have tractatus-mcp restarted with --access naming the key's groups" in text
    assert "(--access)" not in _error(named)  # the call named it: no word of the default
    assert _json(own)["assertion"]["access"] == ["sales"]


def test_the_requests_it_sends_are_not_logged(base_url: str, subject: str, tmp_path: Path) -> None:
    """The trial: every request was logged to stderr at INFO with its query string, so an MCP
    host keeping the server's stderr kept the subjects and task ids an agent read; a failed
    call's log line held its whole text (the id asked about, a current value)."""
    task = f"task:{uuid.uuid4().hex[:8]}"
    trigger = f"check_{uuid.uuid4().hex[:8]}"
    event = f"event-{uuid.uuid4().hex[:8]}"
    _, _, results, stderr = _run(base_url, [
        ("get_fact", {"subject": subject, "predicate": "tech_stack"}),
        ("task_timeline", {"task_id": task}),
        ("procedures", {"trigger": trigger}),
        ("replay_chain", {"event_id": event}),
    ], tmp_path)  # fmt: skip
    assert _json(results[0])["status"] == "not_found"
    assert event in _error(results[3])  # the agent reads what it asked about; the log not
    assert "writes are readable by [] (public: every principal)" in stderr  # stderr was read
    assert "Tool 'replay_chain' failed:" in stderr and "not_found; request_id:" in stderr
    assert not [word for word in (subject, task, trigger, event) if word in stderr]
    assert "HTTP Request" not in stderr and "/v1/" not in stderr
