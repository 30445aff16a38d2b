"""Versioned ontology: `tractatus migrate` (ontology.seed) brings a store written before a
predicate changed up to the seed's definition, keeps what it replaced, and never changes a
predicate in a way that would orphan stored slots."""

from __future__ import annotations

import pytest
from neo4j import Driver

from graph_schema.schema import ontology
from graph_schema.schema.ontology import get_predicate, seed_predicates
from server.settings import Settings

pytestmark = pytest.mark.integration

OLD_SAID = "A faithful record of a statement that matched no more specific pattern."


def _as_before_versions(driver: Driver, db: str) -> None:
    """The store as `tractatus migrate` left it before predicates had versions: `said` with
    its first description and no version property; the new predicates absent."""
    new = [p.name for p in seed_predicates() if p.name in ("plans", "has_relative", "owner")]
    driver.execute_query(
        "MATCH (p:Predicate {name: 'said'}) SET p.description = $old REMOVE p.version "
        "WITH 1 AS one MATCH (q:Predicate) WHERE q.name IN $new DETACH DELETE q "
        "WITH 1 AS one MATCH (v:PredicateVersion) DETACH DELETE v",
        old=OLD_SAID,
        new=new,
        database_=db,
    )


def test_an_older_store_is_upgraded_once_and_keeps_the_old_definition(
    driver: Driver, settings: Settings, fresh_store: None
) -> None:
    db = settings.neo4j_database
    _as_before_versions(driver, db)
    before = get_predicate(driver, database=db, name="said")
    assert before is not None and before.version == 1 and before.description == OLD_SAID

    changes = ontology.seed(driver, database=db)
    assert "said" in changes.upgraded
    assert {"plans", "has_relative", "owner"} <= set(changes.created)
    assert changes.refused == {}
    said = get_predicate(driver, database=db, name="said")
    wanted = next(p for p in seed_predicates() if p.name == "said")
    assert said == wanted and said.version == 2

    records, _, _ = driver.execute_query(
        "MATCH (:Predicate {name: 'said'})-[:PREVIOUS]->(v:PredicateVersion) "
        "RETURN v.version AS version, v.description AS description",
        database_=db,
    )
    assert [(r["version"], r["description"]) for r in records] == [(1, OLD_SAID)]

    again = ontology.seed(driver, database=db)
    assert (again.created, again.upgraded, again.refused) == ([], [], {})


def test_a_changed_cardinality_is_refused_and_the_stored_predicate_kept(
    driver: Driver, settings: Settings, fresh_store: None
) -> None:
    db = settings.neo4j_database
    driver.execute_query(
        "MATCH (p:Predicate {name: 'said'}) SET p.cardinality = 'one', p.version = 1",
        database_=db,
    )
    changes = ontology.seed(driver, database=db)
    assert "said" in changes.refused
    assert "cardinality" in changes.refused["said"]
    kept = get_predicate(driver, database=db, name="said")
    assert kept is not None and kept.cardinality == "one" and kept.version == 1


def test_a_newer_stored_version_is_left_alone(
    driver: Driver, settings: Settings, fresh_store: None
) -> None:
    db = settings.neo4j_database
    driver.execute_query(
        "MATCH (p:Predicate {name: 'likes'}) SET p.version = 7, p.description = 'newer'",
        database_=db,
    )
    changes = ontology.seed(driver, database=db)
    assert "likes" not in changes.upgraded
    kept = get_predicate(driver, database=db, name="likes")
    assert kept is not None and (kept.version, kept.description) == (7, "newer")
