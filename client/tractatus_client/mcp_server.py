"""``tractatus-mcp``: the memory as MCP tools, for any MCP host (the ``[mcp]`` extra).

It is a client of one Tractatus server, as one principal: ``TRACTATUS_URL`` and
``TRACTATUS_API_KEY``. Two transports:

* ``stdio`` (default): the host starts ``tractatus-mcp`` and talks over its stdin/stdout.
* ``http`` (streamable HTTP): listens on 127.0.0.1 unless ``--host`` says otherwise and
  requires ``Authorization: Bearer $TRACTATUS_MCP_TOKEN`` from every MCP client. That token is
  its own, never the Tractatus key; the key stays in this process and is never sent to MCP
  clients.

Who may read what it writes is said when it starts: ``--access team-a,team-b`` (or
``TRACTATUS_MCP_ACCESS``) for groups of its key, ``--access public`` for every principal; it
refuses to start without one. A write tool's ``access`` argument replaces that default for
one call. An argument a tool does not declare is refused, not dropped; it and every other
argument the tool's schema refuses are a tool error ``invalid_argument: ...`` naming each.

A failed call (a 409 precondition, a refused write, an unknown event, a refused argument)
reaches the agent as a tool error of one form, ``CODE: MESSAGE[; request_id: ID][; details:
JSON]``, whose structured content is the API's error body (:class:`Failure`); the MCP server
itself keeps running.
"""

from __future__ import annotations

import argparse
import functools
import json
import logging
import os
import re
import secrets
import sys
from collections.abc import Awaitable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import anyio
import httpx
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, InputRequiredResult, TextContent
from mcp.types import Tool as MCPTool
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from starlette.types import ASGIApp, Receive, Scope, Send

from tractatus_client import _http
from tractatus_client._calls import assertion_body
from tractatus_client.aio import AsyncTractatus
from tractatus_client.errors import InvalidArgument, TractatusError

log = logging.getLogger("tractatus_client.mcp")

TOKEN_VARIABLE = "TRACTATUS_MCP_TOKEN"
ACTOR_VARIABLE = "TRACTATUS_MCP_ACTOR"
ACCESS_VARIABLE = "TRACTATUS_MCP_ACCESS"
DEFAULT_ACTOR = "agent:mcp"
DEFAULT_PORT = 8765
PUBLIC = "public"
# a group name as the API takes it (docs/api.md "Formats, patterns and bounds")
GROUP_NAME = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
# the member of a union pydantic names in an error's place: ``str``, ``int``, ``list[...]``
_UNION_MEMBER = re.compile(r"^[\w-]+\[.*\]$|^(?:str|int|float|bool|dict|list|none)$", re.S)
# "... or instance of WrittenFact": a class name, which the agent never sent
_INSTANCE = re.compile(r" or instance of \w+")

INSTRUCTIONS = """\
Tractatus is your long-term memory: facts as (subject, predicate, object) with their
history, and the causal chain of your own steps. Every answer has a `status`:
`answered` (here is what is known), `not_found` (nothing known, or nothing you may see: the
two look the same), or `out_of_scope` (the predicate is not one this memory tracks; see the
ontology, do not guess). Every answer is *as of* a time: `as_of` is when the fact holds in
the world, `known_at` is what the memory knew by then; both default to now. Facts are never
overwritten: a new version supersedes the old one, and `fact_history` shows both.
To change a fact safely, pass `expected_current` (the id of the version you read, or null
for "nothing yet"), to `assert_fact` and with each fact a step `wrote`; if someone changed it
meanwhile, the write fails with the current version instead of overwriting it. To withdraw
a fact, write it with `polarity: false` (a retraction), with the same precondition. Record each
step of a task with `record_event`; before a task you have done before,
`procedures(trigger=<its first action>)` tells how such tasks went: the sequences of steps
seen in several of them and how often each succeeded, the most frequent first, whether it
worked or not: check each one's `success_rate` before you follow it, or ask
`procedures(trigger=..., min_success_rate=0.5)` for the ways that mostly worked. Facts
written with a task's steps (or by `assert_fact` or `remember` with its `task_id`) are its
working memory: when the task is done, `end_task` keeps those worth keeping and discards the
rest, with the reason for each. It keeps your own conclusions (`source_kind` `agent_inferred`,
`assert_fact`'s default) only when two independent sources support them: a note of what you
tried or decided belongs in a step (`record_event`; steps are never discarded) or outside the
task. `get_task`, `task_timeline` and `get_fact` with `tiers: ["discarded"]` show what a task
holds and what its end discarded.
To make a write safe to send again (after a timeout), give it an `idempotency_key` (and, for
`record_event` and `remember`, an `occurred_at`): sent again with the same arguments it answers
the first answer with `replayed: true` and writes nothing. A failed call is a tool error
`CODE: MESSAGE; request_id: ID; details: {...}`."""

Subject = Annotated[str, Field(description="what the fact is about, e.g. 'user:alice'")]
Predicate = Annotated[str, Field(description="a predicate of the ontology, e.g. 'tech_stack'")]
Time = Annotated[str | None, Field(description="RFC 3339 time with a timezone; omitted means now")]
SourceKind = Literal["user_stated", "agent_inferred", "tool_returned", "document"]
# the arguments of record_event that take more than a line
Outcome = Literal["success", "failure", "partial", "pending", "cancelled", "unknown"]
Causes = Annotated[list[str] | None, Field(description="ids of the events that led to this one")]
Goal = Annotated[
    str | None,
    Field(
        description="the task's goal: a first step starts the task with it; another goal than"
        " the task's is refused (task_conflict); leave it out after that"
    ),
]

