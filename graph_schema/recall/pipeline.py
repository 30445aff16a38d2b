"""Recall: candidate generation in one read transaction, then fusion (graph_schema.recall.fusion).

Every list comes from a query in :mod:`graph_schema.recall.cypher` that filters by visibility,
validity and the caller's filters before it ranks. The query vector is computed by the caller
(the embedding model lives in ``ingest``); without one, recall is lexical and graph-only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from neo4j import Driver, ManagedTransaction, Result

from graph_schema.core.records import as_instant
from graph_schema.core.types import Principal, SourceKind, Status, Tier
from graph_schema.ledger.reads import DEFAULT_TIERS
from graph_schema.ledger.records import assertion_out
from graph_schema.lifecycle import access
from graph_schema.recall import (
    amounts,
    cjk,
    clock,
    contacts,
    deeds,
    facts_asked,
    fusion,
    given_names,
    kinds,
    mentions,
    origins,
    references,
    rerank,
    rivals,
    unsaid,
)
from graph_schema.recall import cypher as q
from graph_schema.recall.fusion import Candidate, FusionConfig, Scored
from graph_schema.recall.mentions import Mentioned
from graph_schema.recall.named import (
    compounds,
    named_terms,
    thing_terms,
    truecased,
    unheld_compounds,
    unheld_in,
)
from graph_schema.recall.query import (
    content_terms,
    coverage,
    found_terms,
    lucene_terms,
    names_person,
    own_sentences,
    sentences_of,
    sentences_speaking_of,
    split_sentences,
    spoken_of,
    states_own,
    stem,
    without_name,
)
from graph_schema.recall.types import (
    NamedPerson,
    RecallAnswer,
    RecallFilters,
    RecallResult,
    Why,
)

POOL = 60  # rows per candidate list
OVERFETCH = 20  # the vector index answers before any WHERE: ask for this many times more
MAX_FETCH = 2_000
MAX_ADAPTIVE_FETCH = 32_000  # past this a visible list may be cut short by hidden nodes
# The status reads the best STATUS_DEPTH groups and the person and kinds rules the best
# STATUS_DEPTH + READ_BEYOND, whatever k: the same question gets the same status at any k
# (docs/recall.md, "Threshold").
STATUS_DEPTH = 10
READ_BEYOND = 10
_CJK_MARK = ("\u3040", "\u9fff")
SAID_ANY = datetime.max.replace(tzinfo=UTC)  # no bound on when a turn was said
_PARAMETER = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")


def is_cjk(text: str) -> bool:
    """Whether ``text`` is a CJK query: recall searches it without a vector (the embedding
    model is English), so the caller need not embed it (:meth:`RecallQuery.searched`)."""
    return any(_CJK_MARK[0] <= ch <= _CJK_MARK[1] for ch in text)


@dataclass(frozen=True)
class RecallQuery:
    text: str
    k: int
    as_of: datetime
    known_at: datetime
    filters: RecallFilters = field(default_factory=RecallFilters)
    vector: list[float] | None = None
    # the model that reads a CJK query and its first groups (graph_schema.recall.cjk)
    reader: cjk.Reader | None = None

    @property
    def cjk(self) -> bool:
        return is_cjk(self.text)

    @property
    def fetch(self) -> int:
        return min(max(POOL, self.k) * OVERFETCH, MAX_FETCH)

    def searched(self) -> RecallQuery:
        """The query as recall searches it: a CJK query without its vector (the embedding
        model is English: its cosines between Chinese texts rank noise)."""
        return replace(self, vector=None) if self.cjk else self


def parameters(
    principal: Principal, query: RecallQuery, exact_limit: int = fusion.DEFAULT_EXACT_LIMIT
) -> dict[str, Any]:
    f = query.filters
    tiers: Sequence[Tier] = f.tiers or DEFAULT_TIERS
    kinds = [s.value for s in f.source_kinds] if f.source_kinds else None
    return {
        "groups": list(principal.groups),
        "caller": principal.id,
        "as_of": query.as_of,
        "known_at": query.known_at,
        "min_confidence": float(f.min_confidence),
        "subject": f.subject,
        "task_id": f.task_id,
        "conversation_id": f.conversation_id,
        # the scope statements match these three; every WHERE reads the filters from this one
        # map: one plan for any combination of filters (graph_schema/recall/cypher.py)
        "filter": {
            "tiers": [t.value for t in tiers],
            "source_kinds": kinds,
            "subject": f.subject,
            "task_id": f.task_id,
            "conversation_id": f.conversation_id,
        },
        "include_superseded": f.include_superseded,
        # the turns read: those said by as_of, or every one with include_superseded, which
        # reads versions whatever their valid time (graph_schema/recall/cypher.py)
        "said_by": SAID_ANY if f.include_superseded else query.as_of,
        "vector": query.vector,
        "limit": POOL,
        "fetch": query.fetch,
        "exact_limit": exact_limit,
    }


def _cosine(normalised: Any) -> float | None:
    """Neo4j's cosine similarity is (1 + cos) / 2; give the cosine back."""
    return None if normalised is None else round(2.0 * float(normalised) - 1.0, 6)


