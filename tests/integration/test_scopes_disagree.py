"""A one-valued predicate read across access scopes: ``scopes_disagree`` (docs/semantics.md,
"Visibility and disclosure"). A new team's trial: one group wrote a service's owner, another
group wrote another owner in its own scope (the slot key holds the access list), and a member
of both read two answered facts for a one-valued predicate with nothing saying so."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from tractatus_client import Tractatus

from tests.conftest import KEYS
from tests.helpers import Api, assertion

pytestmark = pytest.mark.integration

MCP = str(Path(sys.executable).with_name("tractatus-mcp"))
TIMES = ("as_of", "known_at")


def _write(api: Api, subject: str, predicate: str, obj: object, group: str) -> None:
    written = api.post("/v1/assertions", assertion(subject, predicate, obj, access=[group]))
    assert written.status_code == 201, written.text


def _read(api: Api, subject: str, predicate: str) -> dict[str, Any]:
    answer = api.get("/v1/facts", subject=subject, predicate=predicate)
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def _untimed(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k not in TIMES}


def test_two_scopes_of_a_one_valued_slot_are_flagged_for_a_reader_of_both(
    api: dict[str, Api], subject: str
) -> None:
    """alice (finance) and bob (sales) each write an owner in their own scope: carol (both)
    is told they disagree; each writer reads one value, no flag, and the same answer as
    before the other scope existed (nothing of the other scope leaks)."""
    _write(api["alice"], subject, "owner", "person:frank", "finance")
    alice_before = _read(api["alice"], subject, "owner")
    assert alice_before["scopes_disagree"] is False
    _write(api["bob"], subject, "owner", "person:bob", "sales")

    carol = _read(api["carol"], subject, "owner")
    assert carol["status"] == "answered"
    assert sorted(f["object"] for f in carol["facts"]) == ["person:bob", "person:frank"]
    assert carol["scopes_disagree"] is True

    alice = _read(api["alice"], subject, "owner")
    assert [f["object"] for f in alice["facts"]] == ["person:frank"]
    assert alice["scopes_disagree"] is False
    assert _untimed(alice) == _untimed(alice_before)
    bob = _read(api["bob"], subject, "owner")
    assert [f["object"] for f in bob["facts"]] == ["person:bob"]
    assert bob["scopes_disagree"] is False
    public = _read(api["public"], subject, "owner")
    assert public["status"] == "not_found" and public["scopes_disagree"] is False


def test_many_valued_predicates_are_never_flagged(api: dict[str, Api], subject: str) -> None:
    _write(api["alice"], subject, "uses", "Vue", "finance")
    _write(api["bob"], subject, "uses", "React", "sales")
    public = api["public"].post("/v1/assertions", assertion(subject, "uses", "Svelte"))
    assert public.status_code == 201, public.text
    carol = _read(api["carol"], subject, "uses")
    assert sorted(f["object"] for f in carol["facts"]) == ["React", "Svelte", "Vue"]
    assert carol["scopes_disagree"] is False


def test_the_same_value_in_two_scopes_is_no_disagreement(api: dict[str, Api], subject: str) -> None:
    _write(api["alice"], subject, "owner", "person:frank", "finance")
    _write(api["bob"], subject, "owner", "person:frank", "sales")
    carol = _read(api["carol"], subject, "owner")
    assert [f["object"] for f in carol["facts"]] == ["person:frank", "person:frank"]
    assert carol["scopes_disagree"] is False


def test_a_disclosure_view_counts_as_what_its_audience_reads(
    api: dict[str, Api], subject: str
) -> None:
    """finance's revenue reaches sales as a band (the predicate's policy); sales' own figure
    in its scope is another value of a one-valued slot, both read by bob: flagged for him.
    alice reads finance's figure alone."""
    exact = assertion(subject, "revenue", 2_140_000, access=["finance"])
    assert api["alice"].post("/v1/assertions", exact).status_code == 201
    _write(api["bob"], subject, "revenue", 1_000_000, "sales")
    bob = _read(api["bob"], subject, "revenue")
    assert sorted((f["view"], f["object"]) for f in bob["facts"]) == [
        ("disclosure", "2.0M–2.5M"),
        ("exact", "1000000"),
    ]
    assert bob["scopes_disagree"] is True
    alice = _read(api["alice"], subject, "revenue")
    assert [f["object"] for f in alice["facts"]] == ["2140000"]
    assert alice["scopes_disagree"] is False


async def _get_fact(base_url: str, key: str, subject: str) -> Any:
    env = {"TRACTATUS_URL": base_url, "TRACTATUS_API_KEY": key, "TRACTATUS_MCP_ACCESS": "public"}
    params = StdioServerParameters(command=MCP, env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        result: Any = await session.call_tool(
            "get_fact", {"subject": subject, "predicate": "owner"}
        )
    assert not result.is_error, result.content
    return json.loads(result.content[0].text)


def test_the_client_and_get_fact_pass_the_flag(
    api: dict[str, Api], base_url: str, subject: str
) -> None:
    _write(api["alice"], subject, "owner", "person:frank", "finance")
    _write(api["bob"], subject, "owner", "person:bob", "sales")
    with Tractatus(base_url, KEYS["carol"]) as carol, Tractatus(base_url, KEYS["alice"]) as alice:
        assert carol.facts(subject, "owner").scopes_disagree is True
        assert alice.facts(subject, "owner").scopes_disagree is False
    assert anyio.run(_get_fact, base_url, KEYS["carol"], subject)["scopes_disagree"] is True
    assert anyio.run(_get_fact, base_url, KEYS["alice"], subject)["scopes_disagree"] is False
