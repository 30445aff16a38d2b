"""``tractatus-mcp`` as a new user building an agent tried it (docs/mcp.md): a refused argument
in the one form ``invalid_argument: ...``, a retraction and a task's working memory through
``assert_fact`` and ``wrote``, and every secret of a ``secret_detected`` named. Real MCP
client sessions over stdio against the real server; what they wrote is read back over HTTP."""

from __future__ import annotations

import json
import sys
import uuid
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.helpers import KEYS, Api
from tests.integration.test_mcp_access import _error, _json

pytestmark = pytest.mark.integration

COMMAND = str(Path(sys.executable).with_name("tractatus-mcp"))
Call = tuple[str, dict[str, Any]]
TOKEN = "ghp_" + "A1b2C3d4E5" * 4  # a secret the server refuses (tests/integration/test_secrets.py)


async def _session(base_url: str, calls: list[Call]) -> list[Any]:
    """Each call's result, in one stdio session as alice, writes public by default."""
    env = {"TRACTATUS_URL": base_url, "TRACTATUS_API_KEY": KEYS["alice"]}
    params = StdioServerParameters(command=COMMAND, args=["--access", "public"], env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        return [await session.call_tool(name, arguments) for name, arguments in calls]


def _run(base_url: str, calls: list[Call]) -> list[Any]:
    return anyio.run(_session, base_url, calls)


def _fact(subject: str, obj: Any, **extra: Any) -> dict[str, Any]:
    return {"subject": subject, "predicate": "tech_stack", "object": obj,
            "evidence": f"the stack is {obj}", "confidence": 0.9, **extra}  # fmt: skip


def _versions(base_url: str, subject: str) -> list[dict[str, Any]]:
    answer = Api(base_url, KEYS["alice"]).get(
        "/v1/facts/history", subject=subject, predicate="tech_stack"
    )
    assert answer.status_code == 200, answer.text
    versions: list[dict[str, Any]] = answer.json()["versions"]
    return versions


def test_a_refused_argument_is_invalid_argument_naming_it(base_url: str, subject: str) -> None:
    """The trial: a missing ``expected_current`` and ``max_depth: -1`` came back as pydantic's
    text ("1 validation error for assert_factArguments ... https://errors.pydantic.dev/...",
    with the value sent); an undeclared argument was already ``invalid_argument: ...``."""
    task = f"task:{uuid.uuid4().hex[:8]}"
    step = {"task_id": task, "action": "a", "outcome": "success", "root": True}
    unread = {**_fact(subject, "Vue"), "expected_current": None}
    del unread["expected_current"]
    missing, negative, typed, nested = _run(base_url, [
        ("assert_fact", unread),
        ("replay_chain", {"event_id": "e", "max_depth": -1}),
        ("assert_fact", {**_fact(subject, ["Vue"]), "confidence": 2, "expected_current": None}),
        ("record_event", {**step, "outcome": "done", "wrote": [_fact(subject, "Vue")]}),
    ])  # fmt: skip
    texts = [_error(r) for r in (missing, negative, typed, nested)]
    assert texts[0] == (
        "invalid_argument: assert_fact: expected_current: required (id of the version you"
        " believe is current, or null for none) (nothing was sent)"
    )
    assert texts[1] == (
        "invalid_argument: replay_chain: max_depth: Input should be greater than or equal to 0"
        " (nothing was sent)"
    )
    assert texts[2] == (
        "invalid_argument: assert_fact: object: Input should be a valid string or a valid"
        " integer or a valid number or a valid boolean; confidence: Input should be less than"
        " or equal to 1 (nothing was sent)"
    )
    assert texts[3].startswith("invalid_argument: record_event: outcome: Input should be")
    assert "; wrote[0].expected_current: required (nothing was sent)" in texts[3]
    for text in texts:  # neither pydantic's internals nor the value sent
        assert "pydantic" not in text and "http" not in text and "Arguments" not in text
        assert subject not in text and "input_value" not in text
    assert _versions(base_url, subject) == []
    assert Api(base_url, KEYS["alice"]).get(f"/v1/tasks/{task}").status_code == 404


def test_an_agent_retracts_a_fact_with_its_precondition(base_url: str, subject: str) -> None:
    """The trial: ``assert_fact`` and ``wrote`` had no ``polarity``, so an MCP agent could not
    withdraw a wrong fact, only overwrite it. A retraction honours ``expected_current`` and
    a retraction's object rules as over HTTP."""
    [vue] = _run(base_url, [("assert_fact", {**_fact(subject, "Vue"), "expected_current": None})])
    vue_id = _json(vue)["assertion"]["id"]
    not_react = {**_fact(subject, "React"), "polarity": False}
    stale, other, unsigned, retracted = _run(base_url, [
        ("assert_fact", {**_fact(subject, None), "polarity": False, "expected_current": None}),
        ("assert_fact", {**not_react, "expected_current": vue_id}),
        ("assert_fact", {**_fact(subject, None), "expected_current": vue_id}),
        ("assert_fact", {**_fact(subject, "Vue"), "polarity": False, "expected_current": vue_id}),
    ])  # fmt: skip
    assert "precondition_failed" in _error(stale) and vue_id in _error(stale)
    assert "precondition_failed" in _error(other) and vue_id in _error(other)  # not Vue
    assert "invalid_argument: object: null is a retraction's only" in _error(unsigned)
    written = _json(retracted)
    assert written["assertion"]["polarity"] is False and written["superseded"] == vue_id
    versions = _versions(base_url, subject)
    assert [(v["object"], v["polarity"]) for v in versions] == [("Vue", True), ("Vue", False)]
    facts = Api(base_url, KEYS["alice"]).get("/v1/facts", subject=subject, predicate="tech_stack")
    assert facts.json()["status"] == "not_found"


def test_a_step_retracts_what_it_wrote_with_its_precondition(base_url: str, subject: str) -> None:
    """``wrote`` takes ``polarity`` too: a stale retraction fails the whole step (nothing of it
    recorded), the current one withdraws the fact; ``null`` without it is refused."""
    [vue] = _run(base_url, [("assert_fact", {**_fact(subject, "Vue"), "expected_current": None})])
    vue_id = _json(vue)["assertion"]["id"]
    task = f"task:{uuid.uuid4().hex[:8]}"
    step = {"task_id": task, "action": "drop_frontend", "outcome": "success", "root": True}
    withdraw = {**_fact(subject, None), "polarity": False}
    stale, unsigned, done = _run(base_url, [
        ("record_event", {**step, "wrote": [{**withdraw, "expected_current": None}]}),
        ("record_event", {**step, "wrote": [{**_fact(subject, None), "expected_current": None}]}),
        ("record_event", {**step, "wrote": [{**withdraw, "expected_current": vue_id}]}),
    ])  # fmt: skip
    assert "precondition_failed" in _error(stale) and vue_id in _error(stale)
    assert _error(unsigned).startswith("invalid_argument: record_event: wrote[0]: object: null")
    [written] = _json(done)["assertions"]
    assert written["assertion"]["polarity"] is False and written["superseded"] == vue_id
    alice = Api(base_url, KEYS["alice"])
    timeline = alice.get(f"/v1/tasks/{task}/timeline").json()
    assert len(timeline["events"]) == 1  # the refused steps recorded nothing
    assert [v["polarity"] for v in _versions(base_url, subject)] == [True, False]


def test_assert_fact_writes_into_a_tasks_working_memory(base_url: str, subject: str) -> None:
    """The trial: ``assert_fact`` had no ``task_id``, so a fact an agent asserted outside
    ``record_event`` was long-term at once and never passed through consolidation."""
    task = f"task:{uuid.uuid4().hex[:8]}"
    fact = {**_fact(subject, "Vue"), "expected_current": None, "task_id": task}
    written, ended = _run(base_url, [("assert_fact", fact), ("end_task", {"task_id": task})])
    answer = _json(written)
    assert answer["assertion"]["task_id"] == task and answer["assertion"]["tier"] == "short"
    assert answer["working_memory"]["task_id"] == task and answer["working_memory"]["count"] == 1
    report = _json(ended)
    assert report["promoted"] + report["discarded"] == [answer["assertion"]["id"]]


def test_secret_detected_names_each_secret_never_its_value(base_url: str, subject: str) -> None:
    """The trial's MCP error named the first secret and "(and N more)"; the HTTP error's
    details name each ``{field, kind}``. Past the server's 20 named, it says how many."""
    task = f"task:{uuid.uuid4().hex[:8]}"
    step = {"task_id": task, "action": "a", "outcome": "success", "root": True}
    three = {"k0": TOKEN, "k1": TOKEN, "note": f"password={uuid.uuid4().hex}"}
    many = {f"k{n}": TOKEN for n in range(21)}
    some, most = _run(base_url, [
        ("record_event", {**step, "after": three}),
        ("record_event", {**step, "after": many}),
    ])  # fmt: skip
    text = _error(some)
    assert "secret_detected: the request holds what looks like a secret" in text
    details = json.loads(text.split("; details: ")[1])
    assert details == {
        "secrets": [
            {"field": "body.after.k0", "kind": "github_token"},
            {"field": "body.after.k1", "kind": "github_token"},
            {"field": "body.after.note", "kind": "password"},
        ],
        "count": 3,
    }
    assert TOKEN not in text and three["note"] not in text
    tail = _error(most).split("; details: ")[1]
    assert TOKEN not in tail
    assert len(json.loads(tail)["secrets"]) == 20 and json.loads(tail)["count"] == 21
    assert Api(base_url, KEYS["alice"]).get(f"/v1/tasks/{task}").status_code == 404
