"""Pinning: an assertion its writer or an admin pins never falls silent.

A pin is a recorded transition like a tier change (``(:PinChange)-[:CHANGES]->(:Assertion)``),
never an edit of the assertion. Pins of one assertion are serialised on its slot's lock;
pinning what is already pinned (or unpinning what is not) writes nothing.
"""

from __future__ import annotations

from datetime import datetime

from neo4j import Driver, ManagedTransaction

from graph_schema.core.errors import NotFound, PermissionDenied
from graph_schema.core.timeutil import new_id, utcnow
from graph_schema.core.types import Principal
from graph_schema.lifecycle import cypher
from graph_schema.lifecycle.types import PinAnswer

NO_ASSERTION = "no visible assertion with this id"


def _pin(
    tx: ManagedTransaction, assertion_id: str, pinned: bool, principal: Principal, now: datetime
) -> PinAnswer:
    current = tx.run(cypher.LOCK_PIN, id=assertion_id, now=now).single(strict=True)["pinned"]
    if bool(current) == pinned:
        return PinAnswer(assertion_id=assertion_id, pinned=pinned, changed=False)
    role = "an admin" if principal.is_admin else "its writer"
    tx.run(
        cypher.CREATE_PIN_CHANGE,
        id=assertion_id,
        change_id=new_id(),
        pinned=pinned,
        now=now,
        by=principal.id,
        rule="pin" if pinned else "unpin",
        reason=f"{'pinned' if pinned else 'unpinned'} by {role}",
    ).consume()
    return PinAnswer(assertion_id=assertion_id, pinned=pinned, changed=True, at=now)


def set_pin(
    driver: Driver, *, database: str, principal: Principal, assertion_id: str, pinned: bool
) -> PinAnswer:
    """Pin or unpin an assertion. One the caller may not read is NotFound (like one that does
    not exist); one it may read but did not write, for a caller who is not an admin, is
    PermissionDenied."""
    records, _, _ = driver.execute_query(
        cypher.PIN_TARGET,
        id=assertion_id,
        groups=list(principal.groups),
        database_=database,
        routing_="r",
    )
    if not records:
        raise NotFound(NO_ASSERTION, details={"id": assertion_id})
    if records[0]["written_by"] != principal.id and not principal.is_admin:
        raise PermissionDenied("only the assertion's writer or an admin may pin or unpin it")
    with driver.session(database=database) as session:
        return session.execute_write(_pin, assertion_id, pinned, principal, utcnow())
