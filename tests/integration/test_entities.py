"""Entities over real HTTP and the real store: pages, aliases, a same_as merge and its
retraction, an entity hidden by permissions, the analyst's walk, the copies of a version."""

from __future__ import annotations

import uuid
from itertools import pairwise
from typing import Any

import pytest
from neo4j import Driver

from graph_schema.entities.cypher import MAX_MERGE_HOPS
from graph_schema.entities.names import entity_ref, fold
from graph_schema.ledger.cypher import folded
from tests.helpers import Api, assertion
from tests.integration.test_events_support import at, event, fact, new_task

pytestmark = pytest.mark.integration

T0 = "2026-01-01T00:00:00Z"
T1 = "2026-02-01T00:00:00Z"
BETWEEN = "2026-02-15T00:00:00Z"
T2 = "2026-03-01T00:00:00Z"
AFTER = "2026-04-01T00:00:00Z"


def _tag() -> str:
    return uuid.uuid4().hex[:8]


def _write(api: Api, *bodies: dict[str, Any]) -> list[str]:
    response = api.post("/v1/assertions", {"assertions": list(bodies)})
    assert response.status_code == 201, response.text
    return [r["assertion"]["id"] for r in response.json()["results"]]


def _page(api: Api, entity_id: str, **params: Any) -> dict[str, Any]:
    response = api.get(f"/v1/entities/{entity_id}", **params)
    assert response.status_code == 200, response.text
    page: dict[str, Any] = response.json()
    return page


def _search(api: Api, q: str, **params: Any) -> dict[str, Any]:
    response = api.get("/v1/entities", q=q, **params)
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def _id(name: str, access: list[str] | None = None) -> str:
    return entity_ref(name, access or [])["id"]


def test_page_of_an_entity_and_the_walk_alice_acme_berlin(
    api: dict[str, Api], driver: Driver
) -> None:
    tag = _tag()
    alice, acme, berlin = f"user:alice-{tag}", f"Acme {tag}", f"Berlin {tag}"
    works, located = _write(
        api["alice"],
        assertion(alice, "works_at", acme, valid_from=T0),
        assertion(acme, "located_in", berlin, valid_from=T0),
    )
    # a spelling of Acme in another case and spacing is the same entity
    (likes,) = _write(api["alice"], assertion(alice, "likes", "tea", valid_from=T0))

    page = _page(api["public"], _id(f"  ACME   {tag} "))
    assert page["status"] == "answered"
    assert page["entity"]["id"] == _id(acme)
    assert page["entity"]["kind"] == "organization", "someone works there"
    assert page["entity"]["name"] == acme
    assert [a["id"] for a in page["about"]] == [located]
    assert [a["id"] for a in page["pointing_at"]] == [works]

    person = _page(api["public"], _id(alice))["entity"]
    assert (person["kind"], person["name"], person["merged"]) == ("person", alice, [])
    assert {a["id"] for a in _page(api["public"], _id(alice))["about"]} == {works, likes}
    # a value, not a thing: "tea" is no entity
    assert api["public"].get(f"/v1/entities/{_id('tea')}").status_code == 404

    walk, _, _ = driver.execute_query(
        "MATCH (p:Entity {id: $alice})<-[:ABOUT]-(w:Assertion {predicate: 'works_at'})"
        "-[:OBJECT]->(c:Entity)<-[:ABOUT]-(l:Assertion {predicate: 'located_in'})"
        "-[:OBJECT]->(city:Entity) RETURN c.id AS company, city.id AS city",
        alice=_id(alice),
    )
    assert [(r["company"], r["city"]) for r in walk] == [(_id(acme), _id(berlin))]
    assert _page(api["public"], _id(berlin))["entity"]["kind"] == "place", "located in it"
    # the node holds its id and key, nothing a caller could read a name from
    keys, _, _ = driver.execute_query(
        "MATCH (e:Entity {id: $id}) RETURN keys(e) AS keys", id=_id(acme)
    )
    assert sorted(keys[0]["keys"]) == ["id", "key"]


