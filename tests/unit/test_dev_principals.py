"""`tractatus dev-principals` (what `make run` calls) writes a development key only for the
principals file the server will read, and only when that file does not exist."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from server import cli
from server.auth import KeyRing
from server.settings import get_settings
from tests.helpers import KEYS, PRINCIPALS


@pytest.fixture(autouse=True)
def fresh_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRACTATUS_PRINCIPALS", raising=False)
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[str | None, str]:
    assert cli.main(["dev-principals", *args]) == 0
    out = capsys.readouterr().out
    found = re.search(r"development key \(member\): (\S+)", out)
    return (found.group(1) if found else None), out


def test_nothing_configured_writes_the_local_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key, _ = _run(capsys)
    assert key is not None
    assert KeyRing(tmp_path / "principals.local.toml").authenticate(f"Bearer {key}").id == "dev"
    again, out = _run(capsys)
    assert again is None and "exists" in out


def test_the_configured_file_is_used_and_an_existing_one_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = tmp_path / "my.toml"
    mine.write_text(PRINCIPALS, "utf-8")
    monkeypatch.setenv("TRACTATUS_PRINCIPALS", str(mine))
    key, out = _run(capsys)
    assert key is None and f"{mine} exists" in out
    assert mine.read_text("utf-8") == PRINCIPALS
    assert not (tmp_path / "principals.local.toml").exists()
    assert KeyRing(mine).authenticate(f"Bearer {KEYS['alice']}").id == "alice"


def test_a_configured_file_that_does_not_exist_gets_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    new = tmp_path / "new.toml"
    monkeypatch.setenv("TRACTATUS_PRINCIPALS", str(new))
    key, _ = _run(capsys)
    assert key is not None
    assert KeyRing(new).authenticate(f"Bearer {key}").id == "dev"
    assert not (tmp_path / "principals.local.toml").exists()


def test_an_unwritable_place_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["dev-principals", "--path", str(tmp_path / "no" / "such" / "p.toml")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_it_reads_no_other_setting_with_or_without_path(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """README "Configuration": dev-principals, openapi and ingest read none of the server's
    settings; a new operator's trial saw dev-principals ignore a refused value with --path and
    stop on it without."""
    monkeypatch.setenv("TRACTATUS_MAX_BATCH", "-5")
    monkeypatch.setenv("TRACTATUS_PRINCIPALS", str(tmp_path / "named.toml"))
    key, _ = _run(capsys)
    assert key is not None and (tmp_path / "named.toml").exists()
    other, _ = _run(capsys, "--path", str(tmp_path / "other.toml"))
    assert other is not None and other != key
