"""Recall passages: one derived search document per observation (see docs/recall.md).

A ``(:Passage)-[:OF]->(:Observation)`` holds

* ``text``: ``"{speaker}: {turn}"`` (the speaker's name is searchable), and
* ``context``: the previous turn of the same conversation *and the same visibility scope*
  followed by the turn itself, so a short reply ("Yes, last May!") is found by the words of
  the question it answers,

each embedded (``embedding``, ``context_embedding``) and full-text indexed. A passage carries
its observation's ``access``; a neighbour in another scope is never copied into it. Raw text
not retained falls back to the observation's evidence quotes.

Passages are derived data, like an index, written by the observation write itself
(:func:`settle`, after the observations are committed and before the write answers) and
never edited: a passage whose context is no longer the previous turn (a turn that arrived
out of order) is deleted and written again. :func:`settle` takes the conversations' locks
first, so one transaction at a time settles a conversation, each after its own turns were
committed: whatever the order turns arrive in, the last settle sees all of them and the
passages end as if they had arrived in order. ``POST /v1/recall/index`` builds the passages
an older version did not write (:func:`index_pending`), through the same function.
"""

from __future__ import annotations

from typing import Any

from neo4j import Driver, ManagedTransaction

from graph_schema.core.records import native
from graph_schema.core.timeutil import new_id, utcnow
from graph_schema.recall import cypher as q
from graph_schema.recall.types import DEFAULT_INDEX_BATCH, IndexAnswer
from ingest.embeddings.model import Embedder
from ingest.metrics import PASSAGE_TEXTS

DEFAULT_BATCH = DEFAULT_INDEX_BATCH


def turn_text(props: dict[str, Any] | None, quotes: list[str]) -> str:
    """A passage's text: ``"{speaker}: {turn}"`` (the quotes when the text was not kept)."""
    if props is None:
        return ""
    text = props.get("text") or " ".join(dict.fromkeys(quotes))
    speaker = props.get("speaker") or ""
    return f"{speaker}: {text}".strip() if text else ""


def passage_row(record: Any, now: Any) -> dict[str, Any]:
    """The properties of one passage (without embeddings) from a PENDING_PASSAGES record.

    An observation with no text at all still gets an (empty, unembedded) passage, so that it
    is not pending forever."""
    obs = native(dict(record["obs"]))
    text = turn_text(obs, record["quotes"])
    prev = record["prev"]
    before = turn_text(dict(prev) if prev is not None else None, record["prev_quotes"])
    return {
        "observation_id": obs["id"],
        "props": {
            "id": new_id(),
            "observation_id": obs["id"],
            "conversation_id": obs.get("conversation_id"),
            "task_id": obs.get("task_id"),
            "speaker": obs.get("speaker"),
            "occurred_at": obs.get("occurred_at"),
            "access": list(obs.get("access") or []),
            "text": text,
            "context": f"{before}\n{text}" if before and text else text,
            "context_of": prev["id"] if prev is not None else None,
            "recorded_at": now,
        },
    }


def _embed(rows: list[dict[str, Any]], embedder: Embedder | None) -> int:
    """Embed the rows' text and context in place; return how many texts were embedded."""
    rows = [r for r in rows if r["props"]["text"]]
    if embedder is None or not rows:
        return 0
    texts = [r["props"]["text"] for r in rows] + [r["props"]["context"] for r in rows]
    vectors = embedder.embed(texts)
    for i, row in enumerate(rows):
        row["props"]["embedding"] = vectors[i]
        row["props"]["context_embedding"] = vectors[len(rows) + i]
    return len(texts)


def pending(driver: Driver, *, database: str, conversation_id: str | None = None) -> int:
    records, _, _ = driver.execute_query(
        q.COUNT_PENDING_PASSAGES,
        conversation_id=conversation_id,
        database_=database,
        routing_="r",
    )
    return int(records[0]["pending"])


def _settle_tx(
    tx: ManagedTransaction, ids: list[str], embedder: Embedder | None
) -> tuple[int, int]:
    """(passages written, texts embedded) of one settle transaction."""
    now = utcnow()
    conversations = [r["conversation_id"] for r in tx.run(q.PASSAGE_CONVERSATIONS, ids=ids)]
    if conversations:
        tx.run(q.LOCK_CONVERSATIONS, conversation_ids=conversations, now=now).consume()
    rows = [passage_row(r, now) for r in tx.run(q.STALE_PASSAGES, ids=ids)]
    if not rows:
        return 0, 0
    embedded = _embed(rows, embedder)
    return int(tx.run(q.REPLACE_PASSAGES, rows=rows).single(strict=True)["written"]), embedded


def settle(
    driver: Driver, *, database: str, embedder: Embedder | None, observation_ids: list[str]
) -> int:
    """Write the passages of these observations and rebuild their successors' where the
    previous turn changed, in one transaction under the conversations' locks (module doc);
    return how many passages were written. Observations outside any conversation take no
    lock (their passage has no context)."""
    if not observation_ids:
        return 0
    with driver.session(database=database) as session:
        written, embedded = session.execute_write(
            _settle_tx, sorted(set(observation_ids)), embedder
        )
    PASSAGE_TEXTS.inc(embedded)
    return written


def index_batch(
    driver: Driver,
    *,
    database: str,
    embedder: Embedder | None,
    conversation_id: str | None = None,
    limit: int = DEFAULT_BATCH,
) -> int:
    """Build passages for up to ``limit`` observations that have none; return how many."""
    records, _, _ = driver.execute_query(
        q.PENDING_PASSAGES,
        conversation_id=conversation_id,
        limit=limit,
        database_=database,
        routing_="r",
    )
    ids = [r["id"] for r in records]
    settle(driver, database=database, embedder=embedder, observation_ids=ids)
    return len(ids)


def index_pending(
    driver: Driver,
    *,
    database: str,
    embedder: Embedder | None,
    conversation_id: str | None = None,
    max_batches: int = 1,
    limit: int = DEFAULT_BATCH,
) -> IndexAnswer:
    """Index pending observations, oldest first, in up to ``max_batches`` transactions."""
    total = 0
    for _ in range(max_batches):
        done = index_batch(
            driver,
            database=database,
            embedder=embedder,
            conversation_id=conversation_id,
            limit=limit,
        )
        total += done
        if done < limit:
            break
    left = pending(driver, database=database, conversation_id=conversation_id)
    return IndexAnswer(indexed=total, pending=left)
