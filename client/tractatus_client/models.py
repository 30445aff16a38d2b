"""Typed answers of the Tractatus API.

Each model mirrors one response shape of the server. ``tests/unit/test_client_contract.py``
compares them with the OpenAPI document the running server serves (field names, JSON types,
formats and enums, recursively), and the client's integration tests check that no live answer
carries a field these models do not know. Unknown fields are kept (``extra="allow"``), so a
newer server does not break an older client; they are in ``model_extra``. They serialise with
the API's field names (``serialize_by_alias``): ``model_dump()`` and ``model_dump_json()`` give
``from``, as the server sent it, not the Python attribute ``from_``.

Every read answer says ``status`` (``answered``, ``not_found``, ``out_of_scope``) and the time
coordinates it was answered at: ``as_of`` (valid time) and ``known_at`` (record time).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr


class Model(BaseModel):
    """Base of every answer: unknown fields are kept, not refused; instances are frozen; dumped
    with the API's field names (``from``, not ``from_``: one shape for the same data)."""

    model_config = ConfigDict(
        extra="allow", frozen=True, populate_by_name=True, serialize_by_alias=True
    )


class Replayable(Model):
    """A write's result that the server may answer again from its idempotency record."""

    _replayed: bool = PrivateAttr(default=False)

    @property
    def replayed(self) -> bool:
        """True when this answer is a replay (the server's ``Idempotent-Replayed: true``): the
        key was seen before, this call wrote nothing and the first answer came back. Not a
        field of the API's body, so not in ``model_dump()``."""
        return self._replayed


class Status(StrEnum):
    answered = "answered"
    not_found = "not_found"
    out_of_scope = "out_of_scope"


class SourceKind(StrEnum):
    user_stated = "user_stated"
    agent_inferred = "agent_inferred"
    tool_returned = "tool_returned"
    document = "document"


class Tier(StrEnum):
    short = "short"
    long = "long"
    discarded = "discarded"
    dormant = "dormant"


class Direction(StrEnum):
    causes = "causes"
    effects = "effects"


class Outcome(StrEnum):
    """How an event (one step of a task) ended."""

    success = "success"
    failure = "failure"
    partial = "partial"
    pending = "pending"
    cancelled = "cancelled"
    unknown = "unknown"


# --- the ledger -------------------------------------------------------------------------------


class Evidence(Model):
    id: str
    quote: str
    start: int | None = None
    end: int | None = None
    observation_id: str | None = None
    speaker: str | None = None
    occurred_at: datetime | None = None


class Assertion(Model):
    """One version of a fact."""

    id: str
    subject: str
    predicate: str
    object: str | None
    polarity: bool
    valid_from: datetime
    valid_to: datetime | None
    recorded_at: datetime
    superseded_at: datetime | None
    source_kind: SourceKind
    asserted_by: str
    confidence: float
    tier: Tier
    task_id: str | None = None
    access: list[str] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)
    supersedes: list[str] = Field(default_factory=list)
    superseded_by: list[str] = Field(default_factory=list)
    remnant_of: str | None = None
    # a restoration: the version whose content and place it restores, and why
    restored_from: str | None = None
    restore_rule: str | None = None
    restore_reason: str | None = None
    view: Literal["exact", "disclosure"] = "exact"
    trend: str | None = None


class WorkingMemory(Model):
    """A task's working memory after a write: assertions written into it, and its bound
    (past it writes still succeed; consolidation keeps at most ``bound``)."""

    task_id: str
    count: int
    bound: int
    over_bound: bool


class Transition(Model):
    """One recorded change of an assertion's tier or pin, as history shows it."""

    at: datetime
    change: Literal["tier", "pin"]
    from_: str = Field(alias="from")
    to: str
    rule: str
    reason: str
    run_id: str | None = None


class HistoryVersion(Assertion):
    """A version as history shows it, with its tier and pin transitions."""

    transitions: list[Transition] = Field(default_factory=list)


class WriteResult(Replayable):
    """What a write did: the new version, the version it superseded, the versions it closed;
    ``replayed``: whether the answer is a replay (:class:`Replayable`)."""

    assertion: Assertion
    superseded: str | None = None
    closed: list[str] = Field(default_factory=list)
    working_memory: WorkingMemory | None = None  # the task it went into; None outside any task


class WriteResults(Model):
    results: list[WriteResult]


class Facts(Model):
    status: Status
    subject: str
    predicate: str
    facts: list[Assertion]
    # True when a one-valued predicate answers more than one value: from access scopes the
    # caller reads together (one scope holds one current value); False from older servers.
    scopes_disagree: bool = False
    as_of: datetime
    known_at: datetime


