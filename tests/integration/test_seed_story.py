"""The seed story: Vue since January, React from June; history keeps both, Vue untouched."""

from __future__ import annotations

import pytest
from neo4j import Driver

from tests.helpers import Api, assertion

pytestmark = pytest.mark.integration

JAN = "2026-01-10T09:00:00+00:00"
JUN = "2026-06-01T09:00:00+00:00"


def _write_story(api: Api, subject: str) -> tuple[dict, dict]:
    vue = api.post(
        "/v1/assertions",
        assertion(
            subject,
            "tech_stack",
            "Vue",
            valid_from=JAN,
            evidence={"quote": "we build the frontend with Vue"},
        ),
    )
    assert vue.status_code == 201, vue.text
    react = api.post(
        "/v1/assertions",
        assertion(
            subject,
            "tech_stack",
            "React",
            valid_from=JUN,
            evidence={"quote": "we moved the project to React"},
            expected_current=vue.json()["assertion"]["id"],
        ),
    )
    assert react.status_code == 201, react.text
    return vue.json(), react.json()


def test_as_of_march_is_vue_and_july_is_react(api: dict[str, Api], subject: str) -> None:
    vue, react = _write_story(api["public"], subject)
    assert react["superseded"] == vue["assertion"]["id"]
    march = (
        api["public"]
        .get("/v1/facts", subject=subject, predicate="tech_stack", as_of="2026-03-01T00:00:00Z")
        .json()
    )
    assert march["status"] == "answered"
    assert [f["object"] for f in march["facts"]] == ["Vue"]
    assert march["as_of"].startswith("2026-03-01T00:00:00")
    july = (
        api["public"]
        .get("/v1/facts", subject=subject, predicate="tech_stack", as_of="2026-07-01T00:00:00Z")
        .json()
    )
    assert [f["object"] for f in july["facts"]] == ["React"]
    fact = july["facts"][0]
    for key in (
        "id",
        "subject",
        "predicate",
        "object",
        "valid_from",
        "valid_to",
        "recorded_at",
        "source_kind",
        "asserted_by",
        "confidence",
        "tier",
        "evidence",
    ):
        assert key in fact
    assert fact["evidence"][0]["quote"] == "we moved the project to React"
    before_jan = (
        api["public"]
        .get("/v1/facts", subject=subject, predicate="tech_stack", as_of="2025-12-01T00:00:00Z")
        .json()
    )
    assert before_jan["status"] == "not_found" and before_jan["facts"] == []


def test_known_at_before_the_switch_still_says_vue_for_july(
    api: dict[str, Api], subject: str
) -> None:
    vue, _ = _write_story(api["public"], subject)
    known = vue["assertion"]["recorded_at"]
    then = (
        api["public"]
        .get(
            "/v1/facts",
            subject=subject,
            predicate="tech_stack",
            as_of="2026-07-01T00:00:00Z",
            known_at=known,
        )
        .json()
    )
    assert [f["object"] for f in then["facts"]] == ["Vue"]
    assert then["facts"][0]["valid_to"] is None  # the closing stamp was not known yet


def test_history_shows_both_with_dates_and_sources(api: dict[str, Api], subject: str) -> None:
    vue, react = _write_story(api["public"], subject)
    history = api["public"].get("/v1/facts/history", subject=subject, predicate="tech_stack").json()
    assert history["status"] == "answered"
    versions = history["versions"]
    assert [v["object"] for v in versions] == ["Vue", "React"]
    assert versions[0]["valid_from"].startswith("2026-01-10")
    assert versions[0]["valid_to"].startswith("2026-06-01")
    assert versions[1]["supersedes"] == [vue["assertion"]["id"]]
    assert versions[0]["superseded_by"] == [react["assertion"]["id"]]
    assert {v["source_kind"] for v in versions} == {"user_stated"}


def test_the_vue_fact_is_never_altered(api: dict[str, Api], subject: str, driver: Driver) -> None:
    vue = (
        api["public"]
        .post("/v1/assertions", assertion(subject, "tech_stack", "Vue", valid_from=JAN))
        .json()["assertion"]
    )
    records, _, _ = driver.execute_query(
        "MATCH (a:Assertion {id: $id}) RETURN properties(a) AS p", id=vue["id"]
    )
    before = records[0]["p"]
    api["public"].post("/v1/assertions", assertion(subject, "tech_stack", "React", valid_from=JUN))
    records, _, _ = driver.execute_query(
        "MATCH (a:Assertion {id: $id}) RETURN properties(a) AS p", id=vue["id"]
    )
    after = records[0]["p"]
    changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
    assert changed == {"valid_to", "closed_at"}
    assert before["object"] == after["object"] == "Vue"


def test_out_of_scope_predicate(api: dict[str, Api], subject: str) -> None:
    body = api["public"].get("/v1/facts", subject=subject, predicate="favourite_colour").json()
    assert body["status"] == "out_of_scope"
    assert body["facts"] == []
