"""Types every capability shares: who is asking, the answer states, tiers, source kinds, and
the strict field types (names, RFC 3339 timestamps, access lists) that writes are built from.

Write models are strict: unknown fields, naive or human-readable timestamps, out-of-range
confidence and wrong JSON types are refused, so the gate can quarantine them with a reason.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    StrictStr,
    WithJsonSchema,
)

from graph_schema.core.timeutil import RFC3339_PATTERN, parse_rfc3339
from graph_schema.core.visible import INVISIBLE_CLASS, is_invisible

MAX_TEXT_CHARS = 100_000
MAX_NAME_CHARS = 512
GROUP_TEXT = r"^[A-Za-z0-9_.:-]{1,64}$"
GROUP_PATTERN = re.compile(GROUP_TEXT)

# What ``str.strip()`` removes: every character for which ``str.isspace()`` holds, spelled out
# so that the JSON Schema patterns below mean in every regex dialect what the code checks.
WHITESPACE_CLASS = (
    r"\t-\r\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
)
# A text that is not blank (some character is not whitespace); search semantics, unanchored.
NOT_BLANK_PATTERN = f"[^{WHITESPACE_CLASS}]"
# A text that is not blank and holds no NUL character (:func:`check_text`).
TEXT_PATTERN = f"^[^\\u0000]*[^\\u0000{WHITESPACE_CLASS}][^\\u0000]*$"
# A text that holds no NUL character, blank or not (:func:`check_no_nul`).
NO_NUL_PATTERN = "^[^\\u0000]*$"
# A name that has a visible character and holds no NUL (:func:`check_name`): a name is typed
# and read back; one of a zero-width space or of a lone combining accent was written (201).
NAME_PATTERN = f"^[^\\u0000]*[^{INVISIBLE_CLASS}][^\\u0000]*$"


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


def check_no_nul(value: str) -> str:
    """No stored text holds a NUL (an evidence quote and source text were stored with one)."""
    if "\x00" in value:
        raise ValueError("must not contain NUL characters")
    return value


def check_text(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty or blank")
    if "\x00" in value:
        raise ValueError("must not contain NUL characters")
    return value


def check_name(value: str) -> str:
    """A name has a visible character (graph_schema.core.visible) and no NUL."""
    if is_invisible(value):
        raise ValueError("must not be blank (it has no visible character)")
    if "\x00" in value:
        raise ValueError("must not contain NUL characters")
    return value


def check_groups(value: list[str]) -> list[str]:
    for group in value:
        if not GROUP_PATTERN.fullmatch(group):
            raise ValueError(f"group names are 1-64 of [A-Za-z0-9_.:-]: {group!r}")
    return sorted(set(value))


def _json_integer(value: Any) -> Any:
    """JSON has one kind of number, and JSON Schema's ``integer`` includes 3.0: take it as 3.
    Anything else (a fraction, a boolean, a string) goes on to be refused as before."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# Put last in ``Annotated[StrictInt, Field(...), INTEGRAL]``: an integer as JSON Schema means
# it, 3 and 3.0, never true or "3" (last, so that the bounds still show in the JSON schema).
INTEGRAL = BeforeValidator(_json_integer)


def text_schema(*, max_length: int, min_length: int = 1) -> WithJsonSchema:
    """The JSON schema of a text :func:`check_text` accepts: its bounds, not blank, no NUL."""
    return WithJsonSchema(
        {
            "type": "string",
            "minLength": min_length,
            "maxLength": max_length,
            "pattern": TEXT_PATTERN,
        }
    )


Timestamp = Annotated[
    StrictStr,
    AfterValidator(check_timestamp),
    WithJsonSchema({"type": "string", "format": "date-time", "pattern": RFC3339_PATTERN}),
]


def name_schema(*, max_length: int) -> WithJsonSchema:
    """The JSON schema of a name :func:`check_name` accepts: its bounds, a visible character,
    no NUL."""
    return WithJsonSchema(
        {"type": "string", "minLength": 1, "maxLength": max_length, "pattern": NAME_PATTERN}
    )


Name = Annotated[
    StrictStr,
    Field(min_length=1, max_length=MAX_NAME_CHARS),
    AfterValidator(check_name),
    name_schema(max_length=MAX_NAME_CHARS),
]
MAX_ACCESS_GROUPS = 32
GroupName = Annotated[StrictStr, WithJsonSchema({"type": "string", "pattern": GROUP_TEXT})]
AccessList = Annotated[
    list[GroupName], Field(max_length=MAX_ACCESS_GROUPS), AfterValidator(check_groups)
]


def _as_sent(value: Any) -> Any:
    return value


def as_sent(shape: Any) -> PlainValidator:
    """Let any JSON value through validation, described in the JSON schema as ``shape``.

    For the parts of a write the gate must see exactly as they were sent (malformed ones too),
    so that it can refuse and quarantine them with a reason; the OpenAPI document still says
    what a well-formed one is, with references to the models.
    """
    return PlainValidator(_as_sent, json_schema_input_type=shape)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


REQUEST_ID_PATTERN = r"^[A-Za-z0-9._:-]{1,128}$"
RequestId = Annotated[str, Field(pattern=REQUEST_ID_PATTERN)]


class ErrorObject(BaseModel):
    """What went wrong: a stable ``code``, a message for people, structured ``details``, and
    the request's id (its ``X-Request-ID``), to find it in the server's logs."""

    code: str
    message: str
    details: dict[str, Any]
    request_id: RequestId


class ErrorBody(BaseModel):
    """The one shape of every error: ``{"error": {"code", "message", "details",
    "request_id"}}``."""

    error: ErrorObject


class RefusedItem(BaseModel):
    """An item the gate refused: its place in the request, the reason and a message."""

    index: int
    reason: str
    message: str


class RejectedDetails(BaseModel):
    rejections: list[RefusedItem]
    quarantine_ids: list[str]


class RejectedError(BaseModel):
    code: Literal["rejected"]
    message: str
    details: RejectedDetails
    request_id: RequestId


class RejectedBody(BaseModel):
    """The gate's refusal (422 ``rejected``): every refused item with its reason, and the ids
    of the Quarantine nodes that keep them. Nothing else of the request was written."""

    error: RejectedError


class Principal(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    groups: tuple[str, ...] = ()
    role: Literal["member", "admin"] = "member"

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"
