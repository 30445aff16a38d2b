"""What a new user's review of the secret check found over HTTP (docs/security.md "Secrets"):
keys inside ids and field names stored (one kept in the quarantine), env-file lines stored,
ordinary text refused, two routes that validated before the check and echoed the key in their
422, the ``Idempotency-Key`` header stored unchecked, and blank or NUL goals and an empty
observation ``kind`` stored."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from neo4j import Driver

from tests.helpers import Api, assertion
from tests.integration.test_secrets import _holding, _nodes

pytestmark = pytest.mark.integration

# built from parts, so that no scanner reading this file takes them for real credentials
OPENAI = "sk-" + "proj-" + "LAv-X0LTcWWGnIQZGr4mRsQQKSjLQBio90qDEC0fnJwG2eRj"
GITHUB = "ghp_" + "Gop52rzQnACaODCb8ydNvCHWcTDJKbtatwxx"
AWS = "AKIA" + "CXBO6U4S1YBK7XYZ"
REDIS_PASSWORD = "50dla9UJ1t7VwS2YKDZb7"
ENV_PASSWORD = "Sup3rS3cret!x"
SECRETS = (OPENAI, GITHUB, AWS, REDIS_PASSWORD, ENV_PASSWORD, OPENAI[8:20], GITHUB[4:20])


@pytest.fixture
def unchanged(driver: Driver) -> Iterator[None]:
    """Nothing written (the quarantine included), and no node holds any of the secrets."""
    before = _nodes(driver)
    yield
    assert _nodes(driver) == before
    assert [s for s in SECRETS if _holding(driver, s)] == []


def _refused(response: httpx.Response) -> set[tuple[str, str]]:
    """The (field, kind) pairs of a 422 ``secret_detected``, which echoes no secret."""
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "secret_detected", response.text
    assert [s for s in SECRETS if s in response.text] == []
    return {(s["field"], s["kind"]) for s in error["details"]["secrets"]}


def _run() -> str:
    return uuid.uuid4().hex[:8]


def test_a_key_inside_an_id_or_a_field_name_is_refused(
    api: dict[str, Api], unchanged: None
) -> None:
    """``task_id: h4-rep7938-sk-proj-...`` was stored and read by the whole group; a field
    ``note_ghp_...`` went into the admin's quarantine with the key."""
    body = assertion(f"acct:{_run()}", "tech_stack", "ok", task_id=f"h4-{_run()}-{OPENAI}")
    assert _refused(api["alice"].post("/v1/assertions", body)) == {("body.task_id", "openai_key")}
    loose = {"subject": f"acct:{_run()}", "predicate": "decided", f"note_{GITHUB}": 1}
    assert _refused(api["alice"].post("/v1/assertions", loose)) == {("body.<name>", "github_token")}


def test_env_file_lines_and_an_empty_user_url_are_refused(
    api: dict[str, Api], unchanged: None
) -> None:
    task = {"task_id": f"h4-{_run()}", "goal": f"DB_PASSWORD={ENV_PASSWORD}"}
    assert _refused(api["alice"].post("/v1/tasks", task)) == {("body.goal", "password")}
    event = {
        "task_id": f"h4-{_run()}",
        "actor": "a",
        "action": "cfg",
        "outcome": "success",
        "root": True,
        "occurred_at": "2026-10-12T10:00:00Z",
        "before": {"config": {"db": {"url": f"redis://:{REDIS_PASSWORD}@cache.internal:6379/0"}}},
    }
    assert _refused(api["alice"].post("/v1/events", event)) == {
        ("body.before.config.db.url", "url_password")
    }


@pytest.mark.parametrize(
    "goal",
    [
        "token: 128000",
        "https://example.com/reset?token=3f2b1c4e9a7d",
        "token = get_token(user_id)",
        "pwd: C:/Users/alice",
        "api_key = os.environ['OPENAI_API_KEY']",
        "example card from Stripe docs: 4242 4242 4242 4242",
    ],
)
def test_ordinary_text_the_review_saw_refused_is_stored(api: dict[str, Api], goal: str) -> None:
    task = {"task_id": f"h4-{_run()}", "goal": goal}
    response = api["alice"].post("/v1/tasks", task)
    assert response.status_code == 201, response.text
    assert response.json()["goal"] == goal


