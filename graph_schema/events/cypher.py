"""Every Cypher statement of ordered memory: events, causal chains, task timelines, checks.

Values travel as ``$parameters``. Variable-length bounds cannot be parameters in Cypher, so
chain replays are prebuilt for a fixed ladder of depth bounds (:data:`CHAIN_BOUNDS`); the
reader picks the smallest bound that covers the requested depth and cuts exactly in Python.
"""

from __future__ import annotations

from graph_schema.core.cypher import shown_task_id, task_shown, visible

# --- writes ---------------------------------------------------------------------------------

FIND_CAUSES = (
    """
UNWIND $ids AS cause_id
MATCH (cause:Event {id: cause_id})
WHERE """
    + visible("cause")
    + """
RETURN cause.id AS id, cause.occurred_at AS occurred_at
"""
)

# A failed step also carries the label :Failed, for display only (Neo4j Browser's style can
# select on labels, not on property values: docs/browser.md); reads use `outcome`.
# The event's task (the writer's own, see lifecycle.cypher.ENTER_TASKS) is entered and locked
# earlier in the same transaction.
CREATE_EVENT = """
MATCH (t:Task {key: $task_key})
CREATE (e:Event)
SET e = $props
FOREACH (_ IN CASE WHEN e.outcome = 'failure' THEN [1] ELSE [] END | SET e:Failed)
CREATE (e)-[:IN_TASK]->(t)
WITH e
UNWIND $causes AS cause_id
MATCH (cause:Event {id: cause_id})
CREATE (e)-[:CAUSED_BY]->(cause)
RETURN count(cause) AS linked
"""

# Trusted bulk loader (benchmarks, imports of already-validated logs): bypasses the gate.
# Each item is {props: {...event properties...}, causes: [ids], task_key: owner + "\x1f" +
# task id}; a cause may be an earlier item of the same batch.
BULK_LOAD_EVENTS = """
UNWIND $events AS item
MERGE (t:Task {key: item.task_key})
ON CREATE SET t.id = item.props.task_id, t.owner = item.props.written_by,
              t.started_at = item.props.occurred_at, t.access = item.props.access,
              t.created_at = item.props.recorded_at, t.status = 'open', t.working = 0,
              t.writes = 0
CREATE (e:Event)
SET e = item.props
FOREACH (_ IN CASE WHEN e.outcome = 'failure' THEN [1] ELSE [] END | SET e:Failed)
CREATE (e)-[:IN_TASK]->(t)
WITH e, item
UNWIND item.causes AS cause_id
MATCH (cause:Event {id: cause_id})
CREATE (e)-[:CAUSED_BY]->(cause)
RETURN count(*) AS linked
"""

# --- reads ----------------------------------------------------------------------------------


def _micros(prop: str) -> str:
    """A DATETIME as integer microseconds since the epoch (the driver decodes ints far
    faster than temporal values, which matters for 1,000-step replays)."""
    return f"e.{prop}.epochSeconds * 1000000 + e.{prop}.microsecond"


# One event as a map: its properties, its visible direct causes, the visible assertions it
# wrote. Results are collected into ONE record: per-record overhead dominates long replays.
# ``task_id``: null for a reader who may not see the step's task (``shown_task_id``): a
# public step of a team-only task named it to everyone (every statement reading it takes
# ``$caller``)
_EVENT_MAP = (
    """e {.id, .actor, .action, .outcome, .before, .after, .access, .written_by,
    task_id: """
    + shown_task_id("e")
    + """,
    occurred_us: """
    + _micros("occurred_at")
    + """,
    recorded_us: """
    + _micros("recorded_at")
    + """,
    caused_by: [(e)-[:CAUSED_BY]->(cause:Event) WHERE """
    + visible("cause")
    + """ | cause.id],
    assertions: [(a:Assertion)-[:CAUSED_BY]->(e) WHERE """
    + visible("a")
    + """ |
      a {.id, .subject, .predicate, .object, .polarity, .source_kind,
         quote: [(a)-[:EVIDENCED_BY]->(ev:Evidence) WHERE """
    + visible("ev")
    + """ | ev.quote][0]}]"""
)

