"""The validation gate: the one door every write passes through.

Each raw item is checked against the schema (strict types, RFC 3339 timestamps with an
offset, confidence in [0, 1], evidence quoted verbatim), the ontology (known predicate,
value type) and the writer's rights (access groups it belongs to). Refused items are
quarantined with their reason; a batch with any refused item is refused whole.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, TypeVar

from neo4j import Driver
from pydantic import BaseModel, ValidationError

from graph_schema.core import numbers, problems
from graph_schema.core.errors import GateRejected
from graph_schema.core.timeutil import new_id, parse_rfc3339, to_rfc3339, utcnow
from graph_schema.core.types import Principal
from graph_schema.events.types import EventWrite
from graph_schema.ledger.types import AssertionWrite, EvidenceWrite
from graph_schema.observations import cypher as observations_cypher
from graph_schema.observations.types import ObservationIn
from graph_schema.quarantine import cypher as quarantine_cypher
from graph_schema.quarantine.retention import prune
from graph_schema.quarantine.types import Retention
from graph_schema.schema.types import Predicate, ValueType
from ingest.metrics import GATE_ACCEPTED, GATE_QUARANTINED
from ingest.writer import Prepared

MAX_BATCH = 1_000
# how far ahead of the server's clock an observation's or an event's occurred_at may be (clock
# skew; TRACTATUS_MAX_FUTURE)
DEFAULT_MAX_FUTURE = timedelta(minutes=5)
MAX_QUARANTINED_PAYLOAD_CHARS = 65_536


@dataclass(frozen=True)
class Rejection:
    index: int
    reason: str
    message: str
    payload: Any

    def public(self) -> dict[str, Any]:
        return {"index": self.index, "reason": self.reason, "message": self.message}


def schema_reason(error: ValidationError) -> tuple[str, str]:
    first = problems.first(error.errors())
    where = problems.where(first["loc"])
    message = problems.message(first)
    if first["type"] == "extra_forbidden":
        return "unknown_field", f"{where}: unknown field"
    if first["type"] == "missing":
        return "missing_field", f"{where}: field required"
    if "RFC 3339" in message:
        return "bad_timestamp", f"{where}: {message}"
    if "verbatim" in message or "offsets" in message:
        return "evidence_mismatch", f"{where}: {message}"
    return "invalid", f"{where}: {message}"


def not_ahead(occurred_at: str, *, index: int, raw: Any, max_future: timedelta) -> Rejection | None:
    """An observation or an event records what has happened: an ``occurred_at`` ahead of the
    server's clock by more than ``max_future`` (a clock or time-zone error: local time sent as
    UTC) would date the facts written with it in the future, where no read as of now finds
    them."""
    latest = utcnow() + max_future
    if parse_rfc3339(occurred_at) <= latest:
        return None
    message = (
        f"occurred_at: {occurred_at} is later than the server's clock allows"
        f" ({to_rfc3339(latest)}, now + {int(max_future.total_seconds())} s)"
    )
    return Rejection(index, "future_timestamp", message, raw)


# a number sent as text: ASCII digits, grouped by commas or not, a decimal part, an exponent;
# not "NaN", "Infinity", " 5 " or "1_000", which Python's float() reads, nor other scripts'
# digits ("１２３", "١٢٣": float() reads them too, a new user's trial stored them as numbers)
NUMBER_TEXT = re.compile(
    r"[-+]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?", re.ASCII
)


def _value_matches(predicate: Predicate, item: AssertionWrite) -> bool:
    value = item.object
    if value is None:
        return True
    if predicate.value_type is ValueType.number:
        if isinstance(value, bool):
            return False
        if isinstance(value, int | float):
            return True
        # its number must be a double, as a JSON number must (graph_schema.core.numbers):
        # "1e999" was refused and "1e-400" stored, read by every reader as 0
        return (
            NUMBER_TEXT.fullmatch(value) is not None
            and numbers.out_of_range(value.replace(",", "")) is None
        )
    if predicate.value_type is ValueType.boolean:
        return isinstance(value, bool) or value in ("true", "false")
    if predicate.value_type is ValueType.datetime:
        try:
            parse_rfc3339(str(value))
        except ValueError:
            return False
    return True


def _semantic_reason(
    item: AssertionWrite, ontology: dict[str, Predicate], principal: Principal
) -> tuple[str, str] | None:
    predicate = ontology.get(item.predicate)
    if predicate is None:
        return "unknown_predicate", unknown_predicate(item.predicate, ontology)
    if not _value_matches(predicate, item):
        return "bad_value_type", f"object does not match value type {predicate.value_type}"
    if predicate.cardinality == "many" and item.object is None:
        return "invalid", "a retraction of a many-valued predicate names the object it retracts"
    return access_reason(item.access, principal) or audience_reason(item, principal)


def unknown_predicate(name: str, ontology: Iterable[str]) -> str:
    """The message for a predicate the ontology lacks, with its nearest names when one is
    close ("status_of": did you mean 'status'?): the ontology is readable by every caller
    (``GET /v1/ontology``), so naming its predicates discloses nothing."""
    close = difflib.get_close_matches(name, sorted(ontology), n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    return f"predicate {name!r} is not in the ontology{hint} (GET /v1/ontology lists them)"


def access_reason(access: list[str], principal: Principal) -> tuple[str, str] | None:
    """A write's access list may only name groups the writer belongs to, an admin's too: a
    write into a slot answers by what the slot holds (a precondition met or not, a retraction
    refused, a back-fill's reach, a restatement's start), so writing into a group one cannot
    read would read it (a red-team trial: an admin confirmed a hidden allergy by the index of
    a refused batch item)."""
    if all(g in principal.groups for g in access):
        return None
    return "access_not_allowed", "access may only name groups the writer belongs to"


def audience_reason(item: AssertionWrite, principal: Principal) -> tuple[str, str] | None:
    """A disclosure written with the assertion is free text shown to its audience as that
    audience's view: a member may address it only to groups it belongs to, as its access (an
    admin, any; a predicate's policy, set by an admin, makes the bands for other groups)."""
    outside = sorted({g for d in item.disclosures for g in d.audience} - set(principal.groups))
    if principal.is_admin or not outside:
        return None
    return (
        "access_not_allowed",
        "a disclosure's audience may only name groups the writer belongs to (not: "
        + ", ".join(outside)
        + ")",
    )


