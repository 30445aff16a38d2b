"""The predicate ontology: seeded from ``ontology.toml``, extended by admins."""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from typing import Any

from neo4j import Driver

from graph_schema.core.errors import OntologyConflict
from graph_schema.schema import cypher
from graph_schema.schema.types import OntologyChanges, Predicate


def seed_predicates() -> list[Predicate]:
    text = resources.files("graph_schema.schema").joinpath("ontology.toml").read_text("utf-8")
    return [Predicate.model_validate(item) for item in tomllib.loads(text)["predicate"]]


def _params(predicate: Predicate) -> dict[str, Any]:
    params = predicate.model_dump(mode="json")
    params["disclosure"] = json.dumps(params["disclosure"]) if predicate.disclosure else None
    return params


def _predicate(stored: dict[str, Any]) -> Predicate:
    data = dict(stored)
    data["disclosure"] = json.loads(data["disclosure"]) if data.get("disclosure") else None
    return Predicate.model_validate(data)


def list_predicates(driver: Driver, *, database: str) -> list[Predicate]:
    records, _, _ = driver.execute_query(cypher.LIST_PREDICATES, database_=database, routing_="r")
    return [_predicate(r["predicate"]) for r in records]


def get_predicate(driver: Driver, *, database: str, name: str) -> Predicate | None:
    records, _, _ = driver.execute_query(
        cypher.GET_PREDICATE, name=name, database_=database, routing_="r"
    )
    return _predicate(records[0]["predicate"]) if records else None


def register_predicate(driver: Driver, *, database: str, predicate: Predicate) -> bool:
    """Create the predicate; True if created, False if an identical one existed.

    Raises OntologyConflict when a predicate of that name exists with another definition.
    """
    records, _, _ = driver.execute_query(
        cypher.CREATE_PREDICATE, database_=database, **_params(predicate)
    )
    stored = _predicate(records[0]["predicate"])
    if stored != predicate:
        raise OntologyConflict(
            f"predicate {predicate.name!r} exists with a different definition",
            details={"existing": stored.model_dump(mode="json")},
        )
    return bool(records[0]["created"])


def _incompatible(stored: Predicate, seed: Predicate) -> str | None:
    """Why a stored predicate cannot become the seed's definition, if it cannot: slots are
    keyed by cardinality and objects typed by value type, so changing either would orphan
    what is stored. Such a change needs a new predicate name."""
    for field in ("cardinality", "value_type"):
        if getattr(stored, field) != getattr(seed, field):
            return (
                f"{field} is {getattr(stored, field).value} in the store and "
                f"{getattr(seed, field).value} in the seed: a new name is needed"
            )
    return None


def seed(driver: Driver, *, database: str) -> OntologyChanges:
    """Register the seed predicates that are missing and upgrade stored ones to a higher seed
    ``version`` (the replaced definition is kept as a ``PredicateVersion``). A stored
    predicate at the same or a higher version is left as it is; one whose cardinality or value
    type differs from the seed's is left as it is and reported in ``refused``."""
    changes = OntologyChanges()
    for predicate in seed_predicates():
        records, _, _ = driver.execute_query(
            cypher.CREATE_PREDICATE, database_=database, **_params(predicate)
        )
        if records[0]["created"]:
            changes.created.append(predicate.name)
            continue
        stored = _predicate(records[0]["predicate"])
        if stored.version >= predicate.version:
            continue
        reason = _incompatible(stored, predicate)
        if reason is not None:
            changes.refused[predicate.name] = reason
            continue
        upgraded, _, _ = driver.execute_query(
            cypher.UPGRADE_PREDICATE, database_=database, **_params(predicate)
        )
        if upgraded:
            changes.upgraded.append(predicate.name)
    return changes


def predicate_map(driver: Driver, *, database: str) -> dict[str, Predicate]:
    return {p.name: p for p in list_predicates(driver, database=database)}