class History(Model):
    status: Status
    subject: str
    predicate: str
    versions: list[HistoryVersion]
    known_at: datetime


# --- entities ---------------------------------------------------------------------------------


class EntitySummary(Model):
    """An entity as the caller's visible assertions name it (docs/entities.md)."""

    id: str
    kind: str
    name: str
    names: list[str]
    aliases: list[str]


class Entities(Model):
    status: Status
    q: str
    entities: list[EntitySummary]
    as_of: datetime
    known_at: datetime


class Entity(EntitySummary):
    merged: list[str]  # the entities merged into this page by visible, current same_as
    merged_truncated: bool = False  # the same_as chain goes on beyond the hops followed


class EntityPage(Model):
    status: Status
    entity: Entity
    about: list[Assertion]
    pointing_at: list[Assertion]
    as_of: datetime
    known_at: datetime


# --- procedures -------------------------------------------------------------------------------


class Procedure(Model):
    """A recurring sequence of actions mined by a sleep, with how often it was done and how
    often it ended in success (docs/procedures.md)."""

    id: str
    key: str
    trigger: str
    steps: list[str]
    support: int
    successes: int
    success_rate: float
    first_seen: datetime
    last_seen: datetime
    recorded_at: datetime
    superseded_at: datetime | None
    supersedes: str | None
    source_kind: str
    # as on assertions: a reader needs one group of `access` ([]: public) and one group of
    # each `access_all` entry ("g1|g2"); [] from a server before it had the field
    access: list[str]
    access_all: list[str] = Field(default_factory=list)
    evidence: list[str]  # the first step of each supporting task (at most 100)


class Procedures(Model):
    status: Status
    procedures: list[Procedure]
    known_at: datetime


class ProcedurePage(Model):
    status: Status
    procedure: Procedure
    known_at: datetime


# --- ordered memory ---------------------------------------------------------------------------


class ProducedAssertion(Model):
    id: str
    subject: str
    predicate: str
    object: str | None
    polarity: bool
    source_kind: str
    quote: str | None = None


class Event(Model):
    """One step of a task: who did what, before and after, how it ended, what caused it
    (``task_id`` None for a reader who may not see the task)."""

    id: str
    task_id: str | None
    actor: str
    action: str
    outcome: str
    occurred_at: datetime
    recorded_at: datetime
    before: dict[str, Any]
    after: dict[str, Any]
    access: list[str] = Field(default_factory=list)
    written_by: str | None = None
    caused_by: list[str] = Field(default_factory=list)
    assertions: list[ProducedAssertion] = Field(default_factory=list)
    depth: int | None = None


class ChainEdge(Model):
    """``from_`` (JSON ``from``, also in ``model_dump()``) was caused by ``to``."""

    from_: str = Field(alias="from")
    to: str


class Chain(Model):
    events: list[Event]
    edges: list[ChainEdge]
    truncated: bool = False


class ChainAnswer(Model):
    status: Status
    direction: Direction
    max_depth: int
    events: list[Event]
    edges: list[ChainEdge]
    truncated: bool = False


class EventWritten(Replayable):
    """The recorded event and the assertions it wrote; ``replayed`` (:class:`Replayable`):
    whether the answer is a replay, for its assertions too."""

    event: Event
    assertions: list[WriteResult]
    working_memory: WorkingMemory  # the event's task (the writer's own) after this write


class Task(Model):
    id: str
    goal: str | None = None
    started_at: datetime | None = None


class Timeline(Model):
    status: Status
    task_id: str
    task: Task | None = None
    events: list[Event]
    truncated: bool = False


class Explanation(Model):
    fact: Assertion
    event: Event | None = None
    chain: Chain | None = None  # no step the caller may read wrote the fact


class WhyAnswer(Model):
    status: Status
    subject: str
    predicate: str
    explanations: list[Explanation]
    as_of: datetime
    known_at: datetime


# --- recall -----------------------------------------------------------------------------------


class RecallWhy(Model):
    """How a result was found: which candidate lists held it and at what rank."""

    sources: list[str]
    ranks: dict[str, int] = Field(default_factory=dict)
    similarity: float | None = None
    coverage: float = 0.0
    # the person or time the query names, a graph neighbour, a question about the present or
    # about how things stood before a change, a kind asked for, a current fact asked for, a
    # code or version asked about, a CJK question's first groups put in the CJK model's order,
    # a deed done put above the promise of it
    boosts: list[
        Literal[
            "speaker",
            "time",
            "graph",
            "present",
            "past",
            "mentioned",
            "kind",
            "fact",
            "code",
            "cjk",
            "done",
        ]
    ] = Field(default_factory=list)


