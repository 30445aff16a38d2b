"""Secrets are refused at write time on every write route (docs/security.md "Secrets").

A new user's security review wrote an API key, a database password, an IBAN, a card number,
tokens and a connection string through every write route; all were stored, read back
verbatim by every group member, kept in the quarantine when another check refused the write,
and could not be taken back. Now each write route answers 422 ``secret_detected`` naming the
field and the kind (never the value), and nothing is written, the quarantine included.
``TRACTATUS_SECRETS=allow`` stores them as before.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from neo4j import Driver

from server.settings import Settings
from tests.fakes import ShiftedClock
from tests.helpers import Api, assertion
from tests.integration.lifecycle_helpers import lifecycle_server, light

pytestmark = pytest.mark.integration

# built from parts, so that no scanner reading this file takes them for real credentials
STRIPE = "sk_" + "live_H1SECRETabc123"
CARD = "4556 7375 8143 1233"  # not a published test card: those are no secret
IBAN = "DE23 5001 0517 5432 1098 76"  # nor the documentation's example IBANs
TOKEN = "ghp_" + "A1b2C3d4E5" * 4
DSN = "postgres://app:" + "s3cr3tPW@db.internal:5432/prod"
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9P"
PEM = "-----BEGIN RSA PRIVATE KEY-----"
SECRETS = (STRIPE, CARD, IBAN, TOKEN, DSN, JWT, PEM, "hunter22")

# the nodes a write could leave; the access log's counters and the locks aside
COUNT_ALL = """
MATCH (n) WHERE NOT n:AccessCount AND NOT n:SleepLock AND NOT n:PassageLock
RETURN count(n) AS c
"""
# any node holding the text in a property (a string, or a string of a list)
HOLDING = """
MATCH (n) UNWIND keys(n) AS k WITH n, n[k] AS v
WHERE (v IS :: STRING AND v CONTAINS $text)
   OR (v IS :: LIST<STRING NOT NULL> AND any(x IN v WHERE x CONTAINS $text))
