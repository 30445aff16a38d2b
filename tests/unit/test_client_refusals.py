"""What the client refuses before sending anything, each with what is wrong and why (a new
agent developer's trial): a caller's idempotency key without the caller's time, a number JSON
cannot carry, evidence that is not a quote or a span; and the MCP http transport's bearer
scheme in any case (no server needed: a transport that fails the test if a request is made)."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

import httpx
import pytest
from tractatus_client import AsyncTractatus, InvalidArgument, Tractatus, _calls

JAN = "2026-01-10T09:00:00+00:00"
ASSERTION = {"source_kind": "tool_returned", "asserted_by": "agent:a", "confidence": 0.9}


def _never(request: httpx.Request) -> httpx.Response:
    raise AssertionError(f"sent {request.method} {request.url.path}")


def _sync() -> Tractatus:
    return Tractatus("http://memory.invalid", "k", http_client=httpx.Client(
        transport=httpx.MockTransport(_never)))  # fmt: skip


def _async() -> AsyncTractatus:
    return AsyncTractatus("http://memory.invalid", "k", http_client=httpx.AsyncClient(
        transport=httpx.MockTransport(_never)))  # fmt: skip


def test_a_callers_key_without_the_callers_time_is_refused_before_sending() -> None:
    """The trial: the client stamped now on every call, so a later call with the same key (the
    reason to give one) was 409 instead of the first answer again."""
    with _sync() as memory, pytest.raises(InvalidArgument, match="occurred_at of your own") as e:
        memory.observe("the kettle is in the shed", speaker="user:a", idempotency_key="obs-1")
    assert "409" in str(e.value) and str(e.value).startswith("observe:")
    with _sync() as memory, pytest.raises(InvalidArgument, match=r"^record_event: .*occurred_at"):
        memory.record_event("t", "agent:a", "charge", "failure", root=True, idempotency_key="e")
    batch = [{"text": "a", "speaker": "s"}, {"text": "b", "speaker": "s", "idempotency_key": "k"}]
    with _sync() as memory, pytest.raises(InvalidArgument, match=r"^observe\[1\]: "):
        memory.observe(batch)

    async def both_async() -> None:
        async with _async() as memory:
            with pytest.raises(InvalidArgument, match="occurred_at of your own"):
                await memory.observe("x", speaker="user:a", idempotency_key="obs-1")
            with pytest.raises(InvalidArgument, match="occurred_at of your own"):
                await memory.record_event("t", "a", "b", "success", root=True, idempotency_key="e")
            with pytest.raises(InvalidArgument, match=r"^observe\[1\]: "):
                await memory.observe(batch)

    asyncio.run(both_async())


def test_a_key_with_its_time_or_no_key_at_all_is_sent_as_before() -> None:
    one = _calls.observation_body("x", speaker="s", idempotency_key="k", occurred_at=JAN)
    assert (one["idempotency_key"], one["occurred_at"]) == ("k", JAN)
    generated = _calls.observation_body("x", speaker="s")  # the client's key: its retries
    assert generated["idempotency_key"].startswith("tc-") and generated["occurred_at"]
    event = _calls.event_body("t", "a", "b", "success", occurred_at=JAN, idempotency_key="e")
    assert event["occurred_at"] == JAN and "idempotency_key" not in event
    items = _calls.observe_many([{"text": "b", "idempotency_key": "k", "occurred_at": JAN}])
    assert items.body == {"observations": [
        {"text": "b", "idempotency_key": "k", "occurred_at": JAN, "source_kind": "user_stated"}
    ]}  # fmt: skip


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"after": {"x": float("inf")}}, "after.x"),
        ({"after": {"x": [1.0, float("nan")]}}, "after.x[1]"),
        ({"assertions": [{"object": float("-inf")}]}, "assertions[0].object"),
        ({"observations": [{"text": "t"}, {"confidence": float("nan")}]}, "observations[1]"),
        (float("inf"), "the body"),
    ],
)
def test_a_number_json_cannot_carry_is_refused_naming_where(body: Any, where: str) -> None:
    """The trial: an MCP agent's ``1e400`` (read as infinity) or ``NaN`` came back as "Error
    executing tool record_event", with no reason: the serialiser's error reached the SDK."""
    with pytest.raises(InvalidArgument, match="not a number JSON can carry") as refused:
        _calls.check_finite(body)
    assert str(refused.value).startswith(f"{where}")
    assert "1e400" in str(refused.value)


