"""The observation write path: observation -> distiller -> gate -> embeddings -> writer.

One call takes a batch of raw observation bodies (a single POST is a batch of one) and
returns one outcome per body, in order:

1. Each body is validated as :class:`ObservationIn`; a refused body is quarantined (422).
2. Idempotency: the key is scoped by the principal (``principal id + "\\x1f" + key``). A scope
   already stored replays its first response (``replayed: true``) and writes nothing.
3. Distillation; a distiller that fails (``DistillationFailed``) gets the observation
   quarantined with its reason (422).
4. Each draft is filled from the observation into an assertion write body and checked by the
   gate. Refused drafts are quarantined one by one and listed; accepted ones go on.
5. Embeddings of the accepted assertions, in one batch, before any transaction opens.
6. ONE write transaction: the Observation nodes (MERGE on the unique idempotency scope, so a
   racing twin waits and then replays the winner), the writer's tasks the new observations
   name (:func:`ingest.lifecycle.tasks.enter_tasks`; an ended one refuses its observation
   with 409 ``task_ended``), the accepted assertions through
   :func:`ingest.writer.write_in_tx`, the refused drafts' Quarantine nodes and the stored
   response. If a batch transaction fails with a domain error, each observation is retried
   in its own transaction so one bad item cannot sink the others.
7. The recall passages of the stored observations (:func:`ingest.passages.settle`), in a
   second transaction, before the write answers: an observation is fully searchable when its
   write returns. If the store fails between 6 and 7, the write answers an error and its
   retry (the same idempotency key) replays the stored response and writes the passages.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from neo4j import Driver, ManagedTransaction

from graph_schema.core.errors import TractatusError
from graph_schema.core.timeutil import new_id, parse_rfc3339, utcnow, with_rfc3339
from graph_schema.core.types import Principal
from graph_schema.ledger.types import AssertionWrite
from graph_schema.lifecycle.rules import DEFAULT_BOUND
from graph_schema.observations import cypher as observations_cypher
from graph_schema.observations.types import ObservationIn, ObservationWritten, QuarantinedDraft
from graph_schema.quarantine import cypher as quarantine_cypher
from graph_schema.quarantine.retention import prune
from graph_schema.quarantine.types import Retention
from graph_schema.schema.ontology import predicate_map
from graph_schema.schema.types import Predicate
from ingest import gate, idempotency, passages, writer
from ingest.distill.base import BatchDistiller, Distiller, Draft, distilled_with
from ingest.distill.dates import offset_of
from ingest.distill.llm import DistillationFailed
from ingest.embeddings.model import Embedder
from ingest.embeddings.texts import embed_items
from ingest.lifecycle.tasks import TaskWrite, enter_tasks
from ingest.metrics import DISTILL_SECONDS, GATE_QUARANTINED

ORIGIN = "observations"
DRAFT_KEYS = frozenset(
    {
        "subject",
        "predicate",
        "object",
        "polarity",
        "confidence",
        "quote",
        "start",
        "end",
        "valid_from",
    }
)
_DRAFT_FIELDS = ("subject", "predicate", "object", "polarity", "confidence")
_EVIDENCE_FIELDS = ("quote", "start", "end")


Outcome = ObservationWritten | TractatusError


@dataclass
class _Plan:
    index: int
    obs: ObservationIn
    scope: str | None
    digest: str
    observation_id: str = field(default_factory=new_id)
    accepted: list[AssertionWrite] = field(default_factory=list)
    rejections: list[gate.Rejection] = field(default_factory=list)
    prepared: list[writer.Prepared] = field(default_factory=list)


@dataclass(frozen=True)
class Context:
    """What the path needs besides the bodies: store, caller, distiller, embedder, policy."""

    driver: Driver
    database: str
    principal: Principal
    distiller: Distiller
    embedder: Embedder | None
    ontology: dict[str, Predicate]
    retention: Retention
    retain_raw_text: bool = True
    working_memory_bound: int = DEFAULT_BOUND
    max_future: timedelta = gate.DEFAULT_MAX_FUTURE


def request_digest(obs: ObservationIn) -> str:
    return idempotency.request_digest(obs.model_dump(mode="json"))


# --- 1. validation ----------------------------------------------------------------------------


def _validate(raw: Any, index: int, ctx: Context) -> ObservationIn | gate.Rejection:
    return gate.check_record(
        ObservationIn, raw, index=index, principal=ctx.principal, max_future=ctx.max_future
    )


# --- 2. idempotency ---------------------------------------------------------------------------


def _replay(plan: _Plan, digest: str | None, response: str | None) -> Outcome:
    if digest != plan.digest:
        return idempotency.different_request(plan.obs.idempotency_key, "observation")
    if response is None:
        return TractatusError("the stored observation has no response to replay")
    return ObservationWritten.model_validate({**json.loads(response), "replayed": True})


def _stored(ctx: Context, scopes: list[str]) -> dict[str, tuple[str | None, str | None]]:
    if not scopes:
        return {}
    records, _, _ = ctx.driver.execute_query(
        observations_cypher.FIND_OBSERVATIONS_BY_SCOPE,
        scopes=scopes,
        database_=ctx.database,
        routing_="r",
    )
    return {r["scope"]: (r["request_sha256"], r["response"]) for r in records}


# --- 3-4. distillation and the gate -----------------------------------------------------------


def fill_draft(draft: dict[str, Any], obs: ObservationIn, observation_id: str) -> dict[str, Any]:
    """An untrusted draft plus what the observation supplies -> an assertion write body."""
    body: dict[str, Any] = {k: draft[k] for k in _DRAFT_FIELDS if k in draft}
    evidence: dict[str, Any] = {k: draft[k] for k in _EVIDENCE_FIELDS if k in draft}
    evidence.update(
        source_text=obs.text,
        observation_id=observation_id,
        speaker=obs.speaker,
        occurred_at=obs.occurred_at,
    )
    valid_from = draft.get("valid_from")
    body.update(
        valid_from=obs.occurred_at if valid_from is None else valid_from,
        source_kind=obs.source_kind.value,
        asserted_by=obs.speaker,
        access=list(obs.access),
        evidence=evidence,
    )
    if obs.task_id is not None:
        body["task_id"] = obs.task_id
    return body


def _distill_all(ctx: Context, plans: list[_Plan]) -> list[list[Draft] | None]:
    """Drafts of every plan at once when the distiller reads a batch in one pass (the offline
    one parses all the English sentences of a request together); None: distil one by one."""
    if not plans or not isinstance(ctx.distiller, BatchDistiller):
        return [None] * len(plans)
    started = time.perf_counter()
    try:
        return list(ctx.distiller.distill_many([p.obs for p in plans]))
    finally:
        DISTILL_SECONDS.labels(distiller=ctx.distiller.name).inc(time.perf_counter() - started)


def _distill(
    ctx: Context, plan: _Plan, raw: Any, drafts: list[Draft] | None = None
) -> TractatusError | None:
    started = time.perf_counter()
    try:
        if drafts is None:
            drafts = ctx.distiller.distill(plan.obs, predicates=list(ctx.ontology.values()))
    except DistillationFailed as error:  # quarantine the observation with the model's reply
        payload = {"observation": raw, "model_reply": error.details.get("raw", "")}
        rejection = gate.Rejection(plan.index, error.reason, error.message, payload)
        return gate.refuse(
            ctx.driver,
            database=ctx.database,
            rejections=[rejection],
            origin=ORIGIN,
            principal=ctx.principal,
            retention=ctx.retention,
        )
    finally:
        DISTILL_SECONDS.labels(distiller=ctx.distiller.name).inc(time.perf_counter() - started)
    plan.accepted, plan.rejections = check_drafts(
        drafts, plan.obs, plan.observation_id, ontology=ctx.ontology, principal=ctx.principal
    )
    return None


def check_drafts(
    drafts: list[Any],
    obs: ObservationIn,
    observation_id: str,
    *,
    ontology: dict[str, Predicate],
    principal: Principal,
) -> tuple[list[AssertionWrite], list[gate.Rejection]]:
    """Each draft filled from its observation and checked by the gate: accepted writes and
    rejections (by the draft's index)."""
    accepted: list[AssertionWrite] = []
    rejections: list[gate.Rejection] = []
    for index, draft in enumerate(drafts):
        checked = _check_draft(index, draft, obs, observation_id, ontology, principal)
        if isinstance(checked, gate.Rejection):
            rejections.append(checked)
        else:
            accepted.append(checked)
    return accepted, rejections


def _check_draft(
    index: int,
    draft: Any,
    obs: ObservationIn,
    observation_id: str,
    ontology: dict[str, Predicate],
    principal: Principal,
) -> AssertionWrite | gate.Rejection:
    if not isinstance(draft, dict):
        return gate.Rejection(index, "invalid", "a draft must be a JSON object", draft)
    extra = sorted(set(draft) - DRAFT_KEYS)
    if extra:
        # source, speaker, access, task and preconditions come from the observation only
        return gate.Rejection(index, "unknown_field", f"{extra[0]}: drafts may not set it", draft)
    body = fill_draft(draft, obs, observation_id)
    return gate.check_item(body, index=index, ontology=ontology, principal=principal)


WITHHELD = "retraction_mismatch"  # the reason of a draft the writer did not write


def withhold(
    accepted: list[AssertionWrite],
    rejections: list[gate.Rejection],
    withheld: list[tuple[writer.Prepared, str]],
) -> int:
    """Add to ``rejections`` the accepted drafts the writer did not write (a one-valued
    retraction naming a value while another holds), by their draft's index; how many of
    ``accepted`` were written. Those of an earlier attempt of the same transaction (a retry
    after a transient error) are replaced, never added twice."""
    rejections[:] = [r for r in rejections if r.reason != WITHHELD]
    refused = {r.index for r in rejections}
    indices = [i for i in range(len(accepted) + len(rejections)) if i not in refused]
    mine = {id(item): index for item, index in zip(accepted, indices, strict=True)}
    for p, why in withheld:
        if id(p.item) in mine:
            payload = p.item.model_dump(mode="json", exclude_none=True)
            rejections.append(gate.Rejection(mine[id(p.item)], WITHHELD, why, payload))
    rejections.sort(key=lambda r: r.index)
    return len(accepted) - sum(1 for p, _ in withheld if id(p.item) in mine)


# --- 5. embeddings ----------------------------------------------------------------------------


def _prepare(ctx: Context, plans: list[_Plan]) -> None:
    items = [item for plan in plans for item in plan.accepted]
    vectors = embed_items(ctx.embedder, items)
    at = 0
    for plan in plans:
        n = len(plan.accepted)
        plan.prepared = writer.prepare(
            plan.accepted,
            ontology=ctx.ontology,
            embeddings=list(vectors[at : at + n]),
            default_valid_from=parse_rfc3339(plan.obs.occurred_at),
        )
        at += n


# --- 6. the write transaction -----------------------------------------------------------------


def _props(plan: _Plan, ctx: Context, received_at: datetime) -> dict[str, Any]:
    obs = plan.obs
    return {
        "id": plan.observation_id,
        "kind": obs.kind,
        "speaker": obs.speaker,
        "occurred_at": parse_rfc3339(obs.occurred_at),
        "occurred_offset": offset_of(obs.occurred_at),
        "received_at": received_at,
        "source_kind": obs.source_kind.value,
        "sha256": hashlib.sha256(obs.text.encode("utf-8")).hexdigest(),
        "chars": len(obs.text),
        "text": obs.text if ctx.retain_raw_text else None,
        "request_sha256": plan.digest,
        "idempotency_scope": plan.scope,
        "idempotency_key": obs.idempotency_key,
        "conversation_id": obs.conversation_id,
        "task_id": obs.task_id,
        "access": list(obs.access),
        "submitted_by": ctx.principal.id,
        "distiller": ctx.distiller.name,
        "distilled_with": distilled_with(ctx.distiller),
    }


def _quarantine_rows(plan: _Plan, ctx: Context, received_at: datetime) -> list[dict[str, Any]]:
    return [
        {
            "id": new_id(),
            "received_at": received_at,
            "reason": r.reason,
            "message": r.message,
            "payload": json.dumps(r.payload, ensure_ascii=False, sort_keys=True, default=str)[
                : gate.MAX_QUARANTINED_PAYLOAD_CHARS
            ],
            "origin": ORIGIN,
            "submitted_by": ctx.principal.id,
            "item_index": r.index,
            "observation_id": plan.observation_id,
        }
        for r in plan.rejections
    ]


def _create_nodes(
    tx: ManagedTransaction, plans: list[_Plan], ctx: Context, received_at: datetime
) -> list[Any]:
    keyed = sorted((p for p in plans if p.scope is not None), key=lambda p: p.scope or "")
    plain = [p for p in plans if p.scope is None]
    records: list[Any] = []
    steps = (
        (observations_cypher.MERGE_OBSERVATIONS, keyed),
        (observations_cypher.CREATE_OBSERVATIONS, plain),
    )
    for statement, group in steps:
        if group:
            rows = [
                {
                    "index": p.index,
                    "props": with_rfc3339(
                        _props(p, ctx, received_at), observations_cypher.OBSERVATION_TIMES
                    ),
                }
                for p in group
            ]
            records.extend(tx.run(statement, rows=rows))
    return records


def _task_writes(created: list[_Plan]) -> dict[str, TaskWrite]:
    """The tasks the new observations name (the first one's access starts a task), with the
    working assertions each receives."""
    tasks: dict[str, TaskWrite] = {}
    for plan in created:
        task_id = plan.obs.task_id
        if task_id is not None:
            first = tasks.get(task_id) or TaskWrite(task_id, tuple(plan.obs.access))
            tasks[task_id] = replace(first, working=first.working + len(plan.prepared))
    return tasks


def _write(tx: ManagedTransaction, plans: list[_Plan], ctx: Context) -> dict[int, Outcome]:
    received_at = utcnow()
    by_index = {p.index: p for p in plans}
    outcomes: dict[int, Outcome] = {}
    created: list[_Plan] = []
    for record in _create_nodes(tx, plans, ctx, received_at):
        plan = by_index[record["index"]]
        if record["created"]:
            created.append(plan)
        else:
            outcomes[plan.index] = _replay(plan, record["request_sha256"], record["response"])
    created.sort(key=lambda p: p.index)
    working = enter_tasks(tx, ctx.principal, _task_writes(created), bound=ctx.working_memory_bound)
    prepared = [p for plan in created for p in plan.prepared]
    withheld: list[tuple[writer.Prepared, str]] = []
    results = (
        writer.write_in_tx(
            tx, prepared, principal=ctx.principal, working=working, withheld=withheld
        )
        if prepared
        else []
    )
    quarantine: list[dict[str, Any]] = []
    responses: list[dict[str, str]] = []
    at = 0
    for plan in created:
        kept = withhold(plan.accepted, plan.rejections, withheld)
        chunk = results[at : at + kept]
        at += kept
        rows = _quarantine_rows(plan, ctx, received_at)
        quarantine.extend(rows)
        memory = working.get(plan.obs.task_id or "")
        result = ObservationWritten(
            observation_id=plan.observation_id,
            assertions=chunk,
            quarantined=[
                QuarantinedDraft(**rej.public(), quarantine_id=row["id"])
                for rej, row in zip(plan.rejections, rows, strict=True)
            ],
            working_memory=memory,
        )
        outcomes[plan.index] = result
        stored = result.model_dump_json(exclude={"replayed"})
        responses.append({"id": plan.observation_id, "response": stored})
    if quarantine:
        tx.run(quarantine_cypher.CREATE_QUARANTINE, items=quarantine).consume()
    if responses:
        tx.run(observations_cypher.SET_OBSERVATION_RESPONSES, rows=responses).consume()
    return outcomes


def _count(plans: list[_Plan], outcomes: dict[int, Outcome]) -> None:
    accepted = 0
    for plan in plans:
        outcome = outcomes.get(plan.index)
        if isinstance(outcome, ObservationWritten) and not outcome.replayed:
            accepted += len(plan.prepared)
            for r in plan.rejections:
                GATE_QUARANTINED.labels(origin=ORIGIN, reason=r.reason).inc()
    if accepted:
        gate.count_accepted(ORIGIN, accepted)


def _write_all(ctx: Context, plans: list[_Plan]) -> dict[int, Outcome]:
    if not plans:
        return {}
    with ctx.driver.session(database=ctx.database) as session:
        try:
            outcomes = session.execute_write(_write, plans, ctx)
        except TractatusError as error:
            if len(plans) == 1:
                return {plans[0].index: error}
            outcomes = {}
            for plan in plans:  # isolate the failing observation
                try:
                    outcomes.update(session.execute_write(_write, [plan], ctx))
                except TractatusError as single:
                    outcomes[plan.index] = single
    _count(plans, outcomes)
    return outcomes


# --- the whole path ---------------------------------------------------------------------------


def write_observations(
    driver: Driver,
    *,
    database: str,
    raw_items: list[Any],
    principal: Principal,
    distiller: Distiller,
    embedder: Embedder | None,
    retain_raw_text: bool,
    retention: Retention,
    working_memory_bound: int = DEFAULT_BOUND,
    max_future: timedelta = gate.DEFAULT_MAX_FUTURE,
) -> list[Outcome]:
    """``POST /v1/observations``: one outcome per raw body, in order (see the module doc)."""
    ctx = Context(
        driver=driver,
        database=database,
        principal=principal,
        distiller=distiller,
        embedder=embedder,
        ontology=predicate_map(driver, database=database),
        retention=retention,
        retain_raw_text=retain_raw_text,
        working_memory_bound=working_memory_bound,
        max_future=max_future,
    )
    return ingest_observations(ctx, raw_items)


def ingest_observations(ctx: Context, raw_items: list[Any]) -> list[Outcome]:
    """Run each body through the path; one outcome per body, in order (see module doc)."""
    outcomes: dict[int, Outcome] = {}
    plans: list[_Plan] = []
    raw_by_index = dict(enumerate(raw_items))
    for index, raw in raw_by_index.items():
        checked = _validate(raw, index, ctx)
        if isinstance(checked, gate.Rejection):
            outcomes[index] = gate.refuse(
                ctx.driver,
                database=ctx.database,
                rejections=[checked],
                origin=ORIGIN,
                principal=ctx.principal,
                retention=ctx.retention,
            )
            continue
        scope = idempotency.idempotency_scope(ctx.principal, checked.idempotency_key)
        plans.append(_Plan(index, checked, scope, request_digest(checked)))
    stored = _stored(ctx, sorted({p.scope for p in plans if p.scope is not None}))
    first_of: dict[str, _Plan] = {}
    twins: dict[int, _Plan] = {}
    fresh: list[_Plan] = []
    for plan in plans:
        if plan.scope in stored:
            outcomes[plan.index] = _replay(plan, *stored[plan.scope])
        elif plan.scope is not None and plan.scope in first_of:
            twins[plan.index] = first_of[plan.scope]
        else:
            if plan.scope is not None:
                first_of[plan.scope] = plan
            fresh.append(plan)
    todo: list[_Plan] = []
    for plan, drafts in zip(fresh, _distill_all(ctx, fresh), strict=True):
        failed = _distill(ctx, plan, raw_by_index[plan.index], drafts)
        if failed is None:
            todo.append(plan)
        else:
            outcomes[plan.index] = failed
    _prepare(ctx, todo)
    outcomes.update(_write_all(ctx, todo))
    _settle_passages(ctx, outcomes)
    if any(plan.rejections for plan in todo):  # refused drafts were quarantined in the write
        prune(ctx.driver, database=ctx.database, retention=ctx.retention, now=utcnow())
    by_index = {p.index: p for p in plans}
    for index, first in twins.items():
        outcomes[index] = _twin(outcomes[first.index], first, by_index[index])
    return [outcomes[i] for i in range(len(raw_items))]


def _settle_passages(ctx: Context, outcomes: dict[int, Outcome]) -> None:
    """Step 7: the recall passages of the stored observations (a replay too: a write whose
    passages were cut off by a failure gets them on its retry), before the write answers."""
    ids = [o.observation_id for o in outcomes.values() if isinstance(o, ObservationWritten)]
    passages.settle(ctx.driver, database=ctx.database, embedder=ctx.embedder, observation_ids=ids)


def _twin(first: Outcome, first_plan: _Plan, plan: _Plan) -> Outcome:
    """A repeat of a key inside one batch: the first one's result, replayed."""
    if isinstance(first, TractatusError):
        return first
    if plan.digest != first_plan.digest:
        return _replay(plan, first_plan.digest, None)
    return first.model_copy(update={"replayed": True})
