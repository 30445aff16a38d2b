"""bench/locomo's scoring (dialog identity, Hit@k, MRR, the threshold curve) on hand-made
outcomes."""

from __future__ import annotations

import pytest

from tests.helpers import bench_module

scoring = bench_module("locomo/scoring")


def test_scoring_on_a_hand_made_case() -> None:
    Outcome = scoring.Outcome
    a = Outcome("s", 1, ["D1:3"], ["D1:1", "D1:2", "D1:3"], "answered")
    b = Outcome(
        "s", 2, ["D2:1", "D2:9"], [f"D3:{i}" for i in range(5)] + ["D2:9", "D2:1"], "answered"
    )
    c = Outcome("s", 4, ["D4:4"], ["D1:1"], "not_found")
    s = scoring.score([a, b, c])
    assert s.questions == 3
    assert s.hit5 == pytest.approx(1 / 3)
    assert s.hit10 == pytest.approx(2 / 3)
    assert s.recall10_strict == pytest.approx(2 / 3)
    assert s.mrr == pytest.approx((1 / 3 + 1 / 6 + 0) / 3)
    assert s.not_found == pytest.approx(1 / 3)
    assert scoring.gold_ids(["D8:6; D9:17", "D:11:26", "D", "D1:3"]) == [
        "D8:6",
        "D9:17",
        "D11:26",
        "D1:3",
    ]
    assert scoring.dedupe(["D1:1", "D1:2", "D1:1"]) == ["D1:1", "D1:2"]
    curve = scoring.threshold_curve(
        [
            Outcome("s", 5, [], [], "x", relevance=0.2),
            Outcome("s", 1, ["D1:1"], [], "x", relevance=0.6),
        ],
        [0.1, 0.5, 0.7],
    )
    assert [(p["cat5_not_found"], p["cat1_4_wrongly_not_found"]) for p in curve] == [
        (0.0, 0.0),
        (1.0, 0.0),
        (1.0, 1.0),
    ]
    assert scoring.percentile([5.0, 1.0, 3.0, 2.0, 4.0], 50) == 3.0
    assert scoring.percentile([float(i) for i in range(1, 101)], 99) == 99.0


def test_the_status_rule_with_the_contrast_and_its_leave_one_out_fit() -> None:
    Outcome, Rule = scoring.Outcome, scoring.Rule
    assert scoring.others_relevance({"person": None}) is None
    assert scoring.others_relevance({"person": {"name": "Zed", "others_relevance": 0.7}}) == 0.7
    # per conversation: a question about the wrong person (another states it far better) and
    # an answerable one (the person's own is the best), both named; one naming no one
    outcomes = [
        row
        for s in ("a", "b", "c")
        for row in (
            Outcome(s, 5, [], [], "x", relevance=0.5, others=0.8),
            Outcome(s, 1, ["D1:1"], [], "x", relevance=0.5, others=0.45),
            Outcome(s, 4, ["D1:2"], [], "x", relevance=0.3),
        )
    ]
    plain, contrast = Rule(0.25), Rule(0.25, 0.2, 0.1)
    assert scoring.absence(outcomes, plain) == (0.0, 0.0)
    assert scoring.absence(outcomes, contrast) == (1.0, 0.0)
    assert scoring.absence(outcomes, Rule(0.25, 0.6, 0.1)) == (1.0, 0.5)
    assert [r["cat5_not_found"] for r in scoring.margin_curve(outcomes, [0.0, 0.4], 0.25, 0.2)] == [
        1.0,
        0.0,
    ]
    grid = [plain, contrast, Rule(0.25, 0.6, 0.1)]
    assert scoring.fit_rule(outcomes, grid, cap=0.05) == contrast
    rows = scoring.rule_held_out(outcomes, grid, cap=0.05)
    assert [r["rule"] for r in rows[:3]] == [contrast] * 3
    assert rows[-1] == {"held_out": "pooled", "cat5": 1.0, "wrongly": 0.0}


def test_a_name_or_a_kind_nothing_answers_is_not_found_whatever_the_settings() -> None:
    """As recall decides: ``unmentioned`` or ``missing_kinds`` refuse whatever the relevance."""
    Outcome, Rule = scoring.Outcome, scoring.Rule
    high = Outcome("a", 5, [], [], "x", relevance=0.9)
    assert not Rule(0.5).not_found(high)
    assert Rule(0.5).not_found(Outcome("a", 5, [], [], "x", relevance=0.9, unmentioned=["Kafka"]))
    kinds = Outcome("a", 5, [], [], "x", relevance=0.9, others=0.1, missing_kinds=["color"])
    assert Rule(0.5).not_found(kinds) and Rule(0.5, 0.3, 0.1).not_found(kinds)