# what an observation and an event are checked as before anything else: a record of the past
Recorded = TypeVar("Recorded", ObservationIn, EventWrite)


def check_record(
    model: type[Recorded],
    raw: Any,
    *,
    index: int,
    principal: Principal,
    max_future: timedelta,
) -> Recorded | Rejection:
    """An observation or an event as sent: its schema (the gate's wording, so reasons match
    those of ``/v1/assertions``), its access, and a time not ahead of the clock."""
    try:
        record = model.model_validate(raw)
    except ValidationError as error:
        reason, message = schema_reason(error)
        return Rejection(index, reason, message, raw)
    denied = access_reason(record.access, principal)
    if denied is not None:
        return Rejection(index, *denied, raw)
    return not_ahead(record.occurred_at, index=index, raw=raw, max_future=max_future) or record


def check_item(
    raw: Any, *, index: int, ontology: dict[str, Predicate], principal: Principal
) -> AssertionWrite | Rejection:
    try:
        item = AssertionWrite.model_validate(raw)
    except ValidationError as error:
        reason, message = schema_reason(error)
        return Rejection(index, reason, message, raw)
    problem = _semantic_reason(item, ontology, principal)
    if problem is not None:
        return Rejection(index, problem[0], problem[1], raw)
    return item


def check_batch(
    raw_items: list[Any], *, ontology: dict[str, Predicate], principal: Principal
) -> tuple[list[AssertionWrite], list[Rejection]]:
    accepted: list[AssertionWrite] = []
    rejected: list[Rejection] = []
    for index, raw in enumerate(raw_items):
        result = check_item(raw, index=index, ontology=ontology, principal=principal)
        if isinstance(result, Rejection):
            rejected.append(result)
        else:
            accepted.append(result)
    return accepted, rejected


