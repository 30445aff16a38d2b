"""Settings refused in the operator's terms (a new user's trial read pydantic tracebacks
naming fields, and a misspelt TRACTATUS_RATE_LIMT was ignored without a word)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from server import cli, setting_errors
from server.settings import get_settings


@pytest.fixture(autouse=True)
def fresh_settings() -> Iterator[None]:
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_a_refused_setting_names_its_variable_and_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TRACTATUS_MAX_BATCH", "-5")
    monkeypatch.setenv("NEO4J_URI", "bolt://db.example:7687")
    monkeypatch.setenv("NEO4J_PASSWORD", "short")
    assert cli.main(["check"]) == 2
    err = capsys.readouterr().err
    assert "tractatus check: setting refused: TRACTATUS_MAX_BATCH: " in err
    assert "(set to '-5')" in err and "Traceback" not in err
    assert "short" not in err.replace("or short", "")  # a secret's value is never printed


def test_an_unknown_variable_is_named_with_the_nearest_setting() -> None:
    environ = {"TRACTATUS_RATE_LIMT": "5", "TRACTATUS_RATE_LIMIT": "5", "TRACTATUS_URL": "x"}
    assert list(setting_errors.unknown(environ)) == [
        "TRACTATUS_RATE_LIMT is no setting and is ignored (did you mean TRACTATUS_RATE_LIMIT?)"
    ]
    [foo] = setting_errors.unknown({"TRACTATUS_FOO": "bar"})
    assert foo.startswith("TRACTATUS_FOO is no setting and is ignored")


def test_variables_follow_the_settings_aliases() -> None:
    assert setting_errors.variable("max_batch") == "TRACTATUS_MAX_BATCH"
    assert setting_errors.variable("neo4j_uri") == "NEO4J_URI"
    assert setting_errors.variable("principals") == "TRACTATUS_PRINCIPALS"


@pytest.mark.parametrize("name", ["TRACTATUS_DORMANT_AFTER", "TRACTATUS_EPHEMERAL_TTL"])
@pytest.mark.parametrize("value", ["0", "P0D", "-5", "-P1D"])
def test_a_lifetime_of_zero_or_less_is_refused(
    name: str, value: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """0 made one sleep silence every long-term fact (or expire every ephemeral one): a new
    operator's trial saw it accepted where TRACTATUS_SLEEP_INTERVAL=0 is refused."""
    monkeypatch.setenv(name, value)
    assert cli.main(["check-chains"]) == 2  # refused before the store is opened
    err = capsys.readouterr().err
    assert f"tractatus check-chains: setting refused: {name}: " in err
    assert f"(set to '{value}')" in err and "Traceback" not in err
    assert "must be a positive duration" in err


def test_a_positive_lifetime_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRACTATUS_DORMANT_AFTER", "0.001")
    monkeypatch.setenv("TRACTATUS_EPHEMERAL_TTL", "P2D")
    settings = get_settings()
    assert settings.dormant_after.total_seconds() == 0.001
    assert settings.ephemeral_ttl.days == 2
