"""A fact derived from restricted sources has its own slot (access + access_all), and migration 9
re-keys the derived versions of an older store into it, resuming if interrupted."""

from __future__ import annotations

import uuid

import pytest
from neo4j import Driver

from graph_schema.ledger import cypher as ledger_cypher
from graph_schema.schema import migrations
from tests.helpers import Api, assertion

pytestmark = pytest.mark.integration

OLD_KEYS = """
UNWIND $ids AS id
MATCH (a:Assertion {id: id})
WITH a, a.slot_key AS derived
SET a.slot_key = split(derived, '+')[0]
WITH DISTINCT derived
MATCH (s:Slot {key: derived})
DETACH DELETE s
"""

KEYS = """
UNWIND $ids AS id
MATCH (a:Assertion {id: id})
OPTIONAL MATCH (s:Slot {key: a.slot_key})
RETURN a.id AS id, a.slot_key AS key, s.access_all AS slot_access_all,
       s.last_recorded_at >= a.recorded_at AS monotonic
"""


def _derived(api: dict[str, Api], subject: str, valid_from: str) -> str:
    text = f"{subject} joined Initech on {valid_from[:10]}."
    observation = api["alice"].post(
        "/v1/observations",
        {
            "text": text,
            "speaker": subject,
            "occurred_at": valid_from,
            "source_kind": "user_stated",
            "access": ["finance"],
        },
    )
    assert observation.status_code == 201, observation.text
    body = assertion(
        subject,
        "works_at",
        "Initech",
        valid_from=valid_from,
        evidence={"quote": "Initech", "observation_id": observation.json()["observation_id"]},
    )
    written = api["alice"].post("/v1/assertions", body)
    assert written.status_code == 201, written.text
    return str(written.json()["assertion"]["id"])


def test_a_derived_fact_and_a_public_fact_have_separate_slots(
    api: dict[str, Api], subject: str
) -> None:
    derived = _derived(api, subject, "2026-01-01T00:00:00Z")
    public = api["alice"].post(
        "/v1/assertions",
        assertion(subject, "works_at", "Globex", valid_from="2026-02-01T00:00:00Z"),
    )
    assert public.status_code == 201, public.text
    assert public.json()["closed"] == []
    facts = api["alice"].get("/v1/facts", subject=subject, predicate="works_at").json()
    assert sorted(f["object"] for f in facts["facts"]) == ["Globex", "Initech"]
    assert derived in [f["id"] for f in facts["facts"]]
    public_reader = api["bob"].get("/v1/facts", subject=subject, predicate="works_at").json()
    assert [f["object"] for f in public_reader["facts"]] == ["Globex"]


def test_migration_9_rekeys_derived_versions_and_resumes(
    api: dict[str, Api], driver: Driver
) -> None:
    subject = f"mig9:{uuid.uuid4().hex[:10]}"
    first = _derived(api, subject, "2026-01-01T00:00:00Z")
    second = _derived(api, subject, "2026-03-01T00:00:00Z")
    ids = [first, second]
    before = {r["id"]: r["key"] for r in driver.execute_query(KEYS, ids=ids).records}
    assert all("+" in key for key in before.values())
    # the store as migration 8 left it: derived versions in the wider slot, no derived Slot
    driver.execute_query(OLD_KEYS, ids=ids)
    nine = next(m for m in migrations.MIGRATIONS if m.steps == ledger_cypher.MIGRATION_STEPS)
    driver.execute_query("MATCH (v:SchemaVersion) SET v.version = $v", v=nine.version - 1)
    # interrupted after one version of its first step
    driver.execute_query(ledger_cypher.REKEY_DERIVED_VERSIONS, batch=1)
    later = [m.version for m in migrations.MIGRATIONS if m.version >= nine.version]
    assert migrations.migrate(driver, database="neo4j") == later

    after = {r["id"]: r for r in driver.execute_query(KEYS, ids=ids).records}
    assert {i: r["key"] for i, r in after.items()} == before
    assert all(r["slot_access_all"] == ["finance"] and r["monotonic"] for r in after.values())
    # a writer naming the derived version as current finds it in its slot
    cas = api["alice"].post(
        "/v1/assertions",
        assertion(
            subject,
            "works_at",
            "Initech",
            valid_from="2026-05-01T00:00:00Z",
            expected_current=second,
            evidence={"quote": "Initech", "observation_id": _observation_of(driver, second)},
        ),
    )
    assert cas.status_code == 201, cas.text
    assert cas.json()["closed"] == [second]
    assert migrations.migrate(driver, database="neo4j") == []


def _observation_of(driver: Driver, assertion_id: str) -> str:
    records, _, _ = driver.execute_query(
        "MATCH (:Assertion {id: $id})-[:EVIDENCED_BY]->(:Evidence)-[:FROM]->(o:Observation)"
        " RETURN o.id AS id",
        id=assertion_id,
    )
    return str(records[0]["id"])
