"""Domain types of recall: the strict request and the ranked answer.

The request is validated like a write (unknown fields, naive or human-readable timestamps
and wrong JSON types are refused), but a refused read is simply answered 422: there is
nothing to quarantine.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field, StrictBool, StrictFloat, StrictInt, StrictStr

from graph_schema.core.types import Name, SourceKind, Status, Strict, Tier, Timestamp, check_text
from graph_schema.ledger.types import AssertionOut, EvidenceOut

MAX_QUERY_CHARS = 2_000
MAX_K = 100


class RecallFilters(Strict):
    """Restrictions applied inside the database queries, before anything is ranked."""

    min_confidence: Annotated[StrictFloat | StrictInt, Field(ge=0, le=1)] = 0.0
    source_kinds: Annotated[list[SourceKind], Field(min_length=1, max_length=4)] | None = None
    tiers: Annotated[list[Tier], Field(min_length=1, max_length=4)] | None = None
    subject: Name | None = None
    conversation_id: Name | None = None
    task_id: Name | None = None
    include_superseded: StrictBool = False


class RecallRequest(Strict):
    query: Annotated[
        StrictStr, Field(min_length=1, max_length=MAX_QUERY_CHARS), AfterValidator(check_text)
    ]
    k: Annotated[StrictInt, Field(ge=1, le=MAX_K)] = 10
    as_of: Timestamp | None = None
    known_at: Timestamp | None = None
    filters: RecallFilters = Field(default_factory=RecallFilters)


class Why(BaseModel):
    """How a result was found: which candidate lists held it and at what rank."""

    sources: list[str]
    ranks: dict[str, int] = Field(default_factory=dict)
    similarity: float | None = None
    coverage: float = 0.0
    boosts: list[str] = Field(default_factory=list)


class RecallResult(BaseModel):
    assertion: AssertionOut
    score: float
    evidence: list[EvidenceOut]
    why: Why


class RecallAnswer(BaseModel):
    status: Status
    results: list[RecallResult]
    relevance: float
    as_of: datetime
    known_at: datetime
