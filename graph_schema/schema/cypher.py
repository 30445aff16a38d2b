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