RETURN count(DISTINCT n) AS c
"""


def _nodes(driver: Driver) -> int:
    records, _, _ = driver.execute_query(COUNT_ALL)
    return int(records[0]["c"])


def _holding(driver: Driver, text: str) -> int:
    records, _, _ = driver.execute_query(HOLDING, text=text)
    return int(records[0]["c"])


def _refused(response: httpx.Response) -> set[tuple[str, str]]:
    """The (field, kind) pairs a 422 ``secret_detected`` in the one error shape names,
    checked to hold no byte of any secret anywhere in the answer."""
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert set(error) == {"code", "message", "details", "request_id"}
    assert error["code"] == "secret_detected"
    for secret in SECRETS:
        assert secret not in response.text and secret.replace(" ", "") not in response.text
    return {(s["field"], s["kind"]) for s in error["details"]["secrets"]}


@pytest.fixture
def unchanged(driver: Driver) -> Iterator[None]:
    """The store holds the same nodes after the test, and no node holds a secret."""
    before = _nodes(driver)
    yield
    assert _nodes(driver) == before
    assert [s for s in SECRETS if _holding(driver, s)] == []


def _subject() -> str:
    return f"acct:{uuid.uuid4().hex[:10]}"


def test_an_assertion_holding_a_key_is_refused(api: dict[str, Api], unchanged: None) -> None:
    body = assertion(_subject(), "tech_stack", f"apikey {STRIPE}", access=["finance"])
    assert _refused(api["alice"].post("/v1/assertions", body)) == {
        ("body.object", "stripe_key"),
        ("body.evidence.quote", "stripe_key"),
    }


def test_a_batch_is_refused_whole_before_the_gate_quarantines(
    api: dict[str, Api], unchanged: None
) -> None:
    """A batch holding a secret in one item and an unknown predicate in another: refused for
    the secret, so the gate never quarantines the payload (the quarantine kept refused
    payloads verbatim, secrets included)."""
    subject = _subject()
    items = [
        assertion(subject, "tech_stack", "Vue"),
        assertion(subject, "shoe_size", "42", evidence={"quote": f"card {CARD}"}),
    ]
    response = api["alice"].post("/v1/assertions", {"assertions": items})
    assert _refused(response) == {("body.assertions[1].evidence.quote", "card_number")}


def test_a_retraction_repeating_a_secret_is_refused(api: dict[str, Api], unchanged: None) -> None:
    body = assertion(_subject(), "tech_stack", f"apikey {STRIPE}", polarity=False)
    body["evidence"] = {"quote": "we no longer use that key"}
    assert _refused(api["alice"].post("/v1/assertions", body)) == {("body.object", "stripe_key")}


def test_an_observation_holding_a_password_iban_and_card_is_refused(
    api: dict[str, Api], unchanged: None
) -> None:
    text = f"The DB password is hunter22, pay to IBAN {IBAN} with card {CARD}."
    body = {
        "text": text,
        "speaker": "h1",
        "source_kind": "user_stated",
        "occurred_at": "2026-11-28T10:00:00Z",
        "conversation_id": f"conv-{uuid.uuid4().hex[:8]}",
        "access": ["finance"],
    }
    assert _refused(api["alice"].post("/v1/observations", body)) == {
        ("body.text", "password"),
        ("body.text", "iban"),
        ("body.text", "card_number"),
    }


def test_an_observation_batch_refuses_the_item_holding_a_secret_only(
    api: dict[str, Api], driver: Driver
) -> None:
    conversation = f"conv-{uuid.uuid4().hex[:8]}"
    turn = {"speaker": "Mia", "source_kind": "user_stated", "conversation_id": conversation}
    clean = {**turn, "text": "I ran a charity 5K.", "occurred_at": "2026-11-28T10:00:00Z"}
    leaky = {**turn, "text": f"my token is {TOKEN}", "occurred_at": "2026-11-28T10:01:00Z"}
    response = api["alice"].post("/v1/observations", {"observations": [clean, leaky]})
    assert response.status_code == 200, response.text
    first, second = response.json()["results"]
    assert first["status"] == 201
    assert second["status"] == 422 and second["error"]["code"] == "secret_detected"
    assert second["error"]["details"]["secrets"] == [
        {"field": "body.observations[1].text", "kind": "github_token"}
    ]
    assert TOKEN not in response.text and _holding(driver, TOKEN) == 0
    records, _, _ = driver.execute_query(
        "MATCH (o:Observation {conversation_id: $c}) RETURN count(o) AS c", c=conversation
    )
    assert records[0]["c"] == 1


def _event(**extra: Any) -> dict[str, Any]:
    return {
        "task_id": f"task-{uuid.uuid4().hex[:8]}",
        "actor": "agent:h1",
        "action": "deploy",
        "outcome": "success",
        "root": True,
        "occurred_at": "2026-10-12T10:00:00Z",
        **extra,
    }


def test_an_event_holding_a_token_in_its_state_is_refused(
    api: dict[str, Api], unchanged: None
) -> None:
    body = _event(before={"status": "pending"}, after={"auth_token": JWT, "status": "ok"})
    assert _refused(api["alice"].post("/v1/events", body)) == {("body.after.auth_token", "jwt")}


def test_an_event_whose_assertion_holds_a_connection_string_is_refused(
    api: dict[str, Api], unchanged: None
) -> None:
    written = assertion(_subject(), "tech_stack", DSN)
    body = _event(goal=f"rotate {TOKEN}", assertions=[written])
    assert _refused(api["alice"].post("/v1/events", body)) == {
        ("body.goal", "github_token"),
        ("body.assertions[0].object", "url_password"),
        ("body.assertions[0].evidence.quote", "url_password"),
    }


def test_a_task_goal_holding_a_token_is_refused(api: dict[str, Api], unchanged: None) -> None:
    body = {"task_id": f"task-{uuid.uuid4().hex[:8]}", "goal": f"use {TOKEN} to deploy"}
    assert _refused(api["alice"].post("/v1/tasks", body)) == {("body.goal", "github_token")}


def test_a_predicate_description_holding_a_key_is_refused(
    api: dict[str, Api], unchanged: None
) -> None:
    body = {
        "name": f"h1_{uuid.uuid4().hex[:8]}",
        "cardinality": "one",
        "description": f"signed with {PEM}",
    }
    assert _refused(api["admin"].post("/v1/ontology/predicates", body)) == {
        ("body.description", "private_key")
    }


@pytest.fixture(scope="module")
def allowing(settings: Settings, driver: Driver) -> Iterator[dict[str, Api]]:
    """A server with ``TRACTATUS_SECRETS=allow`` on the same store."""
    allow = light(settings, embedding_model="none", secrets="allow")
    with lifecycle_server(allow, ShiftedClock()) as served:
        yield served


def test_allow_stores_the_secret_as_sent(allowing: dict[str, Api], driver: Driver) -> None:
    subject = _subject()
    allowed = "sk_" + "test_" + uuid.uuid4().hex  # not one of SECRETS: other tests check those
    body = assertion(subject, "tech_stack", f"apikey {allowed}")
    written = allowing["alice"].post("/v1/assertions", body)
    assert written.status_code == 201, written.text
    read = allowing["alice"].get("/v1/facts", subject=subject, predicate="tech_stack")
    assert json.loads(read.text)["facts"][0]["object"] == f"apikey {allowed}"
    assert _holding(driver, allowed) >= 1
