"""All Cypher of recall: candidate lists, graph expansion, result fetch, passage indexing.

Every candidate query applies visibility (:func:`graph_schema.core_cypher.visible`), the bitemporal
filter (:func:`graph_schema.core_cypher.known_and_valid`) and the caller's filters in its WHERE,
*before* ``ORDER BY ... LIMIT``: ranks are ranks among what the caller may see. The vector index
answers its top ``$fetch`` before any WHERE, so index queries over-fetch; scoped requests
(conversation, task, subject) scan their scope exactly instead.

Parameters common to all statements: ``$groups``, ``$caller``, ``$as_of``, ``$known_at``,
``$said_by`` (``$as_of``, or no bound with ``include_superseded``: below),
``$min_confidence``, ``$filter`` (below), ``$subject``, ``$task_id``, ``$conversation_id``,
``$include_superseded``, ``$vector`` (may be null), ``$limit``, ``$exact_limit``; the full-text
statements also take ``$index`` and ``$lists`` (``terms``, ``fields``), the graph and result
statements ``$lists`` (``ids``).

The filters are read in the WHERE clauses from ``$filter``, one map: ``tiers`` (a list of one
to four) and the four that may be absent (``source_kinds``, ``subject``, ``task_id``,
``conversation_id``; null when absent).
Neo4j caches a plan per statement and per parameter *type and size class* (null, an empty
string, a short one and a long one are four plans): as separate parameters, each combination
of filters was planned again on its first use, ~1-2 s for a recall; a map is one type, so
one plan serves them all. The scoped statements match their scope (``MATCH (o:Observation
{conversation_id: $conversation_id})``) by the top-level parameter, which they always have.
The lists whose length changes from one call to the next (the query's terms, the ids of the
groups to expand or fetch) are read from one map too, ``$lists``: as parameters of their
own, a list of one, of two to ten, of eleven to a hundred... were each planned apart, and the
first recalls after a start paid 0.4-1 s a statement for each new length (measured on 5.26).

A turn counts as of ``$as_of``: recall reads, ranks and shows only the turns said by then
(``occurred_at <= $said_by``: candidates, neighbours, the turn of a result and its evidence), as
a read as of a time lists only the evidence said by then (docs/semantics.md "Evidence at an
as_of"); with ``include_superseded``, which reads every version recorded by ``$known_at``
whatever its valid time, every turn those cite (``$said_by`` bounds nothing).

A *group* is what recall ranks: the observation (conversation turn) an assertion was distilled
from, or the assertion itself when it came from no observation. A ``(:Passage)`` is a derived
search document for one observation: its text with the speaker, and a context made of the
previous turn of the same conversation and visibility scope plus the turn itself.
"""

from __future__ import annotations

from functools import partial

from graph_schema.core.cypher import (
    CALLER_READERS,
    READERS_NONE,
    effective_tier,
    known_and_valid,
    readers_of,
    task_shown,
    turns_beside,
    visible,
)
from graph_schema.ledger import cypher as ledger_cypher

VECTOR_INDEXES = {
    "assertion": "assertion_embedding",
    "passage": "passage_embedding",
    "context": "passage_context_embedding",
}
FULLTEXT_INDEXES = {
    ("assertion", False): "assertion_text",
    ("assertion", True): "assertion_text_cjk",
    ("passage", False): "passage_text",
    ("passage", True): "passage_context_cjk",
    ("context", False): "passage_context",
    ("context", True): "passage_context_cjk",
}
# the text properties each full-text index holds beside ``readers`` (a query term is asked
# of these only, never of the readers terms)
FULLTEXT_FIELDS = {
    "assertion_text": ["text"],
    "assertion_text_cjk": ["text", "object"],
    "passage_text": ["text"],
    "passage_context": ["context"],
    "passage_context_cjk": ["context", "text"],
}
# the index that lists every node of a kind by its readers (exact vector candidates)
READERS_INDEXES = {"assertion": "assertion_text", "passage": "passage_text"}
PASSAGE_PROPERTIES = {"passage": "embedding", "context": "context_embedding"}
TEXT_PROPERTIES = {"passage": "text", "context": "context"}


