"""RFC 3339 timestamps with an explicit offset: the only time format Tractatus accepts."""

from __future__ import annotations

import os
import re
import secrets
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

# RFC 3339 ``date-time`` with an offset, the years limited to 0002-9998 so that every time the
# store keeps stays one year inside Python's datetime range (an instant of year 1 or 9999 moved
# to UTC, or one microsecond before it, would overflow). Besides: the last day of 0001 with no
# positive offset and the first day of 9999 with no negative one, the days a time near the
# bounds is on once moved to UTC. So every time an answer gives (in UTC) can be sent back, and
# an accepted time moved to UTC is accepted too (a new user's trial sent back a history's
# "0001-12-31T00:01:00Z" and was refused). Only ASCII digits: Python's ``\d`` would also match
# other scripts' digits. The same text is the ``pattern`` of every timestamp in the OpenAPI
# document, so a schema-valid timestamp is one this function accepts; ``format: date-time``
# there adds what a pattern cannot say (the days of each month).
_CLOCK = r"([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{1,9})?"
_HOURS = r"([01][0-9]|2[0-3]):[0-5][0-9]"
_DAY = r"-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt]" + _CLOCK + r"([Zz]|[+-]" + _HOURS + ")"
_YEARS = (
    r"(000[2-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-8][0-9]{3}|9[0-8][0-9]{2}|99[0-8][0-9]|999[0-8])"
)
_FIRST = r"0001-12-31[Tt]" + _CLOCK + r"([Zz]|[+-]00:00|-" + _HOURS + ")"
_LAST = r"9999-01-01[Tt]" + _CLOCK + r"([Zz]|[+-]00:00|\+" + _HOURS + ")"
RFC3339_PATTERN = "^(" + _YEARS + _DAY + "|" + _FIRST + "|" + _LAST + ")$"
YEARS_ALLOWED = (
    "a year from 0002 to 9998, or 0001-12-31 with no positive offset, or 9999-01-01 with no"
    " negative offset (a stored time keeps a margin inside the calendar; every time an answer"
    " gives is one of these)"
)
_RFC3339 = re.compile(RFC3339_PATTERN)
_ANY_YEAR = re.compile("^[0-9]{4}" + _DAY + "$")
_FRACTION = re.compile(r"\.([0-9]+)")


def parse_rfc3339(value: str) -> datetime:
    """Parse an RFC 3339 timestamp; refuse anything without an offset or in another format."""
    if isinstance(value, str) and _ANY_YEAR.fullmatch(value) and not _RFC3339.fullmatch(value):
        # a new user's trial: "9999-01-01T00:00:00Z" was told it was no RFC 3339 timestamp
        raise ValueError(f"an RFC 3339 timestamp here has {YEARS_ALLOWED}: {value!r}")
    if not isinstance(value, str) or not _RFC3339.fullmatch(value):
        raise ValueError(
            f"not an RFC 3339 timestamp with offset (e.g. 2026-06-01T09:00:00+00:00): {value!r}"
        )
    text = value.replace("z", "Z").replace("t", "T")
    frac_match = _FRACTION.search(text)
    if frac_match and len(frac_match.group(1)) > 6:
        text = text.replace(frac_match.group(0), "." + frac_match.group(1)[:6])
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as error:  # a day the month does not have
        raise ValueError(f"not a valid RFC 3339 timestamp ({error}): {value!r}") from None
    if parsed.tzinfo is None:  # pragma: no cover - the pattern demands an offset
        raise ValueError("timestamp has no offset")
    return to_utc(parsed)


def to_utc(value: datetime) -> datetime:
    """Every stored time is UTC with a plain offset: Neo4j orders equal instants in
    different zones or offsets by zone, so mixing them would break range filters."""
    return value.astimezone(UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


def to_rfc3339(value: datetime) -> str:
    return value.isoformat()


def with_rfc3339(props: dict[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    """A copy of ``props`` whose datetimes at ``keys`` are RFC 3339 strings, for statements
    that turn them back into datetimes in Cypher (``cypher.set_times``)."""
    out = dict(props)
    for key in keys:
        value = out.get(key)
        if value is not None:
            out[key] = to_rfc3339(value)
    return out


_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def new_id() -> str:
    """A ULID: 48 bits of milliseconds then 80 random bits, Crockford base32, sortable."""
    millis = time.time_ns() // 1_000_000
    value = (millis << 80) | int.from_bytes(secrets.token_bytes(10) or os.urandom(10), "big")
    chars = []
    for _ in range(26):
        chars.append(_CROCKFORD[value & 31])
        value >>= 5
    return "".join(reversed(chars))
