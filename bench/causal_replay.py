"""Causal replay latency: chains of 10, 100 and 1,000 steps in stores of growing size.

How to run (against a DEDICATED, loopback Neo4j: the benchmark writes ~100k events and,
with --wipe, deletes everything first):

    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python bench/causal_replay.py --wipe
    # options: --sizes 10000,100000  --reps 200  --out bench/results/causal_replay.json

What it does: creates probe chains of 10, 100 and 1,000 steps, then fills the store with
filler events (many short chains of 10 steps, 100 events per task, a fifth of them
restricted to a group the reader is not in) up to each store size in turn. At each size it
replays every probe chain ``--reps`` times (after a warm-up) two ways:

- *library*: ``graph_schema.events.replay.chain(...)`` in this process (the server-side cost:
  Bolt round trip, the Cypher replay, building the domain objects);
- *http*: ``GET /v1/events/{id}/chain`` against the real FastAPI app served by uvicorn in
  a thread of this process, over a keep-alive connection (adds auth, JSON encoding, HTTP).

It also PROFILEs one replay of each chain to report the database hits, which should depend
on the chain length and not on the store size. Filler is bulk-loaded with UNWIND batches
(``cypher_events.BULK_LOAD_EVENTS``), probe chains too; the replay path is the real one.
It prints a table and writes the JSON results, with the machine it ran on.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from neo4j import Driver

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import harness
from graph_schema.core.types import Principal
from graph_schema.events import cypher as cypher_events
from graph_schema.events import replay as event_reads
from graph_schema.lifecycle.types import task_key
from graph_schema.schema import (
    migrations,
    ontology,
)
from server.app import create_app
from server.settings import Settings, open_driver

CHAIN_LENGTHS = (10, 100, 1_000)
FILLER_CHAIN = 10
EVENTS_PER_TASK = 100
BATCH = 5_000
READER = Principal(id="bench-reader", groups=("sales",))
READER_KEY = "tr_bench_reader_000000000000000000000000"
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


class Clock:
    """Strictly increasing occurred_at / recorded_at stamps for bulk-loaded events."""

    def __init__(self) -> None:
        self.n = 0

    def tick(self) -> datetime:
        self.n += 1
        return EPOCH + timedelta(milliseconds=self.n)


def _props(task: str, n: int, when: datetime, *, root: bool, access: list[str]) -> dict[str, Any]:
    return {
        "id": f"ev-{uuid.uuid4().hex}",
        "task_id": task,
        "actor": "agent",
        "action": f"step-{n}",
        "outcome": "success",
        "before": json.dumps({"n": n - 1}),
        "after": json.dumps({"n": n}),
        "occurred_at": when,
        "recorded_at": when,
        "access": access,
        "root": root,
        "written_by": "bench",
    }


def chain_items(length: int, task: str, clock: Clock, access: list[str]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for n in range(length):
        props = _props(task, n, clock.tick(), root=n == 0, access=access)
        causes = [items[-1]["props"]["id"]] if items else []
        key = task_key(str(props["written_by"]), task)
        items.append({"props": props, "causes": causes, "task_key": key})
    return items


def load(driver: Driver, database: str, items: list[dict[str, Any]]) -> None:
    for start in range(0, len(items), BATCH):
        driver.execute_query(
            cypher_events.BULK_LOAD_EVENTS,
            events=items[start : start + BATCH],
            database_=database,
        )


def event_count(driver: Driver, database: str) -> int:
    records, _, _ = driver.execute_query(
        "MATCH (e:Event) RETURN count(e) AS c", database_=database, routing_="r"
    )
    return int(records[0]["c"])


def fill_to(driver: Driver, database: str, target: int, clock: Clock) -> float:
    """Add filler chains until the store holds ``target`` events; return seconds taken."""
    started = time.perf_counter()
    missing = target - event_count(driver, database)
    items: list[dict[str, Any]] = []
    task = ""
    while len(items) < missing:
        if len(items) % EVENTS_PER_TASK == 0:
            task = f"filler-{uuid.uuid4().hex[:12]}"
        access = ["finance"] if (len(items) // FILLER_CHAIN) % 5 == 0 else []
        items += chain_items(min(FILLER_CHAIN, missing - len(items)), task, clock, access)
        if len(items) >= BATCH * 4:
            load(driver, database, items)
            missing -= len(items)
            items = []
    load(driver, database, items)
    return time.perf_counter() - started


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def measure(fn: Callable[[], int], expected: int, reps: int, warmup: int) -> dict[str, float]:
    for _ in range(warmup):
        assert fn() == expected
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter()
        got = fn()
        samples.append((time.perf_counter() - t0) * 1000)
        assert got == expected, f"replayed {got} events, expected {expected}"
    return {
        "p50_ms": round(statistics.median(samples), 2),
        "p99_ms": round(percentile(samples, 0.99), 2),
        "mean_ms": round(statistics.fmean(samples), 2),
    }


def db_hits(driver: Driver, database: str, event_id: str) -> int:
    statement, _ = cypher_events.chain_statement("causes", event_reads.DEFAULT_MAX_DEPTH)
    with driver.session(database=database) as session:
        summary = session.run(
            "PROFILE " + statement, id=event_id, groups=list(READER.groups), caller=READER.id
        ).consume()

    def total(plan: Any) -> int:
        return int(plan.get("dbHits", 0)) + sum(total(c) for c in plan.get("children", []))

    return total(summary.profile or {})


def machine(driver: Driver, database: str) -> dict[str, Any]:
    """The shared record of the machine (bench.harness.machine) plus the Neo4j it ran on."""
    records, _, _ = driver.execute_query(
        "CALL dbms.components() YIELD name, versions, edition "
        "RETURN name, versions[0] AS version, edition",
        database_=database,
    )
    settings, _, _ = driver.execute_query(
        "SHOW SETTINGS YIELD name, value WHERE name IN $names RETURN name, value",
        names=["server.memory.heap.max_size", "server.memory.pagecache.size"],
        database_=database,
    )
    return harness.machine(
        neo4j=f"{records[0]['name']} {records[0]['version']} {records[0]['edition']}",
        neo4j_settings={r["name"]: r["value"] for r in settings},
        neo4j_driver=_driver_version(),
    )


def _driver_version() -> str:
    import importlib.metadata
    import importlib.util

    version = importlib.metadata.version("neo4j")
    rust = importlib.util.find_spec("neo4j._rust") is not None
    return f"neo4j {version} ({'Rust' if rust else 'pure-Python'} packstream)"


def principals_file(directory: Path) -> Path:
    path = directory / "principals.toml"
    path.write_text(
        f'[[principal]]\nid = "{READER.id}"\nkey = "{READER_KEY}"\ngroups = ["sales"]\n',
        "utf-8",
    )
    return path


def prepare_store(driver: Driver, settings: Settings, wipe: bool) -> None:
    database = settings.neo4j_database
    host = settings.neo4j_uri.split("://", 1)[-1].split(":", 1)[0]
    existing = event_count(driver, database)
    if existing and not wipe:
        raise SystemExit(f"the store already holds {existing} events; use --wipe (loopback)")
    if wipe:
        if host not in ("127.0.0.1", "localhost"):
            raise SystemExit("refusing to wipe a non-loopback Neo4j")
        with driver.session(database=database) as session:
            session.run(
                "MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS"
            ).consume()
    migrations.migrate(driver, database=database)
    ontology.seed(driver, database=database)


def run_size(
    driver: Driver, database: str, client: httpx.Client, probes: dict[int, str], args: Any
) -> list[dict[str, Any]]:
    rows = []
    for length, head in probes.items():

        def library(head: str = head) -> int:
            replay = event_reads.chain(driver, database=database, principal=READER, event_id=head)
            assert replay is not None
            return len(replay.events)

        def over_http(head: str = head) -> int:
            response = client.get(f"/v1/events/{head}/chain")
            response.raise_for_status()
            return len(response.json()["events"])

        rows.append(
            {
                "chain_length": length,
                "db_hits": db_hits(driver, database, head),
                "library": measure(library, length, args.reps, args.warmup),
                "http": measure(over_http, length, args.reps, args.warmup),
            }
        )
    return rows


def table(results: dict[str, Any]) -> str:
    lines = [
        "| store events | chain | db hits | library p50 | library p99 | HTTP p50 | HTTP p99 |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for size in results["sizes"]:
        for row in size["rows"]:
            lib, http = row["library"], row["http"]
            lines.append(
                f"| {size['events']:,} | {row['chain_length']:,} | {row['db_hits']:,} "
                f"| {lib['p50_ms']} ms | {lib['p99_ms']} ms "
                f"| {http['p50_ms']} ms | {http['p99_ms']} ms |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000", help="store sizes (events)")
    parser.add_argument("--reps", type=int, default=200, help="timed replays per chain")
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--wipe", action="store_true", help="delete everything first")
    parser.add_argument("--out", default=str(ROOT / "bench/results/causal_replay.json"))
    args = parser.parse_args(argv)
    sizes = sorted(int(s) for s in args.sizes.split(","))
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(principals=principals_file(Path(tmp)))
        database = settings.neo4j_database
        with open_driver(settings) as driver:
            prepare_store(driver, settings, args.wipe)
            clock = Clock()
            probes = {}
            for length in CHAIN_LENGTHS:
                items = chain_items(length, f"probe-{length}", clock, [])
                load(driver, database, items)
                probes[length] = items[-1]["props"]["id"]
            results: dict[str, Any] = {
                "benchmark": "causal_replay",
                "started_at": datetime.now(UTC).isoformat(),
                "machine": machine(driver, database),
                "reps": args.reps,
                "reader_groups": list(READER.groups),
                "sizes": [],
            }
            with (
                harness.serve_app(create_app(settings)) as base,
                httpx.Client(
                    base_url=base, headers={"Authorization": f"Bearer {READER_KEY}"}, timeout=120
                ) as client,
            ):
                for size in sizes:
                    load_seconds = fill_to(driver, database, size, clock)
                    events = event_count(driver, database)
                    print(
                        f"store at {events:,} events (filled in {load_seconds:.1f} s)", flush=True
                    )
                    rows = run_size(driver, database, client, probes, args)
                    results["sizes"].append(
                        {"events": events, "fill_seconds": round(load_seconds, 1), "rows": rows}
                    )
            results["finished_at"] = datetime.now(UTC).isoformat()
            results["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n", "utf-8")
    print(json.dumps(results["machine"], indent=2))
    print(table(results))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
