"""Rate limits per principal over real HTTP: 429 ``rate_limited`` with ``Retry-After`` in the
one error shape, per principal, nothing written, and the probes never limited."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest
from neo4j import Driver

from bench.harness import serve_app
from server.app import create_app
from server.settings import Settings
from tests.helpers import KEYS, Api, assertion

pytestmark = pytest.mark.integration

BURST = 3


@pytest.fixture(scope="module")
def limited_url(settings: Settings, driver: Driver) -> Iterator[str]:
    # one token a second after a burst of three: the test sends faster than that
    limited = settings.model_copy(update={"rate_limit": 1.0, "rate_burst": BURST})
    with serve_app(create_app(limited)) as url:
        yield url


def test_over_the_burst_is_429_with_retry_after(limited_url: str) -> None:
    alice = Api(limited_url, KEYS["alice"])
    statuses = [alice.get("/v1/ontology").status_code for _ in range(BURST)]
    refused = alice.get("/v1/ontology")
    assert statuses == [200] * BURST
    assert refused.status_code == 429
    error = refused.json()["error"]
    assert error["code"] == "rate_limited" and error["request_id"]
    assert refused.headers["Retry-After"] == "1"
    # another principal has its own bucket; the probes have none
    assert Api(limited_url, KEYS["bob"]).get("/v1/ontology").status_code == 200
    assert all(httpx.get(limited_url + "/healthz").status_code == 200 for _ in range(10))
    time.sleep(int(refused.headers["Retry-After"]) + 0.2)
    assert alice.get("/v1/ontology").status_code == 200


def test_a_refused_write_writes_nothing(
    limited_url: str, subject: str, api: dict[str, Api]
) -> None:
    carol = Api(limited_url, KEYS["carol"])
    for _ in range(BURST):
        carol.get("/v1/ontology")
    refused = carol.post("/v1/assertions", assertion(subject, "tech_stack", "Vue"))
    assert refused.status_code == 429
    facts = api["carol"].get("/v1/facts", subject=subject, predicate="tech_stack").json()
    assert facts["status"] == "not_found"


def test_off_by_default(api: dict[str, Api]) -> None:
    assert all(api["dave"].get("/v1/ontology").status_code == 200 for _ in range(20))


def test_a_429_and_a_413_are_counted_under_their_route(limited_url: str) -> None:
    """Refused before routing, yet labelled with the route (a new operator's trial saw
    ``route="unmatched"`` and could not tell which route was throttled or flooded)."""
    erin = Api(limited_url, KEYS["erin"])
    for _ in range(BURST):
        erin.get("/v1/ontology")
    assert erin.get("/v1/ontology").status_code == 429
    too_large = httpx.post(
        limited_url + "/v1/recall",
        headers={"Authorization": f"Bearer {KEYS['dave']}", "Content-Type": "application/json"},
        content=b" " * (8 * 1024 * 1024 + 1),
        timeout=60,
    )
    assert too_large.status_code == 413
    text = httpx.get(limited_url + "/metrics").text
    assert 'tractatus_http_requests_total{method="GET",route="/v1/ontology",status="429"}' in text
    assert 'tractatus_http_requests_total{method="POST",route="/v1/recall",status="413"}' in text
    assert 'route="unmatched",status="429"' not in text
    assert 'route="unmatched",status="413"' not in text
