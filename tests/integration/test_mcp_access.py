"""Who reads what ``tractatus-mcp`` writes (a new user's security review: the write tools had no
``access``, so every MCP write was public, and an ``access`` argument was dropped without a
word). A real MCP client session against the real server; what it wrote is read back over
HTTP by principals inside and outside its groups (docs/mcp.md "Who reads what it writes")."""

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

from tests.conftest import KEYS, Api

pytestmark = pytest.mark.integration

COMMAND = str(Path(sys.executable).with_name("tractatus-mcp"))
Call = tuple[str, dict[str, Any]]


async def _session(
    base_url: str, key: str, args: list[str], env: dict[str, str], calls: list[Call]
) -> tuple[list[Any], list[Any]]:
    """The tools as listed and each call's result, in one stdio session."""
    variables = {"TRACTATUS_URL": base_url, "TRACTATUS_API_KEY": KEYS[key], **env}
    params = StdioServerParameters(command=COMMAND, args=args, env=variables)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = (await session.list_tools()).tools
        return tools, [await session.call_tool(name, arguments) for name, arguments in calls]


def _run(
    base_url: str, key: str, args: list[str], calls: list[Call], **env: str
) -> tuple[list[Any], list[Any]]:
    return anyio.run(_session, base_url, key, args, env, calls)


def _json(result: Any) -> Any:
    assert not result.is_error, result.content
    return json.loads(result.content[0].text)


def _error(result: Any) -> str:
    assert result.is_error, result.content
    text: str = result.content[0].text
    return text


def _fact(subject: str, predicate: str, obj: str, **extra: Any) -> dict[str, Any]:
    return {"subject": subject, "predicate": predicate, "object": obj,
            "evidence": f"{predicate} is {obj}", "confidence": 0.9, **extra}  # fmt: skip


def _slot(api: Api, subject: str, predicate: str) -> dict[str, Any]:
    response = api.get("/v1/facts", subject=subject, predicate=predicate)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def _writes(subject: str, task: str, **access: Any) -> list[Call]:
    """A text, a fact and a step with a fact, each with ``access`` when given."""
    paid = {**_fact(subject, "payment_status", "paid"), "expected_current": None}
    step = {"task_id": task, "action": "open_order", "outcome": "success", "root": True,
            "goal": f"order for {subject}", "wrote": [paid]}  # fmt: skip
    vue = {**_fact(subject, "tech_stack", "Vue"), "expected_current": None}
    return [
        ("remember", {"text": "I live in Quito.", "speaker": subject, **access}),
        ("assert_fact", {**vue, **access}),
        ("record_event", {**step, **access}),
    ]


WRITES = ("observation", "event", "task", "tech_stack", "payment_status")


def _read_back(
    api: Api, subject: str, task: str, owner: str, ids: dict[str, str]
) -> dict[str, Any]:
    """What ``api``'s principal reads of the writes of :func:`_writes`: the access of each, or
    None when it is hidden."""
    observation = api.get(f"/v1/observations/{ids['observation']}")
    event = api.get(f"/v1/events/{ids['event']}")
    card = api.get(f"/v1/tasks/{task}", owner=owner)
    seen = {
        "observation": observation.json()["observation"]["access"]
        if observation.status_code == 200 else None,
        "event": event.json()["access"] if event.status_code == 200 else None,
        "task": card.json()["access"] if card.status_code == 200 else None,
    }  # fmt: skip
    for predicate in ("tech_stack", "payment_status"):
        facts = _slot(api, subject, predicate)["facts"]
        seen[predicate] = facts[0]["access"] if facts else None
    return seen


def _ids(results: list[Any]) -> dict[str, str]:
    remembered, asserted, recorded = (_json(r) for r in results)
    assert remembered["assertions"], remembered  # the text was distilled into facts
    return {"observation": remembered["observation_id"], "event": recorded["event"]["id"],
            "distilled": json.dumps([a["assertion"]["access"] for a in remembered["assertions"]]),
            "asserted": json.dumps(asserted["assertion"]["access"])}  # fmt: skip


def test_the_default_access_scopes_every_write(base_url: str, subject: str) -> None:
    """``TRACTATUS_MCP_ACCESS=finance`` for alice (finance): the text, the facts drawn from
    it, the fact, the step, its task and its fact are finance's; bob (sales) reads none."""
    task = f"task:{uuid.uuid4().hex[:8]}"
    tools, results = _run(
        base_url, "alice", [], _writes(subject, task), TRACTATUS_MCP_ACCESS="finance"
    )
    ids = _ids(results)
    assert json.loads(ids["distilled"]) == [["finance"]] * len(json.loads(ids["distilled"]))
    assert json.loads(ids["asserted"]) == ["finance"]
    alice, bob = Api(base_url, KEYS["alice"]), Api(base_url, KEYS["bob"])
    everything = {write: ["finance"] for write in WRITES}
    assert _read_back(alice, subject, task, "alice", ids) == everything
    assert _read_back(bob, subject, task, "alice", ids) == dict.fromkeys(everything)
    remember = next(t for t in tools if t.name == "remember")
    assert (
        'this server\'s default, ["finance"]'
        in remember.input_schema["properties"]["access"]["description"]
    )


