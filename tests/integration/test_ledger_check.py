"""`tractatus check`: the chain audit plus the ledger's (current versions per slot, SUPERSEDES and
closing stamps, evidence spans at their offsets in their observation, derived access as narrow
as its sources'); silent on a store the API wrote, loud (exit 1) on one it could not write."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from neo4j import Driver

from server import cli
from tests.helpers import Api, assertion

pytestmark = pytest.mark.integration

MARK = "ledger-check-test"
TEXT = "We moved the billing service from Vue to React."


def _run(capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = cli.main(["check", "--json"])
    return code, json.loads(capsys.readouterr().out)


def _observation(api: Api, access: list[str]) -> str:
    body = {
        "text": TEXT,
        "speaker": "user:carol",
        "occurred_at": "2026-06-01T09:00:00Z",
        "source_kind": "user_stated",
        "access": access,
    }
    response = api.post("/v1/observations", body)
    assert response.status_code == 201, response.text
    return str(response.json()["observation_id"])


def test_a_store_the_api_wrote_passes(
    api: dict[str, Api], subject: str, capsys: pytest.CaptureFixture[str], fresh_store: None
) -> None:
    finance = _observation(api["alice"], ["finance"])
    sales = _observation(api["bob"], ["sales"])
    writes = [
        ("carol", assertion(subject, "tech_stack", "Vue", valid_from="2026-01-01T00:00:00Z")),
        ("carol", assertion(subject, "tech_stack", "React", valid_from="2026-06-01T00:00:00Z")),
        ("carol", assertion(subject, "tech_stack", "Svelte", valid_from="2026-06-01T00:00:00Z")),
        (
            "carol",
            assertion(
                subject,
                "works_at",
                "React",
                evidence=[
                    {"quote": "React", "observation_id": finance},
                    {"quote": "Vue", "observation_id": sales, "start": 34, "end": 37},
                ],
            ),
        ),
        (
            "alice",
            # with a start of its own: a valid_to alone before the time of the request ends
            # before it starts and is refused (docs/semantics.md); once, it was written
            assertion(
                subject,
                "lives_in",
                "Porto",
                valid_from="2026-01-01T00:00:00Z",
                valid_to="2026-03-01T00:00:00Z",
                access=["finance"],
            ),
        ),
    ]
    for who, body in writes:
        response = api[who].post("/v1/assertions", body)
        assert response.status_code == 201, response.text
    code, report = _run(capsys)
    assert (code, report) == (0, {"ok": True, "problems": 0, "findings": [], "notes": []})
    # the text says that each audit passed (a new operator's trial read only "ledger ok")
    assert cli.main(["check"]) == 0
    assert capsys.readouterr().out == "chains ok: no problems found\nledger ok: no problems found\n"


BROKEN = """
CREATE (:Assertion {id: $p + 'a1', slot_key: $p + 'slot', valid_from: datetime('2026-01-01T00:00Z'),
                    recorded_at: datetime('2026-01-02T00:00Z'), access: [], mark: $mark})
CREATE (:Assertion {id: $p + 'a2', slot_key: $p + 'slot', valid_from: datetime('2026-02-01T00:00Z'),
                    recorded_at: datetime('2026-02-02T00:00Z'), access: [], mark: $mark})
CREATE (:Assertion {id: $p + 'a3', slot_key: $p + 's3', valid_from: datetime('2026-01-01T00:00Z'),
                    recorded_at: datetime('2026-03-01T00:00Z'), access: [], mark: $mark})
       -[:SUPERSEDES]->
       (:Assertion {id: $p + 'a4', slot_key: $p + 's4', valid_from: datetime('2026-01-01T00:00Z'),
                    recorded_at: datetime('2026-01-01T00:00Z'), access: [], mark: $mark})
CREATE (:Assertion {id: $p + 'a5', slot_key: $p + 's5', valid_from: datetime('2026-01-01T00:00Z'),
                    recorded_at: datetime('2026-01-01T00:00Z'),
                    superseded_at: datetime('2026-02-01T00:00Z'), access: [], mark: $mark})
CREATE (:Assertion {id: $p + 'a6', slot_key: $p + 's6', valid_from: datetime('2026-01-01T00:00Z'),
                    recorded_at: datetime('2026-01-01T00:00Z'), access: [], mark: $mark})
       -[:EVIDENCED_BY]->(:Evidence {id: $p + 'e6', quote: 'x', observation_id: $p + 'gone',
                                     mark: $mark})
CREATE (o:Observation {id: $p + 'o', text: $text, access: ['finance'], mark: $mark})
CREATE (:Assertion {id: $p + 'a7', slot_key: $p + 's7', valid_from: datetime('2026-01-01T00:00Z'),
                    recorded_at: datetime('2026-01-01T00:00Z'), access: [], access_all: [],
                    mark: $mark})
       -[:EVIDENCED_BY]->(e7:Evidence {id: $p + 'e7', quote: 'React', start: 0, end: 5,
                                       observation_id: $p + 'o', mark: $mark})-[:FROM]->(o)
CREATE (:Assertion {id: $p + 'a8', slot_key: $p + 's8', subject: 'user:nobody',
                    valid_from: datetime('2026-01-01T00:00Z'),
                    recorded_at: datetime('2026-01-01T00:00Z'), access: [], mark: $mark})
"""


@pytest.fixture
def broken(driver: Driver) -> Iterator[str]:
    """States no API call can make, created with raw Cypher and removed afterwards."""
    prefix = f"{MARK}-{uuid.uuid4().hex[:8]}-"
    driver.execute_query(BROKEN, p=prefix, mark=MARK, text=TEXT)
    yield prefix
    driver.execute_query("MATCH (n {mark: $mark}) DETACH DELETE n", mark=MARK)


def test_a_broken_ledger_is_reported(broken: str, capsys: pytest.CaptureFixture[str]) -> None:
    p = broken
    code, report = _run(capsys)
    assert code == 1 and report["ok"] is False
    kinds = {f["kind"]: f["sample"] for f in report["findings"]}
    assert any(
        {s["first"], s["second"]} == {p + "a1", p + "a2"} for s in kinds["two_current_versions"]
    )
    assert p + "a4" in {s["assertion"] for s in kinds["supersedes_without_stamp"]}
    assert p + "a5" in {s["assertion"] for s in kinds["superseded_without_successor"]}
    assert p + "e6" in {s["evidence"] for s in kinds["evidence_source_missing"]}
    assert p + "e7" in {s["evidence"] for s in kinds["evidence_not_at_offsets"]}
    assert p + "a7" in {s["assertion"] for s in kinds["access_wider_than_source"]}
    assert p + "a8" in {s["assertion"] for s in kinds["version_without_entity"]}
    cli.main(["check"])
    text = capsys.readouterr().out
    assert re.match(r"(chains ok: no problems found|\d+ chain problem\(s\) found)\n", text)
    assert re.search(r"^\d+ ledger problem\(s\) found$", text, re.MULTILINE), text