def _candidate(record: Any) -> Candidate:
    return Candidate(
        gid=record["gid"],
        similarity=_cosine(record["similarity"]),
        text=record["text"] or "",
        speaker=record["speaker"],
        occurred_at=as_instant(record["occurred_at"]),
        turn=bool(record.get("turn")),
        source_kind=record.get("source_kind"),
    )


@lru_cache(maxsize=256)
def _names(statement: str) -> frozenset[str]:
    return frozenset(_PARAMETER.findall(statement))


def _run(tx: ManagedTransaction, statement: str, params: dict[str, Any]) -> Result:
    """``statement`` run with the parameters it reads, no others: Neo4j keys its plans on the
    type and size class of every parameter passed, used or not, so a filter's id passed to a
    statement that does not read it made one more plan of it per filter shape
    (graph_schema/recall/cypher.py)."""
    names = _names(statement)
    return tx.run(statement, {k: v for k, v in params.items() if k in names})


def _rows(tx: ManagedTransaction, statement: str, params: dict[str, Any]) -> list[Candidate]:
    return [_candidate(r) for r in _run(tx, statement, params)]


def _index_rows(tx: ManagedTransaction, statement: str, p: dict[str, Any]) -> list[Candidate]:
    """A vector-index list that does not depend on what the caller cannot see.

    The index answers its top ``fetch`` before any WHERE, so hidden nodes could push visible
    ones out of a fixed over-fetch: ask again with a larger ``fetch`` until the list is full
    or the store is exhausted. Scores are recomputed exactly in Cypher, because the index's
    own scores move slightly as other (possibly hidden) vectors are added."""
    fetch = int(p["fetch"])
    while True:
        rows = _rows(tx, statement, {**p, "fetch": fetch})
        if len(rows) >= int(p["limit"]) or fetch >= MAX_ADAPTIVE_FETCH:
            return rows
        fetch *= 4


def _exact(tx: ManagedTransaction, p: dict[str, Any], kind: str) -> bool:
    """Whether the caller's groups can read at most ``exact_limit`` nodes of ``kind``: then
    its vector list is an exact scan of them (work bounded by what it may see); past that,
    an index query (docs/security.md "Timing" says what that costs)."""
    limit = int(p["exact_limit"])
    if limit == 0:
        return False
    params = {**p, "readers_index": q.READERS_INDEXES[kind]}
    readable = _run(tx, q.READABLE_COUNT, params).single(strict=True)["readable"]
    return int(readable) <= limit


def _assertion_vector(tx: ManagedTransaction, p: dict[str, Any]) -> list[Candidate]:
    if p["conversation_id"] is not None:
        return _rows(tx, q.ASSERTION_VECTOR_SCAN_CONVERSATION, p)
    if p["task_id"] is not None:
        return _rows(tx, q.ASSERTION_VECTOR_SCAN_TASK, p)
    if p["subject"] is not None:
        return _rows(tx, q.ASSERTION_VECTOR_SCAN_SUBJECT, p)
    if _exact(tx, p, "assertion"):
        return _rows(tx, q.ASSERTION_VECTOR_EXACT, p)
    return _index_rows(tx, q.ASSERTION_VECTOR_INDEX, p)


def _passage_vector(
    tx: ManagedTransaction, p: dict[str, Any], kind: str, exact: bool
) -> list[Candidate]:
    params = {**p, "property": q.PASSAGE_PROPERTIES[kind]}
    if p["conversation_id"] is not None:
        return _rows(tx, q.PASSAGE_VECTOR_SCAN_CONVERSATION, params)
    if exact:
        return _rows(tx, q.PASSAGE_VECTOR_EXACT, params)
    return _index_rows(tx, q.PASSAGE_VECTOR_INDEX, {**params, "index": q.VECTOR_INDEXES[kind]})


def _vector_lists(
    tx: ManagedTransaction, p: dict[str, Any], wanted: set[str]
) -> dict[str, list[Candidate]]:
    lists: dict[str, list[Candidate]] = {}
    if "assertion_vector" in wanted:
        lists["assertion_vector"] = _assertion_vector(tx, p)
    kinds = [k for k in ("passage", "context") if f"{k}_vector" in wanted]
    exact = bool(kinds) and p["conversation_id"] is None and _exact(tx, p, "passage")
    for kind in kinds:
        lists[f"{kind}_vector"] = _passage_vector(tx, p, kind, exact)
    return lists


def _fulltext_lists(
    tx: ManagedTransaction, p: dict[str, Any], query: RecallQuery, wanted: set[str]
) -> dict[str, list[Candidate]]:
    lists: dict[str, list[Candidate]] = {}
    terms = lucene_terms(query.text)
    if not terms:
        return lists
    if "assertion_fulltext" in wanted:
        params = fulltext_parameters(p, ("assertion", query.cjk), terms)
        lists["assertion_fulltext"] = _rows(tx, q.ASSERTION_FULLTEXT, params)
    for kind in ("context",) if query.cjk else ("passage", "context"):
        if f"{kind}_fulltext" in wanted:
            params = fulltext_parameters(p, (kind, query.cjk), terms)
            params["property"] = q.TEXT_PROPERTIES[kind]
            lists[f"{kind}_fulltext"] = _rows(tx, q.PASSAGE_FULLTEXT, params)
    return lists