def assertion_filter(var: str, *, conversation: bool = True) -> str:
    """What a caller may get back: visible, known and valid (or recorded, when superseded
    facts are asked for), positive, in the tiers (as known at ``$known_at``), confident
    enough, within the filters (``$filter``, one map: see the module's docstring)."""
    return f"{_standing(var, conversation=conversation)} AND {_in_time(var)}"


def _in_time(var: str) -> str:
    """Known and valid at the read's times, or recorded by ``$known_at`` when superseded
    facts are asked for."""
    return f"(($include_superseded AND {var}.recorded_at <= $known_at) OR ({known_and_valid(var)}))"


def _standing(var: str, *, conversation: bool = True) -> str:
    """:func:`assertion_filter` but the times."""
    clauses = [
        visible(var),
        f"{var}.polarity = true",
        f"{effective_tier(var)} IN $filter.tiers",
        f"{var}.confidence >= $min_confidence",
        f"($filter.source_kinds IS NULL OR {var}.source_kind IN $filter.source_kinds)",
        f"($filter.subject IS NULL OR {var}.subject = $filter.subject)",
        f"($filter.task_id IS NULL OR ({var}.task_id = $filter.task_id AND {task_shown(var)}))",
    ]
    if conversation:
        clauses.append(
            f"($filter.conversation_id IS NULL OR EXISTS {{ MATCH ({var})-[:EVIDENCED_BY]->"
            "(:Evidence)-[:FROM]->(cv:Observation)"
            " WHERE cv.conversation_id = $filter.conversation_id })"
        )
    return " AND ".join(clauses)


def observation_filter(var: str) -> str:
    """An observation counts when it was said by ``$said_by`` (``$as_of``), is visible and holds
    at least one assertion that counts."""
    return (
        f"{var}.occurred_at <= $said_by AND {visible(var)}"
        f" AND EXISTS {{ MATCH ({var})<-[:FROM]-(:Evidence)<-[:EVIDENCED_BY]-(a:Assertion)"
        f" WHERE {assertion_filter('a', conversation=False)} }}"
    )


def passage_filter(var: str) -> str:
    """A passage counts when its observation does (said by ``$said_by`` among the rest)."""
    return (
        f"{visible(var)} AND ($filter.conversation_id IS NULL"
        f" OR {var}.conversation_id = $filter.conversation_id)"
        f" AND ($filter.task_id IS NULL OR {var}.task_id = $filter.task_id)"
        f" AND EXISTS {{ MATCH ({var})-[:OF]->(o:Observation) WHERE {observation_filter('o')} }}"
    )


def similarity(var: str) -> str:
    """The node's own cosine to the query vector, null without a vector or an embedding."""
    return (
        f"CASE WHEN $vector IS NULL OR {var}.embedding IS NULL THEN null"
        f" ELSE vector.similarity.cosine({var}.embedding, $vector) END"
    )


_SIMILARITY = similarity("a")


def instant(expr: str) -> str:
    """The temporal value ``expr`` as ``[epoch seconds, nanosecond]``, the seconds floored,
    null for null (read by ``graph_schema.core.records.as_instant``): the driver's own
    conversion of a DateTime costs ~40 us, and a recall's candidate rows carry hundreds
    (docs/recall.md). Neo4j's ``epochSeconds`` rounds toward zero (-0.5 s is 0)."""
    floor = "CASE WHEN t < datetime({epochSeconds: 0}) AND t.nanosecond > 0 THEN 1 ELSE 0 END"
    return f"[t IN [{expr}] WHERE t IS NOT NULL | [t.epochSeconds - {floor}, t.nanosecond]][0]"


