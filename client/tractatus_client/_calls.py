"""What each method sends and what it expects back, shared by the sync and async clients.

A :class:`Call` is one request: method, path, query, body, the model of its answer and whether
it is idempotent (only idempotent calls are retried). The builders below are the only place a
method's request is put together; ``Tractatus`` and ``AsyncTractatus`` only run them.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any, Generic, TypeVar
from urllib.parse import quote

from pydantic import BaseModel

from tractatus_client import models
from tractatus_client.errors import InvalidArgument

T = TypeVar("T")
Time = datetime | str


class Unset:
    """The marker of an argument not given (``None`` is a value: "expect the slot empty")."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET = Unset()


@dataclass(frozen=True)
class Call(Generic[T]):
    method: str
    path: str
    model: type[BaseModel]
    params: dict[str, Any] = field(default_factory=dict)
    body: Any = None
    idempotent: bool = False
    unwrap: str | None = None  # answer is model(**json)[unwrap] (batches: "results")
    headers: dict[str, str] = field(default_factory=dict)
    replayable: bool = False  # a keyed write: its answer may be a replay

    def parse(self, payload: Any, *, replayed: bool = False) -> T:
        """The answer as its model; for a keyed write, each write result in it says whether it
        was replayed (``replayed``: the answer's ``Idempotent-Replayed: true``)."""
        parsed: Any = self.model.model_validate(payload)
        if self.replayable:
            models.mark_replayed(parsed, replayed)
        value: T = getattr(parsed, self.unwrap) if self.unwrap else parsed
        return value


def time_text(value: Time | None) -> str | None:
    """RFC 3339 text of a time; a naive datetime is refused (the server would refuse it too)."""
    if value is None or isinstance(value, str):
        return value
    if not isinstance(value, datetime):  # a date is no instant ("as of that day": when?)
        raise TypeError(_not_a_time(value))
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError("naive datetime: give it a timezone (e.g. datetime.now(UTC))")
    return value.isoformat()


def _not_a_time(value: Any) -> str:
    return (
        f"a time is a datetime with a timezone or RFC 3339 text, not {type(value).__name__}"
        " (for a day, datetime(2024, 3, 15, tzinfo=UTC))"
    )


def now_text() -> str:
    return datetime.now(UTC).isoformat()


def new_idempotency_key() -> str:
    return f"tc-{uuid.uuid4().hex}"


def _query(**values: Any) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


def _segment(value: str) -> str:
    return quote(value, safe="")


NOT_JSON_NUMBER = (
    "is not a number JSON can carry (JSON has no NaN or infinity, and a number beyond a"
    " double's range, such as 1e400, reads as infinity): send a finite number, or the value"
    " as text"
)


def check_finite(body: Any) -> None:
    """Refuse a body holding a float that is NaN or infinite before it is sent, naming where
    (``after.x``): JSON cannot carry one (an MCP agent's ``1e400`` arrives as infinity), and
    the serialiser's own error said neither where nor why (a new agent developer's trial).
    The check of :func:`json_body`, which every request body passes before it is sent."""
    json_body(body)


# the fields of a body that hold an instant (assertions, evidence, observations, events,
# recall, sleep): a date there is refused as the keyword argument refuses it
TIME_FIELDS = frozenset({"valid_from", "valid_to", "occurred_at", "as_of", "known_at", "now"})


def _json_value(value: Any, where: str, field: Any) -> Any:
    """One leaf of a body as JSON carries it: a datetime as RFC 3339 text (with a timezone:
    a naive one is refused), a date as ``YYYY-MM-DD`` (but not in a time field, where it is
    no instant), a non-finite float refused; anything else as it is."""
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidArgument(f"{where or 'the body'}: {value} {NOT_JSON_NUMBER}")
    if isinstance(value, datetime):
        try:
            return time_text(value)
        except ValueError as error:  # a naive datetime
            raise InvalidArgument(f"{where or 'the body'}: {error}") from None
    if isinstance(value, date):
        if field in TIME_FIELDS:  # refused as the keyword argument refuses it
            raise TypeError(f"{where}: {_not_a_time(value)}")
        return value.isoformat()
    return value


