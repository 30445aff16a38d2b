"""Smoke version of bench/locomo: the scoring on a hand-made case, and a slice of one
LoCoMo conversation through the real API (ingest, passages, recall) with Hit@10 > 0."""

from __future__ import annotations

import copy
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from ingest import bulk
from tests.conftest import KEYS

ROOT = Path(__file__).resolve().parents[2]
# shared/ sits beside the work tree (here and in CI's fresh clone)
DATA = next(
    (
        p
        for p in (
            ROOT.parent / "shared/data/locomo-dev.json",
            Path("/work/shared/data/locomo-dev.json"),
        )
        if p.exists()
    ),
    ROOT.parent / "shared/data/locomo-dev.json",
)


def _module(name: str) -> ModuleType:
    path = ROOT / "bench" / "locomo" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"bench_locomo_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


scoring = _module("scoring")


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


def _slice() -> dict[str, Any]:
    """conv-26 sessions 1-2 under another sample id, with the questions they answer."""
    if not DATA.exists():
        pytest.skip(f"LoCoMo data not found at {DATA}")
    samples = json.loads(DATA.read_text("utf-8"))
    sample = copy.deepcopy(next(s for s in samples if s["sample_id"] == "conv-26"))
    conv = sample["conversation"]
    for key in [k for k in conv if k.startswith("session_")]:
        number = key.split("_")[1]
        if number not in ("1", "2"):
            del conv[key]
    sample["sample_id"] = "smoke-conv-26"
    sample["qa"] = [
        q
        for q in sample["qa"]
        if q["category"] in (1, 2, 4)
        and q.get("evidence")
        and all(e.startswith(("D1:", "D2:")) for e in q["evidence"])
    ][:8]
    return sample


@pytest.mark.integration
def test_locomo_slice_through_the_api(base_url: str, api: Any) -> None:
    run = _module("run")
    sample = _slice()
    assert len(sample["qa"]) >= 5
    items = bulk.locomo_observations([sample])
    key = KEYS["admin"]
    summary = run.ingest(base_url, key, items)
    assert summary["created"] + summary["replayed"] == len(items)
    with httpx.Client(
        base_url=base_url, headers={"Authorization": f"Bearer {key}"}, timeout=120
    ) as client:
        keys = run.observation_ids(client, items)
        assert len(keys) == len(items)
        run.index_passages(client)
        outcomes = run.ask(client, sample, keys, None)
    assert all(o.ranked and all(d.startswith("D") for d in o.ranked) for o in outcomes)
    result = scoring.score(outcomes)
    assert result.questions == len(sample["qa"])
    assert result.hit10 > 0
    assert all(o.latency_ms > 0 for o in outcomes)
