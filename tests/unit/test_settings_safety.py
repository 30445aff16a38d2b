"""Settings that refuse an unsafe store password (a new user's trial started a server on a
non-loopback store with this project's compose default and with 12345678)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from server.settings import Settings


@pytest.mark.parametrize(
    "password", ["", "neo4j", "Neo4j", "tractatus-dev-only", "12345678", "neo4jneo4j", "short-pw"]
)
def test_a_weak_password_is_refused_for_a_store_elsewhere(
    monkeypatch: pytest.MonkeyPatch, password: str
) -> None:
    monkeypatch.setenv("NEO4J_URI", "bolt://neo4j:7687")
    monkeypatch.setenv("NEO4J_PASSWORD", password)
    with pytest.raises(ValidationError, match="NEO4J_PASSWORD"):
        Settings()


def test_a_strong_password_elsewhere_and_any_on_loopback_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NEO4J_URI", "neo4j+s://db.example:7687")
    monkeypatch.setenv("NEO4J_PASSWORD", "a-long-password-of-mine")
    assert Settings().neo4j_uri.startswith("neo4j+s://")
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:7687")
    monkeypatch.setenv("NEO4J_PASSWORD", "neo4j")
    assert Settings().neo4j_password.get_secret_value() == "neo4j"