# a fact's value and its sign (assert_fact and record_event's `wrote`), as the API's assertion
# body has them: an MCP agent could not retract a fact (a new user's trial)
OBJECT = (
    "the value; in a retraction (polarity false), the value it withdraws (a one-valued"
    " predicate: refused if another value holds), or null to withdraw whatever holds"
)
POLARITY = (
    "true (default): the fact holds; false: a retraction: from its start on, reading the fact"
    " answers not_found (its history keeps every version)"
)
IN_TASK = (
    "a task of yours: the fact is its working memory, kept or discarded when the task ends"
    " (end_task); omitted: long-term at once"
)
NEEDS_OBJECT = (
    "null is a retraction's only (polarity false: withdraw whatever holds); an assertion"
    " (polarity true) needs its value"
)
SOURCE_KIND = (
    "where the fact comes from: user_stated (the user said it), tool_returned, document, or"
    " agent_inferred (your own conclusion). In a task, end_task keeps an agent_inferred fact"
    " only when two independent sources support it, and discards it otherwise (unverified)"
)
# the idempotency key of a write (assert_fact, record_event, remember): the API's header,
# 1-256 characters; a host retrying a timed-out call recorded the step twice (a trial)
KEY = (
    "your key for this write (1 to 256 printable ASCII characters): sent again with the same"
    " arguments, the first answer comes back with replayed: true and nothing is written; with"
    " other arguments it fails (precondition_failed)"
)
TIMED_KEY = f"{KEY}; needs occurred_at (the time is part of the write)"
# sent as a header (assert_fact, record_event): printable ASCII, no space at either end
_KEY_TEXT = Annotated[str, Field(min_length=1, max_length=256, pattern=r"^[!-~]([ -~]*[!-~])?$")]
IdempotencyKey = Annotated[_KEY_TEXT | None, Field(description=KEY)]
TimedKey = Annotated[_KEY_TEXT | None, Field(description=TIMED_KEY)]
Tier = Literal["short", "long", "discarded", "dormant"]
Tiers = Annotated[
    Annotated[list[Tier], Field(min_length=1, max_length=4)] | None,
    Field(
        description="the tiers to read (short: working memory; long; discarded: what end_task"
        " or a sleep discarded; dormant: unread for long); omitted: short and long"
    ),
]
MinConfidence = Annotated[Annotated[float, Field(ge=0, le=1)] | None, Field(description="at least")]
# left out, left out of the request (it was sent as 0.0: an agent builder's trial)
SuccessRate = Annotated[
    Annotated[float, Field(ge=0, le=1)] | None,
    Field(
        description="only the ways whose success_rate is at least this (0 to 1), e.g. 0.5 for"
        " the ways that mostly worked; omitted: every way, the ones that failed too"
    ),
]
Owner = Annotated[
    str | None,
    Field(description="the principal whose task it is, if you may see it; omitted: yours"),
]


class WrittenFact(BaseModel):
    """A fact a step wrote (recorded with the step, so `why` can name the step)."""

    # a key it does not have is refused: the SDK's own models drop one without a word, and a
    # dropped `access` wrote public (a new user's security review)
    model_config = ConfigDict(extra="forbid")

    subject: str
    predicate: str
    object: str | int | float | bool | None = Field(description=OBJECT)
    evidence: str = Field(description="the exact words or tool output that support it")
    confidence: float = Field(ge=0, le=1)
    # required, as in assert_fact: a step that writes without reading first is the lost
    # update the ledger prevents (a new agent developer's trial overwrote a fact this way)
    expected_current: str | None = Field(
        description="id of the version you believe is current, or null for none"
    )
    polarity: bool = Field(default=True, description=POLARITY)
    source_kind: SourceKind = "tool_returned"
    access: list[str] | None = Field(
        default=None,
        description="the groups that may read this fact; [] for every principal; omitted: the"
        " step's access",
    )

    @model_validator(mode="after")
    def _an_assertion_has_an_object(self) -> WrittenFact:
        if self.polarity and self.object is None:
            raise ValueError(f"object: {NEEDS_OBJECT}")
        return self


Wrote = Annotated[list[WrittenFact] | None, Field(description="facts this step established")]


def default_access(value: str | None) -> tuple[str, ...]:
    """The access of writes whose call names none, from ``--access`` or the environment:
    ``public`` (every principal reads them) or a comma list of groups. There is no silent
    default: on a shared server a write no one scoped was readable by every team (a new
    user's security review), so the operator says which."""
    if value is None or not value.strip():
        raise ValueError(
            f"say who may read what it writes: --access GROUP[,GROUP...] (or ${ACCESS_VARIABLE})"
            f" for groups of its key, or --access {PUBLIC} for every principal"
        )
    names = [name.strip() for name in value.split(",")]
    if names == [PUBLIC]:
        return ()
    if PUBLIC in names:
        raise ValueError(f"--access: '{PUBLIC}' (every principal) cannot be combined with groups")
    for name in names:
        if not GROUP_NAME.fullmatch(name):
            raise ValueError(
                f"--access: {name!r} is not a group name (1 to 64 letters, digits, _ . : -)"
            )
    return tuple(dict.fromkeys(names))