def test_alias_is_found_by_q_and_a_name_is_the_display_name(api: dict[str, Api]) -> None:
    tag = _tag()
    subject = f"person:caroline-{tag}"
    _write(
        api["alice"],
        assertion(subject, "lives_in", f"Paris {tag}", valid_from=T0),
        assertion(subject, "alias", f"Bibi {tag}", valid_from=T0),
        assertion(subject, "name", f"Caroline Martin {tag}", valid_from=T0),
    )
    found = _search(api["public"], f"  BIBI  {tag.upper()} ")
    assert found["status"] == "answered"
    (entity,) = found["entities"]
    assert entity["id"] == _id(subject)
    assert entity["aliases"] == [f"Bibi {tag}"]
    assert entity["name"] == f"Caroline Martin {tag}"
    assert entity["kind"] == "person"
    # before the alias was valid, it does not find the entity
    assert _search(api["public"], f"bibi {tag}", as_of="2025-06-01T00:00:00Z")["entities"] == []

    nothing = _search(api["public"], f"nobody-{tag}")
    assert (nothing["status"], nothing["entities"]) == ("not_found", [])


def test_same_as_merges_until_a_later_assertion_retracts_it(api: dict[str, Api]) -> None:
    tag = _tag()
    one, other = f"user:al-{tag}", f"person:alice smith-{tag}"
    works, lives = _write(
        api["alice"],
        assertion(one, "works_at", f"Acme {tag}", valid_from=T0),
        assertion(other, "lives_in", f"Berlin {tag}", valid_from=T0),
    )
    (same,) = _write(api["alice"], assertion(one, "same_as", other, valid_from=T1))
    (retraction,) = _write(
        api["alice"], assertion(one, "same_as", other, valid_from=T2, polarity=False)
    )

    merged = _page(api["public"], _id(one), as_of=BETWEEN)
    assert merged["entity"]["merged"] == [_id(other)]
    assert merged["entity"]["names"] == [one, other]
    assert {a["id"] for a in merged["about"]} == {works, lives, same}
    # the merge is read from either side
    assert _page(api["public"], _id(other), as_of=BETWEEN)["entity"]["merged"] == [_id(one)]

    for when in (AFTER, "2025-06-01T00:00:00Z"):  # after the retraction; before the same_as
        alone = _page(api["public"], _id(one), as_of=when)
        assert alone["entity"]["merged"] == []
        assert lives not in {a["id"] for a in alone["about"]}
    # as known before the retraction was written, the merge still holds after T2
    retracted_at = api["public"].get("/v1/facts/history", subject=one, predicate="same_as")
    versions = {v["id"]: v for v in retracted_at.json()["versions"]}
    known = versions[retraction]["recorded_at"]
    before = _page(api["public"], _id(one), as_of=AFTER, known_at=_just_before(known))
    assert before["entity"]["merged"] == [_id(other)]


def _just_before(stamp: str) -> str:
    from datetime import datetime, timedelta

    return (datetime.fromisoformat(stamp) - timedelta(microseconds=1)).isoformat()


def test_an_entity_hidden_by_permissions_is_exactly_an_entity_that_does_not_exist(
    api: dict[str, Api],
) -> None:
    tag = _tag()
    hidden = f"user:secret-{tag}"
    _write(
        api["alice"],
        assertion(hidden, "works_at", f"Hidden Corp {tag}", access=["finance"], valid_from=T0),
    )
    own = _id(hidden, ["finance"])
    assert _page(api["alice"], own)["entity"]["name"] == hidden
    assert _search(api["alice"], f"secret-{tag}")["entities"][0]["id"] == own

    probe = api["bob"].get(f"/v1/entities/{own}")
    control = api["bob"].get(f"/v1/entities/{_id(f'user:never-{tag}')}")
    assert probe.status_code == control.status_code == 404
    shown, absent = probe.json()["error"], control.json()["error"]
    assert shown["code"] == "not_found"
    assert {**shown, "request_id": 0, "details": {}} == {**absent, "request_id": 0, "details": {}}
    assert shown["details"] == {"id": own}
    # the public namespace has no such entity either: a namespace is a visibility scope
    assert api["alice"].get(f"/v1/entities/{_id(hidden)}").status_code == 404

    searched = _search(api["bob"], f"secret-{tag}")
    assert (searched["status"], searched["entities"]) == ("not_found", [])


