"""Types of the quarantine: what the gate refused, as an admin reads it, and how long it is
kept."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field


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


class Retention(BaseModel):
    """How much of what the gate refused the quarantine keeps: nothing older than ``max_age``,
    and at most ``max_items`` (the newest), so that refusals, by fuzzing or abuse, cannot grow
    the store without bound. Set by ``TRACTATUS_QUARANTINE_RETENTION_DAYS`` and
    ``TRACTATUS_QUARANTINE_MAX_ITEMS``."""

    model_config = ConfigDict(frozen=True)

    max_items: Annotated[int, Field(ge=1)]
    max_age: timedelta
