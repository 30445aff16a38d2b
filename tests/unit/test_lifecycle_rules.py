"""The lifecycle rules, pure: access implication, consolidation, the bound, sleep."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from graph_schema.core.types import Tier
from graph_schema.lifecycle.rules import (
    Policy,
    Resting,
    Span,
    Support,
    Working,
    clauses,
    consolidate,
    readers_included,
    rest,
    source_key,
)
from graph_schema.lifecycle.types import Rule

T0 = datetime(2026, 1, 1, tzinfo=UTC)
POLICY = Policy()


@pytest.mark.parametrize(
    ("fact", "source", "counts"),
    [
        (([], []), ([], []), True),  # public source: readable by everyone
        ((["finance"], []), ([], []), True),
        (([], []), (["finance"], []), False),  # a public fact, a hidden source
        ((["finance"], []), (["finance", "sales"], []), True),
        ((["finance", "sales"], []), (["finance"], []), False),  # a sales reader of the fact
        ((["finance"], []), ([], ["finance|hr"]), True),
        ((["finance"], []), ([], ["hr"]), False),
        (([], ["finance"]), (["finance"], []), True),  # the fact's own requirement implies it
        ((["finance"], ["legal"]), (["finance"], ["legal|hr"]), True),
        ((["finance"], []), (["finance"], ["legal"]), False),
    ],
)
def test_a_source_counts_only_if_every_reader_of_the_fact_may_read_it(
    fact: tuple[list[str], list[str]], source: tuple[list[str], list[str]], counts: bool
) -> None:
    assert readers_included(clauses(*fact), clauses(*source)) is counts


def _item(n: int, **kw: object) -> Working:
    base: dict[str, object] = {
        "id": f"a{n:03d}",
        "predicate": "likes",
        "polarity": True,
        "confidence": 0.95,
        "source_kind": "user_stated",
        "recorded_at": T0 + timedelta(seconds=n),
        "clauses": clauses([], []),
        "source": ("speaker", f"s{n}", "user_stated"),
        "ephemeral": False,
    }
    base.update(kw)
    return Working(**base)  # type: ignore[arg-type]


def _decide(items: list[Working], policy: Policy = POLICY) -> dict[str, Rule]:
    return {d.id: d.rule for d in consolidate(items, policy)}


def test_the_four_rules() -> None:
    items = [
        _item(1, predicate="stock_level", ephemeral=True, confidence=1.0),
        _item(2),
        _item(3, confidence=0.5, source_kind="agent_inferred"),
        _item(4, confidence=0.79),
        _item(5, source_kind="agent_inferred", confidence=0.9),
    ]
    assert _decide(items) == {
        "a001": Rule.ephemeral,
        "a002": Rule.verified,
        "a003": Rule.unverified,
        "a004": Rule.unverified,
        "a005": Rule.unverified,
    }


def test_corroboration_counts_independent_sources_its_readers_may_read() -> None:
    other = Support(("observation", "o2"), clauses([], []))
    same_source = Support(("observation", "o1"), clauses([], []))
    hidden = Support(("observation", "o3"), clauses(["hr"], []))
    mine = ("observation", "o1")
    guess = {"confidence": 0.5, "source_kind": "agent_inferred", "source": mine}
    assert _decide([_item(1, **guess, supports=(other,))]) == {"a001": Rule.corroborated}
    assert _decide([_item(1, **guess, supports=(same_source,))]) == {"a001": Rule.unverified}
    assert _decide([_item(1, **guess, supports=(hidden,))]) == {"a001": Rule.unverified}
    restricted = clauses(["hr"], [])
    assert _decide([_item(1, **guess, clauses=restricted, supports=(hidden,))]) == {
        "a001": Rule.corroborated
    }
    retraction = _item(1, **guess, polarity=False, supports=(other,))
    assert _decide([retraction]) == {"a001": Rule.unverified}


def test_said_sentences_follow_the_kept_facts_of_their_span() -> None:
    span = (Span("o1", 0, 20),)
    fact = _item(1, spans=span)
    said = _item(2, predicate="said", confidence=1.0, spans=(Span("o1", 0, 20),))
    other = _item(3, predicate="said", confidence=1.0, spans=(Span("o1", 21, 40),))
    elsewhere = _item(4, predicate="said", confidence=1.0, spans=(Span("o2", 0, 20),))
    assert _decide([fact, said, other, elsewhere]) == {
        "a001": Rule.verified,
        "a002": Rule.said_supported,
        "a003": Rule.said_unsupported,
        "a004": Rule.said_unsupported,
    }
    dropped = _item(1, spans=span, confidence=0.1)
    assert _decide([dropped, said])["a002"] is Rule.said_unsupported


def test_the_bound_discards_the_oldest_promotable_and_is_deterministic() -> None:
    policy = Policy(working_memory_bound=3)
    items = [_item(n) for n in range(6)] + [_item(9, confidence=0.1)]
    decided = _decide(items, policy)
    assert [decided[f"a{n:03d}"] for n in range(6)] == [Rule.over_bound] * 3 + [Rule.verified] * 3
    assert decided["a009"] is Rule.unverified
    shuffled = items[:]
    random.Random(7).shuffle(shuffled)
    assert _decide(shuffled, policy) == decided


def test_a_said_sentence_goes_with_the_fact_the_bound_discarded() -> None:
    policy = Policy(working_memory_bound=2)
    old_fact = _item(1, spans=(Span("o1", 0, 10),))
    new_fact = _item(3, spans=(Span("o2", 0, 10),))
    said = _item(4, predicate="said", spans=(Span("o1", 0, 10),))
    decided = _decide([old_fact, new_fact, said], policy)
    assert decided == {
        "a001": Rule.over_bound,
        "a003": Rule.verified,
        "a004": Rule.said_unsupported,
    }


def test_source_keys() -> None:
    assert source_key(["o2", None, "o1"], "x", "document") == ("observation", "o1")
    assert source_key([None], "agent", "agent_inferred") == ("speaker", "agent", "agent_inferred")


def _resting(**kw: object) -> Resting:
    base: dict[str, object] = {
        "id": "a1",
        "written_tier": Tier.long,
        "tier": Tier.long,
        "task_id": None,
        "alive": True,
        "polarity": True,
        "recorded_at": T0,
        "entered_at": T0,
        "pinned": False,
        "last_read_at": None,
    }
    base.update(kw)
    return Resting(**base)  # type: ignore[arg-type]


def test_dormancy_counts_from_the_last_read_or_becoming_long_term() -> None:
    day = timedelta(days=1)
    assert rest(_resting(), T0 + 179 * day, POLICY) is None
    decision = rest(_resting(), T0 + 180 * day, POLICY)
    assert decision is not None and decision.rule is Rule.dormant
    assert rest(_resting(last_read_at=T0 + 10 * day), T0 + 180 * day, POLICY) is None
    assert rest(_resting(entered_at=T0 + 10 * day), T0 + 180 * day, POLICY) is None
    assert rest(_resting(pinned=True), T0 + 999 * day, POLICY) is None
    assert rest(_resting(alive=False), T0 + 999 * day, POLICY) is None
    assert rest(_resting(polarity=False), T0 + 999 * day, POLICY) is None


def test_waking_and_expiry() -> None:
    dormant = _resting(tier=Tier.dormant, entered_at=T0 + timedelta(days=200))
    assert rest(dormant, T0 + timedelta(days=300), POLICY) is None
    read = _resting(tier=Tier.dormant, entered_at=T0, last_read_at=T0 + timedelta(seconds=1))
    woken = rest(read, T0 + timedelta(days=1), POLICY)
    assert woken is not None and (woken.rule, woken.to_tier) == (Rule.woken, Tier.long)
    pinned = rest(_resting(tier=Tier.dormant, pinned=True), T0, POLICY)
    assert pinned is not None and pinned.reason == "pinned"
    ephemeral = _resting(written_tier=Tier.short, tier=Tier.short)
    assert rest(ephemeral, T0 + timedelta(hours=23), POLICY) is None
    expired = rest(ephemeral, T0 + timedelta(days=1), POLICY)
    assert expired is not None and expired.rule is Rule.ephemeral_expired
    in_a_task = _resting(written_tier=Tier.short, tier=Tier.short, task_id="t")
    assert rest(in_a_task, T0 + timedelta(days=999), POLICY) is None


def test_a_restricted_fact_keeps_no_public_sentence() -> None:
    """A red-team trial: a public sentence was kept (``said_supported``) because a restricted
    fact cited it, and every reader saw its tier and transition."""
    hidden = _item(1, spans=(Span("o1", 0, 20),), clauses=clauses(["hr"], []))
    said = _item(2, predicate="said", confidence=1.0, spans=(Span("o1", 0, 20),))
    assert _decide([hidden, said])["a002"] is Rule.said_unsupported
    hidden_said = _item(2, predicate="said", spans=(Span("o1", 0, 20),), clauses=hidden.clauses)
    assert _decide([hidden, hidden_said])["a002"] is Rule.said_supported


def test_restricted_facts_never_push_a_public_one_past_the_bound() -> None:
    """A red-team trial: a thousand hidden promotable facts discarded the one public fact of
    the task (``over_bound``), visible to every reader."""
    policy = Policy(working_memory_bound=2)
    public = _item(0)
    hidden = [_item(n, clauses=clauses(["hr"], [])) for n in range(1, 5)]
    decided = _decide([public, *hidden], policy)
    assert decided["a000"] is Rule.verified
    # the hidden scope's readers see the public fact too: three of the four hidden go
    assert [decided[f"a{n:03d}"] for n in range(1, 5)] == [Rule.over_bound] * 3 + [Rule.verified]


def _plan(plan: str, said: datetime = T0) -> Resting:
    return _resting(written_tier=Tier.short, tier=Tier.short, recorded_at=said, object=plan)


@pytest.mark.parametrize(
    ("plan", "passed"),
    [
        ("trip to Iceland (2026-11)", datetime(2026, 12, 1, 12, tzinfo=UTC)),
        ("learn Gaelic (2027)", datetime(2028, 1, 1, 12, tzinfo=UTC)),
        ("Leeds (2026-12)", datetime(2027, 1, 1, 12, tzinfo=UTC)),
        ("dentist appointment (2026-09-04)", datetime(2026, 9, 5, 12, tzinfo=UTC)),
        ("把 Redis 换成 Valkey (2026-W46)", datetime(2026, 11, 16, 12, tzinfo=UTC)),
    ],
)
def test_a_plan_stays_while_its_date_is_ahead_and_goes_a_ttl_after_it_passed(
    plan: str, passed: datetime
) -> None:
    """A new user's trial: plans said in spring for November and for next year were all
    discarded by the first sleep a day after they were said (the TTL counted from writing).
    A plan now stays while the date in its brackets is ahead (anywhere on Earth: until noon
    UTC of the day after it), and goes at the first sleep a TTL after that date passed."""
    said = datetime(2026, 4, 3, tzinfo=UTC)
    ttl = POLICY.ephemeral_ttl
    assert rest(_plan(plan, said), said + 2 * ttl, POLICY) is None
    assert rest(_plan(plan, said), passed + ttl - timedelta(seconds=1), POLICY) is None
    gone = rest(_plan(plan, said), passed + ttl, POLICY)
    assert gone is not None and (gone.rule, gone.to_tier) == (
        Rule.ephemeral_expired,
        Tier.discarded,
    )
    assert "passed more than 1 days ago" in gone.reason


@pytest.mark.parametrize(
    "plan",
    [
        "learn Gaelic",  # undated
        "visit Lisbon (2025-05)",  # a date already passed when it was said
        "moving (2026-13)",  # no such month
        "party (2026-02-30)",  # no such day
        "sprint (2026-W60)",  # no such week
        "a bracket inside (2027) the plan",  # not at the end
        "see it(2027)",  # not the form: no space before the bracket
    ],
)
def test_a_plan_naming_no_date_ahead_keeps_the_ttl_from_its_writing(plan: str) -> None:
    ttl = POLICY.ephemeral_ttl
    assert rest(_plan(plan), T0 + ttl - timedelta(seconds=1), POLICY) is None
    gone = rest(_plan(plan), T0 + ttl, POLICY)
    assert gone is not None and gone.rule is Rule.ephemeral_expired
    assert "older than 1 days" in gone.reason


def test_a_dated_plan_in_a_task_or_already_long_is_not_the_sweeps() -> None:
    """The date rule is the expiry of an ephemeral fact of no task only: a plan written in a
    task goes with its task's end (consolidation), as before."""
    late = datetime(2030, 1, 1, tzinfo=UTC)
    in_a_task = _resting(written_tier=Tier.short, tier=Tier.short, task_id="t", object="x (2026)")
    assert rest(in_a_task, late, POLICY) is None
    assert rest(_resting(object="x (2027)", pinned=True), late, POLICY) is None