def fulltext_parameters(
    p: dict[str, Any], index: tuple[str, bool], terms: list[str]
) -> dict[str, Any]:
    """``p`` with what a full-text statement reads: the index (``(kind, cjk)``), and the
    terms and the index's fields in ``$lists`` (graph_schema/recall/cypher.py)."""
    name = q.FULLTEXT_INDEXES[index]
    return {**p, "index": name, "lists": {"terms": terms, "fields": q.FULLTEXT_FIELDS[name]}}


def candidate_lists(
    tx: ManagedTransaction, p: dict[str, Any], query: RecallQuery, config: FusionConfig
) -> dict[str, list[Candidate]]:
    """Every enabled candidate list, each already filtered and ranked among visible nodes."""
    wanted = set(config.weights)
    lists = _vector_lists(tx, p, wanted) if query.vector is not None else {}
    return {**lists, **_fulltext_lists(tx, p, query, wanted)}


def neighbours(
    tx: ManagedTransaction, p: dict[str, Any], gids: list[str]
) -> dict[str, list[Candidate]]:
    """Graph neighbours of the top groups: adjacent turns, assertions of the same events,
    facts about the things their facts point at (one hop through the entity graph)."""
    found: dict[str, list[Candidate]] = {}
    params = {**p, "lists": {"ids": gids}, "entity_limit": q.ENTITY_NEIGHBOUR_LIMIT}
    for statement in (q.NEIGHBOUR_TURNS, q.EVENT_NEIGHBOURS, q.ENTITY_NEIGHBOURS):
        for record in _run(tx, statement, params):
            found.setdefault(record["source"], []).append(_candidate(record))
    return found


def fetch_results(
    tx: ManagedTransaction, p: dict[str, Any], gids: list[str]
) -> dict[str, list[Any]]:
    """The visible assertions of the groups ``gids``, by group: what the rules read of each
    (its sentence, cosine, ends, kind of source); :func:`fetch_assertions` reads the whole of
    those returned."""
    by_group: dict[str, list[Any]] = {}
    params = {**p, "lists": {"ids": gids}}
    for statement in (q.OBSERVATION_ASSERTIONS, q.GROUP_ASSERTIONS):
        for record in _run(tx, statement, params):
            by_group.setdefault(record["gid"], []).append(record)
    return by_group


def fetch_assertions(tx: ManagedTransaction, p: dict[str, Any], ids: list[str]) -> dict[str, Any]:
    """The visible assertions ``ids`` whole (``ledger.cypher.ASSERTION_PROJECTION``), by id."""
    params = {**p, "lists": {"ids": list(dict.fromkeys(ids))}}
    return {record["id"]: record for record in _run(tx, q.RESULT_ASSERTIONS, params)}


@dataclass
class _Work:
    ranked: list[Scored]
    records: dict[str, list[Any]]
    unmentioned: list[str] = field(default_factory=list)
    mentioned: Mentioned | None = None
    unsaid: list[str] = field(default_factory=list)  # names the person asked about never says
    person: str | None = None  # the one speaker the query names among the window's groups
    cjk: dict[str, float] = field(default_factory=dict)  # a CJK query's cosines, by group
    held: bool = False  # the first group holds the current fact the query asks for (step 8)

    @property
    def window(self) -> list[Scored]:
        """The groups the person and kinds rules read, the same at any k."""
        return self.ranked[: STATUS_DEPTH + READ_BEYOND]


def _unmentioned(
    tx: ManagedTransaction,
    p: dict[str, Any],
    query: RecallQuery,
    lists: dict[str, list[Candidate]],
    ranked: list[Scored],
) -> list[str]:
    """The names and identifiers of the query (:func:`~graph_schema.recall.named.named_terms`),
    the words of the thing an agent's work question asks about
    (:func:`~graph_schema.recall.named.thing_terms`) and the modifiers of its things of work
    (:func:`~graph_schema.recall.named.compounds`) that nothing the caller may see mentions,
    within the caller's filters: first read in the candidates
    already found, then, for those still missing, in a full-text search of each (the same
    visible, filtered lists, so a hidden mention counts as none)."""
    terms = list(dict.fromkeys([*named_terms(query.text), *thing_terms(query.text)]))
    pairs = compounds(query.text)
    if not terms and not pairs:
        return []
    found = [c for rows in lists.values() for c in rows]
    texts = [c.text for c in found] + [t for s in ranked for t in (*s.texts, s.turn or "")]
    names = [c.speaker or "" for c in found]
    missing = unheld_in(terms, [*texts, *names])
    pairs = [c for c in pairs if unheld_compounds([c], texts)]
    if not missing and not pairs:
        return []
    words = [*missing, *(w for c in pairs for w in (c.modifier, c.head))]
    probe = _probe_lists(tx, p, query, list(dict.fromkeys(words)))
    read = [*(c.text for c in probe), *(c.speaker or "" for c in probe)]
    missing = unheld_in(missing, read)
    return list(dict.fromkeys([*missing, *unheld_compounds(pairs, [*texts, *read])]))


def _probe_lists(
    tx: ManagedTransaction, p: dict[str, Any], query: RecallQuery, terms: list[str]
) -> list[Candidate]:
    """The visible assertions and turns that a full-text search for ``terms`` finds (the
    assertion and passage full-text lists, read for these words alone)."""
    probe = replace(query, text=" ".join(terms))
    found = _fulltext_lists(tx, p, probe, {"assertion_fulltext", "passage_fulltext"})
    return [c for rows in found.values() for c in rows]


