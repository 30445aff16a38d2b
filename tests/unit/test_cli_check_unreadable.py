"""``tractatus check`` and ``check-chains`` exit 2 when the store cannot be read (1 means
problems found): a new user's trial ran them without the password and read a traceback
ending in exit 1."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from server import cli
from server.settings import get_settings


@pytest.fixture(autouse=True)
def unreachable(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:1")  # nothing listens there
    monkeypatch.setenv("NEO4J_PASSWORD", "not-the-password")
    monkeypatch.setenv("TRACTATUS_NEO4J_RETRY_TIME", "0")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.mark.parametrize("command", ["check", "check-chains"])
def test_an_unreadable_store_exits_2_with_one_line(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main([command, "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"tractatus {command}: cannot read the store: ")
    assert "connection.env" in captured.err and "Traceback" not in captured.err
