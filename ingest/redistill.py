"""``tractatus redistill``: re-run the distiller over stored observations, superseding what an
older distiller wrote from them. Append-only, idempotent and resumable.

For each observation not yet distilled by the current distiller (``Observation.distilled_with``
differs from ``name:version``), in id order, in batches:

1. The stored observation is distilled again (its text, speaker, and ``occurred_at`` in the
   offset it was written with) and the drafts pass the gate, as at ingest. Refused drafts are
   quarantined (origin ``redistill``).
2. In ONE write transaction per observation: its write lock is taken and the marker checked
   again (two runs at once: the second finds it done); the versions the older distiller wrote
   from it that are still alive are read; :func:`plan` decides the writes; the writer applies
   them; the observation is marked. A run killed in the middle leaves every observation
   either done (marked, with all its writes) or untouched; the next run resumes.
3. :func:`plan`: a fact the new distiller reads as before (same content and valid time) is
   left alone; a new or changed fact is written (a re-dated one also as a correction at the
   old version's valid time, so the old version is superseded rather than left current after
   it); a fact no longer read is retracted: a ``polarity: false`` version at the old valid
   time, with the same sentence as evidence, which supersedes it. Nothing is deleted.

The response an observation stored at ingest (its idempotent replay) is not changed.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from neo4j import Driver, ManagedTransaction

from graph_schema.core.records import as_datetime
from graph_schema.core.timeutil import new_id, to_rfc3339, utcnow
from graph_schema.core.types import Principal, SourceKind
from graph_schema.ledger.types import UTTERANCE, AssertionWrite
from graph_schema.observations import cypher
from graph_schema.observations.types import ObservationIn
from graph_schema.quarantine import cypher as quarantine_cypher
from graph_schema.schema.ontology import predicate_map
from graph_schema.schema.types import Predicate
from ingest import gate, writer
from ingest.distill.base import BatchDistiller, Distiller, distilled_with
from ingest.distill.dates import in_offset
from ingest.embeddings.model import Embedder
from ingest.embeddings.texts import embed_items
from ingest.observations import check_drafts, withhold

ORIGIN = "redistill"
PRINCIPAL = Principal(id="tractatus:redistill", role="admin")
"""Who the ledger records as having written a redistill's versions (``written_by``)."""
DEFAULT_BATCH = 64


@dataclass(frozen=True)
class Old:
    """A version an older distiller wrote from the observation, still alive."""

    id: str
    subject: str
    predicate: str
    object: str | None
    polarity: bool
    valid_from: datetime
    access: tuple[str, ...]
    slot_key: str
    quote: str
    start: int | None
    end: int | None
    valid_to: datetime | None = None

    def content(self) -> tuple[str, str, str | None, bool, tuple[str, ...]]:
        return (self.subject, self.predicate, self.object, self.polarity, self.access)


@dataclass
class Summary:
    observations: int = 0
    unchanged: int = 0
    written: int = 0
    retracted: int = 0
    quarantined: int = 0
    without_text: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {k: round(v, 2) if isinstance(v, float) else v for k, v in self.__dict__.items()}


@dataclass
class _Item:
    obs: ObservationIn
    observation_id: str
    written_at_ingest: list[str]
    accepted: list[AssertionWrite] = field(default_factory=list)
    rejections: list[gate.Rejection] = field(default_factory=list)
    embeddings: list[list[float] | None] = field(default_factory=list)


# --- what to write (pure) -------------------------------------------------------------------


def _content(item: AssertionWrite) -> tuple[str, str, str | None, bool, tuple[str, ...]]:
    return (item.subject, item.predicate, item.object_text(), item.polarity, tuple(item.access))


def _retraction(
    old: Old, predicate: Predicate, obs: ObservationIn, observation_id: str
) -> AssertionWrite:
    """``polarity: false`` at the old version's valid time, evidenced by the same sentence."""
    many = predicate.cardinality == "many"
    evidence: dict[str, Any] = {
        "quote": old.quote,
        "source_text": obs.text,
        "observation_id": observation_id,
        "speaker": obs.speaker,
        "occurred_at": obs.occurred_at,
    }
    if old.start is not None and old.end is not None:
        evidence.update(start=old.start, end=old.end)
    return AssertionWrite.model_validate(
        {
            "subject": old.subject,
            "predicate": old.predicate,
            "object": old.object if many else None,
            "polarity": False,
            "valid_from": to_rfc3339(old.valid_from),
            "source_kind": obs.source_kind.value,
            "asserted_by": obs.speaker,
            "confidence": 1.0,
            "evidence": evidence,
            "access": list(old.access),
            **({"task_id": obs.task_id} if obs.task_id else {}),
        }
    )


