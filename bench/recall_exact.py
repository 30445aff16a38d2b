"""Recall's exact vector scan against the vector index, side by side (docs/security.md "Timing").

How to run (a dedicated loopback Neo4j; the store is wiped):

    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python bench/recall_exact.py --wipe
    # --sizes 250,1000,2000,4000   readable assertions per step   --rounds 30
    # --hidden 6000                hidden assertions for part 2   --out bench/results/X.json

Part 1: a reader can read N assertions (N grows by steps). At each step the same queries are
answered by the library's recall (`graph_schema.recall.pipeline.recall`, one read
transaction, no HTTP) with `exact_limit=0` (the vector index) and with an exact scan of what
the reader can read, interleaved, and the medians and their ratio are printed: what
`TRACTATUS_RECALL_EXACT_LIMIT` costs.

Part 2: an outsider that can read 200 public assertions asks the same queries before and
after `--hidden` assertions it may not read are written on the same topics, with the default
settings: the ratio of the medians says how much hidden data still moves its latency.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx
from neo4j import Driver

from bench import harness
from graph_schema.core.types import Principal
from graph_schema.recall.fusion import FusionConfig
from graph_schema.recall.pipeline import RecallQuery, recall
from ingest.embeddings.embedder import make_embedder
from server.app import create_app
from server.settings import Settings, open_driver

KEY = "tr_bench_exact_0000000000000000000000"
PRINCIPALS = f'[[principal]]\nid = "owner"\nkey = "{KEY}"\ngroups = ["team", "secret"]\n'
TOPICS = [
    "glacier hiking trip",
    "sourdough starter feeding",
    "quarterly tax return",
    "kubernetes cluster upgrade",
    "violin lesson practice",
    "garden tomato harvest",
    "marathon training plan",
    "office lease renewal",
]
READER = Principal(id="reader", groups=("team",))
OUTSIDER = Principal(id="outsider", groups=())


def _facts(start: int, count: int, access: list[str]) -> list[dict[str, Any]]:
    return [
        {
            "subject": f"bench:{i}",
            "predicate": "said",
            "object": f"note {i} about the {TOPICS[i % len(TOPICS)]}, item {i * 7}",
            "source_kind": "user_stated",
            "asserted_by": f"bench:{i}",
            "confidence": 0.9,
            "evidence": {"quote": f"note {i} about the {TOPICS[i % len(TOPICS)]}, item {i * 7}"},
            "access": access,
        }
        for i in range(start, start + count)
    ]


def _write(url: str, facts: list[dict[str, Any]]) -> None:
    headers = {"Authorization": f"Bearer {KEY}"}
    for i in range(0, len(facts), 500):
        reply = httpx.post(
            f"{url}/v1/assertions",
            json={"assertions": facts[i : i + 500]},
            headers=headers,
            timeout=600,
        )
        reply.raise_for_status()


def _timed(
    driver: Driver, settings: Settings, principal: Principal, query: RecallQuery, limit: int
) -> float:
    config = replace(FusionConfig(), exact_limit=limit)
    start = time.perf_counter()
    recall(
        driver, database=settings.neo4j_database, principal=principal, query=query, config=config
    )
    return time.perf_counter() - start


def _queries(settings: Settings) -> list[RecallQuery]:
    embedder = make_embedder(settings.embedding_model, batch_size=8)
    assert embedder is not None
    now = datetime.now(UTC)
    vectors = embedder.embed_query([f"what about the {t}?" for t in TOPICS])
    return [
        RecallQuery(text=f"what about the {t}?", k=10, as_of=now, known_at=now, vector=v)
        for t, v in zip(TOPICS, vectors, strict=True)
    ]


def _medians(
    settings: Settings, principal: Principal, limits: list[int], rounds: int
) -> list[float]:
    queries = _queries(settings)
    times: list[list[float]] = [[] for _ in limits]
    with open_driver(settings) as driver:
        for query in queries:  # warm-up: plans, caches, the JIT; not counted
            for limit in limits:
                _timed(driver, settings, principal, query, limit)
        for _ in range(rounds):
            for query in queries:
                for i, limit in enumerate(limits):
                    times[i].append(_timed(driver, settings, principal, query, limit))
    return [round(statistics.median(t) * 1000, 2) for t in times]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wipe", action="store_true", help="wipe the (loopback) store first")
    parser.add_argument("--sizes", default="250,1000,2000,4000")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--hidden", type=int, default=6000)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        principals = Path(tmp) / "principals.toml"
        principals.write_text(PRINCIPALS, "utf-8")
        settings = Settings(principals=principals)
        with open_driver(settings) as driver:
            harness.prepare_store(driver, settings, wipe=args.wipe)
        report = _run(settings, args)
    report["machine"] = harness.machine()
    print(json.dumps(report, indent=2))
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n", "utf-8")


def _run(settings: Settings, args: argparse.Namespace) -> dict[str, Any]:
    part1: list[dict[str, Any]] = []
    part2: dict[str, Any] = {}
    with harness.serve_app(create_app(settings)) as url:
        _write(url, _facts(0, 200, []))
        before = _medians(settings, OUTSIDER, [FusionConfig().exact_limit], args.rounds)[0]
        written = 200
        for size in [int(s) for s in args.sizes.split(",")]:
            _write(url, _facts(written, size - (written - 200), ["team"]))
            written = 200 + size
            index, exact = _medians(settings, READER, [0, 1_000_000], args.rounds)
            row = {"readable": size + 200, "index_p50_ms": index, "exact_p50_ms": exact}
            row["exact_over_index"] = round(exact / index, 2)
            print(row, flush=True)
            part1.append(row)
        _write(url, _facts(written, args.hidden, ["secret"]))
        after = _medians(settings, OUTSIDER, [FusionConfig().exact_limit], args.rounds)[0]
        part2 = {
            "outsider_readable": 200,
            "hidden_written": args.hidden + written - 200,
            "p50_ms_before": before,
            "p50_ms_after": after,
            "after_over_before": round(after / before, 2),
        }
        print(part2, flush=True)
    return {"exact_vs_index": part1, "outsider_before_after_hidden": part2}


if __name__ == "__main__":
    main()
