"""Every Cypher statement of the ledger: slot locks, versions, closes, remnants, disclosures,
and the bitemporal reads of facts and history.

Values always travel as ``$parameters``; node variables are checked by
:func:`graph_schema.core.cypher.visible`.
"""

from __future__ import annotations

from collections.abc import Callable

from graph_schema.core.cypher import (
    PIN_CHANGE,
    effective_tier,
    known_and_valid,
    pinned,
    readers_of,
    set_times,
    shown_task_id,
    stable,
    task_shown,
    visible,
)
from graph_schema.entities.names import FOLD_LETTERS, FOLD_MARKS, NAMING_PREDICATES
from graph_schema.ledger.types import UTTERANCE
from graph_schema.lifecycle.cypher import transitions
from graph_schema.lifecycle.types import Rule

# Rows are processed in the order given ($slots sorted by key), so the locks are taken in
# key order and two batches cannot deadlock each other.
LOCK_SLOTS = stable("""
UNWIND $slots AS slot
MERGE (s:Slot {key: slot.key})
ON CREATE SET s.subject = slot.subject, s.predicate = slot.predicate, s.object = slot.object,
              s.access = slot.access, s.access_all = slot.access_all, s.version = 0,
              s.created_at = $wall_clock
SET s.version = s.version + 1
RETURN max(s.last_recorded_at) AS last_recorded_at
""")


SET_SLOT_HEADS = stable("""
UNWIND $heads AS h
MATCH (s:Slot {key: h.key})
SET s.head = h.head, s.last_recorded_at = $now
""")


# ``shown``: whether the writer ($groups) may read the version. Two versions of a slot have
# the same access list but may differ in ``access_all``; a write's answer names only the
# versions it closed or superseded that its writer may read.
ALIVE_VERSIONS = stable(
    """
UNWIND $keys AS key
MATCH (a:Assertion {slot_key: key})
WHERE a.superseded_at IS NULL
RETURN key, a.id AS id, a.valid_from AS valid_from, a.valid_to AS valid_to,
       a.polarity AS polarity, a.object AS object, coalesce(a.untimed, false) AS untimed,
       [(a)-[:EVIDENCED_BY]->(e) WHERE e.observation_id IS NOT NULL | e.observation_id]
         AS sources, a.access AS access, coalesce(a.access_all, []) AS access_all, """
    + visible("a")
    + """ AS shown
ORDER BY a.valid_from
"""
)


# The alive values of many-valued slots by subject and predicate, with their slot keys: a
# value written in another case or spacing than one held joins the held one's slot
# (ingest.writer.same_spelling).
HELD_VALUES = stable(
    """
UNWIND $pairs AS pair
MATCH (a:Assertion {subject: pair.subject, predicate: pair.predicate})
WHERE a.superseded_at IS NULL AND a.object IS NOT NULL
RETURN DISTINCT a.subject AS subject, a.predicate AS predicate, a.slot_key AS key,
       a.object AS object, a.access AS access, a.access_all AS access_all
"""
)


# The alive versions of the relatives, friends or pets of one kind a subject holds, unnamed
# or named (``$kind`` ``S/cat`` finds ``S/cat`` and ``S/cat:Biscuit``), with their valid time:
# a distiller's withdrawal of the kind reaches the one named (ingest.writer.kind_withdrawn).
HELD_OF_KIND = stable(
    """
UNWIND $rows AS row
MATCH (a:Assertion {subject: row.subject, predicate: row.predicate})
WHERE a.superseded_at IS NULL AND NOT a.slot_key CONTAINS '@'
  AND (a.object = row.kind OR a.object STARTS WITH row.kind + ':')
RETURN row.subject AS subject, row.predicate AS predicate, row.kind AS kind,
       a.slot_key AS key, a.id AS id, a.object AS object, a.polarity AS polarity,
       a.valid_from AS valid_from, a.valid_to AS valid_to,
       coalesce(a.access, []) AS access, coalesce(a.access_all, []) AS access_all
"""
)


# The alive versions of a subject's values of one many-valued predicate, with their valid
# time: a distiller's withdrawal of a word reaches the one value held that names it
# (ingest.writer.word_withdrawn: "I quit pottery" ends "wheel-throwing pottery class").
HELD_OF_PREDICATE = stable(
    """
UNWIND $rows AS row
MATCH (a:Assertion {subject: row.subject, predicate: row.predicate})
WHERE a.superseded_at IS NULL AND NOT a.slot_key CONTAINS '@' AND a.object IS NOT NULL
RETURN row.subject AS subject, row.predicate AS predicate,
       a.slot_key AS key, a.id AS id, a.object AS object, a.polarity AS polarity,
       a.valid_from AS valid_from, a.valid_to AS valid_to,
       coalesce(a.access, []) AS access, coalesce(a.access_all, []) AS access_all
"""
)


