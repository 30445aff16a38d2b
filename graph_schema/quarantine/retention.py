"""Retention of the quarantine: refused items older than the retention go, then the oldest
beyond the cap. Run after every write to the quarantine (``ingest.gate.quarantine``, the
observation path), a bounded amount each time, so that no call pays for a backlog."""

from __future__ import annotations

from datetime import datetime

from neo4j import Driver

from graph_schema.quarantine import cypher
from graph_schema.quarantine.types import Retention

# the most items one call deletes; a larger backlog goes over the next calls
MAX_DELETED_PER_CALL = 10_000


def prune(driver: Driver, *, database: str, retention: Retention, now: datetime) -> int:
    """Delete expired items, then the oldest beyond ``max_items``; return how many went."""
    records, _, _ = driver.execute_query(
        cypher.DELETE_EXPIRED,
        cutoff=now - retention.max_age,
        limit=MAX_DELETED_PER_CALL,
        database_=database,
    )
    deleted = int(records[0]["deleted"])
    records, _, _ = driver.execute_query(cypher.COUNT_QUARANTINE, database_=database, routing_="r")
    excess = min(int(records[0]["n"]) - retention.max_items, MAX_DELETED_PER_CALL)
    if excess > 0:
        records, _, _ = driver.execute_query(cypher.DELETE_OLDEST, limit=excess, database_=database)
        deleted += int(records[0]["deleted"])
    return deleted
