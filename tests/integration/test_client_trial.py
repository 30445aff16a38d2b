"""A new agent developer's trial of the Python client, against the real API over HTTP: a body
over the server's limit is the server's 413 for the async client too (it was a connection
error, retried three times), a caller's own idempotency key stays usable, evidence given as a
list of quotes is written as spans."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from tractatus_client import (
    AsyncTractatus,
    InvalidArgument,
    NotFound,
    PayloadTooLarge,
    Tractatus,
)

from tests.conftest import KEYS

pytestmark = pytest.mark.integration

COLD = 120  # seconds: the first write of a session loads the embedding model
JAN = datetime(2026, 1, 10, 9, tzinfo=UTC)
BIG = "ab " * 3_000_000  # 9 MB: over the server's 8 MiB limit
WRITE = {"source_kind": "tool_returned", "asserted_by": "agent:trial", "confidence": 0.9}


def _calls_to(paths: list[str]) -> Callable[[httpx.Request], Awaitable[None]]:
    async def seen(request: httpx.Request) -> None:
        paths.append(request.url.path)

    return seen


async def _too_large_async(base_url: str, subject: str) -> tuple[list[str], list[Any]]:
    paths: list[str] = []
    hooks = {"request": [_calls_to(paths)]}
    refused: list[Any] = []
    async with (
        httpx.AsyncClient(timeout=COLD, event_hooks=hooks) as http,
        AsyncTractatus(base_url, KEYS["alice"], http_client=http, backoff=0.5) as alice,
    ):
        for call in (
            alice.observe(BIG, speaker=subject),
            alice.recall(BIG),
            alice.assert_fact(subject, "said", BIG, evidence="x", **WRITE),
        ):
            with pytest.raises(PayloadTooLarge) as error:
                await call
            refused.append(error.value)
    return paths, refused


def test_the_async_client_gets_the_servers_413_at_once(base_url: str, subject: str) -> None:
    """The trial: the server answered 413 before reading the body and closed the connection;
    the async client read a reset (``ReadError``), called it ``ConnectionFailed`` and sent
    the 9 MB three more times. The server now reads and discards the body before answering."""
    started = time.monotonic()
    paths, refused = asyncio.run(_too_large_async(base_url, subject))
    assert paths == ["/v1/observations", "/v1/recall", "/v1/assertions"]  # once each
    for error in refused:
        assert (error.status, error.code) == (413, "body_too_large")
        assert error.details["limit"] > 0 and error.request_id
    assert time.monotonic() - started < 30  # no backoff waited


def test_the_sync_client_gets_the_413_once_too(base_url: str, subject: str) -> None:
    paths: list[str] = []
    hooks = {"request": [lambda request: paths.append(request.url.path)]}
    with (
        httpx.Client(timeout=COLD, event_hooks=hooks) as http,
        Tractatus(base_url, KEYS["alice"], http_client=http) as alice,
        pytest.raises(PayloadTooLarge) as refused,
    ):
        alice.observe(BIG, speaker=subject)
    assert refused.value.code == "body_too_large" and paths == ["/v1/observations"]


async def _chunks(body: bytes) -> AsyncIterator[bytes]:
    for at in range(0, len(body), 1 << 20):
        yield body[at : at + (1 << 20)]


def test_a_chunked_body_over_the_limit_is_413_for_an_async_sender(base_url: str) -> None:
    """Without a Content-Length the limit stops the body while it streams and the route
    answers 413 on an open connection: an async sender reads it too (a guard: this one never
    failed, unlike a body declared too large)."""

    async def send() -> httpx.Response:
        async with httpx.AsyncClient(timeout=COLD) as http:
            return await http.post(
                f"{base_url}/v1/assertions",
                content=_chunks(b"[" + b" " * 9_000_000 + b"]"),
                headers={"Authorization": f"Bearer {KEYS['alice']}"},
            )

    for _ in range(3):
        response = asyncio.run(send())
        assert "content-length" not in response.request.headers
        assert response.status_code == 413, response.text
        assert response.json()["error"]["code"] == "body_too_large"


def test_a_callers_own_key_needs_its_time_and_stays_usable(base_url: str, subject: str) -> None:
    """The trial: with a key of the caller's and no ``occurred_at`` the client stamped now on
    each call, so the later call with the same key was 409, not the first answer again. Such
    a call is refused before sending; nothing is written and the key is still free."""
    key = f"trial-{uuid.uuid4().hex}"
    text = f"{subject} keeps the kettle in the shed."
    with Tractatus(base_url, KEYS["alice"], timeout=COLD) as alice:
        with pytest.raises(InvalidArgument, match="occurred_at of your own"):
            alice.observe(text, speaker=subject, idempotency_key=key)
        with pytest.raises(InvalidArgument, match=r"observe\[0\]"):
            alice.observe([{"text": text, "speaker": subject, "idempotency_key": key}])
        first = alice.observe(text, speaker=subject, idempotency_key=key, occurred_at=JAN)
        again = alice.observe(text, speaker=subject, idempotency_key=key, occurred_at=JAN)
        assert (first.replayed, again.replayed) == (False, True)
        assert again.observation_id == first.observation_id
        task = f"task:{uuid.uuid4().hex[:8]}"
        step = {"root": True, "idempotency_key": key + ":event"}
        with pytest.raises(InvalidArgument, match="record_event"):
            alice.record_event(task, "agent:trial", "charge_card", "failure", **step)
        with pytest.raises(NotFound):  # the refused call wrote nothing, started nothing
            alice.task(task)
        once = alice.record_event(task, "agent:trial", "charge_card", "failure",
                                  occurred_at=JAN, **step)  # fmt: skip
        twice = alice.record_event(task, "agent:trial", "charge_card", "failure",
                                   occurred_at=JAN, **step)  # fmt: skip
        assert twice.event.id == once.event.id
        assert len(alice.timeline(task).events) == 1


def test_evidence_given_as_a_list_of_quotes_is_written_as_spans(
    base_url: str, subject: str
) -> None:
    """The trial: ``evidence=["x", "y"]`` raised "dictionary update sequence element #0 has
    length 1; 2 is required"."""
    with Tractatus(base_url, KEYS["alice"], timeout=COLD) as alice:
        written = alice.assert_fact(
            subject, "tech_stack", "Vue", evidence=["we use Vue", "the app is in Vue"],
            expected_current=None, **WRITE,
        )  # fmt: skip
        with pytest.raises(InvalidArgument, match=r"evidence\[1\] is int 3: a span is"):
            alice.assert_fact(subject, "tech_stack", "React", evidence=["x", 3], **WRITE)
        history = alice.history(subject, "tech_stack")
    spans = written.assertion.evidence
    assert [span.quote for span in spans] == ["we use Vue", "the app is in Vue"]
    assert [v.object for v in history.versions] == ["Vue"]