def test_bad_entity_ids_and_queries_are_refused(api: dict[str, Api]) -> None:
    for path, params in (
        ("/v1/entities/not-an-id", {}),
        ("/v1/entities/ent_ZZZZZZZZZZZZZZZZZZZZZZZZ", {}),
        ("/v1/entities", {"q": ""}),
        ("/v1/entities", {"q": " \t "}),
        ("/v1/entities", {"q": "a\u0000b"}),
        ("/v1/entities", {"q": "x", "limit": "0"}),
        ("/v1/entities", {"q": "x", "limit": "101"}),
        ("/v1/entities", {"q": "x", "as_of": "yesterday"}),
    ):
        response = api["public"].get(path, **params)
        assert response.status_code == 422, (path, params, response.text)
        assert response.json()["error"]["code"] == "invalid_request"


def test_every_version_a_write_makes_is_linked_remnants_too(
    api: dict[str, Api], driver: Driver
) -> None:
    tag = _tag()
    subject = f"user:remnant-{tag}"
    _write(api["alice"], assertion(subject, "lives_in", f"Rome {tag}", valid_from=T0))
    # a bounded stay inside the open one: the open version is cut and a remnant copied
    _write(
        api["alice"],
        assertion(subject, "lives_in", f"Oslo {tag}", valid_from=T1, valid_to=T2),
    )
    records, _, _ = driver.execute_query(
        "MATCH (a:Assertion {subject: $s}) RETURN a.id AS id, a.remnant_of AS remnant_of,"
        " [(a)-[:ABOUT]->(e) | e.id] AS about, [(a)-[:OBJECT]->(e) | e.id] AS object",
        s=subject,
    )
    assert any(r["remnant_of"] for r in records)
    for r in records:
        assert r["about"] == [_id(subject)], r
        assert len(r["object"]) == 1, r


def test_events_and_observations_link_what_they_write(api: dict[str, Api], driver: Driver) -> None:
    """Every write path goes through the writer: an event's assertions and an observation's
    distilled facts are linked to their entities like a direct write."""
    tag = _tag()
    order = f"order:{tag}"
    step = event(
        new_task(),
        "ship_order",
        at("10:00"),
        root=True,
        assertions=[fact(order, "owner", f"user:bo-{tag}", "Bo owns it", "tool_returned", "t")],
    )
    response = api["public"].post("/v1/events", step)
    assert response.status_code == 201, response.text
    page = _page(api["public"], _id(f"user:bo-{tag}"))
    assert [(a["subject"], a["predicate"]) for a in page["pointing_at"]] == [(order, "owner")]
    assert _page(api["public"], _id(order))["entity"]["kind"] == "order"

    speaker = f"user:dana-{tag}"
    observed = api["public"].post(
        "/v1/observations",
        {
            "text": "I work at Initech.",
            "speaker": speaker,
            "occurred_at": T0,
            "source_kind": "user_stated",
        },
    )
    assert observed.status_code == 201, observed.text
    records, _, _ = driver.execute_query(
        "MATCH (a:Assertion {subject: $s}) RETURN a.predicate AS predicate,"
        " [(a)-[:ABOUT]->(e) | e.id] AS about, [(a)-[:OBJECT]->(e) | e.id] AS object",
        s=speaker,
    )
    links = {r["predicate"]: (r["about"], r["object"]) for r in records}
    assert links["said"] == ([_id(speaker)], [])  # said's object is a value
    assert links["works_at"] == ([_id(speaker)], [_id("Initech")])
    # the names the search seeks by index: the subject's, and an object's that names a thing;
    # a sentence said is no name and is not indexed
    records, _, _ = driver.execute_query(
        "MATCH (a:Assertion {subject: $s}) RETURN a.predicate AS predicate,"
        " a.subject_lower AS subject, a.object_lower AS object",
        s=speaker,
    )
    names = {r["predicate"]: (r["subject"], r["object"]) for r in records}
    assert names["said"] == (speaker, None)
    assert names["works_at"] == (speaker, "initech")
    assert [e["name"] for e in _search(api["public"], "initech")["entities"]][:1] == ["Initech"]


