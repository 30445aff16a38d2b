"""scripts/constraints.txt pins every package `make venv` installs, inside pyproject's ranges,
and the environment the tests run in is that set (README, "While working")."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
CONSTRAINTS = ROOT / "scripts" / "constraints.txt"


def _pins(text: str) -> dict[str, Version]:
    pins: dict[str, Version] = {}  # by canonical name
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[str(canonicalize_name(name))] = Version(version)
    return pins


def _requirements() -> list[Requirement]:
    printed = subprocess.run(
        [sys.executable, "scripts/requirements.py", "dev", "embeddings"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [Requirement(line) for line in printed.splitlines() if line.strip()]


def test_every_line_is_an_exact_pin() -> None:
    lines = [x for x in CONSTRAINTS.read_text("utf-8").splitlines() if not x.startswith("#")]
    assert lines and all(line.count("==") == 1 and " " not in line for line in lines), lines


def test_every_requirement_is_pinned_inside_its_range() -> None:
    pins = _pins(CONSTRAINTS.read_text("utf-8"))
    for requirement in _requirements():
        pinned = pins.get(canonicalize_name(requirement.name))
        assert pinned is not None, f"{requirement.name} has no pin: run `make lock`"
        assert requirement.specifier.contains(pinned, prereleases=True), (requirement, pinned)


def test_the_installed_packages_are_the_pinned_ones() -> None:
    installed = {
        str(canonicalize_name(d.metadata["Name"])): Version(d.version)
        for d in metadata.distributions()
    }
    for name, version in _pins(CONSTRAINTS.read_text("utf-8")).items():
        assert installed.get(name) == version, (name, installed.get(name), version)


def test_a_missing_or_out_of_range_pin_is_found() -> None:
    pins = _pins("fastapi==0.100.0\n")
    assert not Requirement("fastapi>=0.115").specifier.contains(pins["fastapi"])
    assert "httpx" not in pins
