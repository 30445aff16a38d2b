"""The structured write path (``POST /v1/assertions``): gate -> sources -> embeddings -> writer.

A batch is all or nothing: any item the gate refuses is quarantined and the whole request is
refused (:class:`GateRejected`) before anything is embedded or written; a precondition that
fails rolls the whole batch back (:class:`PreconditionFailed`).
"""

from __future__ import annotations

from typing import Any

from neo4j import Driver

from graph_schema.core.types import Principal
from graph_schema.ledger.types import WriteResult
from graph_schema.lifecycle.rules import DEFAULT_BOUND
from graph_schema.quarantine.types import Retention
from graph_schema.schema.ontology import predicate_map
from ingest import gate, writer
from ingest.embeddings.model import Embedder
from ingest.embeddings.texts import embed_items

ORIGIN = "assertions"


def write_assertions(
    driver: Driver,
    *,
    database: str,
    raw_items: list[Any],
    principal: Principal,
    embedder: Embedder | None,
    retention: Retention,
    bound: int = DEFAULT_BOUND,
) -> list[WriteResult]:
    """Check, embed and write raw assertion bodies in one transaction; one result per item.
    ``bound`` is the working-memory bound the results report against."""
    ontology = predicate_map(driver, database=database)
    accepted, rejected = gate.check_batch(raw_items, ontology=ontology, principal=principal)
    if rejected:
        raise gate.refuse(
            driver,
            database=database,
            rejections=rejected,
            origin=ORIGIN,
            principal=principal,
            retention=retention,
        )
    accepted, rejected, requirements = gate.check_sources(
        driver, database=database, items=accepted, principal=principal
    )
    if rejected:
        raise gate.refuse(
            driver,
            database=database,
            rejections=rejected,
            origin=ORIGIN,
            principal=principal,
            retention=retention,
        )
    prepared = writer.prepare(
        accepted,
        ontology=ontology,
        source_access=requirements,
        embeddings=embed_items(embedder, accepted),
    )
    results = writer.write_assertions(
        driver, database=database, prepared=prepared, principal=principal, bound=bound
    )
    gate.count_accepted(ORIGIN, len(results))
    return results