def test_finite_numbers_and_deep_state_pass_the_check() -> None:
    deep: dict[str, Any] = {"x": 1.5}
    for _ in range(5_000):  # deeper than Python's recursion limit: checked without recursion
        deep = {"d": deep}
    _calls.check_finite({"after": deep, "big": 10**400, "flag": True, "none": None})


def test_the_clients_refuse_a_non_finite_number_before_sending() -> None:
    with _sync() as memory, pytest.raises(InvalidArgument, match=r"^after\.x: inf "):
        memory.record_event("t", "a", "b", "success", root=True, after={"x": float("inf")})
    with _sync() as memory, pytest.raises(InvalidArgument, match=r"^object: nan "):
        memory.assert_fact("s", "revenue", float("nan"), evidence="x", **ASSERTION)

    async def refused() -> None:
        async with _async() as memory:
            await memory.record_event("t", "a", "b", "success", root=True, after={"x": 1e400})

    with pytest.raises(InvalidArgument, match=r"^after\.x: inf "):
        asyncio.run(refused())


def test_evidence_as_a_list_of_quotes_is_a_list_of_spans() -> None:
    """The trial: ``evidence=["x", "y"]`` raised "dictionary update sequence element #0 has
    length 1; 2 is required"."""
    assert _calls.evidence_json(["x", "y"]) == [{"quote": "x"}, {"quote": "y"}]
    mixed = _calls.evidence_json(("x", {"quote": "y", "start": 0}))
    assert mixed == [{"quote": "x"}, {"quote": "y", "start": 0}]
    body = _calls.assertion_body("s", "p", "o", evidence=["x", "y"], **ASSERTION)
    assert body["evidence"] == [{"quote": "x"}, {"quote": "y"}]
    many = _calls.assert_many([{"subject": "s", "evidence": ["x"]}]).body
    assert many == {"assertions": [{"subject": "s", "evidence": [{"quote": "x"}]}]}
    event = _calls.event_body("t", "a", "b", "success", assertions=[{"evidence": ["q"]}])
    assert event["assertions"] == [{"evidence": [{"quote": "q"}]}]


@pytest.mark.parametrize(
    ("evidence", "where"),
    [(["x", 3], "evidence[1] is int 3"), (7, "evidence is int 7"), (b"x", "evidence is bytes")],
)
def test_evidence_that_is_no_quote_or_span_is_told_what_a_span_is(
    evidence: Any, where: str
) -> None:
    with pytest.raises(InvalidArgument, match="a span is a mapping with the exact words") as e:
        _calls.evidence_json(evidence)
    assert str(e.value).startswith(where)


def test_the_mcp_http_transport_takes_the_bearer_scheme_in_any_case() -> None:
    """RFC 7235: the scheme is case-insensitive (a trial's ``bearer <token>`` was 401)."""
    from tractatus_client.mcp_server import BearerToken

    token = "t" * 30
    gate = BearerToken(_never, token)  # type: ignore[arg-type]
    for header in (f"Bearer {token}", f"bearer {token}", f"BEARER {token}", f"Bearer  {token}"):
        assert gate.authorized(header.encode()), header
    for header in (f"Bearer {token}x", f"Basic {token}", token, f"Bearer{token}", "Bearer ", ""):
        assert not gate.authorized(header.encode()), header