def json_body(body: Any) -> Any:
    """``body`` as it is sent, checked and converted without recursion (state may be deep): a
    copy with every ``datetime`` (and ``date``) written as text (:func:`_json_value`), mappings
    and lists copied, the caller's own left as they were. A datetime inside a body
    (``assert_facts``, ``observe([...])``, ``record_event(assertions=...)``) raised the
    serialiser's bare "Object of type datetime is not JSON serializable" while the same
    datetime as a keyword argument was sent (a new user's trial); the sync and async clients
    both send every body through here."""
    root: list[Any] = [None]
    stack: list[tuple[Any, str, Any, Any]] = [(body, "", root, 0)]
    while stack:
        value, where, parent, key = stack.pop()
        if isinstance(value, Mapping):
            out: dict[Any, Any] = dict.fromkeys(value)  # the caller's order of keys
            parent[key] = out
            stack.extend((v, f"{where}.{k}" if where else str(k), out, k) for k, v in value.items())
        elif isinstance(value, list | tuple):
            items: list[Any] = [None] * len(value)
            parent[key] = items
            stack.extend((v, f"{where}[{i}]", items, i) for i, v in enumerate(value))
        else:
            parent[key] = _json_value(value, where, key)
    return root[0]


# --- list-valued arguments --------------------------------------------------------------------

LIST_NEEDED = (
    "give a list, even of one item ([{one}]): text or a mapping is no list here (text would"
    " be sent letter by letter, a mapping as its keys)"
)


def listed(value: Iterable[Any] | None, name: str) -> list[Any] | None:
    """A list-valued argument as the list sent (``None`` stays ``None``): a list, a tuple, a
    set or any other iterable of its items. Text, bytes or a mapping (a single item given
    where a list is expected) is refused with :class:`InvalidArgument`, never split: a new
    agent developer's ``tiers="discarded"`` went out as ``?tier=d&tier=i...`` and
    ``access="ops"`` as the groups ``o``, ``p`` and ``s`` (refused 403)."""
    if value is None:
        return None
    if isinstance(value, str | bytes | bytearray | Mapping) or not isinstance(value, Iterable):
        one = f"{value!r:.40}" if isinstance(value, str | Mapping) else "..."
        raise InvalidArgument(
            f"{name} is {type(value).__name__} {value!r:.60}: " + LIST_NEEDED.format(one=one)
        )
    return list(value)


def mappings(value: Iterable[Mapping[str, Any]] | None, name: str) -> list[dict[str, Any]] | None:
    """A list of bodies (``assertions``, ``disclosures``, a batch): :func:`listed`, and each
    item a mapping (copied), else :class:`InvalidArgument` naming it."""
    items = listed(value, name)
    if items is None:
        return None
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise InvalidArgument(
                f"{name}[{index}] is {type(item).__name__} {item!r:.60}: each item is a mapping"
                " (a JSON object)"
            )
    return [dict(item) for item in items]


def own_key_needs_time(idempotency_key: str | None, occurred_at: Any, where: str) -> None:
    """A caller's own idempotency key needs the caller's own ``occurred_at``: stamped with now
    on each call, a later call with the same key (after a crash, a restart) would differ from
    the first and be refused with 409 instead of answered again (a new agent developer's
    trial). Generated keys need nothing: the retries of one call resend the same body."""
    if idempotency_key and occurred_at is None:
        raise InvalidArgument(
            f"{where}: an idempotency_key of your own needs an occurred_at of your own: the"
            " client would stamp the time of each call, so a later call with the same key would"
            " differ from the first and be refused (409 precondition_failed), not answered again"
        )


# --- the ledger -------------------------------------------------------------------------------