def test_the_option_wins_over_the_environment(base_url: str, subject: str) -> None:
    """carol (finance and sales) with ``--access sales`` and ``TRACTATUS_MCP_ACCESS=finance``:
    the option is the default."""
    fact = {**_fact(subject, "tech_stack", "Elm"), "expected_current": None}
    _, [written] = _run(
        base_url,
        "carol",
        ["--access", "sales"],
        [("assert_fact", fact)],
        TRACTATUS_MCP_ACCESS="finance",
    )
    assert _json(written)["assertion"]["access"] == ["sales"]
    assert _slot(Api(base_url, KEYS["alice"]), subject, "tech_stack")["status"] == "not_found"
    assert _slot(Api(base_url, KEYS["bob"]), subject, "tech_stack")["status"] == "answered"


def test_a_calls_access_replaces_the_default(base_url: str, subject: str) -> None:
    """A server started ``--access public``: a call's ``access: ["finance"]`` is kept (it was
    dropped and the text written public); a fact of a step takes the step's access unless it
    names its own; a call without one is public."""
    task = f"task:{uuid.uuid4().hex[:8]}"
    calls = _writes(subject, task, access=["finance"])
    own = {**_fact(subject, "owner", "Delta"), "expected_current": None, "access": []}
    calls[2][1]["wrote"].append(own)
    calls.append(("remember", {"text": "I live in Lima.", "speaker": f"{subject}-open"}))
    _, results = _run(base_url, "alice", ["--access", "public"], calls)
    ids = _ids(results[:3])
    open_text = _json(results[3])["observation_id"]
    alice, bob, dave = (Api(base_url, KEYS[k]) for k in ("alice", "bob", "dave"))
    everything = {write: ["finance"] for write in WRITES}
    assert _read_back(alice, subject, task, "alice", ids) == everything
    assert _read_back(dave, subject, task, "alice", ids) == dict.fromkeys(everything)
    assert _slot(bob, subject, "owner")["facts"][0]["access"] == []  # its own: public
    public = dave.get(f"/v1/observations/{open_text}")
    assert public.status_code == 200 and public.json()["observation"]["access"] == []


def test_a_group_the_key_is_not_in_is_the_apis_refusal(base_url: str, subject: str) -> None:
    """alice (finance) naming sales, in a call or as the default, and a name no group can
    have: the API's errors, as tool errors, and nothing written."""
    fact = {**_fact(subject, "tech_stack", "Vue"), "expected_current": None}
    step = {"task_id": f"task:{uuid.uuid4().hex[:8]}", "action": "a", "outcome": "success",
            "root": True, "access": ["sales"]}  # fmt: skip
    _, [other, spaced, stepped] = _run(base_url, "alice", ["--access", "public"], [
        ("assert_fact", {**fact, "access": ["sales"]}),
        ("assert_fact", {**fact, "access": ["no such group"]}),
        ("record_event", step),
    ])  # fmt: skip
    _, [default] = _run(base_url, "alice", ["--access", "sales"], [("assert_fact", fact)])
    for refused in (other, stepped, default):
        assert "access_not_allowed" in _error(refused) and "rejected" in _error(refused)
    assert "rejected: refused by the gate: access: group names are 1-64" in _error(spaced)
    alice = Api(base_url, KEYS["alice"])
    assert _slot(alice, subject, "tech_stack")["status"] == "not_found"
    assert alice.get(f"/v1/tasks/{step['task_id']}").status_code == 404


def test_an_undeclared_argument_is_refused_and_named(base_url: str, subject: str) -> None:
    """``acess`` (misspelt) on a tool, or on a fact of ``wrote``, was dropped and the write made
    public; now the call fails naming it, and nothing is written. The schemas say so."""
    task = f"task:{uuid.uuid4().hex[:8]}"
    fact = {**_fact(subject, "tech_stack", "Vue"), "expected_current": None}
    step = {"task_id": task, "action": "a", "outcome": "success", "root": True,
            "wrote": [{**fact, "acess": ["finance"]}]}  # fmt: skip
    tools, [top, nested] = _run(base_url, "alice", ["--access", "public"], [
        ("assert_fact", {**fact, "acess": ["finance"]}),
        ("record_event", step),
    ])  # fmt: skip
    assert _error(top).startswith("invalid_argument: assert_fact has no argument 'acess';")
    assert "access" in _error(top).split("its arguments are ")[1]
    assert _error(nested) == (
        "invalid_argument: record_event: wrote[0].acess: no such key (nothing is dropped)"
        " (nothing was sent)"
    )
    alice = Api(base_url, KEYS["alice"])
    assert _slot(alice, subject, "tech_stack")["status"] == "not_found"
    assert alice.get(f"/v1/tasks/{task}").status_code == 404
    assert all(t.input_schema["additionalProperties"] is False for t in tools)
    written = next(t for t in tools if t.name == "record_event").input_schema["$defs"]
    assert written["WrittenFact"]["additionalProperties"] is False
