"""Read paths of the quarantine (admins only): what the gate refused, newest first."""

from __future__ import annotations

from neo4j import Driver

from graph_schema.core.records import native
from graph_schema.quarantine import cypher
from graph_schema.quarantine.types import QuarantineItem


def list_quarantine(
    driver: Driver, *, database: str, limit: int, origin: str | None = None
) -> list[QuarantineItem]:
    """Up to ``limit`` refused items (of one ``origin`` if given), newest first."""
    records, _, _ = driver.execute_query(
        cypher.LIST_QUARANTINE, limit=limit, origin=origin, database_=database, routing_="r"
    )
    return [QuarantineItem.model_validate(native(dict(r["item"]))) for r in records]
