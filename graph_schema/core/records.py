"""Turning Neo4j records into domain objects."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from neo4j.time import DateTime

from graph_schema.core.timeutil import to_utc


def native(value: Any) -> Any:
    """Neo4j temporal values to Python ones, recursively through lists and maps."""
    if isinstance(value, DateTime):
        return to_utc(value.to_native())
    if isinstance(value, list):
        return [native(v) for v in value]
    if isinstance(value, dict):
        return {k: native(v) for k, v in value.items()}
    return value


def as_datetime(value: Any) -> datetime | None:
    converted = native(value)
    return converted if isinstance(converted, datetime) else None


def as_instant(value: Any) -> datetime | None:
    """A point in time read as ``[epoch seconds, nanosecond]`` (the recall Cypher's
    ``instant``), in UTC to the microsecond as :func:`native` gives it; None for null. The
    driver turns a DateTime into Python in ~40 us, and a recall reads hundreds of them."""
    if value is None:
        return None
    seconds, nanosecond = value
    return datetime.fromtimestamp(seconds, UTC) + timedelta(microseconds=nanosecond // 1000)
