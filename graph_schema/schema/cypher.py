"""Cypher of the schema's bookkeeping: the recorded version, the ontology, the store's ping."""

from __future__ import annotations

SCHEMA_VERSION = "MATCH (v:SchemaVersion {id: 'schema'}) RETURN v.version AS version"


SET_SCHEMA_VERSION = """
MERGE (v:SchemaVersion {id: 'schema'})
SET v.version = $version, v.applied_at = datetime()
"""


# a predicate stored before versions existed is version 1
_PREDICATE = (
    "p {.name, .cardinality, .value_type, .ephemeral, .description, .disclosure, "
    "version: coalesce(p.version, 1), object_entity: coalesce(p.object_entity, false)}"
)

LIST_PREDICATES = f"""
MATCH (p:Predicate)
RETURN {_PREDICATE} AS predicate
ORDER BY p.name
"""


GET_PREDICATE = f"""
MATCH (p:Predicate {{name: $name}})
RETURN {_PREDICATE} AS predicate
"""


CREATE_PREDICATE = f"""
MERGE (p:Predicate {{name: $name}})
ON CREATE SET p.cardinality = $cardinality, p.value_type = $value_type,
              p.ephemeral = $ephemeral, p.description = $description,
              p.disclosure = $disclosure, p.version = $version,
              p.object_entity = $object_entity,
              p.created_at = datetime(), p._created = true
WITH p, coalesce(p._created, false) AS created
REMOVE p._created
RETURN {_PREDICATE} AS predicate, created
"""


# Upgrade a stored predicate to a newer seed version, keeping the definition it replaces as a
# (:PredicateVersion) behind (:Predicate)-[:PREVIOUS]->. The first SET takes the node's write
# lock, so two migrations at once upgrade it once: the second sees the new version and stops.
UPGRADE_PREDICATE = f"""
MATCH (p:Predicate {{name: $name}})
SET p._upgrading = true
REMOVE p._upgrading
WITH p
WHERE coalesce(p.version, 1) < $version
CREATE (p)-[:PREVIOUS]->(:PredicateVersion {{
  name: p.name, version: coalesce(p.version, 1), cardinality: p.cardinality,
  value_type: p.value_type, ephemeral: p.ephemeral, description: p.description,
  disclosure: p.disclosure, object_entity: coalesce(p.object_entity, false),
  replaced_at: datetime()}})
SET p.version = $version, p.ephemeral = $ephemeral, p.description = $description,
    p.disclosure = $disclosure, p.object_entity = $object_entity, p.upgraded_at = datetime()
RETURN {_PREDICATE} AS predicate
"""


PING = "RETURN 1 AS ok"


# --- the store's checksum (graph_schema/schema/checksum.py) ----------------------------------
# Every node and every relationship, streamed; the checksum is computed from their content
# (labels, type, properties, endpoints' content), so it does not depend on element ids.
ALL_NODES = "MATCH (n) RETURN elementId(n) AS id, labels(n) AS labels, properties(n) AS props"

ALL_RELATIONSHIPS = """
MATCH (a)-[r]->(b)
RETURN elementId(a) AS start, elementId(b) AS end, type(r) AS type, properties(r) AS props
"""


# --- the embedding space: which model wrote the store's vectors (graph_schema/schema/space.py)
# One (:EmbeddingSpace {id: $id}) node: ``model`` (the identity of the model that wrote every
# vector), ``recorded_at``; while `tractatus reembed` runs, ``target`` (the model it writes),
# ``phase`` ('assertion', then 'passage') and ``cursor`` (the last key of that phase done).
_SPACE = "s {.model, .recorded_at, .target, .phase, .cursor} AS space"

EMBEDDING_SPACE = f"""
MATCH (s:EmbeddingSpace {{id: $id}})
RETURN {_SPACE}
"""


# any stored vector at all (a store written by a version that kept no record has some)
HAS_VECTORS = """
RETURN EXISTS { MATCH (a:Assertion) WHERE a.embedding IS NOT NULL }
    OR EXISTS { MATCH (n:Passage) WHERE n.embedding IS NOT NULL }
    OR EXISTS { MATCH (n:Passage) WHERE n.context_embedding IS NOT NULL } AS found
"""


# the first record wins: two servers starting at once record one model
RECORD_EMBEDDING_SPACE = f"""
MERGE (s:EmbeddingSpace {{id: $id}})
ON CREATE SET s.model = $model, s.recorded_at = datetime()
RETURN {_SPACE}
"""


# The space node locked (a write to it) and read, first in each re-embed transaction: two
# runs at once take turns, and each sees where the other left the cursor.
LOCK_EMBEDDING_SPACE = f"""
MATCH (s:EmbeddingSpace {{id: $id}})
SET s._lock = true
REMOVE s._lock
RETURN {_SPACE}
"""


# a re-embed to $target starts (again from the first node: vectors of another target may be
# behind an older cursor)
START_REEMBED = """
MATCH (s:EmbeddingSpace {id: $id})
SET s.target = $target, s.phase = $phase, s.cursor = '', s.started_at = datetime()
"""


MOVE_REEMBED_CURSOR = """
MATCH (s:EmbeddingSpace {id: $id})
SET s.phase = $phase, s.cursor = $cursor
"""


FINISH_REEMBED = """
MATCH (s:EmbeddingSpace {id: $id})
SET s.previous_model = s.model, s.model = s.target, s.recorded_at = datetime()
REMOVE s.target, s.phase, s.cursor, s.started_at
"""


# The next assertions with a vector after the cursor, in id order, with what their text is
# made of (ingest/embeddings/texts.py): the stored triple and the first evidence quote (the
# evidence of the lowest id: the store keeps no order of the spans of one write).
REEMBED_ASSERTIONS = """
MATCH (a:Assertion)
WHERE a.id > $after AND a.embedding IS NOT NULL
WITH a ORDER BY a.id LIMIT $batch
CALL (a) {
  OPTIONAL MATCH (a)-[:EVIDENCED_BY]->(e:Evidence)
  WITH e ORDER BY e.id
  RETURN head(collect(e.quote)) AS quote
}
RETURN a.id AS key, a.subject AS subject, a.predicate AS predicate, a.object AS object, quote
ORDER BY key
"""


SET_ASSERTION_VECTORS = """
UNWIND $rows AS row
MATCH (a:Assertion {id: row.key})
SET a.embedding = row.embedding
RETURN count(a) AS written
"""


# passages by observation_id (unique): their text and context are what was embedded
REEMBED_PASSAGES = """
MATCH (n:Passage)
WHERE n.observation_id > $after AND n.embedding IS NOT NULL
WITH n ORDER BY n.observation_id LIMIT $batch
RETURN n.observation_id AS key, n.text AS text, n.context AS context
ORDER BY key
"""


SET_PASSAGE_VECTORS = """
UNWIND $rows AS row
MATCH (n:Passage {observation_id: row.key})
SET n.embedding = row.embedding, n.context_embedding = row.context_embedding
RETURN count(n) AS written
"""
