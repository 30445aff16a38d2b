"""Every answer carries a request id (``X-Request-ID``), echoed from the caller when it is a
safe id and made up otherwise (never reflected); every error body carries the same id."""

from __future__ import annotations

import re

import httpx
import pytest
from tractatus_client import NotFound, Tractatus, Unauthenticated, _calls

from tests.helpers import KEYS, Api, assertion

pytestmark = pytest.mark.integration

SAFE = re.compile(r"[A-Za-z0-9._:-]{1,128}")
AUTH = {"Authorization": f"Bearer {KEYS['alice']}"}
JSON = {**AUTH, "Content-Type": "application/json"}


def _id_of(response: httpx.Response) -> str:
    values = response.headers.get_list("X-Request-ID")
    assert len(values) == 1, values
    assert SAFE.fullmatch(values[0])
    return values[0]


@pytest.mark.parametrize(
    ("method", "path", "headers", "body", "status"),
    [
        ("GET", "/v1/ontology", AUTH, None, 200),
        ("GET", "/healthz", {}, None, 200),
        ("GET", "/metrics", {}, None, 200),
        # load balancers probe with HEAD: as GET, without the body (it answered 405)
        ("HEAD", "/healthz", {}, None, 200),
        ("HEAD", "/readyz", {}, None, 200),
        ("HEAD", "/metrics", {}, None, 200),
        ("GET", "/v1/ontology", {}, None, 401),
        ("GET", "/v1/events/01NOPE", AUTH, None, 404),
        ("GET", "/nowhere", {}, None, 404),
        ("DELETE", "/v1/ontology", AUTH, None, 405),
        ("GET", "/v1/facts?subject=s", AUTH, None, 422),
        ("POST", "/v1/assertions", JSON, b"{not json", 400),
        ("POST", "/v1/assertions", JSON, b"[" + b" " * 9_000_000 + b"]", 413),
    ],
)
def test_every_answer_has_one_and_errors_say_it(
    base_url: str,
    method: str,
    path: str,
    headers: dict[str, str],
    body: bytes | None,
    status: int,
) -> None:
    response = httpx.request(method, base_url + path, headers=headers, content=body, timeout=60)
    assert response.status_code == status
    request_id = _id_of(response)
    if method == "HEAD":
        assert response.content == b"" and int(response.headers["Content-Length"]) > 0
    if status >= 400:
        assert response.json()["error"]["request_id"] == request_id


def test_a_safe_id_is_echoed(base_url: str) -> None:
    given = "trace-01:Ab_9.z"
    response = httpx.get(base_url + "/v1/events/01NOPE", headers={**AUTH, "X-Request-ID": given})
    assert response.status_code == 404
    assert _id_of(response) == given
    assert response.json()["error"]["request_id"] == given


@pytest.mark.parametrize(
    "junk",
    [
        b"",
        b"has space",
        b"x" * 129,
        b"<script>alert(1)</script>",
        b"caf\xc3\xa9",
        b"\xff\xfe",
        b"a;b=c",
    ],
)
def test_junk_is_replaced_never_reflected(base_url: str, junk: bytes) -> None:
    response = httpx.get(base_url + "/v1/ontology", headers=[(b"X-Request-ID", junk)])
    assert response.status_code == 401
    request_id = _id_of(response)
    assert request_id.encode() != junk
    assert response.json()["error"]["request_id"] == request_id
    assert junk.decode("latin-1") not in response.text or not junk


def test_two_ids_are_replaced(base_url: str) -> None:
    response = httpx.get(
        base_url + "/v1/ontology", headers=[(b"X-Request-ID", b"one"), (b"X-Request-ID", b"two")]
    )
    assert _id_of(response) not in ("one", "two")


def test_each_request_gets_its_own(api: dict[str, Api], subject: str) -> None:
    first = api["alice"].post("/v1/assertions", assertion(subject, "tech_stack", "Vue"))
    second = api["alice"].get("/v1/facts", subject=subject, predicate="tech_stack")
    assert first.status_code == 201 and second.status_code == 200
    assert _id_of(first) != _id_of(second)


def test_batch_items_refused_carry_the_id(api: dict[str, Api], subject: str) -> None:
    key = f"{subject}:turn-1"
    first = {
        "text": "we use Vue",
        "speaker": "user:alice",
        "occurred_at": "2026-01-10T09:00:00+00:00",
        "source_kind": "user_stated",
        "idempotency_key": key,
    }
    assert api["alice"].post("/v1/observations", first).status_code == 201
    again = {**first, "text": "we use React"}  # the same key for another body: refused
    body = {"observations": [again]}
    response = api["alice"].post("/v1/observations", body, headers={"X-Request-ID": "batch-7"})
    assert response.status_code == 200, response.text
    (item,) = response.json()["results"]
    assert item["status"] == 409
    assert item["error"]["request_id"] == "batch-7"


def test_the_clients_errors_carry_the_servers_id(base_url: str) -> None:
    with (
        Tractatus(base_url, KEYS["alice"], retries=0) as client,
        pytest.raises(NotFound) as missing,
    ):
        client.run(_calls.event("01NOPE"), request_id="mine-42")
    assert missing.value.request_id == "mine-42"
    with (
        Tractatus(base_url, "tr_wrong_000000000000000000000000", retries=0) as client,
        pytest.raises(Unauthenticated) as refused,
    ):
        client.ontology()
    request_id = refused.value.request_id
    assert request_id and SAFE.fullmatch(request_id)
    assert request_id in str(refused.value)
