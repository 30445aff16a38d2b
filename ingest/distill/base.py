"""The distiller protocol.

A distiller reads one observation and proposes drafts. Drafts are untrusted: they are plain
dicts shaped like :class:`graph_schema.domain.AssertionWrite` minus what the observation
supplies (source kind, speaker, access, task, times), and every one goes through the gate,
which checks among other things that ``quote == text[start:end]``.
"""

from __future__ import annotations

from typing import Annotated, Any, Protocol

from pydantic import Field, StrictStr

from graph_schema.domain import (
    MAX_TEXT_CHARS,
    AccessList,
    Name,
    SourceKind,
    Timestamp,
    _Strict,
)

Draft = dict[str, Any]
"""Keys: subject, predicate, object, polarity (optional), confidence, quote, start, end,
valid_from (optional RFC 3339). Anything else is refused by the gate."""


class ObservationIn(_Strict):
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


class Distiller(Protocol):
    name: str

    def distill(self, observation: ObservationIn) -> list[Draft]:
        """Propose drafts for one observation. Must not raise on odd text."""
        ...
