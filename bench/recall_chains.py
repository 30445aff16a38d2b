"""The chains recall shows with its results, read two ways side by side (a report, not a test).

How to run (against a DEDICATED, loopback Neo4j: the benchmark writes 100 small tasks of
events through the API; --wipe deletes everything first):

    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python bench/recall_chains.py --wipe
    # options: --tasks 100  --reps 50  --out bench/results/recall-chains.json

A result of ``POST /v1/recall`` that an event wrote carries that event and its causes
(``RecallResult.chain``, docs/recall.md). Recall reads them for all its results at once
(``graph_schema.recall.origins.chains``: one statement for the events that wrote the results, one
for their chains, ``replay.result_chains``). The other way is the one the routes take for a
single fact: ``replay.causing_event`` and ``replay.chain`` per result (``GET /v1/facts/why``).
The benchmark writes ``--tasks`` tasks of three steps (checkout, build, a failing test that
writes ``pipeline:N status failed``) over HTTP, then times both ways for 10 and 50 results,
interleaved, ``--reps`` times each after a warm-up, and prints the medians and their ratio,
with the machine it ran on.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from neo4j import Driver

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import harness
from graph_schema.core.types import Principal
from graph_schema.events import replay
from graph_schema.recall import origins
from server.app import create_app
from server.settings import Settings, open_driver

KEY = "tr_bench_recall_chains_000000000000000"
READER = Principal(id="bench", groups=())


def _write(client: httpx.Client, tasks: int) -> None:
    for n in range(tasks):
        task, at = f"deploy-{n}", f"2026-11-{1 + n % 28:02d}T10:0"
        ids: list[str] = []
        for step, (action, outcome) in enumerate(
            (("checkout", "success"), ("build", "success"), ("test", "failure"))
        ):
            body: dict[str, Any] = {
                "task_id": task,
                "actor": "agent:ci",
                "action": action,
                "outcome": outcome,
                "occurred_at": f"{at}{step}:00Z",
                **({"caused_by": ids[-1:]} if ids else {"root": True}),
            }
            if action == "test":
                body["assertions"] = [
                    {
                        "subject": f"pipeline:{4000 + n}",
                        "predicate": "status",
                        "object": "failed",
                        "source_kind": "tool_returned",
                        "asserted_by": "agent:ci",
                        "confidence": 1.0,
                        "evidence": {"quote": f"pipeline {4000 + n} failed in the test stage"},
                    }
                ]
            response = client.post("/v1/events", json=body)
            response.raise_for_status()
            ids.append(response.json()["event"]["id"])


def _facts(driver: Driver, database: str, limit: int) -> list[str]:
    records, _, _ = driver.execute_query(
        "MATCH (a:Assertion) WHERE a.subject STARTS WITH 'pipeline:' "
        "RETURN a.id AS id ORDER BY a.id LIMIT $limit",
        limit=limit,
        database_=database,
    )
    return [r["id"] for r in records]


def _together(driver: Driver, database: str, ids: list[str]) -> int:
    with driver.session(database=database, default_access_mode="READ") as session:
        chains = session.execute_read(origins.chains, list(READER.groups), ids)
    return len(chains)


def _one_by_one(driver: Driver, database: str, ids: list[str]) -> int:
    found = 0
    for aid in ids:
        event = replay.causing_event(driver, database=database, principal=READER, assertion_id=aid)
        if event is not None:
            chain = replay.chain(
                driver,
                database=database,
                principal=READER,
                event_id=event,
                max_depth=replay.RESULT_CHAIN_DEPTH,
            )
            found += chain is not None
    return found


Way = Callable[[Driver, str, list[str]], int]


def _timed(way: Way, driver: Driver, database: str, ids: list[str], samples: list[float]) -> None:
    start = time.perf_counter()
    if way(driver, database, ids) != len(ids):
        raise SystemExit("a way read a different number of chains")
    samples.append((time.perf_counter() - start) * 1000)


def _measure(driver: Driver, database: str, ids: list[str], reps: int) -> dict[str, float]:
    ways: dict[str, Way] = {"together": _together, "one_by_one": _one_by_one}
    samples: dict[str, list[float]] = {name: [] for name in ways}
    for rep in range(reps + 5):
        order = list(ways) if rep % 2 == 0 else list(ways)[::-1]
        for name in order:
            _timed(ways[name], driver, database, ids, samples[name])
    medians = {name: round(statistics.median(s[5:]), 2) for name, s in samples.items()}
    return {**medians, "ratio_together_to_one_by_one": round(
        medians["together"] / medians["one_by_one"], 3
    )}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=100)
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--wipe", action="store_true", help="delete everything first")
    parser.add_argument("--out", default=str(ROOT / "bench/results/recall-chains.json"))
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        principals = Path(tmp) / "principals.toml"
        principals.write_text(f'[[principal]]\nid = "bench"\nkey = "{KEY}"\ngroups = []\n')
        settings = Settings(principals=principals)
        database = settings.neo4j_database
        with open_driver(settings) as driver:
            harness.prepare_store(driver, settings, wipe=args.wipe)
            with (
                harness.serve_app(create_app(settings)) as base,
                httpx.Client(
                    base_url=base, headers={"Authorization": f"Bearer {KEY}"}, timeout=120
                ) as client,
            ):
                _write(client, args.tasks)
            rows = {
                str(k): _measure(driver, database, _facts(driver, database, k), args.reps)
                for k in (10, 50)
            }
    report = {"results": rows, "tasks": args.tasks, "reps": args.reps, "machine": harness.machine()}
    out = Path(args.out)
    out.write_text(json.dumps(report, indent=2) + "\n", "utf-8")
    print("results  together (ms)  one by one (ms)  ratio")
    for k, row in rows.items():
        print(
            f"{k:>7}  {row['together']:>13}  {row['one_by_one']:>15}  "
            f"{row['ratio_together_to_one_by_one']:>5}"
        )
    print(f"wrote {harness.shown_path(out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
