"""A checksum of the whole store, from content alone: every node (labels, properties) and
every relationship (type, properties, and its two endpoints' content). Two stores with the
same content have the same checksum whatever their element ids, so a backup restored into
another home compares equal (`tractatus checksum`, docs/operations.md)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from neo4j import Driver
from pydantic import BaseModel

from graph_schema.schema import cypher


class Checksum(BaseModel):
    nodes: int
    relationships: int
    sha256: str


def _canonical(value: Any) -> Any:
    """Properties as JSON: temporal and spatial values by their ISO text, lists kept in order."""
    if isinstance(value, dict):
        return {key: _canonical(value[key]) for key in sorted(value)}
    if isinstance(value, list | tuple):
        return [_canonical(item) for item in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, bytes):
        return value.hex()
    return f"{type(value).__name__}:{value}"


def _digest(*parts: Any) -> str:
    text = json.dumps([_canonical(part) for part in parts], sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def store_checksum(driver: Driver, *, database: str) -> Checksum:
    """Read every node and relationship once (one read transaction each) and hash them."""
    node_hash: dict[str, str] = {}
    with driver.session(database=database, default_access_mode="READ") as session:
        for record in session.run(cypher.ALL_NODES):
            node_hash[record["id"]] = _digest(sorted(record["labels"]), record["props"])
        relationship_hashes = [
            _digest(
                record["type"],
                node_hash[record["start"]],
                node_hash[record["end"]],
                record["props"],
            )
            for record in session.run(cypher.ALL_RELATIONSHIPS)
        ]
    total = hashlib.sha256()
    for item in sorted(node_hash.values()):
        total.update(item.encode())
    total.update(b"|")
    for item in sorted(relationship_hashes):
        total.update(item.encode())
    return Checksum(
        nodes=len(node_hash), relationships=len(relationship_hashes), sha256=total.hexdigest()
    )
