"""Every Cypher statement of entities: the page of an entity, the search, the migration that
links versions written before entities existed.

An Entity node holds only ``id`` and ``key``: what a caller learns about it (names, aliases,
merges, edges) comes from assertions it may read, filtered here by ``visible``.
"""

from __future__ import annotations

from graph_schema.core.cypher import effective_tier, known_and_valid, visible
from graph_schema.entities.names import ALIAS, NAME
from graph_schema.ledger.cypher import LINK_ENTITIES, assertion_projection, folded, lower_names

SAME_AS = "same_as"
# hops of same_as followed from the entity asked for (docs/entities.md)
MAX_MERGE_HOPS = 8

# visible, current at ($as_of, $known_at), affirmative, in the tiers asked for
_CURRENT = (
    known_and_valid("a")
    + " AND a.polarity = true AND "
    + visible("a")
    + " AND "
    + effective_tier("a")
    + " IN $tiers"
)

# a same_as that merges, for the caller, at ($as_of, $known_at)
_MERGING = (
    "s.predicate = '"
    + SAME_AS
    + "' AND x <> y AND "
    + known_and_valid("s")
    + " AND s.polarity = true AND "
    + visible("s")
)

# The entities merged with $id: those reached over visible, current same_as assertions, in
# either direction, transitively (up to MAX_MERGE_HOPS), the entity itself first, and whether
# such an assertion joins one of them to an entity not reached (``truncated``: the chain goes
# on beyond the hops followed; only from an entity MAX_MERGE_HOPS away, since any nearer one's
# neighbours are reached). One row for any $id, an id no entity has included (``[$id]``, not
# truncated): a page tells such an id from a hidden entity neither by its answer nor by the
# rows its statements return (docs/security.md).
MERGED = (
    """
OPTIONAL MATCH (e0:Entity {id: $id})
CALL (e0) {
  OPTIONAL MATCH (e0) ((x:Entity)<-[:ABOUT|OBJECT]-(s:Assertion)-[:ABOUT|OBJECT]->(y:Entity)
  WHERE """
    + _MERGING
    + f"){{0,{MAX_MERGE_HOPS}}}"
    + """ (e:Entity)
  RETURN collect(DISTINCT e.id) AS ids
}
RETURN [$id] + [i IN ids WHERE i <> $id] AS ids,
  EXISTS { MATCH (x:Entity)<-[:ABOUT|OBJECT]-(s:Assertion)-[:ABOUT|OBJECT]->(y:Entity)
           WHERE x.id IN ids AND NOT y.id IN ids AND """
    + _MERGING
    + """ } AS truncated
"""
)

# What visible assertions say each entity is called: every spelling (the subject of those
# about it, the object of those pointing at it, known at $known_at, first written first), its
# current `name`s (each with its valid_from and assertion id, the latest first) and `alias`
# objects, whether it holds a person's predicate or is the object of
# one whose object is a person (`personal`), or is the object of a place's (`placed`) or an
# organization's (`employs`). An
# entity no visible assertion names returns nothing.
NAMES = (
    """
UNWIND $ids AS id
MATCH (n:Entity {id: id})
WITH n, COLLECT {
  MATCH (n)<-[r:ABOUT|OBJECT]-(a:Assertion)
  WHERE a.recorded_at <= $known_at AND """
    + visible("a")
    + """
  RETURN CASE type(r) WHEN 'ABOUT' THEN a.subject ELSE a.object END AS spelling
  ORDER BY a.recorded_at, a.id
} AS spellings
WHERE size(spellings) > 0
RETURN n.id AS id, spellings,
  EXISTS { MATCH (n)<-[r:ABOUT|OBJECT]-(a:Assertion)
           WHERE a.predicate IN CASE type(r) WHEN 'ABOUT' THEN $person_predicates
                                  ELSE $person_object_predicates END AND """
    + _CURRENT
    + """ } AS personal,
  EXISTS { MATCH (n)<-[:OBJECT]-(a:Assertion) WHERE a.predicate IN $place_predicates AND """
    + _CURRENT
    + """ } AS placed,
  EXISTS { MATCH (n)<-[:OBJECT]-(a:Assertion)
           WHERE a.predicate IN $organization_predicates AND """
    + _CURRENT
    + """ } AS employs,
  COLLECT { MATCH (n)<-[:ABOUT]-(a:Assertion {predicate: '"""
    + NAME
    + "'}) WHERE "
    + _CURRENT
    + """
            RETURN {name: a.object, valid_from: a.valid_from, id: a.id}
            ORDER BY a.valid_from DESC, a.id } AS names,
  COLLECT { MATCH (n)<-[:ABOUT]-(a:Assertion {predicate: '"""
    + ALIAS
    + "'}) WHERE "
    + _CURRENT
    + """
            RETURN a.object ORDER BY a.valid_from, a.id } AS aliases
"""
)