_WITH_EFFECTS = (
    """,
    effects: [(effect:Event)-[:CAUSED_BY]->(e) WHERE """
    + visible("effect")
    + """ | effect.id]"""
)

GET_EVENT = (
    """
MATCH (e:Event {id: $id})
WHERE """
    + visible("e")
    + """
RETURN """
    + _EVENT_MAP
    + """} AS event
"""
)

# A timeline is a view by task id across writers (``$owner`` narrows it to one writer's
# task) of the tasks of that id the caller may see (``task_shown``: a task id the caller may
# not see answers as one that does not exist); each event shows only to readers of its own
# access list.
TASK_TIMELINE = (
    """
MATCH (e:Event {task_id: $task_id})
WHERE ($owner IS NULL OR e.written_by = $owner) AND """
    + visible("e")
    + " AND "
    + task_shown("e")
    + """
WITH e ORDER BY e.occurred_at, e.recorded_at, e.id
LIMIT $limit
RETURN collect("""
    + _EVENT_MAP
    + """}) AS events
"""
)

# A task's start is the first event the reader can see, and its goal shows only to those who
# may see a task of that id (its owner first): a stored start taken from a hidden first event
# would reveal that event.
GET_TASK = (
    """
OPTIONAL MATCH (e:Event {task_id: $task_id})
  WHERE ($owner IS NULL OR e.written_by = $owner) AND """
    + visible("e")
    + " AND "
    + task_shown("e")
    + """
WITH min(e.occurred_at) AS first_seen
WITH first_seen, COLLECT {
  MATCH (t:Task {id: $task_id})
  WHERE ($owner IS NULL OR t.owner = $owner) AND (t.owner = $caller OR """
    + visible("t")
    + """)
  RETURN t ORDER BY CASE WHEN t.owner = $caller THEN 0 ELSE 1 END, t.started_at, t.key
} AS tasks
RETURN {id: $task_id, started_at: first_seen,
        goal: [t IN tasks WHERE t.goal IS NOT NULL | t.goal][0]} AS task,
       size(tasks) > 0 AS known
"""
)

# The visible events that wrote each assertion, and the version it was copied from: the one a
# remnant was cut from, or the one a restoration restores (docs/lifecycle.md "Restoration").
ASSERTION_ORIGINS = (
    """
UNWIND $ids AS id
MATCH (a:Assertion {id: id})
RETURN a.id AS id, coalesce(a.remnant_of, a.restored_from) AS copied_from,
       [(a)-[:CAUSED_BY]->(e:Event) WHERE """
    + visible("e")
    + """ | e.id] AS events
"""
)

CHAIN_BOUNDS: tuple[int, ...] = (1, 3, 10, 30, 100, 300, 1_000, 3_000, 10_000)

_PATTERNS = {
    "causes": "(s)-[:CAUSED_BY*0..{bound}]->(n:Event)",
    "effects": "(s)<-[:CAUSED_BY*0..{bound}]-(n:Event)",
}


def _replayed(direction: str, bound: int) -> str:
    """From a visible start ``s``: the visible events ``e`` a replay reaches within ``bound``
    hops through visible events only."""
    return (
        "MATCH p = "
        + _PATTERNS[direction].format(bound=int(bound))
        + """
WHERE all(x IN nodes(p) WHERE """
        + visible("x")
        + """)
WITH DISTINCT n AS e
"""
    )


def _collected(direction: str) -> str:
    return (
        "collect(" + _EVENT_MAP + (_WITH_EFFECTS if direction == "effects" else "") + "}) AS events"
    )


def _chain_statement(direction: str, bound: int) -> str:
    return (
        """
MATCH (s:Event {id: $id})
WHERE """
        + visible("s")
        + "\n"
        + _replayed(direction, bound)
        + "RETURN "
        + _collected(direction)
        + "\n"
    )


CHAIN: dict[tuple[str, int], str] = {
    (direction, bound): _chain_statement(direction, bound)
    for direction in _PATTERNS
    for bound in CHAIN_BOUNDS
}