def test_a_plain_name_that_holds_a_persons_predicate_is_a_person(api: dict[str, Api]) -> None:
    """A speaker is named plainly ("Ana"): by its identifier a thing; holding a predicate only
    a person holds makes it a person, on the page and in the search. A thing stays a thing."""
    tag = _tag()
    ana, desk = f"Ana{tag}", f"desk {tag}"
    _write(
        api["alice"],
        assertion(ana, "has_relative", f"{ana}/father", valid_from=T0),
        assertion(desk, "status", "wobbly", valid_from=T0),
    )
    assert _page(api["bob"], _id(ana))["entity"]["kind"] == "person"
    assert _page(api["bob"], _id(f"{ana}/father"))["entity"]["kind"] == "person"
    assert _page(api["bob"], _id(desk))["entity"]["kind"] == "thing"
    found = {e["name"]: e["kind"] for e in _search(api["bob"], tag)["entities"]}
    assert found == {ana: "person", f"{ana}/father": "person", desk: "thing"}


def test_a_plain_name_visited_or_lived_in_is_a_place_for_whoever_may_read_it(
    api: dict[str, Api],
) -> None:
    """ "I just got back from Lisbon": Lisbon, a thing by its identifier, is a place when a
    visible assertion visits it, lives in it or comes from it; a person stays a person (a
    place's predicate on a person's name does not make it a place). A restricted visit names
    the place in its own namespace: a place for who may read it, nothing for others, and the
    public entity of the same name stays what the public assertions make of it."""
    tag = _tag()
    lisbon, ana, vault = f"Lisbon {tag}", f"Ana{tag}", f"Vault {tag}"
    _write(
        api["alice"],
        assertion(f"Tom{tag}", "visited", lisbon, valid_from=T0),
        assertion(ana, "has_relative", f"{ana}/father", valid_from=T0),
        assertion(f"Tom{tag}", "visited", ana, valid_from=T0),
        assertion(vault, "status", "sealed", valid_from=T0),
        assertion(f"Tom{tag}", "visited", vault, valid_from=T0, access=["finance"]),
    )
    assert _page(api["bob"], _id(lisbon))["entity"]["kind"] == "place"
    assert _page(api["bob"], _id(ana))["entity"]["kind"] == "person"
    found = {e["name"]: e["kind"] for e in _search(api["bob"], tag)["entities"]}
    assert found[lisbon] == "place" and found[ana] == "person"
    assert found[vault] == "thing", "the visit is restricted: the public see a thing"
    restricted = _id(vault, ["finance"])
    assert _page(api["alice"], restricted)["entity"]["kind"] == "place"
    assert api["bob"].get(f"/v1/entities/{restricted}").status_code == 404


def test_where_someone_works_or_studied_is_an_organization(api: dict[str, Api]) -> None:
    """ "A new job at a fintech called Pagaqui": Pagaqui, a thing by its identifier, is an
    organization while a visible assertion says someone works or studied there."""
    tag = _tag()
    fintech, school, plain = f"Pagaqui {tag}", f"Sorbonne {tag}", f"Bianchi {tag}"
    _write(
        api["alice"],
        assertion(f"Tomas{tag}", "works_at", fintech, valid_from=T0),
        assertion(f"Tomas{tag}", "studied_at", school, valid_from=T0),
        assertion(f"Tomas{tag}", "owns", plain, valid_from=T0),
        assertion(f"Ines{tag}", "owns", plain, valid_from=T0, access=["finance"]),
        assertion(f"Ines{tag}", "works_at", plain, valid_from=T0, access=["finance"]),
    )
    found = {e["name"]: e["kind"] for e in _search(api["bob"], tag)["entities"]}
    assert found[fintech] == found[school] == "organization"
    assert found[plain] == "thing", "the work there is restricted: the public see a thing"
    assert found[f"Tomas{tag}"] == "person"
    assert _page(api["alice"], _id(plain, ["finance"]))["entity"]["kind"] == "organization"


