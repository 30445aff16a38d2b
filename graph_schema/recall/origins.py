"""What a recall result comes from, read in the ranking's own read transaction: the turn
(observation) its assertion was distilled from, and the event that wrote it with that event's
causes (docs/recall.md, *The answer*: `turn`, `chain`).

An agent asking "why did the payment for order 8841 fail?" is answered with the fact
``order:8841 payment_status declined``; the answer to *why* is the chain of steps that led
to it (the risk check that flagged the card, the card's tokenisation, the order). Each result
carries that chain, newest first, as ``GET /v1/events/{id}/chain`` replays it, cut at
``replay.RESULT_CHAIN_DEPTH`` (10) hops (``truncated`` says the chain goes on). Both are read
under the caller's visibility: a turn or an event the caller may not read is not there.
"""

from __future__ import annotations

from typing import Any

from neo4j import ManagedTransaction

from graph_schema.core.records import native
from graph_schema.events import replay
from graph_schema.events.types import Chain
from graph_schema.recall import cypher as q
from graph_schema.recall.types import RecallResult, TurnOut


def attach(
    tx: ManagedTransaction,
    groups: list[str],
    caller: str,
    chosen: list[tuple[str, RecallResult]],
) -> list[RecallResult]:
    """Each result (with the id of the group it ranked as) with its turn and its chain."""
    turns = _turns(tx, groups, chosen)
    replays = chains(tx, groups, caller, [result.assertion.id for _, result in chosen])
    return [
        result.model_copy(
            update={"turn": turns.get(gid), "chain": replays.get(result.assertion.id)}
        )
        for gid, result in chosen
    ]


def _turns(
    tx: ManagedTransaction, groups: list[str], chosen: list[tuple[str, RecallResult]]
) -> dict[str, TurnOut]:
    """The turn each group is (``RecallResult.turn``): a window of the turn centred on the
    result's evidence in it, as the caller may read the observation."""
    wanted = []
    for gid, result in chosen:
        span = next((e for e in result.evidence if e.observation_id == gid), None)
        if span is not None:
            start = span.start or 0
            centre = (start + (span.end if span.end is not None else start)) // 2
            wanted.append({"id": gid, "from": centre - q.TURN_CHARS // 2})
    if not wanted:
        return {}
    records = tx.run(q.RESULT_TURNS, lists={"turns": wanted}, groups=groups)
    return {r["id"]: _turn(r) for r in records}


def _turn(record: Any) -> TurnOut:
    return TurnOut(
        observation_id=record["id"],
        speaker=record["speaker"],
        occurred_at=native(record["occurred_at"]),
        text=record["text"],
        start=record["start"],
        end=min(record["chars"], record["start"] + q.TURN_CHARS),
        chars=record["chars"],
    )


def chains(
    tx: ManagedTransaction, groups: list[str], caller: str, assertion_ids: list[str]
) -> dict[str, Chain]:
    """Assertion id -> the replay of the visible event that wrote it (a remnant: the event
    of the version it was cut from), for the results an event wrote: two statements for all
    the results (one more per remnant hop)."""
    events = replay.causing_events(tx, groups=groups, assertion_ids=assertion_ids)
    if not events:
        return {}
    event_ids = sorted(set(events.values()))
    replays = replay.result_chains(tx, groups=groups, caller=caller, event_ids=event_ids)
    return {aid: replays[eid] for aid, eid in events.items() if eid in replays}
