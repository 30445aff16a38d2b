"""`make run` as a new user runs it: the development key it prints opens the API it starts,
and a principals file the user names is the one served (and left alone)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from bench.harness import ROOT, free_port
from tests.helpers import KEYS, PRINCIPALS

pytestmark = pytest.mark.integration

KEY_LINE = re.compile(r"development key \(member\): (\S+)")


@contextmanager
def make_run(principals: Path | None) -> Iterator[tuple[str, str]]:
    """`make run` on a free port against the test Neo4j (NEO4J_URI: nothing is started);
    yields the API's URL and everything printed before the server came up."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    env.pop("TRACTATUS_PRINCIPALS", None)
    if principals is not None:
        env["TRACTATUS_PRINCIPALS"] = str(principals)
    port = free_port()
    process = subprocess.Popen(
        ["make", "-s", "run", f"PORT={port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        lines = []
        assert process.stdout is not None
        for line in process.stdout:  # until the recipe announces the API
            lines.append(line)
            if line.startswith("API:"):
                break
        _wait_for(url, process)
        yield url, "".join(lines)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def _wait_for(url: str, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.3)
    pytest.fail(f"make run did not serve (exit {process.poll()})")


def _status(url: str, key: str) -> int:
    headers = {"Authorization": f"Bearer {key}"}
    return httpx.get(f"{url}/v1/ontology", headers=headers, timeout=30).status_code


def _snapshot(path: Path) -> bytes | None:
    return path.read_bytes() if path.exists() else None


def test_a_named_principals_file_is_served_and_no_other_key_is_printed(
    tmp_path: Path, driver: object
) -> None:
    mine = tmp_path / "my.toml"
    mine.write_text(PRINCIPALS, "utf-8")
    local = ROOT / "principals.local.toml"
    before = _snapshot(local)
    with make_run(mine) as (url, printed):
        assert KEY_LINE.search(printed) is None, printed
        assert f"{mine} exists" in printed
        assert _status(url, KEYS["alice"]) == 200
    assert mine.read_text("utf-8") == PRINCIPALS
    assert _snapshot(local) == before  # no development file written beside it


def test_a_named_file_that_does_not_exist_gets_the_development_key(
    tmp_path: Path, driver: object
) -> None:
    new = tmp_path / "new.toml"
    with make_run(new) as (url, printed):
        found = KEY_LINE.search(printed)
        assert found is not None, printed
        assert f"wrote {new}" in printed
        assert _status(url, found.group(1)) == 200
        assert _status(url, "tr_live_" + "x" * 40) == 401
    assert found.group(1) in new.read_text("utf-8")
