"""Adversarial probes against entities: an entity only hidden assertions name does not
exist for the prober, and an entity that is public shows the prober only its public
assertions, names and merges (a hidden same_as merges nothing for it)."""

from __future__ import annotations

import uuid
from typing import Any, cast

import httpx
import pytest
from neo4j import Driver, ManagedTransaction

from graph_schema.core.timeutil import utcnow
from graph_schema.core.types import Principal
from graph_schema.entities import reads
from graph_schema.entities.names import entity_ref
from server.settings import Settings
from tests.helpers import Api, assertion
from tests.integration.probes import (
    GROUP,
    PAIRS,
    Secret,
    both,
    check,
    pair_ids,
    plant,
    plant_derived,
)

pytestmark = pytest.mark.integration

WHEN = [None, "2025-01-01T00:00:00Z", "2026-03-01T00:00:00Z", "2030-01-01T00:00:00Z"]
# keys whose values differ between two equally empty answers (the query echoed)
ECHO = ("q",)


@pytest.fixture(params=PAIRS, ids=pair_ids())
def secret(request: pytest.FixtureRequest, api: dict[str, Api]) -> Secret:
    owner, prober = request.param
    return plant(api, owner, prober)


def _page(api: Api, name: str, access: list[str], when: str | None) -> httpx.Response:
    return api.get(f"/v1/entities/{entity_ref(name, access)['id']}", as_of=when)


@pytest.mark.parametrize("when", WHEN)
def test_the_entity_of_a_hidden_subject_is_not_found(
    secret: Secret, api: dict[str, Api], when: str | None
) -> None:
    prober, access = api[secret.prober], [GROUP[secret.owner]]
    for label, scope in (("own-namespace", access), ("public-namespace", [])):
        check(
            f"entity:{label}:as_of={when}",
            secret,
            _page(prober, secret.subject, scope, when),
            _page(prober, secret.control, scope, when),
        )


def test_the_entity_of_a_hidden_object_is_not_found(secret: Secret, api: dict[str, Api]) -> None:
    """``lives_in`` names a thing: the secret token's own entity, in the owner's namespace."""
    prober, access = api[secret.prober], [GROUP[secret.owner]]
    never = f"SECRET{uuid.uuid4().hex[:10]}"
    check(
        "entity:object",
        secret,
        _page(prober, secret.token, access, None),
        _page(prober, never, access, None),
    )


@pytest.mark.parametrize("when", WHEN)
def test_search_by_a_hidden_name_finds_nothing(
    secret: Secret, api: dict[str, Api], when: str | None
) -> None:
    prober = api[secret.prober]
    params = {"q": "{S}", **({"as_of": when} if when else {})}
    check(
        f"entities:q=subject:as_of={when}",
        secret,
        *both(prober, secret, "GET", "/v1/entities", params=params),
    )
    # the secret value, lower-cased (the echo of the query is then not the secret itself)
    probe = prober.get("/v1/entities", q=secret.token.lower(), as_of=when)
    control = prober.get("/v1/entities", q=f"secret{uuid.uuid4().hex[:10]}", as_of=when)
    check(f"entities:q=value:as_of={when}", secret, probe, control, volatile=ECHO)


def test_a_public_entity_shows_only_its_public_parts(secret: Secret, api: dict[str, Api]) -> None:
    """The secret subject and the control both get the same public fact; the secret subject
    also gets facts derived from the owner's restricted observation, in the public namespace
    (no access of their own, readable only by readers of the observation): a fact, an alias,
    a same_as to its public twin (which has a public fact of its own) and a same_as to a twin
    only that assertion names. The prober sees the two entities and their twins alike; the
    owner sees the merges."""
    owner, prober = api[secret.owner], api[secret.prober]
    # each has a public twin, with a public fact of its own
    for subject in (
        secret.subject,
        secret.control,
        f"{secret.subject}/twin",
        f"{secret.control}/twin",
    ):
        written = owner.post("/v1/assertions", assertion(subject, "uses", "shared tool"))
        assert written.status_code == 201, written.text
    plant_derived(api, secret, "works_at")
    plant_derived(api, secret, "alias", f"{secret.token} alias")
    twin = f"{secret.subject}/twin"
    plant_derived(api, secret, "same_as", twin)
    hidden_twin = f"probe:{secret.token}-twin"  # a twin only the hidden same_as names
    plant_derived(api, secret, "same_as", hidden_twin)

    own = owner.get(f"/v1/entities/{entity_ref(secret.subject, [])['id']}")
    merged = {entity_ref(twin, [])["id"], entity_ref(hidden_twin, [])["id"]}
    assert set(own.json()["entity"]["merged"]) == merged, own.text
    assert own.json()["entity"]["aliases"] == [f"{secret.token} alias"], own.text

    check(
        "entity:public-with-hidden-parts",
        secret,
        _page(prober, secret.subject, [], None),
        _page(prober, secret.control, [], None),
    )
    check(
        "entities:q=public-with-hidden-parts",
        secret,
        *both(prober, secret, "GET", "/v1/entities", params={"q": "{S}"}),
    )
    never = f"probe:{uuid.uuid4().hex[:10]}-twin"
    check(
        "entity:hidden-twin",
        secret,
        _page(prober, hidden_twin, [], None),
        _page(prober, never, [], None),
    )
    check(
        "entity:public-twin",
        secret,
        _page(prober, twin, [], None),
        _page(prober, f"{secret.control}/twin", [], None),
    )


class _Recorded:
    """A real read transaction that notes each statement it runs (no answer is changed)."""

    def __init__(self, tx: ManagedTransaction, log: list[str]) -> None:
        self.tx, self.log = tx, log

    def run(self, query: str, *args: Any, **kwargs: Any) -> Any:
        self.log.append(query)
        return self.tx.run(query, *args, **kwargs)


def _statements(driver: Driver, database: str, entity_id: str, caller: Principal) -> list[str]:
    log: list[str] = []
    now = utcnow()
    at = reads.At(principal=caller, as_of=now, known_at=now)

    def page(tx: ManagedTransaction) -> object:
        return reads._page(cast(ManagedTransaction, _Recorded(tx, log)), entity_id, at)

    with driver.session(database=database, default_access_mode="READ") as session:
        assert session.execute_read(page) is None  # both: no page for this caller
    return log


def test_a_hidden_entity_and_an_unknown_id_run_the_same_statements(
    api: dict[str, Api], driver: Driver, settings: Settings
) -> None:
    """A new user's trial timed ``GET /v1/entities/{id}`` for the computed ids of entities
    hidden from it and of names never written: the same 404, but an unknown id answered after
    one statement and a hidden entity after two, about 0.5 ms apart (an AUC of 0.95 over 200
    interleaved pairs; bench/entity_timing.py measures it over HTTP). Both now run the same."""
    hidden = f"Hidden Venture {uuid.uuid4().hex[:8]}"
    written = api["alice"].post(
        "/v1/assertions", assertion(hidden, "located_in", "Harbour", access=[GROUP["alice"]])
    )
    assert written.status_code == 201, written.text
    outsider = Principal(id="bob", groups=(GROUP["bob"],))
    scope = [GROUP["alice"]]
    seen = _statements(driver, settings.neo4j_database, entity_ref(hidden, scope)["id"], outsider)
    never = entity_ref(f"Absent Venture {uuid.uuid4().hex[:8]}", scope)["id"]
    assert _statements(driver, settings.neo4j_database, never, outsider) == seen
    assert len(seen) == 2
