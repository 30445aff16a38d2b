"""Query-parameter parsing shared by the read routes."""

from __future__ import annotations

from datetime import datetime

from fastapi.exceptions import RequestValidationError

from graph_schema.core.timeutil import parse_rfc3339, utcnow


def time_param(name: str, value: str | None, *, now: datetime) -> datetime:
    """An optional RFC 3339 query parameter; defaults to ``now``."""
    if value is None:
        return now
    try:
        return parse_rfc3339(value)
    except ValueError as error:
        raise RequestValidationError(
            [{"loc": ("query", name), "msg": str(error), "type": "value_error"}]
        ) from error


def coordinates(as_of: str | None, known_at: str | None) -> tuple[datetime, datetime]:
    """The (valid time, record time) of a read. A record time in the future is clamped to now:
    the record of the future is not written yet, so such a read could not be repeated."""
    now = utcnow()
    valid = time_param("as_of", as_of, now=now)
    known = min(time_param("known_at", known_at, now=now), now)
    return valid, known
