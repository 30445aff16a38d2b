"""Every Cypher statement of the lifecycle: tasks, consolidation, transitions, pins, the sleep
lock and sweep, the access log, and the data steps of the migration that keyed tasks.

Values travel as ``$parameters``. A task is found by its ``key`` (owner + "\\x1f" + id, see
:func:`graph_schema.lifecycle.types.task_key`); its assertions by ``task_id`` and
``written_by`` (the owner), which every assertion has carried since it was written.
"""

from __future__ import annotations

from graph_schema.core.cypher import (
    PIN_CHANGE,
    TIER_CHANGE,
    effective_tier,
    latest_tier_change,
    pinned,
    stable,
    visible,
)

_TASK_FIELDS = (
    "t {.id, .owner, .status, .access, .goal, .started_at, .ended_at, .working,"
    " consolidated: t.report IS NOT NULL}"
)

# --- tasks: the writers' lock ---------------------------------------------------------------

# A task started with no goal (by a write that named none) takes the first goal given to it,
# once: by an event (ENTER_TASKS) or an explicit start with the task's access (START_TASK). A
# goal is never replaced: another one stays a conflict (a new agent builder's trial: a task
# started by an assertion could never be given a goal, 409 "exists with another goal" with
# goal null).
# Every write that names a task enters it first: the writer's own task is created if missing
# (MERGE on the unique key: a racing twin waits, then matches) and locked by bumping its
# counters, rows in key order so two writers cannot deadlock. Ending a task takes the same
# lock, so a write either commits before the end (and is consolidated) or sees it ended.
# The tasks' write locks, in key order, before anything else reads them: MERGE matching an
# existing Task takes a shared lock first, and writers that all held it and then waited for
# the write lock deadlocked (a new agent developer's trial: 40 steps written at once into one
# task, 11 answered 503 after the driver's retries)
LOCK_TASKS = """
UNWIND $keys AS key
MATCH (t:Task {key: key})
SET t._lock = true
REMOVE t._lock
"""

ENTER_TASKS = stable("""
UNWIND $tasks AS row
MERGE (t:Task {key: row.key})
ON CREATE SET t.id = row.id, t.owner = row.owner, t.access = row.access, t.goal = row.goal,
              t.status = 'open', t.started_at = datetime(row.now),
              t.created_at = datetime(row.now), t.working = 0, t.writes = 0
SET t.writes = t.writes + 1, t.working = t.working + row.working,
    t.goal = coalesce(t.goal, row.goal)
RETURN t.key AS key, t.id AS id, t.status AS status, t.working AS working, t.goal AS goal,
       t.access AS access
""")

START_TASK = (
    """
MERGE (t:Task {key: $key})
ON CREATE SET t.id = $id, t.owner = $owner, t.access = $access, t.goal = $goal,
              t.status = 'open', t.started_at = $now, t.created_at = $now,
              t.working = 0, t.writes = 0, t._created = true
WITH t, coalesce(t._created, false) AS created
SET t.goal = CASE WHEN t.goal IS NULL AND t.status = 'open' AND coalesce(t.access, []) = $access
                  THEN $goal ELSE t.goal END
REMOVE t._created
RETURN """
    + _TASK_FIELDS
    + """ AS task, created
"""
)

# --- tasks: reads ---------------------------------------------------------------------------

# A task shows to its owner and to readers of its access list; to anyone else it does not
# exist. Counts are over the assertions the caller may read, by tier as known now.
GET_TASK = (
    """
MATCH (t:Task {key: $key})
WHERE t.owner = $caller OR """
    + visible("t")
    + """
RETURN """
    + _TASK_FIELDS
    + """ AS task,
  COLLECT {
    MATCH (a:Assertion {task_id: t.id})
    WHERE a.written_by = t.owner AND """
    + visible("a")
    + """
    WITH """
    + effective_tier("a")
    + """ AS tier
    WITH tier, count(*) AS n
    RETURN {tier: tier, n: n}
  } AS counts
"""
)

# --- consolidation --------------------------------------------------------------------------

# The end's lock: a property set and removed in one statement takes the Task's write lock and
# leaves nothing changed, so a repeated end that finds the report stored writes nothing.
LOCK_TASK = """
MATCH (t:Task {key: $key})
SET t._lock = true
REMOVE t._lock
RETURN t.status AS status, t.report AS report, t.ended_at AS ended_at
"""

TASK_SLOTS = """
MATCH (a:Assertion {task_id: $task_id})
WHERE a.written_by = $owner
RETURN DISTINCT a.slot_key AS key
"""

# Consolidation locks the slots of its working assertions (in key order), so a concurrent
# write that cuts a remnant from one of them sees the tier the consolidation gave it.
LOCK_SLOTS = """
UNWIND $keys AS key
MATCH (s:Slot {key: key})
SET s.version = s.version + 1
RETURN count(s) AS locked, max(s.last_recorded_at) AS last_recorded_at
"""

