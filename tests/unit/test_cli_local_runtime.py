"""`tractatus backup` / `tractatus restore` drive the local runtime's offline dump and load
(scripts/neo4j_local.py); without a checkout they say what to use instead."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from server import cli

ROOT = Path(__file__).resolve().parents[2]


def _tractatus(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "NEO4J_URI"}
    return subprocess.run(
        [sys.executable, "-m", "server.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_restore_of_a_folder_without_a_dump_is_refused_before_the_store_is_touched(
    tmp_path: Path,
) -> None:
    done = _tractatus("restore", str(tmp_path))
    assert done.returncode == 1
    assert f"{tmp_path / 'neo4j.dump'} does not exist" in done.stderr


def test_both_commands_are_offered() -> None:
    for command in ("backup", "restore"):
        done = _tractatus(command, "--help")
        assert done.returncode == 0 and "DIR/neo4j.dump" in done.stdout


def test_an_installation_without_the_runtime_says_what_to_use(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli, "LOCAL_RUNTIME", tmp_path / "missing.py")
    assert cli.main(["backup", str(tmp_path)]) == 2
    assert "neo4j-admin database dump/load" in capsys.readouterr().err


def test_the_generated_neo4j_password_is_never_read_as_an_option() -> None:
    """neo4j-admin refuses a password that starts with "-" (an option to it): URL-safe
    tokens did one time in 64 and failed a clean-clone CI run; an older version's such
    password is replaced before the first start, never after."""
    from scripts.neo4j_local import new_password, refused_by_admin

    drawn = [new_password() for _ in range(2000)]
    assert not [p for p in drawn if p.startswith("-")]
    assert all(len(p) == 48 and int(p, 16) >= 0 for p in drawn)
    assert len(set(drawn)) == len(drawn)
    assert refused_by_admin("-x2Yq", first_start=True)
    assert not refused_by_admin("-x2Yq", first_start=False)  # the store already has it
    assert not refused_by_admin("a1b2", first_start=True)
