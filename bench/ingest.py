"""Ingest throughput: LoCoMo turns end to end over HTTP and through the CLI, next to the raw
embedding rate of the same model on the same texts, in the same run (a report, not a test).

How to run (against a DEDICATED, loopback Neo4j: with --wipe everything in it is deleted):

    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python bench/ingest.py --wipe
    # options: --conversation conv-26 (repeatable; default: all five of locomo-dev.json)
    #          --batch-size 128 --workers 2 --out bench/results/ingest.json
    #          --repeat 3 (rounds of http + cli; the median run of each path is reported)

What it does:

1. Reads the LoCoMo turns (``ingest.bulk.read_locomo``) and, in this process, distils them
   with the OfflineDistiller and the gate exactly as the server does, to get the texts the
   server will embed: the assertions' texts and, for every turn, its recall passage's two
   texts (the turn; the turn after its previous one). It encodes those texts (every k-th,
   ``--raw-sample`` of them, the same mix of lengths) directly with the same model and batch
   size, three ways (one model on all cores; the replicas as threads; the replicas as child
   processes), and takes the fastest: the *raw embedding* rate (texts/s), the ceiling for the
   whole path on this machine. It measures it before the first run and after every run, and
   compares each run with the mean of the measurements either side of it, so that a change
   of load on a shared machine does not skew the ratio.
2. Starts the real server (``tractatus serve``) as a subprocess on a free loopback port and
   sends one warm-up observation so that the model load is not timed. Each run gets a server
   of its own, so the server's embedding cache starts empty for both.
3. *http*: ``ingest.bulk.load`` from this process (batches of ``--batch-size`` observations,
   ``--workers`` concurrent requests) into the freshly wiped store.
4. *cli*: wipes the store again and runs ``tractatus ingest`` as a subprocess on the same
   turns; timed from the outside (process start to exit) and by the CLI itself.
5. ``--repeat N`` runs steps 3-4 N times (each run into a wiped store). On a shared host
   the load moves within seconds, so one run can land 0.05 either way; the report gives
   the run with the median ratio of each path, and every round's ratios.

It reports observations/s and assertions/s for both, and the ratio of the end-to-end rate of
embedded texts (assertions + passage texts, the latter counted by the server's
``tractatus_passage_texts_embedded_total``) to the raw embedding rate of the same mix of texts
(goal >= 0.65), with the machine it ran on.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from neo4j import Driver

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import harness
from graph_schema.core.types import Principal
from graph_schema.ledger.types import AssertionWrite
from graph_schema.observations.types import ObservationIn
from graph_schema.schema import (
    ontology,
)
from ingest import bulk, gate, passages
from ingest.distill.offline import OfflineDistiller
from ingest.embeddings.embedder import SentenceTransformerEmbedder
from ingest.embeddings.model import model_identity
from ingest.embeddings.texts import assertion_text
from ingest.observations import fill_draft
from server.settings import Settings, open_driver

KEY = "tr_bench_ingest_0000000000000000000000"
PRINCIPALS = f'[[principal]]\nid = "bench"\nkey = "{KEY}"\ngroups = []\n'


def embedded_texts(items: list[dict[str, Any]], driver: Driver, database: str) -> list[str]:
    """The texts the server embeds for these observations: distiller + gate, as in the path."""
    predicates = ontology.predicate_map(driver, database=database)
    principal = Principal(id="bench")
    distiller = OfflineDistiller()
    texts: list[str] = []
    for raw in items:
        obs = ObservationIn.model_validate(raw)
        for index, draft in enumerate(distiller.distill(obs)):
            checked = gate.check_item(
                fill_draft(draft, obs, "bench"),
                index=index,
                ontology=predicates,
                principal=principal,
            )
            if isinstance(checked, AssertionWrite):
                texts.append(assertion_text(checked))
    return texts + passage_texts(items)


def passage_texts(items: list[dict[str, Any]]) -> list[str]:
    """The recall passages' texts the write embeds: each turn, and it after its previous turn
    in the same conversation (``ingest.passages``; the items are in order)."""
    texts: list[str] = []
    previous: dict[str | None, str] = {}
    for item in items:
        text = passages.turn_text(item, [])
        before = previous.get(item.get("conversation_id"))
        texts += [text, f"{before}\n{text}" if before else text]
        previous[item.get("conversation_id")] = text
    return texts


def raw_embedders(
    model: str, batch_size: int, replicas: int
) -> dict[str, SentenceTransformerEmbedder]:
    """The ways the raw rate is measured, each loaded once and warmed: one model on all
    cores (the plain sentence-transformers call), and ``replicas`` single-threaded copies as
    threads of this process and as child processes (the server's two modes)."""
    ways: dict[str, dict[str, Any]] = {"one_model": {"replicas": 1}}
    if replicas > 1:
        ways["thread_replicas"] = {"replicas": replicas}
    ways["process_replicas"] = {"replicas": replicas, "processes": True}
    embedders = {
        name: SentenceTransformerEmbedder(model, batch_size=batch_size, cache_size=0, **how)
        for name, how in ways.items()
    }
    for embedder in embedders.values():
        embedder.warm()
        embedder.embed(["warm-up"] * batch_size * embedder.replicas)  # untimed
    return embedders


def _encode_rate(texts: list[str], embedder: SentenceTransformerEmbedder) -> float:
    """texts/s of ``embedder`` encoding ``texts``, one equal share per replica at once."""
    shares = [texts[i :: embedder.replicas] for i in range(embedder.replicas)]
    threads = [threading.Thread(target=embedder.embed, args=(share,)) for share in shares]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(texts) / (time.perf_counter() - started)


def raw_embedding(
    texts: list[str], embedders: dict[str, SentenceTransformerEmbedder]
) -> dict[str, Any]:
    """Encode ``texts`` directly with the same model, batch size and normalising, every text
    through the model (no cache), each way of :func:`raw_embedders`. The fastest is the raw
    rate a run is compared with."""
    rates = {name: round(_encode_rate(texts, e), 1) for name, e in embedders.items()}
    return {
        "texts": len(texts),
        **{f"{name}_texts_per_s": r for name, r in rates.items()},
        "texts_per_s": max(rates.values()),
        "load_avg_1m": os.getloadavg()[0],
    }


def sample(texts: list[str], size: int) -> list[str]:
    """Every k-th text: the same mix of lengths as the whole, in less time."""
    step = max(1, len(texts) // size)
    return texts[::step]


def warm_up(url: str, replicas: int) -> None:
    """One observation per model replica, at once, so every replica loads untimed."""

    def post(n: int) -> None:
        body = {
            "text": "Warm-up turn.",
            "speaker": "bench",
            "source_kind": "user_stated",
            "occurred_at": "2020-01-01T00:00:00+00:00",
            "idempotency_key": f"bench:warmup:{n}",
        }
        response = httpx.post(
            f"{url}/v1/observations",
            json=body,
            timeout=300,
            headers={"Authorization": f"Bearer {KEY}"},
        )
        response.raise_for_status()

    threads = [threading.Thread(target=post, args=(n,)) for n in range(replicas)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _rates(summary: dict[str, Any], seconds: float) -> dict[str, Any]:
    return {
        **summary,
        "wall_seconds": round(seconds, 3),
        "observations_per_s": round((summary["created"] + summary["replayed"]) / seconds, 1),
        "assertions_per_s": round(summary["assertions"] / seconds, 1),
        "load_avg_1m_end": os.getloadavg()[0],
    }


def run_http(items: list[dict[str, Any]], url: str, args: argparse.Namespace) -> dict[str, Any]:
    started = time.perf_counter()
    summary = bulk.load(
        items,
        url=url,
        key=KEY,
        progress=bulk.Progress(None),
        batch_size=args.batch_size,
        workers=args.workers,
        show_progress=False,
    )
    return _rates(summary.as_dict(), time.perf_counter() - started)


def run_cli(url: str, args: argparse.Namespace, env: dict[str, str]) -> dict[str, Any]:
    command = [
        sys.executable,
        "-m",
        "server.cli",
        "ingest",
        str(args.file),
        "--format",
        "locomo",
        "--url",
        url,
        "--key",
        KEY,
        "--no-progress",
        "--quiet",
        "--batch-size",
        str(args.batch_size),
        "--workers",
        str(args.workers),
    ]
    for conversation in args.conversation or []:
        command += ["--conversation", conversation]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 3):
        raise RuntimeError(f"tractatus ingest failed: {done.stderr[-2000:]}")
    summary = json.loads(done.stdout)
    result = _rates(summary, seconds)
    result["cli_reported_seconds"] = round(summary["seconds"], 3)
    return result


def shown_model(model: str) -> str:
    """The model as the results record it: its identity (e5-small-v2-q, all-MiniLM-L6-v2,
    a directory's name), never a path of this machine."""
    return model_identity(model)


def machine() -> dict[str, Any]:
    import onnxruntime
    import torch

    return harness.machine(
        onnxruntime=onnxruntime.__version__,
        torch=torch.__version__,
        torch_threads=torch.get_num_threads(),
    )


def _one_run(
    label: str,
    go: Any,
    env: dict[str, str],
    args: argparse.Namespace,
    wipe: Any,
    measure: Any,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Wipe the store, load it with ``go(url)`` through a fresh server (its embedding cache
    must not carry texts from the last run), then measure the raw rate again."""
    wipe()
    with harness.serve(env) as url:
        warm_up(url, args.replicas)
        before = distill_seconds(url)
        run: dict[str, Any] = go(url)
        after = distill_seconds(url)
        run.update(_parser_share(before, after, run["wall_seconds"]))
        run["passage_texts"] = int(after["passage_texts"] - before["passage_texts"])
        embedded = run["assertions"] + run["passage_texts"]
        run["embedded_texts_per_s"] = round(embedded / run["wall_seconds"], 1)
        print(f"{label}: {run}", flush=True)
    return run, measure(f"after {label}")


_COUNTERS = {
    "distill": re.compile(r"^tractatus_distill_seconds_total\{[^}]*\} (\S+)$", re.MULTILINE),
    "parse": re.compile(r"^tractatus_distill_parse_seconds_total (\S+)$", re.MULTILINE),
    "passage_texts": re.compile(r"^tractatus_passage_texts_embedded_total (\S+)$", re.MULTILINE),
}


def distill_seconds(url: str) -> dict[str, float]:
    """The server's own counters (/metrics): seconds spent distilling, and of those, parsing
    and reading English sentences (the spaCy pipeline and the extractor on its parse)."""
    text = httpx.get(f"{url}/metrics", timeout=30).text
    return {k: sum(float(v) for v in p.findall(text)) for k, p in _COUNTERS.items()}


def _parser_share(before: dict[str, float], after: dict[str, float], wall: float) -> dict[str, Any]:
    distill = after["distill"] - before["distill"]
    parse = after["parse"] - before["parse"]
    return {
        "distill_seconds": round(distill, 2),
        "parse_seconds": round(parse, 2),
        "parse_seconds_per_wall_second": round(parse / wall, 3),
    }


def _round(
    n: int,
    items: list[dict[str, Any]],
    args: argparse.Namespace,
    env: dict[str, str],
    measure: Any,
    wipe: Any,
    before: dict[str, Any],
) -> tuple[dict[str, Any], dict[str, Any]]:
    """One http run and one cli run, each between two raw measurements; ``before`` is the
    measurement that ends the previous round (or opens the first)."""
    http, between = _one_run(
        f"http {n}", lambda url: run_http(items, url, args), env, args, wipe, measure
    )
    cli, after = _one_run(f"cli {n}", lambda url: run_cli(url, args, env), env, args, wipe, measure)
    for run, raws in ((http, (before, between)), (cli, (between, after))):
        run["raw_texts_per_s"] = round(sum(r["texts_per_s"] for r in raws) / 2, 1)
        run["ratio_to_raw"] = round(run["embedded_texts_per_s"] / run["raw_texts_per_s"], 3)
    return {"http": http, "cli": cli, "raw_after_http": between, "raw_after_cli": after}, after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", type=Path, default=None, help=harness.LOCOMO_HELP)
    parser.add_argument("--conversation", action="append", default=None)
    parser.add_argument("--batch-size", type=int, default=bulk.DEFAULT_BATCH)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--wipe", action="store_true")
    parser.add_argument(
        "--repeat", type=int, default=1, help="rounds of (http, cli); the medians are reported"
    )
    parser.add_argument(
        "--raw-sample", type=int, default=2000, help="texts encoded per raw-embedding measurement"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "bench/results/ingest.json")
    args = parser.parse_args()
    args.file = harness.locomo_argument(parser, args.file)

    settings = Settings()
    args.replicas = settings.embed_replicas
    database = settings.neo4j_database
    items = bulk.read_locomo(args.file, only=args.conversation)
    with tempfile.TemporaryDirectory() as tmp, open_driver(settings) as driver:
        harness.prepare_store(driver, settings, wipe=args.wipe)
        texts = embedded_texts(items, driver, database)
        probe = sample(texts, args.raw_sample)
        embedders = raw_embedders(
            settings.embedding_model, settings.embed_batch_size, settings.embed_replicas
        )

        def measure(label: str) -> dict[str, Any]:
            raw = raw_embedding(probe, embedders)
            print(f"raw embedding ({label}): {raw}", flush=True)
            return raw

        principals = Path(tmp) / "principals.toml"
        principals.write_text(PRINCIPALS, "utf-8")
        env = {**os.environ, "TRACTATUS_PRINCIPALS": str(principals)}
        first = last = measure("before")
        rounds = []
        for n in range(1, args.repeat + 1):
            result, last = _round(
                n, items, args, env, measure, lambda: harness.wipe_store(driver, database), last
            )
            rounds.append(result)
    result = report(args, items, texts, settings, first, rounds)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", "utf-8")
    print_table(result)
    print(f"wrote {args.out}")


def report(
    args: argparse.Namespace,
    items: list[dict[str, Any]],
    texts: list[str],
    settings: Settings,
    first: dict[str, Any],
    rounds: list[dict[str, Any]],
) -> dict[str, Any]:
    def median_run(path: str) -> dict[str, Any]:
        runs = sorted((r[path] for r in rounds), key=lambda run: run["ratio_to_raw"])
        middle: dict[str, Any] = runs[len(runs) // 2]
        return middle

    http, cli = median_run("http"), median_run("cli")
    raws = [first] + [r[k] for r in rounds for k in ("raw_after_http", "raw_after_cli")]
    return {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "data": {
            "file": harness.shown_path(args.file),
            "conversations": args.conversation or "all",
            "observations": len(items),
            "embedded_texts": len(texts),
            "distinct_texts": len(set(texts)),
        },
        "settings": {
            "batch_size": args.batch_size,
            "workers": args.workers,
            "embed_batch_size": settings.embed_batch_size,
            "embed_replicas": settings.embed_replicas,
            "embed_processes": settings.embed_processes,
            "embed_cache_size": settings.embed_cache_size,
            "model": shown_model(settings.embedding_model),
            "distiller": "offline",
            "repeat": args.repeat,
        },
        "raw_embedding": {
            "texts_per_s": round(statistics.median(r["texts_per_s"] for r in raws), 1),
            "measurements": raws,
            "sample_of": len(texts),
        },
        "http": http,
        "cli": cli,
        "ratio_http_to_raw": http["ratio_to_raw"],
        "ratio_cli_to_raw": cli["ratio_to_raw"],
        "ratios_per_round": [
            {"http": r["http"]["ratio_to_raw"], "cli": r["cli"]["ratio_to_raw"]} for r in rounds
        ],
        "goal_ratio": 0.65,
        "machine": machine(),
    }


def print_table(result: dict[str, Any]) -> None:
    http, cli = result["http"], result["cli"]
    rounds = len(result["ratios_per_round"])
    print()
    print(f"median of {rounds} round(s); each run against the raw rate measured either side")
    print(f"{'path':<16}{'obs/s':>10}{'assertions/s':>14}{'embedded/s':>12}{'ratio to raw':>14}")
    raw = result["raw_embedding"]["texts_per_s"]
    print(f"{'raw embedding':<16}{'':>10}{'':>14}{raw:>12}{1.0:>14}")
    for name, run in (("http (library)", http), ("cli", cli)):
        print(
            f"{name:<16}{run['observations_per_s']:>10}{run['assertions_per_s']:>14}"
            f"{run['embedded_texts_per_s']:>12}{run['ratio_to_raw']:>14.2f}"
            f"  (raw {run['raw_texts_per_s']:.1f}/s)"
        )
    for n, ratios in enumerate(result["ratios_per_round"], 1):
        print(f"round {n}: http {ratios['http']:.2f}, cli {ratios['cli']:.2f}")


if __name__ == "__main__":
    main()