# The arguments each method needs, to call it with one list-valued argument wrong.
NEEDED: dict[str, dict[str, Any]] = {
    "assert_fact": {"subject": "s", "predicate": "p", "object": "o", "evidence": "x", **ASSERTION},
    "assert_facts": {"bodies": [{"subject": "s"}]},
    "retract": {"subject": "s", "predicate": "p", "evidence": "x", **ASSERTION},
    "facts": {"subject": "s", "predicate": "p"},
    "observe": {"text": "t", "speaker": "s"},
    "record_event": {"task_id": "t", "actor": "a", "action": "b", "outcome": "success"},
    "start_task": {"task_id": "t"},
}


def _list_valued() -> list[tuple[str, str]]:
    """Every (method, parameter) of the client that takes a list, from the signatures: a new
    one without an entry in ``NEEDED`` fails the test below."""
    return sorted(
        (name, parameter.name)
        for name, member in vars(Tractatus).items()
        if callable(member) and not name.startswith("_")
        for parameter in inspect.signature(member).parameters.values()
        if "Sequence[" in str(parameter.annotation)
    )


def test_every_list_valued_parameter_is_known() -> None:
    assert _list_valued() == [
        ("assert_fact", "access"),
        ("assert_fact", "disclosures"),
        ("assert_facts", "bodies"),
        ("facts", "tiers"),
        ("observe", "access"),
        ("observe", "text"),  # text is the one-text form; a list of bodies is the batch
        ("record_event", "access"),
        ("record_event", "assertions"),
        ("record_event", "caused_by"),
        ("retract", "access"),
        ("start_task", "access"),
    ]


@pytest.mark.parametrize(("method", "parameter"), _list_valued())
@pytest.mark.parametrize("wrong", ["ops", {"text": "t"}, 7])
def test_text_or_a_mapping_where_a_list_is_expected_is_refused_not_split(
    method: str, parameter: str, wrong: Any
) -> None:
    """A new agent developer's trial: ``facts(..., tiers="discarded")`` sent
    ``?tier=d&tier=i...`` (422 ``query.tier[0]``), ``start_task(..., access="ops")`` the groups
    ``o``, ``p``, ``s`` (403). Every list-valued parameter of both clients refuses text, a
    mapping or a lone value before sending, naming it."""
    if (method, parameter) == ("observe", "text") and isinstance(wrong, str):
        return  # one text: the one-text form
    arguments = {**NEEDED[method], parameter: wrong}
    with _sync() as memory, pytest.raises(InvalidArgument, match="give a list") as refused:
        getattr(memory, method)(**arguments)
    name = "observe" if parameter == "text" else parameter
    assert str(refused.value).startswith(f"{name} is {type(wrong).__name__} ")

    async def refused_async() -> None:
        async with _async() as memory:
            await getattr(memory, method)(**arguments)

    with pytest.raises(InvalidArgument, match="give a list") as also:
        asyncio.run(refused_async())
    assert str(also.value) == str(refused.value)


def test_a_list_of_bodies_holding_no_mapping_is_refused_naming_the_item() -> None:
    with _sync() as memory, pytest.raises(InvalidArgument, match=r"^assertions\[1\] is str "):
        memory.record_event("t", "a", "b", "success", root=True, assertions=[{}, "x"])
    with _sync() as memory, pytest.raises(InvalidArgument, match=r"^observe\[0\] is str "):
        memory.observe(["the kettle is in the shed"])


def test_lists_tuples_and_sets_are_sent_as_lists() -> None:
    assert _calls.facts("s", "p", tiers=("short", "long")).params["tier"] == ["short", "long"]
    assert _calls.start_task("t", access=("ops",)).body["access"] == ["ops"]
    assert _calls.start_task("t").body["access"] == []
    body = _calls.assertion_body("s", "p", "o", evidence="x", access={"ops"}, **ASSERTION)
    assert body["access"] == ["ops"]
    assert (
        _calls.assertion_body("s", "p", "o", evidence="x", access=[], **ASSERTION)["access"] == []
    )
    event = _calls.event_body("t", "a", "b", "success", caused_by=("e1",), access=())
    assert (event["caused_by"], event["access"]) == (["e1"], [])
