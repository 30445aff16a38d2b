"""``tractatus reembed``: write every stored vector again with the configured model.

The store records the model of its vectors (``graph_schema/schema/space.py``); a server with
another model is refused until this has run. It re-embeds

* every assertion with a vector: ``embedding``, of :func:`ingest.embeddings.texts.text_of`
  over the stored triple and first evidence quote (what the write path embedded), and
* every passage with a vector: ``embedding`` of its ``text`` and ``context_embedding`` of its
  ``context`` (``ingest/passages.py``),

with ``Embedder.embed``, in id order, ``batch`` nodes per write transaction. Only those
vectors change; a node written without one (embeddings off, an empty passage, a retraction)
is left without one.

Resumable: the space node carries the run (``target``, ``phase``, ``cursor``), and each batch
moves the cursor in the transaction that writes its vectors, after locking the space node, so
a killed run leaves every batch either written with the cursor past it or untouched, and the
next run continues after the cursor (two runs at once take turns). A run for another model
than an unfinished one starts again from the first node. When both phases are done the record
names the new model in the same transaction as the last cursor move. Idempotent: once the
record names the configured model and no run is open, a run does nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from neo4j import Driver, ManagedTransaction

from graph_schema.core.errors import TractatusError
from graph_schema.schema import cypher, space
from graph_schema.schema.space import SPACE_ID, Space
from ingest.embeddings.model import Embedder
from ingest.embeddings.texts import text_of

DEFAULT_BATCH = 256
PHASES = ("assertion", "passage")


class ReembedConflict(TractatusError):
    """Another run for another model took the store over while this one ran."""

    code = "reembed_conflict"


@dataclass(frozen=True)
class Reembed:
    """The unit of work: the store, and the embedder and identity of the model it moves to."""

    driver: Driver
    database: str
    embedder: Embedder
    model: str


@dataclass
class Summary:
    model_from: str = ""
    model_to: str = ""
    assertions: int = 0
    passages: int = 0
    batches: int = 0
    done: bool = False
    seconds: float = 0.0
    keys: list[str] = field(default_factory=list, repr=False)  # keys written, in order

    def as_dict(self) -> dict[str, Any]:
        fields = {k: v for k, v in self.__dict__.items() if k != "keys"}
        return {k: round(v, 2) if isinstance(v, float) else v for k, v in fields.items()}


@dataclass(frozen=True)
class Step:
    """What one transaction did: the phase it wrote, the keys written, whether it finished."""

    phase: str | None
    keys: tuple[str, ...] = ()
    finished: bool = False


# --- one batch ------------------------------------------------------------------------------


def _assertion_rows(tx: ManagedTransaction, embedder: Embedder, after: str, batch: int) -> Any:
    found = list(tx.run(cypher.REEMBED_ASSERTIONS, after=after, batch=batch))
    texts = [text_of(r["subject"], r["predicate"], r["object"], r["quote"]) for r in found]
    vectors = embedder.embed(texts) if texts else []
    rows = [{"key": r["key"], "embedding": v} for r, v in zip(found, vectors, strict=True)]
    return rows, cypher.SET_ASSERTION_VECTORS


def _passage_rows(tx: ManagedTransaction, embedder: Embedder, after: str, batch: int) -> Any:
    found = list(tx.run(cypher.REEMBED_PASSAGES, after=after, batch=batch))
    texts = [r["text"] or "" for r in found] + [r["context"] or r["text"] or "" for r in found]
    vectors = embedder.embed(texts) if texts else []
    rows = [
        {"key": r["key"], "embedding": vectors[i], "context_embedding": vectors[len(found) + i]}
        for i, r in enumerate(found)
    ]
    return rows, cypher.SET_PASSAGE_VECTORS


_ROWS = {"assertion": _assertion_rows, "passage": _passage_rows}


def _next_phase(tx: ManagedTransaction, phase: str) -> Step:
    """The phase is done: the next one starts at its first node, or the run finishes."""
    later = PHASES[PHASES.index(phase) + 1 :]
    if later:
        tx.run(cypher.MOVE_REEMBED_CURSOR, id=SPACE_ID, phase=later[0], cursor="").consume()
        return Step(later[0])
    tx.run(cypher.FINISH_REEMBED, id=SPACE_ID).consume()
    return Step(None, finished=True)


def _batch_tx(tx: ManagedTransaction, run: Reembed, batch: int) -> Step:
    """One batch of the phase the space node is at, its vectors and the cursor's move."""
    record = tx.run(cypher.LOCK_EMBEDDING_SPACE, id=SPACE_ID).single(strict=True)
    state = Space.of(dict(record["space"]))
    if state.target != run.model:
        raise ReembedConflict(
            f"another re-embed (to {state.target or state.model}) took the store over",
            details={"target": state.target, "model": run.model},
        )
    if state.phase is None:  # finished meanwhile by another run
        return Step(None, finished=True)
    rows, write = _ROWS[state.phase](tx, run.embedder, state.cursor or "", batch)
    if not rows:
        return _next_phase(tx, state.phase)
    tx.run(write, rows=rows).consume()
    cursor = rows[-1]["key"]
    tx.run(cypher.MOVE_REEMBED_CURSOR, id=SPACE_ID, phase=state.phase, cursor=cursor).consume()
    return Step(state.phase, tuple(r["key"] for r in rows))


# --- the run --------------------------------------------------------------------------------


def _start(run: Reembed) -> Space:
    """The space, with a run for ``run.model`` open (a new one unless one is open for it)."""
    state = space.record(run.driver, database=run.database, model=run.model)
    if state.target != run.model and not (state.target is None and state.model == run.model):
        run.driver.execute_query(
            cypher.START_REEMBED,
            id=SPACE_ID,
            target=run.model,
            phase=PHASES[0],
            database_=run.database,
        )
    return state


def _count(summary: Summary, step: Step) -> None:
    if step.phase == "assertion":
        summary.assertions += len(step.keys)
    elif step.phase == "passage":
        summary.passages += len(step.keys)
    if step.keys:
        summary.batches += 1
        summary.keys.extend(step.keys)


def reembed(
    run: Reembed,
    *,
    batch: int = DEFAULT_BATCH,
    progress: Callable[[Summary], None] | None = None,
) -> Summary:
    """Re-embed the store with ``run``'s model (module doc); ``progress`` is called after
    each batch is committed. Returns what this run wrote (``done``: the record now names
    ``run.model``)."""
    started = time.perf_counter()
    state = _start(run)
    summary = Summary(model_from=state.model, model_to=run.model)
    if state.target is None and state.model == run.model:
        summary.done = True
        return summary
    with run.driver.session(database=run.database) as session:
        while True:
            step = session.execute_write(_batch_tx, run, batch)
            _count(summary, step)
            summary.seconds = time.perf_counter() - started
            if step.finished:
                summary.done = True
                return summary
            if step.keys and progress is not None:
                progress(summary)
