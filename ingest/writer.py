"""The single writer path: validated assertions into the ledger, in one transaction.

Writers to one slot are serialised by Neo4j: each transaction first locks the slots it
touches (in key order, so batches cannot deadlock each other) by bumping ``Slot.version``,
then reads the slot's alive versions, checks ``expected_current`` and applies the plan from
:mod:`graph_schema.ledger.timeline`. The record time of the whole transaction is taken after the
locks and is later than every stamp already in those slots.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, NoReturn

from neo4j import Driver, ManagedTransaction, Record, Result

from graph_schema.core.errors import PreconditionFailed, TractatusError
from graph_schema.core.records import as_datetime
from graph_schema.core.timeutil import new_id, parse_rfc3339, to_rfc3339, utcnow, with_rfc3339
from graph_schema.core.types import Principal, Tier
from graph_schema.entities.names import entity_ref
from graph_schema.ledger import cypher
from graph_schema.ledger.disclosure import disclosures_for
from graph_schema.ledger.records import assertion_out, evidence_out
from graph_schema.ledger.timeline import (
    Plan,
    Version,
    cut_by,
    governing,
    plan_write,
    restated,
    spelled,
)
from graph_schema.ledger.types import (
    UTTERANCE,
    AssertionOut,
    AssertionsWritten,
    AssertionWrite,
    EvidenceOut,
    WriteResult,
)
from graph_schema.lifecycle.restore import RESTORE_REASON, RESTORE_RULE, Piece
from graph_schema.lifecycle.rules import DEFAULT_BOUND
from graph_schema.lifecycle.types import WorkingMemory
from graph_schema.schema.types import Predicate, ValueType
from ingest import idempotency
from ingest.lifecycle.tasks import enter_tasks, gather

ONE_MICROSECOND = timedelta(microseconds=1)


@dataclass(frozen=True)
class Prepared:
    item: AssertionWrite
    key: str
    object_text: str | None
    valid_from: datetime
    valid_to: datetime | None
    embedding: list[float] | None
    slot_object: str | None
    predicate: Predicate
    access_all: tuple[str, ...] = ()
    # a distiller's draft whose valid time starts when it was said (no time of its own)
    untimed: bool = False
    # the version whose start a distiller's draft keeps, and whose evidence it carries
    restates: str | None = None


def slot_key(item: AssertionWrite, predicate: Predicate, access_all: Sequence[str] = ()) -> str:
    """The slot of a write: (subject, predicate[, object], access), plus the source
    requirements (``access_all``) of a derived fact, so that a fact readable only by readers
    of its sources never shares a slot (its versions, its 409s) with a wider one. A slot with
    no requirement keeps the key it always had; a derived slot's key is that key, ``+`` and
    its requirements, which migration 9 can compute in Cypher from a stored version.

    An utterance (:data:`UTTERANCE`) read from an observation is a slot of its own: the same
    sentence said again, in another conversation or later in this one, is another utterance
    and never ends this one. Its key is the plain key, ``@`` and the observation's id, which
    migration 15 can compute in Cypher too."""
    obj = item.object_text() if predicate.cardinality == "many" else None
    canonical = json.dumps(
        [item.subject, item.predicate, obj, sorted(item.access)], ensure_ascii=False
    )
    key = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    observation = item.spans[0].observation_id if item.spans else None
    if item.predicate == UTTERANCE and observation is not None:
        key = f"{key}@{observation}"
    return derived_key(key, access_all)


def derived_key(key: str, access_all: Sequence[str]) -> str:
    """``key`` of the slot's access scope narrowed by ``access_all`` ("g1|g2" each; group
    names never hold ``+``, ``,`` or ``|``, so the key is unambiguous)."""
    return f"{key}+{','.join(sorted(access_all))}" if access_all else key


def prepare(
    items: Sequence[AssertionWrite],
    *,
    ontology: dict[str, Predicate],
    embeddings: Sequence[list[float] | None] | None = None,
    default_valid_from: datetime | None = None,
    source_access: Sequence[tuple[str, ...]] | None = None,
) -> list[Prepared]:
    now = default_valid_from or utcnow()
    prepared = []
    for n, item in enumerate(items):
        evidence_time = next((e.occurred_at for e in item.spans if e.occurred_at), None)
        valid_from = (
            parse_rfc3339(item.valid_from)
            if item.valid_from
            else parse_rfc3339(evidence_time)
            if evidence_time
            else now
        )
        access_all = source_access[n] if source_access else ()
        prepared.append(
            Prepared(
                item=item,
                key=slot_key(item, ontology[item.predicate], access_all),
                object_text=item.object_text(),
                valid_from=valid_from,
                valid_to=parse_rfc3339(item.valid_to) if item.valid_to else None,
                embedding=embeddings[n] if embeddings else None,
                predicate=ontology[item.predicate],
                access_all=tuple(sorted(access_all)),
                slot_object=(
                    item.object_text() if ontology[item.predicate].cardinality == "many" else None
                ),
            )
        )
    return prepared


def spelling_key(p: Prepared) -> str | None:
    """The lock of a many-valued value in every case and spacing (None for other writes): a
    ``Slot`` keyed ``spelling:`` and the hash of (subject, predicate, spelled value). A write
    takes it before it looks for a held spelling (:func:`same_spelling`), so that writers of
    "Jazz" and "jazz" at once are serialised, and the second joins the first's slot (a new
    user's trial: four writers of four spellings at once left four current versions, each
    locking the slot of its own spelling)."""
    if p.slot_object is None or p.item.predicate == UTTERANCE:
        return None
    spelling = json.dumps([p.item.subject, p.item.predicate, spelled(p.slot_object)])
    return "spelling:" + hashlib.sha256(spelling.encode("utf-8")).hexdigest()


def _lock_spellings(tx: ManagedTransaction, prepared: list[Prepared]) -> None:
    keys = sorted({k for k in map(spelling_key, prepared) if k is not None})
    if keys:
        tx.run(cypher.LOCK_SPELLINGS, keys=keys, wall_clock=utcnow()).consume()


Scope = tuple[tuple[str, ...], tuple[str, ...]]


def _scope(access: Sequence[str] | None, access_all: Sequence[str] | None) -> Scope:
    return tuple(sorted(access or [])), tuple(sorted(access_all or []))


def same_spelling(tx: ManagedTransaction, prepared: list[Prepared]) -> list[Prepared]:
    """``prepared`` with each value of a many-valued predicate written in another case or
    spacing than a value its subject holds (in a slot of the same access) moved into that
    value's slot: "not Jazz" withdraws the "jazz" held (a new user's trial: it was written in a
    slot of its own, answered 201 and withdrew nothing), and "Jazz" restates it. The value is
    kept as written; the spelling is compared as everywhere (:func:`spelled`). The slot is
    found by its scope, not by recomputing its key from the value held: once "jazz" had
    corrected the "Jazz" of its slot, a third "jazz" found no slot keyed by its spelling and
    opened one of its own, a second current version (a new user's trial)."""
    many = [p for p in prepared if spelling_key(p) is not None]
    if not many:
        return prepared
    pairs = sorted({(p.item.subject, p.item.predicate) for p in many})
    held: dict[tuple[str, str, str], set[tuple[str, Scope]]] = {}
    rows = tx.run(cypher.HELD_VALUES, pairs=[{"subject": s, "predicate": q} for s, q in pairs])
    for r in rows:
        spelling = (r["subject"], r["predicate"], spelled(str(r["object"])))
        scope = _scope(r["access"], r["access_all"])
        held.setdefault(spelling, set()).add((r["key"], scope))
    # two spellings of one value in the batch share the first one's slot too
    first: dict[tuple[str, str, str, Scope], str] = {}
    joined = []
    for p in (_respelled(p, held) for p in prepared):
        if spelling_key(p) is not None:
            scope = _scope(p.item.access, p.access_all)
            value = (p.item.subject, p.item.predicate, spelled(p.slot_object or ""), scope)
            p = replace(p, key=first.setdefault(value, p.key))
        joined.append(p)
    return joined


def _respelled(
    p: Prepared, held: Mapping[tuple[str, str, str], set[tuple[str, Scope]]]
) -> Prepared:
    if spelling_key(p) is None:
        return p
    entries = held.get((p.item.subject, p.item.predicate, spelled(p.slot_object or "")), set())
    scope = _scope(p.item.access, p.access_all)
    keys = sorted(key for key, held_scope in entries if held_scope == scope and "@" not in key)
    if not keys or p.key in keys:
        return p  # nothing held in this spelling, or its own slot holds it
    return replace(p, key=keys[0])


def _kind_of(p: Prepared) -> str | None:
    """The kind a withdrawal names when it names a relative, friend or pet of its subject by
    the kind alone (``has_pet <S>/cat``, ``polarity: false``), else None."""
    obj = p.object_text
    if p.item.polarity or obj is None or p.slot_object is None or not p.predicate.object_entity:
        return None
    role = obj.removeprefix(p.item.subject + "/")
    return obj if role != obj and role and "/" not in role and ":" not in role else None


Slots = dict[tuple[str, ...], dict[str, list[Version]]]


def _held_slots(
    tx: ManagedTransaction, statement: str, rows: list[dict[str, str]], *fields: str
) -> Slots:
    """The alive versions ``statement`` reads for ``rows``, by the row's ``fields`` and then
    by slot key."""
    held: Slots = {}
    for r in tx.run(statement, rows=rows):
        slots = held.setdefault(tuple(r[f] for f in fields), {})
        slots.setdefault(r["key"], []).append(_stored_version(r))
    return held


def _moved_to_one(
    p: Prepared,
    slots: Mapping[str, list[Version]],
    itself: Callable[[str], bool],
    holder: Callable[[str], bool],
) -> Prepared:
    """``p`` (a withdrawal) moved to the one slot whose value, holding at its valid time in
    its access, ``holder`` takes for the one it withdraws; as written when a value ``itself``
    takes for its own holds, or when not exactly one other does."""
    scope = _scope(p.item.access, p.access_all)
    holding: list[tuple[str, str]] = []
    for key, versions in slots.items():
        now = governing(sorted(versions, key=lambda v: v.valid_from), p.valid_from)
        if now is None or now.scope != scope or not now.polarity or now.object is None:
            continue
        if itself(str(now.object)):
            return p  # the value named holds: the withdrawal is its own
        if holder(str(now.object)):
            holding.append((key, str(now.object)))
    if len(holding) != 1:
        return p
    key, value = holding[0]
    item = p.item.model_copy(update={"object": value})
    return replace(p, item=item, key=key, object_text=value, slot_object=value)


def kind_withdrawn(tx: ManagedTransaction, prepared: list[Prepared]) -> list[Prepared]:
    """``prepared`` with a distiller's withdrawal of a relative, friend or pet by its kind
    ("I don't have a cat anymore": ``has_pet <S>/cat``, ``polarity: false``) moved to the one
    of that kind its subject holds by name (``<S>/cat:Biscuit``, told in another turn), when
    exactly one named one holds at the withdrawal's valid time, in the same access, and no
    unnamed one does (docs/distillers.md, version 32: it withdrew ``<S>/cat``, which never
    held, and the named cat stayed current). The object becomes the named identifier, so the
    version says what it withdraws; two named cats, or none, leave it as written. Only
    many-valued predicates are concerned, never withheld (``observations.withhold``)."""
    kinds = {(p.item.subject, p.item.predicate, k) for p in prepared if (k := _kind_of(p))}
    if not kinds:
        return prepared
    rows = [{"subject": s, "predicate": q, "kind": k} for s, q, k in sorted(kinds)]
    held = _held_slots(tx, cypher.HELD_OF_KIND, rows, "subject", "predicate", "kind")
    return [_named_one(p, held) for p in prepared]


def _named_one(p: Prepared, held: Slots) -> Prepared:
    kind = _kind_of(p)
    if kind is None:
        return p
    slots = held.get((p.item.subject, p.item.predicate, kind), {})
    return _moved_to_one(p, slots, itself=lambda value: value == kind, holder=lambda _: True)


# many-valued states a distiller may withdraw by a word of the value held (version 33)
WORD_WITHDRAWN = frozenset({"activity", "health_condition"})


def _word_of(p: Prepared) -> str | None:
    """The value a distiller's withdrawal of an activity or a condition names, else None."""
    if p.item.polarity or p.item.predicate not in WORD_WITHDRAWN or not p.slot_object:
        return None
    return p.slot_object if p.predicate.cardinality == "many" else None


def word_withdrawn(tx: ManagedTransaction, prepared: list[Prepared]) -> list[Prepared]:
    """``prepared`` with a distiller's withdrawal of an activity or a health condition by a
    word of it ("I quit pottery": ``activity pottery``; "My ankle is healed": ``health_condition
    ankle``, ``polarity: false``) moved to the one value its subject holds that contains that
    word whole (``wheel-throwing pottery class``, ``sprained ankle``), when the value named
    holds not itself and exactly one such value holds at the withdrawal's valid time, in the
    same access (docs/distillers.md, version 33: the withdrawal was written in a slot that
    never held, and the class stayed current beside ``dropped pottery``). Two such values, or
    none, leave it as written."""
    pairs = {(p.item.subject, p.item.predicate) for p in prepared if _word_of(p)}
    if not pairs:
        return prepared
    rows = [{"subject": s, "predicate": q} for s, q in sorted(pairs)]
    held = _held_slots(tx, cypher.HELD_OF_PREDICATE, rows, "subject", "predicate")
    return [_holder_of_word(p, held.get((p.item.subject, p.item.predicate), {})) for p in prepared]


def _holder_of_word(p: Prepared, held: Mapping[str, list[Version]]) -> Prepared:
    word = _word_of(p)
    if word is None:
        return p
    whole = re.compile(rf"(?<![\w-]){re.escape(spelled(word))}(?![\w-])")
    return _moved_to_one(
        p,
        held,
        itself=lambda value: spelled(value) == spelled(word),
        holder=lambda value: whole.search(spelled(value)) is not None,
    )


def _lock_slots(tx: ManagedTransaction, prepared: list[Prepared]) -> datetime:
    """Lock every slot of the batch; return a record time later than all their stamps, read
    from the clock once the locks are held (a new user's trial: it was read before waiting for
    them, so writers queued on one slot were stamped a microsecond apart, earlier than the
    commits they had waited for)."""
    unique = sorted({p.key: p for p in prepared}.values(), key=lambda p: p.key)
    slots = [
        {
            "key": p.key,
            "subject": p.item.subject,
            "predicate": p.item.predicate,
            "object": p.slot_object,
            "access": p.item.access,
            "access_all": list(p.access_all),
        }
        for p in unique
    ]
    record = tx.run(cypher.LOCK_SLOTS, slots=slots, wall_clock=utcnow()).single(strict=True)
    last = as_datetime(record["last_recorded_at"])
    wall = utcnow()
    return max(wall, last + ONE_MICROSECOND) if last is not None else wall


def _alive_by_slot(
    tx: ManagedTransaction, keys: list[str], groups: Sequence[str]
) -> dict[str, list[Version]]:
    alive: dict[str, list[Version]] = {key: [] for key in keys}
    for r in tx.run(cypher.ALIVE_VERSIONS, keys=keys, groups=list(groups)):
        alive[r["key"]].append(
            _stored_version(
                r,
                shown=bool(r["shown"]),
                untimed=bool(r["untimed"]),
                sources=frozenset(r["sources"]),
            )
        )
    return alive


def _stored_version(r: Record, **extra: Any) -> Version:
    """A stored version as a row of ALIVE_VERSIONS or HELD_OF_KIND reads it."""
    return Version(
        id=r["id"],
        valid_from=as_datetime(r["valid_from"]),  # type: ignore[arg-type]
        valid_to=as_datetime(r["valid_to"]),
        polarity=bool(r["polarity"]),
        object=r["object"],
        scope=_scope(r["access"], r["access_all"]),
        **extra,
    )


def _fetch(
    tx: ManagedTransaction, assertion_id: str, groups: list[str], known_at: datetime
) -> AssertionOut:
    record = tx.run(cypher.GET_ASSERTION, id=assertion_id, groups=groups, known_at=known_at).single(
        strict=True
    )
    return assertion_out(record)


def _check_precondition(
    tx: ManagedTransaction,
    p: Prepared,
    alive: list[Version],
    stored: list[Version],
    *,
    index: int,
    now: datetime,
    groups: list[str],
) -> None:
    """``expected_current`` against the slot as this batch has left it so far (``alive``).
    When an earlier item of the batch made the version that governs now, the refusal says so
    and names the stored one (``stored``, the slot before the batch): the batch's own
    version is never written, so naming it would send the writer after a version that does
    not exist (a new user's trial). ``details.index`` is the refused item's."""
    if not p.item.has_precondition:
        return
    current = governing(alive, now)
    expected = p.item.expected_current
    empty = current is None or not current.polarity
    if expected is None and empty:
        return
    if current is not None and expected == current.id:
        return
    _refuse(
        tx,
        "the slot moved on: expected_current is not current",
        f"item {index} of the batch: an earlier item of the same batch changes the slot "
        "its expected_current names (nothing was written)",
        _Slot(alive, stored, now, groups, index),
    )


@dataclass(frozen=True)
class _Slot:
    """A slot as a refusal sees it: as the batch has left it so far (``alive``), as it was
    stored before the batch (``stored``), the record time, the writer's groups and the
    refused item's index."""

    alive: list[Version]
    stored: list[Version]
    now: datetime
    groups: list[str]
    index: int


def _refuse(tx: ManagedTransaction, message: str, batch_message: str, slot: _Slot) -> NoReturn:
    """Refuse an item with 409: ``details.current`` is the version governing now, read from
    the store. When an earlier item of the batch made the version that governs now, the
    message is ``batch_message`` and ``details.current`` the version stored before the batch:
    the batch's own version is never written (it may not even have been sent to the store
    yet), so naming it would send the writer after a version that does not exist."""
    current = governing(slot.alive, slot.now)
    if current is not None and current.id not in {v.id for v in slot.stored}:
        message = batch_message
        current = governing(slot.stored, slot.now)
    details: dict[str, Any] = {"current": None, "index": slot.index}
    if current is not None and current.shown:
        details["current"] = _fetch(tx, current.id, slot.groups, slot.now).model_dump(mode="json")
    raise PreconditionFailed(message, details=details)


def _cuts_another(p: Prepared, alive: list[Version]) -> str | None:
    """Why a retraction of a one-valued predicate that names a value may not be written: a
    version of another value holds in its valid time, which it would close (None if not)."""
    if p.item.polarity or p.object_text is None or p.predicate.cardinality != "one":
        return None
    other = cut_by(alive, p.object_text, p.valid_from, p.valid_to)
    if other is None:
        return None
    held = repr(other.object) if other.shown else "another value"
    return (
        f"the retraction names {p.object_text!r}, but {held} holds in its valid time: a "
        "retraction of a one-valued predicate withdraws only the value it names (send it "
        "without an object to withdraw whatever holds)"
    )


def _continued(p: Prepared, alive: list[Version]) -> Prepared:
    """A distilled draft stating, with no time of its own, the value that holds open-ended
    since earlier: written from that version's start, which it supersedes (the same content,
    its new evidence), so the fact keeps its "since" (a new user's trial: "My dog Bruno has an
    ear infection" in October closed "My dog Bruno" of June and started the dog in October;
    "I live in Gdansk now" moved the move of the week before to that day). Not in a task:
    there each statement is working memory, decided at the task's end (two agents stating the
    same fact corroborate it, and both are promoted). A draft with no time of its own that
    restates nothing is marked ``untimed`` (its start is when it was said); a restatement
    takes the mark of the version whose start it keeps, and carries its evidence
    (:func:`_carry`): the start came from there (a new user's trial: "I live in Tallinn" in
    another conversation left the fact evidenced by that turn alone, and a recall filtered to
    the conversation of "I moved to Tallinn last year" no longer found it). Only a version of
    the draft's own scope is restated: its readers are the draft's, so the start tells them
    nothing they may not read (one slot holds one scope; a version of another, from a store
    older than its slot rule, is closed as any earlier value is, and nothing of it carried)."""
    said_at = {span.occurred_at for span in p.item.spans}
    untimed = p.item.valid_from is None or p.item.valid_from in said_at  # when it was said
    if not untimed or not p.item.polarity or p.object_text is None or p.item.task_id:
        return p
    held = restated(alive, p.object_text, p.valid_from)
    scope = _scope(p.item.access, p.access_all)
    if held is None or (held.scope is not None and held.scope != scope):
        return replace(p, untimed=True)
    return replace(p, valid_from=held.valid_from, untimed=held.untimed, restates=held.id)


def _carry(
    tx: ManagedTransaction, new: str, held: str, own: Sequence[str], groups: Sequence[str]
) -> list[EvidenceOut]:
    """Link the evidence of version ``held`` to version ``new``, which keeps its start
    (``cypher.LINK_RESTATED_EVIDENCE``: only evidence every reader of ``new`` may read, never
    twice, none of the observations ``own`` that ``new`` cites itself); the linked evidence
    the writer (``groups``) may read."""
    rows = tx.run(
        cypher.LINK_RESTATED_EVIDENCE, id=new, held_id=held, own=list(own), groups=list(groups)
    )
    return [evidence_out(dict(r["evidence"])) for r in rows if r["shown"]]


def _restated_later(p: Prepared, new: Version, alive: list[Version]) -> Version | None:
    """The version that a distilled draft ``p`` (written as ``new``) would have been restated
    by, had it arrived first (:func:`_continued`): the open-ended version of the same value
    that starts where ``new`` ends and whose start is when it was said (``untimed``), read
    from another observation (a sentence read again, by ``tractatus redistill``, restates
    nothing). A new user's trial: "I moved to Lisbon last month" after "I live in Lisbon now"
    left Lisbon from the day of the restatement, where the other order gives the month's
    start."""
    if not p.item.polarity or p.object_text is None or p.item.task_id or new.valid_to is None:
        return None
    if p.item.predicate == UTTERANCE:  # an utterance happened: it restates nothing
        return None
    later = next((v for v in alive if v.valid_from == new.valid_to), None)
    if later is None or later.valid_to is not None or not later.untimed or not later.polarity:
        return None
    if later.sources & {span.observation_id for span in p.item.spans}:
        return None
    same = later.object is not None and spelled(later.object) == spelled(p.object_text)
    return later if same else None


def _restate_later(
    tx: ManagedTransaction, p: Prepared, alive: list[Version], new: Version, now: datetime
) -> list[Version]:
    """Write the version :func:`_restated_later` finds again from ``new``'s start (its
    content and evidence, ``new``'s ``untimed`` mark), superseding it and ``new``: the slot
    ends as the other order of arrival leaves it. Append-only: both stay in history. Returns
    the slot's alive versions after it."""
    later = _restated_later(p, new, alive)
    if later is None:
        return alive
    # ``new`` ends where ``later`` starts, and ``later`` is open-ended: the copy covers both
    # and nothing else (a plan from ``new``'s start with no end would stop at ``later``)
    plan = Plan(valid_to=None, supersede=[new.id, later.id], sources={v.id: v for v in alive})
    rid, result = _copy(
        tx,
        cypher.CREATE_RESTATEMENT,
        source_id=later.id,
        valid_from=new.valid_from,
        valid_to=plan.valid_to,
        now=now,
        untimed=new.untimed or None,
    )
    result.consume()
    _carry(tx, rid, new.id, sorted(later.sources), [])  # the draft's words gave the start
    remnants = _apply(tx, plan, rid, now)
    copy = replace(
        later,
        id=rid,
        valid_from=new.valid_from,
        untimed=new.untimed,
        sources=later.sources | new.sources,
    )
    return _alive_after(alive, plan, copy, remnants)


def _copy(
    tx: ManagedTransaction,
    statement: str,
    *,
    source_id: str,
    valid_from: datetime,
    valid_to: datetime | None,
    now: datetime,
    **extra: Any,
) -> tuple[str, Result]:
    """A copy of version ``source_id`` over ``[valid_from, valid_to)`` written now by one of
    the copy statements (a remnant, a restatement, a restoration: ``cypher._copy_of``), with
    a new id and a new pin id; the id and the statement's result."""
    rid = new_id()
    result = tx.run(
        statement,
        source_id=source_id,
        id=rid,
        pin_id=new_id(),
        valid_from=valid_from,
        valid_to=valid_to,
        now=now,
        **extra,
    )
    return rid, result


def _refuse_cut(tx: ManagedTransaction, message: str, slot: _Slot) -> NoReturn:
    """Refuse a retraction that would cut another value (:func:`_cuts_another`). A new user's
    trial: a batch of "Paris", then "not Berlin" in the same slot answered 500, since the
    refusal looked up the batch's own Paris, which had not been sent to the store yet."""
    batch_message = (
        f"item {slot.index} of the batch: {message}; the value it cuts was written by an "
        "earlier item of the same batch (nothing was written)"
    )
    _refuse(tx, message, batch_message, slot)


def written_tier(p: Prepared) -> Tier:
    """Working memory (``short``) when written in a task or when the predicate is ephemeral,
    else long-term. Set once; later changes are recorded transitions (docs/lifecycle.md)."""
    return Tier.short if p.item.task_id or p.predicate.ephemeral else Tier.long


def _node_props(p: Prepared, *, new: str, now: datetime, principal: Principal) -> dict[str, Any]:
    item = p.item
    text = " ".join(x for x in (item.subject, item.predicate.replace("_", " "), p.object_text) if x)
    return {
        "id": new,
        "slot_key": p.key,
        "subject": item.subject,
        "predicate": item.predicate,
        "object": p.object_text,
        "polarity": item.polarity,
        "valid_from": p.valid_from,
        "valid_to": p.valid_to,
        "closed_at": now if p.valid_to is not None else None,
        "recorded_at": now,
        "superseded_at": None,
        "source_kind": item.source_kind.value,
        "asserted_by": item.asserted_by,
        "written_by": principal.id,
        "confidence": float(item.confidence),
        "tier": written_tier(p).value,
        "task_id": item.task_id,
        "access": item.access,
        "access_all": list(p.access_all),
        "untimed": True if p.untimed else None,
        "text": text,
        "embedding": p.embedding,
    }


def _evidence_props(p: Prepared, now: datetime) -> list[dict[str, Any]]:
    rows = []
    for ev in p.item.spans:
        start, end = ev.span()
        rows.append(
            {
                "id": new_id(),
                "quote": ev.quote,
                "start": start,
                "end": end,
                "observation_id": ev.observation_id,
                "speaker": ev.speaker,
                "occurred_at": parse_rfc3339(ev.occurred_at) if ev.occurred_at else None,
                "recorded_at": now,
                "access": p.item.access,
                "access_all": list(p.access_all),
            }
        )
    return rows


def _closes(plan: Plan, new: str) -> list[dict[str, Any]]:
    return [{"id": vid, "valid_to": to_rfc3339(vt), "new_id": new} for vid, vt in plan.close]


def _close(tx: ManagedTransaction, closes: list[dict[str, Any]], now: datetime) -> None:
    if not closes:
        return
    closed = tx.run(cypher.CLOSE_VERSIONS, closes=closes, now=now).single()
    if closed is None or closed["closed"] != len(closes):
        raise TractatusError("closing stamp already set: the slot lock did not hold")


def _apply(tx: ManagedTransaction, plan: Plan, new: str, now: datetime) -> list[Version]:
    """Set the closing stamps and write the remnants; return the remnants as versions."""
    _close(tx, _closes(plan, new), now)
    if plan.supersede:
        done = tx.run(cypher.SUPERSEDE_VERSIONS, ids=plan.supersede, new_id=new, now=now).single()
        if done is None or done["superseded"] != len(plan.supersede):
            raise TractatusError("superseded_at already set: the slot lock did not hold")
    remnants = []
    for remnant in plan.remnants:
        rid, result = _copy(
            tx,
            cypher.CREATE_REMNANT,
            source_id=remnant.source_id,
            valid_from=remnant.valid_from,
            valid_to=remnant.valid_to,
            now=now,
        )
        result.consume()
        remnants.append((rid, remnant))
    sources = plan.sources
    return [
        Version(
            rid,
            r.valid_from,
            r.valid_to,
            sources[r.source_id].polarity,
            sources[r.source_id].object,
            sources[r.source_id].shown,  # a remnant has its source's access
        )
        for rid, r in remnants
    ]


def _views(p: Prepared, alive: list[Version]) -> list[dict[str, Any]]:
    """The disclosures this write needs, given what the slot held just before it."""
    previous = governing(alive, p.valid_from - ONE_MICROSECOND)
    previous_object = previous.object if previous is not None and previous.polarity else None
    return disclosures_for(p.item, p.predicate, previous_object)


def _disclose(
    tx: ManagedTransaction, p: Prepared, alive: list[Version], new: str, now: datetime
) -> None:
    views = _views(p, alive)
    if views:
        tx.run(cypher.CREATE_DISCLOSURES, id=new, disclosures=views, now=now).consume()


def _alive_after(
    alive: list[Version], plan: Plan, new: Version, remnants: list[Version]
) -> list[Version]:
    """The slot's alive versions once the plan is applied (mirrors what the Cypher did)."""
    closed = dict(plan.close)
    kept = [
        replace(v, valid_to=closed[v.id]) if v.id in closed else v
        for v in alive
        if v.id not in plan.supersede
    ]
    return sorted([*kept, *remnants, new], key=lambda v: v.valid_from)


def _out(props: dict[str, Any], evidence: list[dict[str, Any]], touched: list[str]) -> AssertionOut:
    """The written assertion as the writer sees it, built from what was just written."""
    fields = {k: props.get(k) for k in AssertionOut.model_fields if k in props}
    fields["evidence"] = [
        EvidenceOut.model_validate({k: e.get(k) for k in EvidenceOut.model_fields})
        for e in evidence
    ]
    fields["supersedes"] = sorted(touched)
    return AssertionOut.model_validate(fields)


def _write_one(
    tx: ManagedTransaction,
    p: Prepared,
    alive: list[Version],
    *,
    now: datetime,
    principal: Principal,
    caused_by_event: str | None,
) -> tuple[WriteResult, list[Version]]:
    plan = plan_write(alive, p.valid_from, p.valid_to)
    plan.sources = {v.id: v for v in alive}
    row, result, written = _new_version(p, alive, plan, now=now, principal=principal)
    tx.run(cypher.CREATE_ASSERTIONS, rows=[row]).consume()
    if p.restates is not None:
        result, written = _carried(tx, p, alive, result, written, principal.groups)
    _disclose(tx, p, alive, written.id, now)
    remnants = _apply(tx, plan, written.id, now)
    if caused_by_event is not None:
        tx.run(cypher.LINK_CAUSED_BY, assertion_id=written.id, event_id=caused_by_event).consume()
    return result, _alive_after(alive, plan, written, remnants)


def _carried(
    tx: ManagedTransaction,
    p: Prepared,
    alive: list[Version],
    result: WriteResult,
    written: Version,
    groups: Sequence[str],
) -> tuple[WriteResult, Version]:
    """The restatement ``written`` with the evidence of the version it restates
    (:func:`_carry`), in its answer (what the writer may read of it) and in its sources."""
    held = next(v for v in alive if v.id == p.restates)
    carried = _carry(tx, written.id, held.id, sorted(written.sources), groups)
    assertion = result.assertion
    evidence = [*assertion.evidence, *sorted(carried, key=lambda e: (e.start or 0, e.id))]
    result = result.model_copy(
        update={"assertion": assertion.model_copy(update={"evidence": evidence})}
    )
    return result, replace(written, sources=written.sources | held.sources)


def _new_version(
    p: Prepared, alive: list[Version], plan: Plan, *, now: datetime, principal: Principal
) -> tuple[dict[str, Any], WriteResult, Version]:
    """The new version's statement row, the writer's result and the version itself."""
    before = governing(alive, now)
    new = new_id()
    props = _node_props(p, new=new, now=now, principal=principal)
    props["valid_to"] = plan.valid_to
    props["closed_at"] = now if plan.valid_to is not None else None
    evidence = _evidence_props(p, now)
    shown = {v.id for v in alive if v.shown}
    touched = [vid for vid in plan.touched if vid in shown]
    # the version that governed now, when this write governs now in its place (a future or
    # back-filled version that only closes it leaves it governing: no supersession to report)
    governs_now = p.valid_from <= now and (plan.valid_to is None or now < plan.valid_to)
    superseded = before.id if before is not None and before.id in touched and governs_now else None
    result = WriteResult(
        assertion=_out(props, evidence, touched), superseded=superseded, closed=touched
    )
    sources = frozenset(s.observation_id for s in p.item.spans if s.observation_id)
    written = Version(
        new,
        p.valid_from,
        plan.valid_to,
        p.item.polarity,
        p.object_text,
        untimed=p.untimed,
        sources=sources,
    )
    return _row(p, props, evidence), result, written


def _row(p: Prepared, props: dict[str, Any], evidence: list[dict[str, Any]]) -> dict[str, Any]:
    """The statement row of a new version: its properties, its evidence and its entities (the
    subject's; the object's when the predicate's object names a thing)."""
    thing = p.predicate.object_entity and p.predicate.value_type == ValueType.string
    return {
        "props": with_rfc3339(props, cypher.ASSERTION_TIMES),
        "evidence": [with_rfc3339(e, cypher.EVIDENCE_TIMES) for e in evidence],
        "about": entity_ref(p.item.subject, p.item.access),
        "thing": entity_ref(p.object_text, p.item.access) if thing and p.object_text else None,
    }


@dataclass
class _Pending:
    """Creates and closes held back to be sent as one statement each (creates first: a
    close may name a version created earlier in the batch)."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    closes: list[dict[str, Any]] = field(default_factory=list)

    def flush(self, tx: ManagedTransaction, now: datetime) -> None:
        if self.rows:
            tx.run(cypher.CREATE_ASSERTIONS, rows=self.rows).consume()
        _close(tx, self.closes, now)
        self.rows, self.closes = [], []


def _batched(
    p: Prepared, alive: list[Version], pending: _Pending, *, now: datetime, principal: Principal
) -> tuple[WriteResult, list[Version]] | None:
    """A write that needs no precondition check, no disclosure, no supersession and no
    remnant (a first version, or one that closes the open-ended version before it) is held
    in ``pending``; anything else returns None and goes through :func:`_write_one`."""
    if p.item.has_precondition and (alive or p.item.expected_current is not None):
        return None
    if _views(p, alive):
        return None
    plan = plan_write(alive, p.valid_from, p.valid_to)
    if plan.supersede or plan.remnants:
        return None
    row, result, written = _new_version(p, alive, plan, now=now, principal=principal)
    pending.rows.append(row)
    pending.closes.extend(_closes(plan, written.id))
    return result, _alive_after(alive, plan, written, [])


@dataclass
class _Step:
    """One item of a batch inside :func:`write_in_tx`: its precondition, the retraction rule
    (:func:`_cuts_another`), then held back with others (:func:`_batched`) or written now."""

    tx: ManagedTransaction
    now: datetime
    principal: Principal
    pending: _Pending
    caused_by_event: str | None
    withheld: list[tuple[Prepared, str]] | None

    def write(
        self, p: Prepared, alive: list[Version], stored: list[Version], index: int
    ) -> tuple[WriteResult, list[Version]] | None:
        groups = list(self.principal.groups)
        _check_precondition(self.tx, p, alive, stored, index=index, now=self.now, groups=groups)
        if self.withheld is not None:  # a distiller's drafts
            p = _continued(p, alive)
        cut = _cuts_another(p, alive)
        if cut is not None:
            if self.withheld is None:
                _refuse_cut(self.tx, cut, _Slot(alive, stored, self.now, groups, index))
            self.withheld.append((p, cut))
            return None
        written = None
        if self.caused_by_event is None:
            written = _batched(p, alive, self.pending, now=self.now, principal=self.principal)
        if written is None:
            self.pending.flush(self.tx, self.now)  # a planned write may touch a version pending
            written = _write_one(
                self.tx,
                p,
                alive,
                now=self.now,
                principal=self.principal,
                caused_by_event=self.caused_by_event,
            )
        result, after = written
        new = next(v for v in after if v.id == result.assertion.id)
        if self.withheld is not None and _restated_later(p, new, after) is not None:
            self.pending.flush(self.tx, self.now)  # the restatement supersedes what is pending
            after = _restate_later(self.tx, p, after, new, self.now)
        return result, after


def begin(
    tx: ManagedTransaction, prepared: list[Prepared], *, drafts: bool = False
) -> tuple[list[Prepared], datetime]:
    """The batch in its slots (:func:`same_spelling`; a distiller's, ``drafts``, also
    :func:`kind_withdrawn`), those slots locked, and its record time: later than every stamp
    in them. An event takes it before writing its step, so the step and the facts it wrote
    have one record time (a new user's trial: the step was recorded a few milliseconds before
    its facts, and a read known at the step's record time saw the step without them)."""
    _lock_spellings(tx, prepared)
    prepared = same_spelling(tx, prepared)
    if drafts:
        prepared = word_withdrawn(tx, kind_withdrawn(tx, prepared))
    return prepared, _lock_slots(tx, prepared)


def write_in_tx(
    tx: ManagedTransaction,
    prepared: list[Prepared],
    *,
    principal: Principal,
    caused_by_event: str | None = None,
    working: Mapping[str, WorkingMemory] | None = None,
    withheld: list[tuple[Prepared, str]] | None = None,
    begun: datetime | None = None,
) -> list[WriteResult]:
    """Write a validated batch inside an open write transaction (used by events too).

    A retraction of a one-valued predicate naming a value while another value holds in its
    valid time (:func:`_cuts_another`) refuses the batch (409), or, given ``withheld`` (a
    distiller's drafts), is not written: it is added there with the reason, and the results
    leave it out.

    The caller has entered the batch's tasks first (:func:`ingest.lifecycle.tasks.enter_tasks`,
    tasks before slots, so lock order is the same for every writer); ``working`` is their
    working memory, reported with each result written into a task.

    The slots are locked and their alive versions read once for the whole batch; each write
    then updates that picture in memory. Plain writes (see :func:`_batched`) go out together,
    so a batch costs a handful of statements plus a few for each write that supersedes,
    splits or discloses. ``begun``: the record time :func:`begin` gave, the slots of this
    ``prepared`` (as it returned them) already locked."""
    if not prepared:
        return []
    if begun is None:
        prepared, now = begin(tx, prepared, drafts=withheld is not None)
    else:
        now = begun
    alive = _alive_by_slot(tx, sorted({p.key for p in prepared}), principal.groups)
    results: list[WriteResult] = []
    pending = _Pending()
    stored = dict(alive)
    step = _Step(tx, now, principal, pending, caused_by_event, withheld)
    for index, p in enumerate(prepared):
        batched = step.write(p, alive[p.key], stored[p.key], index)
        if batched is None:
            continue
        result, alive[p.key] = batched
        memory = (working or {}).get(p.item.task_id or "")
        results.append(result.model_copy(update={"working_memory": memory}) if memory else result)
    pending.flush(tx, now)
    _set_heads(tx, alive, now)
    return results


def _set_heads(tx: ManagedTransaction, alive: Mapping[str, list[Version]], now: datetime) -> None:
    heads = []
    for key, versions in alive.items():
        head = governing(versions, now)
        heads.append({"key": key, "head": head.id if head else None})
    tx.run(cypher.SET_SLOT_HEADS, heads=heads, now=now).consume()


def _right_to_left(pieces: Sequence[Piece]) -> list[Piece]:
    """Each discarded version's pieces from the last in valid time to the first (an
    open-ended version is then closed, not cut into a remnant), versions in the given order."""
    order: dict[str, list[Piece]] = {}
    for piece in pieces:
        order.setdefault(piece.held.id, []).append(piece)
    return [
        p
        for group in order.values()
        for p in sorted(group, key=lambda x: x.valid_from, reverse=True)
    ]


def restore_in_tx(tx: ManagedTransaction, pieces: Sequence[Piece], *, now: datetime) -> list[str]:
    """Write restorations (:mod:`graph_schema.lifecycle.restore`) like any write: each piece
    is planned against its slot's alive versions, so it supersedes (or closes) the discarded
    version where it held the piece, and cuts a remnant of it where it still holds time that
    nothing is restored to. The caller holds the slots' locks, and ``now`` is later than
    every stamp in them (the end of a task, a sleep's batch). Returns the new ids."""
    if not pieces:
        return []
    alive = _alive_by_slot(tx, sorted({p.held.slot_key for p in pieces}), [])
    written = []
    for piece in _right_to_left(pieces):
        key = piece.held.slot_key
        plan = plan_write(alive[key], piece.valid_from, piece.valid_to)
        plan.sources = {v.id: v for v in alive[key]}
        rid, result = _copy(
            tx,
            cypher.CREATE_RESTORATION,
            source_id=piece.source_id,
            valid_from=piece.valid_from,
            valid_to=plan.valid_to,
            now=now,
            rule=RESTORE_RULE,
            reason=RESTORE_REASON,
        )
        row = result.single(strict=True)
        remnants = _apply(tx, plan, rid, now)
        new = Version(rid, piece.valid_from, plan.valid_to, bool(row["polarity"]), row["object"])
        alive[key] = _alive_after(alive[key], plan, new, remnants)
        written.append(rid)
    _set_heads(tx, alive, now)
    return written


def _enter_and_write(
    tx: ManagedTransaction,
    prepared: list[Prepared],
    principal: Principal,
    bound: int,
    key: idempotency.Key | None,
) -> list[WriteResult]:
    idempotency.claim(tx, key)  # before tasks and slots: a racing twin waits here
    tasks = gather((p.item.task_id, p.item.access) for p in prepared)
    working = enter_tasks(tx, principal, tasks, bound=bound)
    results = write_in_tx(tx, prepared, principal=principal, working=working)
    idempotency.remember(tx, key, AssertionsWritten(results=results).model_dump_json())
    return results


def write_assertions(
    driver: Driver,
    *,
    database: str,
    prepared: list[Prepared],
    principal: Principal,
    bound: int = DEFAULT_BOUND,
    key: idempotency.Key | None = None,
) -> list[WriteResult]:
    """Write a validated batch atomically, into the writer's tasks it names; PreconditionFailed
    or TaskEnded rolls back the whole batch. ``bound`` is the working-memory bound; ``key``
    the request's idempotency key, claimed and answered in the same transaction (a twin that
    committed it first raises :class:`ingest.idempotency.TwinWon`)."""
    with driver.session(database=database) as session:
        return session.execute_write(_enter_and_write, prepared, principal, bound, key)
