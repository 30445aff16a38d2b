"""The event write path: one step of a task, its causes, and the assertions it wrote.

An event passes the same gate as every write: its own schema, the writer's right to the
access groups it names, then its assertions (``gate.check_batch``), then its causes, which
must be visible to the writer and must not have occurred after it. A cause that does not
exist and one the writer may not see are refused identically. Anything refused is
quarantined and nothing of the event is written; otherwise the Event, its Task, its
``CAUSED_BY`` and ``IN_TASK`` edges and its assertions are written in ONE transaction.

The task is the writer's own (see :mod:`ingest.lifecycle.tasks`): an event into a task of
the writer that has ended is refused (409 ``task_ended``) and nothing is written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from neo4j import Driver, ManagedTransaction

from graph_schema.core.errors import GateRejected, TractatusError
from graph_schema.core.records import as_datetime
from graph_schema.core.timeutil import new_id, parse_rfc3339, utcnow
from graph_schema.core.types import Principal
from graph_schema.events import cypher as q
from graph_schema.events.types import EventOut, EventWrite, EventWritten, ProducedAssertion
from graph_schema.ledger.types import WriteResult
from graph_schema.lifecycle.rules import DEFAULT_BOUND
from graph_schema.lifecycle.types import task_key
from graph_schema.quarantine.types import Retention
from graph_schema.schema.ontology import predicate_map
from ingest import gate, idempotency, writer
from ingest.assertions import embedded
from ingest.embeddings.model import Embedder
from ingest.idempotency import Answer
from ingest.lifecycle.tasks import TaskWrite, enter_tasks, gather
from ingest.writer import Prepared

ORIGIN = "events"
UNKNOWN_CAUSE = "unknown_cause"
CAUSE_AFTER_EFFECT = "cause_after_effect"
# the start of an assertion of the event that sends no valid_from (nor evidence with a time)
OCCURRED = "the event's occurred_at"


class _CausesRefused(TractatusError):
    """Raised inside the write transaction to roll it back; quarantined outside it."""

    def __init__(self, rejections: list[gate.Rejection]) -> None:
        super().__init__("causes refused")
        self.rejections = rejections


def check_event(
    raw: Any, *, principal: Principal, max_future: timedelta = gate.DEFAULT_MAX_FUTURE
) -> EventWrite | gate.Rejection:
    """Schema, access and clock checks of the event itself (causes are checked in the
    write)."""
    return gate.check_record(EventWrite, raw, index=0, principal=principal, max_future=max_future)


def _in_task(item: Any, task_id: str) -> Any:
    """An assertion written by a step belongs to its task unless it says otherwise."""
    if isinstance(item, dict) and "task_id" not in item:
        return {**item, "task_id": task_id}
    return item


def _nested(rejection: gate.Rejection, raw: Any) -> gate.Rejection:
    """An assertion refused inside an event: quarantine the whole event, name the item."""
    return gate.Rejection(
        rejection.index,
        rejection.reason,
        f"assertions[{rejection.index}]: {rejection.message}",
        raw,
    )


def _cause_problems(
    event: EventWrite, found: dict[str, datetime], raw: Any
) -> list[gate.Rejection]:
    occurred = parse_rfc3339(event.occurred_at)
    problems = []
    for cause_id in event.cause_ids():
        when = found.get(cause_id)
        if when is None:
            message = f"cause {cause_id!r} is not a known event"
            problems.append(gate.Rejection(0, UNKNOWN_CAUSE, message, raw))
        elif when > occurred:
            message = (
                f"cause {cause_id!r} occurred at {when.isoformat()}, after this event "
                f"({occurred.isoformat()}): causes are recorded before their effects"
            )
            problems.append(gate.Rejection(0, CAUSE_AFTER_EFFECT, message, raw))
    return problems


def _event_props(
    event: EventWrite, *, event_id: str, now: datetime, principal: Principal
) -> dict[str, Any]:
    return {
        "id": event_id,
        "task_id": event.task_id,
        "actor": event.actor,
        "action": event.action,
        "outcome": event.outcome.value,
        "before": json.dumps(event.before, ensure_ascii=False, sort_keys=True),
        "after": json.dumps(event.after, ensure_ascii=False, sort_keys=True),
        "occurred_at": parse_rfc3339(event.occurred_at),
        "recorded_at": now,
        "access": event.access,
        "root": event.root,
        "written_by": principal.id,
    }


def _produced(result: WriteResult) -> ProducedAssertion:
    a = result.assertion
    return ProducedAssertion(
        id=a.id,
        subject=a.subject,
        predicate=a.predicate,
        object=a.object,
        polarity=a.polarity,
        source_kind=a.source_kind.value,
        quote=a.evidence[0].quote if a.evidence else None,
    )


def _task_writes(event: EventWrite, prepared: list[Prepared]) -> dict[str, TaskWrite]:
    """The event's own task (its card: the event's access and goal) and every task its
    assertions name, with the working assertions each receives."""
    tasks = gather((p.item.task_id, p.item.access) for p in prepared)
    own = tasks.get(event.task_id)
    tasks[event.task_id] = TaskWrite(
        event.task_id, tuple(event.access), event.goal, own.working if own else 0
    )
    return tasks


def _write(
    tx: ManagedTransaction,
    event: EventWrite,
    raw: Any,
    prepared: list[Prepared],
    principal: Principal,
    bound: int,
    key: idempotency.Key | None,
) -> EventWritten:
    idempotency.claim(tx, key)  # first: a racing twin waits here, then replays
    causes = event.cause_ids()
    found = {
        r["id"]: as_datetime(r["occurred_at"])
        for r in tx.run(q.FIND_CAUSES, ids=causes, groups=list(principal.groups))
    }
    problems = _cause_problems(event, {k: v for k, v in found.items() if v is not None}, raw)
    if problems:
        raise _CausesRefused(problems)
    working = enter_tasks(tx, principal, _task_writes(event, prepared), bound=bound)
    event_id = new_id()
    prepared, now = writer.begin(tx, prepared) if prepared else (prepared, utcnow())
    props = _event_props(event, event_id=event_id, now=now, principal=principal)
    linked = tx.run(
        q.CREATE_EVENT,
        task_key=task_key(principal.id, event.task_id),
        props=props,
        causes=causes,
    ).single(strict=True)["linked"]
    if linked != len(causes):
        raise TractatusError("a cause vanished while the event was written")
    results = writer.write_in_tx(
        tx, prepared, principal=principal, caused_by_event=event_id, working=working, begun=now
    )
    out = EventOut.model_validate(
        {
            **props,
            "before": event.before,
            "after": event.after,
            "caused_by": sorted(causes),
            "assertions": [_produced(r) for r in results],
        }
    )
    written = EventWritten(event=out, assertions=results, working_memory=working[event.task_id])
    idempotency.remember(tx, key, written.model_dump_json())
    return written


@dataclass(frozen=True)
class _Call:
    """What each step of one :func:`record_event` needs: the store, the writer, and how long
    what it refuses is kept in quarantine."""

    driver: Driver
    database: str
    principal: Principal
    retention: Retention

    def refuse(self, rejections: list[gate.Rejection]) -> GateRejected:
        """The refusal of the whole event, its rejections quarantined
        (:func:`ingest.gate.refuse` for this path's origin)."""
        return gate.refuse(
            self.driver,
            database=self.database,
            rejections=rejections,
            origin=ORIGIN,
            principal=self.principal,
            retention=self.retention,
        )


def _checked(call: _Call, raw: Any, max_future: timedelta) -> EventWrite:
    """The event through its own checks (:func:`check_event`); refused, it is quarantined and
    raised as GateRejected."""
    checked = check_event(raw, principal=call.principal, max_future=max_future)
    if isinstance(checked, gate.Rejection):
        raise call.refuse([checked])
    return checked


def _gated_assertions(
    call: _Call, event: EventWrite, raw: Any, embedder: Embedder | None
) -> list[Prepared]:
    """The event's assertions through the gate and their sources, prepared (the valid time
    each is written with checked: :func:`ingest.gate.backwards`) and embedded as the writer
    takes them; anything refused quarantines the whole event (GateRejected)."""
    driver, database, principal = call.driver, call.database, call.principal
    ontology = predicate_map(driver, database=database) if event.assertions else {}
    items = [_in_task(item, event.task_id) for item in event.assertions]
    accepted, rejected = gate.check_batch(items, ontology=ontology, principal=principal)
    requirements: list[tuple[str, ...]] = []
    if not rejected:
        accepted, rejected, requirements = gate.check_sources(
            driver, database=database, items=accepted, principal=principal
        )
    prepared: list[Prepared] = []
    if not rejected:
        prepared = writer.prepare(
            accepted,
            ontology=ontology,
            default_valid_from=parse_rfc3339(event.occurred_at),
            source_access=requirements,
        )
        rejected = gate.backwards(prepared, raw_items=items, default=OCCURRED)
    if rejected:
        raise call.refuse([_nested(r, raw) for r in rejected])
    return embedded(prepared, embedder)


def _written(
    call: _Call,
    event: EventWrite,
    raw: Any,
    prepared: list[Prepared],
    bound: int,
    key: idempotency.Key | None,
) -> EventWritten:
    """The event written in one transaction (:func:`_write`); causes it refuses are
    quarantined and raised as GateRejected, nothing written."""
    try:
        with call.driver.session(database=call.database) as session:
            return session.execute_write(_write, event, raw, prepared, call.principal, bound, key)
    except _CausesRefused as refused:
        raise call.refuse(refused.rejections) from None


def _replayed(stored: str) -> Answer[EventWritten]:
    """The first answer of this key (stored, or a racing twin's), replayed: nothing written."""
    return Answer(EventWritten.model_validate_json(stored), replayed=True)


def record_event(
    driver: Driver,
    *,
    database: str,
    raw: Any,
    principal: Principal,
    retention: Retention,
    bound: int = DEFAULT_BOUND,
    idempotency_key: str | None = None,
    embedder: Embedder | None = None,
    max_future: timedelta = gate.DEFAULT_MAX_FUTURE,
) -> Answer[EventWritten]:
    """Validate and write one event with its assertions; refused input is quarantined and
    raised as GateRejected, a moved-on slot as PreconditionFailed, an ended task as
    TaskEnded (nothing written). ``bound`` is the working-memory bound. With an
    ``idempotency_key`` this caller used before for the same event, the first answer is
    replayed and nothing is written (for another event: PreconditionFailed)."""
    key = idempotency.Key.of(principal, idempotency_key, ORIGIN, raw)
    stored = idempotency.stored_answer(driver, database=database, key=key)
    if stored is not None:
        return _replayed(stored)
    call = _Call(driver, database, principal, retention)
    event = _checked(call, raw, max_future)
    prepared = _gated_assertions(call, event, raw, embedder)
    try:
        written = _written(call, event, raw, prepared, bound, key)
    except idempotency.TwinWon as twin:
        return _replayed(twin.response)
    gate.count_accepted(ORIGIN, 1 + len(written.assertions))
    return Answer(written)