def readers(access: Sequence[str]) -> str:
    """Who reads a write of this access, in words."""
    return json.dumps(list(access)) if access else "[] (public: every principal)"


@dataclass(frozen=True)
class Writer:
    """How the tools write: the name they write as and the access of a call that names none."""

    actor: str
    access: tuple[str, ...]

    def scope(self, given: list[str] | None) -> list[str]:
        """The access a write is sent with: the call's, else the server's default."""
        return list(self.access) if given is None else given

    async def checked(
        self, given: list[str] | None, call: Awaitable[dict[str, Any]]
    ) -> dict[str, Any]:
        """A write's answer; when it was sent with the default access (``given`` None) and
        refused ``access_not_allowed``, its tool error says that the default is to blame.
        The server tells no key its groups, so a default naming a group the key is not in
        cannot be refused at start (an agent builder's trial: every write was refused and
        quarantined, the agent told only that it named a group it is not in)."""
        try:
            return await call
        except Failure as failure:
            if given is not None or not self.access or not _refused_access(failure):
                raise
            raise Failure(
                failure.code,
                f"{failure.message} [this call wrote with tractatus-mcp's default access"
                f" {readers(self.access)} (--access): its key's principal must be in each of"
                " these groups; pass `access` with groups of yours, or have tractatus-mcp"
                " restarted with --access naming the key's groups]",
                request_id=failure.request_id,
                details=failure.details,
            ) from None

    def access_field(self, what: str) -> Any:
        """The ``access`` argument of a write tool, its description naming the default."""
        return Field(
            default=None,
            description=f"the groups that may read {what}: names of groups your key belongs to,"
            f" [] for every principal; omitted: this server's default, {readers(self.access)}",
        )


def _refused_access(failure: Failure) -> bool:
    """A ``rejected`` write one of whose refusals is ``access_not_allowed``."""
    rejections = failure.details.get("rejections") or []
    return failure.code == "rejected" and any(
        isinstance(r, dict) and r.get("reason") == "access_not_allowed" for r in rejections
    )


class Failure(ToolError):
    """A tool's failure in the one form every tool error has: the text
    ``CODE: MESSAGE[; request_id: ID][; details: JSON]`` for the agent to read, and as
    structured content the API's error body, ``{"error": {"code", "message", "request_id",
    "details"}}``, for a host to act on. The server's errors and the client's refusals came in
    two forms (``Error executing tool NAME: not_found: ...``; ``invalid_argument: ...``),
    without the request id, and ``rejected`` lost its ``quarantine_ids`` (an agent
    developer's trial). ``request_id`` is the request's ``X-Request-ID`` as the server
    answered it, ``None`` when nothing was sent."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        request_id: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        self.code = code
        self.message = message
        self.request_id = request_id
        self.details: dict[str, Any] = details or {}
        super().__init__(self.text())

    def text(self) -> str:
        text = f"{self.code}: {self.message}"
        if self.request_id:
            text += f"; request_id: {self.request_id}"
        if self.details:
            text += f"; details: {json.dumps(self.details)}"
        return text

    def result(self) -> CallToolResult:
        body = {
            "code": self.code,
            "message": self.message,
            "request_id": self.request_id,
            "details": self.details,
        }
        return CallToolResult(
            content=[TextContent(type="text", text=self.text())],
            structured_content={"error": body},
            is_error=True,
        )


def refused(message: str) -> Failure:
    """An argument refused before anything was sent: ``invalid_argument``, no request id."""
    return Failure("invalid_argument", f"{message} (nothing was sent)")


class StrictServer(MCPServer[Any]):
    """The SDK's server, refusing an argument a tool does not declare. The SDK drops it
    without a word (its argument models ignore unknown fields and it has no option to refuse
    them): an agent's `access` was dropped and its text written public (a new user's
    security review). Each tool's input schema says so: ``additionalProperties: false``.
    Every failure of a call is answered as a :class:`Failure`, whatever raised it."""

    async def list_tools(self) -> list[MCPTool]:
        tools = await super().list_tools()
        return [
            t.model_copy(update={"input_schema": {**t.input_schema, "additionalProperties": False}})
            for t in tools
        ]

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        try:
            return await self._call(name, arguments, context)
        except Failure as failure:
            # its code and request id, never its text: the message and details name what the
            # agent asked about (an id, a current value), and an MCP host keeps stderr
            log.info("Tool %r failed: %s; request_id: %s", name, failure.code, failure.request_id)
            return failure.result()

    async def _call(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None
    ) -> CallToolResult | InputRequiredResult:
        declared = {
            t.name: t.input_schema.get("properties", {}) for t in await super().list_tools()
        }
        if name not in declared:
            raise Failure("unknown_tool", f"no tool {name!r}; the tools are {', '.join(declared)}")
        unknown = [argument for argument in arguments if argument not in declared[name]]
        if unknown:
            raise refused(
                f"{name} has no argument {', '.join(map(repr, unknown))};"
                f" its arguments are {', '.join(declared[name])}"
            )
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError as error:
            log.error("Tool %r raised an unexpected exception", name, exc_info=error.__cause__)
            raise Failure("internal_error", f"{error} (a fault of tractatus-mcp)") from error
        except ToolError as error:
            cause = error.__cause__
            if isinstance(cause, Failure):  # raised by the tool: without the SDK's prefix
                raise cause from None
            if isinstance(cause, ValidationError):  # the SDK's refusal of the arguments
                raise refused(argument_problems(name, cause, declared[name])) from cause
            raise Failure("tool_error", str(error)) from error


def _where(loc: Sequence[int | str]) -> str:
    """An error's place as the agent wrote it: ``wrote[0].access``; the union member pydantic
    tried (``object.str``) left out."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif not _UNION_MEMBER.match(part):
            out += f".{part}" if out else part
    return out or "arguments"


