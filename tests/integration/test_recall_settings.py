"""Recall's switches are settings read once: the app fuses with the configuration it was built
with, whatever the environment says at request time."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from neo4j import Driver

from server.settings import Settings
from tests.helpers import Api, assertion, serving_without

pytestmark = pytest.mark.integration


def _lists(api: Api, word: str, subject: str) -> set[str]:
    """The candidate lists that found the one fact of ``subject``."""
    response = api.post("/v1/recall", {"query": word, "filters": {"subject": subject}})
    assert response.status_code == 200, response.text
    results: list[dict[str, Any]] = response.json()["results"]
    assert [r["assertion"]["subject"] for r in results] == [subject]
    return set(results[0]["why"]["ranks"])


def test_disabled_steps_come_from_settings_not_from_each_call(
    api: dict[str, Api],
    settings: Settings,
    driver: Driver,
    subject: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    word = f"zq{uuid.uuid4().hex[:8]}"
    written = api["alice"].post("/v1/assertions", assertion(subject, "likes", f"the {word} cafe"))
    assert written.status_code == 201, written.text
    assert _lists(api["alice"], word, subject) == {"assertion_fulltext", "assertion_vector"}

    with serving_without(settings, {"assertion_fulltext"}, key="alice") as served:
        assert _lists(served, word, subject) == {"assertion_vector"}

    # the running app's configuration was built at start-up; the environment is not re-read
    monkeypatch.setenv("TRACTATUS_RECALL_DISABLE", "assertion_fulltext")
    assert _lists(api["alice"], word, subject) == {"assertion_fulltext", "assertion_vector"}
