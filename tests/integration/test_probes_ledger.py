"""Adversarial probes against the ledger routes: nothing hidden may leak, in any form."""

from __future__ import annotations

import uuid

import httpx
import pytest

from tests.helpers import KEYS, Api, assertion
from tests.integration.probes import (
    PAIRS,
    RESULTS,
    Secret,
    both,
    check,
    pair_ids,
    plant,
    plant_derived,
)

pytestmark = pytest.mark.integration

TIMES = {
    "as_of_past": "2025-01-01T00:00:00Z",
    "as_of_old_version": "2026-03-01T00:00:00Z",
    "as_of_switch": "2026-06-01T00:00:00Z",
    "as_of_future": "2030-01-01T00:00:00Z",
    "as_of_offset": "2026-06-01T02:00:00+02:00",
}
INJECTIONS = [
    "x' OR 1=1 //",
    '"}) MATCH (n) RETURN n //',
    "probe:*",
    "`) DETACH DELETE n //",
    "\\u0027 OR true",
    "{S}' OR a.subject STARTS WITH 'probe",
]


@pytest.fixture(params=PAIRS, ids=pair_ids())
def secret(request: pytest.FixtureRequest, api: dict[str, Api]) -> Secret:
    owner, prober = request.param
    return plant(api, owner, prober)


@pytest.fixture
def one_secret(api: dict[str, Api]) -> Secret:
    return plant(api, "alice", "bob")


def _facts(
    secret: Secret, api: dict[str, Api], predicate: str = "tech_stack", **params: str
) -> tuple[httpx.Response, httpx.Response]:
    query = {"subject": "{S}", "predicate": predicate, **params}
    return both(api[secret.prober], secret, "GET", "/v1/facts", params=query)


@pytest.mark.parametrize("predicate", ["tech_stack", "uses", "lives_in"])
def test_direct_lookup(secret: Secret, api: dict[str, Api], predicate: str) -> None:
    check(f"facts:{predicate}", secret, *_facts(secret, api, predicate))


@pytest.mark.parametrize("when", list(TIMES))
def test_as_of_probing(secret: Secret, api: dict[str, Api], when: str) -> None:
    check(f"facts:{when}", secret, *_facts(secret, api, as_of=TIMES[when]))


@pytest.mark.parametrize("known", ["2026-01-01T00:00:00Z", "2099-01-01T00:00:00Z"])
def test_known_at_probing(secret: Secret, api: dict[str, Api], known: str) -> None:
    check(f"facts:known_at={known[:4]}", secret, *_facts(secret, api, known_at=known))


@pytest.mark.parametrize("confidence", ["0", "0.8", "1"])
def test_min_confidence_probing(secret: Secret, api: dict[str, Api], confidence: str) -> None:
    check(
        f"facts:min_confidence={confidence}",
        secret,
        *_facts(secret, api, min_confidence=confidence),
    )


@pytest.mark.parametrize("tier", ["short", "long", "discarded", "dormant"])
def test_tier_probing(secret: Secret, api: dict[str, Api], tier: str) -> None:
    check(f"facts:tier={tier}", secret, *_facts(secret, api, "lives_in", tier=tier))


@pytest.mark.parametrize("known", [None, "2026-01-01T00:00:00Z"])
def test_history(secret: Secret, api: dict[str, Api], known: str | None) -> None:
    params = {"subject": "{S}", "predicate": "tech_stack"}
    if known:
        params["known_at"] = known
    check(
        f"history:known_at={known}",
        secret,
        *both(api[secret.prober], secret, "GET", "/v1/facts/history", params=params),
    )


def test_cas_expecting_empty_on_a_hidden_slot(secret: Secret, api: dict[str, Api]) -> None:
    body = assertion("{S}", "tech_stack", "Probe", expected_current=None)
    check(
        "cas:null", secret, *both(api[secret.prober], secret, "POST", "/v1/assertions", json=body)
    )


def test_cas_naming_the_hidden_version(secret: Secret, api: dict[str, Api]) -> None:
    def request(subject: str, expected: str) -> httpx.Response:
        body = assertion(subject, "tech_stack", "Probe", expected_current=expected)
        return api[secret.prober].post("/v1/assertions", body)

    probe = request(secret.subject, secret.ids[1])
    control = request(secret.control, "01HZZZZZZZZZZZZZZZZZZZZZZZ")
    check("cas:hidden-id", secret, probe, control)


def test_cas_on_the_slot_of_a_fact_derived_from_a_hidden_source(
    secret: Secret, api: dict[str, Api]
) -> None:
    """A fact derived from a restricted observation, written with no access of its own, is
    readable only by the observation's readers; a public write to the same subject and
    predicate must not meet it (no 409 naming it, no 500 failing to show it)."""
    plant_derived(api, secret)
    body = assertion("{S}", "works_at", "Probe", expected_current=None)
    check(
        "cas:null-derived",
        secret,
        *both(api[secret.prober], secret, "POST", "/v1/assertions", json=body),
    )


