"""The validation gate: the one door every write passes through.

Each raw item is checked against the schema (strict types, RFC 3339 timestamps with an
offset, confidence in [0, 1], evidence quoted verbatim), the ontology (known predicate,
value type) and the writer's rights (access groups it belongs to). Refused items are
quarantined with their reason; a batch with any refused item is refused whole.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from neo4j import Driver
from pydantic import BaseModel, ValidationError

from graph_schema.core.errors import GateRejected
from graph_schema.core.timeutil import new_id, parse_rfc3339, utcnow
from graph_schema.core.types import Principal
from graph_schema.ledger.types import AssertionWrite
from graph_schema.observations import cypher as observations_cypher
from graph_schema.quarantine import cypher as quarantine_cypher
from graph_schema.quarantine.retention import prune
from graph_schema.quarantine.types import Retention
from graph_schema.schema.types import Predicate, ValueType
from ingest.metrics import GATE_ACCEPTED, GATE_QUARANTINED

MAX_BATCH = 1_000
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
    first = error.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "body"
    message = first["msg"].removeprefix("Value error, ")
    if first["type"] == "extra_forbidden":
        return "unknown_field", f"{where}: unknown field"
    if first["type"] == "missing":
        return "missing_field", f"{where}: field required"
    if "RFC 3339" in message:
        return "bad_timestamp", f"{where}: {message}"
    if "verbatim" in message or "offsets" in message:
        return "evidence_mismatch", f"{where}: {message}"
    return "invalid", f"{where}: {message}"


def _value_matches(predicate: Predicate, item: AssertionWrite) -> bool:
    value = item.object
    if value is None:
        return True
    if predicate.value_type is ValueType.number:
        if isinstance(value, bool):
            return False
        if isinstance(value, int | float):
            return True
        try:
            float(value.replace(",", ""))
        except ValueError:
            return False
        return True
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
        return "unknown_predicate", f"predicate {item.predicate!r} is not in the ontology"
    if not _value_matches(predicate, item):
        return "bad_value_type", f"object does not match value type {predicate.value_type}"
    if predicate.cardinality == "many" and item.object is None:
        return "invalid", "a retraction of a many-valued predicate names the object it retracts"
    outside = [g for g in item.access if g not in principal.groups]
    if outside and not principal.is_admin:
        return "access_not_allowed", "access may only name groups the writer belongs to"
    return None


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


def check_sources(
    driver: Driver, *, database: str, items: list[AssertionWrite], principal: Principal
) -> tuple[list[Rejection], list[tuple[str, ...]]]:
    """Evidence that names an observation must name one the writer can see; the assertion
    then inherits that source's access as a requirement (``access_all``), so it is visible
    only to principals allowed by every source. Unknown and invisible look the same."""
    ids = sorted({i.evidence.observation_id for i in items if i.evidence.observation_id})
    found: dict[str, tuple[str, ...]] = {}
    if ids:
        records, _, _ = driver.execute_query(
            observations_cypher.VISIBLE_SOURCES,
            ids=ids,
            groups=list(principal.groups),
            database_=database,
            routing_="r",
        )
        for r in records:
            own = ["|".join(sorted(r["access"]))] if r["access"] else []
            found[r["id"]] = tuple(sorted({*own, *r["access_all"]}))
    rejections: list[Rejection] = []
    requirements: list[tuple[str, ...]] = []
    for index, item in enumerate(items):
        source = item.evidence.observation_id
        if source is not None and source not in found:
            rejections.append(
                Rejection(
                    index,
                    "unknown_source",
                    "evidence names an observation that does not exist",
                    item.model_dump(mode="json"),
                )
            )
        requirements.append(found.get(source, ()) if source else ())
    return rejections, requirements


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
