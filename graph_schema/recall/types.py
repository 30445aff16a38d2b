"""Domain types of recall: the strict request and the ranked answer.

The request is validated like a write (unknown fields, naive or human-readable timestamps
and wrong JSON types are refused), but a refused read is simply answered 422: there is
nothing to quarantine.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
)

from graph_schema.core.types import (
    INTEGRAL,
    Name,
    SourceKind,
    Status,
    Strict,
    Tier,
    Timestamp,
    check_text,
    text_schema,
)
from graph_schema.events.types import Chain
from graph_schema.ledger.types import AssertionOut, Confidence, EvidenceOut

MAX_QUERY_CHARS = 2_000
MAX_K = 100
DEFAULT_INDEX_BATCH = 256
MAX_INDEX_BATCH = 1_000
MAX_INDEX_BATCHES = 100


class RecallFilters(Strict):
    """Restrictions applied inside the database queries, before anything is ranked."""

    min_confidence: Confidence = 0.0
    source_kinds: Annotated[list[SourceKind], Field(min_length=1, max_length=4)] | None = None
    tiers: Annotated[list[Tier], Field(min_length=1, max_length=4)] | None = None
    subject: Name | None = None
    conversation_id: Name | None = None
    task_id: Name | None = None
    include_superseded: StrictBool = False


class RecallRequest(Strict):
    query: Annotated[
        StrictStr,
        Field(min_length=1, max_length=MAX_QUERY_CHARS),
        AfterValidator(check_text),
        text_schema(max_length=MAX_QUERY_CHARS),
    ]
    k: Annotated[StrictInt, Field(ge=1, le=MAX_K), INTEGRAL] = 10
    as_of: Timestamp | None = None
    known_at: Timestamp | None = None
    filters: RecallFilters = Field(default_factory=RecallFilters)


Boost = Literal[
    "speaker", "time", "graph", "present", "past", "mentioned", "kind", "fact", "code", "cjk",
    "done",
]  # fmt: skip


class Why(BaseModel):
    """How a result was found: which candidate lists held it and at what rank."""

    sources: list[str]
    ranks: dict[str, int] = Field(default_factory=dict)
    similarity: float | None = None
    coverage: float = 0.0
    boosts: list[Boost] = Field(
        default_factory=list,
        description=(
            "What lifted it: the person or the time the query names, a graph neighbour of a "
            "result, a question about the present that put the newest of the near ties (or of "
            "the close answers about the same thing) first, "
            "the person the query mentions who never speaks (a relative, a friend) it is about, "
            "a question asking for a kind of thing that put the near ties naming one first, "
            "a question asking for a current fact (an owner, a version, a status) that put "
            "the groups holding it first, "
            "a question naming a code or a version (INC-4452, v2.1) that put the groups "
            "naming it first, "
            "a CJK question whose first groups the CJK model put in its own order (their "
            "similarity is then that model's cosine), "
            "a question whether something was done that put the later result telling of the "
            "deed above the best result, which only promised it."
        ),
    )


class TurnOut(BaseModel):
    """The conversation turn (observation) a result was distilled from, read as
    ``GET /v1/observations/{id}`` reads it: the assertion that represents the turn is one
    sentence of it, and the turn's other sentences may hold what was asked ("I started
    learning Japanese two weeks ago. Duolingo every morning.")."""

    observation_id: str
    speaker: str | None = None
    occurred_at: datetime
    text: str | None = Field(
        description=(
            "The turn's text, or for a turn longer than 2,000 characters the 2,000 around "
            "the result's evidence ([start, end) of it); null when the store keeps no raw "
            "text (TRACTATUS_RETAIN_RAW_TEXT=false)."
        ),
    )
    start: Annotated[int, Field(ge=0)]
    end: Annotated[int, Field(ge=0)]
    chars: Annotated[int, Field(ge=0, description="the length of the whole turn")]


class RecallResult(BaseModel):
    assertion: AssertionOut
    score: float
    evidence: list[EvidenceOut]
    why: Why
    turn: TurnOut | None = Field(
        default=None,
        description=(
            "The whole conversation turn (observation) the result was distilled from; null "
            "for an assertion from no observation (a structured write, an event's)."
        ),
    )
    chain: Chain | None = Field(
        default=None,
        description=(
            "The event that wrote the result's assertion and its causes, newest first, as "
            "GET /v1/events/{id}/chain replays them, cut at 10 hops (truncated: the chain "
            "goes on); null when no event the caller may read wrote it."
        ),
    )


class NamedPerson(BaseModel):
    """The one speaker or subject the query names, when it names exactly one among the
    results (docs/recall.md, "Threshold"). ``relevance`` of the answer is then that person's
    own; ``others_relevance`` the best of what the other people among the ten best-ranked
    results state of their own, read the same way, whatever k; null when the one named has no
    statement of their own among them (a tool's output, an agent's notes): the contrast is
    between people."""

    name: str
    others_relevance: Annotated[float, Field(ge=0.0, le=1.0)] | None


class RecallAnswer(BaseModel):
    status: Status
    results: list[RecallResult]
    relevance: Annotated[float, Field(ge=0.0, le=1.0)] = Field(
        description=(
            "The best relevance among the ten best-ranked turns (returned or not) that "
            "can answer (the person's own when `person` is set); the status reads the same "
            "ranked turns whatever k (docs/recall.md)."
        )
    )
    person: NamedPerson | None = None
    unmentioned: list[str] = Field(
        default_factory=list,
        description=(
            "Names and identifiers of the query (a capitalised word, an acronym, 'INC-405', "
            "'v2.3', 'build 2300'), and the words of the thing an agent's work question asks "
            "about ('Who owns the mobile app?'), that nothing the caller may see mentions, "
            "within the filters; when any, the status is not_found (docs/recall.md)."
        ),
    )
    unsaid: list[str] = Field(
        default_factory=list,
        description=(
            "For a query about one speaker ('When did Dev go to Lisbon?'), the names and "
            "identifiers it holds that none of that speaker's own turns says while another "
            "person's statement does; when any, the status is not_found (docs/recall.md)."
        ),
    )
    missing_kinds: list[str] = Field(
        default_factory=list,
        description=(
            "Kinds of thing the query asks for ('What instrument…', 'favourite colour') that "
            "none of the results read for the answer names, as WordNet kinds "
            "('musical_instrument', 'color'), or 'amount' for a sum of money asked for "
            "('How much did the camera cost?') that none of them states, 'phone_number' / "
            "'email_address' for a contact detail asked for that none of them holds, or "
            "'clock_time' / 'time_zone' for a time of day ('What time is the standup?') or a "
            "time zone asked for that none of them states, or 'reference_number' for a "
            "booking, invoice, claim or other reference asked for that none of them gives "
            "under its name; when any, the status is "
            "not_found (docs/recall.md)."
        ),
    )
    as_of: datetime
    known_at: datetime


class IndexRequest(Strict):
    """Build the search passages of observations that have none, oldest first."""

    conversation_id: Name | None = None
    max_batches: Annotated[StrictInt, Field(ge=1, le=MAX_INDEX_BATCHES), INTEGRAL] = 1
    batch_size: Annotated[StrictInt, Field(ge=1, le=MAX_INDEX_BATCH), INTEGRAL] = (
        DEFAULT_INDEX_BATCH
    )


class IndexAnswer(BaseModel):
    """Observations indexed by this call, and those still without passages."""

    indexed: int
    pending: int
