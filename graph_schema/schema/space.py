"""The embedding space: which model wrote the store's vectors (docs/ingestion.md).

Vectors of two models are not comparable, so a store holds the vectors of one model only, and
says which on one ``(:EmbeddingSpace {id: 'default'})`` node (``model``: the model's identity,
:func:`ingest.embeddings.model.model_identity`). The record is made by the first server start
or ``tractatus migrate`` with an embedder (:func:`ensure`):

* a store with no vector at all records the configured model;
* a store with vectors and no record was written by a version that kept none, and every such
  version wrote all-MiniLM-L6-v2 (:data:`LEGACY_MODEL`): that is recorded.

A server or ``tractatus migrate`` whose model differs from the record, or that finds a
``tractatus reembed`` unfinished, is refused (:class:`EmbeddingSpaceMismatch`): nothing is
written with the wrong model. ``tractatus reembed`` (``ingest/reembed.py``) moves the store to
another model. Without an embedder nothing is written, so nothing is checked.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from neo4j import Driver, ManagedTransaction

from graph_schema.core.errors import ModelUnavailable
from graph_schema.schema import cypher

SPACE_ID = "default"
# the only model that versions before the record existed wrote
LEGACY_MODEL = "all-MiniLM-L6-v2"
REEMBED_COMMAND = "tractatus reembed"


class EmbeddingSpaceMismatch(ModelUnavailable):
    """The configured embedding model is not the one the store's vectors come from."""

    code = "embedding_space_mismatch"


@dataclass(frozen=True)
class Space:
    """What the space node says: the model of the vectors, and a re-embed in progress."""

    model: str
    target: str | None = None
    phase: str | None = None
    cursor: str | None = None

    @classmethod
    def of(cls, record: dict[str, Any]) -> Space:
        return cls(
            model=str(record["model"]),
            target=record.get("target"),
            phase=record.get("phase"),
            cursor=record.get("cursor"),
        )


def read(driver: Driver, *, database: str) -> Space | None:
    """The recorded space, or None for a store that has no record yet."""
    records, _, _ = driver.execute_query(
        cypher.EMBEDDING_SPACE, id=SPACE_ID, database_=database, routing_="r"
    )
    return Space.of(dict(records[0]["space"])) if records else None


def _record_tx(tx: ManagedTransaction, model: str) -> Space:
    found = bool(tx.run(cypher.HAS_VECTORS).single(strict=True)["found"])
    first = LEGACY_MODEL if found else model
    record = tx.run(cypher.RECORD_EMBEDDING_SPACE, id=SPACE_ID, model=first).single(strict=True)
    return Space.of(dict(record["space"]))


def record(driver: Driver, *, database: str, model: str) -> Space:
    """The recorded space; a store without a record gets one first: ``model`` when it holds
    no vector, else :data:`LEGACY_MODEL` (module doc)."""
    space = read(driver, database=database)
    if space is not None:
        return space
    with driver.session(database=database) as session:
        return session.execute_write(_record_tx, model)


def refusal(space: Space, model: str) -> EmbeddingSpaceMismatch | None:
    """Why a writer with ``model`` may not use a store in ``space`` (None: it may)."""
    details = {"store_model": space.model, "configured_model": model, "command": REEMBED_COMMAND}
    if space.target is not None:
        return EmbeddingSpaceMismatch(
            f"the store's vectors are being re-embedded from {space.model} to {space.target}"
            f" and that run has not finished (configured model: {model}): run"
            f" `{REEMBED_COMMAND}` to finish it",
            details={**details, "target": space.target},
        )
    if space.model != model:
        return EmbeddingSpaceMismatch(
            f"the store's vectors come from embedding model {space.model}, the configured"
            f" model is {model}: vectors of two models cannot be mixed. Run"
            f" `{REEMBED_COMMAND}` with {model} configured to re-embed the store, or configure"
            f" {space.model} again (TRACTATUS_EMBEDDING_MODEL)",
            details=details,
        )
    return None


def ensure(driver: Driver, *, database: str, model: str) -> Space:
    """The store's space, recorded if it was not; raises :class:`EmbeddingSpaceMismatch`
    when ``model`` may not write to it."""
    space = record(driver, database=database, model=model)
    refused = refusal(space, model)
    if refused is not None:
        raise refused
    return space


class Guard:
    """The check of one server: done once (at start, or at the first use when the store could
    not be reached at start); a refusal is raised again at every use."""

    def __init__(self, driver: Driver, *, database: str, model: str) -> None:
        self.driver, self.database, self.model = driver, database, model
        self._checked = False
        self._lock = threading.Lock()

    def ensure(self) -> None:
        if self._checked:
            return
        with self._lock:
            if not self._checked:
                ensure(self.driver, database=self.database, model=self.model)
                self._checked = True
