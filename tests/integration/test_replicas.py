"""Two API processes against one Neo4j: compare-and-set writers racing through both replicas
get exactly one winner per version, and writes without a precondition are serialised, because
the slot's lock and its one-current-version rule live in the store, not in a process
(docs/architecture.md, "Several replicas")."""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from neo4j import Driver

from bench.harness import serve
from graph_schema.ledger.reads import overlapping_versions
from tests.helpers import KEYS, Api, assertion

pytestmark = pytest.mark.integration

WRITERS = 20
ROUNDS = 3
SLOTS = 3


@pytest.fixture(scope="module")
def replicas(principals_file: Path, driver: Driver) -> Iterator[list[Api]]:
    env = {**os.environ, "TRACTATUS_PRINCIPALS": str(principals_file)}
    with ExitStack() as stack:
        urls = [stack.enter_context(serve(env, timeout=180)) for _ in range(2)]
        assert urls[0] != urls[1]
        apis = [Api(url, KEYS["public"]) for url in urls]
        for api in apis:  # the first write loads the embedding model: not part of a race
            api.client.timeout = httpx.Timeout(300)
            warm = api.post(
                "/v1/assertions", assertion("replicas:warm-up", "status", api.client.base_url.port)
            )
            assert warm.status_code == 201, warm.text
        yield apis


def _race(replicas: list[Api], subject: str, expected: str, tag: str) -> list[tuple[int, dict]]:
    """WRITERS concurrent CAS writes on one slot, alternating between the replicas."""

    def attempt(n: int) -> tuple[int, dict]:
        body = assertion(subject, "status", f"{tag}-w{n}", expected_current=expected)
        response = replicas[n % 2].post("/v1/assertions", body)
        return response.status_code, response.json()

    with ThreadPoolExecutor(max_workers=WRITERS) as pool:
        return list(pool.map(attempt, range(WRITERS)))


def test_cas_writers_on_two_replicas_get_one_winner_per_version(
    replicas: list[Api], subject: str, driver: Driver
) -> None:
    for slot in range(SLOTS):
        name = f"{subject}-{slot}"
        first = replicas[slot % 2].post("/v1/assertions", assertion(name, "status", "v0"))
        assert first.status_code == 201, first.text
        head = first.json()["assertion"]["id"]
        for round_ in range(ROUNDS):
            answers = _race(replicas, name, head, f"r{round_}")
            codes = sorted(code for code, _ in answers)
            assert codes == [201] + [409] * (WRITERS - 1), codes
            winner = next(body for code, body in answers if code == 201)["assertion"]
            for code, body in answers:
                if code == 409:
                    assert body["error"]["code"] == "precondition_failed"
                    assert body["error"]["details"]["current"]["id"] == winner["id"]
            head = winner["id"]
        for replica in replicas:  # both replicas read the same history and the same head
            history = replica.get("/v1/facts/history", subject=name, predicate="status").json()
            assert len(history["versions"]) == ROUNDS + 1
            facts = replica.get("/v1/facts", subject=name, predicate="status").json()
            assert [fact["id"] for fact in facts["facts"]] == [head]
    assert overlapping_versions(driver, database="neo4j") == []


def test_writes_without_a_precondition_through_two_replicas_are_serialised(
    replicas: list[Api], subject: str, driver: Driver
) -> None:
    def write(n: int) -> int:
        body = assertion(subject, "status", f"s{n}")
        return replicas[n % 2].post("/v1/assertions", body).status_code

    with ThreadPoolExecutor(max_workers=WRITERS) as pool:
        assert set(pool.map(write, range(WRITERS))) == {201}
    for replica in replicas:
        current = replica.get("/v1/facts", subject=subject, predicate="status").json()
        assert len(current["facts"]) == 1
    history = replicas[0].get("/v1/facts/history", subject=subject, predicate="status").json()
    # every write is a version; writes that commit out of their valid-time order also leave
    # remnants (docs/semantics.md), so there may be more versions than writes, never fewer
    assert {v["object"] for v in history["versions"]} == {f"s{n}" for n in range(WRITERS)}
    assert overlapping_versions(driver, database="neo4j") == []
