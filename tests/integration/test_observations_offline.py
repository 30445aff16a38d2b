"""English and Chinese observations through the real OfflineDistiller, end to end over HTTP."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.helpers import Api

pytestmark = pytest.mark.integration

JAN = "2026-01-10T09:00:00+00:00"
JUN = "2026-06-01T09:00:00+00:00"


@pytest.fixture
def speaker() -> str:
    return f"user:{uuid.uuid4().hex[:10]}"


def _post(api: Api, text: str, speaker: str, at: str) -> dict[str, Any]:
    response = api.post(
        "/v1/observations",
        {
            "text": text,
            "speaker": speaker,
            "occurred_at": at,
            "source_kind": "user_stated",
            "idempotency_key": uuid.uuid4().hex,
            "conversation_id": f"chat-{speaker}",
        },
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    assert body["quarantined"] == []
    return body


def _predicates(body: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(r["assertion"]["predicate"], r["assertion"]["object"]) for r in body["assertions"]]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I live in Berlin.", [("lives_in", "Berlin"), ("said", "I live in Berlin.")]),
        ("我住在北京。", [("lives_in", "北京"), ("said", "我住在北京。")]),
        ("我对花生过敏。", [("allergic_to", "花生"), ("said", "我对花生过敏。")]),
        ("我在腾讯工作。", [("works_at", "腾讯"), ("said", "我在腾讯工作。")]),
        (
            "We use Vue for the frontend.",
            [("uses", "Vue"), ("said", "We use Vue for the frontend.")],
        ),
    ],
)
def test_statements_end_in_the_expected_predicates(
    api: dict[str, Api], speaker: str, text: str, expected: list[tuple[str, str]]
) -> None:
    body = _post(api["public"], text, speaker, JAN)
    assert _predicates(body) == expected
    for result in body["assertions"]:
        evidence = result["assertion"]["evidence"][0]
        assert evidence["quote"] == text.strip()
        assert evidence["observation_id"] == body["observation_id"]
        assert result["assertion"]["subject"] == speaker


@pytest.mark.parametrize(
    ("before", "switch"),
    [
        ("Our project is built with Vue.", "We switched from Vue to React."),
        ("我们项目从jQuery换成Vue了", "我们项目从Vue换成React了"),
    ],
    ids=["english", "chinese"],
)
def test_the_vue_to_react_switch_is_a_supersession(
    api: dict[str, Api], speaker: str, before: str, switch: str
) -> None:
    client = api["public"]
    vue = _post(client, before, speaker, JAN)
    assert ("tech_stack", "Vue") in _predicates(vue)
    react = _post(client, switch, speaker, JUN)
    assert ("tech_stack", "React") in _predicates(react)
    vue_id = next(
        r["assertion"]["id"]
        for r in vue["assertions"]
        if r["assertion"]["predicate"] == "tech_stack"
    )
    react_result = next(
        r for r in react["assertions"] if r["assertion"]["predicate"] == "tech_stack"
    )
    assert react_result["superseded"] == vue_id
    now = client.get("/v1/facts", subject=speaker, predicate="tech_stack").json()
    assert now["status"] == "answered"
    assert [f["object"] for f in now["facts"]] == ["React"]
    march = client.get(
        "/v1/facts", subject=speaker, predicate="tech_stack", as_of="2026-03-01T00:00:00Z"
    ).json()
    assert [f["object"] for f in march["facts"]] == ["Vue"]
    history = client.get("/v1/facts/history", subject=speaker, predicate="tech_stack").json()
    versions = history["versions"]
    assert [v["object"] for v in versions] == ["Vue", "React"]
    assert versions[0]["valid_to"].startswith("2026-06-01")
    assert versions[1]["supersedes"] == [vue_id]
