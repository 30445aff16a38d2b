"""Smoke version of bench/locomo: a slice of one LoCoMo conversation through the real API
(ingest, passages, recall) with Hit@10 > 0. The scoring itself is checked in
tests/unit/test_locomo_scoring.py."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from ingest import bulk
from tests.helpers import KEYS, bench_module

pytestmark = pytest.mark.integration

scoring = bench_module("locomo/scoring")


def _slice(data: Path) -> dict[str, Any]:
    """conv-26 sessions 1-2 under another sample id, with the questions they answer."""
    samples = json.loads(data.read_text("utf-8"))
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


def test_locomo_slice_through_the_api(base_url: str, locomo: Path) -> None:
    run = bench_module("locomo/run")
    sample = _slice(locomo)
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
