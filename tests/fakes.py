"""Small, explicit stand-ins for a distiller (a language model's job) and the lifecycle clock.

The database and the embedding model are always real; only what a language model would do
is faked here, deterministically, and the clock the lifecycle rules read can be moved forward
(record times stay real).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from bench.harness import free_port, serve_app
from graph_schema.core.timeutil import utcnow
from graph_schema.observations.types import ObservationIn
from graph_schema.schema.types import Predicate
from ingest.distill.base import Draft
from ingest.distill.llm import DistillationFailed

# bench/harness.py is their one home; re-exported here for tests that import them from here
serve = serve_app
__all__ = [
    "DateBugDistiller",
    "FailingDistiller",
    "SaidDistiller",
    "ScriptedDistiller",
    "ShiftedClock",
    "SwitchDistiller",
    "free_port",
    "sentences",
    "serve",
]

_SENTENCE = re.compile(r"[^.!?。！？]+[.!?。！？]?")


def sentences(text: str) -> list[tuple[str, int, int]]:
    out = []
    for match in _SENTENCE.finditer(text):
        raw = match.group(0)
        stripped = raw.strip()
        if stripped:
            start = match.start() + raw.index(stripped)
            out.append((stripped, start, start + len(stripped)))
    return out


class SaidDistiller:
    """One faithful ``said`` draft per sentence, with exact offsets."""

    name = "fake-said"
    version = "1"

    def distill(
        self, observation: ObservationIn, *, predicates: Sequence[Predicate] | None = None
    ) -> list[Draft]:
        return [
            {
                "subject": observation.speaker,
                "predicate": "said",
                "object": sentence,
                "confidence": 0.9,
                "quote": sentence,
                "start": start,
                "end": end,
            }
            for sentence, start, end in sentences(observation.text)
        ]


class DateBugDistiller(SaidDistiller):
    """The date bug: every draft carries a human-readable valid_from."""

    name = "fake-date-bug"
    version = "1"

    def distill(
        self, observation: ObservationIn, *, predicates: Sequence[Predicate] | None = None
    ) -> list[Draft]:
        drafts = super().distill(observation)
        return [{**d, "valid_from": "March 3rd, 2024"} for d in drafts]


class ScriptedDistiller:
    """Returns whatever the test's function makes of the observation."""

    name = "fake-scripted"
    version = "1"

    def __init__(self, script: Callable[[ObservationIn], list[Any]]) -> None:
        self.script = script

    def distill(
        self, observation: ObservationIn, *, predicates: Sequence[Predicate] | None = None
    ) -> list[Draft]:
        return self.script(observation)


class FailingDistiller:
    """What the LLM distiller does when the model's reply is unusable."""

    name = "fake-failing"
    version = "1"

    def distill(
        self, observation: ObservationIn, *, predicates: Sequence[Predicate] | None = None
    ) -> list[Draft]:
        raise DistillationFailed(
            "llm_invalid_json", "the model's answer is not JSON", raw="Sure! Here are"
        )


class SwitchDistiller:
    """A distiller whose behaviour a test can swap: ``with switch.use(DateBugDistiller())``."""

    def __init__(self, inner: Any) -> None:
        self.default = inner
        self.inner = inner
        self.calls = 0
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return str(self.inner.name)

    @property
    def version(self) -> str:
        return str(self.inner.version)

    def distill(
        self, observation: ObservationIn, *, predicates: Sequence[Predicate] | None = None
    ) -> list[Draft]:
        with self._lock:
            self.calls += 1
        result: list[Draft] = self.inner.distill(observation, predicates=predicates)
        return result

    @contextmanager
    def use(self, inner: Any) -> Iterator[None]:
        self.inner = inner
        try:
            yield
        finally:
            self.inner = self.default


class ShiftedClock:
    """The real time moved forward by an offset a test sets: ``clock.shift(days=200)``
    fast-forwards every lifecycle rule (dormancy, expiry, the access log's read times)."""

    def __init__(self) -> None:
        self.offset = timedelta(0)

    def now(self) -> datetime:
        return utcnow() + self.offset

    def shift(self, **delta: float) -> None:
        self.offset += timedelta(**delta)

    def reset(self) -> None:
        self.offset = timedelta(0)