WORKING = (
    """
MATCH (a:Assertion {task_id: $task_id})
WHERE a.written_by = $owner
WITH a, """
    + effective_tier("a")
    + """ AS tier
WHERE tier = 'short'
RETURN a.id AS id, a.subject AS subject, a.predicate AS predicate, a.object AS object,
       a.polarity AS polarity, a.confidence AS confidence, a.source_kind AS source_kind,
       a.asserted_by AS asserted_by, a.recorded_at AS recorded_at, a.access AS access,
       coalesce(a.access_all, []) AS access_all,
       [(a)-[:EVIDENCED_BY]->(e:Evidence) | e {.observation_id, .start, .end}] AS evidence
ORDER BY a.recorded_at, a.id
"""
)

# Alive positive versions with the same (subject, predicate, object), whatever their tier:
# each is a source that may corroborate the fact.
SUPPORTS = """
UNWIND $facts AS f
MATCH (sup:Assertion {subject: f.subject, predicate: f.predicate})
WHERE sup.object = f.object AND sup.polarity = true AND sup.superseded_at IS NULL
  AND sup.id <> f.id
RETURN f.id AS fact, sup.asserted_by AS asserted_by, sup.source_kind AS source_kind,
       sup.access AS access, coalesce(sup.access_all, []) AS access_all,
       [(sup)-[:EVIDENCED_BY]->(e:Evidence) | e.observation_id] AS observations
"""

CREATE_TIER_CHANGES = (
    """
UNWIND $changes AS c
MATCH (a:Assertion {id: c.assertion_id})
CREATE (tc:"""
    + TIER_CHANGE
    + """ {id: c.id, assertion_id: c.assertion_id, from_tier: c.from_tier, to_tier: c.to_tier,
                    rule: c.rule, reason: c.reason, run_id: $run_id, at: $now,
                    clock_at: datetime($clock_at)})
CREATE (tc)-[:CHANGES]->(a)
RETURN count(tc) AS written
"""
)

# --- restoration (graph_schema/lifecycle/restore.py) ---------------------------------------

# The slots of some assertions, to lock before restoring in them (the sweep).
SLOTS_OF = """
UNWIND $ids AS id
MATCH (a:Assertion {id: id})
RETURN DISTINCT a.slot_key AS key
"""

# The discarded versions still alive in their slot, with the valid time they hold now.
HELD = """
UNWIND $ids AS id
MATCH (a:Assertion {id: id})
WHERE a.superseded_at IS NULL
RETURN a.id AS id, a.slot_key AS key, a.valid_from AS valid_from, a.valid_to AS valid_to,
       a.access AS access, coalesce(a.access_all, []) AS access_all
"""

# The discarded versions still alive in some slots (tiers as known at $now, after the end's
# own changes), oldest first: an end looks again at every one in its task's slots, since a
# version it promotes may be what an earlier discarded one displaced (a guess of a task that
# ended first, over a fact of this task: nothing was kept to restore then).
DISCARDED_IN_SLOTS = (
    """
UNWIND $keys AS key
MATCH (a:Assertion {slot_key: key})
WHERE a.superseded_at IS NULL
WITH a, """
    + effective_tier("a", "$now")
    + """ AS tier
WHERE tier = 'discarded'
RETURN a.id AS id
ORDER BY a.recorded_at, a.id
"""
)

# The sleep's repair (docs/lifecycle.md "Sleep"): one page of assertions in id order (a cursor
# over the unique index, like the sweep), the last id read and the slots of those that are
# discarded versions still alive (tiers as known at $now). A store written before an end
# looked again at its slots can hold such a version over a kept fact with no restoration.
REPAIR_BATCH = (
    """
MATCH (a:Assertion)
WHERE a.id > $after
WITH a ORDER BY a.id LIMIT $batch
WITH a, CASE WHEN a.superseded_at IS NULL THEN """
    + effective_tier("a", "$now")
    + """ END AS tier
RETURN max(a.id) AS last,
       collect(DISTINCT CASE WHEN tier = 'discarded' THEN a.slot_key END) AS keys
"""
)

# One step towards a version's origin: the version it was cut from (``remnant_of``), or, for
# an origin, every version of its slot it closed or superseded when it was written (with the
# stamps that say which, and the tier each has as known at $now).
ORIGINS = (
    """
UNWIND $ids AS id
MATCH (v:Assertion {id: id})
RETURN v.id AS id, v.remnant_of AS remnant_of, v.recorded_at AS recorded_at,
  COLLECT {
    MATCH (v)-[:SUPERSEDES]->(x:Assertion)
    WHERE x.slot_key = v.slot_key
    RETURN x {.id, .valid_from, .valid_to, .superseded_at, .access,
              access_all: coalesce(x.access_all, []), tier: """
    + effective_tier("x", "$now")
    + """}
  } AS displaced
"""
)

