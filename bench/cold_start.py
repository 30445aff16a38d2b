"""The first recalls on a Neo4j just started, with and without the warm-up of recall's plans
(a report, not a test; docs/recall.md "A store just started").

How to run (it stops and starts the LOCAL Neo4j of scripts/neo4j_local.py, and writes one
small conversation per run into it):

    make neo4j-start && eval "$(.venv/bin/python scripts/neo4j_local.py env --shell)"
    .venv/bin/python bench/cold_start.py            # --rounds 2 --wait 45
    # --out bench/results/cold_start.json

Each round runs both modes, in alternating order: Neo4j is stopped and started again (its
plan cache is empty; the operating system's file cache is not dropped), the API is started
with ``TRACTATUS_RECALL_WARM_UP`` true or false, and after the same wait in both modes (long
enough for the warm-up to end) a new user's steps are timed over HTTP: one write of a
six-turn conversation, then six recalls of it, each with another question (the first is the
one that paid for planning before). Printed per mode: the write, the first recall, the
median of the other five, and the first recall's ratio against the same without the warm-up.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.harness import machine, start_server
from bench.lifecycle_data import KEY, principals_file, server_env

NEO4J = [sys.executable, str(ROOT / "scripts/neo4j_local.py")]
CHAT = [
    ("Ann", "I finally adopted a cat last week, her name is Miso."),
    ("Bo", "Congratulations! I started cello lessons on Monday."),
    ("Ann", "My sister is moving to Lisbon in March for her PhD."),
    ("Bo", "I went to Lisbon two years ago for our anniversary."),
    ("Ann", "I am learning Portuguese on an app so I can visit her."),
    ("Bo", "My knee hurts after the hiking trip in Wales."),
]
QUESTIONS = [
    "What is the name of Ann's cat?",
    "What instrument does Bo play?",
    "Where is Ann's sister moving?",
    "When did Bo go to Lisbon?",
    "What language is Ann learning?",
    "Why does Bo's knee hurt?",
]


def restart_neo4j() -> None:
    local = {k: v for k, v in os.environ.items() if k != "NEO4J_URI"}  # else both skip it
    for step in ("stop", "start"):
        subprocess.run([*NEO4J, step], env=local, check=True, capture_output=True)


def _timed(client: httpx.Client, path: str, body: dict[str, Any]) -> float:
    started = time.perf_counter()
    response = client.post(path, json=body)
    elapsed = (time.perf_counter() - started) * 1000
    response.raise_for_status()
    return elapsed


def one_run(principals: Path, warm_up: bool, wait: float) -> dict[str, Any]:
    restart_neo4j()
    env = server_env(principals, TRACTATUS_RECALL_WARM_UP=str(warm_up).lower())
    process, url = start_server(env)
    try:
        time.sleep(wait)
        conversation = f"cold-{uuid.uuid4().hex[:10]}"
        headers = {"Authorization": f"Bearer {KEY}"}
        with httpx.Client(base_url=url, headers=headers, timeout=300) as client:
            turns = [
                {
                    "text": text,
                    "speaker": speaker,
                    "source_kind": "user_stated",
                    "occurred_at": f"2026-11-20T18:{n:02d}:00Z",
                    "conversation_id": conversation,
                    "idempotency_key": f"{conversation}:{n}",
                }
                for n, (speaker, text) in enumerate(CHAT)
            ]
            write = _timed(client, "/v1/observations", {"observations": turns})
            scope = {"conversation_id": conversation}
            recalls = [
                _timed(client, "/v1/recall", {"query": q, "k": 3, "filters": scope})
                for q in QUESTIONS
            ]
    finally:
        process.terminate()
        process.wait(timeout=60)
    return {"write_ms": round(write), "first_ms": round(recalls[0]), "rest_ms": recalls[1:]}


def summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "write_ms": statistics.median(r["write_ms"] for r in runs),
        "first_ms": statistics.median(r["first_ms"] for r in runs),
        "rest_p50_ms": round(statistics.median(m for r in runs for m in r["rest_ms"])),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--wait", type=float, default=45.0, help="seconds after start")
    parser.add_argument("--out", type=Path, default=ROOT / "bench/results/cold_start.json")
    args = parser.parse_args(argv)
    principals = principals_file()
    runs: dict[bool, list[dict[str, Any]]] = {False: [], True: []}
    for n in range(args.rounds):
        for warm_up in (False, True) if n % 2 == 0 else (True, False):
            runs[warm_up].append(one_run(principals, warm_up, args.wait))
            print(f"round {n + 1}, warm-up {warm_up}: {runs[warm_up][-1]}", flush=True)
    off, on = summary(runs[False]), summary(runs[True])
    ratio = round(on["first_ms"] / off["first_ms"], 3)
    print(f"without warm-up: {off}")
    print(f"with warm-up:    {on}")
    print(f"first recall, with against without: {ratio}")
    report = {
        "ran_at": datetime.now(UTC).isoformat(),
        "machine": machine(),
        "rounds": args.rounds,
        "wait_s": args.wait,
        "without": off,
        "with": on,
        "first_recall_ratio": ratio,
        "runs": {"without": runs[False], "with": runs[True]},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
