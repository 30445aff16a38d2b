"""With the store unreachable, every request fails within a bounded time, over real HTTP.

Two real unreachable stores: a closed port (the connection is refused at once) and a socket
that accepts connections and never answers (the Bolt handshake hangs). The server is
configured with small driver bounds; the assertions allow several times as much (a noisy
machine), and far less than the driver's defaults (30 s, 60 s), which the bug showed.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
import pytest
from tractatus_client import Tractatus, Unavailable

from bench.harness import free_port, serve_app
from ingest import bulk
from server.app import create_app
from server.settings import Settings
from tests.helpers import KEYS, assertion

pytestmark = pytest.mark.integration

RETRY_AFTER = 1
AT = "2026-06-01T09:00:00+00:00"  # the time of the bulk loader's notes
# configured: a connection in 1 s, acquired in 2 s, retried for 1 s: a 3 s bound
BOUNDS = {
    "neo4j_connection_timeout": 1.0,
    "neo4j_acquisition_timeout": 2.0,
    "neo4j_retry_time": 1.0,
    "probe_timeout": 0.5,
    "retry_after": RETRY_AFTER,
}
GENEROUS = 10.0  # seconds: the 3 s bound on a noisy machine
PROBE_GENEROUS = 3.0  # the probes' 0.5 s bound, likewise


@contextmanager
def _silent_listener() -> Iterator[int]:
    """A port whose socket accepts every connection and never sends a byte."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield int(server.getsockname()[1])
    finally:
        stop.set()
        thread.join(timeout=5)
        for conn in held:
            conn.close()
        server.close()


@pytest.fixture(scope="module", params=["closed-port", "silent-socket"])
def down_url(request: pytest.FixtureRequest, principals_file: Path) -> Iterator[str]:
    """The API over a store that cannot be reached, one of the two ways."""
    with ExitStack() as stack:
        if request.param == "closed-port":
            port = free_port()
        else:
            port = stack.enter_context(_silent_listener())
        settings = Settings(
            principals=principals_file,
            neo4j_uri=f"bolt://127.0.0.1:{port}",
            embedding_model="none",
            access_log=False,
            **BOUNDS,  # type: ignore[arg-type]
        )
        yield stack.enter_context(serve_app(create_app(settings)))


def _timed(method: str, url: str, **kw: object) -> tuple[httpx.Response, float]:
    started = time.perf_counter()
    response = httpx.request(method, url, timeout=120, **kw)  # type: ignore[arg-type]
    return response, time.perf_counter() - started


def _is_store_unavailable(response: httpx.Response) -> None:
    assert response.status_code == 503, response.text
    assert response.json()["error"]["code"] == "store_unavailable"
    assert response.headers["Retry-After"] == str(RETRY_AFTER)


AUTH = {"Authorization": f"Bearer {KEYS['alice']}"}


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/v1/facts?subject=user:alice&predicate=tech_stack", None),
        ("GET", "/v1/facts/history?subject=user:alice&predicate=tech_stack", None),
        ("POST", "/v1/assertions", assertion("user:alice", "tech_stack", "Vue")),
        ("POST", "/v1/recall", {"query": "what stack?"}),
        ("GET", "/v1/ontology", None),
    ],
)
def test_every_request_fails_within_the_bound(
    down_url: str, method: str, path: str, body: object
) -> None:
    response, seconds = _timed(method, down_url + path, headers=AUTH, json=body)
    _is_store_unavailable(response)
    assert seconds < GENEROUS


def test_liveness_answers_200_with_the_store_down_within_its_bound(down_url: str) -> None:
    for _ in range(3):  # a probe still running is waited for once, never piled up
        response, seconds = _timed("GET", down_url + "/healthz")
        assert response.status_code == 200
        body = response.json()
        assert body["status"] == "ok"
        assert body["neo4j"] == "down"
        assert body["schema_version"] is None
        assert body["store_error"] in ("unreachable", "timeout")
        assert seconds < PROBE_GENEROUS


def test_readiness_answers_503_within_its_bound(down_url: str) -> None:
    response, seconds = _timed("GET", down_url + "/readyz")
    _is_store_unavailable(response)
    assert response.json()["error"]["details"]["store_error"] in ("unreachable", "timeout")
    assert seconds < PROBE_GENEROUS


def test_the_client_says_what_it_waits_for_and_gives_up(
    down_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="tractatus_client")
    with (
        Tractatus(down_url, KEYS["alice"], retries=1, backoff=0.1) as client,
        pytest.raises(Unavailable) as raised,
    ):
        client.facts("user:alice", "tech_stack")
    assert raised.value.retry_after == RETRY_AFTER
    assert raised.value.request_id
    waits = [r.getMessage() for r in caplog.records if r.name == "tractatus_client"]
    assert len(waits) == 1, waits
    assert "GET /v1/facts" in waits[0] and "store_unavailable" in waits[0]
    assert raised.value.request_id in waits[0]
    assert "attempt 2 of 2" in waits[0]


def test_the_bulk_loader_waits_says_why_then_leaves_the_batch(
    down_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    items = [{"text": "we use Vue", "idempotency_key": "k1", "occurred_at": AT}]
    summary = bulk.load(
        items,
        url=down_url,
        key=KEYS["alice"],
        progress=bulk.Progress(None),
        retries=0,
        patience=6.0,
        show_progress=False,
    )
    assert summary.failed == 1 and summary.created == 0
    said = [r.getMessage() for r in caplog.records if r.name == "tractatus.ingest"]
    assert any("waiting for the server" in m and "store_unavailable" in m for m in said), said
    assert any("gave up on a batch of 1" in m for m in said), said


def test_the_bulk_loader_stops_sending_once_a_batch_is_given_up(
    down_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    # Each batch would otherwise wait its whole patience in turn: a load of many batches
    # against a server that is gone sat for patience x batches (the faults bench hung on it).
    caplog.set_level(logging.WARNING)
    items = [
        {"text": f"note {i}", "idempotency_key": f"stop-{i}", "occurred_at": AT} for i in range(10)
    ]
    summary = bulk.load(
        items,
        url=down_url,
        key=KEYS["alice"],
        progress=bulk.Progress(None),
        batch_size=1,
        workers=1,
        retries=0,
        patience=2.0,
        show_progress=False,
    )
    said = [r.getMessage() for r in caplog.records if r.name == "tractatus.ingest"]
    gave_up = [m for m in said if "gave up on a batch" in m]
    assert summary.failed == len(gave_up) <= 2, said
    assert summary.not_sent == 10 - summary.failed and summary.created == 0
    assert any(f"{summary.not_sent} observations not sent" in m for m in said), said
