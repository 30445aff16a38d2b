"""Types of observations: raw text as an agent saw it, before any distillation, and what the
write and read paths answer."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, Field, StrictStr

from graph_schema.core.types import (
    MAX_TEXT_CHARS,
    AccessList,
    ErrorObject,
    Name,
    RefusedItem,
    SourceKind,
    Strict,
    Timestamp,
    check_text,
    text_schema,
)
from graph_schema.ledger.types import WriteResult
from graph_schema.lifecycle.types import WorkingMemory

# the default of TRACTATUS_MAX_OBSERVATION_BATCH; the served OpenAPI document states the
# configured one
MAX_OBSERVATION_BATCH = 256
MAX_KIND_CHARS = 64


class ObservationIn(Strict):
    """Raw text as an agent saw it: a chat turn, a note, a tool result, a document paragraph."""

    text: Annotated[
        StrictStr,
        Field(min_length=1, max_length=MAX_TEXT_CHARS),
        AfterValidator(check_text),
        text_schema(max_length=MAX_TEXT_CHARS),
    ]
    speaker: Name
    occurred_at: Annotated[
        Timestamp,
        Field(
            description="when it happened; at most TRACTATUS_MAX_FUTURE (5 minutes) ahead of"
            " the server's clock, else 422 `future_timestamp`"
        ),
    ]
    source_kind: SourceKind
    access: AccessList = Field(default_factory=list)
    idempotency_key: Annotated[StrictStr, Field(min_length=1, max_length=256)] | None = None
    conversation_id: Name | None = None
    task_id: Name | None = None
    kind: Annotated[
        StrictStr,
        Field(min_length=1, max_length=MAX_KIND_CHARS),
        AfterValidator(check_text),
        text_schema(max_length=MAX_KIND_CHARS),
    ] = "chat_turn"


class ObservationBatch(Strict):
    """Several observations in one request; each is answered on its own."""

    observations: Annotated[
        list[ObservationIn], Field(min_length=1, max_length=MAX_OBSERVATION_BATCH)
    ]


class QuarantinedDraft(RefusedItem):
    """A draft assertion of the distiller that the gate refused, and where it was kept."""

    quarantine_id: str


class ObservationWritten(BaseModel):
    """The observation's id, the assertions distilled from it and the drafts refused.

    ``replayed`` is true when an idempotency key repeated an earlier request: the answer is
    that request's, and nothing was written.
    """

    observation_id: str
    assertions: list[WriteResult]
    quarantined: list[QuarantinedDraft]
    replayed: bool = False
    working_memory: WorkingMemory | None = None


class ObservationAccepted(ObservationWritten):
    """One item of a batch answer that was written (or replayed)."""

    status: Literal[201]


class ObservationRefused(BaseModel):
    """One item of a batch answer that was refused, with the status and error it would have
    had on its own."""

    status: Annotated[int, Field(ge=400, le=599)]
    error: ErrorObject


class ObservationsWritten(BaseModel):
    """The answer to a batch: one result per observation, in the order sent."""

    results: list[ObservationAccepted | ObservationRefused]


class ObservationOut(BaseModel):
    """A stored observation; ``text`` is null when raw text is not retained."""

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


class ObservationInContext(BaseModel):
    """One observation with up to ``context`` visible turns either side, in time order."""

    observation: ObservationOut
    before: list[ObservationOut]
    after: list[ObservationOut]