def _search(
    tx: ManagedTransaction, p: dict[str, Any], query: RecallQuery, config: FusionConfig
) -> _Work:
    lists = candidate_lists(tx, p, query, config)
    # a query without a vector is read lexically, turns and facts alike (docs/recall.md)
    weights = rerank.sets_for(config, query.vector is not None)
    fused = rerank.rank(lists, query.text, config, lambda gids: neighbours(tx, p, gids), weights)
    depth = max(query.k, STATUS_DEPTH) + READ_BEYOND
    records = fetch_results(tx, p, [s.gid for s in fused[:depth]])
    mentioned = _mentioned(fused[:depth], records, query, config)
    if mentioned is not None:
        # a group about the person mentioned counts as one by a person named (the rerank's
        # ``speaker``), steps 5-6 again, and the results of the groups new to the top read
        for s in fused:
            if mentioned.in_group(s, records.get(s.gid, [])):
                s.boosts.append("mentioned")
        fused = rerank.reorder(
            fusion.ordered({s.gid: s for s in fused}), query.text, config, weights
        )
        new = [s.gid for s in fused[:depth] if s.gid not in records]
        records |= fetch_results(tx, p, new) if new else {}
    read: dict[str, float] = {}
    if query.reader is not None and config.enabled("cjk") and cjk.chinese(query.text):
        fused, read = cjk.read(fused, query.text, query.reader)  # step 7b: read in Chinese
    question = facts_asked.asked(query.text) if config.enabled("fact") else None
    if question is not None:  # step 8: the current fact asked for first
        fused = facts_asked.fact_first(fused[:depth], records, question) + fused[depth:]
    if config.enabled("done") and deeds.asks_done(query.text):  # step 10: the deed first
        fused = deeds.done_first(fused, query.text)
    unmentioned = _unmentioned(tx, p, query, lists, fused) if config.enabled("unmentioned") else []
    work = _Work(fused[:depth], records, unmentioned, mentioned, cjk=read)
    work.person = fusion.named_person(work.window, query.text, config)
    if config.enabled("fact"):  # step 8: the person's own fact before a relative's
        work.ranked = facts_asked.own_first(work.ranked, records, work.person, query.text)
    work.held = facts_asked.answers(work.ranked[:1], records, question)
    if config.enabled("unsaid"):
        work.unsaid = _unsaid(tx, p, query, lists, work)
    return work


def _unsaid(
    tx: ManagedTransaction,
    p: dict[str, Any],
    query: RecallQuery,
    lists: dict[str, list[Candidate]],
    work: _Work,
) -> list[str]:
    """For a query about one speaker, its names and identifiers that none of that speaker's
    own turns holds (read in the candidates, then in a full-text probe of the visible,
    filtered lists) while another person's statement among the groups read does
    (:mod:`graph_schema.recall.unsaid`)."""
    person = work.person
    if person is None or not unsaid.states(work.window, work.records, person):
        return []
    speakers = {s.speaker for s in work.window if s.speaker}
    terms = unsaid.asked_names(query.text, person, speakers, work.unmentioned)
    own = [c.text for rows in lists.values() for c in rows if c.speaker == person]
    # a reply is read with the question it answers ("Did you go to the X festival?" - "Yes!
    # I went with my sister"), as the person's relevance reads it
    own += [s.question for s in work.window if s.speaker == person and s.question]
    # another's turn that speaks of the person is about them ("Carlos is on vacation until
    # the 22nd; Priya covers Android": Android is no name Carlos never says, for this)
    own += [s.turn for s in work.window if _spoken_of(s, person) and s.turn]
    missing = unheld_in(terms, own) if terms else []
    if not missing:
        return []
    probe = _probe_lists(tx, p, query, missing)
    about = [c.text for c in probe if c.speaker == person or spoken_of(c.text, person)]
    missing = unheld_in(missing, about)
    near = _of_their_conversations(work, person)
    return unsaid.unsaid(missing, unsaid.stated_by_others(near, work.records, person))


def _of_their_conversations(work: _Work, person: str) -> list[Scored]:
    """The groups of the window from the conversations ``person``'s own groups there come
    from: another chat's people say nothing of what this person said."""
    places = {
        conversation_of(work.records.get(s.gid, []))
        for s in work.window
        if s.speaker == person or _spoken_of(s, person)
    }
    return [s for s in work.window if conversation_of(work.records.get(s.gid, [])) in places]


def conversation_of(records: Sequence[Any]) -> str | None:
    """The conversation of a group, read from its records (None: an assertion written
    without an observation, or a turn of no conversation)."""
    return next((r.get("conversation") for r in records if r.get("conversation")), None)


def _spoken_of(s: Scored, person: str | None) -> bool:
    """Whether group ``s`` is another speaker's turn that speaks of ``person`` in the third
    person (:func:`graph_schema.recall.query.spoken_of`): about them, as their own turns."""
    return (
        person is not None
        and s.turn is not None
        and s.speaker not in (None, person)
        and spoken_of(s.turn, person)
    )


