"""Can an outsider tell a hidden entity from an id that never existed by how long
``GET /v1/entities/{id}`` takes? (docs/security.md "Timing", the entity paragraph.)

How to run (the local Neo4j started, `eval "$(.venv/bin/python scripts/neo4j_local.py env
--shell)"`; it writes into that store):

    .venv/bin/python bench/entity_timing.py          # options: --pairs 300 --entities 5

What it does: serves the API in this process (no embedding model) with an owner (group
``bench-hidden``) and an outsider (no group). The owner writes ``--entities`` entities of a
few assertions each, readable by its group only; an entity's id is computed from its group
and its name, as anyone can compute it. The outsider asks for the pages of those ids and of
as many ids of names never written in the same namespace (both answer 404, the same body), in
``--pairs`` interleaved pairs (which of the two goes first is random), after a warm-up. It
prints the medians and the AUC (Mann-Whitney) of the hidden ids' latencies against the
unknown ones: 0.5 when they are indistinguishable, 1.0 when every hidden one is slower. It
does so for the page as it was before (an unknown id answered after one statement, a hidden
one after two) and as it is (the same statements for both), the two interleaved too.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx
from neo4j import ManagedTransaction

from bench.harness import local_app, machine
from graph_schema.entities import cypher, reads
from graph_schema.entities.names import entity_ref
from graph_schema.entities.types import EntityAnswer

OWNER, OUTSIDER = "tr_bench_timing_owner_000000000000000", "tr_bench_timing_outsider_0000000000000"
GROUP = "bench-hidden"
PRINCIPALS = (
    f'[[principal]]\nid = "owner"\nkey = "{OWNER}"\ngroups = ["{GROUP}"]\n'
    f'[[principal]]\nid = "outsider"\nkey = "{OUTSIDER}"\ngroups = []\n'
)
WARM_UP = 20

Page = Callable[[ManagedTransaction, str, reads.At], EntityAnswer | None]


# The merge statement as it was: no row for an id no entity has.
_NOW_HEAD = "OPTIONAL MATCH (e0:Entity {id: $id})\nCALL (e0) {\n  OPTIONAL MATCH (e0)"
_NOW_TAIL = (
    "  RETURN collect(DISTINCT e.id) AS ids\n}\nRETURN [$id] + [i IN ids WHERE i <> $id] AS ids"
)
OLD_MERGED = cypher.MERGED.replace(_NOW_HEAD, "MATCH (e0:Entity {id: $id})\nMATCH (e0)").replace(
    _NOW_TAIL,
    "WITH e0, collect(DISTINCT e.id) AS ids\nRETURN [e0.id] + [i IN ids WHERE i <> e0.id] AS ids",
)


def _before() -> Page:
    """The page as it was: an id no entity has stopped after its first statement, which
    returned no row."""
    assert OLD_MERGED != cypher.MERGED and _NOW_TAIL not in OLD_MERGED

    def old(tx: ManagedTransaction, entity_id: str, at: reads.At) -> EntityAnswer | None:
        merged = tx.run(OLD_MERGED, id=entity_id, **at.params()).single()
        return None if merged is None else reads.page_of(tx, entity_id, list(merged["ids"]), at)

    return old


def _fact(subject: str, predicate: str, obj: str) -> dict[str, Any]:
    return {
        "subject": subject,
        "predicate": predicate,
        "object": obj,
        "source_kind": "user_stated",
        "asserted_by": "user:owner",
        "confidence": 0.9,
        "evidence": {"quote": f"{subject} {predicate} {obj}"},
        "access": [GROUP],
    }


def _plant(owner: httpx.Client, count: int) -> tuple[list[str], list[str]]:
    """The ids of ``count`` hidden entities and of ``count`` names never written."""
    tag = uuid.uuid4().hex[:8]
    names = [f"Hidden Venture {tag} {i}" for i in range(count)]
    facts = [_fact(n, "located_in", f"Harbour {i}") for i, n in enumerate(names)]
    facts += [_fact(n, "uses", f"tool {j}") for n in names for j in range(3)]
    owner.post("/v1/assertions", json={"assertions": facts}).raise_for_status()
    never = [f"Absent Venture {tag} {i}" for i in range(count)]
    return [entity_ref(n, [GROUP])["id"] for n in names], [
        entity_ref(n, [GROUP])["id"] for n in never
    ]


def auc(slower: list[float], faster: list[float]) -> float:
    """P(a value of ``slower`` exceeds one of ``faster``), ties counting half."""
    wins = sum((s > f) + 0.5 * (s == f) for s in slower for f in faster)
    return wins / (len(slower) * len(faster))


def _timed(client: httpx.Client, entity_id: str) -> float:
    start = time.perf_counter()
    response = client.get(f"/v1/entities/{entity_id}")
    elapsed = time.perf_counter() - start
    assert response.status_code == 404, response.text
    return elapsed


def _measure(
    client: httpx.Client, hidden: list[str], unknown: list[str], pairs: int, seed: int
) -> dict[str, dict[str, list[float]]]:
    """Per mode (before, now): the hidden and unknown latencies, all four interleaved."""
    rng = random.Random(seed)
    now = reads._page
    modes = {"before": _before(), "now": now}
    times: dict[str, dict[str, list[float]]] = {m: {"hidden": [], "unknown": []} for m in modes}
    for i in range(WARM_UP + pairs):
        order = [(m, kind) for m in modes for kind in ("hidden", "unknown")]
        rng.shuffle(order)
        for mode, kind in order:
            reads._page = modes[mode]  # type: ignore[assignment]
            ids = hidden if kind == "hidden" else unknown
            elapsed = _timed(client, ids[i % len(ids)])
            if i >= WARM_UP:
                times[mode][kind].append(elapsed)
    reads._page = now
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=300)
    parser.add_argument("--entities", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with local_app(PRINCIPALS) as (url, _):
        own = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {OWNER}"}, timeout=120)
        out = httpx.Client(
            base_url=url, headers={"Authorization": f"Bearer {OUTSIDER}"}, timeout=120
        )
        with own, out:
            hidden, unknown = _plant(own, args.entities)
            times = _measure(out, hidden, unknown, args.pairs, args.seed)
    print(f"machine: {machine()}")
    for mode, kinds in times.items():
        h, u = statistics.median(kinds["hidden"]), statistics.median(kinds["unknown"])
        print(
            f"{mode}: hidden {h * 1000:.2f} ms, unknown {u * 1000:.2f} ms (medians,"
            f" {len(kinds['hidden'])} pairs), ratio {h / u:.3f},"
            f" AUC {auc(kinds['hidden'], kinds['unknown']):.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