# The observation a group stands for is one of the filtered conversation: a fact restated in
# several conversations cites a turn of each, and a recall filtered to one must neither return
# another's turn (nor its neighbours) nor read its status from it (a new user's trial: one
# user's private turn answered another's question). And it was said by the time asked
# (``$said_by``): a fact valid then and restated later cites the later turn too (a new user's
# trial: "How old did my dad turn?" as of 1 April answered from "My dad turned 60 last
# Sunday!", said on 6 May, which the restated ``has_relative`` of February cited). A fact
# valid then that no turn said by then cites (said later of an earlier time) is a group of
# its own, as a fact from no turn.
_IN_CONVERSATION = "$filter.conversation_id IS NULL OR o.conversation_id = $filter.conversation_id"
_IN_VIEW = f"({_IN_CONVERSATION}) AND o.occurred_at <= $said_by"


def _group_columns(var: str) -> str:
    """``gid`` and ``speaker`` of assertion ``var``: its observation (of the filtered
    conversation, when a filter names one) and that observation's speaker when it was
    distilled from one, else the assertion itself and its subject."""
    evidence = f"({var})-[:EVIDENCED_BY]->(:Evidence)-[:FROM]->(o:Observation) WHERE {_IN_VIEW}"
    return (
        f"coalesce(head([{evidence} | o.id]), {var}.id) AS gid,\n"
        f"  coalesce(head([{evidence} | o.speaker]), {var}.subject) AS speaker"
    )


_ASSERTION_ROW = (
    """
RETURN
  """
    + _group_columns("a")
    + """,
  score AS similarity,
  a.text AS text, a.source_kind AS source_kind,
  """
    + instant(
        "coalesce(head([(a)-[:EVIDENCED_BY]->(e:Evidence)-[:FROM]->(o:Observation)"
        f" WHERE e.occurred_at IS NOT NULL AND {_IN_VIEW} | e.occurred_at]),"
        " head([(a)-[:EVIDENCED_BY]->(e:Evidence) WHERE e.occurred_at <= $said_by"
        " | e.occurred_at]), a.valid_from)"
    )
    + """ AS occurred_at
ORDER BY score DESC, a.id
"""
)

# a passage row describes the turn itself: its own text and its own cosine to the query (the
# context only decides the rank of the context lists)
_PASSAGE_ROW = f"""
RETURN n.observation_id AS gid, similarity, n.text AS text, n.speaker AS speaker,
       {instant("n.occurred_at")} AS occurred_at, true AS turn,
       head([(n)-[:OF]->(o:Observation) | o.source_kind]) AS source_kind
ORDER BY score DESC, n.observation_id
"""

_PASSAGE_SIMILARITY = similarity("n")

# a passage list ranked by the cosine of one of its embeddings (``$property``)
_PASSAGE_VECTOR_TAIL = (
    """
WITH n, vector.similarity.cosine(n[$property], $vector) AS score
ORDER BY score DESC, n.observation_id LIMIT $limit
WITH n, score, """
    + _PASSAGE_SIMILARITY
    + """ AS similarity
"""
    + _PASSAGE_ROW
)


def _embedded_filter(var: str) -> str:
    return f"{var}.embedding IS NOT NULL AND {assertion_filter(var)}"


# A candidate ``s`` that the caller may read but that is not current at the read's times is
# replaced by the versions that closed it and pass the whole filter: a version found by the
# seek before a write committed and read closed after it would leave the slot with neither
# (a race test: 12 recalls in 900 `not_found` while one agent wrote the slot they asked
# about; docs/semantics.md "Reads while a slot is written"). A version closed long ago is
# replaced by its current closer, which the list holds on its own rank anyway. Only a
# candidate the caller may read is replaced: a hidden one brings in nothing.
_CURRENT_CANDIDATES = (
    ledger_cypher.passed_or_closers(_in_time, closers=_embedded_filter) + "\nWITH DISTINCT a"
)

