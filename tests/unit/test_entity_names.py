"""Entity names: normal forms, keys and ids per namespace, kinds read from identifiers."""

from __future__ import annotations

import hashlib
import re

import pytest

from graph_schema.entities.names import (
    ID_PATTERN,
    PERSON_OBJECT_PREDICATES,
    PERSON_PREDICATES,
    PLACE_PREDICATES,
    entity_id,
    entity_key,
    entity_ref,
    fold,
    is_identifier,
    kind_of,
    normalise,
    search_words,
)


@pytest.mark.parametrize(
    ("raw", "normal"),
    [
        ("user:alice", "user:alice"),
        ("  Acme \t  GmbH\n", "acme gmbh"),
        ("ＡＣＭＥ", "acme"),  # full-width letters: NFKC
        ("user:alice/dog:Max", "user:alice/dog:max"),
        ("需求文档", "需求文档"),
    ],
)
def test_normal_form(raw: str, normal: str) -> None:
    assert normalise(raw) == normal


def test_a_name_has_one_key_and_id_per_namespace_whatever_its_spelling() -> None:
    public = entity_ref("Acme  GmbH", [])
    assert public == entity_ref(" acme gmbh ", [])
    assert entity_ref("Acme GmbH", ["sales", "finance"]) == entity_ref(
        "ACME GMBH", ["finance", "sales"]
    )
    # another visibility scope, another entity
    assert entity_ref("Acme GmbH", ["finance"]) != public
    assert entity_ref("Acme GmbH", ["finance"]) != entity_ref("Acme GmbH", ["finance", "sales"])
    assert re.fullmatch(r"[0-9a-f]{64}", public["key"])
    assert re.fullmatch(ID_PATTERN, public["id"])
    assert public["id"] == entity_id(entity_key("acme gmbh", []))


def test_ids_never_change() -> None:
    """The id of a name is fixed by the formula: a change of it would orphan stored ids."""
    assert entity_ref("user:alice", [])["id"] == "ent_" + entity_key("user:alice", [])[:24]
    assert entity_key("user:alice", []) == hashlib.sha256(b'[[], "user:alice"]').hexdigest()


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("user:alice", "person"),
        ("person:Caroline", "person"),
        ("user:alice/father", "person"),
        ("user:alice/sister:Anna", "person"),
        ("user:alice/friend:Bo", "person"),
        ("user:alice/parents", "people"),
        ("user:alice/friends", "people"),
        ("user:alice/grandchildren", "people"),
        ("user:alice/dog:Max", "pet"),
        ("user:alice/turtles", "pet"),
        ("order:42", "order"),
        ("agent:planner", "agent"),
        ("Acme", "thing"),
        ("billing service", "thing"),
        ("https://example.com/x", "thing"),
        ("user:alice/notes", "person"),
    ],
)
def test_kind_read_from_the_identifier(name: str, kind: str) -> None:
    assert kind_of(name) == kind


def test_a_plain_name_holding_a_persons_predicate_is_a_person_and_nothing_else_changes() -> None:
    """A speaker named plainly ("Ana") is a ``thing`` by its identifier; holding a predicate
    only a person holds (``has_relative``, ``works_at``...) makes it a ``person``. A kind the
    identifier says is never overridden."""
    assert (kind_of("Ana"), kind_of("Ana", personal=True)) == ("thing", "person")
    assert kind_of("order:42", personal=True) == "order"
    assert kind_of("user:ana/dog:Pico", personal=True) == "pet"
    assert kind_of("user:ana/parents", personal=True) == "people"
    assert {"has_relative", "works_at", "has_pet"} <= PERSON_PREDICATES
    assert "said" not in PERSON_PREDICATES, "tools and agents say things too"


def test_a_plain_name_that_is_visited_or_lived_in_is_a_place_unless_a_person() -> None:
    """ "I just got back from Lisbon": the object of a place's predicate is a ``place``; a
    person's predicate wins (a speaker others visit is a person), and an identifier's own kind
    is never overridden."""
    assert (kind_of("Lisbon"), kind_of("Lisbon", placed=True)) == ("thing", "place")
    assert kind_of("Ana", personal=True, placed=True) == "person"
    assert kind_of("order:42", placed=True) == "order"
    assert kind_of("user:ana/dog:Pico", placed=True) == "pet"
    # where someone works or studied: an organization, unless a person or a place
    assert (kind_of("Pagaqui"), kind_of("Pagaqui", employs=True)) == ("thing", "organization")
    assert kind_of("Ana", personal=True, employs=True) == "person"
    assert kind_of("Lisbon", placed=True, employs=True) == "place"
    assert kind_of("org:acme", employs=True) == "org"  # the identifier's own kind stays
    assert {"visited", "lives_in", "comes_from", "located_in"} == PLACE_PREDICATES


def test_an_owner_is_a_person_by_the_predicate_it_is_the_object_of() -> None:
    assert {"owner"} == PERSON_OBJECT_PREDICATES
    assert not PERSON_OBJECT_PREDICATES & PLACE_PREDICATES


@pytest.mark.parametrize(
    ("raw", "folded"),
    [
        ("Tomás Ortega", "tomas ortega"),
        ("ＴＯＭÁＳ", "tomas"),  # full-width, upper case, accented
        ("Łódź", "lodz"),
        ("NGUYỄN", "nguyen"),  # two marks on one letter
        ("Straße", "strasse"),
        ("Ærøskøbing", "aeroskobing"),
        ("王小明", "王小明"),  # Chinese: untouched
        ("ガラス", "ガラス"),  # a Japanese sound mark is kept
        ("ｶﾞ", "ガ"),  # half-width katakana: composed as NFKC would
        ("한국어", "한국어"),  # Hangul decomposes and composes again
    ],
)
def test_fold_drops_diacritics_width_and_case_only(raw: str, folded: str) -> None:
    assert fold(raw) == folded


def test_search_words_are_folded_and_split() -> None:
    assert search_words("  Tomás \t ORTEGA ") == ["tomas", "ortega"]
    assert search_words("\u0301") == []  # a mark alone is no word


def test_an_identifier_is_told_from_a_plain_name() -> None:
    assert is_identifier("user:caro") and is_identifier("Tomás Ortega/brother:Mateo")
    assert not is_identifier("Caroline Uvier") and not is_identifier("billing service")
