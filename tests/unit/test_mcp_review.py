"""``tractatus-mcp`` as a new user building an agent tried it: every refused argument in the one
form ``invalid_argument: TOOL: WHERE: RULE`` (pydantic's own text named its model, echoed the
value and gave a URL), ``polarity`` and ``task_id`` in the tools' schemas, and each secret of a
``secret_detected`` listed. Without a server: the arguments are refused before anything is
sent. The real sessions are in tests/integration/test_mcp_review.py."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from mcp.server.mcpserver.exceptions import ToolError
from tractatus_client import mcp_server
from tractatus_client.aio import AsyncTractatus
from tractatus_client.errors import SecretDetected

UNREACHABLE = "http://127.0.0.1:9"  # nothing may be sent: a call reaching it would fail
SECRET = "the-value-sent-1234"
FACT = {"subject": "s", "predicate": "tech_stack", "evidence": "we use Vue", "confidence": 0.9}
STEP = {"task_id": "t", "action": "a", "outcome": "success", "root": True}


async def _refused(calls: list[tuple[str, dict[str, Any]]]) -> list[str]:
    async with AsyncTractatus(UNREACHABLE, "tr_key") as client:
        server = mcp_server.build_server(client, access=("team-a",))
        texts = []
        for name, arguments in calls:
            with pytest.raises(ToolError) as refused:
                await server.call_tool(name, arguments)
            texts.append(str(refused.value))
        return texts


@pytest.mark.parametrize(
    ("name", "arguments", "text"),
    [
        (
            "assert_fact",
            {**FACT, "object": SECRET},
            "invalid_argument: assert_fact: expected_current: required (id of the version you"
            " believe is current, or null for none) (nothing was sent)",
        ),
        (
            "replay_chain",
            {"event_id": SECRET, "max_depth": -1},
            "invalid_argument: replay_chain: max_depth: Input should be greater than or equal"
            " to 0 (nothing was sent)",
        ),
        (
            "replay_chain",
            {"max_depth": 3},
            "invalid_argument: replay_chain: event_id: required (nothing was sent)",
        ),
        (
            "recall",
            {"query": SECRET, "k": 101},
            "invalid_argument: recall: k: Input should be less than or equal to 100"
            " (nothing was sent)",
        ),
        (
            "assert_fact",
            {**FACT, "object": {"v": SECRET}, "expected_current": None, "polarity": "maybe"},
            "invalid_argument: assert_fact: object: Input should be a valid string or a valid"
            " integer or a valid number or a valid boolean; polarity: Input should be a valid"
            " boolean, unable to interpret input (nothing was sent)",
        ),
        (
            "record_event",
            {**STEP, "outcome": "done", "wrote": [{**FACT, "object": SECRET, "acess": []}]},
            "invalid_argument: record_event: outcome: Input should be 'success', 'failure',"
            " 'partial', 'pending', 'cancelled' or 'unknown'; wrote[0].expected_current:"
            " required; wrote[0].acess: no such key (nothing is dropped) (nothing was sent)",
        ),
        (
            "record_event",
            {**STEP, "wrote": [{**FACT, "object": None, "expected_current": None}]},
            "invalid_argument: record_event: wrote[0]: object: null is a retraction's only"
            " (polarity false: withdraw whatever holds); an assertion (polarity true) needs its"
            " value (nothing was sent)",
        ),
        (
            "assert_fact",
            {**FACT, "object": None, "expected_current": None},
            "Error executing tool assert_fact: invalid_argument: object: null is a retraction's"
            " only (polarity false: withdraw whatever holds); an assertion (polarity true) needs"
            " its value (nothing was sent)",
        ),
    ],
)
def test_a_refused_argument_is_named_with_its_rule(
    name: str, arguments: dict[str, Any], text: str
) -> None:
    [refused] = anyio.run(_refused, [(name, arguments)])
    assert refused == text
    assert SECRET not in refused  # the value sent is never echoed (it may be a secret)


def test_the_schemas_take_polarity_and_task_id() -> None:
    """As the API's assertion body has them: ``polarity`` (default true) on ``assert_fact``
    and on a fact of ``wrote``, ``task_id`` on ``assert_fact``; ``object`` stays required and
    may be null (a retraction of whatever holds)."""

    async def schemas() -> dict[str, Any]:
        async with AsyncTractatus(UNREACHABLE, "tr_key") as client:
            server = mcp_server.build_server(client, access=())
            return {tool.name: tool.input_schema for tool in await server.list_tools()}

    tools = anyio.run(schemas)
    asserted, written = tools["assert_fact"], tools["record_event"]["$defs"]["WrittenFact"]
    for schema in (asserted, written):
        assert schema["properties"]["polarity"]["type"] == "boolean"
        assert schema["properties"]["polarity"]["default"] is True
        assert {"type": "null"} in schema["properties"]["object"]["anyOf"]
        assert "object" in schema["required"] and "polarity" not in schema["required"]
        assert schema["additionalProperties"] is False
    assert asserted["properties"]["task_id"]["default"] is None
    assert "task_id" not in written["properties"]  # a step's facts go into the step's task


def _secrets(count: int) -> SecretDetected:
    listed = [{"field": f"body.after.k{n}", "kind": "github_token"} for n in range(min(count, 20))]
    return SecretDetected(
        f"the request holds what looks like a secret: github_token in body.after.k0 (and"
        f" {count - 1} more); nothing was written",
        status=422,
        code="secret_detected",
        details={"secrets": listed, "count": count},
    )


def test_secret_detected_lists_each_field_and_kind() -> None:
    """The message names the first and "(and 2 more)"; the tool error lists each, as the
    HTTP error's ``details.secrets`` does, and says when the server named only some."""
    text = mcp_server.tool_message(_secrets(3))
    head, listed = text.split("; secrets: ")
    assert head.startswith("secret_detected: the request holds what looks like a secret")
    assert json.loads(listed) == [
        {"field": f"body.after.k{n}", "kind": "github_token"} for n in range(3)
    ]
    many = mcp_server.tool_message(_secrets(25)).split("; secrets: ")[1]
    assert many.endswith("] (the first 20 of 25)")
    assert len(json.loads(many.removesuffix(" (the first 20 of 25)"))) == 20
