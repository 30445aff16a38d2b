"""Types of entity reads: an entity as its visible assertions name it, and its page."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from graph_schema.core.types import Status
from graph_schema.ledger.types import AssertionOut


class EntitySummary(BaseModel):
    """An entity as the caller's visible assertions name it; nothing here is stored on the
    Entity node (it holds only its id and a key)."""

    id: str = Field(description="`ent_` and 24 hex characters; never changes")
    kind: str = Field(
        description="read from the identifier: person, people, pet, thing, or the prefix of a"
        " `prefix:rest` identifier (`order:42` -> order); a plain name is a person when it holds"
        " a person's predicate (has_relative, works_at...) or is the object of owner, else a"
        " place when it is the object of"
        " visited, lives_in, comes_from or located_in, else an organization when it is the"
        " object of works_at or studied_at, in assertions the caller may read"
    )
    name: str = Field(
        description="the object of its current visible `name` assertion, else its identifier"
        " as first written; on a merged page, else a merged entity's stated name (the latest),"
        " else the first spelling that is not an identifier"
    )
    names: list[str] = Field(description="every spelling of it in visible assertions")
    aliases: list[str] = Field(description="the objects of its current visible `alias` assertions")


class EntitiesAnswer(BaseModel):
    """Entities whose visible names or aliases contain the query (normalised)."""

    status: Status
    q: str
    entities: list[EntitySummary]
    as_of: datetime
    known_at: datetime


class EntityOut(EntitySummary):
    """The entity asked for, with the entities merged into it by visible, current `same_as`
    assertions (followed both ways, transitively)."""

    merged: list[str] = Field(description="ids of the other entities merged into this page")
    merged_truncated: bool = Field(
        default=False,
        description="true when a visible current `same_as` joins one of them to an entity"
        " farther than the 8 hops followed: the merge shown is cut, and the page of another"
        " member may show another union",
    )


class EntityAnswer(BaseModel):
    """The page of an entity as of a time: the visible current assertions about it (its
    subject) and pointing at it (their object is it), over the merged entities."""

    status: Status
    entity: EntityOut
    about: list[AssertionOut]
    pointing_at: list[AssertionOut]
    as_of: datetime
    known_at: datetime