def backwards(
    prepared: Sequence[Prepared], *, raw_items: Sequence[Any], default: str
) -> list[Rejection]:
    """The items whose valid time, as they would be written (``prepared``: with the start they
    give or default to), ends before it starts: a ``valid_to`` sent without ``valid_from``, at
    or before the start it defaults to (the evidence's ``occurred_at``, else ``default``: "the
    time the request arrived", "the event's occurred_at"). Refused as a ``valid_to`` at or
    before a ``valid_from`` sent is (a new user's trial: ``[now, 2021)`` closed the slot's
    current version at now and wrote a remnant of it from 2021, two current versions of a
    one-valued fact)."""
    rejected = []
    for index, p in enumerate(prepared):
        item, start = p.item, p.valid_from
        if p.valid_to is None or p.valid_to > start:
            continue
        message = "body: valid_to must be after valid_from"
        if item.valid_from is None:
            timed = any(span.occurred_at for span in item.spans)
            origin = "the evidence's occurred_at" if timed else default
            message += f" (valid_from not sent: it defaults to {origin}, {to_rfc3339(start)})"
        rejected.append(Rejection(index, "invalid", message, raw_items[index]))
    return rejected


@dataclass(frozen=True)
class Source:
    """A stored observation an assertion's evidence names, as the writer may see it."""

    requirement: tuple[str, ...]  # its access as an ``access_all`` requirement ("g1|g2")
    text: str | None  # None when its raw text is not retained
    sha256: str | None


def _visible_sources(
    driver: Driver, *, database: str, ids: list[str], principal: Principal
) -> dict[str, Source]:
    if not ids:
        return {}
    records, _, _ = driver.execute_query(
        observations_cypher.VISIBLE_SOURCES,
        ids=ids,
        groups=list(principal.groups),
        database_=database,
        routing_="r",
    )
    found = {}
    for r in records:
        own = ["|".join(sorted(r["access"]))] if r["access"] else []
        requirement = tuple(sorted({*own, *r["access_all"]}))
        found[r["id"]] = Source(requirement, r["text"], r["sha256"])
    return found


def against_source(evidence: EvidenceWrite, source: Source) -> EvidenceWrite | str:
    """The evidence checked exactly as if it had sent the observation's stored text as its
    ``source_text`` (quote verbatim in it, offsets pointing at the quote), with that text
    filled in; or why it does not match. A ``source_text`` sent along must be that text.
    Without the raw text (``TRACTATUS_RETAIN_RAW_TEXT=false``) the write must send
    ``source_text``, and its SHA-256 must be the stored one."""
    sent = evidence.source_text
    if source.text is None:
        if sent is None:
            return (
                "evidence: the observation's raw text is not retained; send source_text, "
                "checked against its stored SHA-256"
            )
        if hashlib.sha256(sent.encode("utf-8")).hexdigest() != source.sha256:
            return "evidence: source_text is not the observation's text (its SHA-256 differs)"
    elif sent is not None and sent != source.text:
        return "evidence: source_text is not the observation's stored text"
    text = source.text if source.text is not None else sent
    try:
        return EvidenceWrite.model_validate(
            {**evidence.model_dump(mode="json", exclude_unset=True), "source_text": text}
        )
    except ValidationError as error:
        return f"{schema_reason(error)[1]} (the observation's stored text)"


def _checked_span(
    evidence: EvidenceWrite, found: dict[str, Source], where: str
) -> EvidenceWrite | tuple[str, str]:
    """One span checked against the observation it names (its text filled in), or the
    (reason, message) of its refusal."""
    source = found.get(evidence.observation_id or "")
    if source is None:
        return "unknown_source", f"{where} names an observation that does not exist"
    checked = against_source(evidence, source)
    if isinstance(checked, str):
        return "evidence_mismatch", f"{where}: {checked.removeprefix('evidence: ')}"
    return checked


