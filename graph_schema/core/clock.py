"""The one clock every lifecycle rule reads (ephemeral expiry, dormancy, the access log).

Record times (``recorded_at``, a transition's ``at``) are always the real time of the write;
only the *rules* ask this clock what time it is, so a test can fast-forward months without
forging the record. The server takes a clock in ``create_app(settings, clock=...)`` and the
command line uses :class:`SystemClock`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from graph_schema.core.timeutil import utcnow


class Clock(Protocol):
    def now(self) -> datetime:
        """The present, as a UTC datetime."""
        ...


class SystemClock:
    """The real time."""

    def now(self) -> datetime:
        return utcnow()
