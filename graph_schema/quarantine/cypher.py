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
