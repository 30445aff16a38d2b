"""Helpers shared by the lifecycle tests (no tests here): a server whose lifecycle clock the
tests move, and small calls over HTTP."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from neo4j import Driver

from graph_schema.core.timeutil import utcnow
from server.app import create_app
from server.deps import get_distiller
from server.settings import Settings
from tests.conftest import KEYS, Api
from tests.fakes import ShiftedClock, SwitchDistiller, serve

YESTERDAY = (utcnow() - timedelta(days=1)).replace(microsecond=0)


def at(minutes: int) -> str:
    """A time yesterday (UTC), ``minutes`` past its first second: valid now, in the past."""
    return (YESTERDAY + timedelta(minutes=minutes)).isoformat()


def light(settings: Settings, **changes: Any) -> Settings:
    """The test settings with one in-thread model copy (lifecycle tests run their own
    server beside the session's), plus ``changes``."""
    return settings.model_copy(update={"embed_replicas": 1, "embed_processes": False, **changes})


@contextmanager
def lifecycle_server(
    settings: Settings, clock: ShiftedClock, switch: SwitchDistiller | None = None
) -> Iterator[dict[str, Api]]:
    app = create_app(settings, clock=clock)
    if switch is not None:
        app.dependency_overrides[get_distiller] = lambda: switch
    with serve(app) as url:
        yield {name: Api(url, key) for name, key in KEYS.items()}


def new(prefix: str) -> str:
    return f"{prefix}:{uuid.uuid4().hex[:10]}"


def created(api: Api, body: dict[str, Any]) -> dict[str, Any]:
    """POST one assertion; its write result (201 expected)."""
    response = api.post("/v1/assertions", body)
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


def end(api: Api, task: str, **params: Any) -> dict[str, Any]:
    response = api.client.post(f"/v1/tasks/{task}/end", params=params)
    assert response.status_code == 200, response.text
    report: dict[str, Any] = response.json()
    return report


def sleep(admin: Api, **body: Any) -> dict[str, Any]:
    """A sleep (a real one unless ``dry_run=True`` is given: the route needs it stated)."""
    response = admin.post("/v1/sleep", {"dry_run": False, **body})
    assert response.status_code == 200, response.text
    report: dict[str, Any] = response.json()
    return report


def facts(api: Api, subject: str, predicate: str, **params: Any) -> dict[str, Any]:
    response = api.get("/v1/facts", subject=subject, predicate=predicate, **params)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def history(api: Api, subject: str, predicate: str, **params: Any) -> list[dict[str, Any]]:
    response = api.get("/v1/facts/history", subject=subject, predicate=predicate, **params)
    assert response.status_code == 200, response.text
    versions: list[dict[str, Any]] = response.json()["versions"]
    return versions


def tier_changes(driver: Driver, assertion_ids: list[str]) -> dict[str, list[str]]:
    """The rules of each assertion's tier changes, oldest first (straight from the store)."""
    records, _, _ = driver.execute_query(
        "UNWIND $ids AS id MATCH (c:TierChange)-[:CHANGES]->(a:Assertion {id: id}) "
        "WITH id, c ORDER BY c.at, c.id RETURN id, collect(c.rule) AS rules",
        ids=assertion_ids,
    )
    found: dict[str, list[str]] = {i: [] for i in assertion_ids}
    found.update({r["id"]: list(r["rules"]) for r in records})
    return found


def snapshot(driver: Driver) -> dict[str, Any]:
    """Every node's labels and properties, and every relationship, except the access log's
    counts (flushed by whichever server read last, at any moment)."""
    nodes, _, _ = driver.execute_query(
        "MATCH (n) WHERE NOT n:AccessCount "
        "RETURN elementId(n) AS id, labels(n) AS labels, properties(n) AS props"
    )
    edges, _, _ = driver.execute_query(
        "MATCH (a)-[r]->(b) RETURN elementId(a) AS a, type(r) AS t, elementId(b) AS b"
    )
    return {
        "nodes": {r["id"]: (sorted(r["labels"]), r["props"]) for r in nodes},
        "edges": sorted((r["a"], r["t"], r["b"]) for r in edges),
    }
