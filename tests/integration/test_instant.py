"""Recall's candidate rows read a point in time as ``[epoch seconds, nanosecond]``
(``graph_schema.recall.cypher.instant``, ``graph_schema.core.records.as_instant``) instead of
the driver's DateTime: the same instant as the driver gives, to the microsecond, in UTC."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from neo4j import Driver

from graph_schema.core.records import as_instant, native
from graph_schema.recall.cypher import instant
from server.settings import Settings

pytestmark = pytest.mark.integration

TIMES = [
    "2023-05-08T13:07:00Z",
    "2023-05-08T13:07:00.123456789+02:00",  # nanoseconds, an offset
    "1969-12-31T18:59:59.5-05:00",  # half a second before the epoch (failed before: 0 s)
    "1969-12-31T23:59:59.999999Z",
    "1969-12-31T23:59:59Z",
    "1900-03-01T12:00:00.25+01:00",
    "2024-02-29T00:00:00[Europe/Berlin]",  # a named zone
]


@pytest.mark.parametrize("text", TIMES)
def test_an_instant_is_the_drivers_datetime(driver: Driver, settings: Settings, text: str) -> None:
    records, _, _ = driver.execute_query(
        f"WITH datetime($text) AS t RETURN t AS driver, {instant('t')} AS instant",
        text=text,
        database_=settings.neo4j_database,
    )
    expected = native(records[0]["driver"])
    read = as_instant(records[0]["instant"])
    assert read == expected and read is not None
    assert read.utcoffset() == timedelta(0)


def test_null_is_none(driver: Driver, settings: Settings) -> None:
    records, _, _ = driver.execute_query(
        f"RETURN {instant('null')} AS instant", database_=settings.neo4j_database
    )
    assert records[0]["instant"] is None and as_instant(None) is None


def test_as_instant_reads_seconds_and_nanoseconds() -> None:
    berlin = timezone(timedelta(hours=2))
    moment = datetime(2023, 5, 8, 15, 7, 0, 123456, tzinfo=berlin)
    seconds = int(moment.timestamp())
    assert as_instant([seconds, 123_456_789]) == moment.astimezone(UTC)