# --- assertion candidates -----------------------------------------------------------------------

ASSERTION_VECTOR_INDEX = (
    """
CALL db.index.vector.queryNodes('assertion_embedding', $fetch, $vector) YIELD node AS s
WHERE """
    + _standing("s")
    + _CURRENT_CANDIDATES
    + """
WITH a, vector.similarity.cosine(a.embedding, $vector) AS score
ORDER BY score DESC, a.id LIMIT $limit
"""
    + _ASSERTION_ROW
)

_ASSERTION_SCAN_TAIL = (
    _CURRENT_CANDIDATES
    + """
WITH a, vector.similarity.cosine(a.embedding, $vector) AS score
ORDER BY score DESC, a.id LIMIT $limit
"""
    + _ASSERTION_ROW
)

# ``o.occurred_at IS NOT NULL`` (every observation has one) lets the planner seek the index
# (conversation_id, occurred_at): with the first key alone it scanned every observation
# (the hint keeps the seek when the statistics say one conversation holds every turn)
ASSERTION_VECTOR_SCAN_CONVERSATION = (
    """
MATCH (o:Observation {conversation_id: $conversation_id})<-[:FROM]-(:Evidence)
      <-[:EVIDENCED_BY]-(s:Assertion)
USING INDEX SEEK o:Observation(conversation_id, occurred_at)
WHERE o.occurred_at IS NOT NULL AND s.embedding IS NOT NULL AND """
    + _standing("s", conversation=False)
    + _ASSERTION_SCAN_TAIL
)

ASSERTION_VECTOR_SCAN_TASK = (
    """
MATCH (s:Assertion {task_id: $task_id})
WHERE s.embedding IS NOT NULL AND """
    + _standing("s")
    + _ASSERTION_SCAN_TAIL
)

# ``a.predicate IS NOT NULL`` (every assertion has one): the index (subject, predicate) is
# sought, not every Assertion of the store scanned
ASSERTION_VECTOR_SCAN_SUBJECT = (
    """
MATCH (s:Assertion)
USING INDEX SEEK s:Assertion(subject, predicate)
WHERE s.subject = $subject AND s.predicate IS NOT NULL AND s.embedding IS NOT NULL AND """
    + _standing("s")
    + _ASSERTION_SCAN_TAIL
)


# --- exact vector candidates: every node the caller's groups can read --------------------------
# While the caller can read at most $exact_limit nodes of a kind, its vector list is an exact
# scan of those nodes (found by their readers terms), not an index query over-fetched past
# hidden nodes: the work grows with what it may see only (docs/security.md "Timing").

READABLE_COUNT = f"""
CALL db.index.fulltext.queryNodes($readers_index, {CALLER_READERS}, {{limit: $exact_limit + 1}})
YIELD node
RETURN count(node) AS readable
"""

ASSERTION_VECTOR_EXACT = (
    f"""
CALL db.index.fulltext.queryNodes('assertion_text', {CALLER_READERS}, {{limit: $exact_limit}})
YIELD node AS s
WHERE s.embedding IS NOT NULL AND """
    + _standing("s")
    + _ASSERTION_SCAN_TAIL
)

PASSAGE_VECTOR_EXACT = (
    f"""
CALL db.index.fulltext.queryNodes('passage_text', {CALLER_READERS}, {{limit: $exact_limit}})
YIELD node AS n
WHERE n[$property] IS NOT NULL AND """
    + passage_filter("n")
    + _PASSAGE_VECTOR_TAIL
)


