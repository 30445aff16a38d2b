"""Print the project's requirements (runtime + the given extras) from pyproject.toml, and those
of the client in client/ (with its [mcp] extra). The client itself is installed from its
folder (editable) by the Makefile, so it is left out here. ``--extra-only NAME`` prints only
that extra's requirements (``make notebooks`` installs Jupyter with it). ``--lock`` prints
the constraints file (scripts/constraints.txt) of the packages installed in this Python:
``make lock`` writes it after upgrading them."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

LOCK_HEADER = """\
# The versions `make venv` installs (pip constraints): the set the whole test suite last passed
# with. pyproject.toml keeps the ranges a package user installs from; this file keeps CI and
# every checkout on one tested set, so that a release on the package index cannot change a
# run between two commits. `make lock` rewrites it from .venv after an upgrade (README)."""
# not pinned: the spaCy model (hash-checked from scripts/spacy-model.txt in a step of its own)
# and the virtualenv's own pip
UNPINNED = ("en_core_web_sm", "pip==")

if sys.argv[1:2] == ["--lock"]:
    frozen = subprocess.run(
        [sys.executable, "-m", "pip", "freeze", "--all", "--exclude-editable"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    print(LOCK_HEADER)
    print("\n".join(line for line in frozen if not line.startswith(UNPINNED)))
    sys.exit(0)

project = tomllib.loads(Path("pyproject.toml").read_text("utf-8"))["project"]
if sys.argv[1:2] == ["--extra-only"]:
    print("\n".join(project["optional-dependencies"][sys.argv[2]]))
    sys.exit(0)
client = tomllib.loads(Path("client/pyproject.toml").read_text("utf-8"))["project"]
lines = [d for d in project["dependencies"] if not d.startswith(client["name"])]
for extra in sys.argv[1:]:
    lines += project["optional-dependencies"][extra]
lines += client["dependencies"] + client["optional-dependencies"]["mcp"]
lines += ["setuptools>=68", "wheel"]
print("\n".join(dict.fromkeys(lines)))
