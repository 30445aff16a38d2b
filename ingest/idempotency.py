"""Idempotency keys, one mechanism for every write (docs/ingestion.md#idempotency).

A key is scoped by its caller and its route: ``principal id + "\\x1f" + route + "\\x1f" +
key`` (observations: ``principal id + "\\x1f" + key``, on their own nodes), so another
principal's key, or the same key sent to another write route, is another key. The request
is hashed (SHA-256 of its canonical JSON). Within one scope, the same key with the same
request answers the first answer and writes nothing; with a different request it is
``PreconditionFailed`` (409): a key names one request. Nothing is stored for a
refused request, so it can be sent again once fixed.

Observations store the scope, hash and answer on their Observation node
(:mod:`ingest.observations`); assertions and events, which have no one node per request, on
an ``IdempotentRequest`` node, claimed with ``MERGE`` under a uniqueness constraint as the
first statement of the writing transaction and given its answer as the last, so the request
and its answer commit together and a racing twin waits, then replays.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from neo4j import Driver, ManagedTransaction

from graph_schema.core.errors import PreconditionFailed, TractatusError
from graph_schema.core.timeutil import new_id, to_rfc3339, utcnow
from graph_schema.core.types import Principal
from graph_schema.idempotency import cypher

T = TypeVar("T")
SCOPE_SEPARATOR = "\x1f"


def idempotency_scope(principal: Principal, key: str | None) -> str | None:
    return None if key is None else f"{principal.id}{SCOPE_SEPARATOR}{key}"


def request_digest(payload: Any) -> str:
    """SHA-256 of the canonical JSON of a request (keys sorted, text as is)."""
    canonical = json.dumps(payload, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def different_request(key: str | None, what: str) -> PreconditionFailed:
    return PreconditionFailed(
        f"this idempotency key was already used for a different {what}",
        details={"idempotency_key": key},
    )


@dataclass(frozen=True)
class Key:
    """One request's idempotency key: its scope, the hash of the request, where it was sent."""

    key: str
    scope: str
    digest: str
    route: str
    principal: str

    @classmethod
    def of(cls, principal: Principal, key: str | None, route: str, payload: Any) -> Key | None:
        """The key of a request to ``route``: each route has its own keys (its scope names
        the route), as observations always had. The same key on ``/v1/assertions`` and on
        ``/v1/events`` answered 409 "already used for a different request" (a database
        engineer's audit), while observations kept theirs apart."""
        if key is None:
            return None
        scope = SCOPE_SEPARATOR.join((principal.id, route, key))
        digest = request_digest({"route": route, "body": payload})
        return cls(key, scope, digest, route, principal.id)

    @property
    def unrouted_scope(self) -> str:
        """The scope the key had before it named its route (``principal id + "\\x1f" +
        key``): a request stored then is still found, on its own route only."""
        return f"{self.principal}{SCOPE_SEPARATOR}{self.key}"

    def replay(self, digest: str | None, response: str | None) -> str:
        """The stored answer to replay, if the stored request is this one."""
        if digest != self.digest:
            raise different_request(self.key, "request")
        if response is None:
            raise TractatusError("the stored request has no answer to replay")
        return response


@dataclass(frozen=True)
class Answer(Generic[T]):
    """A write's answer, and whether it replays the first answer to its idempotency key."""

    value: T
    replayed: bool = False


class TwinWon(TractatusError):
    """Raised inside a writing transaction whose key a racing twin committed first: rolls it
    back; the caller answers with the twin's stored answer."""

    def __init__(self, response: str) -> None:
        super().__init__("a request with this idempotency key was written first")
        self.response = response


def stored_answer(driver: Driver, *, database: str, key: Key | None) -> str | None:
    """The stored answer of this key's request (None: the key is new); 409 if the key was
    used for a different request."""
    if key is None:
        return None
    records, _, _ = driver.execute_query(
        cypher.FIND_REQUEST,
        scope=key.scope,
        unrouted=key.unrouted_scope,
        route=key.route,
        database_=database,
        routing_="r",
    )
    if not records:
        return None
    return key.replay(records[0]["request_sha256"], records[0]["response"])


def claim(tx: ManagedTransaction, key: Key | None) -> None:
    """Claim the key as the transaction's first write; a twin that committed it first makes
    this one roll back (:class:`TwinWon`, or 409 for a different request)."""
    if key is None:
        return
    record = tx.run(
        cypher.CLAIM_REQUEST,
        scope=key.scope,
        request_sha256=key.digest,
        route=key.route,
        principal=key.principal,
        now=to_rfc3339(utcnow()),
        claim=new_id(),
    ).single(strict=True)
    if not record["created"]:
        raise TwinWon(key.replay(record["request_sha256"], record["response"]))


def remember(tx: ManagedTransaction, key: Key | None, response: str) -> None:
    """Store the answer with the request, in the writing transaction."""
    if key is None:
        return
    done = tx.run(cypher.SET_RESPONSE, scope=key.scope, response=response).single(strict=True)
    if done["set"] != 1:
        raise TractatusError("the idempotency key's answer was already stored")