def test_public_write_does_not_close_a_fact_derived_from_a_hidden_source(
    secret: Secret, api: dict[str, Api]
) -> None:
    plant_derived(api, secret)
    body = assertion("{S}", "works_at", "Probe", valid_from="2026-07-01T00:00:00Z")
    check(
        "write:over-derived",
        secret,
        *both(api[secret.prober], secret, "POST", "/v1/assertions", json=body),
    )
    # the derived fact still holds for its readers: the public write did not close it
    owner = api[secret.owner].get(
        "/v1/facts", subject=secret.subject, predicate="works_at", as_of="2026-08-01T00:00:00Z"
    )
    assert secret.token in [f["object"] for f in owner.json()["facts"]], owner.text


CORROBORATED_PROBERS = ["alice", "bob", "public", "dave"]


@pytest.mark.parametrize("prober", CORROBORATED_PROBERS)
def test_a_fact_corroborated_by_two_restricted_sources_is_hidden_from_readers_of_one(
    api: dict[str, Api], prober: str
) -> None:
    """carol (finance and sales) writes a fact with no access of its own, evidenced by a
    finance observation and a sales one: readers of only one source (alice, bob), of none
    (public, dave) must not learn it exists, by reads or by writes to its subject."""
    secret = Secret("carol", prober, f"probe:{uuid.uuid4().hex[:10]}", "", "")
    secret.control = f"probe:{uuid.uuid4().hex[:10]}"
    secret.token = f"SECRET{uuid.uuid4().hex[:10]}"
    spans = []
    for owner, group in (("alice", "finance"), ("bob", "sales")):
        seen = api[owner].post(
            "/v1/observations",
            {
                "text": f"The vendor is {secret.token} from now on.",
                "speaker": "user:x",
                "occurred_at": "2026-06-01T09:00:00Z",
                "source_kind": "user_stated",
                "access": [group],
            },
        )
        assert seen.status_code == 201, seen.text
        secret.ids.append(seen.json()["observation_id"])
        spans.append({"quote": secret.token, "observation_id": seen.json()["observation_id"]})
    body = assertion(secret.subject, "works_at", secret.token, evidence=spans)
    written = api["carol"].post("/v1/assertions", body)
    assert written.status_code == 201, written.text
    secret.ids.append(written.json()["assertion"]["id"])
    params = {"subject": "{S}", "predicate": "works_at"}
    probes = {
        "facts": ("GET", "/v1/facts", {"params": params}),
        "history": ("GET", "/v1/facts/history", {"params": params}),
        "cas": (
            "POST",
            "/v1/assertions",
            {"json": assertion("{S}", "works_at", "Probe", expected_current=None)},
        ),
    }
    for name, (method, path, kw) in probes.items():
        check(f"corroborated:{name}", secret, *both(api[prober], secret, method, path, **kw))


def test_writing_into_the_hidden_scope_is_refused_like_any_foreign_group(
    secret: Secret, api: dict[str, Api]
) -> None:
    from tests.integration.probes import GROUP

    body = assertion("{S}", "tech_stack", "Probe", access=[GROUP[secret.owner]])
    check(
        "write:foreign-scope",
        secret,
        *both(api[secret.prober], secret, "POST", "/v1/assertions", json=body),
    )


def test_retracting_a_hidden_value(secret: Secret, api: dict[str, Api]) -> None:
    body = assertion("{S}", "uses", "retract-me", polarity=False)
    check(
        "write:retraction",
        secret,
        *both(api[secret.prober], secret, "POST", "/v1/assertions", json=body),
    )


@pytest.mark.parametrize("param", ["subject", "predicate", "tier"])
@pytest.mark.parametrize("payload", INJECTIONS)
def test_injection_in_every_string_parameter(
    one_secret: Secret, api: dict[str, Api], param: str, payload: str
) -> None:
    secret = one_secret
    params = {"subject": "{S}", "predicate": "tech_stack", param: payload}
    probe, control = both(api[secret.prober], secret, "GET", "/v1/facts", params=params)
    assert probe.status_code < 500 and control.status_code < 500
    check(f"inject:{param}:{payload[:12]}", secret, probe, control)


def test_error_messages_do_not_differ(secret: Secret, api: dict[str, Api]) -> None:
    check("error:bad-as_of", secret, *_facts(secret, api, as_of="March 3rd"))


def test_secret_subject_in_a_batch(secret: Secret, api: dict[str, Api]) -> None:
    body = {"assertions": [assertion("{S}", "tech_stack", "A"), assertion("{S}", "uses", "B")]}
    check(
        "write:batch",
        secret,
        *both(api[secret.prober], secret, "POST", "/v1/assertions", json=body),
    )


@pytest.mark.parametrize(
    "header",
    [
        "Bearer " + "A" * 5000,
        "Bearer",
        "Basic YWxpY2U6cGFzcw==",
        "Bearer tr_test_alice",
        f"Bearer {KEYS['alice'].upper()}",
        "bearer",
        "Bearer null",
    ],
)
def test_malformed_or_oversized_authorization(base_url: str, header: str, driver: object) -> None:
    RESULTS["attacks"].append(f"auth:{header[:16]}")
    response = httpx.get(
        f"{base_url}/v1/facts",
        params={"subject": "x", "predicate": "uses"},
        headers={"Authorization": header},
    )
    if response.status_code != 401:
        RESULTS["leaks"].append(f"auth:{header[:16]}: {response.status_code}")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unauthenticated"