# The lock of a many-valued value in every case and spacing (ingest.writer.spelling_key),
# taken before HELD_VALUES is read: a ``Slot`` that holds no version, only serialises.
LOCK_SPELLINGS = stable("""
UNWIND $keys AS key
MERGE (s:Slot {key: key})
ON CREATE SET s.version = 0, s.created_at = $wall_clock
SET s.version = s.version + 1
""")


# Times travel as RFC 3339 strings and become datetimes here: the driver encodes a Python
# datetime in pure Python (~50 us each), and a bulk write carries four per assertion.
ASSERTION_TIMES = ("valid_from", "valid_to", "closed_at", "recorded_at", "superseded_at")


EVIDENCE_TIMES = ("occurred_at", "recorded_at")


# Entities (docs/entities.md): a version is linked to the Entity of its subject by ABOUT and,
# when its predicate's object names a thing, to the Entity of its object by OBJECT, in the
# transaction that writes it. The writer computes each entity's key and id
# (graph_schema/entities/names.py: ``{key, id}``, or null for no object entity); an Entity
# holds nothing else. Expects ``a`` and ``row`` with ``row.about`` and ``row.thing``.
LINK_ENTITIES = """
CALL (a, row) {
  MERGE (ent:Entity {key: row.about.key})
  ON CREATE SET ent.id = row.about.id
  CREATE (a)-[:ABOUT]->(ent)
}
CALL (a, row) {
  WITH a, row WHERE row.thing IS NOT NULL
  MERGE (ent:Entity {key: row.thing.key})
  ON CREATE SET ent.id = row.thing.id
  CREATE (a)-[:OBJECT]->(ent)
}
"""


def _literal(text: str) -> str:
    return "'" + "".join(f"\\u{ord(c):04x}" for c in text) + "'"


_MARKS = "[" + ", ".join(_literal(m) for m in FOLD_MARKS) + "]"
_LETTERS = "[" + ", ".join(f"[{_literal(k)}, {_literal(v)}]" for k, v in FOLD_LETTERS) + "]"


def folded(text: str) -> str:
    """The Cypher of ``graph_schema.entities.names.fold`` of the string ``text``: lower case,
    NFKD, the marks dropped, the letters spelled plainly, NFC. A name all ASCII is only
    lower-cased (the rest would leave it as it is)."""
    return (
        f"CASE WHEN {text} =~ '[\\x00-\\x7f]*' THEN toLower({text}) ELSE normalize(reduce("
        f"s = reduce(s = normalize(toLower({text}), NFKD), m IN {_MARKS} | replace(s, m, '')),"
        f" p IN {_LETTERS} | replace(s, p[0], p[1])), NFC) END"
    )


def lower_names(names_a_thing: str) -> str:
    """The names version ``a`` is searched by (``GET /v1/entities?q=``, a text index each:
    migration 16), folded as the search reads them (:func:`folded`, migration 18): its
    subject, and its object when that names a thing (``names_a_thing``: the writer's
    ``row.thing``, or an OBJECT link of a version written before) or is a name or an alias;
    not a sentence said, which no search reads. A copied version copies them with the rest."""
    return (
        f"a.subject_lower = {folded('a.subject')}, "
        f"a.object_lower = CASE WHEN a.object IS :: STRING AND ({names_a_thing} OR "
        f"a.predicate IN {list(NAMING_PREDICATES)!r}) THEN {folded('a.object')} END"
    )


LOWER_NAMES = lower_names("row.thing IS NOT NULL")


