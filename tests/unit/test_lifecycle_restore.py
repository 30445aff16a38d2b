"""The restoration rule, pure (graph_schema/lifecycle/restore.py): which kept versions a
discarded working version gives its valid time back to."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from graph_schema.core.types import Tier
from graph_schema.lifecycle.restore import Displaced, Held, Piece, pieces
from graph_schema.lifecycle.rules import clauses


def day(n: int) -> datetime:
    return datetime(2025, 1, n, tzinfo=UTC)


def lookup(table: dict[str, tuple[Displaced, ...]]) -> Callable[[str], tuple[Displaced, ...]]:
    return lambda version_id: table.get(version_id, ())


def test_a_discarded_guess_gives_its_place_back_to_the_long_term_fact() -> None:
    held = Held("w", "slot", day(5), None)
    long = Displaced("l", day(1), None, Tier.long)
    assert pieces(held, lookup({"w": (long,)})) == [Piece(held, "l", day(5), None)]


def test_only_the_time_still_held_is_restored() -> None:
    """W was closed at day 8 by a later write: only [5, 8) comes back; a displaced version
    that ended before (a closed one W superseded) gives back only its own interval."""
    held = Held("w", "slot", day(5), day(8))
    first = Displaced("l1", day(1), day(6), Tier.long)
    second = Displaced("l2", day(6), None, Tier.dormant)
    assert pieces(held, lookup({"w": (second, first)})) == [
        Piece(held, "l1", day(5), day(6)),
        Piece(held, "l2", day(6), day(8)),
    ]


def test_working_and_discarded_versions_are_passed_through_to_what_they_displaced() -> None:
    held = Held("w", "slot", day(5), None)
    guess = Displaced("g", day(3), None, Tier.discarded)
    other_task = Displaced("o", day(4), None, Tier.short)
    long = Displaced("l", day(1), None, Tier.long)
    table = {"w": (guess,), "g": (long,)}
    assert pieces(held, lookup(table)) == [Piece(held, "l", day(5), None)]
    # a working version of an open task is not restored, nor is what it displaced kept
    # back from it: the search goes on to what it displaced
    table = {"w": (other_task,), "o": ()}
    assert pieces(held, lookup(table)) == []
    # a decision not written yet (a dry run) counts as written
    assert pieces(held, lookup({"w": (other_task,)}), {"o": Tier.long}) == [
        Piece(held, "o", day(5), None)
    ]


def test_nothing_displaced_nothing_restored() -> None:
    held = Held("w", "slot", day(5), None)
    assert pieces(held, lookup({})) == []
    # a displaced version entirely outside the time still held
    gone = Displaced("l", day(1), day(5), Tier.long)
    assert pieces(held, lookup({"w": (gone,)})) == []


def test_a_fact_some_reader_of_the_guess_may_not_read_is_not_restored() -> None:
    """Same slot, same access list; the fact cites an observation only finance may read. A
    public guess superseded at the end would tell its public readers the fact exists."""
    hidden = clauses([], ["finance"])
    fact = Displaced("l", day(1), None, Tier.long, hidden)
    public_guess = Held("w", "slot", day(5), None, clauses([], []))
    assert pieces(public_guess, lookup({"w": (fact,)})) == []
    # a guess only finance may read (it cites the same kind of source) restores it
    finance_guess = Held("w", "slot", day(5), None, clauses([], ["finance|hr", "finance"]))
    assert pieces(finance_guess, lookup({"w": (fact,)})) == [
        Piece(finance_guess, "l", day(5), None)
    ]
    # a public fact is restored in place of any guess
    public_fact = Displaced("l", day(1), None, Tier.long)
    assert pieces(finance_guess, lookup({"w": (public_fact,)})) != []
