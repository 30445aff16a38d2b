"""The quarantine keeps what the gate refused within its retention: nothing older than the
retention, and at most ``max_items``, the newest (issue 19: fuzzing or abuse must not grow the
store without bound)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from neo4j import Driver

from graph_schema.core.timeutil import utcnow
from graph_schema.core.types import Principal
from graph_schema.quarantine.retention import prune
from graph_schema.quarantine.types import Retention
from ingest import gate
from server.settings import Settings

pytestmark = pytest.mark.integration

DAY = timedelta(days=1)


def _quarantine(driver: Driver, settings: Settings, n: int, retention: Retention) -> list[str]:
    rejections = [gate.Rejection(i, "invalid", "a probe", {"item": i}) for i in range(n)]
    return gate.quarantine(
        driver,
        database=settings.neo4j_database,
        rejections=rejections,
        origin="probe",
        principal=Principal(id="probe"),
        retention=retention,
    )


def _kept(driver: Driver) -> set[str]:
    records, _, _ = driver.execute_query("MATCH (q:Quarantine) RETURN q.id AS id")
    return {r["id"] for r in records}


def test_the_quarantine_keeps_at_most_its_cap_the_newest(
    driver: Driver, settings: Settings, fresh_store: None
) -> None:
    first = _quarantine(driver, settings, 3, Retention(max_items=100, max_age=DAY))
    assert _kept(driver) == set(first)
    second = _quarantine(driver, settings, 2, Retention(max_items=4, max_age=DAY))
    kept = _kept(driver)
    assert len(kept) == 4 and set(second) <= kept and kept <= set(first + second)


def test_what_is_older_than_the_retention_goes(
    driver: Driver, settings: Settings, fresh_store: None
) -> None:
    retention = Retention(max_items=100, max_age=DAY)
    _quarantine(driver, settings, 3, retention)
    database = settings.neo4j_database
    assert prune(driver, database=database, retention=retention, now=utcnow()) == 0
    later = utcnow() + 2 * DAY
    assert prune(driver, database=database, retention=retention, now=later) == 3
    assert _kept(driver) == set()


def test_the_settings_name_the_retention() -> None:
    settings = Settings.model_construct(quarantine_retention_days=7, quarantine_max_items=10)
    assert settings.quarantine_retention == Retention(max_items=10, max_age=7 * DAY)
