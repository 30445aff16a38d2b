"""bench/harness.py, shared by the benchmarks and the tests: the LoCoMo file is found through
an argument or TRACTATUS_LOCOMO and a missing one names the setting; the in-process server
serves; result files name no directory of the machine."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from bench import harness


def test_the_locomo_file_comes_from_the_argument_then_the_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine, theirs = tmp_path / "mine.json", tmp_path / "theirs.json"
    mine.write_text("[]")
    theirs.write_text("[]")
    monkeypatch.setenv("TRACTATUS_LOCOMO", str(theirs))
    assert harness.locomo_file() == theirs
    assert harness.locomo_file(mine) == mine


def test_a_missing_locomo_file_names_the_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRACTATUS_LOCOMO", str(tmp_path / "absent.json"))
    with pytest.raises(harness.LocomoMissing, match="set TRACTATUS_LOCOMO"):
        harness.locomo_file()
    monkeypatch.delenv("TRACTATUS_LOCOMO")
    monkeypatch.setattr(harness, "LOCOMO_DEFAULT", tmp_path / "default.json")
    with pytest.raises(harness.LocomoMissing, match="TRACTATUS_LOCOMO is not set; the default"):
        harness.locomo_file()


def test_serve_app_serves_until_the_block_ends() -> None:
    app = FastAPI()

    @app.get("/ping")
    def ping() -> dict[str, str]:
        return {"pong": "yes"}

    with harness.serve_app(app) as url:
        assert httpx.get(f"{url}/ping").json() == {"pong": "yes"}
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{url}/ping", timeout=2)


def test_results_name_files_without_the_machine_s_directories(tmp_path: Path) -> None:
    assert harness.shown_path(harness.ROOT / "bench" / "harness.py") == "bench/harness.py"
    assert harness.shown_path(tmp_path / "locomo-dev.json") == "locomo-dev.json"
    assert {"cpu", "cores", "memory", "python", "load_avg_1m"} <= set(harness.machine(x=1))