# a quote, one span ({"quote", "start", "end", "source_text", "observation_id", ...}), or a
# list of quotes and spans (at most 8), each checked by the server
Evidence = str | Mapping[str, Any] | Sequence[str | Mapping[str, Any]]

SPAN = (
    "a span is a mapping with the exact words as 'quote' (and, as needed, 'start', 'end',"
    " 'source_text', 'observation_id'), or those words alone as text"
)


def _span(value: Any, where: str) -> dict[str, Any]:
    if isinstance(value, str):
        return {"quote": value}
    if isinstance(value, Mapping):
        return dict(value)
    raise InvalidArgument(f"{where} is {type(value).__name__} {value!r:.60}: {SPAN}")


def evidence_json(evidence: Evidence) -> dict[str, Any] | list[dict[str, Any]]:
    """The evidence as the API takes it: a quote alone becomes ``{"quote": ...}``, in a list
    too (``["x", "y"]`` is two spans: a new agent developer's trial got a cryptic error)."""
    if isinstance(evidence, str | Mapping):
        return _span(evidence, "evidence")
    if isinstance(evidence, Sequence) and not isinstance(evidence, bytes | bytearray):
        return [_span(span, f"evidence[{i}]") for i, span in enumerate(evidence)]
    raise InvalidArgument(
        f"evidence is {type(evidence).__name__} {evidence!r:.60}: give a quote, a span or a"
        f" list of them; {SPAN}"
    )


def assertion_body(
    subject: str,
    predicate: str,
    object: Any,
    *,
    source_kind: str,
    asserted_by: str,
    confidence: float,
    evidence: Evidence,
    polarity: bool = True,
    expected_current: str | Unset | None = UNSET,
    **optional: Any,
) -> dict[str, Any]:
    """The JSON body of one assertion. ``optional``: valid_from, valid_to, access, task_id,
    disclosures (``None`` values are left out; the lists checked by :func:`listed`)."""
    body: dict[str, Any] = {
        "subject": subject,
        "predicate": predicate,
        "object": object,
        "polarity": polarity,
        "source_kind": source_kind,
        "asserted_by": asserted_by,
        "confidence": confidence,
        "evidence": evidence_json(evidence),
    }
    for name in ("valid_from", "valid_to"):
        optional[name] = time_text(optional.get(name))
    optional["access"] = listed(optional.get("access"), "access")
    optional["disclosures"] = mappings(optional.get("disclosures"), "disclosures") or None
    body.update({k: v for k, v in optional.items() if v is not None})
    if not isinstance(expected_current, Unset):
        body["expected_current"] = expected_current
    return body


IDEMPOTENCY_HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"  # "true" on an answer replayed for a key seen before


def keyed(idempotency_key: str | None) -> dict[str, str]:
    """The ``Idempotency-Key`` header of a write: the key given, else a new one. With it a
    write is safe to send again (the server replays the first answer and writes nothing), so
    assertions and events are retried like observations."""
    return {IDEMPOTENCY_HEADER: idempotency_key or new_idempotency_key()}


def assert_one(
    body: dict[str, Any], idempotency_key: str | None = None
) -> Call[models.WriteResult]:
    return Call(
        "POST",
        "/v1/assertions",
        models.WriteResult,
        body=body,
        idempotent=True,
        replayable=True,
        headers=keyed(idempotency_key),
    )


def written(body: Mapping[str, Any]) -> dict[str, Any]:
    """An assertion body as sent: its ``evidence`` may be a quote alone or a list of quotes
    and spans, as in ``assert_fact`` (none at all is left for the server to refuse)."""
    out = dict(body)
    if out.get("evidence") is not None:
        out["evidence"] = evidence_json(out["evidence"])
    return out


def assert_many(
    bodies: Sequence[Mapping[str, Any]], idempotency_key: str | None = None
) -> Call[list[models.WriteResult]]:
    return Call(
        "POST",
        "/v1/assertions",
        models.WriteResults,
        body={"assertions": [written(b) for b in mappings(bodies, "bodies") or []]},
        unwrap="results",
        idempotent=True,
        replayable=True,
        headers=keyed(idempotency_key),
    )


