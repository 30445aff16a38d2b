"""Plan recall's statements before the first caller needs them.

Neo4j plans a statement the first time it sees its text with parameters of those types and
size classes (a string or a list of one, of two to ten, of eleven to a hundred... each class
planned apart: graph_schema/recall/cypher.py) and keeps the plan for the life of the
database. On a store just started, the first recall planned its statements and opened
their indexes while the caller waited: 9 s on the reference machine with nothing else
running, 15-29 s with a load beside it, where the next recalls took 0.1-0.3 s.

:func:`warm` runs every statement recall can run, in the shapes its callers give: no filter,
a conversation, a task or a subject (each with an identifier of the two common lengths),
English and CJK text, exact and index vector lists, the graph and result statements; and for
each number of groups the configured principals have. It runs as a principal of its own, and
the identifiers match nothing, so the scoped shapes read nothing; the shape without a filter
reads what a principal may read, as any recall would, and its rows are dropped. Nothing is
returned to anyone, written, or counted in the access log. The server calls it once at
start, in the background (docs/recall.md, "A store just started"); on a database that has
planned them already, it takes a fraction of a second.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterable
from datetime import UTC, datetime

from neo4j import Driver, ManagedTransaction

from graph_schema.core.types import Principal
from graph_schema.recall import pipeline
from graph_schema.recall.fusion import FusionConfig
from graph_schema.recall.types import RecallFilters

_TEXTS = ("warm up the plans", "预热查询计划")  # English and CJK: their full-text indexes differ
_LENGTHS = (8, 40)  # identifiers of 2-10 and of 11-100 characters: two size classes


def size_class(n: int) -> int:
    """The smallest length of ``n``'s size class: 0, 1, 2-10, 11-100, 101-1000..."""
    if n <= 1:
        return n
    low, above = 2, 11
    while n >= above:
        low, above = above, (above - 1) * 10 + 1
    return low


def group_classes(counts: Iterable[int]) -> list[int]:
    """One number of groups per size class among ``counts`` (principals' group counts)."""
    return sorted({size_class(n) for n in counts})


def _shapes() -> list[RecallFilters]:
    """The filter shapes, the most common first (an agent's recall is mostly scoped to its
    conversation): most statements read no scope, so the first shape plans them for all."""
    ids = [(uuid.uuid4().hex * 2)[:length] for length in _LENGTHS]  # random: they name no scope
    return [
        *(RecallFilters(conversation_id=i) for i in ids),
        RecallFilters(),
        *(RecallFilters(task_id=i) for i in ids),
        *(RecallFilters(subject=i) for i in ids),
    ]


def _statements(
    tx: ManagedTransaction, principal: Principal, query: pipeline.RecallQuery, config: FusionConfig
) -> None:
    p = pipeline.parameters(principal, query, config.exact_limit)
    pipeline.candidate_lists(tx, p, query, config)  # the exact scan, where it applies
    pipeline.candidate_lists(tx, {**p, "exact_limit": 0}, query, config)  # the index query
    nothing = [f"tractatus-warm-up-{uuid.uuid4().hex}"]
    pipeline.neighbours(tx, p, nothing)
    pipeline.fetch_results(tx, p, nothing)
    pipeline.fetch_assertions(tx, p, nothing)


def warm(
    driver: Driver,
    *,
    database: str,
    config: FusionConfig,
    dimensions: int | None,
    group_counts: Iterable[int] = (0,),
    stop: threading.Event | None = None,
) -> int:
    """Run recall's statements once in each shape (``dimensions``: the query vector's, None
    when the server embeds nothing; ``group_counts``: how many groups the principals have);
    the number of shapes run. Stops between shapes once ``stop`` is set."""
    now = datetime.now(UTC)
    vector = None if dimensions is None else [1.0] + [0.0] * (dimensions - 1)
    runs = 0
    shapes = _shapes()
    with driver.session(database=database, default_access_mode="READ") as session:
        for count in group_classes(group_counts):
            groups = tuple(f"tractatus-warm-up-{i}" for i in range(count))
            principal = Principal(id="tractatus-warm-up", groups=groups)
            for filters in shapes:
                for text in _TEXTS:
                    if stop is not None and stop.is_set():
                        return runs
                    query = pipeline.RecallQuery(text, 10, now, now, filters, vector).searched()
                    session.execute_read(_statements, principal, query, config)
                    runs += 1
    return runs