def _sent(base_url: str, path: str, **params: Any) -> Any:
    """The JSON the API sends, read with no client."""
    headers = {"Authorization": f"Bearer {KEYS['alice']}"}
    response = httpx.get(f"{base_url}{path}", params=params, headers=headers, timeout=COLD)
    assert response.status_code == 200, response.text
    return response.json()


def _pinned_and_caused(alice: Tractatus, subject: str) -> tuple[str, str]:
    """A fact with a pin transition in its history, and an event caused by another."""
    fact = alice.assert_fact(subject, "tech_stack", "Vue", evidence="we use Vue", **WRITE)
    alice.pin(fact.assertion.id)
    task = f"task:{uuid.uuid4().hex[:8]}"
    first = alice.record_event(task, "agent:trial", "open", "success", root=True)
    then = alice.record_event(task, "agent:trial", "pay", "failure", caused_by=[first.event.id])
    return fact.assertion.id, then.event.id


def test_the_models_dump_the_json_the_api_sent(base_url: str, subject: str) -> None:
    """The trial: a chain's edges and a history's transitions dumped ``{"from_": ...}`` from
    ``model_dump()`` where the API (and the MCP server) says ``from``."""
    with Tractatus(base_url, KEYS["alice"], timeout=COLD) as alice:
        _, event_id = _pinned_and_caused(alice, subject)
        history = alice.history(subject, "tech_stack")
        chain = alice.chain(event_id)
    at = {"subject": subject, "predicate": "tech_stack", "known_at": history.known_at.isoformat()}
    sent = _sent(base_url, "/v1/facts/history", **at)
    assert sent["versions"][0]["transitions"][0]["from"] == "unpinned"
    assert history.model_dump(mode="json") == sent
    assert json.loads(history.model_dump_json()) == sent
    sent = _sent(base_url, f"/v1/events/{event_id}/chain")
    assert [set(edge) for edge in sent["edges"]] == [{"from", "to"}]
    assert chain.model_dump(mode="json") == sent
    assert json.loads(chain.model_dump_json()) == sent


