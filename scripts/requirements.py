"""Print the project's requirements (runtime + the given extras) from pyproject.toml, and those
of the client in client/ (with its [mcp] extra). The client itself is installed from its
folder (editable) by the Makefile, so it is left out here. ``--extra-only NAME`` prints only
that extra's requirements (``make notebooks`` installs Jupyter with it)."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

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