def facts(
    subject: str,
    predicate: str,
    *,
    as_of: Time | None = None,
    known_at: Time | None = None,
    min_confidence: float | None = None,
    tiers: Sequence[str] | None = None,
) -> Call[models.Facts]:
    params = _query(
        subject=subject,
        predicate=predicate,
        as_of=time_text(as_of),
        known_at=time_text(known_at),
        min_confidence=min_confidence,
        tier=listed(tiers, "tiers") or None,
    )
    return Call("GET", "/v1/facts", models.Facts, params=params, idempotent=True)


def history(subject: str, predicate: str, *, known_at: Time | None = None) -> Call[models.History]:
    params = _query(subject=subject, predicate=predicate, known_at=time_text(known_at))
    return Call("GET", "/v1/facts/history", models.History, params=params, idempotent=True)


# --- entities ---------------------------------------------------------------------------------


def entities(
    q: str, *, as_of: Time | None = None, known_at: Time | None = None, limit: int | None = None
) -> Call[models.Entities]:
    params = _query(q=q, as_of=time_text(as_of), known_at=time_text(known_at), limit=limit)
    return Call("GET", "/v1/entities", models.Entities, params=params, idempotent=True)


def entity(
    entity_id: str, *, as_of: Time | None = None, known_at: Time | None = None
) -> Call[models.EntityPage]:
    params = _query(as_of=time_text(as_of), known_at=time_text(known_at))
    return Call(
        "GET",
        f"/v1/entities/{_segment(entity_id)}",
        models.EntityPage,
        params=params,
        idempotent=True,
    )


# --- procedures -------------------------------------------------------------------------------


def procedures(
    *,
    trigger: str | None = None,
    action: str | None = None,
    min_support: int | None = None,
    min_success_rate: float | None = None,
    known_at: Time | None = None,
    limit: int | None = None,
) -> Call[models.Procedures]:
    params = _query(
        trigger=trigger,
        action=action,
        min_support=min_support,
        min_success_rate=min_success_rate,
        known_at=time_text(known_at),
        limit=limit,
    )
    return Call("GET", "/v1/procedures", models.Procedures, params=params, idempotent=True)


def procedure(procedure_id: str, *, known_at: Time | None = None) -> Call[models.ProcedurePage]:
    params = _query(known_at=time_text(known_at))
    return Call(
        "GET",
        f"/v1/procedures/{_segment(procedure_id)}",
        models.ProcedurePage,
        params=params,
        idempotent=True,
    )


# --- observations and recall ------------------------------------------------------------------


def observation_body(
    text: str,
    *,
    speaker: str,
    occurred_at: Time | None = None,
    source_kind: str = "user_stated",
    idempotency_key: str | None = None,
    **optional: Any,
) -> dict[str, Any]:
    """One observation; ``optional``: access, conversation_id, task_id, kind."""
    own_key_needs_time(idempotency_key, occurred_at, "observe")
    optional["access"] = listed(optional.get("access"), "access")
    body: dict[str, Any] = {
        "text": text,
        "speaker": speaker,
        "occurred_at": time_text(occurred_at) or now_text(),
        "source_kind": source_kind,
        "idempotency_key": idempotency_key or new_idempotency_key(),
    }
    body.update({k: v for k, v in optional.items() if v is not None})
    return body


def observation_item(item: Mapping[str, Any], index: int = 0) -> dict[str, Any]:
    """A body of a batch, with what the one-text form defaults when it is left out: a
    generated idempotency key, ``source_kind`` ``user_stated``, ``occurred_at`` now (not with
    a key of the caller's: :func:`own_key_needs_time`)."""
    own_key_needs_time(item.get("idempotency_key"), item.get("occurred_at"), f"observe[{index}]")
    body = dict(item)
    if not body.get("idempotency_key"):
        body["idempotency_key"] = new_idempotency_key()
    body.setdefault("source_kind", "user_stated")
    body.setdefault("occurred_at", now_text())
    return body