CREATE_ASSERTIONS = stable(f"""
UNWIND $rows AS row
CREATE (a:Assertion)
SET a = row.props
SET {set_times("a", "row.props", ASSERTION_TIMES)}
SET a.readers = {readers_of("a")}
SET {LOWER_NAMES}
WITH a, row
{LINK_ENTITIES}
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


def read_by_readers_of(node: str, of: str) -> str:
    """Every principal who may read ``of`` may read ``node`` too: ``node`` is public, or its
    access is among ``of``'s requirements, or ``of``'s own access lies within ``node``'s; and
    every requirement of ``node`` is one of ``of``'s (stored access lists are sorted). The
    rule of the audit ``access_wider_than_source``, read the other way round."""
    joined = f"reduce(k = '', g IN {node}.access | k + CASE k WHEN '' THEN '' ELSE '|' END + g)"
    return (
        f"((size(coalesce({node}.access, [])) = 0 OR {joined} IN coalesce({of}.access_all, [])"
        f" OR (size(coalesce({of}.access, [])) > 0 AND all(g IN {of}.access"
        f" WHERE g IN {node}.access)))"
        f" AND all(req IN coalesce({node}.access_all, [])"
        f" WHERE req IN coalesce({of}.access_all, [])))"
    )


# A restatement ($id: a version that keeps the start of the version it restates, $held_id;
# ingest.writer._continued and _restate_later) carries that version's evidence too: the start
# came from there, and a conversation's recall finds the fact by it (docs/semantics.md "A
# restatement keeps the start"). The links are marked ``carried`` (reads list the version's
# own evidence first). Evidence is linked only where every reader of the new version may read
# it and the observation it cites, so a restatement never shows its readers another scope's
# words; evidence of an observation the restatement cites itself ($own: a sentence read
# again) or already linked is not linked twice. Returns what was linked, and whether the
# writer ($groups) may read it.
LINK_RESTATED_EVIDENCE = stable(
    """
MATCH (n:Assertion {id: $id})
MATCH (held:Assertion {id: $held_id})-[:EVIDENCED_BY]->(e:Evidence)
WHERE NOT coalesce(e.observation_id IN $own, false)
  AND NOT EXISTS { MATCH (n)-[:EVIDENCED_BY]->(e) }
  AND """
    + read_by_readers_of("e", "n")
    + """
  AND NOT EXISTS { MATCH (e)-[:FROM]->(o:Observation) WHERE NOT ("""
    + read_by_readers_of("o", "n")
    + """) }
WITH DISTINCT n, e
CREATE (n)-[:EVIDENCED_BY {carried: true}]->(e)
RETURN e {.*} AS evidence, """
    + visible("e")
    + """ AS shown
ORDER BY e.id
"""
)


# A version that a later one closes or supersedes also gets the label :Superseded, for
# display only (Neo4j Browser's style dims it: docs/browser.md); reads never use it (they use
# valid_to / closed_at / superseded_at, which also say when).

# Each close names the version that closes it ($closes: {id, valid_to, new_id}).
CLOSE_VERSIONS = stable("""
UNWIND $closes AS c
MATCH (x:Assertion {id: c.id})
WHERE x.valid_to IS NULL AND x.superseded_at IS NULL
SET x.valid_to = datetime(c.valid_to), x.closed_at = $now, x:Superseded
WITH x, c
MATCH (a:Assertion {id: c.new_id})
CREATE (a)-[:SUPERSEDES]->(x)
RETURN count(x) AS closed
""")


SUPERSEDE_VERSIONS = stable("""
UNWIND $ids AS id
MATCH (x:Assertion {id: id})
WHERE x.superseded_at IS NULL
SET x.superseded_at = $now, x:Superseded
WITH x
MATCH (a:Assertion {id: $new_id})
CREATE (a)-[:SUPERSEDES]->(x)
RETURN count(x) AS superseded
""")


def _copy_of(source_marks: str, link: str, pin_rule: str, pin_reason: str, returns: str) -> str:
    """A new version ``r`` copied from ``$source_id`` over [$valid_from, $valid_to), recorded
    now: its content, evidence (a ``carried`` link stays one), access, disclosures and
    entities, the tier its source has now, and its pin (as a PinChange of ``pin_rule``).
    ``source_marks`` names the source; ``link`` relates ``r`` to it."""
    return (
        """
MATCH (src:Assertion {id: $source_id})-[cites:EVIDENCED_BY]->(e:Evidence)
WITH src, collect({e: e, carried: cites.carried}) AS evidence, """
        + effective_tier("src", "$now")
        + """ AS tier, """
        + pinned("src", "$now")
        + """ AS pinned
CREATE (r:Assertion)
SET r = src {
  .*, id: $id, valid_from: $valid_from, valid_to: $valid_to,
  closed_at: CASE WHEN $valid_to IS NULL THEN null ELSE $now END,
  recorded_at: $now, superseded_at: null, tier: tier, """
        + source_marks
        + """
}
"""
        + link
        + """
FOREACH (x IN evidence | FOREACH (e IN [x.e] |
  CREATE (r)-[:EVIDENCED_BY {carried: x.carried}]->(e)))
FOREACH (_ IN CASE WHEN pinned THEN [1] ELSE [] END |
  CREATE (:"""
        + PIN_CHANGE
        + """ {id: $pin_id, assertion_id: $id, pinned: true, at: $now, by: src.written_by,
                 rule: """
        + pin_rule
        + """, reason: '"""
        + pin_reason
        + """'})
         -[:CHANGES]->(r))
WITH r, src
CALL (r, src) {
  MATCH (src)-[:DISCLOSED_AS]->(d:Disclosure)
  CREATE (r)-[:DISCLOSED_AS]->(d)
}
CALL (r, src) {
  MATCH (src)-[:ABOUT]->(ent:Entity)
  CREATE (r)-[:ABOUT]->(ent)
}
CALL (r, src) {
  MATCH (src)-[:OBJECT]->(ent:Entity)
  CREATE (r)-[:OBJECT]->(ent)
}
RETURN """
        + returns
    )


# A remnant is written now with the tier its source has now (a promoted, discarded or dormant
# source gives a remnant of that tier, not of the tier the source was written with), and a
# pinned source gives a pinned remnant.
CREATE_REMNANT = stable(
    _copy_of(
        "remnant_of: src.id, untimed: null",
        "CREATE (r)-[:SUPERSEDES]->(src)",
        "'remnant'",
        "a remnant keeps the pin of its source",
        "r.id AS id",
    )
)


# A restoration (docs/lifecycle.md "Restoration"): a copy of a displaced version ($source_id)
# over the part of valid time a discarded working version still held, written now. Like a
# remnant it has its source's content, evidence, access, disclosures, tier now and pin; it
# names its source in ``restored_from`` (it is not a remnant: the source is not cut again).
CREATE_RESTORATION = stable(
    _copy_of(
        "remnant_of: null, restored_from: src.id, restore_rule: $rule, restore_reason: $reason, "
        "untimed: null",
        "",
        "$rule",
        "a restoration keeps the pin of its source",
        "r.id AS id, r.polarity AS polarity, r.object AS object",
    )
)


# A restatement of a later version ($source_id) from an earlier start (ingest.writer.
# _restate_later): a distilled draft of the value arrived after a later statement of it
# with no time of its own; the copy keeps that statement's content and evidence from the
# draft's start, as the other order of arrival leaves the slot. Not a remnant, not a
# restoration: it supersedes its source (the writer links it).
CREATE_RESTATEMENT = stable(
    _copy_of(
        "remnant_of: null, restored_from: null, untimed: $untimed",
        "",
        "'restatement'",
        "a restatement keeps the pin of its source",
        "r.id AS id",
    )
)


CREATE_DISCLOSURES = stable("""
MATCH (a:Assertion {id: $id})
UNWIND $disclosures AS d
CREATE (x:Disclosure)
SET x = d, x.recorded_at = $now
CREATE (a)-[:DISCLOSED_AS]->(x)
""")


LINK_CAUSED_BY = """
MATCH (a:Assertion {id: $assertion_id}), (ev:Event {id: $event_id})
CREATE (a)-[:CAUSED_BY]->(ev)
"""


def evidence_of(var: str, said_by: str = "") -> str:
    """The evidence of version ``var`` its reader may read, each marked ``carried`` when it
    came from the version it restates (LINK_RESTATED_EVIDENCE): an answer lists the version's
    own words first (``records.assertion_out``). ``said_by``: a read as of that time (``$as_of``)
    lists only the evidence said by then (docs/semantics.md "Evidence at an as_of")."""
    said = f" AND (e.occurred_at IS NULL OR e.occurred_at <= {said_by})" if said_by else ""
    return (
        f"[({var})-[cites:EVIDENCED_BY]->(e:Evidence) WHERE {visible('e')}{said}"
        " | e {.*, carried: coalesce(cites.carried, false)}]"
    )


def assertion_projection(caller: str = "$caller", said_by: str = "") -> str:
    """An assertion ``a`` whole as its reader may read it: its task id only when the reader
    may see that task (``core.cypher.task_shown``; ``caller``: ``$caller``, or ``null`` for a
    statement with no caller, whose rule is then by ``$groups`` alone); ``said_by``: as
    :func:`evidence_of`."""
    return (
        """
  a {.*, embedding: null, text: null, slot_key: null, task_id: """
        + shown_task_id("a", caller)
        + """, tier: """
        + effective_tier("a")
        + """} AS assertion,
  """
        + evidence_of("a", said_by)
        + """ AS evidence,
  [(a)-[:SUPERSEDES]->(x) WHERE """
        + visible("x")
        + """ | x.id] AS supersedes,
  [(x)-[:SUPERSEDES]->(a) WHERE x.recorded_at <= $known_at AND """
        + visible("x")
        + """ | x.id]
    AS superseded_by
"""
    )


ASSERTION_PROJECTION = assertion_projection()


# The rules a task's end records (docs/lifecycle.md "Consolidation"): a transition of one of
# them is dated by that end and names its run.
TASK_END_RULES = (
    Rule.verified,
    Rule.corroborated,
    Rule.said_supported,
    Rule.ephemeral,
    Rule.unverified,
    Rule.said_unsupported,
    Rule.over_bound,
)
ENDED_UNSEEN_RULE = "task_end"
ENDED_UNSEEN_REASON = "the end of a task this reader may not see"


def shown_transitions(var: str) -> str:
    """The transitions of ``var`` (``lifecycle.cypher.transitions``) as its reader may read
    them: one recorded by the end of a task the reader may not see keeps its tier change and
    its time (the fact's own: its tier as known at any instant tells the same), but not the
    rule, reason and run that tie it to that task's end (its rule reads ``task_end``)."""
    rules = [str(r) for r in TASK_END_RULES]
    return (
        "[ch IN "
        + transitions(var)
        + f" | CASE WHEN ch.to_tier IS NOT NULL AND ch.rule IN {rules!r} AND NOT "
        + task_shown(var)
        + f" THEN ch {{.at, .from_tier, .to_tier, .id, rule: '{ENDED_UNSEEN_RULE}',"
        f" reason: '{ENDED_UNSEEN_REASON}', run_id: null}} ELSE ch END]"
    )


_VIEW_FIELDS = (
    ".subject, .predicate, .polarity, .valid_from, .valid_to, .closed_at, .recorded_at,"
    " .superseded_at, .source_kind, .asserted_by, .confidence"
)


def _fact_return(*, with_transitions: bool, said_by: str = "") -> str:
    """The answer rows of fact and history reads: the exact version to its readers, else the
    first disclosure the caller is in the audience of. Expects ``a`` and its effective
    ``tier``. History adds each exact version's transitions (a disclosure view shows none:
    how a hidden fact's tier moved is not part of a coarser view); a read as of a time
    (``said_by``) lists the evidence said by then (:func:`evidence_of`)."""
    changes = (
        ",\n  CASE WHEN exact THEN " + shown_transitions("a") + " ELSE [] END AS transitions"
        if with_transitions
        else ""
    )
    return (
        """
WITH a, tier, """
        + visible("a")
        + """ AS exact
OPTIONAL MATCH (a)-[:DISCLOSED_AS]->(d:Disclosure)
  WHERE NOT exact AND """
        + visible("d")
        + """
WITH a, tier, exact, d ORDER BY d.id
WITH a, tier, exact, head(collect(d)) AS d
WHERE exact OR d IS NOT NULL
RETURN
  CASE WHEN exact
    THEN a {.*, embedding: null, text: null, slot_key: null, tier: tier, view: 'exact',
            task_id: """
        + shown_task_id("a")
        + """}
    ELSE a {"""
        + _VIEW_FIELDS
        + """, tier: tier, id: d.id, object: d.object, trend: d.trend,
            access: d.access, view: 'disclosure'}
  END AS assertion,
  CASE WHEN exact THEN """
        + evidence_of("a", said_by)
        + """ ELSE [] END AS evidence,
  CASE WHEN exact THEN [(a)-[:SUPERSEDES]->(x) WHERE """
        + visible("x")
        + """ | x.id] ELSE [] END AS supersedes,
  CASE WHEN exact
    THEN [(x)-[:SUPERSEDES]->(a) WHERE x.recorded_at <= $known_at AND """
        + visible("x")
        + """ | x.id] ELSE [] END
    AS superseded_by"""
        + changes
        + "\n"
    )


# A write commits while a read runs: Neo4j reads committed data as a statement goes, so the
# index seek can run before a write commits and the old version's properties be read after.
# The old version then shows the write's closing stamp (recorded at or before $known_at)
# while the version that closed it was not found: a slot that always held a value read as
# empty (a new user's trial: ~1 read in 300 at "now" with one writer; docs/semantics.md
# "Reads while a slot is written"). So a read tests each version it found once; one that
# fails is replaced by the versions that closed it (SUPERSEDES, committed with the stamp, so
# found once the stamp was read) that pass. A version is answered if it passed when read, or
# if it closed one that failed then: never neither. In a quiet slot the versions that closed
# a failing one were found by the seek too (DISTINCT).
def passed_or_closers(
    test: Callable[[str], str], keep: str = "", closers: Callable[[str], str] | None = None
) -> str:
    """``a``: the assertion ``s`` if it passes ``test`` (a Cypher predicate on the variable
    it is given), tested once, else the versions that closed it (SUPERSEDES) that pass
    ``closers`` (``test`` when not given); the columns ``keep`` (``"gid"``) are carried
    along."""
    carried = f"{keep}, " if keep else ""
    closing = (closers or test)("x")
    return f"""
WITH {carried}s, coalesce({test("s")}, false) AS passed
UNWIND CASE WHEN passed THEN [s]
  ELSE [(s)<-[:SUPERSEDES]-(x:Assertion) WHERE {closing} | x] END AS a"""


def current_versions(test: Callable[[str], str]) -> str:
    """The versions of ($subject, $predicate) that pass ``test``, or that closed one that
    did not, as ``a``."""
    return (
        "\nMATCH (s:Assertion {subject: $subject, predicate: $predicate})"
        + passed_or_closers(test)
        + "\nWITH DISTINCT a"
    )


def _restored_over(var: str) -> str:
    """The record times of the restorations that took ``var``'s place (closed or superseded
    it), as known at ``$known_at``: only a discarded version (or a remnant of one) has any."""
    return (
        f"[({var})<-[:SUPERSEDES]-(rs:Assertion)"
        " WHERE rs.restored_from IS NOT NULL AND rs.recorded_at <= $known_at | rs.recorded_at]"
    )


def _discarded_in_place(var: str) -> str:
    """Reads of the discarded tier: a discarded version whose place a restoration took keeps
    the valid time it held when it was discarded (the restoration's stamps on it do not
    count), so what an end's report lists as discarded is what ``tier=discarded`` finds
    (docs/lifecycle.md, "Restoration"). False in other reads (not evaluated there)."""
    taken = _restored_over(var)
    return (
        f"CASE WHEN 'discarded' IN $tiers THEN"
        f" {var}.recorded_at <= $known_at AND {var}.valid_from <= $as_of"
        f" AND ({var}.superseded_at IS NULL OR {var}.superseded_at > $known_at"
        f" OR {var}.superseded_at IN {taken})"
        f" AND ({var}.valid_to IS NULL OR {var}.closed_at > $known_at OR {var}.valid_to > $as_of"
        f" OR {var}.closed_at IN {taken}) ELSE false END"
    )


def _cut_for_restoration(var: str) -> str:
    """In reads of the discarded tier, a remnant that a restoration cut from a discarded
    version: that version answers for it (:func:`_discarded_in_place`), not twice."""
    return (
        f"CASE WHEN 'discarded' IN $tiers AND {var}.remnant_of IS NOT NULL THEN EXISTS {{"
        f" MATCH (:Assertion {{id: {var}.remnant_of}})<-[:SUPERSEDES]-(rs:Assertion)"
        f" WHERE rs.restored_from IS NOT NULL AND rs.recorded_at = {var}.recorded_at }}"
        " ELSE false END"
    )


def _current_fact(var: str) -> str:
    return (
        f"NOT {_cut_for_restoration(var)}"
        f" AND ({known_and_valid(var)} OR {_discarded_in_place(var)})"
        f" AND {var}.polarity = true AND {var}.confidence >= $min_confidence"
    )


# Tiers are filtered by the effective tier as known at $known_at (core.cypher.effective_tier).
CURRENT_FACTS = (
    current_versions(_current_fact)
    + """
WITH a, """
    + effective_tier("a")
    + """ AS tier
WHERE tier IN $tiers
"""
    + _fact_return(with_transitions=False, said_by="$as_of")
    + """
ORDER BY a.valid_from DESC, a.recorded_at DESC, a.id
"""
)


HISTORY = (
    """
MATCH (a:Assertion {subject: $subject, predicate: $predicate})
WHERE a.recorded_at <= $known_at
WITH a, """
    + effective_tier("a")
    + """ AS tier
"""
    + _fact_return(with_transitions=True)
    + """
ORDER BY a.valid_from, a.recorded_at, a.id
"""
)


# One assertion by id, for the write path (a precondition's ``details.current``): it runs with
# no caller, so the task id shows by the rule of ``$groups`` alone (the writer's own tasks
# show by it too: a task's access names only groups its owner is in).
GET_ASSERTION = (
    """
MATCH (a:Assertion {id: $id})
WHERE """
    + visible("a")
    + """
RETURN """
    + assertion_projection("null")
)


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


# Migration 9: a derived fact's slot key names its source requirements (``access_all``), so it
# no longer shares a slot with a wider fact (ingest/writer.py ``slot_key``). ``slot_key`` is
# the slot's index, stripped from every answer, not part of the record; no stamp, evidence or
# content changes. The stored ``access_all`` is sorted (the gate sorts it), as the writer's key
# is. Each run re-keys up to $batch versions written before the migration.
REKEY_DERIVED_VERSIONS = """
MATCH (a:Assertion)
WHERE size(coalesce(a.access_all, [])) > 0 AND NOT a.slot_key CONTAINS '+'
WITH a LIMIT $batch
SET a.slot_key = a.slot_key + '+'
    + reduce(k = '', r IN a.access_all | k + CASE k WHEN '' THEN '' ELSE ',' END + r)
RETURN count(a) AS done
"""


def _new_slots(mark: str, wider: str, obj: str) -> str:
    """Create the Slot of every key holding ``mark`` that has none: the first version's
    subject, predicate and access, ``obj`` as its object (``wider``: a clause that finds the
    slot it came from), and a last record time later than every stamp of its versions (record
    time stays monotonic per slot)."""
    return f"""
MATCH (a:Assertion)
WHERE a.slot_key CONTAINS '{mark}' AND NOT EXISTS {{ MATCH (:Slot {{key: a.slot_key}}) }}
WITH a.slot_key AS key, collect(a) AS versions
LIMIT $batch
UNWIND versions AS v
UNWIND [v.recorded_at, v.closed_at, v.superseded_at] AS stamp
WITH key, head(collect(v)) AS a, max(stamp) AS last
{wider}CREATE (s:Slot {{key: key}})
SET s.subject = a.subject, s.predicate = a.predicate, s.object = {obj},
    s.access = a.access, s.access_all = a.access_all, s.version = 0,
    s.created_at = datetime(), s.last_recorded_at = last
RETURN count(s) AS done
"""


# ... and gives each new key its Slot, with the wider slot's object.
DERIVED_SLOTS = _new_slots(
    "+", "OPTIONAL MATCH (wider:Slot {key: split(key, '+')[0]})\n", "wider.object"
)

MIGRATION_STEPS: tuple[str, ...] = (REKEY_DERIVED_VERSIONS, DERIVED_SLOTS)
# what an observation's distiller marker ends with when redistill must write its ended
# utterances again (its marker then differs from every distiller's: graph_schema/observations)
REOPEN_MARK = "|reopen"

# Migration 15: an utterance (``said``) read from an observation is a slot of its own
# (ingest/writer.py ``slot_key``): its key gains ``@`` and the observation's id, before a
# derived fact's ``+`` suffix. Under the rule before, the same sentence by the same speaker
# in another turn shared the slot, and a later one closed (or, at the same instant,
# superseded) the earlier: the observations whose utterances were so ended are marked for
# `tractatus redistill`, which writes them again (docs/semantics.md). Each run re-keys up to
# $batch versions; the key is only the slot's index, no stamp or content changes.
REKEY_UTTERANCES = f"""
MATCH (a:Assertion {{predicate: '{UTTERANCE}'}})
WHERE NOT a.slot_key CONTAINS '@'
WITH a, head([(a)-[:EVIDENCED_BY]->(:Evidence)-[:FROM]->(o:Observation) | o.id]) AS observation
WHERE observation IS NOT NULL
WITH a, observation, split(a.slot_key, '+') AS parts LIMIT $batch
SET a.slot_key = parts[0] + '@' + observation
    + CASE WHEN size(parts) > 1 THEN '+' + parts[1] ELSE '' END
RETURN count(a) AS done
"""

# ... gives each new key its Slot (as DERIVED_SLOTS does) ...
UTTERANCE_SLOTS = _new_slots("@", "", "a.object")

# ... and marks for `tractatus redistill` each observation an utterance of which has an end
# and no open version in its slot: under the rule before, another turn's utterance closed it,
# superseded it (at the same instant), or it was written back-filled up to one. (A correction
# or a redistill's retraction leaves an open version in the slot: not marked.)
MARK_ENDED_UTTERANCES = f"""
MATCH (a:Assertion {{predicate: '{UTTERANCE}'}})
WHERE a.slot_key CONTAINS '@' AND (a.valid_to IS NOT NULL OR a.superseded_at IS NOT NULL)
  AND NOT EXISTS {{
    MATCH (open:Assertion {{slot_key: a.slot_key}})
    WHERE open.superseded_at IS NULL AND open.valid_to IS NULL
  }}
MATCH (a)-[:EVIDENCED_BY]->(:Evidence)-[:FROM]->(o:Observation)
WHERE NOT coalesce(o.distilled_with, '') ENDS WITH '{REOPEN_MARK}'
WITH DISTINCT o LIMIT $batch
SET o.distilled_with = coalesce(o.distilled_with, '') + '{REOPEN_MARK}'
RETURN count(o) AS done
"""

UTTERANCE_STEPS: tuple[str, ...] = (REKEY_UTTERANCES, UTTERANCE_SLOTS, MARK_ENDED_UTTERANCES)


# --- the ledger audit (`tractatus check`, graph_schema/ledger/check.py) -----------------------
# Each returns {total, sample}: how many problems, and up to $limit of them.

_SAMPLE = """
WITH collect(problem) AS problems
RETURN size(problems) AS total, problems[..$limit] AS sample
"""

# A version named by a SUPERSEDES must carry the stamp of the version that closed or
# superseded it (set by the same transaction, so at its record time).
CHECK_SUPERSEDES_WITHOUT_STAMP = (
    """
MATCH (n:Assertion)-[:SUPERSEDES]->(x:Assertion)
WHERE NOT coalesce(x.superseded_at = n.recorded_at, false)
  AND NOT coalesce(x.closed_at = n.recorded_at, false)
WITH {assertion: x.id, by: n.id, recorded_at: toString(n.recorded_at),
      closed_at: toString(x.closed_at), superseded_at: toString(x.superseded_at)} AS problem
"""
    + _SAMPLE
)

# ... and a superseded version must name the version that superseded it.
CHECK_SUPERSEDED_WITHOUT_SUCCESSOR = (
    """
MATCH (x:Assertion)
WHERE x.superseded_at IS NOT NULL
  AND NOT EXISTS { MATCH (n:Assertion)-[:SUPERSEDES]->(x) WHERE n.recorded_at = x.superseded_at }
WITH {assertion: x.id, superseded_at: toString(x.superseded_at)} AS problem
"""
    + _SAMPLE
)

CHECK_STAMP_BEFORE_RECORD = (
    """
MATCH (x:Assertion)
WHERE x.closed_at < x.recorded_at OR x.superseded_at < x.recorded_at
   OR (x.closed_at IS NULL) <> (x.valid_to IS NULL)
WITH {assertion: x.id, recorded_at: toString(x.recorded_at), closed_at: toString(x.closed_at),
      superseded_at: toString(x.superseded_at), valid_to: toString(x.valid_to)} AS problem
"""
    + _SAMPLE
)

# Evidence naming an observation must lead to it.
CHECK_EVIDENCE_SOURCE_MISSING = (
    """
MATCH (a:Assertion)-[:EVIDENCED_BY]->(e:Evidence)
WHERE e.observation_id IS NOT NULL
  AND NOT (e)-[:FROM]->(:Observation {id: e.observation_id})
WITH {assertion: a.id, evidence: e.id, observation_id: e.observation_id} AS problem
"""
    + _SAMPLE
)

# A fact evidenced by a restricted observation must be at least as narrow as it: its own
# access within the observation's, or the observation's access among its requirements, and
# every requirement of the observation among its own. (Stored access lists are sorted.)
CHECK_ACCESS_WIDER_THAN_SOURCE = (
    """
MATCH (a:Assertion)-[:EVIDENCED_BY]->(:Evidence)-[:FROM]->(o:Observation)
WITH DISTINCT a, o,
     reduce(k = '', g IN o.access | k + CASE k WHEN '' THEN '' ELSE '|' END + g) AS own
WHERE (size(o.access) > 0
       AND NOT own IN coalesce(a.access_all, [])
       AND NOT (size(a.access) > 0 AND all(g IN a.access WHERE g IN o.access)))
   OR any(r IN coalesce(o.access_all, []) WHERE NOT r IN coalesce(a.access_all, []))
WITH {assertion: a.id, observation: o.id, access: a.access, access_all: a.access_all,
      source_access: o.access} AS problem
"""
    + _SAMPLE
)

# Every version is linked to the entity of its subject, in the transaction that wrote it (or
# by migration 13 for older ones): docs/entities.md.
CHECK_VERSION_WITHOUT_ENTITY = (
    """
MATCH (x:Assertion)
WHERE x.subject IS NOT NULL AND NOT EXISTS { MATCH (x)-[:ABOUT]->(:Entity) }
WITH {assertion: x.id} AS problem
"""
    + _SAMPLE
)

# A valid time that runs backwards or is empty (``valid_to`` at or before ``valid_from``): the
# gate refuses it (docs/semantics.md "A valid_to alone ends after the start it defaults to"),
# but a store written before could hold one ("until 2021" stored as [now, 2021)). Every
# version, superseded or not: history shows them all.
CHECK_BACKWARDS_INTERVAL = (
    """
MATCH (x:Assertion)
WHERE x.valid_to <= x.valid_from
WITH {assertion: x.id, slot: x.slot_key, valid_from: toString(x.valid_from),
      valid_to: toString(x.valid_to), superseded_at: toString(x.superseded_at)} AS problem
"""
    + _SAMPLE
)

LEDGER_CHECKS: dict[str, str] = {
    "supersedes_without_stamp": CHECK_SUPERSEDES_WITHOUT_STAMP,
    "superseded_without_successor": CHECK_SUPERSEDED_WITHOUT_SUCCESSOR,
    "stamp_inconsistent": CHECK_STAMP_BEFORE_RECORD,
    "backwards_interval": CHECK_BACKWARDS_INTERVAL,
    "evidence_source_missing": CHECK_EVIDENCE_SOURCE_MISSING,
    "access_wider_than_source": CHECK_ACCESS_WIDER_THAN_SOURCE,
    "version_without_entity": CHECK_VERSION_WITHOUT_ENTITY,
}

# Evidence spans with their observation's stored text, a page at a time (offsets are compared
# in Python: they count code points, as the gate does).
EVIDENCE_SPANS = """
MATCH (e:Evidence)-[:FROM]->(o:Observation)
WHERE o.text IS NOT NULL AND e.id > $after
RETURN e.id AS evidence, o.id AS observation, e.quote AS quote,
       e.start AS start, e.end AS end, o.text AS text
ORDER BY e.id
LIMIT $page
"""


# Two spellings of one value in two slots (`two_spellings_current`, graph_schema/ledger/
# check.py): the subjects a page at a time, in order, read from the index on (subject,
# predicate) (the predicate's condition lets the planner use it, instead of scanning every
# version for each page) ...
SUBJECTS_PAGE = """
MATCH (a:Assertion)
WHERE a.subject > $after AND a.predicate IS NOT NULL
RETURN DISTINCT a.subject AS subject
ORDER BY subject
LIMIT $page
"""

# ... and the alive versions of those subjects that a write of another spelling would join
# (ingest.writer.same_spelling: a value, not an utterance, not in an utterance's slot), with
# their scope and valid time; the spellings are compared in Python, as the writer compares them.
SPELLING_VERSIONS = """
UNWIND $subjects AS subject
MATCH (a:Assertion {subject: subject})
WHERE a.superseded_at IS NULL AND a.object IS NOT NULL AND a.predicate <> $utterance
  AND NOT a.slot_key CONTAINS '@'
RETURN a.subject AS subject, a.predicate AS predicate, a.id AS id, a.slot_key AS slot,
       a.object AS object, a.polarity AS polarity, a.valid_from AS valid_from,
       a.valid_to AS valid_to, coalesce(a.access, []) AS access,
       coalesce(a.access_all, []) AS access_all
"""
