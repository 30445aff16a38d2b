"""Read paths of ordered memory: one event, causal replays, task timelines, ``why``.

Every read runs in a read transaction and filters by the caller's groups inside the query:
a replay only walks through visible events, so a chain that reaches an event the reader may
not see stops there, exactly as if the chain ended.
"""

from __future__ import annotations

import json
from collections import deque
from datetime import UTC, datetime, timedelta
from typing import Any

from neo4j import READ_ACCESS, Driver, ManagedTransaction

from graph_schema.core.records import native
from graph_schema.core.types import Principal, Status, Tier
from graph_schema.events import cypher as q
from graph_schema.events.types import (
    Chain,
    ChainEdge,
    Direction,
    EventOut,
    Explanation,
    ProducedAssertion,
    TaskOut,
    WhyAnswer,
)
from graph_schema.ledger import reads
from graph_schema.lifecycle import access

DEFAULT_MAX_DEPTH = 1_000
MAX_DEPTH_CAP = 10_000
MAX_REMNANT_HOPS = 64


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _state(text: Any) -> dict[str, Any]:
    if not isinstance(text, str):
        return {}
    value = json.loads(text)
    return value if isinstance(value, dict) else {}


def _instant(micros: Any) -> datetime:
    return EPOCH + timedelta(microseconds=int(micros))


def event_out(props: dict[str, Any], *, depth: int | None = None) -> EventOut:
    """Build an EventOut from a map made by ``cypher_events._EVENT_MAP``."""
    return EventOut(
        depth=depth,
        id=props["id"],
        task_id=props["task_id"],
        actor=props["actor"],
        action=props["action"],
        outcome=props["outcome"],
        occurred_at=_instant(props["occurred_us"]),
        recorded_at=_instant(props["recorded_us"]),
        before=_state(props.get("before")),
        after=_state(props.get("after")),
        access=list(props.get("access") or []),
        written_by=props.get("written_by"),
        caused_by=sorted(props["caused_by"]),
        assertions=sorted(
            (ProducedAssertion.model_validate(a) for a in props["assertions"]),
            key=lambda a: (a.subject, a.predicate, a.id),
        ),
    )


def get_event(
    driver: Driver, *, database: str, principal: Principal, event_id: str
) -> EventOut | None:
    records, _, _ = driver.execute_query(
        q.GET_EVENT,
        id=event_id,
        groups=list(principal.groups),
        caller=principal.id,
        database_=database,
        routing_="r",
    )
    return event_out(records[0]["event"]) if records else None


def _depths(start: str, neighbours: dict[str, list[str]]) -> dict[str, int]:
    """Breadth-first hop counts from ``start`` over the replayed subgraph."""
    depth = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in neighbours.get(node, ()):
            if nxt not in depth:
                depth[nxt] = depth[node] + 1
                queue.append(nxt)
    return depth


def _time_key(row: dict[str, Any]) -> tuple[int, int, str]:
    """Causes sort before their effects: a cause never occurred later and was recorded
    earlier (it had to exist when the effect was written)."""
    return int(row["occurred_us"]), int(row["recorded_us"]), str(row["id"])


def _assemble(
    start: str, rows: dict[str, dict[str, Any]], *, direction: Direction, max_depth: int
) -> Chain:
    """Cut the replayed subgraph at ``max_depth`` hops and order it by time."""
    edges = [(eid, c) for eid, row in rows.items() for c in row["caused_by"] if c in rows]
    forward: dict[str, list[str]] = {}
    for effect, cause in edges:
        a, b = (effect, cause) if direction is Direction.causes else (cause, effect)
        forward.setdefault(a, []).append(b)
    depth = _depths(start, forward)
    kept = {eid for eid, d in depth.items() if d <= max_depth}
    onward = "caused_by" if direction is Direction.causes else "effects"
    truncated = any(n not in kept for eid in kept for n in rows[eid][onward])
    ordered = sorted(
        (rows[eid] for eid in kept), key=_time_key, reverse=direction is Direction.causes
    )
    position = {row["id"]: i for i, row in enumerate(ordered)}
    chain_edges = sorted(
        ((f, t) for f, t in edges if f in kept and t in kept),
        key=lambda edge: (position[edge[0]], position[edge[1]]),
    )
    return Chain(
        events=[event_out(row, depth=depth[row["id"]]) for row in ordered],
        edges=[ChainEdge(from_=f, to=t) for f, t in chain_edges],
        truncated=truncated,
    )