# Observations carry an idempotency key (generated when not given), so sending one again is
# safe: the server replays the first answer and writes nothing. They are retried.
def observe_one(body: dict[str, Any]) -> Call[models.ObservationResult]:
    return Call(
        "POST",
        "/v1/observations",
        models.ObservationResult,
        body=body,
        idempotent=True,
        replayable=True,
    )


def observe_many(items: Sequence[Mapping[str, Any]]) -> Call[list[models.ObservationItem]]:
    bodies = mappings(items, "observe") or []
    return Call(
        "POST",
        "/v1/observations",
        models.ObservationItems,
        body={"observations": [observation_item(item, i) for i, item in enumerate(bodies)]},
        idempotent=True,
        replayable=True,
        unwrap="results",
    )


def observation(observation_id: str, *, context: int = 0) -> Call[models.ObservationContext]:
    return Call(
        "GET",
        f"/v1/observations/{_segment(observation_id)}",
        models.ObservationContext,
        params={"context": context},
        idempotent=True,
    )


def recall(
    query: str,
    *,
    k: int = 10,
    as_of: Time | None = None,
    known_at: Time | None = None,
    filters: Mapping[str, Any] | None = None,
) -> Call[models.RecallAnswer]:
    body = _query(
        query=query,
        k=k,
        as_of=time_text(as_of),
        known_at=time_text(known_at),
        filters=dict(filters) if filters else None,
    )
    # a read sent as POST: safe to send again
    return Call("POST", "/v1/recall", models.RecallAnswer, body=body, idempotent=True)


def index_passages(
    *, conversation_id: str | None = None, max_batches: int = 1, batch_size: int | None = None
) -> Call[models.IndexReport]:
    body = _query(conversation_id=conversation_id, max_batches=max_batches, batch_size=batch_size)
    # building passages that are missing: a repeat builds nothing twice
    return Call("POST", "/v1/recall/index", models.IndexReport, body=body, idempotent=True)


# --- ordered memory ---------------------------------------------------------------------------


def event_body(
    task_id: str,
    actor: str,
    action: str,
    outcome: str,
    *,
    occurred_at: Time | None = None,
    caused_by: Sequence[str] | None = None,
    root: bool = False,
    idempotency_key: str | None = None,
    **optional: Any,
) -> dict[str, Any]:
    """One event; ``optional``: before, after, access, goal, assertions. ``idempotency_key``
    (sent as a header by :func:`record_event`) is the caller's: it needs ``occurred_at``."""
    own_key_needs_time(idempotency_key, occurred_at, "record_event")
    body: dict[str, Any] = {
        "task_id": task_id,
        "actor": actor,
        "action": action,
        "outcome": outcome,
        "occurred_at": time_text(occurred_at) or now_text(),
        "before": optional.pop("before", None) or {},
        "after": optional.pop("after", None) or {},
    }
    if caused := listed(caused_by, "caused_by"):
        body["caused_by"] = caused
    if root:
        body["root"] = True
    optional["access"] = listed(optional.get("access"), "access")
    if assertions := mappings(optional.pop("assertions", None), "assertions"):
        optional["assertions"] = [written(a) for a in assertions]
    body.update({k: v for k, v in optional.items() if v is not None})
    return body


def record_event(
    body: dict[str, Any], idempotency_key: str | None = None
) -> Call[models.EventWritten]:
    return Call(
        "POST",
        "/v1/events",
        models.EventWritten,
        body=body,
        idempotent=True,
        replayable=True,
        headers=keyed(idempotency_key),
    )


def event(event_id: str) -> Call[models.Event]:
    return Call("GET", f"/v1/events/{_segment(event_id)}", models.Event, idempotent=True)


