"""Every Cypher statement of observations: idempotent creation, stored responses, the sources
an assertion's evidence may name, and one observation with its neighbouring turns."""

from __future__ import annotations

from graph_schema.core.cypher import set_times, stable, visible

OBSERVATION_TIMES = ("occurred_at", "received_at")


VISIBLE_SOURCES = stable(
    """
UNWIND $ids AS id
MATCH (o:Observation {id: id})
WHERE """
    + visible("o")
    + """
RETURN o.id AS id, o.access AS access, coalesce(o.access_all, []) AS access_all
"""
)


FIND_OBSERVATIONS_BY_SCOPE = stable("""
UNWIND $scopes AS scope
MATCH (o:Observation {idempotency_scope: scope})
RETURN scope, o.id AS id, o.request_sha256 AS request_sha256, o.response AS response
""")


# The uniqueness constraint on idempotency_scope makes MERGE lock: a racing twin waits for the
# winner to commit, then matches its node (created is false) and writes nothing.
# $rows are sorted by scope, so two batches take these locks in the same order.
MERGE_OBSERVATIONS = stable(f"""
UNWIND $rows AS row
MERGE (o:Observation {{idempotency_scope: row.props.idempotency_scope}})
ON CREATE SET o += row.props, {set_times("o", "row.props", OBSERVATION_TIMES)}
RETURN row.index AS index, o.id = row.props.id AS created, o.id AS id,
       o.request_sha256 AS request_sha256, o.response AS response
""")


CREATE_OBSERVATIONS = stable(f"""
UNWIND $rows AS row
CREATE (o:Observation)
SET o = row.props
SET {set_times("o", "row.props", OBSERVATION_TIMES)}
RETURN row.index AS index, true AS created, o.id AS id,
       o.request_sha256 AS request_sha256, o.response AS response
""")


# The response is part of the creating transaction (what a replay returns), set once.
SET_OBSERVATION_RESPONSES = stable("""
UNWIND $rows AS row
MATCH (o:Observation {id: row.id})
WHERE o.response IS NULL
SET o.response = row.response
RETURN count(o) AS set
""")


_OBSERVATION_PROJECTION = (
    "{.id, .kind, .speaker, .occurred_at, .received_at, .source_kind, .conversation_id, "
    ".task_id, .access, .text, .sha256, .distiller}"
)


GET_OBSERVATION = (
    """
MATCH (o:Observation {id: $id})
WHERE """
    + visible("o")
    + """
RETURN o """
    + _OBSERVATION_PROJECTION
    + """ AS observation,
  COLLECT {
    MATCH (n:Observation {conversation_id: o.conversation_id})
    WHERE """
    + visible("n")
    + """ AND (n.occurred_at < o.occurred_at OR (n.occurred_at = o.occurred_at AND n.id < o.id))
    WITH n ORDER BY n.occurred_at DESC, n.id DESC LIMIT $context
    RETURN n """
    + _OBSERVATION_PROJECTION
    + """
  } AS before,
  COLLECT {
    MATCH (n:Observation {conversation_id: o.conversation_id})
    WHERE """
    + visible("n")
    + """ AND (n.occurred_at > o.occurred_at OR (n.occurred_at = o.occurred_at AND n.id > o.id))
    WITH n ORDER BY n.occurred_at, n.id LIMIT $context
    RETURN n """
    + _OBSERVATION_PROJECTION
    + """
  } AS after
"""
)
