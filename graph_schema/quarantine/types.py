"""Types of the quarantine: what the gate refused, as an admin reads it."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel


class QuarantineItem(BaseModel):
    """One refused item: why, from which write path, by whom, and the payload as sent
    (JSON text, cut at 65,536 characters)."""

    id: str
    received_at: datetime
    reason: str
    message: str
    payload: str
    origin: str
    submitted_by: str
    item_index: int
    observation_id: str | None = None


class QuarantineAnswer(BaseModel):
    """Refused items, newest first."""

    items: list[QuarantineItem]
