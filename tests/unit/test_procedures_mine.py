"""Mining procedures from tasks' steps (graph_schema/procedures/mine.py): pure, no store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graph_schema.procedures.mine import (
    MAX_EVIDENCE,
    Step,
    Trace,
    key_of,
    shown_access,
    variants,
)

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def trace(task: str, *steps: str, start: int = 0, access: tuple[str, ...] = ()) -> Trace:
    """A task of ``action:outcome`` steps a minute apart, starting ``start`` hours after T0."""
    made = []
    for i, text in enumerate(steps):
        action, _, outcome = text.partition(":")
        at = T0 + timedelta(hours=start, minutes=i)
        made.append(Step(f"{task}-{i}", action, outcome or "success", at, access))
    return Trace(task, tuple(made))


def test_recurring_steps_become_one_procedure_with_its_support_and_success_rate() -> None:
    traces = [
        trace("t1", "check_stock", "reserve", "charge_card", start=0),
        trace("t2", "check_stock", "reserve", "charge_card:failure", start=1),
        trace("t3", "check_stock", "reserve", "charge_card", start=2),
        trace("t4", "check_stock", "charge_card", start=3),  # another variant, seen once
    ]
    [found] = variants(traces, min_support=3)
    assert found.steps == ("check_stock", "reserve", "charge_card")
    assert found.trigger == "check_stock"
    assert (found.support, found.successes) == (3, 2)
    assert abs(found.success_rate - 2 / 3) < 1e-9
    assert found.first_seen == T0 and found.last_seen == T0 + timedelta(hours=2, minutes=2)
    assert found.evidence() == ["t1-0", "t2-0", "t3-0"]
    assert sorted(v.support for v in variants(traces, min_support=1)) == [1, 3]


def test_a_retry_is_one_step_and_a_one_step_task_is_no_procedure() -> None:
    traces = [
        trace("t1", "fetch", "fetch:failure", "fetch", "parse"),
        trace("t2", "fetch", "parse"),
        trace("t3", "fetch", "fetch", "parse"),
        trace("t4", "ping"),
        trace("t5", "ping", "ping"),
        trace("t6", "ping"),
    ]
    [found] = variants(traces, min_support=3)
    assert found.steps == ("fetch", "parse") and found.support == 3


def test_the_last_step_decides_success() -> None:
    traces = [trace(f"t{i}", "a:failure", "b:success" if i else "b:partial") for i in range(3)]
    [found] = variants(traces, min_support=3)
    assert found.successes == 2


def test_scopes_are_never_pooled_and_a_scope_names_every_restricted_access_list() -> None:
    public = [trace(f"p{i}", "a", "b") for i in range(3)]
    finance = [trace(f"f{i}", "a", "b", access=("finance", "audit")) for i in range(3)]
    mixed = Trace(
        "m",
        (
            Step("m-0", "a", "success", T0, ()),
            Step("m-1", "b", "success", T0 + timedelta(minutes=1), ("sales",)),
        ),
    )
    found = {v.scope: v for v in variants([*public, *finance, mixed], min_support=1)}
    assert set(found) == {(), ("audit|finance",), ("sales",)}
    assert found[()].support == 3 and found[("audit|finance",)].support == 3
    assert found[()].key != found[("audit|finance",)].key
    assert found[()].key == key_of((), ("a", "b"))  # stable: the same every run


def test_below_the_support_floor_nothing_is_kept() -> None:
    traces = [trace(f"t{i}", "a", "b") for i in range(2)]
    assert variants(traces, min_support=3) == []
    assert [v.support for v in variants(traces, min_support=2)] == [2]


def test_evidence_is_bounded_and_earliest_first() -> None:
    traces = [trace(f"t{i:03d}", "a", "b", start=200 - i) for i in range(MAX_EVIDENCE + 20)]
    [found] = variants(traces, min_support=3)
    evidence = found.evidence()
    assert len(evidence) == MAX_EVIDENCE and found.support == MAX_EVIDENCE + 20
    assert evidence[0] == f"t{MAX_EVIDENCE + 19:03d}-0"  # the earliest task first


def test_a_scope_is_shown_as_access_any_of_and_access_all_each_of() -> None:
    """A new user's trial: a scope of one requirement was answered as access ["ops|support"];
    it is ``access`` ["ops", "support"] (any of them), as on an assertion, and only the
    further requirements of a scope of several are ``access_all``."""
    assert shown_access((), ()) == ([], [])
    assert shown_access((), ("ops|support",)) == (["ops", "support"], [])
    assert shown_access((), ("support|ops",)) == (["ops", "support"], [])
    assert shown_access((), ("ops", "finance|sales")) == (["finance", "sales"], ["ops"])
    assert shown_access(("support", "ops"), ("finance",)) == (["finance"], ["ops|support"])
    scope = trace("t", "a", "b", access=("support", "ops")).scope()
    assert shown_access((), scope) == (["ops", "support"], [])
