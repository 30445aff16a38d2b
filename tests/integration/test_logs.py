"""The server's log, as `tractatus serve` writes it: one JSON object per line, each request's
lines with its request id, and never a key or an observation's text at info level.

The run sends every kind of thing a log could leak: the keys of two principals (one of them in
a request that is refused), a wrong key, observation text, an evidence quote, a recall query,
a subject in a query string; then greps the whole captured log for each of them.
"""

from __future__ import annotations

import json
import os
import signal
import uuid
from pathlib import Path

import httpx
import pytest
from neo4j import Driver

from bench.harness import start_server
from tests.helpers import KEYS, assertion

pytestmark = pytest.mark.integration

Served = tuple[str, dict[str, str]]  # the captured log, and what the run sent
LIMIT = 65_536  # the served body limit: a 413 without sending megabytes


def _sentinel(kind: str) -> str:
    return f"{kind}{uuid.uuid4().hex[:12]}"


def _drive(url: str, secrets: dict[str, str]) -> None:
    alice = {"Authorization": f"Bearer {KEYS['alice']}", "X-Request-ID": "logged-1"}
    wrong = {"Authorization": f"Bearer {secrets['wrong_key']}"}
    with httpx.Client(base_url=url, timeout=120) as http:
        observed = http.post(
            "/v1/observations",
            headers=alice,
            json={
                "text": secrets["text"],
                "speaker": "user:alice",
                "source_kind": "user_stated",
                "occurred_at": "2026-01-10T09:00:00+00:00",
                "idempotency_key": secrets["text"],
            },
        )
        assert observed.status_code == 201, observed.text
        quote = secrets["quote"]
        written = http.post(
            "/v1/assertions",
            headers={"Authorization": f"Bearer {KEYS['bob']}"},
            json=assertion("user:bob", "tech_stack", quote, evidence={"quote": quote}),
        )
        assert written.status_code == 201, written.text
        assert http.get("/v1/ontology", headers=wrong).status_code == 401
        read = http.get(
            "/v1/facts",
            headers=alice,
            params={"subject": "user:" + secrets["subject"], "predicate": "x"},
        )
        assert read.status_code == 200
        recalled = http.post("/v1/recall", headers=alice, json={"query": secrets["query"]})
        assert recalled.status_code == 200, recalled.text
        broken = {**alice, "Content-Type": "application/json"}
        refused = http.post("/v1/observations", headers=broken, content=b'{"text": "a secret')
        assert refused.status_code == 400
        _refused_before_routing(http, alice, secrets["key_as_id"])


def _refused_before_routing(http: httpx.Client, alice: dict[str, str], key: str) -> None:
    """A key sent as the request id (a safe id, so echoed), a body over the limit by its
    Content-Length, and HEAD probes: a new operator's trial found the key in plain text in
    the JSON log, and the 413 labelled ``unmatched``."""
    as_id = http.get(
        "/v1/ontology", headers={"Authorization": f"Bearer {key}", "X-Request-ID": key}
    )
    assert as_id.status_code == 401 and as_id.headers["X-Request-ID"] == key
    headers = {**alice, "X-Request-ID": "logged-413", "Content-Type": "application/json"}
    too_large = http.post("/v1/recall", headers=headers, content=b" " * (LIMIT + 1))
    assert too_large.status_code == 413
    for probe in ("/healthz", "/readyz"):
        head = http.head(probe, headers={"X-Request-ID": "logged-head"})
        assert (head.status_code, head.content) == (200, b"")
        assert head.headers["X-Request-ID"] == "logged-head"


@pytest.fixture(scope="module")
def served_log(
    principals_file: Path, driver: Driver, tmp_path_factory: pytest.TempPathFactory
) -> Served:
    secrets = {
        "text": _sentinel("obstext"),
        "quote": _sentinel("quotetext"),
        "query": _sentinel("querytext"),
        "subject": _sentinel("subj"),
        "wrong_key": "tr_wrong_" + _sentinel("key") + "0" * 10,
        "key_as_id": "tr_live_" + _sentinel("asid") + "0" * 10,
    }
    env = {
        **os.environ,
        "TRACTATUS_PRINCIPALS": str(principals_file),
        "TRACTATUS_EMBEDDING_MODEL": "none",
        "TRACTATUS_LOG_LEVEL": "info",
        "TRACTATUS_MAX_BODY_BYTES": str(LIMIT),
    }
    path = tmp_path_factory.mktemp("log") / "server.log"
    with path.open("wb") as sink:
        process, url = start_server(env, timeout=120, output=sink)
        try:
            _drive(url, secrets)
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=60)
    return path.read_text("utf-8"), secrets


def test_every_line_is_one_json_object(served_log: Served) -> None:
    text, _ = served_log
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert lines
    for line in lines:
        assert {"time", "level", "logger", "message", "request_id"} <= set(line)


def test_each_request_has_an_access_line_with_its_id(
    served_log: Served,
) -> None:
    text, _ = served_log
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    access = [line for line in lines if line["logger"] == "tractatus.access"]
    mine = [line for line in access if line["request_id"] == "logged-1"]
    assert {(line["method"], line["route"]) for line in mine} >= {
        ("POST", "/v1/observations"),
        ("GET", "/v1/facts"),
        ("POST", "/v1/recall"),
    }
    assert all(line["principal"] == "alice" for line in mine)
    refused = [line for line in access if line["status"] == 401]
    assert refused and all(line["principal"] is None for line in refused)
    assert all(line["request_id"] for line in access)


def test_no_key_and_no_text_at_info(served_log: Served) -> None:
    text, secrets = served_log
    for key in KEYS.values():
        assert key not in text
    for name, value in secrets.items():
        assert value not in text, name


def test_a_request_answered_before_routing_names_its_route(served_log: Served) -> None:
    text, _ = served_log
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    access = [line for line in lines if line["logger"] == "tractatus.access"]
    [too_large] = [line for line in access if line["request_id"] == "logged-413"]
    assert (too_large["route"], too_large["status"]) == ("/v1/recall", 413)
    assert too_large["principal"] == "alice"
    heads = [line for line in access if line["request_id"] == "logged-head"]
    assert {(line["method"], line["route"], line["status"]) for line in heads} == {
        ("HEAD", "/healthz", 200),
        ("HEAD", "/readyz", 200),
    }
    masked = [line for line in access if line["request_id"] == "***"]
    assert [(line["route"], line["status"]) for line in masked] == [("/v1/ontology", 401)]
