"""The distiller protocol.

A distiller reads one observation and proposes drafts. Drafts are untrusted: they are plain
dicts shaped like :class:`graph_schema.ledger.types.AssertionWrite` minus what the observation
supplies (source kind, speaker, access, task, times), and every one goes through the gate,
which checks among other things that ``quote == text[start:end]``.
"""

from __future__ import annotations

from typing import Any, Protocol

from graph_schema.observations.types import ObservationIn

Draft = dict[str, Any]
"""Keys: subject, predicate, object, polarity (optional), confidence, quote, start, end,
valid_from (optional RFC 3339). Anything else is refused by the gate."""


class Distiller(Protocol):
    name: str

    def distill(self, observation: ObservationIn) -> list[Draft]:
        """Propose drafts for one observation. Must not raise on odd text."""
        ...
