"""Every Cypher statement Tractatus runs: named constants and small builders.

Values always travel as ``$parameters``. The only text spliced into a statement is a node
variable name from :data:`_VARIABLES`, checked by :func:`visible`.
"""

from __future__ import annotations

_VARIABLES = frozenset({"a", "d", "e", "o", "ev", "cause", "effect", "x", "s", "q", "t", "n"})


def visible(var: str) -> str:
    """The visibility predicate over ``$groups``: the node is public or shares a group with
    the caller, and every source requirement in ``access_all`` (each "g1|g2": any of these
    groups) is met too, so a derived fact is visible only to readers of all its sources."""
    if var not in _VARIABLES:
        raise ValueError(f"unknown Cypher variable {var!r}")
    return (
        f"((size({var}.access) = 0 OR any(g IN {var}.access WHERE g IN $groups))"
        f" AND all(req IN coalesce({var}.access_all, [])"
        " WHERE any(g IN split(req, '|') WHERE g IN $groups)))"
    )


def known_and_valid(var: str) -> str:
    """Bitemporal filter: known at ``$known_at`` and valid at ``$as_of``.

    A closing ``valid_to`` only counts from the record time it was set (``closed_at``).
    """
    if var not in _VARIABLES:
        raise ValueError(f"unknown Cypher variable {var!r}")
    return (
        f"{var}.recorded_at <= $known_at"
        f" AND ({var}.superseded_at IS NULL OR {var}.superseded_at > $known_at)"
        f" AND {var}.valid_from <= $as_of"
        f" AND ({var}.valid_to IS NULL OR {var}.closed_at > $known_at OR {var}.valid_to > $as_of)"
    )


# Neo4j replans a cached statement once the store's statistics have moved far enough since
# it was planned. A store growing from empty during a bulk load moves them every few seconds
# ("Discarded stale query" in debug.log, 15-20 times a load, 16-73 ms each plus the JIT work
# on the new code). The write path's statements find every node by an indexed key, so their
# plan does not depend on the statistics, and they keep it. A test checks that each one plans
# as index seeks on an empty store: the plan it would keep.
STABLE_PLAN = "CYPHER replan=skip\n"


def stable(statement: str) -> str:
    """``statement`` keeping its cached plan when statistics move (see STABLE_PLAN)."""
    return STABLE_PLAN + statement.lstrip("\n")


# --- schema bookkeeping -------------------------------------------------------------------

SCHEMA_VERSION = "MATCH (v:SchemaVersion {id: 'schema'}) RETURN v.version AS version"
SET_SCHEMA_VERSION = """
MERGE (v:SchemaVersion {id: 'schema'})
SET v.version = $version, v.applied_at = datetime()
"""

# --- ontology -------------------------------------------------------------------------------

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

# --- the ledger: writes ----------------------------------------------------------------------

# Rows are processed in the order given ($slots sorted by key), so the locks are taken in
# key order and two batches cannot deadlock each other.
LOCK_SLOTS = stable("""
UNWIND $slots AS slot
MERGE (s:Slot {key: slot.key})
ON CREATE SET s.subject = slot.subject, s.predicate = slot.predicate, s.object = slot.object,
              s.access = slot.access, s.version = 0, s.created_at = $wall_clock
SET s.version = s.version + 1
RETURN max(s.last_recorded_at) AS last_recorded_at
""")
SET_SLOT_HEADS = stable("""
UNWIND $heads AS h
MATCH (s:Slot {key: h.key})
SET s.head = h.head, s.last_recorded_at = $now
""")
ALIVE_VERSIONS = stable("""
UNWIND $keys AS key
MATCH (a:Assertion {slot_key: key})
WHERE a.superseded_at IS NULL
RETURN key, a.id AS id, a.valid_from AS valid_from, a.valid_to AS valid_to,
       a.polarity AS polarity, a.object AS object
ORDER BY a.valid_from
""")
# Times travel as RFC 3339 strings and become datetimes here: the driver encodes a Python
# datetime in pure Python (~50 us each), and a bulk write carries four per assertion.
ASSERTION_TIMES = ("valid_from", "valid_to", "closed_at", "recorded_at", "superseded_at")
EVIDENCE_TIMES = ("occurred_at", "recorded_at")
OBSERVATION_TIMES = ("occurred_at", "received_at")