def chain(
    driver: Driver,
    *,
    database: str,
    principal: Principal,
    event_id: str,
    direction: Direction = Direction.causes,
    max_depth: int = DEFAULT_MAX_DEPTH,
    recorder: access.AccessRecorder | None = None,
) -> Chain | None:
    """The causal replay from a visible event; None when the start is unknown or invisible.

    Causes come newest first (the event, its causes, ..., the roots); effects oldest first.
    Cost grows with the replayed subgraph: an index seek, then a breadth-first expansion
    that visits each visible event once. The assertions its steps wrote are counted in the
    access log.
    """
    depth = max(0, min(max_depth, MAX_DEPTH_CAP))
    statement, _ = q.chain_statement(direction.value, depth)
    records, _, _ = driver.execute_query(
        statement,
        id=event_id,
        groups=list(principal.groups),
        caller=principal.id,
        database_=database,
        routing_="r",
    )
    rows = {row["id"]: row for row in (records[0]["events"] if records else [])}
    if not rows:
        return None
    replay = _assemble(event_id, rows, direction=direction, max_depth=depth)
    access.record(recorder, produced_ids(replay))
    return replay


RESULT_CHAIN_DEPTH = q.RESULT_CHAIN_BOUND


def result_chains(
    tx: ManagedTransaction, *, groups: list[str], caller: str, event_ids: list[str]
) -> dict[str, Chain]:
    """The causes of each visible event, newest first, within :data:`RESULT_CHAIN_DEPTH`
    hops, in one statement (recall's results); an invisible or unknown event is left out."""
    found: dict[str, Chain] = {}
    for record in tx.run(q.RESULT_CHAINS, ids=event_ids, groups=groups, caller=caller):
        rows = {row["id"]: row for row in record["events"]}
        if rows:
            found[record["id"]] = _assemble(
                record["id"], rows, direction=Direction.causes, max_depth=RESULT_CHAIN_DEPTH
            )
    return found


def produced_ids(replay: Chain) -> list[str]:
    """The assertions the replayed steps wrote (those the reader may see)."""
    return sorted({a.id for e in replay.events for a in e.assertions})


def timeline(
    driver: Driver,
    *,
    database: str,
    principal: Principal,
    task_id: str,
    limit: int,
    owner: str | None = None,
    recorder: access.AccessRecorder | None = None,
) -> tuple[TaskOut | None, list[EventOut], bool]:
    """The visible events of a task id in time order (at most ``limit``; of every writer's
    task of that id, or of ``owner``'s only), the task, and whether more visible events
    exist. The assertions the steps wrote are counted in the access log."""
    groups = list(principal.groups)
    records, _, _ = driver.execute_query(
        q.TASK_TIMELINE,
        task_id=task_id,
        owner=owner,
        limit=limit + 1,
        groups=groups,
        caller=principal.id,
        database_=database,
        routing_="r",
    )
    events = [event_out(row) for row in (records[0]["events"] if records else [])]
    # the task is read with or without steps: a task the caller may read that has none yet
    # answers with its card and no steps (it answered not_found, as for no task)
    tasks, _, _ = driver.execute_query(
        q.GET_TASK,
        task_id=task_id,
        owner=owner,
        caller=principal.id,
        groups=groups,
        database_=database,
        routing_="r",
    )
    if not events and not (tasks and tasks[0]["known"]):
        return None, [], False
    task = TaskOut.model_validate(native(dict(tasks[0]["task"]))) if tasks else None
    shown = events[:limit]
    access.record(recorder, sorted({a.id for e in shown for a in e.assertions}))
    return task, shown, len(events) > limit


