"""Migration 13 gives a store written before entities its Entity nodes and links, the same
ones the writer makes, and resumes when interrupted."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from neo4j import Driver

from graph_schema.entities import migration
from graph_schema.entities.names import entity_ref
from graph_schema.schema import migrations, ontology
from tests.helpers import Api, assertion

pytestmark = pytest.mark.integration

T0 = "2026-01-01T00:00:00Z"
AS_OF = "2026-06-01T00:00:00Z"
ENTITIES = next(m for m in migrations.MIGRATIONS if m.batches)
NEW = ("located_in", "alias", "same_as")  # the predicates entities brought

LINKS = """
MATCH (a:Assertion)
RETURN a.id AS id, [(a)-[:ABOUT]->(e:Entity) | e.id] AS about,
       [(a)-[:OBJECT]->(e:Entity) | e.id] AS object
"""


def _links(driver: Driver) -> dict[str, tuple[list[str], list[str]]]:
    records, _, _ = driver.execute_query(LINKS)
    return {r["id"]: (r["about"], r["object"]) for r in records}


def _pages(api: dict[str, Api], ids: list[str]) -> dict[str, Any]:
    pages = {}
    for entity_id in ids:
        response = api["alice"].get(f"/v1/entities/{entity_id}", as_of=AS_OF)
        assert response.status_code == 200, response.text
        pages[entity_id] = {k: v for k, v in response.json().items() if k != "known_at"}
    return pages


def test_an_older_store_gets_its_entities_and_the_migration_resumes(
    driver: Driver, fresh_store: None, api: dict[str, Api]
) -> None:
    tag = uuid.uuid4().hex[:8]
    alice, acme, berlin = f"user:alice-{tag}", f"Acme {tag}", f"Berlin {tag}"
    bodies = [
        assertion(alice, "works_at", acme, valid_from=T0),
        assertion(acme, "located_in", berlin, valid_from=T0),
        assertion(alice, "likes", "tea", valid_from=T0),
        assertion(alice, "same_as", f"person:alice-{tag}", valid_from=T0),
        assertion(alice, "lives_in", f"Hidden Town {tag}", valid_from=T0, access=["finance"]),
    ]
    written = api["alice"].post("/v1/assertions", {"assertions": bodies})
    assert written.status_code == 201, written.text
    ids = [entity_ref(n, [])["id"] for n in (alice, acme, berlin, f"person:alice-{tag}")]
    ids.append(entity_ref(alice, ["finance"])["id"])
    links, pages = _links(driver), _pages(api, ids)
    predicates = ontology.list_predicates(driver, database="neo4j")
    assert len(links) == len(bodies) and all(about for about, _ in links.values())

    # the store as it was before entities: no Entity, no link, the predicates entities added
    # missing, the others at version 1 without the flag
    driver.execute_query("MATCH (e:Entity) DETACH DELETE e")
    driver.execute_query("MATCH (p:Predicate) WHERE p.name IN $new DETACH DELETE p", new=NEW)
    driver.execute_query(
        "MATCH (p:Predicate {object_entity: true}) REMOVE p.object_entity SET p.version = 1"
    )
    driver.execute_query("MATCH (v:SchemaVersion) SET v.version = $v", v=ENTITIES.version - 1)
    for entity_id in ids:
        assert api["alice"].get(f"/v1/entities/{entity_id}").status_code == 404

    # interrupted after its first batch: two versions linked
    assert migration.link_batch(driver, database="neo4j", batch=2) == 2
    assert sum(1 for about, _ in _links(driver).values() if about) == 2

    later = [m.version for m in migrations.MIGRATIONS if m.version >= ENTITIES.version]
    assert migrations.migrate(driver, database="neo4j") == later
    assert _links(driver) == links  # the same entities and links as the writer made
    assert _pages(api, ids) == pages
    assert migrations.migrate(driver, database="neo4j") == []
    # the seed then gives the predicates their flag back, and adds the new ones
    seeded = ontology.seed(driver, database="neo4j")
    assert "works_at" in seeded.upgraded and sorted(seeded.created) == sorted(NEW)
    assert ontology.list_predicates(driver, database="neo4j") == predicates
    stored = ontology.get_predicate(driver, database="neo4j", name="works_at")
    assert stored is not None and stored.object_entity


SEARCHABLE = next(m for m in migrations.MIGRATIONS if m.name.startswith("entity search by index"))


def test_versions_written_before_the_search_index_get_their_names_and_are_found(
    driver: Driver, fresh_store: None, api: dict[str, Api]
) -> None:
    """Migration 16 gives the versions written before it the lower-cased names the search
    seeks by index (a store of those versions found nothing by `q`), a batch at a time."""
    tag = uuid.uuid4().hex[:8]
    bodies = [
        assertion(f"user:Zoe-{tag}", "works_at", f"Acme Labs {tag}", valid_from=T0),
        assertion(f"user:Zoe-{tag}", "alias", f"Zed {tag}", valid_from=T0),
        assertion(f"user:Zoe-{tag}", "likes", "tea", valid_from=T0),
    ]
    assert api["alice"].post("/v1/assertions", {"assertions": bodies}).status_code == 201

    def found(q: str) -> list[str]:
        response = api["alice"].get("/v1/entities", q=q, as_of=AS_OF)
        assert response.status_code == 200, response.text
        return sorted(e["name"] for e in response.json()["entities"])

    before = {q: found(q) for q in (f"zoe-{tag}", f"acme {tag}", f"zed {tag}")}
    assert all(before.values()), before
    driver.execute_query("MATCH (a:Assertion) REMOVE a.subject_lower, a.object_lower")
    driver.execute_query("MATCH (v:SchemaVersion) SET v.version = $v", v=SEARCHABLE.version - 1)
    assert all(found(q) == [] for q in before)  # nothing to seek by
    step = SEARCHABLE.steps[0]
    records, _, _ = driver.execute_query(step, batch=2)
    assert records[0]["done"] == 2  # interrupted after its first batch: the rest still left
    later = [m.version for m in migrations.MIGRATIONS if m.version > SEARCHABLE.version]
    assert migrations.migrate(driver, database="neo4j") == [SEARCHABLE.version, *later]
    assert {q: found(q) for q in before} == before
    records, _, _ = driver.execute_query(
        "MATCH (a:Assertion) WHERE a.subject_lower IS NULL RETURN count(a) AS left"
    )
    assert records[0]["left"] == 0


FOLDED = next(m for m in migrations.MIGRATIONS if m.name.startswith("entity search folds"))


def test_versions_indexed_before_the_search_folded_diacritics_are_folded_and_found(
    driver: Driver, fresh_store: None, api: dict[str, Api]
) -> None:
    """Migration 18 folds the names of versions indexed lower-cased only (`tomás`), so the
    search, which folds `q` (`Tomas` and `Tomás` are both `tomas`), finds them again; a name
    all ASCII is left as it is, and the step resumes after a batch."""
    tag = uuid.uuid4().hex[:8]
    bodies = [
        assertion(f"Tomás Ortega {tag}", "lives_in", f"Łódź {tag}", valid_from=T0),
        assertion(f"Zoë {tag}", "alias", f"Zoé Ñ {tag}", valid_from=T0),
        assertion(f"user:plain-{tag}", "works_at", f"Acme {tag}", valid_from=T0),
    ]
    assert api["alice"].post("/v1/assertions", {"assertions": bodies}).status_code == 201

    def found(q: str) -> list[str]:
        response = api["alice"].get("/v1/entities", q=q, as_of=AS_OF)
        assert response.status_code == 200, response.text
        return sorted(e["name"] for e in response.json()["entities"])

    queries = (f"tomas {tag}", f"TOMÁS {tag}", f"lodz {tag}", f"zoe n {tag}", f"acme {tag}")
    before = {q: found(q) for q in queries}
    assert before[f"tomas {tag}"] == before[f"TOMÁS {tag}"] == [f"Tomás Ortega {tag}"]
    assert before[f"lodz {tag}"] == [f"Łódź {tag}"]
    assert before[f"zoe n {tag}"] == [f"Zoë {tag}"]
    # the names as migration 16 wrote them, lower-cased only
    driver.execute_query(
        "MATCH (a:Assertion) SET a.subject_lower = toLower(a.subject),"
        " a.object_lower = CASE WHEN a.object_lower IS NOT NULL THEN toLower(a.object) END"
    )
    driver.execute_query("MATCH (v:SchemaVersion) SET v.version = $v", v=FOLDED.version - 1)
    assert found(f"tomas {tag}") == found(f"lodz {tag}") == []
    records, _, _ = driver.execute_query(FOLDED.steps[0], batch=1)
    assert records[0]["done"] == 1  # interrupted after its first batch
    assert migrations.migrate(driver, database="neo4j") == [FOLDED.version]
    assert {q: found(q) for q in queries} == before
    records, _, _ = driver.execute_query(FOLDED.steps[0], batch=1000)
    assert records[0]["done"] == 0  # nothing left to fold
