"""Types of procedures: a version as readers see it, and the answer of a read."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from graph_schema.core.types import Status


class MinedSequence(BaseModel):
    """What a procedure version says, as a read and a sleep's report both show it."""

    key: str = Field(description="the same actions in the same scope: the same key")
    trigger: str = Field(description="the action its tasks start with")
    steps: list[str] = Field(
        description="the actions in order, a run of the same action (a retry) read once"
    )
    support: int = Field(ge=1, description="tasks that went through exactly these steps")
    successes: int = Field(ge=0, description="of them, tasks whose last step succeeded")
    success_rate: float = Field(ge=0, le=1, description="successes / support")
    first_seen: datetime = Field(description="the first step of its earliest task")
    last_seen: datetime = Field(description="the last step of its latest task")
    access: list[str] = Field(
        description="who may read it, as on assertions, events and tasks: a reader needs one"
        " of these groups (its tasks' steps' access list, any of it); [] only for public"
    )
    access_all: list[str] = Field(
        description="further requirements, as on assertions: a reader needs each, one of its"
        " groups (`g1|g2`: g1 or g2); [] unless its tasks' steps had more than one restricted"
        " access list"
    )


class ProcedureOut(MinedSequence):
    """One version of a procedure: a recurring sequence of actions, how often it was done and
    how often it ended in success, up to the sleep that wrote it."""

    id: str = Field(description="this version's id; a later version supersedes it")
    recorded_at: datetime = Field(description="when the sleep that mined it wrote it")
    superseded_at: datetime | None = Field(
        description="when a later version replaced it (null: current at the read's known_at)"
    )
    supersedes: str | None = Field(description="the version it replaced, if any")
    source_kind: str = Field(description="always `agent_inferred`: memory inferred it")
    evidence: list[str] = Field(
        description="the first step of each supporting task (at most 100, earliest first);"
        " replay one with GET /v1/events/{id}/chain?direction=effects"
    )


class ProceduresAnswer(BaseModel):
    status: Status = Field(description="`answered` with at least one procedure, else `not_found`")
    procedures: list[ProcedureOut]
    known_at: datetime = Field(description="the record time read at (echoed)")


class ProcedureAnswer(BaseModel):
    status: Status
    procedure: ProcedureOut
    known_at: datetime


class MinedVersion(MinedSequence):
    """A procedure version a sleep wrote, or that a dry run would write, as its report lists
    it (docs/procedures.md)."""

    id: str | None = Field(
        description="the version's id; null in a dry run, which writes nothing (the version"
        " would get its id when a sleep writes it)"
    )
    supersedes: str | None = Field(
        description="the version current at the sleep's time that it replaces (null: a new"
        " procedure)"
    )
