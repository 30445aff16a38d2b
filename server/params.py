"""Parameters shared by routes: the slot named, RFC 3339 time coordinates, and the idempotency
key of a write with the header that says an answer is replayed."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import Header, Query
from pydantic import AfterValidator, BeforeValidator, Field, StrictStr

from graph_schema.core import numbers
from graph_schema.core.timeutil import parse_rfc3339, utcnow
from graph_schema.core.types import Name, Timestamp, check_name, name_schema

# A name on a read is a name as writes take it (docs/api.md "Formats, patterns and bounds"):
# 1-512 characters (a predicate: 1-64), not blank (it has a visible character), no NUL, said as
# the pattern of every name. ``subject=%20%20`` and ``subject=a%00b`` answered 200 not_found.
Subject = Annotated[Name, Query()]
MAX_PREDICATE_CHARS = 64
PredicateName = Annotated[
    StrictStr,
    Field(min_length=1, max_length=MAX_PREDICATE_CHARS),
    AfterValidator(check_name),
    name_schema(max_length=MAX_PREDICATE_CHARS),
    Query(),
]
# validated like every timestamp of a write (RFC 3339 with an offset); refused as 422
TimeParam = Annotated[
    Timestamp | None,
    Query(description="RFC 3339 with an offset, e.g. 2026-06-01T09:00:00+00:00; default: now"),
]


def _a_double(value: Any) -> Any:
    """A number sent as query text is read as a double, as a JSON number is: text no double
    can hold is refused (``min_confidence=1e-400`` was read as 0, and so returned the facts of
    confidence 0 it was sent to leave out); other text is left to the float check's words."""
    if isinstance(value, str):
        try:
            why = numbers.out_of_range(value.strip())
        except ValueError:
            return value
        if why is not None:
            raise ValueError(why)
    return value


# a threshold in [0, 1] (a confidence, a success rate)
Fraction = Annotated[float, Query(ge=0, le=1), BeforeValidator(_a_double)]


def coordinates(as_of: str | None, known_at: str | None) -> tuple[datetime, datetime]:
    """The (valid time, record time) of a read. A record time in the future is clamped to now:
    the record of the future is not written yet, so such a read could not be repeated."""
    now = utcnow()
    valid = parse_rfc3339(as_of) if as_of is not None else now
    known = min(parse_rfc3339(known_at), now) if known_at is not None else now
    return valid, known


# Idempotency of writes (docs/ingestion.md#idempotency): observations carry their key in the
# body (``idempotency_key``); assertions and events in this header, one key per request.
IDEMPOTENCY_HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias=IDEMPOTENCY_HEADER,
        min_length=1,
        max_length=256,
        description="the caller's key for this request: sent again with the same body, the"
        " first answer is replayed and nothing is written; with a different body, 409",
    ),
]


# an observation carries its key in the body; the header keys those that carry none (a new
# user's trial sent it, as for assertions, and it was silently ignored: two observations)
ObservationKeyHeader = Annotated[
    str | None,
    Header(
        alias=IDEMPOTENCY_HEADER,
        min_length=1,
        max_length=250,
        description="the `idempotency_key` of an observation that carries none in its body:"
        " a single one's is this key, a batch's items' are this key and their index"
        " (`KEY:0`, `KEY:1`, ...); a key in the body wins",
    ),
]


def replayed_header() -> dict[str, Any]:
    """The OpenAPI description of the ``Idempotent-Replayed`` answer header."""
    return {
        REPLAYED_HEADER: {
            "description": "`true` when this answer replays an earlier request's",
            "schema": {"type": "string", "enum": ["true", "false"]},
        }
    }


def replayed(flag: bool) -> dict[str, str]:
    return {REPLAYED_HEADER: "true" if flag else "false"}
