"""LoCoMo retrieval benchmark for POST /v1/recall (a report, not a test; see README.md).

    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python bench/locomo/run.py --fresh
    # --conversation conv-26 (repeatable)   --max-questions 20 (per conversation)
    # --skip-ingest (reuse the store)       --label NAME (results/NAME.json and .md)
    # TRACTATUS_RECALL_DISABLE=speaker,graph ... for ablations (passed to the server)

1. Starts the real server (``tractatus serve``) on a free loopback port with a throw-away
   principals file (one admin principal, public data).
2. Ingests every turn of each conversation through ``ingest.bulk`` over HTTP (each turn an
   observation with idempotency key ``{sample_id}:{dia_id}``), then posts the same batches
   again: the server replays them (nothing is written twice) and the replies give each turn's
   ``observation_id``. The writes built the recall passages; the admin's repair call (POST
   /v1/recall/index) runs after them and prints how many it found left to build (0 since
   migration 12: a store written as a new user writes it).
3. Asks every question over HTTP (``k=10``, ``filters.conversation_id`` = its conversation)
   and maps each result back to a dialog id: evidence -> observation -> idempotency key.
4. Scores on dialog identity (bench/locomo/scoring.py) and writes results/NAME.json and .md
   with the data file's SHA-256 and the machine.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(Path(__file__).resolve().parent)]

from scoring import (
    ADVERSARIAL,
    ANSWERABLE,
    CATEGORY_NAMES,
    Outcome,
    dedupe,
    gold_ids,
    margin_curve,
    others_relevance,
    percentile,
    score,
    threshold_curve,
)

from bench import harness
from graph_schema.recall import fusion
from graph_schema.schema import migrations, ontology
from ingest import bulk
from server.settings import Settings, open_driver

KEY = "tr_bench_locomo_000000000000000000000"
PRINCIPALS = f'[[principal]]\nid = "bench"\nkey = "{KEY}"\ngroups = []\nrole = "admin"\n'
THRESHOLDS = [round(0.05 * i, 2) for i in range(0, 21)]
MARGINS = [round(0.02 * i, 2) for i in range(0, 16)]


# --- the store and the server -----------------------------------------------------------------


def prepare_store(settings: Settings, fresh: bool) -> None:
    with open_driver(settings) as driver:
        if fresh:
            host = settings.neo4j_uri.split("://", 1)[-1].split(":", 1)[0]
            if host not in ("127.0.0.1", "localhost"):
                sys.exit("refusing to wipe a non-loopback Neo4j")
            with driver.session(database=settings.neo4j_database) as session:
                session.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS").consume()
        migrations.migrate(driver, database=settings.neo4j_database)
        ontology.seed(driver, database=settings.neo4j_database)


# --- ingest -----------------------------------------------------------------------------------


def ingest(url: str, key: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    summary = bulk.load(
        items,
        url=url,
        key=key,
        progress=bulk.Progress(None),
        batch_size=64,
        workers=2,
        show_progress=False,
    )
    return summary.as_dict()


def observation_ids(client: httpx.Client, items: list[dict[str, Any]]) -> dict[str, str]:
    """observation_id -> idempotency key, from a replay of every batch (writes nothing)."""
    mapping: dict[str, str] = {}
    for start in range(0, len(items), 256):
        batch = items[start : start + 256]
        response = client.post("/v1/observations", json={"observations": batch})
        response.raise_for_status()
        for item, result in zip(batch, response.json()["results"], strict=True):
            if result.get("status") == 201:
                mapping[result["observation_id"]] = item["idempotency_key"]
    return mapping


# the admin's repair step: the recall passages of observations that have none (the writes build
# them: it finds none left, and says so)
index_passages = harness.index_passages


# --- questions --------------------------------------------------------------------------------


def ranked_dialogs(results: list[dict[str, Any]], keys: dict[str, str], sample: str) -> list[str]:
    """Dialog ids of the results in order: evidence -> observation -> ``{sample}:{dia}``."""
    dialogs = []
    prefix = f"{sample}:"
    for result in results:
        for evidence in result["evidence"]:
            key = keys.get(evidence.get("observation_id") or "")
            if key and key.startswith(prefix):
                dialogs.append(key[len(prefix) :])
    return dedupe(dialogs)


def ask(
    client: httpx.Client, sample: dict[str, Any], keys: dict[str, str], limit: int | None
) -> list[Outcome]:
    sample_id = str(sample["sample_id"])
    outcomes = []
    for qa in sample["qa"][:limit]:
        body = {"query": qa["question"], "k": 10, "filters": {"conversation_id": sample_id}}
        started = time.perf_counter()
        response = client.post("/v1/recall", json=body)
        latency = (time.perf_counter() - started) * 1000
        response.raise_for_status()
        answer = response.json()
        outcomes.append(
            Outcome(
                sample_id=sample_id,
                category=int(qa["category"]),
                gold=gold_ids(qa.get("evidence") or []) if qa["category"] in ANSWERABLE else [],
                ranked=ranked_dialogs(answer["results"], keys, sample_id),
                status=answer["status"],
                relevance=float(answer.get("relevance", 0.0)),
                others=others_relevance(answer),
                unmentioned=list(answer.get("unmentioned") or []),
                missing_kinds=list(answer.get("missing_kinds") or []),
                latency_ms=latency,
            )
        )
    return outcomes


# --- report -----------------------------------------------------------------------------------


def report(outcomes: list[Outcome]) -> dict[str, Any]:
    answerable = [o for o in outcomes if o.category in ANSWERABLE]
    adversarial = [o for o in outcomes if o.category == ADVERSARIAL]
    per_category = {}
    for category in ANSWERABLE:
        rows = [o for o in answerable if o.category == category]
        per_category[f"{category} {CATEGORY_NAMES[category]}"] = vars(score(rows))
    latencies = [o.latency_ms for o in outcomes]
    return {
        "overall_1_4": vars(score(answerable)),
        "per_category": per_category,
        "no_gold_turns": sum(1 for o in answerable if not o.gold),
        "adversarial": {
            "questions": len(adversarial),
            "not_found": (sum(o.status == "not_found" for o in adversarial) / len(adversarial))
            if adversarial
            else 0.0,
        },
        "latency_ms": {
            "p50": percentile(latencies, 50),
            "p99": percentile(latencies, 99),
            "questions": len(latencies),
        },
        "threshold_curve": threshold_curve(outcomes, THRESHOLDS),
        "margin_curve": margin_curve(
            outcomes, MARGINS, fusion.ANSWER_THRESHOLD, fusion.PERSON_THRESHOLD
        ),
    }


def markdown(result: dict[str, Any]) -> str:
    r = result["report"]
    lines = [
        f"# LoCoMo retrieval: {result['label']}",
        "",
        f"data `{result['data']['file']}` sha256 `{result['data']['sha256']}`; "
        f"conversations {', '.join(result['conversations'])}; "
        f"disabled: {result['disabled'] or 'nothing'}",
        f"machine: {result['machine']['cpu']}, {result['machine']['cores']} cores, "
        f"{result['machine']['memory']}; run {result['seconds']['total']:.0f} s "
        f"(ingest {result['seconds']['ingest']:.0f} s, questions "
        f"{result['seconds']['questions']:.0f} s)",
        "",
        "| categories | questions | Hit@5 | Hit@10 | Recall@10 strict | MRR | not_found |",
        "|---|---|---|---|---|---|---|",
    ]
    rows = [("1-4 overall", r["overall_1_4"]), *r["per_category"].items()]
    for name, s in rows:
        lines.append(
            f"| {name} | {s['questions']} | {s['hit5']:.3f} | {s['hit10']:.3f} | "
            f"{s['recall10_strict']:.3f} | {s['mrr']:.3f} | {s['not_found']:.3f} |"
        )
    adv = r["adversarial"]
    lines += [
        "",
        f"Category 5 (adversarial, {adv['questions']} questions): answered not_found "
        f"{adv['not_found']:.3f}; categories 1-4 wrongly not_found "
        f"{r['overall_1_4']['not_found']:.3f}.",
        f"Recall latency over HTTP: p50 {r['latency_ms']['p50']:.0f} ms, "
        f"p99 {r['latency_ms']['p99']:.0f} ms ({r['latency_ms']['questions']} questions).",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", type=Path, default=None, help=harness.LOCOMO_HELP)
    parser.add_argument("--conversation", action="append", default=None)
    parser.add_argument("--max-questions", type=int, default=None)
    parser.add_argument("--fresh", action="store_true", help="wipe the (loopback) store first")
    parser.add_argument("--skip-ingest", action="store_true")
    parser.add_argument("--label", default="locomo")
    parser.add_argument("--out", type=Path, default=ROOT / "bench/locomo/results")
    args = parser.parse_args()
    args.file = harness.locomo_argument(parser, args.file)

    started = time.perf_counter()
    data = args.file.read_bytes()
    samples = [
        s
        for s in json.loads(data)
        if args.conversation is None or s["sample_id"] in args.conversation
    ]
    items = bulk.read_locomo(args.file, only=[s["sample_id"] for s in samples])
    # the server is started with this environment: it reads the same settings
    settings = Settings()
    prepare_store(settings, args.fresh)
    seconds: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        principals = Path(tmp) / "principals.toml"
        principals.write_text(PRINCIPALS, "utf-8")
        with (
            harness.serve({**os.environ, "TRACTATUS_PRINCIPALS": str(principals)}) as url,
            httpx.Client(
                base_url=url, headers={"Authorization": f"Bearer {KEY}"}, timeout=600
            ) as client,
        ):
            t0 = time.perf_counter()
            summary = {} if args.skip_ingest else ingest(url, KEY, items)
            keys = observation_ids(client, items)
            indexed = index_passages(client)
            seconds["ingest"] = time.perf_counter() - t0
            print(
                f"ingested {len(keys)} turns, {indexed} passages left to the index call "
                f"in {seconds['ingest']:.0f} s",
                flush=True,
            )
            t1 = time.perf_counter()
            outcomes: list[Outcome] = []
            for sample in samples:
                outcomes += ask(client, sample, keys, args.max_questions)
                print(f"{sample['sample_id']}: {len(outcomes)} questions asked", flush=True)
            seconds["questions"] = time.perf_counter() - t1
    seconds["total"] = time.perf_counter() - started
    result = {
        "label": args.label,
        "data": {"file": harness.shown_path(args.file), "sha256": hashlib.sha256(data).hexdigest()},
        "conversations": [s["sample_id"] for s in samples],
        "disabled": ",".join(sorted(settings.recall_disable)),
        "machine": harness.machine(),
        "seconds": seconds,
        "ingest": summary,
        "report": report(outcomes),
        "outcomes": [vars(o) for o in outcomes],
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"{args.label}.json").write_text(json.dumps(result, indent=1), "utf-8")
    (args.out / f"{args.label}.md").write_text(markdown(result), "utf-8")
    print(markdown(result))


if __name__ == "__main__":
    main()
