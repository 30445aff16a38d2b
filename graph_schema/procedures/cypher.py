"""Every Cypher statement of procedures: the traces a sleep mines, its writes, the reads.

Values travel as ``$parameters``. A procedure version is a ``(:Procedure)`` node; a later
version of the same key supersedes it (``SUPERSEDES``, ``superseded_at`` set once), and each
version links to the first step of its supporting tasks (``EVIDENCED_BY``).
"""

from __future__ import annotations

from graph_schema.core.cypher import visible

# --- the sleep's reads and writes -----------------------------------------------------------

# A page of tasks (by key, after ``$after``) with their steps recorded by ``$known_at`` in
# time order and when the last of them was recorded, and whether the task had ended by then
# (the sleep then keeps a task that has ended, or has had no step for an hour on either clock:
# a task still running is not yet a whole trace). A sleep previewed at a past time reads the
# store as it was then (a new user's trial: a preview in 2020 mined tasks of 2026).
TRACES = """
MATCH (t:Task)
WHERE t.key > $after
WITH t ORDER BY t.key LIMIT $batch
OPTIONAL MATCH (e:Event)-[:IN_TASK]->(t)
WHERE e.recorded_at <= $known_at
WITH t, e ORDER BY e.occurred_at, e.recorded_at, e.id
WITH t, collect(e {.id, .action, .outcome, .access, .occurred_at}) AS steps,
     max(e.recorded_at) AS last_recorded
RETURN t.key AS task, t.status = 'ended' AND t.ended_at <= $known_at AS ended, steps,
       last_recorded
ORDER BY t.key
"""

# The versions of the keys asked about current at ``$known_at`` (a sleep's present, or a
# preview's past).
CURRENT = """
UNWIND $keys AS key
MATCH (p:Procedure {key: key})
WHERE p.recorded_at <= $known_at AND (p.superseded_at IS NULL OR p.superseded_at > $known_at)
RETURN p.key AS key, p.id AS id, p.support AS support, p.successes AS successes,
       p.first_seen AS first_seen, p.last_seen AS last_seen
"""

# One new version; the version it replaces (``$replaces``, still current) gets its stamp.
WRITE_VERSION = """
CREATE (p:Procedure)
SET p = $props
WITH p
OPTIONAL MATCH (old:Procedure {id: $replaces})
WHERE old.superseded_at IS NULL
FOREACH (_ IN CASE WHEN old IS NULL THEN [] ELSE [1] END |
  SET old.superseded_at = $now
  CREATE (p)-[:SUPERSEDES]->(old))
WITH p
UNWIND $evidence AS event_id
MATCH (e:Event {id: event_id})
CREATE (p)-[:EVIDENCED_BY]->(e)
RETURN count(e) AS linked
"""

# The keys among ``$versions`` (maps of ``key``, ``access`` and ``access_all``: versions a
# sleep wrote or a preview would write) the caller may read, by the one visibility predicate.
VISIBLE_VERSIONS = (
    """
UNWIND $versions AS p
WITH p
WHERE """
    + visible("p")
    + """
RETURN collect(p.key) AS keys
"""
)

# --- reads ------------------------------------------------------------------------------------

_AT = "p.recorded_at <= $known_at AND (p.superseded_at IS NULL OR p.superseded_at > $known_at)"

_MAP = (
    """p {.id, .key, .trigger, .steps, .support, .successes, .success_rate, .first_seen,
    .last_seen, .recorded_at, .source_kind, access: coalesce(p.access, []),
    access_all: coalesce(p.access_all, []),
    superseded_at: CASE WHEN p.superseded_at <= $known_at THEN p.superseded_at END,
    supersedes: [(p)-[:SUPERSEDES]->(old:Procedure) | old.id][0],
    evidence: [event_id IN p.evidence WHERE EXISTS {
      MATCH (e:Event {id: event_id}) WHERE """
    + visible("e")
    + """ }]}"""
)

LIST = (
    """
MATCH (p:Procedure)
WHERE """
    + _AT
    + """
  AND ($trigger IS NULL OR p.trigger = $trigger)
  AND ($action IS NULL OR $action IN p.steps)
  AND p.support >= $min_support AND p.success_rate >= $min_success_rate
  AND """
    + visible("p")
    + """
WITH p ORDER BY p.support DESC, p.success_rate DESC, p.key
LIMIT $limit
RETURN collect("""
    + _MAP
    + """) AS procedures
"""
)

GET = (
    """
MATCH (p:Procedure {id: $id})
WHERE p.recorded_at <= $known_at AND """
    + visible("p")
    + """
RETURN """
    + _MAP
    + """ AS procedure
"""
)
