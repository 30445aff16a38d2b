"""Turning Neo4j records into domain objects."""

from __future__ import annotations

from datetime import datetime
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
