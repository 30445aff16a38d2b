"""RFC 3339 timestamps with an explicit offset: the only time format Tractatus accepts."""

from __future__ import annotations

import os
import re
import secrets
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

_RFC3339 = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$"
)


def parse_rfc3339(value: str) -> datetime:
    """Parse an RFC 3339 timestamp; refuse anything without an offset or in another format."""
    if not isinstance(value, str) or not _RFC3339.match(value):
        raise ValueError(
            f"not an RFC 3339 timestamp with offset (e.g. 2026-06-01T09:00:00+00:00): {value!r}"
        )
    text = value.replace("z", "Z").replace("t", "T")
    frac_match = re.search(r"\.(\d+)", text)
    if frac_match and len(frac_match.group(1)) > 6:
        text = text.replace(frac_match.group(0), "." + frac_match.group(1)[:6])
    parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
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