def _visible_bm25(var: str, where: str, length: str) -> str:
    """Full-text hits ranked by BM25 computed over what the caller may see, nothing else.

    Lucene's own score weighs terms by index-wide statistics that count hidden documents,
    so a hidden document could reorder visible hits. Here the index only *matches*: one
    query per term (``$terms``), each filtered by ``where`` before anything is counted; a
    term's document frequency, the number of documents and their average length are counted
    over the visible, filtered matches; every match counts its term once (tf = 1; chat turns
    and sentences rarely repeat a word). Only the caller's own view enters the score.

    Each query asks Lucene for the term in the index's text fields (``$fields``) *and* the
    caller's readers terms (``CALLER_READERS``), so hidden matches are skipped inside the
    index: the work follows what the caller may see, not how much hidden text matches the
    term. The term's clause also holds ``READERS_NONE``, which no node has: a term that the
    index's analyzer drops leaves that alone, and the query matches nothing (without it,
    only the readers clause would be left, and it matches every readable node)."""
    return f"""
WITH {CALLER_READERS} AS readers
UNWIND $lists.terms AS term
CALL (term, readers) {{
  CALL db.index.fulltext.queryNodes($index, '+' + readers + ' +('
    + reduce(s = '', f IN $lists.fields | s + f + ':(' + term + ') ') + 'readers:{READERS_NONE})')
  YIELD node AS {var}
  WHERE {where}
  RETURN collect({var}) AS hits
}}
WITH size(hits) AS df, hits
UNWIND hits AS {var}
WITH {var}, collect(df) AS dfs
WITH collect({{node: {var}, dfs: dfs, dl: toFloat(size(coalesce({length}, '')))}}) AS rows
WITH rows WHERE size(rows) > 0
WITH rows, toFloat(size(rows)) AS n,
     reduce(t = 0.0, r IN rows | t + r.dl) / size(rows) AS avgdl
UNWIND rows AS r
WITH r.node AS {var},
     reduce(t = 0.0, df IN r.dfs | t + log(1.0 + (n - df + 0.5) / (df + 0.5)))
       * 2.2 / (1.0 + 1.2 * (0.25 + 0.75 * r.dl / CASE WHEN avgdl > 0 THEN avgdl ELSE 1.0 END))
       AS score
"""


ASSERTION_FULLTEXT = (
    _visible_bm25("a", assertion_filter("a"), "a.text")
    + """
WITH a, score ORDER BY score DESC, a.id LIMIT $limit
WITH a, """
    + _SIMILARITY
    + """ AS similarity, score
"""
    + _ASSERTION_ROW.replace("score AS similarity", "similarity")
)

# --- passage candidates -------------------------------------------------------------------------

PASSAGE_VECTOR_INDEX = (
    """
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node AS n
WHERE """
    + passage_filter("n")
    + _PASSAGE_VECTOR_TAIL
)

PASSAGE_VECTOR_SCAN_CONVERSATION = (
    """
MATCH (n:Passage {conversation_id: $conversation_id})
USING INDEX SEEK n:Passage(conversation_id)
WHERE n[$property] IS NOT NULL AND """
    + passage_filter("n")
    + _PASSAGE_VECTOR_TAIL
)

PASSAGE_FULLTEXT = (
    _visible_bm25("n", passage_filter("n"), "n[$property]")
    + """
WITH n, score ORDER BY score DESC, n.observation_id LIMIT $limit
WITH n, score, """
    + _PASSAGE_SIMILARITY
    + """ AS similarity
"""
    + _PASSAGE_ROW
)

# --- graph expansion ----------------------------------------------------------------------------

_NEIGHBOUR_ROW = f"""
RETURN x.id AS gid,
       CASE WHEN $vector IS NULL THEN null ELSE head([(x)<-[:OF]-(p:Passage)
         WHERE p.embedding IS NOT NULL | vector.similarity.cosine(p.embedding, $vector)]) END
         AS similarity,
       coalesce(head([(x)<-[:OF]-(p:Passage) | p.text]), x.text, '') AS text,
       x.speaker AS speaker, {instant("x.occurred_at")} AS occurred_at,
       x.source_kind AS source_kind, EXISTS {{ (x)<-[:OF]-(:Passage) }} AS turn
"""

