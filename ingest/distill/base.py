"""The distiller protocol.

A distiller reads one observation and proposes drafts. Drafts are untrusted: they are plain
dicts shaped like :class:`graph_schema.ledger.types.AssertionWrite` minus what the observation
supplies (source kind, speaker, access, task, times), and every one goes through the gate,
which checks among other things that ``quote == text[start:end]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from graph_schema.observations.types import ObservationIn
from graph_schema.schema.types import Predicate

Draft = dict[str, Any]
"""Keys: subject, predicate, object, polarity (optional), confidence, quote, start, end,
valid_from (optional RFC 3339). Anything else is refused by the gate."""


class Distiller(Protocol):
    name: str

    @property
    def version(self) -> str:
        """What distils: ``offline`` at its extractor version, the LLM distiller at its
        model. Stored on each observation as ``distilled_with`` (``name:version``);
        ``tractatus redistill`` re-runs the observations distilled with anything else."""
        ...

    def distill(
        self, observation: ObservationIn, *, predicates: Sequence[Predicate] | None = None
    ) -> list[Draft]:
        """Propose drafts for one observation. ``predicates`` is the live ontology (the LLM
        distiller lists it to its model). Must not raise on odd text."""
        ...


@runtime_checkable
class BatchDistiller(Protocol):
    """A distiller that reads many observations in one pass (cheaper than one by one)."""

    def distill_many(self, observations: Sequence[ObservationIn]) -> list[list[Draft]]:
        """The drafts of each observation, in order."""
        ...


def distilled_with(distiller: Distiller) -> str:
    return f"{distiller.name}:{distiller.version}"
