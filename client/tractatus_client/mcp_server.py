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

A failed call (a 409 precondition, a refused write, an unknown event) reaches the agent as a
tool error carrying the server's code and message; the MCP server itself keeps running.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import secrets
import sys
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, InputRequiredResult
from mcp.types import Tool as MCPTool
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from starlette.types import ASGIApp, Receive, Scope, Send

from tractatus_client import _http
from tractatus_client._calls import assertion_body
from tractatus_client.aio import AsyncTractatus
from tractatus_client.errors import (
    InvalidArgument,
    PreconditionFailed,
    SecretDetected,
    TractatusError,
)

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
seen in several of them and how often each succeeded. Facts written with a task's steps (or
by `assert_fact` with its `task_id`) are its working memory: when the task is done, `end_task`
keeps those worth keeping and discards the rest, with the reason for each."""

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

    def access_field(self, what: str) -> Any:
        """The ``access`` argument of a write tool, its description naming the default."""
        return Field(
            default=None,
            description=f"the groups that may read {what}: names of groups your key belongs to,"
            f" [] for every principal; omitted: this server's default, {readers(self.access)}",
        )


class StrictServer(MCPServer[Any]):
    """The SDK's server, refusing an argument a tool does not declare. The SDK drops it
    without a word (its argument models ignore unknown fields and it has no option to refuse
    them): an agent's `access` was dropped and its text written public (a new user's
    security review). Each tool's input schema says so: ``additionalProperties: false``."""

    async def list_tools(self) -> list[MCPTool]:
        tools = await super().list_tools()
        return [
            t.model_copy(update={"input_schema": {**t.input_schema, "additionalProperties": False}})
            for t in tools
        ]

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        declared = {
            t.name: t.input_schema.get("properties", {}) for t in await super().list_tools()
        }
        if name in declared:
            unknown = [argument for argument in arguments if argument not in declared[name]]
            if unknown:
                raise ToolError(
                    f"invalid_argument: {name} has no argument {', '.join(map(repr, unknown))};"
                    f" its arguments are {', '.join(declared[name])} (nothing was sent)"
                )
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as error:
            # the SDK's refusal of the arguments (its own way of telling it from a tool's
            # failure): pydantic's text, with the value sent and a URL, becomes ours
            cause = error.__cause__
            if isinstance(error, UnexpectedToolError) or not isinstance(cause, ValidationError):
                raise
            raise ToolError(argument_problems(name, cause, declared.get(name, {}))) from cause


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
    """The one form of a refused argument, ``invalid_argument: TOOL: WHERE: RULE``, for each
    problem: pydantic's own text named its model (``assert_factArguments``), echoed the value
    sent and a URL, where an agent reads an undeclared argument's refusal as
    ``invalid_argument: ...`` (a new user's trial). A union's members, tried one by one, are
    one problem: "Input should be a valid string or a valid integer ..."."""
    rules: dict[str, list[str]] = {}
    for problem in error.errors(include_url=False, include_input=False):
        rule = _rule(problem, declared)
        said = rules.setdefault(_where(problem["loc"]), [])
        if rule not in said:
            said.append(rule)
    listed = [f"{where}: {_or(said)}" for where, said in rules.items()]
    return f"invalid_argument: {tool}: {'; '.join(listed)} (nothing was sent)"


def _or(rules: list[str]) -> str:
    """``Input should be a valid string``, ``Input should be a valid integer`` as one rule."""
    head = "Input should be "
    if len(rules) > 1 and all(rule.startswith(head) for rule in rules):
        return head + " or ".join(rule.removeprefix(head) for rule in rules)
    return "; ".join(rules)


def tool_message(error: TractatusError) -> str:
    """What the agent reads when a call fails: the server's code and message (and, for a
    precondition failure, the version that is current now)."""
    text = f"{error.code}: {error.message}"
    if isinstance(error, PreconditionFailed):
        current = error.current
        brief = {k: current.get(k) for k in ("id", "object", "valid_from")} if current else None
        text += f"; current version: {json.dumps(brief)}"
    if error.details.get("rejections"):
        text += f"; rejections: {json.dumps(error.details['rejections'])}"
    if isinstance(error, SecretDetected) and error.secrets:
        text += f"; secrets: {json.dumps(_secrets(error))}"
        if error.count > len(error.secrets):
            text += f" (the first {len(error.secrets)} of {error.count})"
    return text


def _secrets(error: SecretDetected) -> list[dict[str, Any]]:
    """Each secret of a ``secret_detected`` as the server names it, ``{field, kind}`` (never
    its value): the message names only the first ("and 2 more"), and an agent removing them
    one refusal at a time sent the write again for each (a new user's trial)."""
    return [{"field": s.get("field"), "kind": s.get("kind")} for s in error.secrets]


