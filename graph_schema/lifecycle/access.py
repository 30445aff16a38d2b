"""What a read tells the access log: the ids of the assertions it returned.

Reads stay read-only transactions: they hand the ids to an :class:`AccessRecorder` once the
answer is built, and the recorder (``ingest/lifecycle/access_log.py``) counts them off the
request path. Only exact views count (a disclosure shows a coarser view, not the fact).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol


class AccessRecorder(Protocol):
    def record(self, assertion_ids: Iterable[str]) -> None:
        """Count one read of each assertion (never blocks, never fails the read)."""
        ...


class Shown(Protocol):
    """An assertion as a read answers it (``ledger.types.AssertionOut``)."""

    @property
    def id(self) -> str: ...

    @property
    def view(self) -> str: ...


def returned(assertions: Iterable[Shown]) -> list[str]:
    """The ids a read returned that name assertions (exact views; each once)."""
    return sorted({a.id for a in assertions if a.view == "exact"})


def record(recorder: AccessRecorder | None, assertion_ids: Iterable[str]) -> None:
    if recorder is not None:
        recorder.record(assertion_ids)