def set_times(var: str, source: str, keys: tuple[str, ...]) -> str:
    """``var.k = datetime(source.k)`` for each key (``datetime(null)`` is null: unset)."""
    if var not in _VARIABLES:
        raise ValueError(f"unknown Cypher variable {var!r}")
    return ", ".join(f"{var}.{k} = datetime({source}.{k})" for k in keys)


CREATE_ASSERTIONS = stable(f"""
UNWIND $rows AS row
CREATE (a:Assertion)
SET a = row.props
SET {set_times("a", "row.props", ASSERTION_TIMES)}
WITH a, row
UNWIND row.evidence AS ev
CREATE (e:Evidence)
SET e = ev
SET {set_times("e", "ev", EVIDENCE_TIMES)}
CREATE (a)-[:EVIDENCED_BY]->(e)
WITH e, ev
CALL (e, ev) {{
  WITH e, ev WHERE ev.observation_id IS NOT NULL
  MATCH (o:Observation {{id: ev.observation_id}})
  CREATE (e)-[:FROM]->(o)
}}
RETURN count(e) AS evidence
""")
# Each close names the version that closes it ($closes: {id, valid_to, new_id}).
CLOSE_VERSIONS = stable("""
UNWIND $closes AS c
MATCH (x:Assertion {id: c.id})
WHERE x.valid_to IS NULL AND x.superseded_at IS NULL
SET x.valid_to = datetime(c.valid_to), x.closed_at = $now
WITH x, c
MATCH (a:Assertion {id: c.new_id})
CREATE (a)-[:SUPERSEDES]->(x)
RETURN count(x) AS closed
""")
SUPERSEDE_VERSIONS = stable("""
UNWIND $ids AS id
MATCH (x:Assertion {id: id})
WHERE x.superseded_at IS NULL
SET x.superseded_at = $now
WITH x
MATCH (a:Assertion {id: $new_id})
CREATE (a)-[:SUPERSEDES]->(x)
RETURN count(x) AS superseded
""")
CREATE_REMNANT = stable("""
MATCH (src:Assertion {id: $source_id})-[:EVIDENCED_BY]->(e:Evidence)
WITH src, collect(e) AS evidence
CREATE (r:Assertion)
SET r = src {
  .*, id: $id, valid_from: $valid_from, valid_to: $valid_to,
  closed_at: CASE WHEN $valid_to IS NULL THEN null ELSE $now END,
  recorded_at: $now, superseded_at: null, remnant_of: src.id
}
CREATE (r)-[:SUPERSEDES]->(src)
FOREACH (e IN evidence | CREATE (r)-[:EVIDENCED_BY]->(e))
WITH r, src
CALL (r, src) {
  MATCH (src)-[:DISCLOSED_AS]->(d:Disclosure)
  CREATE (r)-[:DISCLOSED_AS]->(d)
}
RETURN r.id AS id
""")
CREATE_DISCLOSURES = stable("""
MATCH (a:Assertion {id: $id})
UNWIND $disclosures AS d
CREATE (x:Disclosure)
SET x = d, x.recorded_at = $now
CREATE (a)-[:DISCLOSED_AS]->(x)
""")
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
LINK_CAUSED_BY = """
MATCH (a:Assertion {id: $assertion_id}), (ev:Event {id: $event_id})
CREATE (a)-[:CAUSED_BY]->(ev)
"""

# --- the ledger: reads ------------------------------------------------------------------------

