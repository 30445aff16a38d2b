"""Cypher of the schema's bookkeeping: the recorded version, the ontology, the store's ping."""

from __future__ import annotations

SCHEMA_VERSION = "MATCH (v:SchemaVersion {id: 'schema'}) RETURN v.version AS version"


SET_SCHEMA_VERSION = """
MERGE (v:SchemaVersion {id: 'schema'})
SET v.version = $version, v.applied_at = datetime()
"""


LIST_PREDICATES = """
MATCH (p:Predicate)
RETURN p {.name, .cardinality, .value_type, .ephemeral, .description, .disclosure} AS predicate
ORDER BY p.name
"""


GET_PREDICATE = """
MATCH (p:Predicate {name: $name})
RETURN p {.name, .cardinality, .value_type, .ephemeral, .description, .disclosure} AS predicate
"""


CREATE_PREDICATE = """
MERGE (p:Predicate {name: $name})
ON CREATE SET p.cardinality = $cardinality, p.value_type = $value_type,
              p.ephemeral = $ephemeral, p.description = $description,
              p.disclosure = $disclosure,
              p.created_at = datetime(), p._created = true
WITH p, coalesce(p._created, false) AS created
REMOVE p._created
RETURN p {.name, .cardinality, .value_type, .ephemeral, .description, .disclosure} AS predicate,
       created
"""


PING = "RETURN 1 AS ok"
