"""Times inside the bodies the client sends, and a retraction's ``valid_to`` (a new user's
trial; no server needed: a transport that keeps what was sent and answers 422).

A ``datetime`` inside a body (``assert_facts``, ``observe([...])``,
``record_event(assertions=...)``) raised the serialiser's bare "Object of type datetime is not
JSON serializable" in both clients, while the same datetime as a keyword argument was sent;
and ``retract`` could not send the ``valid_to`` the API takes.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any

import httpx
import pytest
from tractatus_client import AsyncTractatus, InvalidArgument, Rejected, Tractatus, _calls

SAID = {"source_kind": "user_stated", "asserted_by": "user:a", "confidence": 0.9}
JAN = datetime(2020, 1, 1, tzinfo=UTC)
OSLO_TIME = datetime(2021, 6, 1, 12, tzinfo=timezone(timedelta(hours=2)))
REFUSAL = {"error": {"code": "rejected", "message": "kept", "details": {}}}


def _keeping(sent: list[Any]) -> httpx.MockTransport:
    def keep(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        return httpx.Response(422, json=REFUSAL)

    return httpx.MockTransport(keep)


def _calls_with_times(memory: Any) -> list[Any]:
    """Each call of the trial with its times inside the body: the arguments to run."""
    fact = {"subject": "user:a", "predicate": "lives_in", "object": "Oslo", "evidence": "x"}
    timed_fact = {**fact, **SAID, "valid_from": JAN, "valid_to": OSLO_TIME}
    turn = {"text": "I like tea.", "speaker": "Kiwa", "occurred_at": OSLO_TIME}
    return [
        (memory.assert_facts, ([timed_fact],), {}),
        (memory.observe, ([turn],), {}),
        (
            memory.record_event,
            ("task", "agent:a", "x", "success"),
            {"root": True, "occurred_at": OSLO_TIME, "assertions": [timed_fact]},
        ),
    ]


EXPECTED = [
    {"assertions": [{"valid_from": "2020-01-01T00:00:00+00:00"}]},
    {"observations": [{"occurred_at": "2021-06-01T12:00:00+02:00"}]},
    {"occurred_at": "2021-06-01T12:00:00+02:00"},
]


def _times_of(body: dict[str, Any]) -> dict[str, Any]:
    """The times of a sent body, shaped as in ``EXPECTED``."""
    if "observations" in body:
        return {"observations": [{"occurred_at": body["observations"][0]["occurred_at"]}]}
    if "task_id" in body:
        assert body["assertions"][0]["valid_to"] == "2021-06-01T12:00:00+02:00"
        return {"occurred_at": body["occurred_at"]}
    assert body["assertions"][0]["valid_to"] == "2021-06-01T12:00:00+02:00"
    return {"assertions": [{"valid_from": body["assertions"][0]["valid_from"]}]}


def test_the_sync_client_sends_datetimes_inside_bodies_as_rfc_3339() -> None:
    sent: list[Any] = []
    with Tractatus("http://memory.invalid", "k", http_client=httpx.Client(
            transport=_keeping(sent))) as memory:  # fmt: skip
        for method, args, kwargs in _calls_with_times(memory):
            with pytest.raises(Rejected):
                method(*args, **kwargs)
    assert [_times_of(body) for body in sent] == EXPECTED


def test_the_async_client_sends_them_the_same_way() -> None:
    sent: list[Any] = []

    async def run() -> None:
        async with AsyncTractatus("http://memory.invalid", "k", http_client=httpx.AsyncClient(
                transport=_keeping(sent))) as memory:  # fmt: skip
            for method, args, kwargs in _calls_with_times(memory):
                with pytest.raises(Rejected):
                    await method(*args, **kwargs)

    asyncio.run(run())
    assert [_times_of(body) for body in sent] == EXPECTED


def test_a_naive_datetime_or_a_date_as_a_time_inside_a_body_is_refused_naming_where() -> None:
    naive = {"assertions": [{"evidence": {"quote": "q", "occurred_at": datetime(2020, 1, 1)}}]}
    with pytest.raises(InvalidArgument, match=r"^assertions\[0\]\.evidence\.occurred_at: naive"):
        _calls.json_body(naive)
    with pytest.raises(ValueError, match="naive datetime"):  # as the keyword argument is
        _calls.json_body({"observations": [{"occurred_at": datetime(2020, 1, 1)}]})
    with pytest.raises(TypeError, match=r"^assertions\[1\]\.valid_from: a time is a datetime"):
        _calls.json_body({"assertions": [{}, {"valid_from": date(2020, 1, 1)}]})


def test_other_dates_are_sent_as_text_and_the_callers_body_is_left_as_it_was() -> None:
    body = {"after": {"due": date(2026, 3, 15), "at": [JAN]}, "occurred_at": "2026-01-01T00:00Z"}
    sent = _calls.json_body(body)
    assert sent == {
        "after": {"due": "2026-03-15", "at": ["2020-01-01T00:00:00+00:00"]},
        "occurred_at": "2026-01-01T00:00Z",
    }
    assert list(sent) == ["after", "occurred_at"] and list(sent["after"]) == ["due", "at"]
    assert body["after"] == {"due": date(2026, 3, 15), "at": [JAN]}
    deep: dict[str, Any] = {"at": JAN}
    for _ in range(5_000):  # deeper than Python's recursion limit
        deep = {"d": deep}
    copied = _calls.json_body(deep)
    while "d" in copied:
        copied = copied["d"]
    assert copied == {"at": "2020-01-01T00:00:00+00:00"}


def test_retract_sends_valid_to_in_both_clients() -> None:
    sent: list[Any] = []
    args = ("user:a", "lives_in", "Oslo")
    times = {"valid_from": "2020-06-01T00:00:00Z", "valid_to": OSLO_TIME}
    with Tractatus("http://memory.invalid", "k", http_client=httpx.Client(
            transport=_keeping(sent))) as memory, pytest.raises(Rejected):  # fmt: skip
        memory.retract(*args, evidence="z", **times, **SAID)

    async def run() -> None:
        async with AsyncTractatus("http://memory.invalid", "k", http_client=httpx.AsyncClient(
                transport=_keeping(sent))) as memory:  # fmt: skip
            with pytest.raises(Rejected):
                await memory.retract(*args, evidence="z", **times, **SAID)

    asyncio.run(run())
    assert len(sent) == 2 and sent[0] == sent[1]
    assert sent[0]["polarity"] is False
    assert (sent[0]["valid_from"], sent[0]["valid_to"]) == (
        "2020-06-01T00:00:00Z",
        "2021-06-01T12:00:00+02:00",
    )
