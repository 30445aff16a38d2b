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
