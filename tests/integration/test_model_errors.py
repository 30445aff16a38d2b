"""A server that cannot embed answers 503 with the one error shape and writes nothing, over
real HTTP against the real store: a damaged model file (`embedding_unavailable`), and a store
whose vectors come from another model, found at the first request because the store could not
be reached at start (`embedding_space_mismatch`). Both answered 500 before. A Chinese question,
which recall searches without a vector, needs no model and is answered."""

from __future__ import annotations

import shutil
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
from neo4j import Driver

from bench.harness import serve_app
from graph_schema.schema.space import LEGACY_MODEL
from server.app import create_app
from server.settings import Settings
from tests.helpers import KEYS, assertion, turn
from tests.integration.conftest import reset_store

pytestmark = pytest.mark.integration

AUTH = {"Authorization": f"Bearer {KEYS['alice']}"}
EMBEDDING_WRITES = [
    ("/v1/observations", turn("model-errors", 1, "user:alice", "I moved to Lisbon in May.")),
    ("/v1/assertions", assertion("user:alice", "tech_stack", "Vue")),
    ("/v1/recall", {"query": "where does alice live?"}),
]
FACTS = "/v1/facts?subject=user:alice&predicate=tech_stack"
COUNT_NODES = "MATCH (n) RETURN count(n) AS n"
SET_SPACE_MODEL = "MATCH (s:EmbeddingSpace {id: 'default'}) SET s.model = $model"


def _light(settings: Settings, **update: Any) -> Settings:
    return settings.model_copy(
        update={"embed_processes": False, "embed_replicas": 1, "access_log": False, **update}
    )


def _nodes(driver: Driver, settings: Settings) -> int:
    records, _, _ = driver.execute_query(COUNT_NODES, database_=settings.neo4j_database)
    return int(records[0]["n"])


def _refused(response: httpx.Response, code: str) -> dict[str, Any]:
    assert response.status_code == 503, response.text
    assert int(response.headers["Retry-After"]) >= 1
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "details", "request_id"}
    assert body["error"]["code"] == code
    error: dict[str, Any] = body["error"]
    return error


@pytest.fixture
def damaged_model(tmp_path: Path, settings: Settings) -> str:
    """A copy of the configured model whose weights file is not a model."""
    copy = tmp_path / "model"
    shutil.copytree(settings.embedding_model, copy)
    (copy / "model.onnx").write_bytes(b"not an onnx model" * 64)
    return str(copy)


@pytest.mark.parametrize(("path", "body"), EMBEDDING_WRITES)
def test_a_damaged_model_answers_503_and_writes_nothing(
    driver: Driver, settings: Settings, damaged_model: str, path: str, body: dict[str, Any]
) -> None:
    reset_store(driver, settings)
    before = _nodes(driver, settings)
    with serve_app(create_app(_light(settings, embedding_model=damaged_model))) as url:
        response = httpx.post(url + path, json=body, headers=AUTH, timeout=120)
        error = _refused(response, "embedding_unavailable")
        assert damaged_model not in error["message"]  # the server's files stay in its log
        reads = httpx.get(url + FACTS, headers=AUTH, timeout=60)
    assert reads.status_code == 200, reads.text  # what needs no model still answers
    assert _nodes(driver, settings) == before


def test_a_chinese_question_is_answered_without_the_english_model(
    driver: Driver, settings: Settings, damaged_model: str
) -> None:
    """A CJK query is searched without its vector (the embedding model is English), yet the
    server embedded it before reading it, so a Chinese question was refused 503 when the
    English model could not load, and paid for an embedding it never used. Now it is read
    lexically (and by the CJK model) while an English question is still refused."""
    reset_store(driver, settings)
    with serve_app(create_app(_light(settings, embedding_model=damaged_model))) as url:
        chinese = httpx.post(
            url + "/v1/recall", json={"query": "王磊住在哪里？"}, headers=AUTH, timeout=120
        )
        english = httpx.post(
            url + "/v1/recall", json={"query": "where does alice live?"}, headers=AUTH, timeout=120
        )
    assert chinese.status_code == 200, chinese.text
    assert chinese.json()["status"] == "not_found"  # an empty store holds nothing
    _refused(english, "embedding_unavailable")


class _Gate:
    """A loopback port in front of the store: refuses connections until opened, then relays
    bytes both ways (the store "unreachable at start, reachable later")."""

    def __init__(self, target: int) -> None:
        self.target, self.opened, self._stop = target, threading.Event(), threading.Event()
        self._server = socket.create_server(("127.0.0.1", 0))
        self._server.settimeout(0.2)
        self._held: list[socket.socket] = []
        self.port = int(self._server.getsockname()[1])
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                client = self._server.accept()[0]
            except TimeoutError:
                continue
            if not self.opened.is_set():
                client.close()
                continue
            upstream = socket.create_connection(("127.0.0.1", self.target))
            self._held += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=_relay, args=(a, b), daemon=True).start()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        for conn in self._held:
            conn.close()
        self._server.close()


def _relay(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:  # the other side closed: the relay ends with it
        pass
    finally:
        for conn in (source, sink):
            with suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)


@contextmanager
def _gate(settings: Settings) -> Iterator[_Gate]:
    gate = _Gate(int(settings.neo4j_uri.rsplit(":", 1)[1]))
    try:
        yield gate
    finally:
        gate.close()


@pytest.fixture
def store_of_another_model(driver: Driver, settings: Settings) -> Iterator[None]:
    reset_store(driver, settings)
    driver.execute_query(SET_SPACE_MODEL, model=LEGACY_MODEL, database_=settings.neo4j_database)
    yield
    reset_store(driver, settings)


@pytest.mark.usefixtures("store_of_another_model")
def test_a_store_of_another_model_found_late_answers_503_and_writes_nothing(
    driver: Driver, settings: Settings
) -> None:
    before = _nodes(driver, settings)
    with _gate(settings) as gate:
        bounded = _light(
            settings,
            neo4j_uri=f"bolt://127.0.0.1:{gate.port}",
            neo4j_connection_timeout=1.0,
            neo4j_acquisition_timeout=2.0,
            neo4j_retry_time=1.0,
        )
        with serve_app(create_app(bounded)) as url:  # the check at start cannot reach the store
            gate.opened.set()
            for path, body in EMBEDDING_WRITES:
                response = httpx.post(url + path, json=body, headers=AUTH, timeout=120)
                error = _refused(response, "embedding_space_mismatch")
                assert LEGACY_MODEL in error["message"]
            reads = httpx.get(url + FACTS, headers=AUTH, timeout=60)
    assert reads.status_code == 200, reads.text
    assert _nodes(driver, settings) == before
