"""Types every capability shares: who is asking, the answer states, tiers, source kinds, and
the strict field types (names, RFC 3339 timestamps, access lists) that writes are built from.

Write models are strict: unknown fields, naive or human-readable timestamps, out-of-range
confidence and wrong JSON types are refused, so the gate can quarantine them with a reason.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictStr,
)

from graph_schema.core.timeutil import parse_rfc3339

MAX_TEXT_CHARS = 100_000
MAX_NAME_CHARS = 512
GROUP_PATTERN = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")


class SourceKind(StrEnum):
    user_stated = "user_stated"
    agent_inferred = "agent_inferred"
    tool_returned = "tool_returned"
    document = "document"


class Tier(StrEnum):
    short = "short"
    long = "long"
    discarded = "discarded"
    dormant = "dormant"


class Status(StrEnum):
    answered = "answered"
    not_found = "not_found"
    out_of_scope = "out_of_scope"


def check_timestamp(value: str) -> str:
    parse_rfc3339(value)
    return value


def check_text(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty or blank")
    if "\x00" in value:
        raise ValueError("must not contain NUL characters")
    return value


def check_groups(value: list[str]) -> list[str]:
    for group in value:
        if not GROUP_PATTERN.match(group):
            raise ValueError(f"group names are 1-64 of [A-Za-z0-9_.:-]: {group!r}")
    return sorted(set(value))


Timestamp = Annotated[StrictStr, AfterValidator(check_timestamp)]
Name = Annotated[
    StrictStr, Field(min_length=1, max_length=MAX_NAME_CHARS), AfterValidator(check_text)
]
AccessList = Annotated[list[StrictStr], Field(max_length=32), AfterValidator(check_groups)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Principal(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    groups: tuple[str, ...] = ()
    role: Literal["member", "admin"] = "member"

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"
