"""Every Cypher statement of observations: idempotent creation, stored responses, the sources
an assertion's evidence may name, and one observation with its neighbouring turns."""

from __future__ import annotations

from graph_schema.core.cypher import set_times, shown_task_id, stable, turns_beside, visible

OBSERVATION_TIMES = ("occurred_at", "received_at")


VISIBLE_SOURCES = stable(
    """
UNWIND $ids AS id
MATCH (o:Observation {id: id})
WHERE """
    + visible("o")
    + """
RETURN o.id AS id, o.access AS access, coalesce(o.access_all, []) AS access_all,
       o.text AS text, o.sha256 AS sha256
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


def _projection(var: str) -> str:
    """An observation as its reader reads it: ``task_id`` null when the reader may not see
    the submitter's task of that id (a public turn of a team-only task named it)."""
    return (
        "{.id, .kind, .speaker, .occurred_at, .received_at, .source_kind, .conversation_id, "
        f"task_id: {shown_task_id(var, owner='submitted_by')}, "
        ".access, .text, .sha256, .distiller}"
    )


_BESIDE = "n " + _projection("n")

GET_OBSERVATION = (
    """
MATCH (o:Observation {id: $id})
WHERE """
    + visible("o")
    + """
RETURN o """
    + _projection("o")
    + """ AS observation,
  COLLECT {"""
    + turns_beside("o", "n", after=False, where=visible("n"), limit="$context", returns=_BESIDE)
    + """
  } AS before,
  COLLECT {"""
    + turns_beside("o", "n", after=True, where=visible("n"), limit="$context", returns=_BESIDE)
    + """
  } AS after
"""
)


# --- redistill (ingest/redistill.py) -------------------------------------------------------------

# Observations not yet distilled by the current distiller, in id order after a cursor. An
# observation stored before `distilled_with` existed has none, so every distiller re-reads it.
REDISTILL_PENDING = """
MATCH (o:Observation)
WHERE o.id > $after AND coalesce(o.distilled_with, '') <> $marker
  AND ($conversation_id IS NULL OR o.conversation_id = $conversation_id)
RETURN o {.id, .text, .speaker, .occurred_at, .occurred_offset, .source_kind, .access,
          .conversation_id, .task_id, .kind, .response} AS o
ORDER BY o.id
LIMIT $limit
"""

# Take the observation's write lock first: of two redistills at once, the second waits here,
# then sees the marker the first set and leaves the observation alone.
REDISTILL_CLAIM = """
MATCH (o:Observation {id: $id})
SET o._redistill = true
REMOVE o._redistill
RETURN coalesce(o.distilled_with, '') = $marker AS done
"""

# The versions a distiller wrote from an observation that are still alive: those its stored
# response lists (written at ingest), remnants of them, and those an earlier redistill wrote;
# each with its evidence from this observation (a restatement also carries the evidence of the
# version it restates, from another: docs/semantics.md "A restatement keeps the start").
_ALIVE_ROW = """
WHERE a.superseded_at IS NULL
MATCH (a)-[:EVIDENCED_BY]->(e:Evidence)
WHERE e.observation_id = $observation_id
RETURN a.id AS id, a.subject AS subject, a.predicate AS predicate, a.object AS object,
       a.polarity AS polarity, a.valid_from AS valid_from, a.valid_to AS valid_to,
       a.access AS access, a.slot_key AS slot_key, e.quote AS quote, e.start AS start,
       e.end AS end
"""
REDISTILL_ALIVE = (
    "UNWIND $ids AS id MATCH (a:Assertion {id: id})"
    + _ALIVE_ROW
    + " UNION UNWIND $ids AS id MATCH (a:Assertion {remnant_of: id})"
    + _ALIVE_ROW
    + " UNION MATCH (a:Assertion {distilled_from: $observation_id})"
    + _ALIVE_ROW
)

MARK_DISTILLED_FROM = """
UNWIND $ids AS id
MATCH (a:Assertion {id: id})
SET a.distilled_from = $observation_id
"""

MARK_REDISTILLED = """
MATCH (o:Observation {id: $id})
SET o.distilled_with = $marker, o.redistilled_at = datetime($now)
"""