def _rule(error: Any, declared: dict[str, Any]) -> str:
    """The rule an argument broke, in the tool's terms: no "Value error, " prefix, no class
    name; a missing argument with what it is (its description)."""
    if error["type"] == "extra_forbidden":  # in a fact of `wrote`: "Extra inputs ..."
        return "no such key (nothing is dropped)"
    if error["type"] == "missing":
        loc = error["loc"]
        described = declared.get(loc[0], {}).get("description") if len(loc) == 1 else None
        return f"required ({described})" if described else "required"
    text = str(error["msg"]).removeprefix("Value error, ")
    text = _INSTANCE.sub("", text).replace("a valid dictionary", "a JSON object")
    return text.replace(" after validation", "")


def argument_problems(tool: str, error: ValidationError, declared: dict[str, Any]) -> str:
    """The message of a refused argument, ``TOOL: WHERE: RULE`` for each problem (the tool
    error reads ``invalid_argument: TOOL: WHERE: RULE (nothing was sent)``): pydantic's own
    text named its model (``assert_factArguments``), echoed the value sent and a URL, where an
    agent reads an undeclared argument's refusal as ``invalid_argument: ...`` (a new user's
    trial). A union's members, tried one by one, are one problem: "Input should be a valid
    string or a valid integer ..."."""
    rules: dict[str, list[str]] = {}
    for problem in error.errors(include_url=False, include_input=False):
        rule = _rule(problem, declared)
        said = rules.setdefault(_where(problem["loc"]), [])
        if rule not in said:
            said.append(rule)
    listed = [f"{where}: {_or(said)}" for where, said in rules.items()]
    return f"{tool}: {'; '.join(listed)}"


def _or(rules: list[str]) -> str:
    """``Input should be a valid string``, ``Input should be a valid integer`` as one rule."""
    head = "Input should be "
    if len(rules) > 1 and all(rule.startswith(head) for rule in rules):
        return head + " or ".join(rule.removeprefix(head) for rule in rules)
    return "; ".join(rules)


def failure_of(error: TractatusError) -> Failure:
    """The tool error of a failed call: the server's code, message, request id and details
    (``rejected``: ``rejections`` and ``quarantine_ids``; ``secret_detected``: each secret's
    ``{field, kind}``, never its value, and ``count``), except that a precondition's
    ``current`` version is given as its ``id``, ``object``, ``polarity`` and ``valid_from``
    (read the rest with ``get_fact``)."""
    details = dict(error.details)
    current = details.get("current")
    if isinstance(current, dict):
        details["current"] = {k: current.get(k) for k in CURRENT_BRIEF}
    return Failure(error.code, error.message, request_id=error.request_id, details=details)


CURRENT_BRIEF = ("id", "object", "polarity", "valid_from")

# the ``Idempotent-Replayed`` answers seen by the call running in this context (a tool call
# runs in its own task): the header is not in the answer's body, and the client returns the
# body only
REPLAYED_HEADER = "Idempotent-Replayed"
_replays: ContextVar[list[bool] | None] = ContextVar("tractatus_mcp_replays", default=None)


async def note_replay(response: httpx.Response) -> None:
    """An httpx response hook: note the ``Idempotent-Replayed`` header for the running call."""
    seen, flag = _replays.get(), response.headers.get(REPLAYED_HEADER)
    if seen is not None and flag is not None:
        seen.append(flag.lower() == "true")


def http_client() -> httpx.AsyncClient:
    """The HTTP client of the tools' :class:`AsyncTractatus`, with :func:`note_replay`."""
    return httpx.AsyncClient(timeout=_http.DEFAULT_TIMEOUT, event_hooks={"response": [note_replay]})


async def _answer(call: Awaitable[BaseModel]) -> dict[str, Any]:
    """The answer as JSON, or a :class:`Failure` with the server's error (or the client's, for
    an argument it refused before sending: the SDK's own text named no reason)."""
    try:
        answer = await call
    except TractatusError as error:
        raise failure_of(error) from error
    except InvalidArgument as error:
        raise refused(str(error)) from error
    return answer.model_dump(mode="json", by_alias=True)


async def _write(call: Awaitable[BaseModel]) -> dict[str, Any]:
    """A write's answer with ``replayed``: true when the server answered an idempotency key's
    first answer again (``Idempotent-Replayed``) and wrote nothing."""
    seen: list[bool] = []
    token = _replays.set(seen)
    try:
        answer = await _answer(call)
    finally:
        _replays.reset(token)
    if seen:
        answer["replayed"] = seen[-1]
    return answer


