"""The lifecycle migration keys the tasks of an older store by owner, and resumes if interrupted."""

from __future__ import annotations

import uuid

import pytest
from neo4j import Driver

from graph_schema.events import check
from graph_schema.lifecycle import cypher as lifecycle_cypher
from graph_schema.lifecycle.types import TASK_KEY_SEPARATOR, task_key
from graph_schema.schema import migrations

pytestmark = pytest.mark.integration

T0 = "2026-01-05T09:00:00Z"
T1 = "2026-01-05T10:00:00Z"

OLD_STORE = """
CREATE (t1:Task {id: $shared, goal: 'close the quarter', access: [], started_at: datetime($t0),
                 created_at: datetime($t0)})
CREATE (t2:Task {id: $lonely, access: ['hr'], started_at: datetime($t0), created_at: datetime($t0)})
CREATE (first:Event {id: $e1, task_id: $shared, written_by: 'alice', occurred_at: datetime($t0),
                     recorded_at: datetime($t0), access: [], root: true})-[:IN_TASK]->(t1)
CREATE (second:Event {id: $e2, task_id: $shared, written_by: 'carol', occurred_at: datetime($t1),
                      recorded_at: datetime($t1), access: [], root: false})-[:IN_TASK]->(t1)
CREATE (second)-[:CAUSED_BY]->(first)
CREATE (:Event {id: $e3, task_id: $lonely, written_by: 'dave', occurred_at: datetime($t0),
                recorded_at: datetime($t0), access: ['hr'], root: true})-[:IN_TASK]->(t2)
CREATE (:Assertion {id: $a1, task_id: $shared, written_by: 'alice', tier: 'short',
                    access: [], recorded_at: datetime($t0)})
CREATE (:Assertion {id: $a2, task_id: $solo, written_by: 'bob', tier: 'short',
                    access: ['sales'], recorded_at: datetime($t0)})
CREATE (:Observation {id: $o1, task_id: $noted, submitted_by: 'erin', access: ['legal'],
                      received_at: datetime($t0)})
"""


def _tasks(driver: Driver) -> dict[str, dict[str, object]]:
    records, _, _ = driver.execute_query(
        "MATCH (t:Task) RETURN t.key AS key, t {.id, .owner, .status, .access, .goal, .working,"
        " events: [(e:Event)-[:IN_TASK]->(t) | e.id]} AS task"
    )
    return {r["key"]: r["task"] for r in records}


def test_tasks_of_an_older_store_are_keyed_by_owner_and_the_migration_resumes(
    driver: Driver, fresh_store: None
) -> None:
    ids = {
        name: f"mig-{name}-{uuid.uuid4().hex[:8]}"
        for name in ("shared", "lonely", "solo", "noted", "e1", "e2", "e3", "a1", "a2", "o1")
    }
    driver.execute_query(OLD_STORE, t0=T0, t1=T1, **ids)
    keyed = next(m for m in migrations.MIGRATIONS if m.steps == lifecycle_cypher.MIGRATION_STEPS)
    driver.execute_query("MATCH (v:SchemaVersion) SET v.version = $v", v=keyed.version - 1)
    # a migration interrupted after its first step did one task
    driver.execute_query(lifecycle_cypher.KEY_OLD_TASKS, batch=1, separator=TASK_KEY_SEPARATOR)
    # the keying migration resumes; any later migration runs after it
    later = [m.version for m in migrations.MIGRATIONS if m.version > keyed.version]
    assert migrations.migrate(driver, database="neo4j") == [keyed.version, *later]

    tasks = _tasks(driver)
    shared = ids["shared"]
    assert tasks[task_key("alice", shared)] == {
        "id": shared,
        "owner": "alice",
        "status": "open",
        "access": [],
        "goal": "close the quarter",
        "working": 1,
        "events": [ids["e1"]],
    }
    carols = tasks[task_key("carol", shared)]
    assert carols["owner"] == "carol" and carols["events"] == [ids["e2"]]
    assert tasks[task_key("dave", ids["lonely"])]["events"] == [ids["e3"]]
    bobs = tasks[task_key("bob", ids["solo"])]
    assert (bobs["access"], bobs["working"], bobs["events"]) == (["sales"], 1, [])
    assert tasks[task_key("erin", ids["noted"])]["access"] == ["legal"]
    assert len(tasks) == 5 and all(t["status"] == "open" for t in tasks.values())

    report = check.check_chains(driver, database="neo4j")
    assert "event_without_task" not in {f.kind for f in report.findings}
    assert migrations.migrate(driver, database="neo4j") == []
    assert _tasks(driver) == tasks
    driver.execute_query(
        "MATCH (n) WHERE n.id IN $ids OR n:Task DETACH DELETE n", ids=list(ids.values())
    )
