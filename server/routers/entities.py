"""GET /v1/entities and /v1/entities/{id}: the things assertions are about, as the caller's
visible assertions name them (docs/entities.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from graph_schema.core.errors import NotFound
from graph_schema.core.types import Name
from graph_schema.entities import reads
from graph_schema.entities.names import ID_PATTERN
from graph_schema.entities.types import EntitiesAnswer, EntityAnswer
from server.deps import AccessLogDep, DriverDep, PrincipalDep, SettingsDep
from server.errors import PARAMS, V1, declared
from server.params import TimeParam, coordinates
from server.routing import JSONRoute

router = APIRouter(prefix="/v1/entities", tags=["entities"], route_class=JSONRoute)

EntityIdPath = Annotated[str, Path(pattern=ID_PATTERN, min_length=28, max_length=28)]
# a name as writes take it: not blank, no NUL, 1-512 characters
EntityQuery = Annotated[
    Name,
    Query(
        description="words the entity's visible names or aliases all contain (without regard"
        " to case, width or diacritics: `Tomas` finds `Tomás`)"
    ),
]
NO_ENTITY = "no visible entity with this id"


@router.get("", response_model=EntitiesAnswer, responses=declared(*V1, *PARAMS))
def get_entities(
    q: EntityQuery,
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    as_of: TimeParam = None,
    known_at: TimeParam = None,
    limit: Annotated[int, Query(ge=1, le=reads.MAX_LIMIT)] = reads.DEFAULT_LIMIT,
) -> EntitiesAnswer:
    """Entities whose visible names or aliases contain ``q`` (folded: NFKD, lower case,
    without diacritics, whitespace collapsed; the names shown as written); ``not_found`` when
    none."""
    valid, known = coordinates(as_of, known_at)
    return reads.search(
        driver,
        database=settings.neo4j_database,
        q=q,
        limit=limit,
        at=reads.At(principal, valid, known),
    )


@router.get(
    "/{entity_id}", response_model=EntityAnswer, responses=declared(*V1, *PARAMS, "not_found")
)
def get_entity(
    entity_id: EntityIdPath,
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    access_log: AccessLogDep,
    as_of: TimeParam = None,
    known_at: TimeParam = None,
) -> EntityAnswer:
    """The entity with the visible assertions about it and pointing at it, current as of
    ``as_of`` (known at ``known_at``), merged over visible current ``same_as``; 404 when no
    visible assertion names it, exactly as for an id that does not exist."""
    valid, known = coordinates(as_of, known_at)
    page = reads.entity_page(
        driver,
        database=settings.neo4j_database,
        entity_id=entity_id,
        at=reads.At(principal, valid, known),
        recorder=access_log,
    )
    if page is None:
        raise NotFound(NO_ENTITY, details={"id": entity_id})
    return page
