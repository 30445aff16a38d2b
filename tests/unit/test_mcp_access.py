"""``tractatus-mcp`` says who reads its writes before it starts, and refuses an argument a tool
does not declare (a new user's security review: every MCP write was public, and an
``access`` argument was dropped without a word). The real sessions against the real server
are in tests/integration/test_mcp_access.py."""

from __future__ import annotations

import anyio
import pytest
from mcp.types import CallToolResult, TextContent
from tractatus_client import mcp_server
from tractatus_client.aio import AsyncTractatus

UNREACHABLE = "http://127.0.0.1:9"  # nothing may be sent: a call reaching it would fail


@pytest.mark.parametrize(
    ("given", "access"),
    [
        ("public", ()),
        (" public ", ()),
        ("team-a", ("team-a",)),
        ("team-a, team-b,team-a", ("team-a", "team-b")),
        ("eng.platform,ops:oncall", ("eng.platform", "ops:oncall")),
    ],
)
def test_the_default_access_is_public_or_groups(given: str, access: tuple[str, ...]) -> None:
    assert mcp_server.default_access(given) == access


@pytest.mark.parametrize("given", [None, "", "  "])
def test_there_is_no_silent_default(given: str | None) -> None:
    with pytest.raises(ValueError, match="say who may read what it writes") as refused:
        mcp_server.default_access(given)
    assert "--access GROUP[,GROUP...] (or $TRACTATUS_MCP_ACCESS)" in str(refused.value)
    assert "--access public for every principal" in str(refused.value)


@pytest.mark.parametrize(
    ("given", "reason"),
    [
        ("public,team-a", "'public' (every principal) cannot be combined with groups"),
        ("team a", "'team a' is not a group name"),
        ("team-a,,team-b", "'' is not a group name"),
        ("x" * 65, "is not a group name (1 to 64 letters, digits, _ . : -)"),
        ("team-a\n", None),  # stripped: "team-a"
    ],
)
def test_a_bad_default_is_refused(given: str, reason: str | None) -> None:
    if reason is None:
        assert mcp_server.default_access(given) == ("team-a",)
        return
    with pytest.raises(ValueError) as refused:
        mcp_server.default_access(given)
    assert reason in str(refused.value)


def test_it_refuses_to_start_without_a_choice(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(mcp_server.ACCESS_VARIABLE, raising=False)
    monkeypatch.setenv("TRACTATUS_URL", UNREACHABLE)
    monkeypatch.setenv("TRACTATUS_API_KEY", "tr_key")
    assert mcp_server.main([]) == 2
    assert mcp_server.main(["--access", "public,team-a"]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert errors[0].startswith("tractatus-mcp: say who may read what it writes: --access")
    assert errors[1] == (
        "tractatus-mcp: --access: 'public' (every principal) cannot be combined with groups"
    )


def test_the_help_says_it_loudly(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        mcp_server.main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--access GROUPS REQUIRED (or $TRACTATUS_MCP_ACCESS)" in text
    assert "'public': EVERY principal of the server reads it" in text


def test_the_environment_is_the_default_and_the_option_wins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(mcp_server.ACCESS_VARIABLE, "team-a")
    assert mcp_server._parser().parse_args([]).access == "team-a"
    assert mcp_server._parser().parse_args(["--access", "public"]).access == "public"


def test_a_calls_access_replaces_the_default() -> None:
    writer = mcp_server.Writer("agent:mcp", ("team-a",))
    assert writer.scope(None) == ["team-a"]
    assert writer.scope(["team-b"]) == ["team-b"]
    assert writer.scope([]) == []  # public, said explicitly


async def _refusals() -> tuple[list[str], list[dict[str, object]]]:
    async with AsyncTractatus(UNREACHABLE, "tr_key") as client:
        server = mcp_server.build_server(client, access=("team-a",))
        texts = []
        for name, arguments in [
            ("remember", {"text": "x", "acces": ["team-a"]}),
            ("get_fact", {"subject": "s", "predicate": "p", "as_off": "2020-01-01T00:00:00Z"}),
        ]:
            refused = await server.call_tool(name, arguments)
            assert isinstance(refused, CallToolResult) and refused.is_error
            assert isinstance(refused.content[0], TextContent)
            texts.append(refused.content[0].text)
        return texts, [tool.input_schema for tool in await server.list_tools()]


def test_an_undeclared_argument_is_refused_before_anything_is_sent() -> None:
    texts, schemas = anyio.run(_refusals)
    assert texts[0] == (
        "invalid_argument: remember has no argument 'acces'; its arguments are text, speaker,"
        " source_kind, conversation_id, occurred_at, task_id, idempotency_key, access (nothing"
        " was sent)"
    )
    assert texts[1].startswith("invalid_argument: get_fact has no argument 'as_off';")
    assert all(schema["additionalProperties"] is False for schema in schemas)
    assert len(schemas) == 14