NEIGHBOUR_TURNS = (
    """
UNWIND $lists.ids AS id
MATCH (o:Observation {id: id})
WHERE o.conversation_id IS NOT NULL AND """
    + visible("o")
    + """
CALL (o) {"""
    + turns_beside("o", "x", after=False, where=observation_filter("x"))
    + """
  UNION"""
    + turns_beside("o", "x", after=True, where=observation_filter("x"), until="$said_by")
    + """
}
WITH id AS source, x
"""
    + _NEIGHBOUR_ROW.replace("RETURN x.id AS gid", "RETURN source, x.id AS gid")
)

EVENT_NEIGHBOURS = (
    """
UNWIND $lists.ids AS id
MATCH (a:Assertion {id: id})-[:CAUSED_BY]->(ev:Event)
WHERE """
    + visible("ev")
    + """
MATCH (ev)-[:CAUSED_BY*0..1]-(cause:Event)
WHERE """
    + visible("cause")
    + """
MATCH (x:Assertion)-[:CAUSED_BY]->(cause)
WHERE x.id <> id AND NOT EXISTS { (x)-[:EVIDENCED_BY]->(:Evidence)-[:FROM]->(:Observation) }
  AND """
    + assertion_filter("x")
    + """
WITH DISTINCT id AS source, x
RETURN source, x.id AS gid, """
    + similarity("x")
    + """ AS similarity,
       x.text AS text, x.subject AS speaker, """
    + instant("x.valid_from")
    + """ AS occurred_at,
       x.source_kind AS source_kind
"""
)

# One hop through the entity graph (docs/entities.md): the facts of a top group that point at
# a thing (OBJECT) bring the facts about that thing (ABOUT), so "Alice works at Acme" brings
# "Acme is located in Berlin". Both ends pass the caller's filter; an Entity is only where
# the two meet (same namespace, docs/entities.md), never read for itself. ``said`` sentences
# are a person's words, not facts about them: they are not followed. At most
# ``ENTITY_NEIGHBOUR_LIMIT`` facts per group, the most similar first.
ENTITY_NEIGHBOUR_LIMIT = 10

ENTITY_NEIGHBOURS = (
    """
UNWIND $lists.ids AS id
CALL (id) {
  MATCH (a:Assertion {id: id}) RETURN a
  UNION
  MATCH (:Observation {id: id})<-[:FROM]-(:Evidence)<-[:EVIDENCED_BY]-(a:Assertion) RETURN a
}
WITH id, a WHERE """
    + assertion_filter("a")
    + """
MATCH (a)-[:OBJECT]->(:Entity)<-[:ABOUT]-(x:Assertion)
WHERE x.predicate <> 'said' AND x.id <> a.id AND """
    + assertion_filter("x")
    + """
WITH DISTINCT id AS source, x
WITH source, x, """
    + similarity("x")
    + """ AS similarity
ORDER BY coalesce(similarity, -1.0) DESC, x.id
WITH source, collect({x: x, similarity: similarity})[..$entity_limit] AS rows
UNWIND rows AS row
WITH source, row.x AS x, row.similarity AS similarity
RETURN source, similarity, x.text AS text, """
    + instant("x.valid_from")
    + """ AS occurred_at,
  x.source_kind AS source_kind,
  """
    + _group_columns("x")
)

# --- results: the qualifying assertions of the chosen groups ------------------------------------

# What the ranking's rules read of each qualifying assertion (its sentence, its cosine, the
# fact's ends, who said it): the whole answer (evidence, versions, record times) is read only
# for the assertions returned (RESULT_ASSERTIONS), a few of the hundreds read here, whose
# dozens of DateTime values each the driver converts slowly (docs/recall.md, latency).
# ``conversation``: the group's conversation (null for an assertion written without one), read
# by the contrast between people, which compares the people of the person's conversations only.
_RESULT_TAIL = (
    """
RETURN gid, conversation, """
    + _SIMILARITY
    + """ AS similarity, a.text AS text,
  a {.id, .subject, .predicate, .object, .polarity, .source_kind} AS assertion
"""
)

