"""Tasks on the write path: every write that names a task enters the writer's own task.

A task is (owner, task_id): a write's ``task_id`` always means the writer's own task, created
if missing inside the write's transaction, so another principal's task can never be written
into, and a write learns nothing about tasks of others. Entering locks the Task node (by
bumping its counters), which is also how a write and the end of the task are ordered: a
write into an ended task is refused (:class:`TaskEnded`, 409) and nothing is written.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from neo4j import Driver, ManagedTransaction

from graph_schema.core.errors import PermissionDenied, TaskConflict, TaskEnded
from graph_schema.core.timeutil import to_rfc3339, utcnow
from graph_schema.core.types import Principal
from graph_schema.lifecycle import cypher
from graph_schema.lifecycle.reads import find_task, task_answer, working_memory
from graph_schema.lifecycle.types import TaskAnswer, TaskStart, WorkingMemory, task_key


@dataclass(frozen=True)
class TaskWrite:
    """What one transaction writes into one task: its card if it starts it, and how many
    working assertions it adds."""

    task_id: str
    access: tuple[str, ...] = ()
    goal: str | None = None
    working: int = 0


def gather(items: Iterable[tuple[str | None, Iterable[str]]]) -> dict[str, TaskWrite]:
    """One TaskWrite per task id of (task_id, access) items: the first item's access starts
    the task, and each item adds one working assertion."""
    found: dict[str, TaskWrite] = {}
    for task_id, access in items:
        if task_id is None:
            continue
        first = found.get(task_id) or TaskWrite(task_id, tuple(access))
        found[task_id] = TaskWrite(first.task_id, first.access, first.goal, first.working + 1)
    return found


def ended(task_id: str) -> TaskEnded:
    return TaskEnded(
        f"task {task_id!r} has ended: it takes no more writes (start another task)",
        details={"task_id": task_id},
    )


def enter_tasks(
    tx: ManagedTransaction,
    principal: Principal,
    writes: Mapping[str, TaskWrite],
    *,
    bound: int,
) -> dict[str, WorkingMemory]:
    """Enter (create if missing) and lock the writer's tasks, in key order; refuse an ended
    one. Returns each task's working memory after this write."""
    if not writes:
        return {}
    now = to_rfc3339(utcnow())
    rows = sorted(
        (
            {
                "key": task_key(principal.id, w.task_id),
                "id": w.task_id,
                "owner": principal.id,
                "access": sorted(w.access),
                "goal": w.goal,
                "working": w.working,
                "now": now,
            }
            for w in writes.values()
        ),
        key=lambda row: str(row["key"]),
    )
    tx.run(cypher.LOCK_TASKS, keys=[row["key"] for row in rows]).consume()
    memory: dict[str, WorkingMemory] = {}
    goals = {task_key(principal.id, w.task_id): w.goal for w in writes.values()}
    for record in tx.run(cypher.ENTER_TASKS, tasks=rows):
        if record["status"] == "ended":
            raise ended(record["id"])
        goal = goals.get(record["key"])
        if goal is not None and goal != record["goal"]:
            # an event naming another goal than its task's (a new agent developer's trial: the
            # goal of every event after the first was dropped without a word), as a start
            raise TaskConflict(
                f"task {record['id']!r} exists with another goal",
                details={"goal": record["goal"], "access": list(record["access"] or [])},
            )
        memory[record["id"]] = working_memory(record["id"], int(record["working"]), bound)
    return memory


def _start(
    tx: ManagedTransaction, principal: Principal, request: TaskStart, now: datetime
) -> tuple[dict[str, Any], bool]:
    record = tx.run(
        cypher.START_TASK,
        key=task_key(principal.id, request.task_id),
        id=request.task_id,
        owner=principal.id,
        access=list(request.access),
        goal=request.goal,
        now=now,
    ).single(strict=True)
    return dict(record["task"]), bool(record["created"])


def start_task(
    driver: Driver, *, database: str, principal: Principal, request: TaskStart, bound: int
) -> tuple[TaskAnswer, bool]:
    """Start the caller's task explicitly; True when it was created. Starting it again with
    the same goal and access is a no-op; with another one, or once ended, it is refused. Its
    access may only name groups the caller belongs to (an admin's too), like a write's."""
    outside = [g for g in request.access if g not in principal.groups]
    if outside:
        raise PermissionDenied(
            "access may only name groups the caller belongs to", details={"groups": outside}
        )
    with driver.session(database=database) as session:
        task, created = session.execute_write(_start, principal, request, utcnow())
    card = task_answer(task, [], bound)
    if not created:
        if card.status == "ended":
            raise ended(request.task_id)
        if card.goal != request.goal or card.access != list(request.access):
            raise TaskConflict(
                f"task {request.task_id!r} exists with another goal or access",
                details={"goal": card.goal, "access": card.access},
            )
    answer = find_task(
        driver,
        database=database,
        principal=principal,
        task_id=request.task_id,
        owner=None,
        bound=bound,
    )
    return answer or card, created
