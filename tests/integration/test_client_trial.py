"""A new agent developer's trial of the Python client, against the real API over HTTP: a body
over the server's limit is the server's 413 for the async client too (it was a connection
error, retried three times), a caller's own idempotency key stays usable, evidence given as a
list of quotes is written as spans."""

from __future__ import annotations

import asyncio
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
