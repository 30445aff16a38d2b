"""Entity names: the normalised form of an identifier, the entity key and id of a name in a
namespace, and the kind an identifier says (docs/entities.md).

A name is an assertion's subject (or a thing-object) exactly as stored: ``user:alice``,
``user:alice/dog:Max``, ``Acme``. Its normal form is NFKC, lower case, whitespace collapsed.
The namespace is the assertion's visibility scope, its sorted ``access`` list (public: empty).
The key is the sha256 of (namespace, normal form); the id is ``ent_`` and the key's first 24
hex characters, so a name in a namespace always has the same id, and an id never changes.
The search reads a name folded further (:func:`fold`): without its diacritics.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Sequence

from graph_schema.entities.roles import FRIENDS, PETS, RELATIVES

ID_PREFIX = "ent_"
ID_HEX_CHARS = 24
ID_PATTERN = rf"^{ID_PREFIX}[0-9a-f]{{{ID_HEX_CHARS}}}$"

# the predicates that give an entity a name or an alias to be found by (its subject's), as
# the search reads them (docs/entities.md)
NAME, ALIAS = "name", "alias"
NAMING_PREDICATES = (ALIAS, NAME)
_SPACES = re.compile(r"\s+")
_PREFIX = re.compile(r"^([a-z][a-z0-9_-]*):(?!//)")
_PEOPLE_PREFIXES = frozenset({"user", "person"})
_PETS = frozenset(PETS.values())
_PEOPLE = frozenset(RELATIVES.values()) | frozenset(FRIENDS.values())
_GROUPS = frozenset(r for r in _PEOPLE if r.endswith("s") or r.endswith("children"))


def normalise(name: str) -> str:
    """NFKC, lower case, every run of whitespace one space, no space at either end."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", name).lower()).strip()


# What the search folds a name to, beyond its normal form (docs/entities.md "The API"): the
# combining diacritical marks that a compatibility decomposition (NFKD) splits off a letter
# are dropped (`Tomás` -> `tomas`, `Nguyễn` -> `nguyen`), and the lower-case letters that
# carry their mark in the letter itself are spelled plainly. Other marks, the Japanese sound
# marks among them (`ガ` stays `ガ`), are kept; Chinese has none. The store folds the names it
# indexes the same way, in Cypher (``graph_schema.ledger.cypher.folded``).
FOLD_MARKS = tuple(chr(c) for c in range(0x0300, 0x0370))
FOLD_LETTERS: tuple[tuple[str, str], ...] = (
    ("ß", "ss"),
    ("æ", "ae"),
    ("œ", "oe"),
    ("ø", "o"),
    ("đ", "d"),
    ("ð", "d"),
    ("ł", "l"),
    ("ħ", "h"),
    ("ı", "i"),
    ("þ", "th"),
    ("ς", "σ"),
)


def fold(name: str) -> str:
    """``name`` as the search reads it: lower case, decomposed (NFKD), without the marks of
    :data:`FOLD_MARKS`, the letters of :data:`FOLD_LETTERS` spelled plainly, composed again
    (NFC). Only for finding: names are shown as written, and keys use :func:`normalise`."""
    text = unicodedata.normalize("NFKD", name.lower())
    for mark in FOLD_MARKS:
        text = text.replace(mark, "")
    for letter, plain in FOLD_LETTERS:
        text = text.replace(letter, plain)
    return unicodedata.normalize("NFC", text)


def search_words(q: str) -> list[str]:
    """The words of a search: ``q`` folded, split on runs of whitespace."""
    return [word for word in _SPACES.split(fold(normalise(q))) if word]


def namespace(access: Sequence[str]) -> list[str]:
    """The namespace of an assertion: its sorted access list (public: empty)."""
    return sorted(set(access))


def entity_key(name: str, access: Sequence[str]) -> str:
    """The key of ``name`` in the namespace of ``access`` (sha256 hex)."""
    canonical = json.dumps([namespace(access), normalise(name)], ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def entity_id(key: str) -> str:
    """The id of the entity of ``key``: derived from it, so it never changes."""
    return ID_PREFIX + key[:ID_HEX_CHARS]


def entity_ref(name: str, access: Sequence[str]) -> dict[str, str]:
    """``{"key", "id"}`` of ``name`` in the namespace of ``access``: what the writer MERGEs."""
    key = entity_key(name, access)
    return {"key": key, "id": entity_id(key)}


def _role(segment: str) -> str:
    """The role of the last segment of ``<person>/<role>[:<Name>]``."""
    return segment.split(":", 1)[0].strip()


# Predicates only a person holds as subject: an entity named plainly ("Ana", a speaker) that
# holds one of them, in an assertion the caller may read, is a person, not a thing.
PERSON_PREDICATES = frozenset(
    {
        "has_relative",
        "has_friend",
        "has_pet",
        "works_at",
        "works_as",
        "studies",
        "studied_at",
        "lives_in",
        "comes_from",
        "allergic_to",
        "health_condition",
    }
)


# Predicates whose object is a person: who owns a thing ("Lena owns the invoice service") is
# someone, so a plain name that is the object of one is a person, as a subject of the above.
PERSON_OBJECT_PREDICATES = frozenset({"owner"})


# Predicates whose object is a place: a plain name visited, lived in, come from or that
# something is located in, in an assertion the caller may read, is a place, not a thing.
PLACE_PREDICATES = frozenset({"visited", "lives_in", "comes_from", "located_in"})

# Predicates whose object is an organization: where someone works or studied ("a new job at
# a fintech called Pagaqui", "I studied at the Sorbonne").
ORGANIZATION_PREDICATES = frozenset({"works_at", "studied_at"})


def kind_of(
    name: str, *, personal: bool = False, placed: bool = False, employs: bool = False
) -> str:
    """The kind an identifier says: ``person`` (``user:``/``person:``, a relative or friend
    of someone), ``people`` (a group: ``user:alice/parents``), ``pet`` (``user:alice/dog:Max``),
    the prefix of any other ``prefix:rest`` identifier (``order:42`` -> ``order``), else
    ``thing``; ``personal``: the entity holds one of :data:`PERSON_PREDICATES` or is the
    object of one of :data:`PERSON_OBJECT_PREDICATES`, which makes a plain name (a ``thing``
    by its identifier) a ``person``; ``placed``: it is the object of
    one of :data:`PLACE_PREDICATES`, which makes a plain name that is no person a ``place``;
    ``employs``: it is the object of one of :data:`ORGANIZATION_PREDICATES`, which makes a
    plain name that is neither an ``organization``."""
    kind = _kind_of_identifier(name)
    if kind != "thing":
        return kind
    if personal or placed:
        return "person" if personal else "place"
    return "organization" if employs else kind


def is_identifier(name: str) -> bool:
    """Whether ``name`` is written as an identifier (``user:alice``, ``order:42``,
    ``Tomás Ortega/brother:Mateo``) rather than as a plain name (``Caroline Uvier``)."""
    norm = normalise(name)
    return "/" in norm or _PREFIX.match(norm) is not None


def _kind_of_identifier(name: str) -> str:
    norm = normalise(name)
    if "/" in norm:
        role = _role(norm.rsplit("/", 1)[-1])
        if role in _PETS:
            return "pet"
        if role in _PEOPLE:
            return "people" if role in _GROUPS else "person"
    prefix = _PREFIX.match(norm)
    if prefix is None:
        return "thing"
    return "person" if prefix.group(1) in _PEOPLE_PREFIXES else prefix.group(1)
