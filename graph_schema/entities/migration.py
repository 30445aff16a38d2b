"""Migration 13's data step: versions written before entities get their ABOUT and OBJECT
links, a batch per transaction. It touches only versions without an ABOUT, so an interrupted
run resumes where it stopped. The keys are computed here (Cypher has no sha256), exactly as
the writer computes them."""

from __future__ import annotations

from typing import Any

from neo4j import Driver, ManagedTransaction

from graph_schema.entities import cypher
from graph_schema.entities.names import entity_ref
from graph_schema.schema.ontology import seed_predicates
from graph_schema.schema.types import ValueType


def thing_predicates(tx: ManagedTransaction) -> frozenset[str]:
    """The predicates whose object names a thing: as stored, or as the seed defines them
    (``tractatus migrate`` seeds the ontology after the migrations)."""
    stored = tx.run(cypher.THING_PREDICATES).single(strict=True)["names"]
    seed = {
        p.name for p in seed_predicates() if p.object_entity and p.value_type == ValueType.string
    }
    return frozenset(stored) | seed


def _link(tx: ManagedTransaction, batch: int) -> int:
    things = thing_predicates(tx)
    rows: list[dict[str, Any]] = []
    for r in tx.run(cypher.UNLINKED, batch=batch):
        thing = r["predicate"] in things and r["object"]
        rows.append(
            {
                "id": r["id"],
                "about": entity_ref(r["subject"], r["access"]),
                "thing": entity_ref(r["object"], r["access"]) if thing else None,
            }
        )
    if not rows:
        return 0
    return int(tx.run(cypher.LINK_EXISTING, rows=rows).single(strict=True)["done"])


def link_batch(driver: Driver, *, database: str, batch: int) -> int:
    """Link up to ``batch`` unlinked versions in one transaction; how many were linked."""
    with driver.session(database=database) as session:
        return session.execute_write(_link, batch)