def about_person(s: Scored, person: str) -> list[str]:
    """The sentences of group ``s`` (another speaker's turn) that speak of ``person``: what it
    says about them, for the status ("Tomás opens Mon, Wed and Fri", not "Our flour comes
    from Millbrook, $31.50 a sack" of the same turn); the kinds asked for read a little more
    (:func:`details_of_person`)."""
    return list(dict.fromkeys(x for t in s.texts for x in sentences_of(t, person)))


def details_of_person(s: Scored, person: str, terms: Sequence[str] = ()) -> list[str]:
    """Where a detail asked of ``person`` is read in group ``s`` ("the kinds nothing names"):
    the sentences that speak of them (:func:`about_person`), each with the sentence after it,
    as a detail of a thing is read (``named.sentences_about``): in a tool's record, an
    agent's note or a document (``rerank.at_work``) always ("Applicant: Jonah Harper-Lin,
    DOB 2007-11-02. Date/time: 2024-03-15 15:30." gives the time of Jonah's test); in another
    person's turn when that sentence holds one of the question's ``terms`` (its words
    without the name), so goes on with what is asked ("Harold gets hardware keys. I've
    ordered two YubiKey keys at £52 each." for "how much have we paid per yubikey for
    Harold's keys"), not with something else ("Tomás opens Mon, Wed and Fri. Our flour
    comes from Millbrook, $31.50 a sack." states no pay of Tomás's)."""
    record = rerank.at_work(s)
    found: dict[str, None] = {}
    for text in s.texts:
        sentences = split_sentences(text)
        for i in sentences_speaking_of(sentences, person):
            after = sentences[i + 1 : i + 2]
            on = after and (record or found_terms(list(terms), after[0]))
            found.setdefault(" ".join(sentences[i : i + 2] if on else sentences[i : i + 1]), None)
    return list(found)


def _mentioned(
    window: list[Scored], records: dict[str, list[Any]], query: RecallQuery, config: FusionConfig
) -> Mentioned | None:
    """The person the query mentions who is not a speaker (:mod:`graph_schema.recall.mentions`),
    when it names no speaker."""
    window = window[: STATUS_DEPTH + READ_BEYOND]
    if not config.enabled("mentioned") or fusion.named_person(window, query.text, config):
        return None
    return mentions.mentioned_person(query.text, records, window)


def _best(records: list[Any], terms: list[str]) -> tuple[Any, float | None, float]:
    """The assertion of a group that best matches the query (similarity and coverage)."""

    def value(r: Any) -> tuple[float, str]:
        rel = fusion.relevance(_cosine(r["similarity"]), coverage(terms, r["text"] or ""))
        return rel, r["assertion"]["id"]

    best = max(records, key=value)
    return best, _cosine(best["similarity"]), coverage(terms, best["text"] or "")


@dataclass
class _Rivalry:
    """The thing a query names by two or more words ("Acme Labs") against another thing of
    its name ("Acme Ltd": :mod:`graph_schema.recall.rivals`): a group that names the other and
    never the one asked is read apart, and the question is not answered when the other's
    best group outmatches the best of the rest by more than a person's margin (as a person
    is by another: :func:`fusion.answered`). Both are read without the words of the name,
    which each group holds in part: "Who is the CTO of Acme Ltd?" is asked of the CTO."""

    asked: list[tuple[str, ...]]
    terms: list[str]  # the query's terms, less the words of the names asked
    own: float = 0.0
    rival: float | None = None

    @classmethod
    def of(cls, query: str) -> _Rivalry:
        asked = rivals.asked_names(query)
        words = {stem(w) for name in asked for w in name}
        return cls(asked, [t for t in content_terms(query) if t not in words])

    def weigh(self, s: Scored, similarity: float | None) -> bool:
        """Read group ``s`` (its cosine ``similarity``); whether it is about the other thing."""
        if not self.asked:
            return False
        cover = max((coverage(self.terms, t) for t in s.texts), default=0.0)
        value = fusion.relevance(similarity, cover)
        if rivals.names_another([s.turn] if s.turn else s.texts, self.asked):
            self.rival = max(self.rival or 0.0, value)
            return True
        self.own = max(self.own, value)
        return False

    def outmatched(self, margin: float, config: FusionConfig) -> bool:
        if self.rival is None or not config.enabled("contrast"):
            return False
        return self.rival - self.own > margin


