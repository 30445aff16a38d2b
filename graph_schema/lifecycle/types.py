"""Types of the memory lifecycle: tasks, working memory, transitions, pins and sleep reports.

A task's identity is (owner, task_id): :func:`task_key`. Requests are strict like every
write (unknown fields, naive timestamps and wrong JSON types are refused with 422).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictStr,
    model_validator,
)

from graph_schema.core.types import AccessList, Name, Strict, Timestamp, check_text, text_schema
from graph_schema.procedures.types import MinedVersion

TASK_KEY_SEPARATOR = "\x1f"
MAX_GOAL_CHARS = 2_000
MAX_REPORT_IDS = 100
# a task's or an event's goal: free text shown on task cards, not blank and without NUL like
# every other stored text (a new user's trial stored "   " and "a\u0000b")
Goal = Annotated[
    StrictStr,
    Field(min_length=1, max_length=MAX_GOAL_CHARS),
    AfterValidator(check_text),
    text_schema(max_length=MAX_GOAL_CHARS),
]


def task_key(owner: str, task_id: str) -> str:
    """The identity of a task: its owner's principal id and the task id the owner chose
    (the same scoping as an observation's idempotency key)."""
    return f"{owner}{TASK_KEY_SEPARATOR}{task_id}"


class TaskStatus(StrEnum):
    open = "open"
    ended = "ended"


class Rule(StrEnum):
    """Why a tier changed: the rule that decided it (recorded on every transition)."""

    verified = "verified"
    corroborated = "corroborated"
    said_supported = "said_supported"
    ephemeral = "ephemeral"
    unverified = "unverified"
    said_unsupported = "said_unsupported"
    over_bound = "over_bound"
    ephemeral_expired = "ephemeral_expired"
    dormant = "dormant"
    woken = "woken"


class TaskStart(Strict):
    """``POST /v1/tasks``: start a task explicitly, with a goal and the access of its card."""

    task_id: Name
    goal: Goal | None = None
    access: AccessList = Field(default_factory=list)


class WorkingMemory(BaseModel):
    """A task's working memory and its bound: in a write's answer, the assertions written into
    the task so far; on a task card, its working (short) assertions the caller may read now."""

    task_id: str
    count: int
    bound: int
    over_bound: bool


class TierCounts(BaseModel):
    """Assertions of a task by tier as known now, counting only those the caller may read."""

    short: int = 0
    long: int = 0
    discarded: int = 0
    dormant: int = 0


class TaskAnswer(BaseModel):
    id: str
    owner: str
    status: TaskStatus
    access: list[str] = Field(default_factory=list)
    goal: str | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None
    consolidated: bool = False
    counts: TierCounts
    working_memory: WorkingMemory


class ConsolidationReport(BaseModel):
    """What ending a task did to its working memory (ids the caller may read)."""

    task_id: str
    owner: str
    ended_at: datetime
    promoted: list[str]
    discarded: list[str]
    reasons: dict[str, Rule]
    # restorations written in place of discarded versions (docs/lifecycle.md "Restoration")
    restored: list[str]


class Transition(BaseModel):
    """One recorded change of an assertion's tier or pin, as history shows it."""

    model_config = ConfigDict(populate_by_name=True)

    at: datetime
    change: Literal["tier", "pin"]
    from_: str = Field(alias="from")
    to: str
    rule: str
    reason: str
    run_id: str | None = None


class PinAnswer(BaseModel):
    assertion_id: str
    pinned: bool
    changed: bool
    at: datetime | None = None


class SleepRequest(Strict):
    """``POST /v1/sleep``. ``dry_run`` is required: a body without it (``{}``, no body,
    ``null``) ran a real sleep on the shared store, in a database engineer's audit. A ``now``
    is accepted only with ``dry_run: true``: a real sleep runs at the present, a preview at
    any time (the schema says so too, with ``if`` / ``then``)."""

    model_config = ConfigDict(
        json_schema_extra={
            "if": {"properties": {"now": {"type": "string"}}, "required": ["now"]},
            "then": {"properties": {"dry_run": {"const": True}}, "required": ["dry_run"]},
        }
    )

    now: Timestamp | None = None
    dry_run: Annotated[
        StrictBool,
        Field(
            description="required: `true` previews the sleep and writes nothing; `false` runs"
            " it and changes the store"
        ),
    ]

    @model_validator(mode="after")
    def _now_only_to_preview(self) -> SleepRequest:
        if self.now is not None and not self.dry_run:
            raise ValueError("a now is accepted only with dry_run: true (a real sleep runs now)")
        return self


class SleepCounts(BaseModel):
    tasks: int = 0
    promoted: int = 0
    discarded: int = 0
    dormant: int = 0
    woken: int = 0
    restored: int = 0
    # procedure versions written (a dry run: that it would write; docs/procedures.md)
    procedures: int = 0


class SleepReport(BaseModel):
    """Counts over the whole store; id lists bounded and limited to what the caller may read."""

    run_id: str | None
    now: datetime
    dry_run: bool
    counts: SleepCounts
    promoted: list[str]
    discarded: list[str]
    dormant: list[str]
    woken: list[str]
    restored: list[str]
    procedures: list[str] = Field(
        default_factory=list,
        description="ids of the procedure versions written that the caller may read (a dry run"
        " writes none, so names none: `procedure_versions` describes what it would write)",
    )
    procedure_versions: list[MinedVersion] = Field(
        default_factory=list,
        description="the procedure versions written (a dry run: that it would write, `id`"
        " null) that the caller may read, described: trigger, steps, support, success rate;"
        " bounded like the id lists",
    )
    truncated: bool
    max_ids: int = MAX_REPORT_IDS