class RecallTurn(Model):
    """The conversation turn a recall result was distilled from: its text (or, past 2,000
    characters, the window ``[start, end)`` around the result's evidence), None when the
    store keeps no raw text."""

    observation_id: str
    speaker: str | None = None
    occurred_at: datetime
    text: str | None
    start: int
    end: int
    chars: int


class RecallResult(Model):
    assertion: Assertion
    score: float
    evidence: list[Evidence]
    why: RecallWhy
    turn: RecallTurn | None = None
    chain: Chain | None = None  # the event that wrote it and its causes, newest first


class NamedPerson(Model):
    """The one speaker or subject a recall query names; ``others_relevance`` is the best of
    what the other people state of their own (the answer's ``relevance`` is then the
    person's), None when the one named states nothing of their own (a tool, an agent)."""

    name: str
    others_relevance: float | None


class RecallAnswer(Model):
    status: Status
    results: list[RecallResult]
    relevance: float
    person: NamedPerson | None = None
    # names and identifiers of the query that nothing visible mentions (then not_found)
    unmentioned: list[str] = Field(default_factory=list)
    # names the query holds that the one speaker it asks about never says (then not_found)
    unsaid: list[str] = Field(default_factory=list)
    # kinds of thing the query asks for that no result read names (then not_found)
    missing_kinds: list[str] = Field(default_factory=list)
    as_of: datetime
    known_at: datetime


class IndexReport(Model):
    """What ``POST /v1/recall/index`` built: passages indexed, observations still pending."""

    indexed: int
    pending: int


# --- observations -----------------------------------------------------------------------------


class DraftRejection(Model):
    """A distilled draft the gate refused (quarantined) while its observation was kept."""

    index: int
    reason: str
    message: str
    quarantine_id: str


class ObservationResult(Model):
    observation_id: str
    assertions: list[WriteResult]
    quarantined: list[DraftRejection]
    replayed: bool = False
    working_memory: WorkingMemory | None = None


class ErrorBody(Model):
    code: str
    message: str
    details: dict[str, Any] = Field(default_factory=dict)
    request_id: str = ""  # the request's X-Request-ID ("" from a server before 0.2)


class ObservationAccepted(ObservationResult):
    """One result of a batch of observations that was written (or replayed): ``status`` 201."""

    status: Literal[201]

    @property
    def ok(self) -> bool:
        return True


class ObservationRefused(Model):
    """One result of a batch of observations that was refused, with the status and error it
    would have had on its own."""

    status: int
    error: ErrorBody

    @property
    def ok(self) -> bool:
        return False


ObservationItem = ObservationAccepted | ObservationRefused
"""One result of a batch: check ``ok`` (or ``isinstance``) before reading its fields."""


class ObservationItems(Model):
    results: list[ObservationAccepted | ObservationRefused]


class StoredObservation(Model):
    """A stored observation; ``text`` is None when the server does not retain raw text."""

    id: str
    kind: str
    speaker: str
    occurred_at: datetime
    received_at: datetime
    source_kind: SourceKind
    conversation_id: str | None = None
    task_id: str | None = None
    access: list[str] = Field(default_factory=list)
    text: str | None = None
    sha256: str
    distiller: str | None = None


class ObservationContext(Model):
    """One stored observation and its visible neighbouring turns, in time order."""

    observation: StoredObservation
    before: list[StoredObservation]
    after: list[StoredObservation]


# --- the lifecycle: tasks, pins, sleep --------------------------------------------------------


class TierCounts(Model):
    """A task's assertions by tier as known now (only those the caller may read)."""

    short: int = 0
    long: int = 0
    discarded: int = 0
    dormant: int = 0


class TaskCard(Model):
    """A task: (owner, id), its status, times, working memory and counts per tier."""

    id: str
    owner: str
    status: Literal["open", "ended"]
    access: list[str] = Field(default_factory=list)
    goal: str | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None
    consolidated: bool = False
    counts: TierCounts
    working_memory: WorkingMemory


class Rule(StrEnum):
    """Why a tier changed (recorded on every transition)."""

    verified = "verified"
    corroborated = "corroborated"
    said_supported = "said_supported"
    ephemeral = "ephemeral"
    unverified = "unverified"
    said_unsupported = "said_unsupported"
    over_bound = "over_bound"
    ephemeral_expired = "ephemeral_expired"
    dormant = "dormant"
    woken = "woken"


