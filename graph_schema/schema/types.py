"""Types of the ontology: the predicates this memory tracks and their disclosure policies."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated

from pydantic import Field, StrictBool, StrictFloat, StrictInt, StrictStr, field_validator

from graph_schema.core.types import AccessList, Strict

PREDICATE_PATTERN = re.compile(r"^[a-z][a-z0-9_]{0,63}$")


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
    band_width: Annotated[StrictFloat | StrictInt, Field(gt=0)] | None = None
    trend: StrictBool = False


class OntologyChanges(Strict):
    """What seeding the ontology did to a store."""

    created: list[StrictStr] = Field(default_factory=list)
    upgraded: list[StrictStr] = Field(default_factory=list)
    refused: dict[StrictStr, StrictStr] = Field(default_factory=dict)
    """Seed predicates kept as stored, with the reason (a changed cardinality or type)."""


class Predicate(Strict):
    """A predicate of the ontology: what this memory tracks."""

    name: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    cardinality: Cardinality
    value_type: ValueType = ValueType.string
    ephemeral: StrictBool = False
    description: Annotated[StrictStr, Field(max_length=2_000)] = ""
    disclosure: DisclosurePolicy | None = None
    version: Annotated[StrictInt, Field(ge=1, le=1_000_000)] = 1
    """The definition's version: ``tractatus migrate`` upgrades a stored predicate to a
    higher seed version; an identical re-registration must name the same version."""

    @field_validator("name")
    @classmethod
    def _name_shape(cls, value: str) -> str:
        if not PREDICATE_PATTERN.match(value):
            raise ValueError("predicate names are lower_snake_case, 1-64 characters")
        return value
