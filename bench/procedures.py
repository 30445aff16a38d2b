"""What mining procedures costs a sleep (docs/procedures.md "Measured").

How to run (against a DEDICATED, loopback Neo4j: with --wipe it deletes everything first):

    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python bench/procedures.py --wipe
    # options: --sizes 1000,5000  --rounds 5  --out bench/results/procedures.json

What it does: bulk-loads tasks of 3 to 6 steps (``events.cypher.BULK_LOAD_EVENTS``, the
trusted loader), a month old so every task is whole: 40 recurring variants over 90% of the
tasks (a tenth of them restricted to a group), the rest one-off sequences, and a long-term
fact per task so that the sleep's sweep has assertions to read. At each store size it runs
one sleep that writes the procedures, then ``--rounds`` pairs of sleeps interleaved: one that
mines (``min_support`` 3) and one that does not (0), both at the steady state where mining
writes nothing new; it prints the medians, their ratio and the mining step's cost per 1,000
tasks. Results with the machine go to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from neo4j import Driver

from bench.harness import machine, prepare_store
from graph_schema.core.clock import SystemClock
from graph_schema.core.timeutil import new_id
from graph_schema.core.types import Principal
from graph_schema.events import cypher as events_cypher
from graph_schema.lifecycle.types import task_key
from ingest.lifecycle.consolidate import Lifecycle
from ingest.lifecycle.sleep import SleepConfig, run_sleep
from server.settings import Settings, open_driver

BATCH = 2_000
VARIANTS = 40
ADMIN = Principal(id="bench", role="admin")
ACTIONS = [f"step_{n}" for n in range(30)]
FACTS = """
UNWIND $rows AS row
CREATE (a:Assertion {id: row.id, subject: row.subject, predicate: 'works_at', object: 'Acme',
  polarity: true, tier: 'long', valid_from: datetime(row.at), recorded_at: datetime(row.at),
  source_kind: 'user_stated', asserted_by: 'bench', confidence: 0.9, access: [],
  slot_key: row.subject + '|works_at'})
"""


def _variants(rng: random.Random) -> list[list[str]]:
    return [rng.sample(ACTIONS, rng.randint(3, 6)) for _ in range(VARIANTS)]


def _task_items(actions: list[str], start: datetime, access: list[str]) -> list[dict[str, Any]]:
    task = f"bench-{uuid.uuid4().hex[:12]}"
    items: list[dict[str, Any]] = []
    for n, action in enumerate(actions):
        at = start + timedelta(seconds=n)
        props = {
            "id": new_id(),
            "task_id": task,
            "actor": "agent",
            "action": action,
            "outcome": "success" if n < len(actions) - 1 or n % 4 else "failure",
            "before": "{}",
            "after": "{}",
            "occurred_at": at,
            "recorded_at": at,
            "access": access,
            "root": n == 0,
            "written_by": "bench",
        }
        causes = [items[-1]["props"]["id"]] if items else []
        items.append({"props": props, "causes": causes, "task_key": task_key("bench", task)})
    return items


def _fill(driver: Driver, database: str, tasks: int, rng: random.Random) -> None:
    variants = _variants(rng)
    start = datetime.now(UTC) - timedelta(days=30)
    items: list[dict[str, Any]] = []
    facts: list[dict[str, Any]] = []
    for n in range(tasks):
        recurring = rng.random() < 0.9
        actions = rng.choice(variants) if recurring else rng.sample(ACTIONS, 5)
        access = ["finance"] if recurring and rng.random() < 0.1 else []
        items += _task_items(actions, start + timedelta(minutes=n), access)
        facts.append({"id": new_id(), "subject": f"bench:{uuid.uuid4().hex[:10]}",
                      "at": start.isoformat()})  # fmt: skip
    for i in range(0, len(items), BATCH):
        driver.execute_query(
            events_cypher.BULK_LOAD_EVENTS, events=items[i : i + BATCH], database_=database
        )
    for i in range(0, len(facts), BATCH):
        driver.execute_query(FACTS, rows=facts[i : i + BATCH], database_=database)


def _sleep(driver: Driver, database: str, min_support: int) -> tuple[float, int]:
    life = Lifecycle(policy=Settings().lifecycle_policy(), clock=SystemClock())
    started = time.perf_counter()
    report = run_sleep(
        driver,
        database=database,
        principal=ADMIN,
        life=life,
        config=SleepConfig(min_support=min_support),
    )
    return time.perf_counter() - started, report.counts.procedures


def _size(driver: Driver, database: str, tasks: int, rounds: int) -> dict[str, Any]:
    first, written = _sleep(driver, database, 3)
    on: list[float] = []
    off: list[float] = []
    for _ in range(rounds):
        seconds, again = _sleep(driver, database, 3)
        assert again == 0, "a steady-state sleep wrote procedures"
        on.append(seconds)
        off.append(_sleep(driver, database, 0)[0])
    with_mining, without = statistics.median(on), statistics.median(off)
    return {
        "tasks": tasks,
        "first_sleep_s": round(first, 3),
        "procedures_written": written,
        "sleep_mining_s": round(with_mining, 3),
        "sleep_without_s": round(without, 3),
        "ratio": round(with_mining / without, 2),
        "mining_ms_per_1000_tasks": round((with_mining - without) * 1000 / tasks * 1000, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,5000")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--wipe", action="store_true")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    settings = Settings()
    database = settings.neo4j_database
    rng = random.Random(7)
    rows = []
    with open_driver(settings) as driver:
        prepare_store(driver, settings, wipe=args.wipe)
        loaded = 0
        for size in (int(s) for s in args.sizes.split(",")):
            _fill(driver, database, size - loaded, rng)
            loaded = size
            rows.append(_size(driver, database, size, args.rounds))
            print(json.dumps(rows[-1]))
    head = ("tasks", "procedures", "sleep, mining (s)", "sleep, no mining (s)", "ratio")
    print("\n| " + " | ".join((*head, "ms per 1,000 tasks")) + " |")
    print("|---" * (len(head) + 1) + "|")
    keys = ("procedures_written", "sleep_mining_s", "sleep_without_s", "ratio")
    for r in rows:
        cells = [f"{r['tasks']:,}", *(str(r[k]) for k in keys), str(r["mining_ms_per_1000_tasks"])]
        print("| " + " | ".join(cells) + " |")
    if args.out:
        result = {"rows": rows, "rounds": args.rounds, "machine": machine()}
        args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
