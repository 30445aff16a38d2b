"""Load: concurrent simulated agents against one real server, a mix of every kind of call,
for a fixed time; throughput and p50/p99 per endpoint, 5xx counted, the ledger audited after
(a report, not a timed test).

How to run (against a DEDICATED, loopback Neo4j: with --wipe everything in it is deleted):

    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python bench/load.py --wipe
    # options: --agents 32 --duration 300 --slots 8 --seed 7 --out bench/results/load.json

Each agent is a thread with its own HTTP connection and its own task. In a loop until the
time is up it picks, by fixed weights from a seeded generator: an observation (a sentence of
its task, idempotency key generated), a compare-and-set write on one of ``--slots`` shared
slots (reads the head, writes with ``expected_current``: 201 or 409 are both right answers),
a fact read, a recall, an event (caused by its previous one, so each agent grows a chain) and
a chain replay. Afterwards ``tractatus check`` audits every chain and the whole ledger, and
the ledger is checked once more for overlapping versions of a slot. Exit code 1 if any 5xx,
unexpected status (any but 200/201, and 409 for a CAS write), transport error or audit
failure was seen. Results: bench/README-load.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import harness
from graph_schema.ledger.reads import overlapping_versions
from server.settings import Settings, open_driver

KEY = "tr_bench_load_00000000000000000000000000"
PRINCIPALS = f'[[principal]]\nid = "bench"\nkey = "{KEY}"\ngroups = []\n'
# the answers each call may rightly get (a 409 is a lost compare-and-set race); any other
# status is counted as unexpected and fails the run, so a mistake of the bench shows too
EXPECTED = {"POST /v1/assertions (CAS)": {201, 409}, "POST /v1/events": {201}}
WEIGHTS = {"observe": 2, "cas": 3, "facts": 3, "recall": 2, "event": 3, "chain": 1}
TOPICS = ("the delivery schedule", "the invoice total", "the warehouse", "the payment run")


@dataclass
class Tally:
    """Latencies and status codes per endpoint, shared by the agents."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    codes: dict[str, dict[int, int]] = field(default_factory=lambda: defaultdict(dict))
    transport_errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, name: str, seconds: float, code: int) -> None:
        with self.lock:
            self.latencies[name].append(seconds)
            self.codes[name][code] = self.codes[name].get(code, 0) + 1


class Agent:
    """One simulated agent: its task, its chain, its random choices."""

    def __init__(self, n: int, url: str, args: argparse.Namespace, tally: Tally) -> None:
        self.n, self.args, self.tally = n, args, tally
        self.rng = random.Random(args.seed * 1000 + n)
        self.task = f"load:{n}:{uuid.uuid4().hex[:8]}"
        self.events: list[str] = []
        headers = {"Authorization": f"Bearer {KEY}"}
        self.http = httpx.Client(base_url=url, headers=headers, timeout=60)

    def call(self, name: str, method: str, path: str, **kw: Any) -> httpx.Response | None:
        started = time.perf_counter()
        try:
            response = self.http.request(method, path, **kw)
        except httpx.TransportError:
            with self.tally.lock:  # no answer within the client's timeout, or no connection
                self.tally.transport_errors[name] += 1
            return None
        self.tally.add(name, time.perf_counter() - started, response.status_code)
        return response

    def run(self, deadline: float) -> None:
        names, weights = list(WEIGHTS), list(WEIGHTS.values())
        with self.http:
            while time.monotonic() < deadline:
                getattr(self, self.rng.choices(names, weights)[0])()

    def observe(self) -> None:
        topic = self.rng.choice(TOPICS)
        body = {
            "text": f"Agent {self.n} checked {topic} at step {len(self.events)}.",
            "speaker": f"agent:{self.n}",
            "source_kind": "tool_returned",
            "occurred_at": datetime.now(UTC).isoformat(),
            "task_id": self.task,
            "idempotency_key": uuid.uuid4().hex,
        }
        self.call("POST /v1/observations", "POST", "/v1/observations", json=body)

    def _slot(self) -> str:
        return f"load:shared-{self.rng.randrange(self.args.slots)}"

    def cas(self) -> None:
        subject = self._slot()
        params = {"subject": subject, "predicate": "status"}
        read = self.call("GET /v1/facts", "GET", "/v1/facts", params=params)
        if read is None or read.status_code != 200:
            return
        facts = read.json()["facts"]
        body = {
            "subject": subject,
            "predicate": "status",
            "object": f"a{self.n}-{self.rng.randrange(10**6)}",
            "source_kind": "tool_returned",
            "asserted_by": f"agent:{self.n}",
            "confidence": 0.9,
            "evidence": {"quote": "status checked"},
            "expected_current": facts[0]["id"] if facts else None,
        }
        self.call("POST /v1/assertions (CAS)", "POST", "/v1/assertions", json=body)

    def facts(self) -> None:
        params = {"subject": self._slot(), "predicate": "status"}
        self.call("GET /v1/facts", "GET", "/v1/facts", params=params)

    def recall(self) -> None:
        body = {"query": f"what happened with {self.rng.choice(TOPICS)}?", "k": 10}
        self.call("POST /v1/recall", "POST", "/v1/recall", json=body)

    def event(self) -> None:
        step = len(self.events)
        body: dict[str, Any] = {
            "task_id": self.task,
            "actor": f"agent:{self.n}",
            "action": f"step-{step}",
            "outcome": "success" if self.rng.random() > 0.1 else "failure",
            "occurred_at": datetime.now(UTC).isoformat(),
            "before": {"step": step - 1},
            "after": {"step": step},
        }
        body |= {"caused_by": self.events[-1:]} if self.events else {"root": True}
        response = self.call("POST /v1/events", "POST", "/v1/events", json=body)
        if response is not None and response.status_code == 201:
            self.events.append(response.json()["event"]["id"])

    def chain(self) -> None:
        if self.events:
            path = f"/v1/events/{self.events[-1]}/chain"
            self.call("GET /v1/events/{id}/chain", "GET", path)