class ConsolidationReport(Model):
    """What ending a task did to its working memory (ids the caller may read)."""

    task_id: str
    owner: str
    ended_at: datetime
    promoted: list[str]
    discarded: list[str]
    reasons: dict[str, Rule]
    # restorations written where a discarded version had displaced a kept one
    restored: list[str] = Field(default_factory=list)


class PinAnswer(Model):
    assertion_id: str
    pinned: bool
    changed: bool
    at: datetime | None = None


class SleepCounts(Model):
    tasks: int = 0
    promoted: int = 0
    discarded: int = 0
    dormant: int = 0
    woken: int = 0
    restored: int = 0
    procedures: int = 0  # procedure versions written (docs/procedures.md)


class MinedVersion(Model):
    """A procedure version a sleep wrote, or that a dry run would write (``id`` None)."""

    id: str | None
    key: str
    trigger: str
    steps: list[str]
    support: int
    successes: int
    success_rate: float
    first_seen: datetime
    last_seen: datetime
    access: list[str]
    access_all: list[str] = Field(default_factory=list)  # as Procedure's
    supersedes: str | None


class SleepReport(Model):
    """Counts over the whole store; id lists bounded and limited to what the caller may read."""

    run_id: str | None
    now: datetime
    dry_run: bool
    counts: SleepCounts
    promoted: list[str]
    discarded: list[str]
    dormant: list[str]
    woken: list[str]
    restored: list[str] = Field(default_factory=list)
    procedures: list[str] = Field(default_factory=list)
    # what the procedure versions of ``procedures`` are (a dry run: those it would write)
    procedure_versions: list[MinedVersion] = Field(default_factory=list)
    truncated: bool
    max_ids: int = 100


# --- ontology, quarantine, health -------------------------------------------------------------


class DisclosurePolicy(Model):
    audience: list[str]
    band_width: float | None = None
    trend: bool = False


class Predicate(Model):
    name: str
    cardinality: Literal["one", "many"]
    value_type: Literal["string", "number", "boolean", "datetime"] = "string"
    ephemeral: bool = False
    description: str = ""
    disclosure: DisclosurePolicy | None = None
    version: int = 1  # the definition's version (a re-registration names the same one)
    object_entity: bool = False  # the object names a thing: an entity (docs/entities.md)


class Ontology(Model):
    predicates: list[Predicate]


class Registered(Model):
    predicate: Predicate
    created: bool


class QuarantineItem(Model):
    """One refused item: why, from which write path, by whom, and the payload as sent (JSON
    text, cut at 65,536 characters)."""

    id: str
    received_at: datetime
    reason: str
    message: str
    payload: str
    origin: str
    submitted_by: str
    item_index: int
    observation_id: str | None = None


class Quarantine(Model):
    items: list[QuarantineItem]


class Health(Model):
    status: Literal["ok"]
    neo4j: Literal["up", "down"]
    schema_version: int | None
    schema_latest: int
    store_error: Literal["unreachable", "timeout", "error"] | None = None


def mark_replayed(answer: Any, replayed: bool) -> None:
    """Set ``replayed`` on every write result in a write's answer: the whole answer's (the
    ``Idempotent-Replayed`` header of an assertion, a batch of them, an event, an observation),
    else an observation's own (its body's ``replayed``, per item of a batch), down to the
    write results nested in it. Without recursion: a stack of (value, flag)."""
    stack: list[tuple[Any, bool]] = [(answer, replayed)]
    while stack:
        value, flag = stack.pop()
        if isinstance(value, list):
            stack.extend((item, flag) for item in value)
            continue
        if not isinstance(value, BaseModel):
            continue
        if isinstance(value, ObservationResult):
            flag = flag or value.replayed
        if isinstance(value, Replayable):
            value._replayed = flag
        stack.extend((getattr(value, name), flag) for name in type(value).model_fields)


def unknown_fields(model: BaseModel, where: str = "") -> list[str]:
    """Paths of every field the server sent that these models do not declare (recursively)."""
    found = [f"{where}.{name}".lstrip(".") for name in (model.model_extra or {})]
    for name in type(model).model_fields:
        value = getattr(model, name)
        items = value if isinstance(value, list) else [value]
        for index, item in enumerate(items):
            if isinstance(item, BaseModel):
                suffix = f"[{index}]" if isinstance(value, list) else ""
                found += unknown_fields(item, f"{where}.{name}{suffix}")
    return found