def instructions(access: Sequence[str]) -> str:
    """The server's instructions, with who reads what the agent writes."""
    return (
        f"{INSTRUCTIONS}\nWhat you write (`remember`, `assert_fact`, `record_event`) is readable"
        f" by {readers(access)} unless the call's `access` names other groups of yours, or []"
        " for every principal."
    )


def build_server(
    client: AsyncTractatus, *, access: Sequence[str], actor: str = DEFAULT_ACTOR
) -> MCPServer[Any]:
    """The MCP server with its tools, calling ``client``; its writes have ``access`` (``()``:
    public) unless a call names its own. A write's answer says ``replayed`` when the client's
    HTTP client has :func:`note_replay` as a response hook (:func:`http_client`)."""
    server = StrictServer("tractatus", instructions=instructions(access), version=_http.VERSION)
    writer = Writer(actor, tuple(access))
    # in this order: the tools are listed in the order they are registered
    for register in (
        _memory_tools,
        _fact_tools,
        _assert_tool,
        _why_tool,
        _entity_tools,
        _step_tool,
        _chain_tool,
        _task_tools,
        _procedure_tool,
    ):
        register(server, client, writer)
    return server


def own_key_needs_time(tool: str, idempotency_key: str | None, occurred_at: str | None) -> None:
    """A key of the agent's own needs its own ``occurred_at``, as in the client: stamped with
    now on each call, a retry would differ from the first call and fail, not replay."""
    if idempotency_key is not None and occurred_at is None:
        raise refused(
            f"{tool}: an idempotency_key of your own needs an occurred_at of your own: a retry"
            " stamped with the time of its own call would differ from the first call and fail"
            " (precondition_failed), not answer it again"
        )


def _memory_tools(server: MCPServer[Any], client: AsyncTractatus, writer: Writer) -> None:
    observed = writer.access_field("the text and the facts drawn from it")

    @server.tool()
    async def remember(
        text: Annotated[str, Field(description="what was said or seen, verbatim")],
        speaker: Annotated[str | None, Field(description="who said it; default: you")] = None,
        source_kind: SourceKind = "user_stated",
        conversation_id: str | None = None,
        occurred_at: Time = None,
        task_id: Annotated[
            str | None,
            Field(
                description="a task of yours: the facts drawn from the text are its working"
                " memory, kept or discarded by end_task; omitted: long-term at once"
            ),
        ] = None,
        idempotency_key: TimedKey = None,
        access: list[str] | None = observed,
    ) -> dict[str, Any]:
        """Store an observation (raw text). The memory distils it into facts through its
        gate and answers with the facts it wrote and the drafts it refused (quarantined)."""
        own_key_needs_time("remember", idempotency_key, occurred_at)
        return await writer.checked(
            access,
            _answer(
                client.observe(
                    text,
                    speaker=speaker or writer.actor,
                    source_kind=source_kind,
                    conversation_id=conversation_id,
                    occurred_at=occurred_at,
                    task_id=task_id,
                    idempotency_key=idempotency_key,
                    access=writer.scope(access),
                )
            ),
        )

    _recall_tool(server, client)


def _recall_tool(server: MCPServer[Any], client: AsyncTractatus) -> None:
    @server.tool()
    async def recall(
        query: Annotated[str, Field(description="a question or keywords")],
        k: Annotated[int, Field(ge=1, le=100)] = 10,
        as_of: Time = None,
        known_at: Time = None,
        conversation_id: str | None = None,
        task_id: Annotated[str | None, Field(description="facts written in this task")] = None,
        subject: Annotated[str | None, Field(description="facts about this subject")] = None,
        tiers: Tiers = None,
        include_superseded: Annotated[
            bool, Field(description="also the versions a later one superseded")
        ] = False,
        min_confidence: MinConfidence = None,
        source_kinds: Annotated[
            Annotated[list[SourceKind], Field(min_length=1, max_length=4)] | None,
            Field(description="facts of these source kinds only"),
        ] = None,
    ) -> dict[str, Any]:
        """Search the memory: ranked facts with their evidence, why each was found and the
        whole turn each came from (`turn.text`: the answer may be in another sentence of it);
        for a fact a recorded step wrote, `chain`: that step and its causes, newest first (why
        it happened). `status` is `answered` or `not_found`; `relevance` says how well the
        best one fits;
        `person`, for a question about one person, how well the others' statements fit;
        `unmentioned`, the names in the query that nothing in memory mentions;
        `unsaid`, for a question about one person, the names in it that only someone else
        speaks of (a place they never went);
        `missing_kinds`, the kinds of thing it asks for (an instrument, a colour, a brother)
        that none of the results names, `amount` for a price none of them states, or
        `reference_number` for a booking, invoice or other reference none of them gives.
        The filters (`conversation_id`, `task_id`, `subject`, `tiers`, `include_superseded`,
        `min_confidence`, `source_kinds`) narrow the candidates before ranking."""
        given = {
            "conversation_id": conversation_id,
            "task_id": task_id,
            "subject": subject,
            "tiers": tiers,
            "include_superseded": include_superseded or None,
            "min_confidence": min_confidence,
            "source_kinds": source_kinds,
        }
        filters = {name: value for name, value in given.items() if value is not None}
        return await _answer(
            client.recall(query, k=k, as_of=as_of, known_at=known_at, filters=filters or None)
        )


