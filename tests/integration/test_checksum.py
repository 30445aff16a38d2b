"""`tractatus checksum`: the store's content checksum is stable while nothing is written,
moves with any write, and does not depend on the order in which content was written."""

from __future__ import annotations

import json

import pytest
from neo4j import Driver

from graph_schema.schema.checksum import store_checksum
from server import cli
from tests.helpers import Api, assertion

pytestmark = pytest.mark.integration


def test_the_checksum_is_stable_and_moves_with_a_write(
    api: dict[str, Api], subject: str, driver: Driver
) -> None:
    first = store_checksum(driver, database="neo4j")
    assert first == store_checksum(driver, database="neo4j")
    records, _, _ = driver.execute_query("MATCH (n) RETURN count(n) AS n")
    assert first.nodes == records[0]["n"]
    written = api["public"].post("/v1/assertions", assertion(subject, "status", "moved"))
    assert written.status_code == 201, written.text
    after = store_checksum(driver, database="neo4j")
    assert after.sha256 != first.sha256
    assert after.nodes > first.nodes and after.relationships > first.relationships


def test_the_checksum_depends_on_content_not_on_write_order(driver: Driver, subject: str) -> None:
    rows = [{"n": n} for n in range(5)]

    def checksum_of(order: list[dict[str, int]]) -> str:
        driver.execute_query(
            "UNWIND $rows AS row CREATE (:ChecksumProbe {subject: $subject, n: row.n})"
            "-[:NEXT {n: row.n}]->(:ChecksumProbe {subject: $subject, n: row.n + 100})",
            rows=order,
            subject=subject,
        )
        value = store_checksum(driver, database="neo4j").sha256
        driver.execute_query(
            "MATCH (p:ChecksumProbe {subject: $subject}) DETACH DELETE p", subject=subject
        )
        return value

    assert checksum_of(rows) == checksum_of(list(reversed(rows)))


def test_the_command_prints_the_same_checksum(
    driver: Driver, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["checksum"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == store_checksum(driver, database="neo4j").model_dump()