# Set once: only the transaction that finds no report stores one (under the Task's lock).
SET_TASK_ENDED = """
MATCH (t:Task {key: $key})
WHERE t.report IS NULL
SET t.status = 'ended', t.ended_at = coalesce(t.ended_at, $now), t.consolidated_at = $now,
    t.report = $report, t.run_id = $run_id
RETURN t.ended_at AS ended_at
"""

# Ended tasks with no report yet, ended by ``$known_at`` (a preview at a past time: by then).
ENDED_UNCONSOLIDATED = """
MATCH (t:Task {status: 'ended'})
WHERE t.report IS NULL AND (t.ended_at IS NULL OR t.ended_at <= $known_at)
RETURN t.key AS key, t.id AS id, t.owner AS owner
ORDER BY t.key
LIMIT $limit
"""

VISIBLE_IDS = (
    """
UNWIND $ids AS id
MATCH (a:Assertion {id: id})
WHERE """
    + visible("a")
    + """
RETURN collect(a.id) AS ids
"""
)

# --- pins -----------------------------------------------------------------------------------

PIN_TARGET = (
    """
MATCH (a:Assertion {id: $id})
WHERE """
    + visible("a")
    + """
RETURN a.written_by AS written_by
"""
)

# Pins of one assertion are serialised on its slot's lock, like every write to that slot.
LOCK_PIN = (
    """
MATCH (a:Assertion {id: $id})
MATCH (s:Slot {key: a.slot_key})
SET s.version = s.version + 1
RETURN """
    + pinned("a", "$now")
    + """ AS pinned
"""
)

CREATE_PIN_CHANGE = (
    """
MATCH (a:Assertion {id: $id})
CREATE (p:"""
    + PIN_CHANGE
    + """ {id: $change_id, assertion_id: $id, pinned: $pinned, at: $now, by: $by,
                  rule: $rule, reason: $reason})
CREATE (p)-[:CHANGES]->(a)
"""
)

# --- history: the transitions of one version ------------------------------------------------


def transitions(var: str) -> str:
    """Every tier and pin change of ``var`` recorded at or before ``$known_at``, in order."""
    if var != "a":
        raise ValueError(f"unknown Cypher variable {var!r}")
    return (
        "COLLECT { MATCH (c)-[:CHANGES]->("
        + var
        + ") WHERE (c:"
        + TIER_CHANGE
        + " OR c:"
        + PIN_CHANGE
        + ") AND c.at <= $known_at"
        " RETURN c {.at, .from_tier, .to_tier, .pinned, .rule, .reason, .run_id, .id}"
        " ORDER BY c.at, c.id }"
    )


# --- sleep: the lock --------------------------------------------------------------------------

# One sleep at a time across replicas: a lease on one node. Taking it (or renewing it) bumps
# ``seq`` first, which takes the node's write lock before the holder is read.
ACQUIRE_SLEEP_LOCK = """
MERGE (l:SleepLock {id: 'sleep'})
SET l.seq = coalesce(l.seq, 0) + 1
WITH l, (l.holder IS NULL OR l.expires_at <= $now) AS free
SET l.holder = CASE WHEN free THEN $run_id ELSE l.holder END,
    l.expires_at = CASE WHEN free THEN $expires_at ELSE l.expires_at END,
    l.started_at = CASE WHEN free THEN $now ELSE l.started_at END
RETURN free, l.expires_at AS expires_at
"""

# Every batch of a sleep renews the lease in its own transaction (a fence: a sleep whose
# lease was taken over stops before writing anything more).
RENEW_SLEEP_LOCK = """
MATCH (l:SleepLock {id: 'sleep'})
SET l.seq = l.seq + 1
WITH l WHERE l.holder = $run_id
SET l.expires_at = $expires_at
RETURN count(l) AS held
"""

RELEASE_SLEEP_LOCK = """
MATCH (l:SleepLock {id: 'sleep'})
WHERE l.holder = $run_id
SET l.holder = null, l.expires_at = null
RETURN count(l) AS released
"""

# --- sleep: the sweep ---------------------------------------------------------------------------

# One batch of assertions in id order (a cursor over the unique index), with what the rules
# need (the object only of an ephemeral fact of no task: a plan's date is in it); the access
# log is read by the assertion's id (its nodes are not connected).
SWEEP_BATCH = (
    """
MATCH (a:Assertion)
WHERE a.id > $after
WITH a ORDER BY a.id LIMIT $batch
RETURN a.id AS id, a.tier AS written_tier, """
    + effective_tier("a")
    + """ AS tier,
       a.task_id AS task_id, a.superseded_at IS NULL AS alive, a.polarity AS polarity,
       a.recorded_at AS recorded_at,
       CASE WHEN a.tier = 'short' AND a.task_id IS NULL AND a.object IS :: STRING
         THEN a.object END AS object,
       """
    + latest_tier_change("a")
    + """ AS change,
       """
    + pinned("a")
    + """ AS pinned,
       COLLECT { MATCH (c:AccessCount {assertion_id: a.id}) RETURN c.last_read_at }[0]
         AS last_read_at,
       """
    + visible("a")
    + """ AS shown
"""
)