def _invalid_and_secret(api: dict[str, Api]) -> list[tuple[str, dict[str, Any], str, str]]:
    """Bodies that fail validation and hold a secret: (who, body, field, kind) per route."""
    return [
        ("alice", {"task_id": f"h4-{_run()}", "goal": "x", f"note_{GITHUB}": 1}, "body.<name>",
         "github_token"),
        ("alice", {"task_id": f"h4-{_run()}", "access": [f"{GITHUB}!"]}, "body.access[0]",
         "github_token"),
        ("alice", {"task_id": f"h4-t {GITHUB}", "goal": 123}, "body.task_id", "github_token"),
        ("admin", {"name": "likes", "cardinality": "x", "description": f"token {GITHUB}"},
         "body.description", "github_token"),
    ]  # fmt: skip


def test_the_secret_check_comes_before_validation_on_tasks_and_predicates(
    api: dict[str, Api], unchanged: None
) -> None:
    """``/v1/tasks`` and ``/v1/ontology/predicates`` answered ``invalid_request`` naming the
    key (``body.note_ghp_...: Extra inputs are not permitted``, the group name quoted), or
    another problem and not the secret."""
    for who, body, field, kind in _invalid_and_secret(api):
        path = "/v1/ontology/predicates" if "cardinality" in body else "/v1/tasks"
        assert _refused(api[who].post(path, body)) == {(field, kind)}, body
    # without a secret, the same bodies are still refused for what is wrong with them
    plain = api["alice"].post("/v1/tasks", {"task_id": f"h4-{_run()}", "goal": "x", "note": 1})
    assert plain.status_code == 422 and plain.json()["error"]["code"] == "invalid_request"


def test_a_secret_in_the_idempotency_key_header_is_refused(
    api: dict[str, Api], unchanged: None
) -> None:
    """The header was stored (``Idempotent-Replayed: true`` on the second send) while the same
    value in an observation's body was refused."""
    header = {"Idempotency-Key": f"deploy-{AWS}"}
    named = {("header.idempotency-key", "aws_access_key")}
    written = assertion(f"acct:{_run()}", "likes", "tea", access=["finance"])
    assert _refused(api["alice"].post("/v1/assertions", written, headers=header)) == named
    event = {
        "task_id": f"h4-{_run()}",
        "actor": "a",
        "action": "step",
        "outcome": "success",
        "root": True,
        "occurred_at": "2026-10-12T10:00:00Z",
    }
    assert _refused(api["alice"].post("/v1/events", event, headers=header)) == named
    turn = {
        "text": "I ran a charity 5K.",
        "speaker": "mia",
        "source_kind": "user_stated",
        "occurred_at": "2026-11-28T10:00:00Z",
    }
    assert _refused(api["alice"].post("/v1/observations", turn, headers=header)) == named
    batch = {"observations": [turn, {**turn, "occurred_at": "2026-11-28T10:01:00Z"}]}
    assert _refused(api["alice"].post("/v1/observations", batch, headers=header)) == named
    # a header that fails validation (over 256 characters) and holds a key: the key is named
    long = {"Idempotency-Key": f"{AWS}-" + "x" * 300}
    assert _refused(api["alice"].post("/v1/assertions", written, headers=long)) == named


def test_blank_or_nul_goals_and_an_empty_kind_are_refused(
    api: dict[str, Api], driver: Driver
) -> None:
    """The review stored a task goal ``"   "`` and ``"a\\u0000b"``, an event goal with a NUL
    and an observation whose ``kind`` was ``""``."""
    for goal in ("   ", "a\x00b"):
        task_id = f"h4-{_run()}"
        response = api["alice"].post("/v1/tasks", {"task_id": task_id, "goal": goal})
        assert response.status_code == 422, response.text
        assert response.json()["error"]["code"] == "invalid_request"
        assert api["alice"].get(f"/v1/tasks/{task_id}").status_code == 404
    task_id = f"h4-{_run()}"
    event = {
        "task_id": task_id,
        "actor": "a",
        "action": "step",
        "outcome": "success",
        "root": True,
        "occurred_at": "2026-10-12T10:00:00Z",
        "goal": "a\x00b",
    }
    refused = api["alice"].post("/v1/events", event)
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "rejected"
    records, _, _ = driver.execute_query(
        "MATCH (e:Event {task_id: $t}) RETURN count(e) AS c", t=task_id
    )
    assert records[0]["c"] == 0
    conversation = f"conv-{_run()}"
    turn = {
        "text": "hello",
        "speaker": "mia",
        "source_kind": "user_stated",
        "occurred_at": "2026-11-28T10:00:00Z",
        "conversation_id": conversation,
        "kind": "",
    }
    refused = api["alice"].post("/v1/observations", turn)
    assert refused.status_code == 422, refused.text
    records, _, _ = driver.execute_query(
        "MATCH (o:Observation {conversation_id: $c}) RETURN count(o) AS c", c=conversation
    )
    assert records[0]["c"] == 0
