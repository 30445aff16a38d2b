"""Access log overhead: fact-read and recall p50 with the log on and off, side by side.

How to run (against a DEDICATED, loopback Neo4j: --wipe deletes everything first):

    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python bench/access_log.py --wipe
    # options: --facts 3000  --rounds 1000  --warmup 40  --out bench/results/access_log.json

What it does: starts two real servers (`tractatus serve`, each its own process) on the same
store, one with `TRACTATUS_ACCESS_LOG=true` and one with `false`; loads the facts of
`bench/lifecycle_data.py` through the first; then, round after round, sends the same
`GET /v1/facts` and the same `POST /v1/recall` to both servers in a random order (so both see
the same load, the same caches, the same neighbours on the machine) and times each over a
keep-alive connection. It reports p50 and p90 per read and server, the ratio on/off of the
p50s (the target: within 5%), how many reads the log wrote, and the machine; and writes the
JSON results.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx

from bench.causal_replay import machine, percentile
from bench.harness import ROOT, start_server
from bench.lifecycle_data import KEY, load, prepare, principals_file, server_env
from server.settings import Settings, open_driver

MODES = ("on", "off")
TARGET = 0.05


def _timed(client: httpx.Client, method: str, path: str, **kw: Any) -> float:
    started = time.perf_counter()
    response = client.request(method, path, **kw)
    elapsed = (time.perf_counter() - started) * 1000
    response.raise_for_status()
    return elapsed


def _round(
    clients: dict[str, httpx.Client], slot: tuple[str, str], query: str, rng: random.Random
) -> dict[str, dict[str, float]]:
    subject, predicate = slot
    times: dict[str, dict[str, float]] = {mode: {} for mode in MODES}
    for kind in ("facts", "recall"):
        for mode in rng.sample(MODES, len(MODES)):
            client = clients[mode]
            if kind == "facts":
                params = {"subject": subject, "predicate": predicate}
                times[mode][kind] = _timed(client, "GET", "/v1/facts", params=params)
            else:
                body = {"query": query, "k": 10}
                times[mode][kind] = _timed(client, "POST", "/v1/recall", json=body)
    return times


def _summary(samples: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(statistics.median(samples), 2),
        "p90_ms": round(percentile(samples, 0.9), 2),
        "n": len(samples),
    }


def _counted(settings: Settings) -> int:
    with open_driver(settings) as driver:
        records, _, _ = driver.execute_query(
            "MATCH (c:AccessCount) RETURN coalesce(sum(c.reads), 0) AS reads",
            database_=settings.neo4j_database,
        )
    return int(records[0]["reads"])


def _measure(
    clients: dict[str, httpx.Client], data: Any, rounds: int, warmup: int
) -> dict[str, dict[str, list[float]]]:
    rng = random.Random(11)
    samples: dict[str, dict[str, list[float]]] = {
        mode: {"facts": [], "recall": []} for mode in MODES
    }
    for n in range(warmup + rounds):
        pick = rng.randrange(len(data.subjects))
        times = _round(clients, data.subjects[pick], data.queries[pick], rng)
        if n >= warmup:
            for mode in MODES:
                for kind, value in times[mode].items():
                    samples[mode][kind].append(value)
    return samples


def run(args: argparse.Namespace) -> dict[str, Any]:
    started = datetime.now(UTC).isoformat()
    principals = principals_file()
    settings = Settings(principals=principals)
    with open_driver(settings) as driver:
        prepare(driver, settings.neo4j_database, settings.neo4j_uri, args.wipe)
        info = machine(driver, settings.neo4j_database)
    servers = {
        mode: start_server(server_env(principals, TRACTATUS_ACCESS_LOG=str(mode == "on").lower()))
        for mode in MODES
    }
    try:
        data = load(servers["on"][1], args.facts)
        headers = {"Authorization": f"Bearer {KEY}"}
        clients = {
            mode: httpx.Client(base_url=url, headers=headers, timeout=120)
            for mode, (_, url) in servers.items()
        }
        counted_before = _counted(settings)
        samples = _measure(clients, data, args.rounds, args.warmup)
        time.sleep(3)  # the log flushes every second
        counted = _counted(settings) - counted_before
    finally:
        for process, _ in servers.values():
            process.terminate()
            process.wait(timeout=60)
    result = {mode: {k: _summary(v) for k, v in samples[mode].items()} for mode in MODES}
    ratios = {
        kind: round(result["on"][kind]["p50_ms"] / result["off"][kind]["p50_ms"], 3)
        for kind in ("facts", "recall")
    }
    return {
        "benchmark": "access_log",
        "started_at": started,
        "finished_at": datetime.now(UTC).isoformat(),
        "machine": info,
        "facts": args.facts,
        "tasks_ended": data.tasks,
        "rounds": args.rounds,
        "warmup": args.warmup,
        "results": result,
        "ratio_on_off_p50": ratios,
        "within_target": all(abs(r - 1) <= TARGET for r in ratios.values()),
        "reads_counted_by_the_log": counted,
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
    }


def table(results: dict[str, Any]) -> str:
    lines = [
        "| read | log on p50 | log off p50 | on/off | log on p90 | log off p90 |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for kind in ("facts", "recall"):
        on, off = results["results"]["on"][kind], results["results"]["off"][kind]
        lines.append(
            f"| {kind} | {on['p50_ms']} ms | {off['p50_ms']} ms "
            f"| {results['ratio_on_off_p50'][kind]} | {on['p90_ms']} ms | {off['p90_ms']} ms |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--facts", type=int, default=3_000)
    parser.add_argument("--rounds", type=int, default=1_000)
    parser.add_argument("--warmup", type=int, default=40)
    parser.add_argument("--wipe", action="store_true", help="delete everything first")
    parser.add_argument("--out", default=str(ROOT / "bench/results/access_log.json"))
    args = parser.parse_args(argv)
    results = run(args)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n", "utf-8")
    print(json.dumps(results["machine"], indent=2))
    print(table(results))
    print(f"reads counted by the log: {results['reads_counted_by_the_log']}")
    print(f"within {TARGET:.0%}: {results['within_target']}; wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