def run_agents(url: str, args: argparse.Namespace) -> tuple[Tally, float]:
    tally = Tally()
    agents = [Agent(n, url, args, tally) for n in range(args.agents)]
    started = time.monotonic()
    deadline = started + args.duration
    threads = [threading.Thread(target=a.run, args=(deadline,)) for a in agents]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return tally, time.monotonic() - started


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(tally: Tally, elapsed: float) -> dict[str, Any]:
    endpoints = {}
    for name, values in sorted(tally.latencies.items()):
        codes = tally.codes[name]
        endpoints[name] = {
            "calls": len(values),
            "per_s": round(len(values) / elapsed, 1),
            "p50_ms": round(1000 * statistics.median(values), 1),
            "p99_ms": round(1000 * percentile(values, 0.99), 1),
            "codes": {str(code): count for code, count in sorted(codes.items())},
        }
    calls = sum(len(v) for v in tally.latencies.values())
    errors = sum(n for c in tally.codes.values() for code, n in c.items() if code >= 500)
    unexpected = sum(
        n
        for name, c in tally.codes.items()
        for code, n in c.items()
        if code not in EXPECTED.get(name, {200, 201})
    )
    return {
        "seconds": round(elapsed, 1),
        "calls": calls,
        "calls_per_s": round(calls / elapsed, 1),
        "5xx": errors,
        "unexpected": unexpected,
        "transport_errors": sum(tally.transport_errors.values()),
        "transport_errors_by_endpoint": dict(tally.transport_errors),
        "endpoints": endpoints,
    }


def audit(settings: Settings, env: dict[str, str]) -> dict[str, Any]:
    """`tractatus check` (every chain and the whole ledger: its exit code and its last lines)
    and, once more on its own, the one-current-version check of every slot."""
    check = subprocess.run(
        [sys.executable, "-m", "server.cli", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    with open_driver(settings) as driver:
        overlaps = overlapping_versions(driver, database=settings.neo4j_database)
    return {
        "check_exit": check.returncode,
        "check_tail": check.stdout.strip().splitlines()[-3:],
        "overlapping_versions": len(overlaps),
    }


def print_table(result: dict[str, Any]) -> None:
    load = result["load"]
    print(f"\n{result['agents']} agents, {load['seconds']} s: {load['calls']} calls")
    print(
        f"({load['calls_per_s']}/s), 5xx {load['5xx']}, unexpected {load['unexpected']}, "
        f"transport errors {load['transport_errors']}"
    )
    print(f"{'endpoint':32} {'calls':>7} {'/s':>7} {'p50 ms':>8} {'p99 ms':>8}  codes")
    for name, e in load["endpoints"].items():
        print(
            f"{name:32} {e['calls']:7} {e['per_s']:7} {e['p50_ms']:8} {e['p99_ms']:8}  {e['codes']}"
        )
    print(f"audit: {result['audit']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", type=int, default=32)
    parser.add_argument("--duration", type=float, default=300, help="seconds")
    parser.add_argument("--slots", type=int, default=8, help="shared CAS slots")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--wipe", action="store_true")
    parser.add_argument("--out", type=Path, default=ROOT / "bench/results/load.json")
    args = parser.parse_args()
    settings = Settings()
    with open_driver(settings) as driver:
        harness.prepare_store(driver, settings, wipe=args.wipe)
    with tempfile.TemporaryDirectory() as tmp:
        principals = Path(tmp) / "principals.toml"
        principals.write_text(PRINCIPALS, "utf-8")
        env = {**os.environ, "TRACTATUS_PRINCIPALS": str(principals)}
        with harness.serve(env) as url:
            load_at_start = harness.machine()["load_avg_1m"]
            tally, elapsed = run_agents(url, args)
        result = {
            "when": datetime.now(UTC).isoformat(timespec="seconds"),
            "agents": args.agents,
            "duration_s": args.duration,
            "slots": args.slots,
            "weights": WEIGHTS,
            "load": summary(tally, elapsed),
            "audit": audit(settings, env),
            "machine": harness.machine(load_avg_1m_at_start=load_at_start),
        }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", "utf-8")
    print_table(result)
    print(f"wrote {args.out}")
    load = result["load"]
    failed = load["5xx"] or load["unexpected"] or load["transport_errors"]
    sys.exit(
        1
        if failed or result["audit"]["check_exit"] or result["audit"]["overlapping_versions"]
        else 0
    )


if __name__ == "__main__":
    main()