_ASSERTION_PROJECTION = (
    """
  a {.*, embedding: null, text: null, slot_key: null} AS assertion,
  [(a)-[:EVIDENCED_BY]->(e) WHERE """
    + visible("e")
    + """ | e {.*}] AS evidence,
  [(a)-[:SUPERSEDES]->(x) | x.id] AS supersedes,
  [(x)-[:SUPERSEDES]->(a) WHERE x.recorded_at <= $known_at AND """
    + visible("x")
    + """ | x.id]
    AS superseded_by
"""
)

_VIEW_FIELDS = (
    ".subject, .predicate, .polarity, .valid_from, .valid_to, .closed_at, .recorded_at,"
    " .superseded_at, .source_kind, .asserted_by, .confidence, .tier"
)

_FACT_RETURN = (
    """
WITH a, """
    + visible("a")
    + """ AS exact
OPTIONAL MATCH (a)-[:DISCLOSED_AS]->(d:Disclosure)
  WHERE NOT exact AND """
    + visible("d")
    + """
WITH a, exact, d ORDER BY d.id
WITH a, exact, head(collect(d)) AS d
WHERE exact OR d IS NOT NULL
RETURN
  CASE WHEN exact
    THEN a {.*, embedding: null, text: null, slot_key: null, view: 'exact'}
    ELSE a {"""
    + _VIEW_FIELDS
    + """, id: d.id, object: d.object, trend: d.trend,
            access: d.access, view: 'disclosure'}
  END AS assertion,
  CASE WHEN exact
    THEN [(a)-[:EVIDENCED_BY]->(e) WHERE """
    + visible("e")
    + """ | e {.*}] ELSE [] END AS evidence,
  CASE WHEN exact THEN [(a)-[:SUPERSEDES]->(x) | x.id] ELSE [] END AS supersedes,
  CASE WHEN exact
    THEN [(x)-[:SUPERSEDES]->(a) WHERE x.recorded_at <= $known_at | x.id] ELSE [] END
    AS superseded_by
"""
)

CURRENT_FACTS = (
    """
MATCH (a:Assertion {subject: $subject, predicate: $predicate})
WHERE """
    + known_and_valid("a")
    + """
  AND a.polarity = true AND a.tier IN $tiers AND a.confidence >= $min_confidence
"""
    + _FACT_RETURN
    + """
ORDER BY a.valid_from DESC, a.recorded_at DESC, a.id
"""
)

HISTORY = (
    """
MATCH (a:Assertion {subject: $subject, predicate: $predicate})
WHERE a.recorded_at <= $known_at
"""
    + _FACT_RETURN
    + """
ORDER BY a.valid_from, a.recorded_at, a.id
"""
)

GET_ASSERTION = (
    """
MATCH (a:Assertion {id: $id})
WHERE """
    + visible("a")
    + """
RETURN """
    + _ASSERTION_PROJECTION
)

# --- quarantine -------------------------------------------------------------------------------

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

# --- health and checks ---------------------------------------------------------------------

PING = "RETURN 1 AS ok"

OVERLAPPING_VERSIONS = """
MATCH (a:Assertion), (b:Assertion)
WHERE a.slot_key = b.slot_key AND a.id < b.id
WITH a, b,
     [t IN [a.recorded_at, b.recorded_at, a.closed_at, b.closed_at] WHERE t IS NOT NULL] AS ks
UNWIND ks AS k
WITH a, b, k
WHERE a.recorded_at <= k AND (a.superseded_at IS NULL OR a.superseded_at > k)
  AND b.recorded_at <= k AND (b.superseded_at IS NULL OR b.superseded_at > k)
WITH a, b, k,
     CASE WHEN a.valid_to IS NOT NULL AND a.closed_at <= k THEN a.valid_to END AS a_end,
     CASE WHEN b.valid_to IS NOT NULL AND b.closed_at <= k THEN b.valid_to END AS b_end
WHERE (a_end IS NULL OR a_end > b.valid_from) AND (b_end IS NULL OR b_end > a.valid_from)
RETURN a.slot_key AS slot, a.id AS first, b.id AS second, k AS known_at
LIMIT 100
"""

# --- observations -----------------------------------------------------------------------------

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
