"""The CJK reader side by side: the new users' Chinese questions asked of two servers on one
store, one reading them with the CJK model and one without it (a report, not a test).

    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python bench/cjk_reader.py --fresh
    # --rounds 3 (each question asked this many times of each)  --out FILE (a JSON report)

1. Writes every turn of the new users' conversations (bench/trials/conversations.json) once,
   as the trials run does (``--fresh`` wipes the loopback store first).
2. Starts two servers from this checkout on that store: ``with`` (the defaults: the CJK
   model reads a CJK question and its first groups, graph_schema/recall/cjk.py) and
   ``without`` (``TRACTATUS_RECALL_DISABLE=cjk``: read lexically alone, as before).
3. After a warm-up, asks every Chinese question of both, the order alternating from one
   question to the next, so that a change of load on the shared machine falls on both
   alike; ``--rounds`` times.
4. Prints, for each server, the trials' figures of the first round per split (``right``,
   Hit@1, MRR, the not_found shares; the CJK model's two values were fitted on the ``fit``
   split: ``test`` is the held-out figure) and the p50 / p90 of the latency of the first
   round (the texts new to the CJK model's cache) and of the later ones, with the ratios of
   the p50s (with over without), and writes them with the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import harness
from bench.trials import corpus as trials
from bench.trials import run as trials_run
from server.settings import Settings, open_driver

KEY = trials_run.MEMBER_KEY
SERVERS = ("with", "without")
# the first round's texts are new to the CJK model's cache; the later rounds' are in it
WHEN = ("first round", "later rounds")


def chinese(conversations: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [(c, q) for c in conversations for q in c["questions"] if q["lang"] == "zh"]


def measure(
    urls: dict[str, str],
    questions: list[tuple[dict[str, Any], dict[str, Any]]],
    written: dict[str, str],
    rounds: int,
) -> tuple[dict[str, list[trials_run.Asked]], dict[str, list[float]]]:
    """Every question of both servers, alternating; the first round's answers and every
    round's latencies."""
    rows: dict[str, list[trials_run.Asked]] = {name: [] for name in urls}
    times: dict[str, list[float]] = {f"{name} {when}": [] for name in urls for when in WHEN}
    with (
        harness.clients(urls["with"], KEY) as (first,),
        harness.clients(urls["without"], KEY) as (second,),
    ):
        clients = {"with": first, "without": second}
        for client in clients.values():
            harness.warm_up(client)
        for n_round in range(rounds):
            for n, (conversation, q) in enumerate(questions):
                for name in SERVERS if n % 2 == 0 else SERVERS[::-1]:
                    answer, latency = harness.recall(
                        clients[name], q["question"], conversation["id"], k=trials_run.K
                    )
                    times[f"{name} {WHEN[min(n_round, 1)]}"].append(latency)
                    if n_round == 0:
                        rows[name].append(trials_run.asked(conversation, q, answer, written))
    return rows, times


def figures(rows: list[trials_run.Asked]) -> dict[str, Any]:
    by_split = {s: [r for r in rows if r.split == s] for s in ("fit", "test")}
    return {name: trials_run.group(part) for name, part in {"all": rows, **by_split}.items()}


def quantiles(values: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return {"p50": round(cuts[49], 1), "p90": round(cuts[89], 1)}


def run(args: argparse.Namespace) -> dict[str, Any]:
    data, _ = trials_run.load_set()
    conversations = trials.chosen(data, trials.SPLITS, None)
    settings = Settings()
    with open_driver(settings) as driver:
        harness.prepare_store(driver, settings, wipe=args.fresh)
    with tempfile.TemporaryDirectory() as tmp:
        principals = Path(tmp) / "principals.toml"
        principals.write_text(trials_run.PRINCIPALS, "utf-8")
        env = {**os.environ, "TRACTATUS_PRINCIPALS": str(principals)}
        without = {**env, "TRACTATUS_RECALL_DISABLE": "cjk"}
        with harness.serve(env) as head, harness.serve(without) as lexical:
            with harness.clients(head, KEY) as (writer,):
                written = harness.write_turns(writer, conversations, trials_run.observation)
            urls = {"with": head, "without": lexical}
            rows, times = measure(urls, chinese(conversations), written, args.rounds)
    latency = {name: quantiles(values) for name, values in times.items() if len(values) > 1}
    ratios = {
        when: round(latency[f"with {when}"]["p50"] / latency[f"without {when}"]["p50"], 3)
        for when in WHEN
        if f"with {when}" in latency
    }
    return {
        "figures": {name: figures(rows[name]) for name in SERVERS},
        "latency_ms": latency,
        "ratio_p50_with_to_without": ratios,
        "questions": len(rows["with"]),
        "rounds": args.rounds,
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": harness.machine(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--fresh", action="store_true", help="wipe the (loopback) store first")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "bench/results/cjk-reader.json")
    args = parser.parse_args()
    result = run(args)
    for name in SERVERS:
        for split, g in result["figures"][name].items():
            print(
                f"{name:8} {split:5} right {g['right']:.3f}  Hit@1 {g['hit1']:.3f}  "
                f"MRR {g['mrr']:.3f}  wrongly not_found {g['wrongly_not_found']:.3f}  "
                f"unanswerable not_found {g['not_found']:.3f}"
            )
    print(json.dumps({k: result[k] for k in ("latency_ms", "ratio_p50_with_to_without")}))
    args.out.write_text(json.dumps(result, indent=2) + "\n", "utf-8")


if __name__ == "__main__":
    main()
