"""Query parameters shared by the read routes: the slot named, and RFC 3339 time coordinates."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import Query

from graph_schema.core.timeutil import parse_rfc3339, utcnow
from graph_schema.core.types import MAX_NAME_CHARS, Timestamp

Subject = Annotated[str, Query(min_length=1, max_length=MAX_NAME_CHARS)]
PredicateName = Annotated[str, Query(min_length=1, max_length=64)]
# validated like every timestamp of a write (RFC 3339 with an offset); refused as 422
TimeParam = Annotated[
    Timestamp | None,
    Query(description="RFC 3339 with an offset, e.g. 2026-06-01T09:00:00+00:00; default: now"),
]


def coordinates(as_of: str | None, known_at: str | None) -> tuple[datetime, datetime]:
    """The (valid time, record time) of a read. A record time in the future is clamped to now:
    the record of the future is not written yet, so such a read could not be repeated."""
    now = utcnow()
    valid = parse_rfc3339(as_of) if as_of is not None else now
    known = min(parse_rfc3339(known_at), now) if known_at is not None else now
    return valid, known