@dataclass
class _Status:
    """What the status reads: the best relevance of the results that can answer, and for a
    query naming one person, that person and the best of the other people's (fusion.answered).
    The contrast is between people: statements (``user_stated``) count, not a tool's output
    or an agent's inferences, and a named one with no statement of their own among the
    results gets none (``others`` None). The person is a speaker, or one the speakers mention
    (``mentioned``: a relative, a friend; :mod:`graph_schema.recall.mentions`), whose groups
    are those about them, read against the floor of a person named: all that is said of them
    is said by others, so there is no contrast."""

    person: str | None = None
    terms: list[str] = field(default_factory=list)  # the query's, without the person's name
    relevance: float = 0.0
    # the other people's best, by conversation: only those of the conversations the person's
    # own groups come from count (:meth:`named`)
    others: dict[str | None, float] = field(default_factory=dict)
    places: set[str | None] = field(default_factory=set)  # those of the person's own groups
    stated: bool = False
    mentioned: Mentioned | None = None
    # the person named states things (some group of theirs is ``user_stated``): a tool's or a
    # document's speaker is asked about its own records, with no contrast between people
    speaks: bool = True
    # the thing the query names against another of its name (``_Rivalry``)
    rivalry: _Rivalry = field(default_factory=lambda: _Rivalry([], []))

    @classmethod
    def of(cls, person: str | None, query: RecallQuery, speaks: bool = True) -> _Status:
        return cls(person, without_name(query.text, person) if person else [], speaks=speaks)

    @classmethod
    def reading(cls, work: _Work, query: RecallQuery, config: FusionConfig) -> _Status:
        """The status of ``work``: about the speaker the query names, else about the person
        it mentions, else about no one. A named speaker of nothing but tools' output,
        documents or an agent's notes ("what are we paying per keg each month with
        northcask", the speaker "NorthCask lease agreement") is read by its own records
        alone: another person's statement of something near (another supplier's price) does
        not outmatch it."""
        person = work.person
        if person is not None:
            speaks = any(g.speaker == person and not rerank.at_work(g) for g in work.window)
            return cls.of(person, query, speaks)
        if work.mentioned is None or not config.enabled("person"):
            return cls.of(person, query)
        name = work.mentioned.name
        return cls(name, without_name(query.text, name), mentioned=work.mentioned)

    def answers(self, s: Scored, records: list[Any]) -> bool:
        """Whether group ``s`` can answer: any group, the person's own, or one about the
        person mentioned."""
        if self.mentioned is not None:
            return self.mentioned.in_group(s, records)
        return fusion.answers_for(s, self.person) or _spoken_of(s, self.person)

    def add(self, s: Scored, records: list[Any], query: RecallQuery, plain: float) -> None:
        if self.person is None:
            self.relevance = max(self.relevance, plain)
            return
        own = self.answers(s, records)
        if self.mentioned is not None:
            # all said of them is said by others: no contrast between people, the floor of a
            # person named on what is said about them (``stated`` stays False)
            # a question asking nothing but the person ("Who is Sam?", "What does Sam do?")
            # is covered by whatever is said of them
            if own:
                rel = _person_relevance(s, records, self.terms, query.cjk, bare=not self.terms)
                self.relevance = max(self.relevance, rel)
            return
        stated = any(r["assertion"]["source_kind"] == SourceKind.user_stated for r in records)
        if s.speaker is None or not (own or stated):
            return
        about = self.person if self.spoken_of(s) else None
        rel = _person_relevance(s, records, self.terms, query.cjk, about=about)
        place = conversation_of(records)
        if own:
            self.relevance = max(self.relevance, rel)
            self.stated = self.stated or stated
            self.places.add(place)
        else:
            self.others[place] = max(self.others.get(place, 0.0), rel)

    def spoken_of(self, s: Scored) -> bool:
        """Whether ``s`` counts for the person named only because another speaker speaks of
        them: only its sentences that do are about the person (:func:`about_person`)."""
        return self.mentioned is None and s.speaker != self.person and _spoken_of(s, self.person)

    def named(self) -> NamedPerson | None:
        if self.person is None:
            return None
        # another conversation's people say nothing of whether this person said it: a store
        # of many chats would refuse a question the person's own chat answers
        best = max((v for c, v in self.others.items() if c in self.places), default=0.0)
        others = round(best, 6) if self.stated and self.speaks else None
        return NamedPerson(name=self.person, others_relevance=others)


@dataclass(frozen=True)
class _Chosen:
    """A group returned: its best assertion (read whole afterwards) and how it matched."""

    group: Scored
    assertion_id: str
    similarity: float | None
    cover: float


def _results(
    work: _Work, query: RecallQuery, config: FusionConfig
) -> tuple[list[_Chosen], _Status]:
    """The top k groups, and the status read from the best STATUS_DEPTH groups (not from the
    k returned: a status that changed with k would answer a question at k = 3 and refuse it
    at k = 10)."""
    # A CJK query's status reads coverage, and the CJK model's cosine when it read the group:
    # the shipped embedding model is English and does not separate Chinese texts
    # (docs/recall.md, "CJK queries").
    terms = content_terms(query.text)
    status = _Status.reading(work, query, config)
    status.rivalry = _Rivalry.of(query.text)
    chosen: list[_Chosen] = []
    read = 0
    for s in work.ranked:
        records = work.records.get(s.gid)
        if not records:
            continue
        record, similarity, cover = _best(records, terms)
        group_cover = max([cover, *(coverage(terms, t) for t in s.texts)])
        group_sim = max((x for x in (similarity, s.similarity) if x is not None), default=None)
        read_cjk = work.cjk.get(s.gid)  # the CJK model's cosine: a scale of its own
        if read < STATUS_DEPTH:
            plain = fusion.relevance(None if query.cjk else group_sim, group_cover)
            if read_cjk is not None:
                plain = max(plain, cjk.relevance(read_cjk))
            # a group about another thing of the same name ("Acme Ltd" for "Acme Labs")
            # answers nothing asked of this one
            if not status.rivalry.weigh(s, None if query.cjk else group_sim):
                status.add(s, records, query, plain)
            read += 1
        group_sim = read_cjk if read_cjk is not None else group_sim
        if len(chosen) < query.k:
            chosen.append(_Chosen(s, record["assertion"]["id"], group_sim, group_cover))
        if len(chosen) == query.k and read == STATUS_DEPTH:
            break
    status.relevance = round(status.relevance, 6)
    return chosen, status


