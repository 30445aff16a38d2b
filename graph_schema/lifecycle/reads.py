"""Read paths of the lifecycle: one task as its caller may see it, and which ids it may read."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from neo4j import Driver, ManagedTransaction

from graph_schema.core.records import native
from graph_schema.core.timeutil import utcnow
from graph_schema.core.types import Principal
from graph_schema.lifecycle import cypher
from graph_schema.lifecycle.types import TaskAnswer, TierCounts, WorkingMemory, task_key


def working_memory(task_id: str, count: int, bound: int) -> WorkingMemory:
    return WorkingMemory(task_id=task_id, count=count, bound=bound, over_bound=count > bound)


def task_answer(task: dict[str, Any], counts: Sequence[dict[str, Any]], bound: int) -> TaskAnswer:
    """A task as one caller sees it (``counts``: its assertions the caller may read, by tier).
    Its ``working_memory.count`` means the same for every caller: the task's assertions in
    working memory now (tier ``short``) that the caller may read, so 0 once the task ended.
    (A write's answer counts what the writer has written into the task, which the bound is
    about: docs/lifecycle.md.) It counted every assertion ever written for the owner and the
    readable working ones for anyone else, a new agent builder's trial found."""
    data = native(dict(task))
    tiers = TierCounts.model_validate({c["tier"]: int(c["n"]) for c in counts})
    return TaskAnswer(
        id=data["id"],
        owner=data["owner"],
        status=data["status"],
        access=list(data.get("access") or []),
        goal=data.get("goal"),
        started_at=data.get("started_at"),
        ended_at=data.get("ended_at"),
        consolidated=bool(data.get("consolidated")),
        counts=tiers,
        working_memory=working_memory(data["id"], tiers.short, bound),
    )


def find_task(
    driver: Driver,
    *,
    database: str,
    principal: Principal,
    task_id: str,
    owner: str | None,
    bound: int,
) -> TaskAnswer | None:
    """The task ``(owner or the caller, task_id)`` if the caller may see it: its owner, or a
    reader of its access list. Anything else is None, exactly like a task that never was."""
    records, _, _ = driver.execute_query(
        cypher.GET_TASK,
        key=task_key(owner or principal.id, task_id),
        caller=principal.id,
        groups=list(principal.groups),
        known_at=utcnow(),
        database_=database,
        routing_="r",
    )
    if not records:
        return None
    return task_answer(records[0]["task"], records[0]["counts"], bound)


def readable(tx: ManagedTransaction, ids: Sequence[str], principal: Principal) -> set[str]:
    """The ids among ``ids`` that name assertions ``principal`` may read."""
    if not ids:
        return set()
    record = tx.run(cypher.VISIBLE_IDS, ids=list(ids), groups=list(principal.groups)).single()
    return set(record["ids"]) if record is not None else set()
