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
from mcp.types import CallToolResult, TextContent
from tractatus_client import mcp_server
from tractatus_client.aio import AsyncTractatus
from tractatus_client.errors import PreconditionFailed, Rejected, SecretDetected

UNREACHABLE = "http://127.0.0.1:9"  # nothing may be sent: a call reaching it would fail
SECRET = "the-value-sent-1234"
FACT = {"subject": "s", "predicate": "tech_stack", "evidence": "we use Vue", "confidence": 0.9}
STEP = {"task_id": "t", "action": "a", "outcome": "success", "root": True}


async def _refused(calls: list[tuple[str, dict[str, Any]]]) -> list[str]:
    async with AsyncTractatus(UNREACHABLE, "tr_key") as client:
        server = mcp_server.build_server(client, access=("team-a",))
        texts = []
        for name, arguments in calls:
            result = await server.call_tool(name, arguments)
            assert isinstance(result, CallToolResult) and result.is_error
            assert isinstance(result.content[0], TextContent)
            error = (result.structured_content or {})["error"]
            assert error["code"] == "invalid_argument" and error["request_id"] is None
            assert result.content[0].text == f"invalid_argument: {error['message']}"
            texts.append(result.content[0].text)
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
            "invalid_argument: object: null is a retraction's only (polarity false: withdraw"
            " whatever holds); an assertion (polarity true) needs its value (nothing was sent)",
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
    """The message names the first and "(and 2 more)"; the tool error lists each in its
    details, as the HTTP error's ``details.secrets`` does, with ``count`` saying when the
    server named only some."""
    text = mcp_server.failure_of(_secrets(3)).text()
    head, listed = text.split("; details: ")
    assert head.startswith("secret_detected: the request holds what looks like a secret")
    assert json.loads(listed) == {
        "secrets": [{"field": f"body.after.k{n}", "kind": "github_token"} for n in range(3)],
        "count": 3,
    }
    many = json.loads(mcp_server.failure_of(_secrets(25)).text().split("; details: ")[1])
    assert len(many["secrets"]) == 20 and many["count"] == 25


def test_a_failure_is_one_form_with_the_request_id_and_the_details() -> None:
    """The server's code and message, the request id it answered, and its details: a
    precondition's current version in brief, a refusal's quarantine ids."""
    stale = PreconditionFailed(
        "the slot moved on",
        code="precondition_failed",
        request_id="r1",
        details={"current": {"id": "a1", "object": "React", "polarity": True,
                             "valid_from": "2026-01-01T00:00:00Z", "evidence": [{"quote": "x"}]}},
    )  # fmt: skip
    failure = mcp_server.failure_of(stale)
    brief = {"id": "a1", "object": "React", "polarity": True, "valid_from": "2026-01-01T00:00:00Z"}
    assert failure.text() == (
        f"precondition_failed: the slot moved on; request_id: r1; details:"
        f" {json.dumps({'current': brief})}"
    )
    rejected = Rejected(
        "refused by the gate", code="rejected", request_id="r2",
        details={"rejections": [{"index": 0, "reason": "unknown_predicate"}],
                 "quarantine_ids": ["q1"]},
    )  # fmt: skip
    result = mcp_server.failure_of(rejected).result()
    assert result.is_error and result.structured_content == {
        "error": {
            "code": "rejected",
            "message": "refused by the gate",
            "request_id": "r2",
            "details": {
                "rejections": [{"index": 0, "reason": "unknown_predicate"}],
                "quarantine_ids": ["q1"],
            },
        }
    }