def _result(c: _Chosen, record: Any, query: RecallQuery, top: float) -> RecallResult:
    """The result of a group: its assertion, whose evidence in the turn it was found by comes
    first (a restated fact cites the turns of every conversation that said it: the one
    found, the turn the result returns, is the one its first evidence quotes). A recall
    filtered to one conversation shows none of another's turns."""
    out = assertion_out(record, known_at=query.known_at)
    own = [e for e in out.evidence if e.id not in record["left_out"]]
    found = sorted(own, key=lambda e: e.observation_id != c.group.gid)
    out = out.model_copy(update={"evidence": found})
    return RecallResult(
        assertion=out,
        score=round(_score(c.group, top), 6),
        evidence=out.evidence,
        why=_why(c.group, c.similarity, c.cover),
    )


def _read(
    tx: ManagedTransaction, p: dict[str, Any], query: RecallQuery, config: FusionConfig
) -> tuple[_Work, list[RecallResult], _Status]:
    """The search, the answer's results and what they come from (their turns and the chains of
    the events that wrote them): one read transaction, so all is read from the same state as
    the ranking."""
    work = _search(tx, p, query, config)
    chosen, status = _results(work, query, config)
    whole = fetch_assertions(tx, p, [c.assertion_id for c in chosen])
    top = config.max_score()
    # a result closed since it was chosen, by a version the caller may not read now (a
    # retraction, another scope's), is left out: a KeyError here answered 500 during writes
    results = [
        (c.group.gid, _result(c, whole[c.assertion_id], query, top))
        for c in chosen
        if c.assertion_id in whole
    ]
    return work, origins.attach(tx, p["groups"], p["caller"], results), status


def _person_relevance(
    s: Scored,
    records: list[Any],
    terms: list[str],
    cjk: bool,
    *,
    bare: bool = False,
    about: str | None = None,
) -> float:
    """The relevance of a group by the person the query names, without the name: it selected
    the group, so it is not evidence again. Only what that person states of their own counts
    (:func:`~graph_schema.recall.query.own_sentences`: not their questions, not what they say
    to the other person about the other's life, not their appraisals of it): the best cosine
    of those sentences (without the ``Speaker:`` prefix the passage carries), and the coverage
    of the other query terms in each text of the group less its other sentences, and in the
    question the turn answers when the turn before it asks one ("Did you go to the
    festival?" - "Yes, with my sister"); a turn that only follows another person's statement
    gains nothing from it. ``bare``: the query asks nothing but the person, any own text
    covers it. ``about``: the group is another speaker's turn that speaks of this person;
    only its sentences that do count (:func:`about_person`), not the speaker's own (in
    "Priya asked me. I'm on Singapore time." the second says nothing of Priya's)."""
    if about is not None:
        own = [r for r in records if spoken_of(r["text"] or "", about)]
        sentences = about_person(s, about)
    else:
        own = [r for r in records if states_own(r["text"] or "")]
        # each text read as a whole, less what is not the speaker's own
        sentences = [x for x in (" ".join(own_sentences(t)) for t in s.texts) if x]
    question = [s.question] if s.question and about is None else []
    texts = [*(r["text"] or "" for r in own), *sentences, *question]
    if not own and not sentences:
        return 0.0
    cosines = [c for c in (_cosine(r["similarity"]) for r in own) if c is not None]
    embedded = any(r["similarity"] is not None for r in records)
    # no own sentence carries a vector while the others do: nothing of theirs is similar
    similarity = None if cjk or not embedded else max(cosines, default=0.0)
    cover = 1.0 if bare else max(coverage(terms, t) for t in texts)
    return fusion.relevance(similarity, cover)


def _missing_kinds(work: _Work, query: RecallQuery, status: _Status) -> list[str]:
    """The kinds the query asks for that no group read for the answer names
    (:mod:`graph_schema.recall.kinds`): for a query naming one person, that person's groups
    (or those about the person mentioned), each its own turn and the question it answers;
    otherwise every group's texts. A sum of money asked for and stated by none of the same
    groups (their texts, :mod:`graph_schema.recall.amounts`) is the kind ``amount``; a phone
    number or an email address asked for and held by none of the texts read is
    ``phone_number`` or ``email_address`` (:mod:`graph_schema.recall.contacts`); a time of day
    or a time zone, ``clock_time`` or ``time_zone`` (:mod:`graph_schema.recall.clock`); a
    booking, invoice or other reference number that no text read gives under its name,
    ``reference_number`` (:mod:`graph_schema.recall.references`)."""
    texts: list[str] = []
    read: list[amounts.Read] = []
    for s in work.window:
        if not status.answers(s, work.records.get(s.gid, [])):
            continue
        if status.person is not None and status.spoken_of(s):
            # another speaker's turn about the person: what it says of them
            about = details_of_person(s, status.person, status.terms)
            texts += about
            read.append(amounts.Read(about))
            continue
        own = [s.turn] if status.person is not None and s.turn is not None else s.texts
        texts += [*own, *([s.question] if s.question else [])]
        read.append(amounts.Read(s.texts, s.question))
    narrow = status.person is None  # a speaker's own turns never name them
    # the names a question written in lower case gives, as the turns read write them (not
    # as a `said` assertion does: "Helen Marsh said Second is ...")
    text = truecased(query.text, (s.turn for s in work.window if s.turn is not None))
    unnamed = kinds.missing(text, texts)  # no dog at all: then no dog's name either
    missing = [
        *(unnamed or given_names.missing(text, texts)),
        *contacts.missing(text, texts, narrow=narrow),
        *clock.missing(text, texts, narrow=narrow),
        *references.missing(
            text, _reference_texts(work, status, texts, text), person=status.person
        ),
    ]
    return [*missing, amounts.KIND] if amounts.missing(text, read) else missing


