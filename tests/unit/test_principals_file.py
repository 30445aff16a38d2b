"""The principals file: refused at start when it cannot serve, and a file broken while the
server runs authenticates no one (401) instead of answering 500.

A new user's trial: a short key, an unknown role, a file that is no TOML, a bad
``key_sha256``, a missing file: the server started and answered every request 500; one key
given to a member and an admin authenticated silently as the admin."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from graph_schema.core.errors import AuthenticationFailed
from server.app import create_app
from server.auth import KeyRing, PrincipalsInvalid, hash_key, load_principals
from server.settings import Settings

KEY, OTHER = "tr_test_" + "a" * 32, "tr_test_" + "b" * 32


def _file(tmp_path: Path, *entries: str) -> Path:
    path = tmp_path / "principals.toml"
    path.write_text("\n".join(f"[[principal]]\n{e}\n" for e in entries), "utf-8")
    return path


def _entry(pid: str, key: str = KEY, role: str = "member", groups: str = "[]") -> str:
    return f'id = "{pid}"\nkey = "{key}"\nrole = "{role}"\ngroups = {groups}'


@pytest.mark.parametrize(
    ("entries", "reason"),
    [
        ([_entry("a", key="tr_live_short")], "at least 24 characters"),
        ([_entry("a", role="superuser")], "role is member or admin"),
        (['id = "a"\nkey_sha256 = "abc"'], "64 hexadecimal digits"),
        (['id = "a"'], "give key or key_sha256"),
        ([_entry("a"), _entry("b", role="admin")], "its key is another entry's too"),
        ([_entry("a"), _entry("a", key=OTHER, role="admin")], "other groups or another role"),
        ([_entry("a"), _entry("a", key=OTHER, groups='["x"]')], "other groups or another role"),
    ],
)
def test_an_invalid_file_is_refused_naming_the_setting_and_the_entry(
    tmp_path: Path, entries: list[str], reason: str
) -> None:
    with pytest.raises(PrincipalsInvalid) as refused:
        load_principals(_file(tmp_path, *entries))
    assert str(refused.value).startswith("TRACTATUS_PRINCIPALS (") and reason in str(refused.value)


def test_a_missing_file_or_no_toml_is_refused(tmp_path: Path) -> None:
    with pytest.raises(PrincipalsInvalid, match="No such file"):
        load_principals(tmp_path / "none.toml")
    (tmp_path / "bad.toml").write_text("this is [not toml", "utf-8")
    with pytest.raises(PrincipalsInvalid, match="TRACTATUS_PRINCIPALS"):
        load_principals(tmp_path / "bad.toml")


def test_a_rotation_keeps_one_id_with_two_keys(tmp_path: Path) -> None:
    table = load_principals(_file(tmp_path, _entry("a"), _entry("a", key=OTHER)))
    assert {p.id for p in table.values()} == {"a"} and len(table) == 2
    assert set(table) == {hash_key(KEY), hash_key(OTHER)}


def test_the_server_refuses_to_start_on_an_invalid_file(tmp_path: Path) -> None:
    broken = _file(tmp_path, _entry("a", key="tr_live_short"))
    app = create_app(Settings.model_construct(principals=broken))

    async def start() -> None:
        async with app.router.lifespan_context(app):
            pass  # never reached: the file is read before the store is opened

    with pytest.raises(PrincipalsInvalid, match="at least 24 characters"):
        asyncio.run(start())


ROOT = Path(__file__).resolve().parents[2]


def _serve(principals: Path | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TRACTATUS_PRINCIPALS"}
    if principals is not None:
        env["TRACTATUS_PRINCIPALS"] = str(principals)
    command = [sys.executable, "-m", "server.cli", "serve", "--port", "0"]
    return subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def _said(stderr: str) -> list[str]:
    """The lines of stderr but the warnings about unknown variables the environment may hold."""
    return [line for line in stderr.splitlines() if not line.startswith("tractatus serve: warn")]


@pytest.mark.parametrize("broken", ["short key", "no toml", "missing"])
def test_tractatus_serve_refuses_a_file_in_one_log_line(tmp_path: Path, broken: str) -> None:
    """A new operator's trial: each refusal was followed by uvicorn's multi-frame traceback."""
    path = {
        "short key": _file(tmp_path, _entry("a", key="tr_live_short")),
        "no toml": tmp_path / "x.toml",
        "missing": tmp_path / "missing.toml",
    }[broken]
    if broken == "no toml":
        path.write_text("this is [not toml", "utf-8")
    done = _serve(path)
    assert done.returncode == 3, done.stderr
    [line] = _said(done.stderr)
    record = json.loads(line)
    assert record["level"] == "error" and record["logger"] == "tractatus.app"
    assert record["message"].startswith(f"refused to start: TRACTATUS_PRINCIPALS ({path})")
    assert "Traceback" not in done.stderr


def test_tractatus_serve_without_a_principals_file_says_so_in_one_line() -> None:
    done = _serve(None)
    assert done.returncode == 2, done.stderr
    [line] = _said(done.stderr)
    assert line.startswith("tractatus serve: setting refused: TRACTATUS_PRINCIPALS: ")
    assert "Traceback" not in done.stderr


def test_a_file_broken_while_running_authenticates_no_one(tmp_path: Path) -> None:
    path = _file(tmp_path, _entry("a"))
    ring = KeyRing(path)
    ring.check()
    assert ring.authenticate(f"Bearer {KEY}").id == "a"
    path.write_text("this is [not toml", "utf-8")
    os.utime(path, (1, 1))  # another modification time, whatever the clock's resolution
    with pytest.raises(AuthenticationFailed):
        ring.authenticate(f"Bearer {KEY}")
    path.unlink()
    with pytest.raises(AuthenticationFailed):
        ring.authenticate(f"Bearer {KEY}")
    _file(tmp_path, _entry("a"))
    os.utime(path, (2, 2))
    assert ring.authenticate(f"Bearer {KEY}").id == "a"
