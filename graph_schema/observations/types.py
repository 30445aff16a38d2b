"""Types of observations: raw text as an agent saw it, before any distillation."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StrictStr

from graph_schema.core.types import (
    MAX_TEXT_CHARS,
    AccessList,
    Name,
    SourceKind,
    Strict,
    Timestamp,
)


class ObservationIn(Strict):
    """Raw text as an agent saw it: a chat turn, a note, a tool result, a document paragraph."""

    text: Annotated[StrictStr, Field(min_length=1, max_length=MAX_TEXT_CHARS)]
    speaker: Name
    occurred_at: Timestamp
    source_kind: SourceKind
    access: AccessList = Field(default_factory=list)
    idempotency_key: Annotated[StrictStr, Field(min_length=1, max_length=256)] | None = None
    conversation_id: Name | None = None
    task_id: Name | None = None
    kind: Annotated[StrictStr, Field(max_length=64)] = "chat_turn"