def _same(old: Old, new: writer.Prepared) -> bool:
    """The new distiller reads the old version again: same content and valid time, and not an
    utterance that another turn's ended (the slot rule before migration 15), which is written
    again so that it is current as every utterance is."""
    ended = old.predicate == UTTERANCE and old.valid_to is not None
    return old.content() == _content(new.item) and old.valid_from == new.valid_from and not ended


def plan(
    olds: list[Old],
    news: list[writer.Prepared],
    ontology: dict[str, Predicate],
    obs: ObservationIn,
    observation_id: str,
) -> tuple[list[tuple[AssertionWrite, list[float] | None]], int, int]:
    """The writes that bring the observation's facts from ``olds`` to ``news``: (writes in
    order, unchanged count, retraction count). See the module docstring."""
    writes: list[tuple[AssertionWrite, list[float] | None]] = []
    unchanged = 0
    written_slots: set[tuple[str, datetime]] = set()
    for new in news:
        if any(_same(o, new) for o in olds):
            unchanged += 1
            continue
        for old in (o for o in olds if o.slot_key == new.key and o.valid_from > new.valid_from):
            copy = new.item.model_copy(update={"valid_from": to_rfc3339(old.valid_from)})
            writes.append((copy, new.embedding))
            written_slots.add((new.key, old.valid_from))
        writes.append((new.item, new.embedding))
        written_slots.add((new.key, new.valid_from))
    read_again = {_content(n.item) for n in news}
    retracted = 0
    for old in olds:
        if old.content() in read_again or (old.slot_key, old.valid_from) in written_slots:
            continue
        if old.predicate not in ontology or not old.polarity:
            continue
        writes.append((_retraction(old, ontology[old.predicate], obs, observation_id), None))
        retracted += 1
    return writes, unchanged, retracted


# --- reading ---------------------------------------------------------------------------------


def _observation(row: dict[str, Any]) -> ObservationIn | None:
    if row.get("text") is None:
        return None
    occurred = as_datetime(row["occurred_at"])
    assert occurred is not None
    # what the store holds was valid when written: read as stored, not checked again against
    # rules added since (a blank text, or one with a NUL, was accepted before: docs/ingestion.md)
    return ObservationIn.model_construct(
        **{
            "text": row["text"],
            "speaker": row["speaker"],
            "occurred_at": in_offset(occurred, row.get("occurred_offset")),
            "source_kind": SourceKind(row["source_kind"]),
            "access": list(row.get("access") or []),
            "conversation_id": row.get("conversation_id"),
            "task_id": row.get("task_id"),
            "kind": row.get("kind") or "chat_turn",
        }
    )


def _written_at_ingest(response: str | None) -> list[str]:
    if not response:
        return []
    stored = json.loads(response)
    return [r["assertion"]["id"] for r in stored.get("assertions", [])]


def _olds(tx: ManagedTransaction, item: _Item) -> list[Old]:
    rows = tx.run(
        cypher.REDISTILL_ALIVE, ids=item.written_at_ingest, observation_id=item.observation_id
    )
    return [
        Old(
            id=r["id"],
            subject=r["subject"],
            predicate=r["predicate"],
            object=r["object"],
            polarity=bool(r["polarity"]),
            valid_from=as_datetime(r["valid_from"]),  # type: ignore[arg-type]
            access=tuple(r["access"] or []),
            slot_key=r["slot_key"],
            quote=r["quote"],
            start=r["start"],
            end=r["end"],
            valid_to=as_datetime(r["valid_to"]),
        )
        for r in rows
    ]


# --- writing ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """What a redistill needs: the store, the distiller and the embedder (as the server)."""

    driver: Driver
    database: str
    distiller: Distiller
    embedder: Embedder | None
    principal: Principal = PRINCIPAL


def _quarantine_rows(item: _Item, run: Run, now: datetime) -> list[dict[str, Any]]:
    return [
        {
            "id": new_id(),
            "received_at": now,
            "reason": r.reason,
            "message": r.message,
            "payload": json.dumps(r.payload, ensure_ascii=False, sort_keys=True, default=str)[
                : gate.MAX_QUARANTINED_PAYLOAD_CHARS
            ],
            "origin": ORIGIN,
            "submitted_by": run.principal.id,
            "item_index": r.index,
            "observation_id": item.observation_id,
        }
        for r in item.rejections
    ]