OBSERVATION_ASSERTIONS = (
    """
UNWIND $lists.ids AS gid
MATCH (o:Observation {id: gid})<-[:FROM]-(:Evidence)<-[:EVIDENCED_BY]-(a:Assertion)
WHERE o.occurred_at <= $said_by AND """
    + assertion_filter("a", conversation=False)
    + """
WITH DISTINCT gid, a, o.conversation_id AS conversation
"""
    + _RESULT_TAIL
)


# The candidates were tested by an earlier statement of the same read; one that fails now was
# closed by a write that committed in between, and the version that closed it is the answer
# (``ledger_cypher.passed_or_closers``; docs/semantics.md "Reads while a slot is written").
GROUP_ASSERTIONS = (
    """
UNWIND $lists.ids AS gid
MATCH (s:Assertion {id: gid})"""
    + ledger_cypher.passed_or_closers(assertion_filter, "gid")
    + """
WITH gid, a, null AS conversation"""
    + _RESULT_TAIL
)

# The assertions an answer returns, whole (``$lists.ids``: their ids, read by the statements
# above in the same transaction; the caller's filter again, so nothing else is read; one a
# write closed since is answered by the version that closed it, under the id asked), and
# ``left_out``: the evidence the answer leaves out, from turns of another conversation than
# the one filtered, or said after the time asked (``$said_by``).
RESULT_ASSERTIONS = (
    """
UNWIND $lists.ids AS id
MATCH (s:Assertion {id: id})"""
    + ledger_cypher.passed_or_closers(partial(assertion_filter, conversation=False), "id")
    + """
RETURN id,
  [(a)-[:EVIDENCED_BY]->(e:Evidence) WHERE e.occurred_at > $said_by
    OR EXISTS { MATCH (e)-[:FROM]->(o:Observation) WHERE NOT ("""
    + _IN_VIEW
    + """) } | e.id] AS left_out,
"""
    + ledger_cypher.ASSERTION_PROJECTION
)

# The turn a result was distilled from, as the caller may read it (GET /v1/observations/{id}'s
# rule): a window of at most TURN_CHARS characters (code points, as Python counts them) around
# ``from``, moved left when it would pass the end; the whole text when it is no longer.
# ``$lists.turns``: ``[{id, from}]``, one per result that is a turn.

TURN_CHARS = 2_000

RESULT_TURNS = f"""
UNWIND $lists.turns AS t
MATCH (o:Observation {{id: t.id}})
WHERE {visible("o")}
WITH t, o, coalesce(o.chars, size(o.text)) AS n
WITH t, o, n,
     CASE WHEN n <= {TURN_CHARS} OR t.from < 0 THEN 0
          WHEN t.from > n - {TURN_CHARS} THEN n - {TURN_CHARS}
          ELSE t.from END AS start
RETURN o.id AS id, o.speaker AS speaker, o.occurred_at AS occurred_at, n AS chars, start,
       CASE WHEN o.text IS NULL THEN null ELSE substring(o.text, start, {TURN_CHARS}) END AS text
"""

# --- passages (a write path: run by the observation write, and by the repair tool) -----------
#
# Order in a conversation: (occurred_at, id) among the turns of the same conversation and the
# same access; a turn's context is its previous turn in that order. A passage records which turn
# it took as context (``context_of``); it is stale when that is no longer the previous turn (a
# turn arrived out of order between them) and is then rebuilt: deleted and written again.

_PREVIOUS_TURN = (
    """
OPTIONAL CALL (o) {"""
    + turns_beside("o", "x", after=False, where="x.access = o.access")
    + """
}
"""
)