def _checked_evidence(
    index: int, item: AssertionWrite, found: dict[str, Source]
) -> tuple[AssertionWrite | Rejection, tuple[str, ...]]:
    """The item with each span that names an observation checked against it (that
    observation's text filled in), and the requirements it inherits from all of them; or its
    rejection (the first span refused)."""
    spans: list[EvidenceWrite] = []
    requirement: set[str] = set()
    several = isinstance(item.evidence, list)
    for n, evidence in enumerate(item.spans):
        if evidence.observation_id is None:
            spans.append(evidence)
            continue
        where = f"evidence[{n}]" if several else "evidence"
        checked = _checked_span(evidence, found, where)
        if isinstance(checked, tuple):
            return Rejection(index, *checked, item.model_dump(mode="json")), ()
        spans.append(checked)
        requirement.update(found[evidence.observation_id].requirement)
    return item.with_spans(spans), tuple(sorted(requirement))


def check_sources(
    driver: Driver, *, database: str, items: list[AssertionWrite], principal: Principal
) -> tuple[list[AssertionWrite], list[Rejection], list[tuple[str, ...]]]:
    """Evidence that names an observation must name one the writer can see (unknown and
    invisible look the same: ``unknown_source``) and match its stored text like a write that
    sends ``source_text`` (``evidence_mismatch``), each span of several; the assertion then
    inherits every source's access as a requirement (``access_all``), so it is visible only to
    principals allowed by every source (sources with no common reader: nobody but an admin;
    never everyone). Returns the items with the sources' texts filled in, the rejections and
    each item's requirements."""
    ids = sorted({e.observation_id for i in items for e in i.spans if e.observation_id})
    found = _visible_sources(driver, database=database, ids=ids, principal=principal)
    checked: list[AssertionWrite] = []
    rejections: list[Rejection] = []
    requirements: list[tuple[str, ...]] = []
    for index, item in enumerate(items):
        result, requirement = _checked_evidence(index, item, found)
        if isinstance(result, Rejection):
            rejections.append(result)
            checked.append(item)
        else:
            checked.append(result)
        requirements.append(requirement)
    return checked, rejections, requirements


def _payload_text(payload: Any) -> str:
    if isinstance(payload, BaseModel):
        payload = payload.model_dump(mode="json")
    try:
        text = json.dumps(payload, ensure_ascii=False, sort_keys=True, default=str)
    except (TypeError, ValueError):
        text = repr(payload)
    return text[:MAX_QUARANTINED_PAYLOAD_CHARS]


def quarantine(
    driver: Driver,
    *,
    database: str,
    rejections: list[Rejection],
    origin: str,
    principal: Principal,
    retention: Retention,
) -> list[str]:
    """Keep refused items as Quarantine nodes, unconnected to the record; count them; let go
    of what the retention no longer keeps."""
    received_at = utcnow()
    items: list[dict[str, Any]] = [
        {
            "id": new_id(),
            "received_at": received_at,
            "reason": r.reason,
            "message": r.message,
            "payload": _payload_text(r.payload),
            "origin": origin,
            "submitted_by": principal.id,
            "item_index": r.index,
        }
        for r in rejections
    ]
    driver.execute_query(quarantine_cypher.CREATE_QUARANTINE, items=items, database_=database)
    prune(driver, database=database, retention=retention, now=received_at)
    for r in rejections:
        GATE_QUARANTINED.labels(origin=origin, reason=r.reason).inc()
    return [str(item["id"]) for item in items]


def refuse(
    driver: Driver,
    *,
    database: str,
    rejections: list[Rejection],
    origin: str,
    principal: Principal,
    retention: Retention,
) -> GateRejected:
    """Quarantine the refused items and build the error that refuses the whole request."""
    ids = quarantine(
        driver,
        database=database,
        rejections=rejections,
        origin=origin,
        principal=principal,
        retention=retention,
    )
    first = rejections[0]
    return GateRejected(
        f"refused by the gate: {first.message}",
        rejections=[r.public() for r in rejections],
        quarantine_ids=ids,
    )


def count_accepted(origin: str, n: int) -> None:
    GATE_ACCEPTED.labels(origin=origin).inc(n)
