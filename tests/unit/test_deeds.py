"""A question whether a thing was done, and the promise to do it (recall's step 10:
graph_schema/recall/deeds.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from graph_schema.recall.deeds import asks_done, done_first, promised
from graph_schema.recall.fusion import Scored

PROMISE = "Promised Priya that we will refund the duplicate $1,200 charge on INV-7781 by Friday."
COMPLAINT = "We were double-charged for October: invoice INV-7781 shows two charges of $1,200."
DONE = "Issued the $1,200 refund for INV-7781 to Acme Ltd."
ASKED = "Did we refund the duplicate charge on INV-7781?"


def turn(gid: str, text: str, day: int) -> Scored:
    return Scored(gid, turn=text, texts=[text], occurred_at=datetime(2026, 11, day, tzinfo=UTC))


def test_the_questions_that_ask_whether_it_was_done() -> None:
    assert asks_done(ASKED)
    assert asks_done("Has Acme Ltd's duplicate charge been refunded yet?")
    assert not asks_done("Does Maya still use Spotify?")
    assert not asks_done("When will we refund Acme?")


def test_the_deeds_a_text_promises() -> None:
    assert promised(PROMISE) == {"refund"}
    assert promised("I'll send him a root cause analysis by Wednesday.") == {"send"}
    assert promised("We're going to ship it on Monday.") == {"ship"}
    assert promised("I will get back to you.") == frozenset()  # a light verb names no deed
    assert promised(DONE) == frozenset()


def test_the_deed_told_later_comes_before_its_promise() -> None:
    """A new user's trial (a support agent's notes): "Did we refund the duplicate charge on
    INV-7781?" ranked the promise first and the note of the refund third (failed before)."""
    ranked = [
        turn("promise", PROMISE, 12),
        turn("complaint", COMPLAINT, 12),
        turn("done", DONE, 20),
    ]
    order = done_first(ranked, ASKED)
    assert [s.gid for s in order] == ["done", "promise", "complaint"]
    assert "done" in order[0].boosts


def test_nothing_moves_without_a_promise_a_later_deed_or_the_deed_asked() -> None:
    plain = [turn("complaint", COMPLAINT, 12), turn("done", DONE, 20)]
    assert done_first(plain, ASKED) == plain  # the best promises nothing
    earlier = [turn("promise", PROMISE, 12), turn("done", DONE, 10)]
    assert done_first(earlier, ASKED) == earlier  # told before the promise
    other = [turn("promise", PROMISE, 12), turn("done", DONE, 20)]
    assert done_first(other, "Did we call Priya about INV-7781?") == other  # not the deed asked
    again = [turn("promise", PROMISE, 12), turn("again", "We will refund it again.", 20)]
    assert done_first(again, ASKED) == again  # a later promise is no deed


def test_a_deed_told_as_not_done_yet_is_no_deed() -> None:
    """The benchmark's trials: "did harbourline ever refund the coach money" moved "Harbourline's
    £640 refund hasn't shown on the account yet" above the promise (and the bank's credit, the
    answer, down to third): a first form read any later sentence holding "refund"."""
    promise = turn("promise", "Harbourline cancelled; they'll refund the full £640.", 1)
    pending = turn("pending", "Harbourline's £640 refund hasn't shown on the account yet.", 2)
    ranked = [promise, pending]
    assert done_first(ranked, "did harbourline ever refund the coach money") == ranked
    assert (
        done_first([promise, turn("done", "Harbourline refunded the £640.", 3)], ASKED)[0].gid
        == "done"
    )
