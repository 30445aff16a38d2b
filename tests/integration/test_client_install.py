"""The client installs into a fresh virtual environment from its folder without the server's
weight (no torch, no sentence-transformers, no neo4j driver) and works against the real API."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from tractatus_client import Tractatus

from tests.conftest import KEYS

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
WHEELHOUSE = Path(os.environ.get("WHEELHOUSE") or Path.home() / ".cache" / "tractatus" / "wheels")
HEAVY = {"torch", "sentence-transformers", "neo4j", "neo4j-rust-ext", "transformers"}
CALL = """
import json, sys
from tractatus_client import Tractatus
with Tractatus(sys.argv[1], sys.argv[2]) as memory:
    facts = memory.facts(sys.argv[3], "tech_stack")
    print(json.dumps({"status": facts.status, "objects": [f.object for f in facts.facts]}))
"""


def _run(*command: str | Path) -> str:
    done = subprocess.run(
        [str(c) for c in command],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_client_installs_light_and_calls_the_server(base_url: str, tmp_path: Path) -> None:
    subject = f"test:{uuid.uuid4().hex[:8]}"
    with Tractatus(base_url, KEYS["alice"], timeout=120) as memory:
        memory.assert_fact(
            subject, "tech_stack", "Vue", source_kind="user_stated", asserted_by=subject,
            confidence=0.9, evidence="we use Vue",
        )  # fmt: skip
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", venv)
    python = venv / "bin" / "python"
    links = ["--find-links", WHEELHOUSE] if WHEELHOUSE.is_dir() else []
    # a copy: pip builds a local folder in place, and its build/ must not land in the tree
    source = shutil.copytree(
        ROOT / "client", tmp_path / "client", ignore=shutil.ignore_patterns("build", "*.egg-info")
    )
    _run(python, "-m", "pip", "install", "--quiet", *links, source)
    installed = {
        p["name"].lower() for p in json.loads(_run(python, "-m", "pip", "list", "--format=json"))
    }
    assert "tractatus-client" in installed
    assert not HEAVY & installed, HEAVY & installed
    answer = json.loads(_run(python, "-c", CALL, base_url, KEYS["alice"], subject))
    assert answer == {"status": "answered", "objects": ["Vue"]}
