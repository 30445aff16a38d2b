"""Recall latency side by side: this checkout's server and another commit's, on one store,
asked the same questions interleaved (a report, not a test).

    git worktree add ../tractatus-base <commit before the change>
    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python bench/locomo/run.py --fresh   # the store
    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python bench/recall_ab.py --base ../tractatus-base
    # --questions 400 (spread over all conversations)  --rounds 1  --out FILE (a JSON report)
    # --chinese: the new users' trials' Chinese questions instead, each scoped to its
    # conversation (the store must hold the trials: bench/trials/run.py --fresh leaves them)
    # --lower: the trials' English questions written without a capital, the same way

Both servers run with this environment (the same store, model and settings), each from its
own source tree (``python -m server.cli serve`` with the tree as working directory, so the
base's modules are the ones imported). After a warm-up of ten questions each, every LoCoMo
question (every k-th, ``--questions`` in all, each scoped to its conversation) is asked of
both, the order alternating from one question to the next, so that a change of load on a
shared machine falls on both alike. Prints p50 / p90 / p99 of each and the ratio of the
p50s (this checkout over the base), and writes them with the machine. The store must hold
the LoCoMo conversations (``bench/locomo/run.py`` leaves them there).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import harness
from bench.trials import corpus as trials

KEY = "tr_bench_recall_ab_00000000000000000"
PRINCIPALS = f'[[principal]]\nid = "bench"\nkey = "{KEY}"\ngroups = []\n'


def questions(path: Path, count: int) -> list[dict[str, Any]]:
    bodies = [
        {"query": qa["question"], "k": 10, "filters": {"conversation_id": s["sample_id"]}}
        for s in json.loads(path.read_bytes())
        for qa in s["qa"]
    ]
    step = max(1, len(bodies) // count)
    return bodies[::step][:count]


# the trials' questions measured instead of LoCoMo's: its Chinese ones, or its English ones
# written without a capital (recall reads their words as the turns write them)
TRIAL_SETS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "chinese": lambda q: q["lang"] == "zh",
    "lower": lambda q: q["lang"] == "en" and q["question"] == q["question"].lower(),
}


def trial_questions(chosen: str, count: int) -> list[dict[str, Any]]:
    """The trials' questions of the set ``chosen`` (at most ``count``, spread over the
    conversations)."""
    bodies = [
        {"query": q["question"], "k": 10, "filters": {"conversation_id": c["id"]}}
        for c in trials.load()["conversations"]
        for q in c["questions"]
        if TRIAL_SETS[chosen](q)
    ]
    step = max(1, len(bodies) // count)
    return bodies[::step][:count]


def timed(client: httpx.Client, body: dict[str, Any]) -> float:
    started = time.perf_counter()
    client.post("/v1/recall", json=body).raise_for_status()
    return (time.perf_counter() - started) * 1000


def quantiles(values: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return {"p50": round(cuts[49], 1), "p90": round(cuts[89], 1), "p99": round(cuts[98], 1)}


def measure(urls: dict[str, str], bodies: list[dict[str, Any]], rounds: int) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {KEY}"}
    clients = {n: httpx.Client(base_url=u, headers=headers, timeout=120) for n, u in urls.items()}
    for body in bodies[:10]:
        for client in clients.values():
            timed(client, body)
    times: dict[str, list[float]] = {name: [] for name in clients}
    names = list(clients)
    for _ in range(rounds):
        for n, body in enumerate(bodies):
            for name in names if n % 2 == 0 else names[::-1]:
                times[name].append(timed(clients[name], body))
    for client in clients.values():
        client.close()
    return {name: quantiles(values) for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True, help="a checkout of the base commit")
    parser.add_argument("--questions", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--file", type=Path, default=None, help=harness.LOCOMO_HELP)
    parser.add_argument("--out", type=Path, default=ROOT / "bench/results/recall-ab.json")
    parser.add_argument("--chinese", action="store_true", help="the trials' Chinese questions")
    parser.add_argument(
        "--lower", action="store_true", help="the trials' English questions in lower case"
    )
    args = parser.parse_args()
    chosen = "chinese" if args.chinese else "lower" if args.lower else None
    if chosen is not None:
        bodies = trial_questions(chosen, args.questions)
    else:
        bodies = questions(harness.locomo_argument(parser, args.file), args.questions)
    with tempfile.TemporaryDirectory() as tmp:
        principals = Path(tmp) / "principals.toml"
        principals.write_text(PRINCIPALS, "utf-8")
        env = {**os.environ, "TRACTATUS_PRINCIPALS": str(principals)}
        with (
            harness.serve(env) as head,
            harness.serve(env, checkout=args.base.resolve()) as base,
        ):
            result = measure({"head": head, "base": base}, bodies, args.rounds)
    result["ratio_p50_head_to_base"] = round(result["head"]["p50"] / result["base"]["p50"], 3)
    result.update(
        when=datetime.now(UTC).isoformat(timespec="seconds"),
        questions=len(bodies) * args.rounds,
        set=f"trials, {chosen} questions" if chosen else "LoCoMo",
        machine=harness.machine(),
    )
    print(json.dumps(result, indent=2))
    args.out.write_text(json.dumps(result, indent=2) + "\n", "utf-8")


if __name__ == "__main__":
    main()
