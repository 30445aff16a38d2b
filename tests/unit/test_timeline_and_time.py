"""Pure units: RFC 3339 parsing, ids and the valid-time planner."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graph_schema.core.timeutil import new_id, parse_rfc3339
from graph_schema.ledger.timeline import Remnant, Version, governing, plan_write


def d(month: int) -> datetime:
    return datetime(2026, month, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    "text",
    [
        "2026-06-01T09:00:00+00:00",
        "2026-06-01T09:00:00Z",
        "2026-06-01t09:00:00.123456789z",
        "2026-06-01T11:00:00+02:00",
    ],
)
def test_rfc3339_with_offsets_parse_to_utc(text: str) -> None:
    parsed = parse_rfc3339(text)
    assert parsed.utcoffset() is not None and parsed.utcoffset().total_seconds() == 0


@pytest.mark.parametrize(
    "text",
    [
        "2026-06-01T09:00:00",
        "2026-06-01",
        "March 3rd, 2024",
        "1717232400",
        "2026-06-01 09:00:00Z",
        "2026-13-01T00:00:00Z",
        "",
    ],
)
def test_everything_else_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_rfc3339(text)


def test_ids_are_unique_and_sortable_by_time() -> None:
    ids = [new_id() for _ in range(1000)]
    assert len(set(ids)) == 1000
    assert all(len(i) == 26 for i in ids)


def test_forward_write_closes_the_open_version() -> None:
    plan = plan_write([Version("v", d(1), None)], d(6), None)
    assert plan.close == [("v", d(6))] and plan.supersede == [] and plan.valid_to is None


def test_same_start_is_a_correction() -> None:
    plan = plan_write([Version("v", d(1), None)], d(1), None)
    assert plan.supersede == ["v"] and plan.close == []


def test_backfill_reaches_up_to_the_next_version() -> None:
    plan = plan_write([Version("r", d(6), None)], d(1), None)
    assert plan.valid_to == d(6) and plan.touched == [] and plan.remnants == []


def test_middle_backfill_of_a_closed_version_leaves_remnants() -> None:
    alive = [Version("vue", d(1), d(9)), Version("react", d(9), None)]
    plan = plan_write(alive, d(3), d(6))
    assert plan.supersede == ["vue"]
    assert plan.remnants == [Remnant("vue", d(1), d(3)), Remnant("vue", d(6), d(9))]


def test_explicit_end_inside_an_open_version_closes_it_and_keeps_the_tail() -> None:
    plan = plan_write([Version("v", d(1), None)], d(3), d(6))
    assert plan.close == [("v", d(3))]
    assert plan.remnants == [Remnant("v", d(6), None)]


def test_governing_version() -> None:
    alive = [Version("a", d(1), d(6)), Version("b", d(6), None)]
    assert governing(alive, d(3)).id == "a"  # type: ignore[union-attr]
    assert governing(alive, d(6)).id == "b"  # type: ignore[union-attr]
    assert governing(alive, datetime(2025, 1, 1, tzinfo=UTC)) is None


@pytest.mark.parametrize(
    "value", ["9999-01-02T00:00:00Z", "9999-06-01T00:00:00Z", "0001-01-01T00:00:00+00:00"]
)
def test_a_year_out_of_bounds_is_told_the_bound(value: str) -> None:
    """A new user's trial: year 9999 was refused as "not an RFC 3339 timestamp". (The first
    day of 9999 is accepted since: the day a time of 9998 is on once moved to UTC.)"""
    with pytest.raises(ValueError, match="a year from 0002 to 9998"):
        parse_rfc3339(value)
    with pytest.raises(ValueError, match="not an RFC 3339 timestamp"):
        parse_rfc3339("9999-01-01")