def _apply(
    tx: ManagedTransaction, item: _Item, run: Run, ontology: dict[str, Predicate], marker: str
) -> tuple[int, int, int] | None:
    """One observation in one transaction; None when another run did it first."""
    claimed = tx.run(cypher.REDISTILL_CLAIM, id=item.observation_id, marker=marker).single()
    if claimed is None or claimed["done"]:
        return None
    news = writer.prepare(
        item.accepted,
        ontology=ontology,
        embeddings=item.embeddings,
    )
    writes, unchanged, retracted = plan(
        _olds(tx, item), news, ontology, item.obs, item.observation_id
    )
    prepared = writer.prepare(
        [w for w, _ in writes], ontology=ontology, embeddings=[e for _, e in writes]
    )
    withheld: list[tuple[writer.Prepared, str]] = []
    results = (
        writer.write_in_tx(tx, prepared, principal=run.principal, withheld=withheld)
        if prepared
        else []
    )
    withhold(item.accepted, item.rejections, withheld)
    ids = [r.assertion.id for r in results]
    tx.run(cypher.MARK_DISTILLED_FROM, ids=ids, observation_id=item.observation_id).consume()
    now = utcnow()
    rows = _quarantine_rows(item, run, now)
    if rows:
        tx.run(quarantine_cypher.CREATE_QUARANTINE, items=rows).consume()
    tx.run(
        cypher.MARK_REDISTILLED, id=item.observation_id, marker=marker, now=to_rfc3339(now)
    ).consume()
    return unchanged, len(results) - retracted, retracted


def _distilled(
    run: Run, observations: list[ObservationIn], ontology: dict[str, Predicate]
) -> list[list[Any]]:
    if isinstance(run.distiller, BatchDistiller):
        return list(run.distiller.distill_many(observations))
    predicates = list(ontology.values())
    return [run.distiller.distill(obs, predicates=predicates) for obs in observations]


def _items(run: Run, rows: list[dict[str, Any]], ontology: dict[str, Predicate]) -> list[_Item]:
    items = [
        _Item(obs, row["id"], _written_at_ingest(row.get("response")))
        for row in rows
        if (obs := _observation(row)) is not None
    ]
    drafts = _distilled(run, [item.obs for item in items], ontology)
    for item, found in zip(items, drafts, strict=True):
        item.accepted, item.rejections = check_drafts(
            found, item.obs, item.observation_id, ontology=ontology, principal=run.principal
        )
    vectors = embed_items(run.embedder, [a for item in items for a in item.accepted])
    at = 0
    for item in items:
        item.embeddings = list(vectors[at : at + len(item.accepted)])
        at += len(item.accepted)
    return items


def _pending(
    run: Run, after: str, marker: str, limit: int, conversation: str | None
) -> list[dict[str, Any]]:
    records, _, _ = run.driver.execute_query(
        cypher.REDISTILL_PENDING,
        after=after,
        marker=marker,
        limit=limit,
        conversation_id=conversation,
        database_=run.database,
        routing_="r",
    )
    return [dict(r["o"]) for r in records]


def batches(
    run: Run, *, batch: int = DEFAULT_BATCH, conversation: str | None = None
) -> Iterator[list[dict[str, Any]]]:
    """The pending observations, ``batch`` at a time, in id order."""
    marker = distilled_with(run.distiller)
    after = ""
    while True:
        rows = _pending(run, after, marker, batch, conversation)
        if not rows:
            return
        yield rows
        after = rows[-1]["id"]


def redistill(
    run: Run,
    *,
    batch: int = DEFAULT_BATCH,
    limit: int | None = None,
    conversation: str | None = None,
    progress: Callable[[Summary], None] | None = None,
) -> Summary:
    """Re-distil every pending observation (at most ``limit``); see the module docstring."""
    started = time.perf_counter()
    marker = distilled_with(run.distiller)
    ontology = predicate_map(run.driver, database=run.database)
    summary = Summary()
    for rows in batches(run, batch=batch, conversation=conversation):
        if limit is not None:
            rows = rows[: max(0, limit - summary.observations - summary.without_text)]
            if not rows:
                break
        items = _items(run, rows, ontology)
        summary.without_text += len(rows) - len(items)
        with run.driver.session(database=run.database) as session:
            for item in items:
                done = session.execute_write(_apply, item, run, ontology, marker)
                _count(summary, item, done)
        summary.seconds = time.perf_counter() - started
        if progress is not None:
            progress(summary)
    summary.seconds = time.perf_counter() - started
    return summary


def _count(summary: Summary, item: _Item, done: tuple[int, int, int] | None) -> None:
    if done is None:
        return
    unchanged, written, retracted = done
    summary.observations += 1
    summary.unchanged += unchanged
    summary.written += written
    summary.retracted += retracted
    summary.quarantined += len(item.rejections)