def test_the_owner_of_a_thing_is_a_person_only_while_the_ownership_is_visible(
    api: dict[str, Api],
) -> None:
    """ "Lena owns the invoice service" (an agent's note): Lena, a thing by her identifier and
    the subject of nothing, is a person as the object of a visible `owner`; the thing owned
    stays a thing, and a restricted ownership makes a person only in its own namespace."""
    tag = _tag()
    lena, service, vault = f"Lena{tag}", f"invoice service {tag}", f"Vault {tag}"
    _write(
        api["alice"],
        assertion(service, "owner", lena, valid_from=T0),
        assertion(vault, "owner", f"Omar{tag}", valid_from=T0, access=["finance"]),
    )
    assert _page(api["bob"], _id(lena))["entity"]["kind"] == "person"
    found = {e["name"]: e["kind"] for e in _search(api["bob"], tag)["entities"]}
    assert found == {lena: "person", service: "thing"}, "the restricted owner stays hidden"
    omar = _id(f"Omar{tag}", ["finance"])
    assert _page(api["alice"], omar)["entity"]["kind"] == "person"
    assert api["bob"].get(f"/v1/entities/{omar}").status_code == 404


def test_search_folds_diacritics_width_and_case_and_shows_names_as_written(
    api: dict[str, Api],
) -> None:
    """Users type names without their accents (a new user's trial: `q=Tomas` was `not_found`,
    `q=Tomás` found "Tomás Ortega"): the search folds both `q` and the names it reads, and
    shows the names as written. Chinese is untouched, and a Japanese sound mark is kept."""
    tag = _tag()
    tomas, lodz, ideo, glass = (
        f"Tomás Ortega {tag}",
        f"Łódź {tag}",
        f"王小明{tag}",
        f"ガラス{tag}",
    )
    _write(
        api["alice"],
        assertion(tomas, "lives_in", lodz, valid_from=T0),
        assertion(f"{tomas}/brother:Mateo", "name", f"Mateo Núñez {tag}", valid_from=T0),
        assertion(ideo, "lives_in", f"Ærøskøbing {tag}", valid_from=T0),
        assertion(glass, "status", "clear", valid_from=T0),
    )

    def names(q: str) -> list[str]:
        return sorted(e["name"] for e in _search(api["bob"], q)["entities"])

    for q in (f"Tomas Ortega {tag}", f"TOMÁS {tag}", f"ｔｏｍａｓ {tag}", f"tomás ortega {tag}"):
        assert names(q) == sorted([tomas, f"Mateo Núñez {tag}"]), q
    assert names(f"lodz {tag}") == names(f"ŁÓDŹ {tag}") == [lodz]
    assert names(f"mateo nunez {tag}") == [f"Mateo Núñez {tag}"]
    assert names(f"aeroskobing {tag}") == [f"Ærøskøbing {tag}"]
    assert names(ideo) == [ideo]
    assert names(glass) == [glass]
    missing = _search(api["bob"], f"カラス{tag}")
    assert (missing["status"], missing["entities"]) == ("not_found", [])


def test_the_store_folds_names_as_the_search_folds_q(driver: Driver) -> None:
    """The names the search reads are folded in Cypher at write (and by migration 18), `q`
    in Python: the two agree."""
    samples = [
        "Tomás Ortega",
        "NGUYỄN",
        "Straße",
        "Þór Guðrún",
        "Σοφοκλής",
        "İstanbul",
        "ＡＣＭＥ ﬁnance",
        "王小明",
        "ｶﾞラス",
        "한국어",
        "user:alice/sister:Zoë",
        "plain ascii",
    ]
    records, _, _ = driver.execute_query(
        f"UNWIND $names AS s RETURN s AS name, {folded('s')} AS folded", names=samples
    )
    assert {r["name"]: r["folded"] for r in records} == {s: fold(s) for s in samples}
    assert fold("Tomás Ortega") == fold("TOMAS ORTEGA") == "tomas ortega"


