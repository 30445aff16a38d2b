"""Embedding models side by side on LoCoMo: the dense list alone, offline (a report, not a test).

    .venv/bin/python bench/embedding_models.py            # the default model and MiniLM
    .venv/bin/python bench/embedding_models.py --model DIR --model DIR2   # any model dirs

For each model, every turn of the five conversations is embedded as recall's passages are
("Speaker: turn", and the previous turn + the turn as its context), with the model's own
prefixes (``embed`` / ``embed_query``), and each question of categories 1-4 ranks its
conversation's turns by cosine: the turn alone, the context alone, and the better of the
two. Prints Hit@10 and MRR of each, and the texts per second of the model on this machine,
measured in the same run (one replica, all cores). No store, no fusion, no rerank: what the
model alone brings. Needs the LoCoMo file (``TRACTATUS_LOCOMO`` or
``../shared/data/locomo-dev.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ingest.embeddings.embedder import SentenceTransformerEmbedder
from ingest.embeddings.model import default_model_path, minilm_model_path, model_identity

DATA = Path(os.environ.get("TRACTATUS_LOCOMO", ROOT.parent / "shared" / "data" / "locomo-dev.json"))


def turns(sample: dict[str, Any]) -> list[tuple[str, str]]:
    """(dialog id, "Speaker: text") of every turn, in order."""
    conversation = sample["conversation"]
    out = []
    for n in range(1, 100):
        for turn in conversation.get(f"session_{n}") or []:
            out.append((turn["dia_id"], f"{turn['speaker']}: {turn['text']}"))
    return out


def rank_of(scores: Any, ids: list[str], gold: set[str]) -> int | None:
    import numpy

    order = numpy.argsort(-scores)
    return next((r for r, j in enumerate(order[:10]) if ids[j] in gold), None)


def score(model: str, data: list[dict[str, Any]]) -> dict[str, Any]:
    import numpy

    embedder = SentenceTransformerEmbedder(model, batch_size=16, cache_size=0)
    embedder.embed(["warm-up"])
    ranks: dict[str, list[int | None]] = {"turn": [], "context": [], "best": []}
    texts, started = 0, time.perf_counter()
    for sample in data:
        rows = turns(sample)
        ids = [d for d, _ in rows]
        plain = [t for _, t in rows]
        context = [(plain[i - 1] + "\n" if i else "") + plain[i] for i in range(len(plain))]
        turn_m = numpy.array(embedder.embed(plain))
        context_m = numpy.array(embedder.embed(context))
        qa = [q for q in sample["qa"] if q["category"] in (1, 2, 3, 4)]
        queries = numpy.array(embedder.embed_query([q["question"] for q in qa]))
        texts += len(plain) + len(context) + len(qa)
        for q, vector in zip(qa, queries, strict=True):
            gold = set(q["evidence"])
            a, b = turn_m @ vector, context_m @ vector
            for key, s in (("turn", a), ("context", b), ("best", numpy.maximum(a, b))):
                ranks[key].append(rank_of(s, ids, gold))
    elapsed = time.perf_counter() - started
    out: dict[str, Any] = {"model": model_identity(model), "texts_per_s": round(texts / elapsed)}
    for key, values in ranks.items():
        out[key] = {
            "hit10": round(sum(r is not None for r in values) / len(values), 3),
            "mrr": round(sum(1 / (r + 1) for r in values if r is not None) / len(values), 3),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", action="append", help="a model directory (repeatable)")
    args = parser.parse_args()
    models = args.model or [m for m in (default_model_path(), minilm_model_path()) if m]
    data = json.loads(DATA.read_text("utf-8"))
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores")
    print("| model | turn Hit@10 / MRR | context | better of the two | texts/s |")
    print("|---|---|---|---|---|")
    for model in models:
        r = score(model, data)
        cells = " | ".join(
            f"{r[k]['hit10']:.3f} / {r[k]['mrr']:.3f}" for k in ("turn", "context", "best")
        )
        print(f"| {r['model']} | {cells} | {r['texts_per_s']} |", flush=True)


if __name__ == "__main__":
    main()
