"""Cypher of the quarantine: what the gate refused, kept apart from the record."""

from __future__ import annotations

from graph_schema.core.cypher import stable

CREATE_QUARANTINE = stable("""
UNWIND $items AS item
CREATE (q:Quarantine)
SET q = item
RETURN count(q) AS quarantined
""")


LIST_QUARANTINE = """
MATCH (q:Quarantine)
WHERE $origin IS NULL OR q.origin = $origin
RETURN q {.*} AS item
ORDER BY q.received_at DESC, q.id DESC
LIMIT $limit
"""


COUNT_QUARANTINE = "MATCH (q:Quarantine) RETURN count(q) AS n"


# Both walk the range index on received_at (migration 1), oldest first, at most $limit nodes.
DELETE_EXPIRED = """
MATCH (q:Quarantine)
WHERE q.received_at < $cutoff
WITH q ORDER BY q.received_at
LIMIT $limit
DETACH DELETE q
RETURN count(*) AS deleted
"""


DELETE_OLDEST = """
MATCH (q:Quarantine)
WHERE q.received_at IS NOT NULL
WITH q ORDER BY q.received_at, q.id
LIMIT $limit
DETACH DELETE q
RETURN count(*) AS deleted
"""