def test_a_merged_page_is_named_by_a_stated_name_over_an_identifier(api: dict[str, Api]) -> None:
    """A new user's trial: while `person:caroline same_as user:caro` held, the page of
    `user:caro` was named "user:caro", although the merge gave it Caroline's stated name. A
    page's own stated name first; else a merged entity's, the latest; else a plain spelling
    over an identifier."""
    tag = _tag()
    caroline, caro, carol = f"person:caroline-{tag}", f"user:caro-{tag}", f"person:carol-{tag}"
    _write(
        api["alice"],
        assertion(caroline, "name", f"Caroline Uvier {tag}", valid_from=T1),
        assertion(caroline, "alias", f"Caro {tag}", valid_from=T0),
        assertion(caro, "works_at", f"Acme {tag}", valid_from=T0),
        assertion(carol, "name", f"Carol Older {tag}", valid_from=T0),
        assertion(caroline, "same_as", caro, valid_from=T0),
        assertion(carol, "same_as", caro, valid_from=T0),
    )
    page = _page(api["bob"], _id(caro), as_of=AFTER)["entity"]
    assert page["name"] == f"Caroline Uvier {tag}", "the latest stated name of the merge"
    assert set(page["merged"]) == {_id(caroline), _id(carol)}
    assert page["aliases"] == [f"Caro {tag}"]
    # an entity's own stated name is its page's, whatever the others say
    assert _page(api["bob"], _id(carol), as_of=AFTER)["entity"]["name"] == f"Carol Older {tag}"
    # before Caroline's name was valid, Carol's is the only one stated
    early = _page(api["bob"], _id(caro), as_of="2026-01-15T00:00:00Z")["entity"]
    assert early["name"] == f"Carol Older {tag}"
    # the search does not merge: each entity keeps its own name
    listed = {e["id"]: e["name"] for e in _search(api["bob"], f"caro-{tag}")["entities"]}
    assert listed == {_id(caro): caro}

    user, plain = f"user:al-{tag}", f"Alice Plain {tag}"
    _write(
        api["alice"],
        assertion(user, "likes", "tea", valid_from=T0),
        assertion(plain, "lives_in", f"Oslo {tag}", valid_from=T0),
        assertion(user, "same_as", plain, valid_from=T0),
    )
    assert _page(api["bob"], _id(user))["entity"]["name"] == plain, "no stated name: plain"
    assert _page(api["bob"], _id(plain))["entity"]["name"] == plain


def test_a_same_as_chain_longer_than_the_hops_followed_is_flagged(api: dict[str, Api]) -> None:
    """A new user's trial: a chain of 12 entities gave the page of the first a merge of 9 and
    no sign of the rest. The page says when the merge is cut (`merged_truncated`), and the
    page of a member nearer the middle, which reaches every one, is not cut."""
    tag = _tag()
    chain = [f"person:link{i}-{tag}" for i in range(12)]
    _write(
        api["alice"],
        *(assertion(a, "same_as", b, valid_from=T0) for a, b in pairwise(chain)),
    )
    ids = [_id(name) for name in chain]
    first = _page(api["bob"], ids[0])["entity"]
    assert set(first["merged"]) == set(ids[1 : MAX_MERGE_HOPS + 1])
    assert first["merged_truncated"] is True
    last = _page(api["bob"], ids[-1])["entity"]
    assert set(last["merged"]) == set(ids[-MAX_MERGE_HOPS - 1 : -1])
    assert last["merged_truncated"] is True
    # 3 hops from one end and 8 from the other: every member reached
    for middle in (ids[3], ids[5]):
        page = _page(api["bob"], middle)["entity"]
        assert set(page["merged"]) == set(ids) - {middle}
        assert page["merged_truncated"] is False

    # a chain exactly as long as the hops followed is whole, and an entity merged with
    # nothing is not cut
    short = [f"person:short{i}-{tag}" for i in range(MAX_MERGE_HOPS + 1)]
    _write(
        api["alice"],
        *(assertion(a, "same_as", b, valid_from=T0) for a, b in pairwise(short)),
        assertion(f"user:alone-{tag}", "likes", "tea", valid_from=T0),
    )
    whole = _page(api["bob"], _id(short[0]))["entity"]
    assert (len(whole["merged"]), whole["merged_truncated"]) == (MAX_MERGE_HOPS, False)
    alone = _page(api["bob"], _id(f"user:alone-{tag}"))["entity"]
    assert (alone["merged"], alone["merged_truncated"]) == ([], False)