def _entity_tools(server: MCPServer[Any], client: AsyncTractatus, writer: Writer) -> None:
    @server.tool()
    async def find_entities(
        q: Annotated[str, Field(description="words of a name or alias (a person, a place)")],
        as_of: Time = None,
    ) -> dict[str, Any]:
        """The things the memory knows by these words: each with its id, kind, name and
        aliases, as the facts you may read name it. `not_found` when none."""
        return await _answer(client.entities(q, as_of=as_of))

    @server.tool()
    async def entity(
        entity_id: Annotated[str, Field(description="an id from find_entities (ent_...)")],
        as_of: Time = None,
    ) -> dict[str, Any]:
        """Everything you may read about one thing as of a time: the facts about it and the
        facts pointing at it, over the things recorded as the same (`same_as`)."""
        return await _answer(client.entity(entity_id, as_of=as_of))


def _fact_tools(server: MCPServer[Any], client: AsyncTractatus, writer: Writer) -> None:
    @server.tool()
    async def get_fact(
        subject: Subject,
        predicate: Predicate,
        as_of: Time = None,
        known_at: Time = None,
        tiers: Tiers = None,
        min_confidence: MinConfidence = None,
    ) -> dict[str, Any]:
        """The current value of a fact as of a time. `answered` with `facts`, `not_found`
        (unknown, retracted, or hidden from you), or `out_of_scope` (not a tracked predicate).
        By default it reads working memory and long-term facts (`tiers` short and long);
        `tiers: ["discarded"]` finds what end_task discarded. `scopes_disagree: true` when a
        one-valued predicate answers several values, each from another access scope you read:
        the memory holds no single answer; do not take the first, say they differ."""
        return await _answer(
            client.facts(
                subject,
                predicate,
                as_of=as_of,
                known_at=known_at,
                tiers=tiers,
                min_confidence=min_confidence,
            )
        )

    @server.tool()
    async def fact_history(
        subject: Subject, predicate: Predicate, known_at: Time = None
    ) -> dict[str, Any]:
        """Every version of a fact, oldest first: values, validity, sources, what superseded
        what. Nothing is ever overwritten."""
        return await _answer(client.history(subject, predicate, known_at=known_at))


def _assert_tool(server: MCPServer[Any], client: AsyncTractatus, writer: Writer) -> None:
    """``assert_fact``: the one tool that writes a fact by itself."""
    asserted = writer.access_field("this version")

    @server.tool()
    async def assert_fact(
        subject: Subject,
        predicate: Predicate,
        object: Annotated[str | int | float | bool | None, Field(description=OBJECT)],
        evidence: Annotated[str, Field(description="the exact words that support it")],
        expected_current: Annotated[
            str | None,
            Field(description="id of the version you believe is current, or null for none"),
        ],
        confidence: Annotated[float, Field(ge=0, le=1)],
        polarity: Annotated[bool, Field(description=POLARITY)] = True,
        source_kind: Annotated[SourceKind, Field(description=SOURCE_KIND)] = "agent_inferred",
        valid_from: Time = None,
        task_id: Annotated[str | None, Field(description=IN_TASK)] = None,
        idempotency_key: IdempotencyKey = None,
        access: list[str] | None = asserted,
    ) -> dict[str, Any]:
        """Write a new version of a fact, if `expected_current` still holds; `polarity: false`
        retracts it instead. If the fact changed meanwhile, the call fails with
        `precondition_failed` and the current version: read it, then decide. A refused value
        fails with `rejected` and the reason. Without `task_id` the fact is long-term at once.
        With `task_id` it is the task's working memory, and `end_task` keeps it only if it is
        verified (confidence 0.8 or more from user_stated, tool_returned or document: the
        server's defaults) or two independent sources support it: a fact of source_kind
        `agent_inferred` (the default) that only you wrote, such as a note of what you tried
        or decided, end_task discards it as `unverified` (`get_fact` with `tiers:
        ["discarded"]` still reads it). Keep such a note as a step (`record_event`: steps are
        never discarded) or write it without `task_id`."""
        if polarity and object is None:
            raise refused(f"object: {NEEDS_OBJECT}")
        write = client.assert_fact if polarity else client.retract
        return await writer.checked(
            access,
            _write(
                write(
                    subject,
                    predicate,
                    object,
                    source_kind=source_kind,
                    asserted_by=writer.actor,
                    confidence=confidence,
                    evidence=evidence,
                    expected_current=expected_current,
                    valid_from=valid_from,
                    access=writer.scope(access),
                    task_id=task_id,
                    idempotency_key=idempotency_key,
                )
            ),
        )


def _why_tool(server: MCPServer[Any], client: AsyncTractatus, writer: Writer) -> None:
    """``why``: a fact with the step that wrote it and that step's causes."""

    @server.tool()
    async def why(
        subject: Subject, predicate: Predicate, as_of: Time = None, known_at: Time = None
    ) -> dict[str, Any]:
        """Why a fact is what it is: the current version, the step (event) that wrote it and
        that step's causal chain back to its root."""
        return await _answer(client.why(subject, predicate, as_of=as_of, known_at=known_at))


