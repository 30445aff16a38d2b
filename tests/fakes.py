"""Small, explicit stand-ins for a distiller (a language model's job) and a test server.

The database and the embedding model are always real; only what a language model would do
is faked here, deterministically.
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import uvicorn
from fastapi import FastAPI

from graph_schema.observations.types import ObservationIn
from graph_schema.schema.types import Predicate
from ingest.distill.base import Draft
from ingest.distill.llm import DistillationFailed

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve(app: FastAPI) -> Iterator[str]:
    """Run ``app`` with uvicorn in a thread on a free loopback port; yield its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test API server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