def _edges(relationship: str) -> str:
    """The visible current assertions linked to any of $ids by ``relationship``."""
    return (
        f"""
UNWIND $ids AS id
MATCH (:Entity {{id: id}})<-[:{relationship}]-(a:Assertion)
WHERE """
        + _CURRENT
        + """
WITH DISTINCT a
RETURN """
        + assertion_projection(said_by="$as_of")
        + """
ORDER BY a.valid_from, a.recorded_at, a.id
LIMIT $limit
"""
    )


ABOUT_ASSERTIONS = _edges("ABOUT")
POINTING_AT_ASSERTIONS = _edges("OBJECT")

# Entities named (a spelling, known at $known_at) or aliased or named (current) by a visible
# assertion whose text, lower-cased, contains every one of $words, by the first matching name.
# The lower-cased names a version carries (set by the writer, ``ledger.cypher.LOWER_NAMES``,
# and by migration 16 for older versions), each under a text index, which answers CONTAINS by
# seek: the search finds its candidates by one word ($seek, the longest) through the index,
# then keeps those holding every word, visible to the caller, known at $known_at.
SEARCH = (
    """
CALL () {
  MATCH (a:Assertion)
  WHERE a.subject_lower CONTAINS $seek AND a.recorded_at <= $known_at AND """
    + visible("a")
    + """
    AND all(w IN $words WHERE a.subject_lower CONTAINS w)
  MATCH (a)-[:ABOUT]->(e:Entity)
  RETURN e, a.subject_lower AS name
  UNION
  MATCH (a:Assertion)
  WHERE a.object_lower CONTAINS $seek AND a.recorded_at <= $known_at AND """
    + visible("a")
    + """
    AND all(w IN $words WHERE a.object_lower CONTAINS w)
  MATCH (a)-[r:ABOUT|OBJECT]->(e:Entity)
  WHERE type(r) = 'OBJECT' OR (a.predicate IN ['"""
    + ALIAS
    + "', '"
    + NAME
    + """'] AND """
    + _CURRENT
    + """)
  RETURN e, a.object_lower AS name
}
WITH e, min(name) AS first
RETURN e.id AS id
ORDER BY first, id
LIMIT $limit
"""
)


# migration 16: the lower-cased names of the versions written before it, a batch at a time
# (resumable: a version once given its names is not read again)
LOWER_NAMES_OF_OLDER = f"""
MATCH (a:Assertion)
WHERE a.subject_lower IS NULL AND a.subject IS NOT NULL
WITH a LIMIT $batch
SET {lower_names("EXISTS { (a)-[:OBJECT]->(:Entity) }")}
RETURN count(a) AS done
"""
MIGRATION_STEPS: tuple[str, ...] = (LOWER_NAMES_OF_OLDER,)

# migration 18: the names of the versions written before it folded again (without their
# diacritics, as the search now reads them), a batch at a time; a name all ASCII was already
# folded (lower case), so the scan skips it by a pattern, and a version once folded no longer
# differs (resumable)
FOLD_NAMES_OF_OLDER = f"""
MATCH (a:Assertion)
WHERE a.subject_lower IS NOT NULL
  AND (a.subject_lower <> {folded("a.subject")}
       OR (a.object_lower IS NOT NULL AND a.object_lower <> {folded("a.object")}))
WITH a LIMIT $batch
SET a.subject_lower = {folded("a.subject")},
    a.object_lower = CASE WHEN a.object_lower IS NOT NULL THEN {folded("a.object")} END
RETURN count(a) AS done
"""
FOLD_STEPS: tuple[str, ...] = (FOLD_NAMES_OF_OLDER,)


# --- migration: versions written before entities get their links ------------------------------
# A page of versions without an ABOUT: the Python side computes their entity keys
# (graph_schema/entities/names.py; Cypher has no sha256) and LINK_EXISTING writes them.
UNLINKED = """
MATCH (a:Assertion)
WHERE a.subject IS NOT NULL AND NOT EXISTS { MATCH (a)-[:ABOUT]->(:Entity) }
RETURN a.id AS id, a.subject AS subject, a.predicate AS predicate, a.object AS object,
       coalesce(a.access, []) AS access
LIMIT $batch
"""

LINK_EXISTING = (
    """
UNWIND $rows AS row
MATCH (a:Assertion {id: row.id})
WHERE NOT EXISTS { MATCH (a)-[:ABOUT]->(:Entity) }
WITH a, row
"""
    + LINK_ENTITIES
    + """
RETURN count(a) AS done
"""
)

# the predicates whose object names a thing, as stored
THING_PREDICATES = """
MATCH (p:Predicate)
WHERE p.object_entity = true AND coalesce(p.value_type, 'string') = 'string'
RETURN collect(p.name) AS names
"""
