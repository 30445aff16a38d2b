"""Entity reads: the search and the page, in one read transaction each, filtered by the
caller's groups inside the Cypher (docs/entities.md). An entity no visible assertion names
does not exist for the caller."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from neo4j import Driver, ManagedTransaction

from graph_schema.core.types import Principal, Status, Tier
from graph_schema.entities import cypher
from graph_schema.entities.names import (
    ORGANIZATION_PREDICATES,
    PERSON_OBJECT_PREDICATES,
    PERSON_PREDICATES,
    PLACE_PREDICATES,
    is_identifier,
    kind_of,
    search_words,
)
from graph_schema.entities.types import EntitiesAnswer, EntityAnswer, EntityOut, EntitySummary
from graph_schema.ledger.records import assertion_out
from graph_schema.lifecycle import access

DEFAULT_TIERS = (Tier.short, Tier.long)
DEFAULT_LIMIT = 20
MAX_LIMIT = 100
# assertions listed on a page, each side
PAGE_ASSERTIONS = 500


@dataclass(frozen=True)
class At:
    """The coordinates and the caller of a read."""

    principal: Principal
    as_of: datetime
    known_at: datetime

    def params(self) -> dict[str, Any]:
        return {
            "as_of": self.as_of,
            "known_at": self.known_at,
            "groups": list(self.principal.groups),
            "caller": self.principal.id,
            "tiers": [t.value for t in DEFAULT_TIERS],
        }


def _unique(values: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(values))


@dataclass(frozen=True)
class _Member:
    """An entity as named, with its current `name` assertion's (valid_from, id), if any."""

    summary: EntitySummary
    stated: tuple[datetime, str] | None


def _member(record: Any) -> _Member:
    spellings = _unique(record["spellings"])
    names = record["names"]
    summary = EntitySummary(
        id=record["id"],
        kind=kind_of(
            spellings[0],
            personal=record["personal"],
            placed=record["placed"],
            employs=record["employs"],
        ),
        name=names[0]["name"] if names else spellings[0],
        names=spellings,
        aliases=_unique(record["aliases"]),
    )
    stated = (names[0]["valid_from"].to_native(), names[0]["id"]) if names else None
    return _Member(summary, stated)


def _members(tx: ManagedTransaction, ids: list[str], at: At) -> list[_Member]:
    """The entities of ``ids`` that visible assertions name, in the order of ``ids``."""
    rows = tx.run(
        cypher.NAMES,
        ids=ids,
        person_predicates=sorted(PERSON_PREDICATES),
        person_object_predicates=sorted(PERSON_OBJECT_PREDICATES),
        place_predicates=sorted(PLACE_PREDICATES),
        organization_predicates=sorted(ORGANIZATION_PREDICATES),
        **at.params(),
    )
    found = {r["id"]: _member(r) for r in rows}
    return [found[i] for i in ids if i in found]


def _summaries(tx: ManagedTransaction, ids: list[str], at: At) -> list[EntitySummary]:
    return [m.summary for m in _members(tx, ids, at)]


def _display_name(members: Sequence[_Member]) -> str:
    """The name of a page over ``members`` (the entity asked for first, then those merged
    into it): its own stated name; else the stated name of a merged entity, the one valid
    from the latest (then the smallest assertion id); else the first spelling that is not an
    identifier (``user:x``, ``x/brother``), the entity's own first, then those of the merged
    entities by id; else its own first spelling (docs/entities.md "Kind and display name")."""
    head, others = members[0], sorted(members[1:], key=lambda m: m.summary.id)
    if head.stated is not None:
        return head.summary.name
    stated = [(m.stated, m.summary.name) for m in others if m.stated is not None]
    if stated:
        latest = max(when for (when, _), _ in stated)
        return min((i, name) for (when, i), name in stated if when == latest)[1]
    plain = [n for m in (head, *others) for n in m.summary.names if not is_identifier(n)]
    return plain[0] if plain else head.summary.name


def _search(tx: ManagedTransaction, words: list[str], limit: int, at: At) -> list[EntitySummary]:
    seek = max(words, key=len)  # the index finds the candidates by the longest word
    params = {"words": words, "seek": seek, "limit": limit, **at.params()}
    ids = [r["id"] for r in tx.run(cypher.SEARCH, params)]
    return _summaries(tx, ids, at)


def search(driver: Driver, *, database: str, q: str, limit: int, at: At) -> EntitiesAnswer:
    """Entities whose visible spellings, names or aliases contain every word of ``q``
    (folded: without diacritics, full-width letters or case, ``names.fold``)."""
    words = search_words(q)
    found = []
    if words:
        with driver.session(database=database, default_access_mode="READ") as session:
            found = session.execute_read(_search, words, min(limit, MAX_LIMIT), at)
    return EntitiesAnswer(
        status=Status.answered if found else Status.not_found,
        q=q,
        entities=found,
        as_of=at.as_of,
        known_at=at.known_at,
    )


def _page(tx: ManagedTransaction, entity_id: str, at: At) -> EntityAnswer | None:
    """The page, or None. An id no entity has runs the same statements as an entity the
    caller may not read, each returning the same rows (``MERGED`` answers ``[id]``, the names
    read find none visible): a new user's trial timed the two and told them apart by the
    statement the unknown id skipped (about 0.5 ms, an AUC of 0.95), and an entity's id can
    be computed from a group and a name."""
    merged = tx.run(cypher.MERGED, id=entity_id, **at.params()).single(strict=True)
    return page_of(tx, entity_id, list(merged["ids"]), at, truncated=merged["truncated"])


def page_of(
    tx: ManagedTransaction,
    entity_id: str,
    merged: list[str],
    at: At,
    *,
    truncated: bool = False,
) -> EntityAnswer | None:
    """The page of ``entity_id`` merged with ``merged`` (itself first; ``truncated``: the
    same_as chain goes on beyond them), or None when no visible assertion names it."""
    members = _members(tx, merged, at)
    if not members or members[0].summary.id != entity_id:
        return None  # no visible assertion names the entity asked for
    summaries = [m.summary for m in members]
    ids = [m.id for m in summaries]
    about, pointing = (
        [
            assertion_out(r, known_at=at.known_at)
            for r in tx.run(statement, ids=ids, limit=PAGE_ASSERTIONS, **at.params())
        ]
        for statement in (cypher.ABOUT_ASSERTIONS, cypher.POINTING_AT_ASSERTIONS)
    )
    entity = EntityOut(
        id=entity_id,
        kind=summaries[0].kind,
        name=_display_name(members),
        names=_unique([n for m in summaries for n in m.names]),
        aliases=_unique([a for m in summaries for a in m.aliases]),
        merged=ids[1:],
        merged_truncated=truncated,
    )
    return EntityAnswer(
        status=Status.answered,
        entity=entity,
        about=about,
        pointing_at=pointing,
        as_of=at.as_of,
        known_at=at.known_at,
    )


def entity_page(
    driver: Driver,
    *,
    database: str,
    entity_id: str,
    at: At,
    recorder: access.AccessRecorder | None = None,
) -> EntityAnswer | None:
    """The page of ``entity_id`` as of ``at``; None when no visible assertion names it (the
    same for an id that does not exist)."""
    with driver.session(database=database, default_access_mode="READ") as session:
        page = session.execute_read(_page, entity_id, at)
    if page is not None:
        access.record(recorder, access.returned([*page.about, *page.pointing_at]))
    return page
