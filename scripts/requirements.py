"""Print the project's requirements (runtime + the given extras) from pyproject.toml."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

project = tomllib.loads(Path("pyproject.toml").read_text("utf-8"))["project"]
lines = list(project["dependencies"])
for extra in sys.argv[1:]:
    lines += project["optional-dependencies"][extra]
lines += ["setuptools>=68", "wheel"]
print("\n".join(lines))