def _written(
    wrote: list[WrittenFact] | None, writer: Writer, scope: list[str]
) -> list[dict[str, Any]]:
    """The facts a step wrote, as the assertion bodies sent with it: each asserted by this
    server's actor, readable by the step's readers unless the fact names its own."""
    return [
        assertion_body(
            f.subject,
            f.predicate,
            f.object,
            source_kind=f.source_kind,
            asserted_by=writer.actor,
            confidence=f.confidence,
            evidence=f.evidence,
            expected_current=f.expected_current,
            polarity=f.polarity,
            access=scope if f.access is None else f.access,
        )
        for f in wrote or []
    ]


def _step_tool(server: MCPServer[Any], client: AsyncTractatus, writer: Writer) -> None:
    """``record_event``: one step of a task, with the facts it wrote."""
    recorded = writer.access_field(
        "this step, its task when the step starts it, and each fact in `wrote` that names no"
        " access of its own"
    )

    @server.tool()
    async def record_event(
        task_id: Annotated[str, Field(description="the task this step belongs to")],
        action: Annotated[str, Field(description="what you did, e.g. 'pay_order'")],
        outcome: Outcome,
        caused_by: Causes = None,
        root: Annotated[bool, Field(description="true for a first step with no cause")] = False,
        before: dict[str, Any] | None = None,
        after: dict[str, Any] | None = None,
        goal: Goal = None,
        wrote: Wrote = None,
        occurred_at: Annotated[
            str | None,
            Field(
                description="when the step happened (RFC 3339 with a timezone, at most 5"
                " minutes ahead of the server's clock); omitted means now"
            ),
        ] = None,
        idempotency_key: TimedKey = None,
        access: list[str] | None = recorded,
    ) -> dict[str, Any]:
        """Record one step of your work: its state before and after, how it ended, and what
        caused it (`caused_by`) or `root: true`. Each fact in `wrote` needs
        `expected_current`, as in `assert_fact` (the id of the version you read, or null); if
        one changed meanwhile, nothing is recorded and the call fails with
        `precondition_failed` and the current version. Answers the stored event with its id
        and `replayed` (true: an `idempotency_key` answered again, nothing written)."""
        own_key_needs_time("record_event", idempotency_key, occurred_at)
        scope = writer.scope(access)
        return await writer.checked(
            access,
            _write(
                client.record_event(
                    task_id,
                    writer.actor,
                    action,
                    outcome,
                    occurred_at=occurred_at,
                    caused_by=caused_by,
                    root=root,
                    before=before,
                    after=after,
                    goal=goal,
                    access=scope,
                    assertions=_written(wrote, writer, scope),
                    idempotency_key=idempotency_key,
                )
            ),
        )


def _chain_tool(server: MCPServer[Any], client: AsyncTractatus, writer: Writer) -> None:
    """``replay_chain``: an event's causes or effects, step by step."""

    @server.tool()
    async def replay_chain(
        event_id: str,
        direction: Literal["causes", "effects"] = "causes",
        max_depth: Annotated[int | None, Field(ge=0)] = None,
    ) -> dict[str, Any]:
        """Replay the causal chain of an event, the event itself first. `causes` (default): it
        and its causes back to the root, newest first; `effects`: it and what it led to,
        oldest first. Each step with its before/after state and `depth` (hops from this
        event), and the edges between them."""
        return await _answer(client.chain(event_id, direction=direction, max_depth=max_depth))


def _task_tools(server: MCPServer[Any], client: AsyncTractatus, writer: Writer) -> None:
    """``get_task``, ``task_timeline`` and ``end_task``: a task as it stands, its steps, its
    end."""

    @server.tool()
    async def get_task(
        task_id: Annotated[str, Field(description="a task's id")], owner: Owner = None
    ) -> dict[str, Any]:
        """A task's card: `status` (open or ended), goal, times, `working_memory` (the facts
        written into it) and `counts` of its facts you may read by tier as known now (`short`
        while open; after end_task, `long` kept and `discarded`). `not_found` error when you
        may not see it."""
        return await _answer(client.task(task_id, owner=owner))

    @server.tool()
    async def task_timeline(
        task_id: Annotated[str, Field(description="a task's id")],
        owner: Owner = None,
        limit: Annotated[int | None, Field(ge=1, le=10_000)] = None,
    ) -> dict[str, Any]:
        """The steps recorded with this task id that you may read, oldest first (of `owner`'s
        task only, if given); `not_found` when none."""
        return await _answer(client.timeline(task_id, limit=limit, owner=owner))

    @server.tool()
    async def end_task(
        task_id: Annotated[str, Field(description="a task of yours whose steps are done")],
    ) -> dict[str, Any]:
        """End a task: in one step memory decides which facts written in it (its working
        memory) become long-term (`promoted`: verified and worth keeping) and which are
        discarded (ephemeral or unverified), with the reason for each. Writing into the task
        afterwards fails with `task_ended`; ending it again answers the same report."""
        return await _answer(client.end_task(task_id))


