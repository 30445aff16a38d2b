"""The structured write path (``POST /v1/assertions``): gate -> sources -> embeddings -> writer.

A batch is all or nothing: any item the gate refuses is quarantined and the whole request is
refused (:class:`GateRejected`) before anything is embedded or written; a precondition that
fails rolls the whole batch back (:class:`PreconditionFailed`). An idempotency key makes a
repeat of the request answer the first answer and write nothing (:mod:`ingest.idempotency`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from neo4j import Driver

from graph_schema.core.types import Principal
from graph_schema.ledger.types import AssertionsWritten, WriteResult
from graph_schema.lifecycle.rules import DEFAULT_BOUND
from graph_schema.quarantine.types import Retention
from graph_schema.schema.ontology import predicate_map
from ingest import gate, idempotency, writer
from ingest.embeddings.model import Embedder
from ingest.embeddings.texts import embed_items
from ingest.idempotency import Answer

ORIGIN = "assertions"
# the start of a write that sends no valid_from (nor evidence with an occurred_at)
ARRIVED = "the time the request arrived"


def write_assertions(
    driver: Driver,
    *,
    database: str,
    raw_items: list[Any],
    principal: Principal,
    embedder: Embedder | None,
    retention: Retention,
    bound: int = DEFAULT_BOUND,
    idempotency_key: str | None = None,
) -> Answer[list[WriteResult]]:
    """Check, embed and write raw assertion bodies in one transaction; one result per item.
    ``bound`` is the working-memory bound the results report against. With an
    ``idempotency_key`` used before by this caller for the same items, the first answer is
    replayed and nothing is written (for other items: PreconditionFailed)."""
    key = idempotency.Key.of(principal, idempotency_key, ORIGIN, raw_items)
    stored = idempotency.stored_answer(driver, database=database, key=key)
    if stored is not None:
        return _replayed(stored)
    prepared = _gated(
        driver,
        database=database,
        raw_items=raw_items,
        principal=principal,
        embedder=embedder,
        retention=retention,
    )
    try:
        results = writer.write_assertions(
            driver, database=database, prepared=prepared, principal=principal, bound=bound, key=key
        )
    except idempotency.TwinWon as twin:
        return _replayed(twin.response)
    gate.count_accepted(ORIGIN, len(results))
    return Answer(results)


def _replayed(stored: str) -> Answer[list[WriteResult]]:
    return Answer(AssertionsWritten.model_validate_json(stored).results, replayed=True)


def _gated(
    driver: Driver,
    *,
    database: str,
    raw_items: list[Any],
    principal: Principal,
    embedder: Embedder | None,
    retention: Retention,
) -> list[writer.Prepared]:
    """The items through the gate and their sources, prepared for the writer (the valid time
    each is written with checked: :func:`ingest.gate.backwards`) and embedded, before any
    transaction opens; anything refused is quarantined and refuses the request
    (GateRejected)."""
    ontology = predicate_map(driver, database=database)
    accepted, rejected = gate.check_batch(raw_items, ontology=ontology, principal=principal)
    requirements: list[tuple[str, ...]] = []
    if not rejected:
        accepted, rejected, requirements = gate.check_sources(
            driver, database=database, items=accepted, principal=principal
        )
    prepared: list[writer.Prepared] = []
    if not rejected:
        prepared = writer.prepare(accepted, ontology=ontology, source_access=requirements)
        rejected = gate.backwards(prepared, raw_items=raw_items, default=ARRIVED)
    if rejected:
        raise gate.refuse(
            driver,
            database=database,
            rejections=rejected,
            origin=ORIGIN,
            principal=principal,
            retention=retention,
        )
    return embedded(prepared, embedder)


def embedded(prepared: list[writer.Prepared], embedder: Embedder | None) -> list[writer.Prepared]:
    """The prepared writes with their vectors: embedded once the gate has accepted them all
    (the events path too)."""
    vectors = embed_items(embedder, [p.item for p in prepared])
    return [replace(p, embedding=v) for p, v in zip(prepared, vectors, strict=True)]
