"""Supersession, retraction, back-fill, many-valued slots, batches and compare-and-set."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from neo4j import Driver

from graph_schema.ledger.reads import overlapping_versions
from tests.helpers import Api, assertion

pytestmark = pytest.mark.integration

JAN, MAR, JUN, SEP = (f"2026-{m}-01T00:00:00+00:00" for m in ("01", "03", "06", "09"))


def _objects(api: Api, subject: str, predicate: str, **params: Any) -> list[str]:
    body = api.get("/v1/facts", subject=subject, predicate=predicate, **params).json()
    return [f["object"] for f in body["facts"]]


def test_retraction_ends_the_fact_and_keeps_history(api: dict[str, Api], subject: str) -> None:
    pub = api["public"]
    pub.post("/v1/assertions", assertion(subject, "lives_in", "Berlin", valid_from=JAN))
    r = pub.post(
        "/v1/assertions", assertion(subject, "lives_in", None, polarity=False, valid_from=JUN)
    )
    assert r.status_code == 201, r.text
    assert _objects(pub, subject, "lives_in", as_of=MAR) == ["Berlin"]
    after = pub.get("/v1/facts", subject=subject, predicate="lives_in", as_of=SEP).json()
    assert after["status"] == "not_found"
    history = pub.get("/v1/facts/history", subject=subject, predicate="lives_in").json()
    assert [v["polarity"] for v in history["versions"]] == [True, False]


def test_backfill_lands_in_history_without_displacing_current(
    api: dict[str, Api], subject: str
) -> None:
    pub = api["public"]
    react = pub.post("/v1/assertions", assertion(subject, "tech_stack", "React", valid_from=JUN))
    vue = pub.post("/v1/assertions", assertion(subject, "tech_stack", "Vue", valid_from=JAN))
    assert vue.json()["superseded"] is None
    assert vue.json()["assertion"]["valid_to"].startswith("2026-06-01")
    assert _objects(pub, subject, "tech_stack", as_of=SEP) == ["React"]
    assert _objects(pub, subject, "tech_stack", as_of=MAR) == ["Vue"]
    current = pub.get("/v1/facts", subject=subject, predicate="tech_stack").json()
    assert current["facts"][0]["id"] == react.json()["assertion"]["id"]


def test_backfill_inside_a_closed_interval_makes_a_remnant(
    api: dict[str, Api], subject: str, driver: Driver
) -> None:
    pub = api["public"]
    pub.post("/v1/assertions", assertion(subject, "tech_stack", "Vue", valid_from=JAN))
    pub.post("/v1/assertions", assertion(subject, "tech_stack", "React", valid_from=SEP))
    angular = pub.post(
        "/v1/assertions", assertion(subject, "tech_stack", "Angular", valid_from=MAR, valid_to=JUN)
    ).json()
    assert angular["assertion"]["valid_to"].startswith("2026-06-01")
    assert _objects(pub, subject, "tech_stack", as_of="2026-02-01T00:00:00Z") == ["Vue"]
    assert _objects(pub, subject, "tech_stack", as_of="2026-04-01T00:00:00Z") == ["Angular"]
    assert _objects(pub, subject, "tech_stack", as_of="2026-07-01T00:00:00Z") == ["Vue"]
    assert _objects(pub, subject, "tech_stack", as_of="2026-10-01T00:00:00Z") == ["React"]
    assert overlapping_versions(driver, database="neo4j") == []


def test_many_valued_predicates_hold_independent_values(api: dict[str, Api], subject: str) -> None:
    pub = api["public"]
    for tool in ("git", "vim", "docker"):
        assert pub.post("/v1/assertions", assertion(subject, "uses", tool)).status_code == 201
    pub.post("/v1/assertions", assertion(subject, "uses", "vim", polarity=False))
    assert sorted(_objects(pub, subject, "uses")) == ["docker", "git"]


def test_batch_is_one_transaction_with_one_record_time(api: dict[str, Api], subject: str) -> None:
    items = [assertion(subject, "uses", f"tool-{n}") for n in range(50)]
    items.append(assertion(subject, "tech_stack", "Vue", valid_from=JAN))
    items.append(assertion(subject, "tech_stack", "React", valid_from=JUN))
    response = api["public"].post("/v1/assertions", {"assertions": items})
    assert response.status_code == 201, response.text
    results = response.json()["results"]
    assert len(results) == 52
    assert len({r["assertion"]["recorded_at"] for r in results}) == 1
    assert results[-1]["superseded"] == results[-2]["assertion"]["id"]
    assert len(_objects(api["public"], subject, "uses")) == 50


def test_a_batch_closes_versions_it_wrote_itself(
    api: dict[str, Api], subject: str, driver: Driver
) -> None:
    """Plain writes are sent together: a close may name a version created in the same batch."""
    items = [
        assertion(subject, "tech_stack", name, valid_from=when)
        for name, when in (("Vue", JAN), ("React", MAR), ("Angular", JUN))
    ]
    response = api["public"].post("/v1/assertions", {"assertions": items})
    assert response.status_code == 201, response.text
    vue, react, angular = (r["assertion"]["id"] for r in response.json()["results"])
    assert [r["superseded"] for r in response.json()["results"]] == [None, vue, react]
    assert _objects(api["public"], subject, "tech_stack", as_of="2026-04-01T00:00:00Z") == ["React"]
    records, _, _ = driver.execute_query(
        "MATCH (a:Assertion {subject: $s})-[:EVIDENCED_BY]->(e:Evidence) "
        "OPTIONAL MATCH (a)-[:SUPERSEDES]->(x) "
        "RETURN a.id AS id, x.id AS closes, toString(a.valid_to) AS valid_to, "
        "[t IN [a.valid_from, a.recorded_at, e.recorded_at] | valueType(t)] AS types, "
        "a.valid_to IS NULL OR valueType(a.valid_to) = valueType(a.valid_from) AS same "
        "ORDER BY a.valid_from",
        s=subject,
    )
    assert [(r["id"], r["closes"]) for r in records] == [
        (vue, None),
        (react, vue),
        (angular, react),
    ]
    assert [r["valid_to"] for r in records] == [
        "2026-03-01T00:00:00Z",
        "2026-06-01T00:00:00Z",
        None,
    ]
    assert all(r["types"] == ["ZONED DATETIME NOT NULL"] * 3 and r["same"] for r in records)


def test_cas_refuses_a_stale_writer_with_the_current_version(
    api: dict[str, Api], subject: str
) -> None:
    pub = api["public"]
    first = pub.post(
        "/v1/assertions", assertion(subject, "works_at", "Acme", expected_current=None)
    )
    assert first.status_code == 201
    again = pub.post(
        "/v1/assertions", assertion(subject, "works_at", "Initech", expected_current=None)
    )
    assert again.status_code == 409
    error = again.json()["error"]
    assert error["code"] == "precondition_failed"
    assert error["details"]["current"]["id"] == first.json()["assertion"]["id"]
    assert error["details"]["current"]["object"] == "Acme"
    stale = pub.post(
        "/v1/assertions",
        assertion(subject, "works_at", "Initech", expected_current="01NOTTHECURRENTID"),
    )
    assert stale.status_code == 409
    assert _objects(pub, subject, "works_at") == ["Acme"]


def test_twenty_concurrent_writers_one_winner_per_version(
    api: dict[str, Api], subject: str, driver: Driver
) -> None:
    pub = api["public"]
    head = pub.post("/v1/assertions", assertion(subject, "status", "v0")).json()["assertion"]["id"]
    for round_ in range(3):

        def attempt(n: int, expected: str = head, r: int = round_) -> Any:
            body = assertion(subject, "status", f"r{r}-w{n}", expected_current=expected)
            return pub.post("/v1/assertions", body)

        with ThreadPoolExecutor(max_workers=20) as pool:
            responses = list(pool.map(attempt, range(20)))
        codes = sorted(r.status_code for r in responses)
        assert codes == [201] + [409] * 19, codes
        winner = next(r for r in responses if r.status_code == 201).json()["assertion"]
        for loser in (r for r in responses if r.status_code == 409):
            assert loser.json()["error"]["details"]["current"]["id"] == winner["id"]
        head = winner["id"]
    history = pub.get("/v1/facts/history", subject=subject, predicate="status").json()
    assert len(history["versions"]) == 4
    assert overlapping_versions(driver, database="neo4j") == []


def test_concurrent_writers_without_cas_are_serialised(
    api: dict[str, Api], subject: str, driver: Driver
) -> None:
    pub = api["public"]

    def write(n: int) -> int:
        return pub.post("/v1/assertions", assertion(subject, "status", f"s{n}")).status_code

    with ThreadPoolExecutor(max_workers=20) as pool:
        assert set(pool.map(write, range(20))) == {201}
    current = pub.get("/v1/facts", subject=subject, predicate="status").json()
    assert len(current["facts"]) == 1
    assert overlapping_versions(driver, database="neo4j") == []


def test_structured_writes_are_embedded_for_recall(
    api: dict[str, Api], subject: str, driver: Driver
) -> None:
    written = api["public"].post("/v1/assertions", assertion(subject, "uses", "a tandem bicycle"))
    new_id = written.json()["assertion"]["id"]
    records, _, _ = driver.execute_query(
        "MATCH (a:Assertion {id: $id}) "
        "CALL db.index.vector.queryNodes('assertion_embedding', 5, a.embedding) "
        "YIELD node RETURN collect(node.id) AS ids",
        id=new_id,
    )
    assert new_id in records[0]["ids"]