def _procedure_tool(server: MCPServer[Any], client: AsyncTractatus, writer: Writer) -> None:
    """``procedures``: how such tasks went before."""

    @server.tool()
    async def procedures(
        trigger: Annotated[
            str | None, Field(description="the first action of the tasks, e.g. 'open_order'")
        ] = None,
        action: Annotated[str | None, Field(description="an action among the steps")] = None,
        min_support: Annotated[
            int | None, Field(ge=1, le=1_000_000, description="seen in this many tasks at least")
        ] = None,
        min_success_rate: SuccessRate = None,
        known_at: Time = None,
        limit: Annotated[int | None, Field(ge=1, le=100, description="at most; default 20")] = None,
    ) -> dict[str, Any]:
        """How recurring tasks have been done before: each sequence of actions seen in several
        tasks, with how many (`support`) and how often it ended in success (`success_rate`),
        most supported first, then by success rate: a way that failed every time (success_rate
        0) is listed before one that worked if more tasks went through it. Read
        `success_rate` before you follow one; to get only the ways that worked, pass
        `min_success_rate` (e.g. 0.5, or 1 for never failed). Learned by memory's sleep from
        recorded steps; `not_found` when none is known."""
        return await _answer(
            client.procedures(
                trigger=trigger,
                action=action,
                min_support=min_support,
                min_success_rate=min_success_rate,
                known_at=known_at,
                limit=limit,
            )
        )


class BearerToken:
    """ASGI middleware: every HTTP request needs ``Authorization: Bearer <token>``; the scheme
    in any case (RFC 7235: a trial's ``bearer <token>`` was 401), the token exactly."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.expected = token.encode()

    def authorized(self, header: bytes) -> bool:
        scheme, _, token = header.partition(b" ")
        given = token.lstrip(b" ")
        return scheme.lower() == b"bearer" and secrets.compare_digest(given, self.expected)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.authorized(dict(scope["headers"]).get(b"authorization", b"")):
            await self.app(scope, receive, send)
            return
        body = b'{"error": "a valid bearer token is required"}'
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"www-authenticate", b"Bearer"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def http_app(server: MCPServer[Any], token: str, host: str) -> ASGIApp:
    """The streamable-HTTP app of ``server`` behind the bearer-token check."""
    return BearerToken(server.streamable_http_app(host=host), token)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tractatus-mcp", description=__doc__.split("\n\n")[0])
    parser.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    parser.add_argument("--host", default="127.0.0.1", help="http only; default loopback")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="http only")
    parser.add_argument(
        "--actor",
        default=os.environ.get(ACTOR_VARIABLE, DEFAULT_ACTOR),
        help=f"name written as asserted_by / actor (default ${ACTOR_VARIABLE} or {DEFAULT_ACTOR})",
    )
    parser.add_argument(
        "--access",
        default=os.environ.get(ACCESS_VARIABLE),
        metavar="GROUPS",
        help=f"REQUIRED (or ${ACCESS_VARIABLE}): who may read what the tools write when a call"
        " names no access of its own: a comma list of groups of the key (team-a,team-b), or"
        f" '{PUBLIC}': EVERY principal of the server reads it. It refuses to start without one",
    )
    return parser


def _http_token(key: str) -> str:
    token = os.environ.get(TOKEN_VARIABLE, "")
    if len(token) < 24:
        raise ValueError(f"the http transport needs {TOKEN_VARIABLE} (at least 24 characters)")
    if any(c.isspace() for c in token):
        # a header's value is trimmed in transit: " <token> " could never be sent (a trial)
        raise ValueError(f"{TOKEN_VARIABLE} must not hold spaces or other whitespace")
    if token == key:
        raise ValueError(f"{TOKEN_VARIABLE} must not be the Tractatus API key")
    return token


async def _serve(
    args: argparse.Namespace, url: str, key: str, token: str | None, access: tuple[str, ...]
) -> None:
    import uvicorn

    async with http_client() as http, AsyncTractatus(url, key, http_client=http) as client:
        server = build_server(client, access=access, actor=args.actor)
        if token is None:
            await server.run_stdio_async()
            return
        config = uvicorn.Config(
            http_app(server, token, args.host), host=args.host, port=args.port, log_level="info"
        )
        await uvicorn.Server(config).serve()


def started(access: Sequence[str]) -> str:
    """What it says on start: who reads its writes and, for groups, that they must be the
    key's. It cannot check them: no route of the server tells a key its groups, and a
    write sent to find out would be written, or refused and quarantined (docs/mcp.md)."""
    said = f"writes are readable by {readers(access)}"
    if not access:
        return said
    return (
        f"{said}; the key's principal must be in each of these groups (not checked here: the"
        " server tells no key its groups), else every write that names no access of its own"
        " is refused (rejected: access_not_allowed) and quarantined"
    )


REQUEST_LOGGERS = ("httpx", "httpcore")


def quiet_request_logs() -> None:
    """The requests it sends are not logged: the SDK sets the root logger to INFO, at which
    httpx logs each request's URL with its query string (subjects, predicates, task ids), and
    an MCP host keeps the server's stderr (an agent builder's trial). Their warnings and
    errors still are."""
    for name in REQUEST_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        access = default_access(args.access)
        url, key = _http.from_env(None, None)
        token = _http_token(key) if args.transport == "http" else None
    except ValueError as error:
        print(f"tractatus-mcp: {error}", file=sys.stderr)
        return 2
    print(f"tractatus-mcp: {started(access)}", file=sys.stderr)
    quiet_request_logs()
    anyio.run(functools.partial(_serve, args, url, key, token, access))
    return 0


if __name__ == "__main__":
    sys.exit(main())