async def _answer(call: Awaitable[BaseModel]) -> dict[str, Any]:
    """The answer as JSON, or a tool error with the server's message (or the client's, for an
    argument it refused before sending: the SDK's own text named no reason)."""
    try:
        answer = await call
    except TractatusError as error:
        raise ToolError(tool_message(error)) from error
    except InvalidArgument as error:
        raise ToolError(f"invalid_argument: {error} (nothing was sent)") from error
    return answer.model_dump(mode="json", by_alias=True)


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
    public) unless a call names its own."""
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
    ):
        register(server, client, writer)
    return server


def _memory_tools(server: MCPServer[Any], client: AsyncTractatus, writer: Writer) -> None:
    observed = writer.access_field("the text and the facts drawn from it")

    @server.tool()
    async def remember(
        text: Annotated[str, Field(description="what was said or seen, verbatim")],
        speaker: Annotated[str | None, Field(description="who said it; default: you")] = None,
        source_kind: SourceKind = "user_stated",
        conversation_id: str | None = None,
        occurred_at: Time = None,
        access: list[str] | None = observed,
    ) -> dict[str, Any]:
        """Store an observation (raw text). The memory distils it into facts through its
        gate and answers with the facts it wrote and the drafts it refused (quarantined)."""
        return await _answer(
            client.observe(
                text,
                speaker=speaker or writer.actor,
                source_kind=source_kind,
                conversation_id=conversation_id,
                occurred_at=occurred_at,
                access=writer.scope(access),
            )
        )

    @server.tool()
    async def recall(
        query: Annotated[str, Field(description="a question or keywords")],
        k: Annotated[int, Field(ge=1, le=100)] = 10,
        as_of: Time = None,
        known_at: Time = None,
        conversation_id: str | None = None,
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
        `reference_number` for a booking, invoice or other reference none of them gives."""
        filters = {"conversation_id": conversation_id} if conversation_id else None
        return await _answer(
            client.recall(query, k=k, as_of=as_of, known_at=known_at, filters=filters)
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
        subject: Subject, predicate: Predicate, as_of: Time = None, known_at: Time = None
    ) -> dict[str, Any]:
        """The current value of a fact as of a time. `answered` with `facts`, `not_found`
        (unknown, retracted, or hidden from you), or `out_of_scope` (not a tracked predicate)."""
        return await _answer(client.facts(subject, predicate, as_of=as_of, known_at=known_at))

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
        source_kind: SourceKind = "agent_inferred",
        valid_from: Time = None,
        task_id: Annotated[str | None, Field(description=IN_TASK)] = None,
        access: list[str] | None = asserted,
    ) -> dict[str, Any]:
        """Write a new version of a fact, if `expected_current` still holds; `polarity: false`
        retracts it instead. If the fact changed meanwhile, the call fails with
        `precondition_failed` and the current version: read it, then decide. A refused value
        fails with `rejected` and the reason."""
        if polarity and object is None:
            raise ToolError(f"invalid_argument: object: {NEEDS_OBJECT} (nothing was sent)")
        write = client.assert_fact if polarity else client.retract
        return await _answer(
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
            )
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
        access: list[str] | None = recorded,
    ) -> dict[str, Any]:
        """Record one step of your work: its state before and after, how it ended, and what
        caused it (`caused_by`) or `root: true`. Each fact in `wrote` needs
        `expected_current`, as in `assert_fact` (the id of the version you read, or null); if
        one changed meanwhile, nothing is recorded and the call fails with
        `precondition_failed` and the current version. Answers the stored event with its id."""
        scope = writer.scope(access)
        return await _answer(
            client.record_event(
                task_id,
                writer.actor,
                action,
                outcome,
                caused_by=caused_by,
                root=root,
                before=before,
                after=after,
                goal=goal,
                access=scope,
                assertions=_written(wrote, writer, scope),
            )
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
    """``end_task`` and ``procedures``: a task's end, and how such tasks went before."""

    @server.tool()
    async def end_task(
        task_id: Annotated[str, Field(description="a task of yours whose steps are done")],
    ) -> dict[str, Any]:
        """End a task: in one step memory decides which facts written in it (its working
        memory) become long-term (`promoted`: verified and worth keeping) and which are
        discarded (ephemeral or unverified), with the reason for each. Writing into the task
        afterwards fails with `task_ended`; ending it again answers the same report."""
        return await _answer(client.end_task(task_id))

    @server.tool()
    async def procedures(
        trigger: Annotated[
            str | None, Field(description="the first action of the tasks, e.g. 'open_order'")
        ] = None,
        action: Annotated[str | None, Field(description="an action among the steps")] = None,
        min_success_rate: Annotated[float, Field(ge=0, le=1)] = 0.0,
    ) -> dict[str, Any]:
        """How recurring tasks have been done before: each sequence of actions seen in several
        tasks, with how many (`support`) and how often it ended in success (`success_rate`),
        most supported first. Learned by memory's sleep from recorded steps; `not_found` when
        none is known."""
        return await _answer(
            client.procedures(trigger=trigger, action=action, min_success_rate=min_success_rate)
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

    async with AsyncTractatus(url, key) as client:
        server = build_server(client, access=access, actor=args.actor)
        if token is None:
            await server.run_stdio_async()
            return
        config = uvicorn.Config(
            http_app(server, token, args.host), host=args.host, port=args.port, log_level="info"
        )
        await uvicorn.Server(config).serve()


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        access = default_access(args.access)
        url, key = _http.from_env(None, None)
        token = _http_token(key) if args.transport == "http" else None
    except ValueError as error:
        print(f"tractatus-mcp: {error}", file=sys.stderr)
        return 2
    print(f"tractatus-mcp: writes are readable by {readers(access)}", file=sys.stderr)
    anyio.run(functools.partial(_serve, args, url, key, token, access))
    return 0


if __name__ == "__main__":
    sys.exit(main())