# --- the access log -----------------------------------------------------------------------------

# Counts of reads, apart from the record: unconnected nodes keyed by assertion id, never part
# of any version or of history. Rows come sorted by id (replicas flushing at once lock in the
# same order).
FLUSH_ACCESS_COUNTS = stable("""
UNWIND $rows AS row
MERGE (c:AccessCount {assertion_id: row.id})
ON CREATE SET c.reads = 0
SET c.reads = c.reads + row.reads,
    c.last_read_at = CASE WHEN c.last_read_at IS NULL OR datetime(row.at) > c.last_read_at
                          THEN datetime(row.at) ELSE c.last_read_at END
RETURN count(c) AS counted
""")

# --- the migration that keyed tasks by owner (resumable: each step repeats until it does 0) ---

# A task of the old global kind belongs to the writer of its first event.
KEY_OLD_TASKS = """
MATCH (t:Task) WHERE t.key IS NULL
WITH t LIMIT $batch
CALL (t) {
  OPTIONAL MATCH (e:Event)-[:IN_TASK]->(t)
  WITH e ORDER BY e.occurred_at, e.recorded_at, e.id
  RETURN coalesce(head(collect(e.written_by)), '') AS owner
}
SET t.owner = owner, t.key = owner + $separator + t.id, t.status = coalesce(t.status, 'open'),
    t.writes = coalesce(t.writes, 0),
    t.working = COUNT { MATCH (a:Assertion {task_id: t.id}) WHERE a.written_by = owner }
RETURN count(t) AS done
"""

# An event of another writer moves to its writer's own task of the same id.
RELINK_FOREIGN_EVENTS = """
MATCH (e:Event)-[r:IN_TASK]->(t:Task)
WHERE t.owner IS NOT NULL AND coalesce(e.written_by, '') <> t.owner
WITH e, r LIMIT $batch
WITH e, r, coalesce(e.written_by, '') AS owner
WITH e, r, owner,
     COUNT { MATCH (a:Assertion {task_id: e.task_id}) WHERE a.written_by = owner } AS working
MERGE (own:Task {key: owner + $separator + e.task_id})
ON CREATE SET own.id = e.task_id, own.owner = owner, own.access = e.access,
              own.started_at = e.occurred_at, own.created_at = e.recorded_at,
              own.status = 'open', own.writes = 0, own.working = working
CREATE (e)-[:IN_TASK]->(own)
DELETE r
RETURN count(*) AS done
"""

# Assertions and observations written with a task id made no task before: make their writer's.
TASKS_OF_ASSERTIONS = """
MATCH (a:Assertion)
WHERE a.task_id IS NOT NULL
  AND NOT EXISTS { MATCH (:Task {key: coalesce(a.written_by, '') + $separator + a.task_id}) }
WITH a ORDER BY a.recorded_at, a.id LIMIT $batch
WITH a, coalesce(a.written_by, '') AS owner
WITH a, owner,
     COUNT { MATCH (x:Assertion {task_id: a.task_id}) WHERE x.written_by = owner } AS working
MERGE (t:Task {key: owner + $separator + a.task_id})
ON CREATE SET t.id = a.task_id, t.owner = owner, t.access = a.access,
              t.started_at = a.recorded_at, t.created_at = a.recorded_at, t.status = 'open',
              t.writes = 0, t.working = working
RETURN count(*) AS done
"""

TASKS_OF_OBSERVATIONS = """
MATCH (o:Observation)
WHERE o.task_id IS NOT NULL
  AND NOT EXISTS { MATCH (:Task {key: coalesce(o.submitted_by, '') + $separator + o.task_id}) }
WITH o ORDER BY o.received_at, o.id LIMIT $batch
MERGE (t:Task {key: coalesce(o.submitted_by, '') + $separator + o.task_id})
ON CREATE SET t.id = o.task_id, t.owner = coalesce(o.submitted_by, ''), t.access = o.access,
              t.started_at = o.received_at, t.created_at = o.received_at, t.status = 'open',
              t.writes = 0, t.working = 0
RETURN count(*) AS done
"""

MIGRATION_STEPS: tuple[str, ...] = (
    KEY_OLD_TASKS,
    RELINK_FOREIGN_EVENTS,
    TASKS_OF_ASSERTIONS,
    TASKS_OF_OBSERVATIONS,
)
