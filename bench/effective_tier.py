"""The cost of reading tiers as recorded transitions: the statements that filter on the
effective tier against the same statements filtering on the written tier, side by side.

How to run (against a DEDICATED, loopback Neo4j: --wipe deletes everything first):

    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python bench/effective_tier.py --wipe
    # options: --facts 3000  --reps 300  --out bench/results/effective_tier.json

What it does: loads the facts of `bench/lifecycle_data.py` through a real server (half of them
in tasks that are then ended, so half carry a TierChange), then runs, interleaved in a random
order, each statement as shipped and a copy whose tier filter reads `a.tier` (the written tier,
what the statements read before tiers became transitions): the recall candidate lists over the
vector index and over the full-text index, and the current-fact read. Each copy gets the same
parameters in the same round. It reports p50 per statement and variant, the ratio, and the
machine; and writes the JSON results. The copies exist only here.
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

from neo4j import Driver

from bench.causal_replay import machine
from bench.harness import ROOT, start_server
from bench.lifecycle_data import load, prepare, principals_file, server_env
from graph_schema.core.cypher import effective_tier
from graph_schema.core.timeutil import utcnow
from graph_schema.core.types import Principal
from graph_schema.ledger import cypher as ledger_cypher
from graph_schema.recall import cypher as recall_cypher
from graph_schema.recall.pipeline import RecallQuery, fulltext_parameters, parameters
from graph_schema.recall.query import lucene_terms
from server.settings import Settings, open_driver

STATEMENTS = {
    "recall: assertion vector list": recall_cypher.ASSERTION_VECTOR_INDEX,
    "recall: assertion full-text list": recall_cypher.ASSERTION_FULLTEXT,
    "facts: current fact": ledger_cypher.CURRENT_FACTS,
}


def written_tier(statement: str) -> str:
    """The statement with its tier filter on the written tier (the copy compared against)."""
    copy = statement.replace(effective_tier("a"), "a.tier")
    if copy == statement:
        raise SystemExit("the statement has no effective-tier filter to replace")
    return copy


def _params(vector: list[float], query: str, slot: tuple[str, str]) -> dict[str, Any]:
    """The recall statements' parameters as recall builds them, and the fact read's."""
    now = utcnow()
    recall_query = RecallQuery(text=query, k=10, as_of=now, known_at=now, vector=vector)
    p = parameters(Principal(id="bench"), recall_query)
    return {
        **fulltext_parameters(p, ("assertion", False), lucene_terms(query)),
        "tiers": ["short", "long"],
        "predicate": slot[1],
        "fact_subject": slot[0],
    }


def _time(driver: Driver, database: str, statement: str, params: dict[str, Any]) -> float:
    if "subject: $subject" in statement:
        params = {**params, "subject": params["fact_subject"]}
    started = time.perf_counter()
    driver.execute_query(statement, params, database_=database, routing_="r")
    return (time.perf_counter() - started) * 1000


def measure(driver: Driver, database: str, data: Any, reps: int) -> dict[str, Any]:
    records, _, _ = driver.execute_query(
        "MATCH (a:Assertion) WHERE a.embedding IS NOT NULL RETURN a.embedding AS v LIMIT 200",
        database_=database,
    )
    vectors = [list(r["v"]) for r in records]
    if not vectors:
        raise SystemExit("no embedded assertions: is the embedding model installed?")
    rng = random.Random(5)
    samples: dict[str, dict[str, list[float]]] = {
        name: {"effective": [], "written": []} for name in STATEMENTS
    }
    variants = {
        name: {"effective": s, "written": written_tier(s)} for name, s in STATEMENTS.items()
    }
    for n in range(reps + 20):
        pick = rng.randrange(len(data.subjects))
        params = _params(rng.choice(vectors), data.queries[pick], data.subjects[pick])
        for name in STATEMENTS:
            for variant in rng.sample(("effective", "written"), 2):
                elapsed = _time(driver, database, variants[name][variant], params)
                if n >= 20:
                    samples[name][variant].append(elapsed)
    out = {}
    for name, by_variant in samples.items():
        p50 = {v: round(statistics.median(s), 3) for v, s in by_variant.items()}
        out[name] = {
            **{f"{v}_p50_ms": p for v, p in p50.items()},
            "ratio": round(p50["effective"] / p50["written"], 3),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--facts", type=int, default=3_000)
    parser.add_argument("--reps", type=int, default=300)
    parser.add_argument("--wipe", action="store_true", help="delete everything first")
    parser.add_argument("--out", default=str(ROOT / "bench/results/effective_tier.json"))
    args = parser.parse_args(argv)
    started = datetime.now(UTC).isoformat()
    principals = principals_file()
    settings = Settings(principals=principals)
    database = settings.neo4j_database
    with open_driver(settings) as driver:
        prepare(driver, database, settings.neo4j_uri, args.wipe)
        process, url = start_server(server_env(principals, TRACTATUS_ACCESS_LOG="false"))
        try:
            data = load(url, args.facts)
        finally:
            process.terminate()
            process.wait(timeout=60)
        records, _, _ = driver.execute_query(
            "MATCH (c:TierChange) RETURN count(c) AS n", database_=database
        )
        results = {
            "benchmark": "effective_tier",
            "started_at": started,
            "finished_at": datetime.now(UTC).isoformat(),
            "machine": machine(driver, database),
            "facts": args.facts,
            "tier_changes": int(records[0]["n"]),
            "reps": args.reps,
            "statements": measure(driver, database, data, args.reps),
            "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n", "utf-8")
    print(json.dumps(results["machine"], indent=2))
    print("| statement | effective tier p50 | written tier p50 | ratio |")
    print("|---|---:|---:|---:|")
    for name, row in results["statements"].items():
        print(
            f"| {name} | {row['effective_p50_ms']} ms | {row['written_p50_ms']} ms "
            f"| {row['ratio']} |"
        )
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