def causing_event(
    driver: Driver, *, database: str, principal: Principal, assertion_id: str
) -> str | None:
    """The visible event that wrote an assertion. A copy answers with the event of the version
    it copies: a remnant (a trimmed copy made when a later version cut into it) with the one
    it was cut from, a restoration (a displaced version given its place back when the guess
    that displaced it was discarded) with the one it restores; a new user's trial found a
    restored fact answering *why* with no step while the fact it restored had one."""
    with driver.session(database=database, default_access_mode=READ_ACCESS) as session:
        found = session.execute_read(
            causing_events, groups=list(principal.groups), assertion_ids=[assertion_id]
        )
    return found.get(assertion_id)


def causing_events(
    tx: ManagedTransaction, *, groups: list[str], assertion_ids: list[str]
) -> dict[str, str]:
    """:func:`causing_event` of each assertion, in one query per copy hop: assertion id ->
    event id, for those a visible event wrote."""
    found: dict[str, str] = {}
    pending = {aid: aid for aid in assertion_ids}  # asked -> the version read next
    for _ in range(MAX_REMNANT_HOPS):
        if not pending:
            break
        ids = sorted(set(pending.values()))
        rows = {r["id"]: r for r in tx.run(q.ASSERTION_ORIGINS, ids=ids, groups=groups)}
        onward = {}
        for asked, current in pending.items():
            row = rows.get(current)
            if row is not None and row["events"]:
                found[asked] = str(sorted(row["events"])[0])
            elif row is not None and row["copied_from"] is not None:
                onward[asked] = row["copied_from"]
        pending = onward
    return found


def why(
    driver: Driver,
    *,
    database: str,
    principal: Principal,
    subject: str,
    predicate: str,
    as_of: datetime,
    known_at: datetime,
    max_depth: int = DEFAULT_MAX_DEPTH,
    tiers: tuple[Tier, ...] = reads.DEFAULT_TIERS,
    recorder: access.AccessRecorder | None = None,
) -> list[Explanation]:
    """Each current fact of a slot with the event that wrote it and that event's causes;
    the facts and the assertions of the replayed steps are counted in the access log."""
    facts = reads.current_facts(
        driver,
        database=database,
        principal=principal,
        subject=subject,
        predicate=predicate,
        as_of=as_of,
        known_at=known_at,
        tiers=tiers,
    )
    explanations = []
    for fact in facts:
        event_id = causing_event(
            driver, database=database, principal=principal, assertion_id=fact.id
        )
        replay = (
            chain(
                driver,
                database=database,
                principal=principal,
                event_id=event_id,
                direction=Direction.causes,
                max_depth=max_depth,
            )
            if event_id is not None
            else None
        )
        events = replay.events if replay is not None else []
        event = next((e for e in events if e.id == event_id), None)
        explanations.append(Explanation(fact=fact, event=event, chain=replay))
    shown = access.returned(facts) + [
        i for x in explanations if x.chain is not None for i in produced_ids(x.chain)
    ]
    access.record(recorder, sorted(set(shown)))
    return explanations


def why_answer(
    driver: Driver,
    *,
    database: str,
    principal: Principal,
    subject: str,
    predicate: str,
    as_of: datetime,
    known_at: datetime,
    max_depth: int = DEFAULT_MAX_DEPTH,
    recorder: access.AccessRecorder | None = None,
) -> WhyAnswer:
    """``GET /v1/facts/why``: the explanations of a slot's current facts, answered, not found
    or out of scope (a predicate the ontology does not track)."""
    status, explanations = Status.out_of_scope, []
    if reads.in_scope(driver, database=database, predicate=predicate):
        explanations = why(
            driver,
            database=database,
            principal=principal,
            subject=subject,
            predicate=predicate,
            as_of=as_of,
            known_at=known_at,
            max_depth=min(max_depth, MAX_DEPTH_CAP),
            recorder=recorder,
        )
        status = Status.answered if explanations else Status.not_found
    return WhyAnswer(
        status=status,
        subject=subject,
        predicate=predicate,
        explanations=explanations,
        as_of=as_of,
        known_at=known_at,
    )
