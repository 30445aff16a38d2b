"""What entities cost (docs/entities.md "Measured"): the write overhead of the ABOUT/OBJECT
links, and the latency of an entity page and of a search.

How to run (the local Neo4j started, `eval "$(.venv/bin/python scripts/neo4j_local.py env
--shell)"`; it writes into that store):

    .venv/bin/python bench/entities.py          # options: --rounds 6 --batch 500

What it does: serves the API in this process (no embedding model, so a write's time is the
store's), then posts ``--rounds`` pairs of batches of ``--batch`` `works_at` assertions (new
subjects, 50 companies a batch), one with the writer's statement as it is and one with the
entity links taken out of it, interleaved, and prints the median of each. Then it times 20
pages of an entity with 52 assertions about it, and 20 searches by the text indexes of
migration 16 interleaved with 20 by the scan they replaced (the same answer from both), with
their ratio; and prints the store's size.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx

from bench.harness import local_app
from graph_schema.core.cypher import effective_tier, known_and_valid, visible
from graph_schema.entities import cypher as entities_cypher
from graph_schema.entities.names import entity_ref
from graph_schema.ledger import cypher
from server.settings import open_driver

KEY = "tr_bench_entities_00000000000000000000"
PRINCIPALS = f'[[principal]]\nid = "bench"\nkey = "{KEY}"\ngroups = []\n'
SIZE = "MATCH (a:Assertion) WITH count(a) AS a MATCH (e:Entity) RETURN a, count(e) AS e"


def _fact(subject: str, predicate: str, obj: str) -> dict[str, Any]:
    return {
        "subject": subject,
        "predicate": predicate,
        "object": obj,
        "source_kind": "user_stated",
        "asserted_by": subject,
        "confidence": 0.9,
        "evidence": {"quote": f"{predicate} {obj}"},
    }


def _batch(size: int) -> dict[str, Any]:
    tag = uuid.uuid4().hex[:8]
    return {
        "assertions": [
            _fact(f"user:b{tag}-{i}", "works_at", f"Company {tag} {i % 50}") for i in range(size)
        ]
    }


def _ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.0f} ms ({len(values)} runs)"


def _writes(client: httpx.Client, rounds: int, size: int) -> None:
    linked = cypher.CREATE_ASSERTIONS
    unlinked = linked.replace(cypher.LINK_ENTITIES, "")
    times: dict[str, list[float]] = {"with links": [], "without links": []}
    client.post("/v1/assertions", json=_batch(50))  # warm the plans
    for _ in range(rounds):
        for mode, statement in (("with links", linked), ("without links", unlinked)):
            cypher.CREATE_ASSERTIONS = statement
            body = _batch(size)
            start = time.perf_counter()
            response = client.post("/v1/assertions", json=body)
            times[mode].append(time.perf_counter() - start)
            response.raise_for_status()
    cypher.CREATE_ASSERTIONS = linked
    for mode, values in times.items():
        print(f"POST {size} works_at assertions, {mode}: {_ms(values)}")


# The search as it was before migration 16 (a scan of the readable assertions, their names
# lower-cased in the query), kept here to be timed beside the statement that seeks by index
SCANNED_SEARCH = (
    """
CALL () {
  MATCH (a:Assertion)-[r:ABOUT|OBJECT]->(e:Entity)
  WHERE a.recorded_at <= $known_at AND """
    + visible("a")
    + """
  WITH e, toLower(CASE type(r) WHEN 'ABOUT' THEN a.subject ELSE a.object END) AS name
  WHERE all(w IN $words WHERE name CONTAINS w)
  RETURN e, name
  UNION
  MATCH (a:Assertion)-[:ABOUT]->(e:Entity)
  WHERE a.predicate IN ['alias', 'name']
    AND all(w IN $words WHERE toLower(a.object) CONTAINS w) AND """
    + known_and_valid("a")
    + " AND a.polarity = true AND "
    + visible("a")
    + " AND "
    + effective_tier("a")
    + """ IN $tiers
  RETURN e, toLower(a.object) AS name
}
WITH e, min(name) AS first
RETURN e.id AS id
ORDER BY first, id
LIMIT $limit
"""
)


def _reads(client: httpx.Client) -> None:
    tag = uuid.uuid4().hex[:8]
    alice = f"user:alice-{tag}"
    facts = [_fact(alice, "works_at", f"Acme {tag}"), _fact(f"Acme {tag}", "located_in", "Bonn")]
    facts += [_fact(alice, "likes", f"thing {i}") for i in range(50)]
    client.post("/v1/assertions", json={"assertions": facts}).raise_for_status()
    page = []
    for _ in range(20):
        start = time.perf_counter()
        client.get(f"/v1/entities/{entity_ref(alice, [])['id']}").raise_for_status()
        page.append(time.perf_counter() - start)
    print(f"GET /v1/entities/{{id}} (52 assertions about it): {_ms(page)}")
    _searches(client, f"alice-{tag}")


def _searches(client: httpx.Client, q: str) -> None:
    """The search by index and the scan before it, interleaved, the same answer from both."""
    indexed = entities_cypher.SEARCH
    times: dict[str, list[float]] = {"by index": [], "scan (before)": []}
    answers: dict[str, Any] = {}
    for _ in range(20):
        for mode, statement in (("by index", indexed), ("scan (before)", SCANNED_SEARCH)):
            entities_cypher.SEARCH = statement
            start = time.perf_counter()
            response = client.get("/v1/entities", params={"q": q})
            times[mode].append(time.perf_counter() - start)
            response.raise_for_status()
            answers[mode] = [e["id"] for e in response.json()["entities"]]
    entities_cypher.SEARCH = indexed
    assert answers["by index"] == answers["scan (before)"], answers
    for mode, values in times.items():
        print(f"GET /v1/entities?q=, {mode}: {_ms(values)}")
    ratio = statistics.median(times["by index"]) / statistics.median(times["scan (before)"])
    print(f"search by index / scan: {ratio:.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--batch", type=int, default=500)
    args = parser.parse_args()
    with local_app(PRINCIPALS) as (url, settings):
        headers = {"Authorization": f"Bearer {KEY}"}
        with httpx.Client(base_url=url, headers=headers, timeout=300) as client:
            _writes(client, args.rounds, args.batch)
            _reads(client)
    with open_driver(settings) as driver:
        size = driver.execute_query(SIZE, database_=settings.neo4j_database)[0][0]
        print(f"store: {size['a']} assertions, {size['e']} entities")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