_PASSAGE_SOURCE = """
RETURN o {.id, .text, .speaker, .occurred_at, .conversation_id, .task_id, .access} AS obs,
       [(o)<-[:FROM]-(e:Evidence) | e.quote] AS quotes,
       CASE WHEN x IS NULL THEN null ELSE x {.id, .text, .speaker} END AS prev,
       CASE WHEN x IS NULL THEN [] ELSE [(x)<-[:FROM]-(e:Evidence) | e.quote] END AS prev_quotes
"""

PENDING_PASSAGES = """
MATCH (o:Observation)
WHERE ($conversation_id IS NULL OR o.conversation_id = $conversation_id)
  AND NOT EXISTS { (o)<-[:OF]-(:Passage) }
WITH o ORDER BY o.received_at, o.id LIMIT $limit
RETURN o.id AS id
"""

COUNT_PENDING_PASSAGES = """
MATCH (o:Observation)
WHERE ($conversation_id IS NULL OR o.conversation_id = $conversation_id)
  AND NOT EXISTS { (o)<-[:OF]-(:Passage) }
RETURN count(o) AS pending
"""

PASSAGE_CONVERSATIONS = """
MATCH (o:Observation) WHERE o.id IN $ids AND o.conversation_id IS NOT NULL
RETURN DISTINCT o.conversation_id AS conversation_id ORDER BY conversation_id
"""

# One lock node per conversation (unique, migration 12), taken in a sorted order: the passages of
# a conversation are settled by one transaction at a time, each after its turns were committed,
# so the last one to run sees every turn and leaves no context stale.
LOCK_CONVERSATIONS = """
UNWIND $conversation_ids AS conversation_id
MERGE (l:PassageLock {conversation_id: conversation_id})
SET l.locked_at = $now
"""

# The turns ``$ids`` and the turn after each, whose passage is missing or took another turn as
# its context than the previous one now is.
STALE_PASSAGES = (
    """
UNWIND $ids AS id
MATCH (t:Observation {id: id})
OPTIONAL CALL (t) {"""
    + turns_beside("t", "y", after=True, where="y.access = t.access")
    + """
}
UNWIND [t, y] AS o
WITH DISTINCT o WHERE o IS NOT NULL
"""
    + _PREVIOUS_TURN
    + """
OPTIONAL MATCH (o)<-[:OF]-(n:Passage)
WITH o, x, n
WHERE n IS NULL OR coalesce(n.context_of, '') <> coalesce(x.id, '')
"""
    + _PASSAGE_SOURCE
)

# A passage is derived data: a stale one is deleted and written again, never edited.
REPLACE_PASSAGES = (
    """
UNWIND $rows AS row
MATCH (o:Observation {id: row.observation_id})
OPTIONAL MATCH (old:Passage {observation_id: row.observation_id})
DETACH DELETE old
WITH o, row
CREATE (n:Passage)
SET n = row.props
SET n.readers = """
    + readers_of("n")
    + """
CREATE (n)-[:OF]->(o)
RETURN count(n) AS written
"""
)

# Migration 12: passages written by an older version with a context that is no longer the
# previous turn (a turn that arrived after its successor was indexed) are deleted; they are
# pending again, and POST /v1/recall/index rebuilds them.
STALE_PASSAGE_STEPS: tuple[str, ...] = (
    """
MATCH (n:Passage)-[:OF]->(o:Observation)
WHERE o.conversation_id IS NOT NULL
"""
    + _PREVIOUS_TURN
    + """
WITH n, x WHERE coalesce(n.context_of, '') <> coalesce(x.id, '')
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS done
""",
)


# --- migration 11: readers terms on what recall searches ------------------------------------------


def _readers_step(label: str, var: str) -> str:
    return f"""
MATCH ({var}:{label}) WHERE {var}.readers IS NULL
WITH {var} LIMIT $batch
SET {var}.readers = {readers_of(var)}
RETURN count({var}) AS done
"""


READERS_STEPS: tuple[str, ...] = (_readers_step("Assertion", "a"), _readers_step("Passage", "n"))
