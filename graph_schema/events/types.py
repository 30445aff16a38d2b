"""Domain types of ordered memory: events, causal chains, task timelines, ``why`` answers.

The write model is strict like :class:`graph_schema.ledger.types.AssertionWrite`: unknown fields,
naive timestamps and wrong JSON types are refused so the gate can quarantine them.
"""

from __future__ import annotations

import json
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr, model_validator

from graph_schema.core.types import AccessList, Name, Status, Timestamp, as_sent
from graph_schema.ledger.types import AssertionOut, AssertionWrite, WriteResult
from graph_schema.lifecycle.types import Goal, WorkingMemory

MAX_CAUSES = 100
MAX_STATE_CHARS = 65_536
MAX_STATE_DEPTH = 64
MAX_EVENT_ASSERTIONS = 1_000
EVENT_ID_PATTERN = r"^[0-9A-Za-z_.:-]{1,128}$"


class Outcome(StrEnum):
    """How a step ended; a closed set so analysts can query failures reliably."""

    success = "success"
    failure = "failure"
    partial = "partial"
    pending = "pending"
    cancelled = "cancelled"
    unknown = "unknown"


EventId = Annotated[StrictStr, Field(pattern=EVENT_ID_PATTERN)]
State = Annotated[
    dict[StrictStr, Any],
    Field(
        default_factory=dict,
        description=f"any JSON object: at most {MAX_STATE_DEPTH} levels deep and"
        f" {MAX_STATE_CHARS:,} characters as compact JSON (no space after `,` or `:`, a"
        " non-ASCII character counted once, as sent unescaped), its numbers finite",
    ),
]


def _depth(state: Any) -> int:
    """How deep objects and arrays nest in ``state`` (iteratively: no recursion limit)."""
    deepest, stack = 0, [(state, 1)]
    while stack:
        value, depth = stack.pop()
        children = value.values() if isinstance(value, dict) else value
        if isinstance(value, dict | list):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in children)
    return deepest


def _state_size(name: str, state: dict[str, Any]) -> None:
    """A state is bounded in depth (the answer's serialiser stops at 255 levels: deeper
    state answered 500), carries only finite numbers (``1e400`` was stored as null) and is
    bounded in size, counted as compact JSON: a new user's trial found the size counted with
    a space after each ``,`` and ``:``, so a state of 61,601 characters as sent was refused
    as longer than 65,536."""
    if _depth(state) > MAX_STATE_DEPTH:
        raise ValueError(f"{name} state nests deeper than {MAX_STATE_DEPTH} levels")
    try:
        text = json.dumps(state, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except ValueError:
        raise ValueError(
            f"{name} state holds a number JSON cannot carry (too large for a double)"
        ) from None
    if len(text) > MAX_STATE_CHARS:
        raise ValueError(f"{name} state longer than {MAX_STATE_CHARS} characters as compact JSON")


class EventWrite(BaseModel):
    """One step of a task as a writer submits it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    task_id: Name
    actor: Name
    action: Name
    outcome: Outcome
    occurred_at: Annotated[
        Timestamp,
        Field(
            description="when the step happened; at most TRACTATUS_MAX_FUTURE (5 minutes) ahead"
            " of the server's clock, else 422 `future_timestamp`"
        ),
    ]
    before: State
    after: State
    caused_by: Annotated[list[EventId], Field(max_length=MAX_CAUSES)] = Field(default_factory=list)
    root: StrictBool = False
    access: AccessList = Field(default_factory=list)
    goal: Goal | None = None
    # each item is checked by the gate (``gate.check_batch``), which quarantines a bad one
    assertions: Annotated[
        list[Annotated[Any, as_sent(AssertionWrite)]], Field(max_length=MAX_EVENT_ASSERTIONS)
    ] = Field(default_factory=list)

    @model_validator(mode="after")
    def _root_or_causes(self) -> EventWrite:
        if self.root and self.caused_by:
            raise ValueError("a root event names no causes")
        if not self.root and not self.caused_by:
            raise ValueError("an event names its causes (caused_by) or declares root: true")
        _state_size("before", self.before)
        _state_size("after", self.after)
        return self

    def cause_ids(self) -> list[str]:
        """The causes, each once, in the order given."""
        return list(dict.fromkeys(self.caused_by))


class ProducedAssertion(BaseModel):
    """An assertion an event wrote, as a chain step shows it."""

    id: str
    subject: str
    predicate: str
    object: str | None
    polarity: bool
    source_kind: str
    quote: str | None = None


class EventOut(BaseModel):
    id: str
    # null for a reader who may not see the step's task (docs/lifecycle.md "Tasks")
    task_id: str | None
    actor: str
    action: str
    outcome: str
    occurred_at: datetime
    recorded_at: datetime
    before: dict[str, Any]
    after: dict[str, Any]
    access: list[str] = Field(default_factory=list)
    written_by: str | None = None
    caused_by: list[str] = Field(default_factory=list)
    assertions: list[ProducedAssertion] = Field(default_factory=list)
    depth: int | None = None


class ChainEdge(BaseModel):
    """``from`` was caused by ``to``."""

    model_config = ConfigDict(populate_by_name=True)

    from_: str = Field(alias="from")
    to: str


class Direction(StrEnum):
    causes = "causes"
    effects = "effects"


class Chain(BaseModel):
    events: list[EventOut]
    edges: list[ChainEdge]
    truncated: bool = False


class ChainAnswer(BaseModel):
    status: Status
    direction: Direction
    max_depth: int
    events: list[EventOut]
    edges: list[ChainEdge]
    truncated: bool = False


class EventWritten(BaseModel):
    event: EventOut
    assertions: list[WriteResult]
    # the event's task (the writer's own) after this write
    working_memory: WorkingMemory


class TaskOut(BaseModel):
    id: str
    goal: str | None = None
    started_at: datetime | None = None


class TimelineAnswer(BaseModel):
    status: Status
    task_id: str
    task: TaskOut | None = None
    events: list[EventOut]
    truncated: bool = False


class Explanation(BaseModel):
    """A current fact, the event that wrote it (if any visible), and that event's chain."""

    fact: AssertionOut
    event: EventOut | None = None
    # null, as in recall, for a fact no visible event wrote: a new user's trial found an empty
    # chain object here where recall answered null for the same fact
    chain: Annotated[
        Chain | None,
        Field(
            description="the chain of the event that wrote the fact, newest first; null for a"
            " fact no event the caller may read wrote (as recall's `chain`)"
        ),
    ] = None


class WhyAnswer(BaseModel):
    status: Status
    subject: str
    predicate: str
    explanations: list[Explanation]
    as_of: datetime
    known_at: datetime