def test_text_where_a_list_is_expected_is_refused_not_split(base_url: str, subject: str) -> None:
    """The trial: ``tiers="discarded"`` went out as ``?tier=d&tier=i...`` (422 ``query.tier[0]``)
    and ``access="ops"`` as the groups ``o``, ``p``, ``s`` (403 "access may only name groups
    the caller belongs to", to a caller in ops). Both clients refuse text where a list is
    expected, before sending; the list itself is sent as it is."""
    task = f"task:{uuid.uuid4().hex[:8]}"
    with Tractatus(base_url, KEYS["grace"], timeout=COLD) as grace:
        with pytest.raises(InvalidArgument, match=r"^access is str 'ops': give a list"):
            grace.start_task(task, goal="x", access="ops")
        with pytest.raises(NotFound):  # nothing was sent
            grace.task(task)
        assert grace.start_task(task, goal="x", access=["ops"]).access == ["ops"]
        with pytest.raises(InvalidArgument, match=r"^tiers is str 'discarded': give a list"):
            grace.facts(subject, "tech_stack", tiers="discarded")
        assert grace.facts(subject, "tech_stack", tiers=["discarded"]).status == "not_found"

    async def refused() -> list[str]:
        async with AsyncTractatus(base_url, KEYS["grace"], timeout=COLD) as client:
            messages = []
            for call in (
                client.start_task(task + ":a", goal="x", access="ops"),
                client.facts(subject, "tech_stack", tiers="discarded"),
                client.record_event(task, "agent:grace", "a", "success", caused_by="ev_1"),
            ):
                with pytest.raises(InvalidArgument) as error:
                    await call
                messages.append(str(error.value))
            return messages

    assert [m.split(":")[0] for m in asyncio.run(refused())] == [
        "access is str 'ops'",
        "tiers is str 'discarded'",
        "caused_by is str 'ev_1'",
    ]


def test_a_replayed_write_says_it_was_replayed(base_url: str, subject: str) -> None:
    """The trial: ``record_event`` sent again with its key answered the same event id, but
    nothing said it was a replay (the server's ``Idempotent-Replayed: true`` was not exposed).
    Every keyed write's result now says ``replayed``, nested write results too."""
    key = f"trial-{uuid.uuid4().hex}"
    task = f"task:{uuid.uuid4().hex[:8]}"
    wrote = [{"subject": subject, "predicate": "tech_stack", "object": "Vue",
              "evidence": "we use Vue", **WRITE}]  # fmt: skip
    with Tractatus(base_url, KEYS["alice"], timeout=COLD) as alice:
        event = [
            alice.record_event(task, "agent:trial", "charge", "success", root=True,
                               occurred_at=JAN, assertions=wrote, idempotency_key=key)
            for _ in range(2)
        ]  # fmt: skip
        fact = [
            alice.assert_fact(subject, "works_at", "Acme", evidence="Acme", **WRITE,
                              idempotency_key=key + ":fact")
            for _ in range(2)
        ]  # fmt: skip
        batch = [alice.assert_facts(wrote, idempotency_key=key + ":batch") for _ in range(2)]
        fresh = alice.assert_fact(subject, "works_at", "Initech", evidence="Initech", **WRITE)
    assert event[1].event.id == event[0].event.id
    assert [(e.replayed, e.assertions[0].replayed) for e in event] == [(False, False), (True, True)]
    assert fact[1].assertion.id == fact[0].assertion.id
    assert [f.replayed for f in fact] == [False, True] and fresh.replayed is False
    assert [[r.replayed for r in results] for results in batch] == [[False], [True]]
    assert "replayed" not in event[1].model_dump()  # not a field of the API's body

    async def observed() -> list[Any]:
        async with AsyncTractatus(base_url, KEYS["alice"], timeout=COLD) as client:
            said = {"speaker": subject, "occurred_at": JAN, "idempotency_key": key + ":obs"}
            one = [await client.observe(f"{subject} works at Globex.", **said) for _ in range(2)]
            again = await client.record_event(task, "agent:trial", "charge", "success",
                root=True, occurred_at=JAN, assertions=wrote, idempotency_key=key)  # fmt: skip
            return [*one, again]

    first, second, again = asyncio.run(observed())
    assert (first.replayed, second.replayed, again.replayed) == (False, True, True)
    assert [r.replayed for r in second.assertions] == [True] * len(second.assertions)
    assert [r.replayed for r in first.assertions] == [False] * len(first.assertions)