def chain(
    event_id: str, *, direction: str = "causes", max_depth: int | None = None
) -> Call[models.ChainAnswer]:
    return Call(
        "GET",
        f"/v1/events/{_segment(event_id)}/chain",
        models.ChainAnswer,
        params=_query(direction=direction, max_depth=max_depth),
        idempotent=True,
    )


def why(
    subject: str,
    predicate: str,
    *,
    as_of: Time | None = None,
    known_at: Time | None = None,
    max_depth: int | None = None,
) -> Call[models.WhyAnswer]:
    params = _query(
        subject=subject,
        predicate=predicate,
        as_of=time_text(as_of),
        known_at=time_text(known_at),
        max_depth=max_depth,
    )
    return Call("GET", "/v1/facts/why", models.WhyAnswer, params=params, idempotent=True)


def timeline(
    task_id: str, *, limit: int | None = None, owner: str | None = None
) -> Call[models.Timeline]:
    return Call(
        "GET",
        f"/v1/tasks/{_segment(task_id)}/timeline",
        models.Timeline,
        params=_query(limit=limit, owner=owner),
        idempotent=True,
    )


# --- the lifecycle: tasks, pins, sleep --------------------------------------------------------


def start_task(
    task_id: str, *, goal: str | None = None, access: Sequence[str] = ()
) -> Call[models.TaskCard]:
    """Starting the same task again with the same goal and access changes nothing: retried."""
    body = {"task_id": task_id, "goal": goal, "access": listed(access, "access") or []}
    return Call("POST", "/v1/tasks", models.TaskCard, body=body, idempotent=True)


def task(task_id: str, *, owner: str | None = None) -> Call[models.TaskCard]:
    return Call(
        "GET",
        f"/v1/tasks/{_segment(task_id)}",
        models.TaskCard,
        params=_query(owner=owner),
        idempotent=True,
    )


def end_task(task_id: str, *, owner: str | None = None) -> Call[models.ConsolidationReport]:
    """Ending again answers the same report and writes nothing: retried."""
    return Call(
        "POST",
        f"/v1/tasks/{_segment(task_id)}/end",
        models.ConsolidationReport,
        params=_query(owner=owner),
        idempotent=True,
    )


def pin(assertion_id: str, *, pinned: bool = True) -> Call[models.PinAnswer]:
    """Pinning a pinned assertion changes nothing (``changed`` false): retried."""
    action = "pin" if pinned else "unpin"
    path = f"/v1/assertions/{_segment(assertion_id)}/{action}"
    return Call("POST", path, models.PinAnswer, idempotent=True)


def sleep(*, dry_run: bool, now: Time | None = None) -> Call[models.SleepReport]:
    """``dry_run`` is stated every time (the server refuses a sleep without it). A real sleep
    is not repeated on a lost answer (the next sleep finishes its work)."""
    body = {"now": time_text(now), "dry_run": dry_run}
    return Call("POST", "/v1/sleep", models.SleepReport, body=body, idempotent=dry_run)


# --- ontology, quarantine, health -------------------------------------------------------------


def ontology() -> Call[list[models.Predicate]]:
    return Call("GET", "/v1/ontology", models.Ontology, idempotent=True, unwrap="predicates")


def register_predicate(predicate: Mapping[str, Any]) -> Call[models.Registered]:
    # identical re-registration is a no-op (200), a different one 409: safe to send again
    return Call(
        "POST", "/v1/ontology/predicates", models.Registered, body=dict(predicate), idempotent=True
    )


def quarantine(
    *, limit: int | None = None, origin: str | None = None
) -> Call[list[models.QuarantineItem]]:
    return Call(
        "GET",
        "/v1/quarantine",
        models.Quarantine,
        params=_query(limit=limit, origin=origin),
        idempotent=True,
        unwrap="items",
    )


def health() -> Call[models.Health]:
    return Call("GET", "/healthz", models.Health, idempotent=True)


def ready() -> Call[models.Health]:
    return Call("GET", "/readyz", models.Health, idempotent=True)
