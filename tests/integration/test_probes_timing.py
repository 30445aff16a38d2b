"""A statistical timing probe: what a caller may not see must not show in how long its
recall takes (docs/security.md "Timing").

An outsider (bob, group sales) asks about two topics that look alike to it: a few public
facts on each. The owner (alice, group finance) then writes thousands of facts and turns on
one of them, the *hidden* topic. If the work of a query grew with hidden data, the outsider's
recall on the hidden topic would be slower than on the control topic. The probe measures
interleaved pairs (which of the two goes first is random), then does it again on a fresh
store with the topics' roles swapped, so a difference between the topics themselves cancels.

The statistic is the AUC (Mann-Whitney) of the hidden-topic latencies against the control
ones: 0.5 when they are indistinguishable. Under that null hypothesis, with 150 + 150 pairs,
its standard error is about 0.024, so the bound 0.5 +/- 0.1 is four standard errors wide: the
probe does not flake on noise, yet it fails on a real difference: recall as it was before
readers terms (docs/security.md "Timing") gave an AUC of 0.956 here, the hidden topic's median
1.64 times the control's; with them, 0.486 and 0.99.
"""

from __future__ import annotations

import random
import statistics
import time
import uuid
from collections.abc import Callable, Mapping, Sequence

import pytest
from neo4j import Driver

from server.settings import Settings
from tests.helpers import Api, assertion
from tests.integration.conftest import reset_store
from tests.integration.probes import RESULTS

pytestmark = pytest.mark.integration

TOPICS = ("harbour crane maintenance budget", "orchard irrigation pump schedule")
HIDDEN_ASSERTIONS = 2_500
HIDDEN_TURNS = 500
PAIRS_PER_PHASE = 150
WARM_UP = 15


def _topic_fact(topic: str, i: int, **extra: object) -> dict[str, object]:
    return assertion(
        f"site:{topic.split()[0]}-{i}",
        "said",
        f"the {topic} for site {i} is {1000 + 7 * i} euros",
        evidence={"quote": f"the {topic} for site {i} is {1000 + 7 * i} euros"},
        **extra,
    )


def _post_all(
    api: Api, path: str, key: str, items: Sequence[Mapping[str, object]], size: int
) -> None:
    for start in range(0, len(items), size):
        reply = api.post(path, {key: items[start : start + size]})
        assert reply.status_code in (200, 201), reply.text[:300]


def _plant_public(api: dict[str, Api]) -> None:
    facts = [_topic_fact(topic, i) for topic in TOPICS for i in range(20)]
    facts += [
        assertion(f"misc:{i}", "said", f"unrelated public note number {i}") for i in range(200)
    ]
    _post_all(api["alice"], "/v1/assertions", "assertions", facts, 500)


def _plant_hidden(api: dict[str, Api], topic: str) -> None:
    conversation = f"hidden-{uuid.uuid4().hex[:8]}"
    facts = [_topic_fact(topic, 100 + i, access=["finance"]) for i in range(HIDDEN_ASSERTIONS)]
    _post_all(api["alice"], "/v1/assertions", "assertions", facts, 500)
    turns = [
        {
            "text": f"The {topic} for site {5000 + i} came to {2000 + 3 * i} euros.",
            "speaker": "alice",
            "conversation_id": conversation,
            "occurred_at": f"2026-03-01T{10 + i // 3600 % 10:02d}:{i // 60 % 60:02d}:{i % 60:02d}Z",
            "source_kind": "user_stated",
            "access": ["finance"],
        }
        for i in range(HIDDEN_TURNS)
    ]
    _post_all(api["alice"], "/v1/observations", "observations", turns, 250)
    while True:
        reply = api["admin"].post("/v1/recall/index", {"max_batches": 50})
        assert reply.status_code == 200, reply.text
        if reply.json()["pending"] == 0:
            return


def _timer(outsider: Api) -> Callable[[str], float]:
    def timed(topic: str) -> float:
        start = time.perf_counter()
        reply = outsider.post("/v1/recall", {"query": f"what is the {topic}?", "k": 10})
        elapsed = time.perf_counter() - start
        assert reply.status_code == 200, reply.text
        assert "finance" not in reply.text and "came to" not in reply.text
        return elapsed

    return timed


def _phase(api: dict[str, Api], hidden: str, control: str) -> tuple[list[float], list[float]]:
    _plant_public(api)
    _plant_hidden(api, hidden)
    timed = _timer(api["bob"])
    for _ in range(WARM_UP):
        timed(hidden)
        timed(control)
    rng = random.Random(hidden)
    hidden_times: list[float] = []
    control_times: list[float] = []
    for _ in range(PAIRS_PER_PHASE):
        if rng.random() < 0.5:
            hidden_times.append(timed(hidden))
            control_times.append(timed(control))
        else:
            control_times.append(timed(control))
            hidden_times.append(timed(hidden))
    return hidden_times, control_times


def auc(slower: list[float], faster: list[float]) -> float:
    """P(a value of ``slower`` exceeds one of ``faster``), ties counting half (Mann-Whitney)."""
    ranked = sorted([(v, 0) for v in slower] + [(v, 1) for v in faster])
    ranks: list[float] = [0.0] * len(ranked)
    i = 0
    while i < len(ranked):
        j = i
        while j + 1 < len(ranked) and ranked[j + 1][0] == ranked[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        i = j + 1
    rank_sum = sum(r for r, (_, side) in zip(ranks, ranked, strict=True) if side == 0)
    n1, n2 = len(slower), len(faster)
    return (rank_sum - n1 * (n1 + 1) / 2) / (n1 * n2)


def test_auc_of_the_mann_whitney_statistic() -> None:
    assert auc([3.0, 4.0], [1.0, 2.0]) == 1.0
    assert auc([1.0, 2.0], [3.0, 4.0]) == 0.0
    assert auc([1.0, 2.0], [1.0, 2.0]) == 0.5


def test_recall_time_does_not_depend_on_hidden_data(
    api: dict[str, Api], driver: Driver, settings: Settings
) -> None:
    hidden_times: list[float] = []
    control_times: list[float] = []
    for hidden, control in (TOPICS, TOPICS[::-1]):
        reset_store(driver, settings)
        h, c = _phase(api, hidden, control)
        hidden_times += h
        control_times += c
    reset_store(driver, settings)
    value = auc(hidden_times, control_times)
    ratio = statistics.median(hidden_times) / statistics.median(control_times)
    label = (
        f"timing:recall: AUC {value:.3f} over {len(hidden_times)} pairs,"
        f" hidden/control median {ratio:.2f}"
    )
    RESULTS["attacks"].append(label)
    RESULTS["measures"].append(label)
    if not 0.4 <= value <= 0.6:
        RESULTS["leaks"].append(label)
    assert 0.4 <= value <= 0.6, label
