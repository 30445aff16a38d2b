"""Procedure reads: the list and one version, each one read transaction filtered by the
caller's groups inside the Cypher (docs/procedures.md). A procedure the caller may not read
does not exist for them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from neo4j import Driver, ManagedTransaction

from graph_schema.core.records import as_datetime
from graph_schema.core.types import Principal, Status
from graph_schema.procedures import cypher
from graph_schema.procedures.mine import shown_access
from graph_schema.procedures.types import (
    MinedVersion,
    ProcedureAnswer,
    ProcedureOut,
    ProceduresAnswer,
)

DEFAULT_LIMIT = 20
MAX_LIMIT = 100


@dataclass(frozen=True)
class Filter:
    """What a list asks for: a trigger, an action among the steps, floors."""

    trigger: str | None = None
    action: str | None = None
    min_support: int = 1
    min_success_rate: float = 0.0
    limit: int = DEFAULT_LIMIT


def _out(row: dict[str, Any]) -> ProcedureOut:
    """A stored version as answered: its times, and who may read it in the API's one form
    (:func:`shown_access`), whatever form it was stored in."""
    times = ("first_seen", "last_seen", "recorded_at", "superseded_at")
    access, access_all = shown_access(row["access"], row["access_all"])
    fields = {t: as_datetime(row[t]) for t in times}
    return ProcedureOut.model_validate(
        {**row, **fields, "access": access, "access_all": access_all}
    )


def procedures(
    driver: Driver, *, database: str, principal: Principal, known_at: datetime, want: Filter
) -> ProceduresAnswer:
    """The current versions at ``known_at`` the caller may read, most supported first."""
    records, _, _ = driver.execute_query(
        cypher.LIST,
        known_at=known_at,
        groups=list(principal.groups),
        trigger=want.trigger,
        action=want.action,
        min_support=want.min_support,
        min_success_rate=want.min_success_rate,
        limit=want.limit,
        database_=database,
        routing_="r",
    )
    found = [_out(row) for row in records[0]["procedures"]]
    status = Status.answered if found else Status.not_found
    return ProceduresAnswer(status=status, procedures=found, known_at=known_at)


def procedure(
    driver: Driver, *, database: str, principal: Principal, known_at: datetime, procedure_id: str
) -> ProcedureAnswer | None:
    """One version, current or not, as known at ``known_at``; None when the caller may not
    read it or it was not written yet."""
    records, _, _ = driver.execute_query(
        cypher.GET,
        id=procedure_id,
        known_at=known_at,
        groups=list(principal.groups),
        database_=database,
        routing_="r",
    )
    if not records:
        return None
    return ProcedureAnswer(
        status=Status.answered, procedure=_out(records[0]["procedure"]), known_at=known_at
    )


def readable_versions(
    tx: ManagedTransaction, versions: Sequence[MinedVersion], principal: Principal
) -> set[str]:
    """The keys among ``versions`` (written by a sleep, or that a preview would write) of
    those ``principal`` may read: their scope checked by ``visible`` as every read checks a
    stored version's, so a preview shows exactly what the sleep's readers would see."""
    scopes = [{"key": v.key, "access": v.access, "access_all": v.access_all} for v in versions]
    record = tx.run(
        cypher.VISIBLE_VERSIONS, versions=scopes, groups=list(principal.groups)
    ).single()
    return set(record["keys"]) if record is not None else set()