def _reference_texts(work: _Work, status: _Status, texts: list[str], query: str) -> list[str]:
    """What the reference rule reads (:mod:`graph_schema.recall.references`): every group
    read, whole (its turn, else its texts), for a question about no one. For a question about
    one person, the kinds' texts (the person's groups, what others say of them), the whole
    turn of each group read that names them (a record names them in a field: "Invoice
    GAW-20931 - Customer: Marcus Okafor") and of each that holds every other name the
    question gives (a record of their business need not name them: "TDS Dispute Service -
    Case DR-55810-24 opened", for "the reference number for the TDS dispute with Dan")."""
    turns = [t for s in work.window for t in ([s.turn] if s.turn is not None else s.texts)]
    if status.person is None:
        return turns
    person = status.person
    others = references.other_names(query, person)
    return [
        *texts,
        *(t for t in turns if names_person(t, person)),
        *(t for t in turns if others and not unheld_in(others, [t])),
    ]


def _score(s: Scored, top: float) -> float:
    """The rerank's score; the fused score over its constant maximum without the rerank."""
    return s.rerank if s.rerank is not None else min(s.score / top, 1.0)


def _why(s: Scored, similarity: float | None, cover: float) -> Why:
    sources = set()
    for name in s.sources:
        sources.add("vector" if name.endswith("_vector") else "fulltext")
    if "graph" in s.boosts:
        sources.add("graph")
    return Why(
        sources=sorted(sources),
        ranks=dict(sorted(s.sources.items())),
        similarity=similarity,
        coverage=round(cover, 6),
        boosts=sorted(set(s.boosts)),
    )


def _relevant(
    status: _Status, person: NamedPerson | None, query: RecallQuery, config: FusionConfig
) -> bool:
    """The status rule on the relevance: the person mentioned has their floor; otherwise
    :func:`fusion.answered`, with the contrast of the person named, or of the thing named
    against another of its name (``_Rivalry``). (The current fact asked for, first, answers
    the question whatever its relevance: ``_Work.held``.)"""
    # coverage alone when nothing was embedded (a CJK query, or no model): its own rule
    rule = fusion.LEXICAL if query.vector is None else fusion.SEMANTIC
    if status.mentioned is not None:
        return status.relevance >= rule.person_threshold
    if person is None and status.rivalry.outmatched(rule.person_margin, config):
        return False
    others = None if person is None else person.others_relevance
    return fusion.answered(status.relevance, others, config, rule)


def recall(
    driver: Driver,
    *,
    database: str,
    principal: Principal,
    query: RecallQuery,
    config: FusionConfig,
    recorder: access.AccessRecorder | None = None,
) -> RecallAnswer:
    """Ranked assertions for ``query`` as ``principal`` sees them, fused as ``config`` says
    (the server's one configuration, built at start-up); a read transaction. The assertions
    returned are counted in the access log.

    A CJK query is searched without its vector: the embedding model is English, and its
    cosines between Chinese texts rank noise (docs/recall.md, "CJK queries"); its full-text
    lists, read in bigrams, and its coverage decide, for the ranking as for the status, with
    the CJK model's reading of its first groups when ``query.reader`` is one
    (:mod:`graph_schema.recall.cjk`)."""
    query = query.searched()
    p = parameters(principal, query, config.exact_limit)
    with driver.session(database=database, default_access_mode="READ") as session:
        work, results, status = session.execute_read(_read, p, query, config)
    access.record(recorder, access.returned(r.assertion for r in results))
    person = status.named()
    answered = bool(results) and (work.held or _relevant(status, person, query, config))
    # a thing the query names that nothing visible mentions: nothing can answer it
    answered = answered and not work.unmentioned
    # a name the person asked about never says, that another person states ("When did Dev go
    # to Lisbon?" when only Priya was there)
    answered = answered and not work.unsaid
    # a kind of thing asked for that nothing read names ("What instrument does Tom play?")
    missing = _missing_kinds(work, query, status) if config.enabled("kinds") else []
    answered = answered and not missing
    return RecallAnswer(
        status=Status.answered if answered else Status.not_found,
        results=results,
        relevance=status.relevance,
        person=person,
        unmentioned=work.unmentioned,
        unsaid=work.unsaid,
        missing_kinds=missing,
        as_of=query.as_of,
        known_at=query.known_at,
    )
