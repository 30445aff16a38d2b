"""Types of the ontology: the predicates this memory tracks and their disclosure policies."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    WithJsonSchema,
    field_validator,
)

from graph_schema.core.types import INTEGRAL, AccessList, Strict

PREDICATE_TEXT = r"^[a-z][a-z0-9_]{0,63}$"
PREDICATE_PATTERN = re.compile(PREDICATE_TEXT)
MAX_DESCRIPTION_CHARS = 2_000


class Cardinality(StrEnum):
    one = "one"
    many = "many"


class ValueType(StrEnum):
    string = "string"
    number = "number"
    boolean = "boolean"
    datetime = "datetime"


class DisclosurePolicy(Strict):
    """A predicate's rule for producing disclosures: a numeric band and/or the trend."""

    audience: Annotated[AccessList, Field(min_length=1)]
    band_width: (
        Annotated[
            StrictFloat | StrictInt,
            Field(gt=0),
            WithJsonSchema({"type": "number", "exclusiveMinimum": 0}),
        ]
        | None
    ) = None
    trend: StrictBool = False


class OntologyChanges(Strict):
    """What seeding the ontology did to a store."""

    created: list[StrictStr] = Field(default_factory=list)
    upgraded: list[StrictStr] = Field(default_factory=list)
    refused: dict[StrictStr, StrictStr] = Field(default_factory=dict)
    """Seed predicates kept as stored, with the reason (a changed cardinality or type)."""


class Predicate(Strict):
    """A predicate of the ontology: what this memory tracks."""

    name: Annotated[
        StrictStr,
        Field(min_length=1, max_length=64),
        WithJsonSchema({"type": "string", "pattern": PREDICATE_TEXT}),
    ]
    cardinality: Cardinality
    value_type: ValueType = ValueType.string
    ephemeral: StrictBool = False
    object_entity: StrictBool = False
    """The object names a thing (a place, a person, an organisation), not a value: it is an
    entity, linked by ``OBJECT`` (docs/entities.md). Only for string predicates."""
    description: Annotated[StrictStr, Field(max_length=MAX_DESCRIPTION_CHARS)] = ""
    disclosure: DisclosurePolicy | None = None
    version: Annotated[StrictInt, Field(ge=1, le=1_000_000), INTEGRAL] = 1
    """The definition's version: ``tractatus migrate`` upgrades a stored predicate to a
    higher seed version; an identical re-registration must name the same version."""

    @field_validator("name")
    @classmethod
    def _name_shape(cls, value: str) -> str:
        if not PREDICATE_PATTERN.fullmatch(value):
            raise ValueError("predicate names are lower_snake_case, 1-64 characters")
        return value


class OntologyAnswer(BaseModel):
    """Every predicate of the ontology, by name."""

    predicates: list[Predicate]


class PredicateRegistered(BaseModel):
    """The predicate as stored; ``created`` is false when an identical one already existed."""

    predicate: Predicate
    created: bool


StoreState = Literal["up", "down"]
# why a probe found the store down: no connection (refused, reset, no route, the server
# stopping), no answer within the probe's bound, or an answer that is an error (credentials,
# a database that is not online)
DownReason = Literal["unreachable", "timeout", "error"]


class Health(BaseModel):
    """The API serves; the store's state as a probe found it within its bound, and the schema
    version it is at (``null`` while it is down, with ``store_error`` saying why)."""

    status: Literal["ok"]
    neo4j: StoreState
    schema_version: int | None
    schema_latest: int
    store_error: DownReason | None = None