# The causes of several events in one statement (recall's results, each with the chain of the
# event that wrote it), within RESULT_CHAIN_BOUND hops.
RESULT_CHAIN_BOUND = 10
RESULT_CHAINS = (
    """
UNWIND $ids AS id
MATCH (s:Event {id: id})
WHERE """
    + visible("s")
    + """
CALL (s) {
"""
    + _replayed("causes", RESULT_CHAIN_BOUND)
    + "RETURN "
    + _collected("causes")
    + """
}
RETURN id, events
"""
)


def chain_statement(direction: str, max_depth: int) -> tuple[str, int]:
    """The prebuilt replay covering ``max_depth`` hops, and its bound."""
    bound = next((b for b in CHAIN_BOUNDS if b >= max_depth), CHAIN_BOUNDS[-1])
    return CHAIN[(direction, bound)], bound


# --- chain check (the `tractatus check-chains` audit) ---------------------------------------

_SAMPLE = """
WITH collect(problem) AS problems
RETURN size(problems) AS total, problems[..$limit] AS sample
"""

CHECK_MISSING_CAUSES = (
    """
MATCH (e:Event)
WHERE coalesce(e.root, false) = false AND NOT (e)-[:CAUSED_BY]->(:Event)
WITH {event: e.id, task_id: e.task_id} AS problem
"""
    + _SAMPLE
)

CHECK_ROOT_WITH_CAUSES = (
    """
MATCH (e:Event {root: true})-[:CAUSED_BY]->(cause)
WITH {event: e.id, task_id: e.task_id, cause: cause.id} AS problem
"""
    + _SAMPLE
)

CHECK_CAUSE_NOT_EVENT = (
    """
MATCH (e:Event)-[:CAUSED_BY]->(x)
WHERE NOT x:Event OR x.id IS NULL
WITH {event: e.id, task_id: e.task_id, cause_labels: labels(x)} AS problem
"""
    + _SAMPLE
)

CHECK_CAUSE_AFTER_EFFECT = (
    """
MATCH (e:Event)-[:CAUSED_BY]->(cause:Event)
WHERE cause.occurred_at > e.occurred_at OR cause.recorded_at > e.recorded_at
   OR cause.occurred_at IS NULL OR e.occurred_at IS NULL
WITH {event: e.id, task_id: e.task_id, cause: cause.id,
      cause_occurred_at: toString(cause.occurred_at),
      event_occurred_at: toString(e.occurred_at)} AS problem
"""
    + _SAMPLE
)

CHECK_CAUSE_HIDDEN_FROM_READERS = (
    """
MATCH (e:Event)-[:CAUSED_BY]->(cause:Event)
WHERE size(cause.access) > 0
  AND (size(e.access) = 0 OR none(g IN cause.access WHERE g IN e.access))
WITH {event: e.id, task_id: e.task_id, cause: cause.id,
      event_access: e.access, cause_access: cause.access} AS problem
"""
    + _SAMPLE
)

CHECK_EVENT_WITHOUT_TASK = (
    """
MATCH (e:Event)
WHERE NOT (e)-[:IN_TASK]->(:Task {id: e.task_id})
WITH {event: e.id, task_id: e.task_id} AS problem
"""
    + _SAMPLE
)

CHECK_ASSERTION_CAUSE_MISSING = (
    """
MATCH (a:Assertion)-[:CAUSED_BY]->(x)
WHERE NOT x:Event OR x.id IS NULL
WITH {assertion: a.id, subject: a.subject, predicate: a.predicate,
      cause_labels: labels(x)} AS problem
"""
    + _SAMPLE
)

CHAIN_CHECKS: dict[str, str] = {
    "missing_cause": CHECK_MISSING_CAUSES,
    "root_with_causes": CHECK_ROOT_WITH_CAUSES,
    "cause_not_an_event": CHECK_CAUSE_NOT_EVENT,
    "cause_after_effect": CHECK_CAUSE_AFTER_EFFECT,
    "event_without_task": CHECK_EVENT_WITHOUT_TASK,
    "assertion_cause_missing": CHECK_ASSERTION_CAUSE_MISSING,
}
# what the audit reports without counting it a problem: the API writes it on purpose (a step
# whose cause its readers may not see shows them a chain that ends there)
CHAIN_NOTES: dict[str, str] = {
    "cause_hidden_from_readers": CHECK_CAUSE_HIDDEN_FROM_READERS,
}
