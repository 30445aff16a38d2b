"""The repository stands alone and its tests are sorted: no absolute path of a machine in any
file, and every integration test file carries the ``integration`` marker."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Absolute paths of a developer's or a CI machine (built from parts, so this file does not
# name them itself). The Dockerfile's paths are inside the image, not on any machine.
MACHINE_PATH = re.compile(r"(?<![\w.-])/(?:" + "|".join(["work", "root", "home", "tmp"]) + ")/")
INSIDE_THE_IMAGE = {"Dockerfile"}


def repository_files() -> list[Path]:
    """Files git would commit: tracked, or new and not ignored."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8")
    return [ROOT / name for name in listed.split("\0") if name and (ROOT / name).is_file()]


def machine_paths(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if MACHINE_PATH.search(line)]


def test_no_file_names_a_machine_path() -> None:
    found = {}
    for path in repository_files():
        name = str(path.relative_to(ROOT))
        if name in INSIDE_THE_IMAGE:
            continue
        try:
            text = path.read_text("utf-8")
        except UnicodeDecodeError:
            continue
        if lines := machine_paths(text):
            found[name] = lines[:3]
    assert not found, found


def test_a_machine_path_is_seen() -> None:
    home = "/" + "home/me/data.json"
    assert machine_paths(f'default = "{home}"\nurl = "http://x/home/y"\nvar/tmp/z') == [
        f'default = "{home}"'
    ]


def _marked_integration(tree: ast.Module) -> bool:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
        ):
            return "pytest.mark.integration" in ast.unparse(node.value)
    return False


def unmarked(folder: Path) -> list[str]:
    """Test files of ``folder`` without a module-level ``pytestmark`` naming the marker."""
    return sorted(
        path.name
        for path in folder.glob("test_*.py")
        if not _marked_integration(ast.parse(path.read_text("utf-8")))
    )


def test_every_integration_test_file_is_marked() -> None:
    folder = ROOT / "tests" / "integration"
    assert len(list(folder.glob("test_*.py"))) > 20
    assert unmarked(folder) == []


def test_an_unmarked_file_is_seen(tmp_path: Path) -> None:
    (tmp_path / "test_a.py").write_text("import pytest\n\ndef test_x() -> None: ...\n")
    (tmp_path / "test_b.py").write_text(
        "import pytest\n\npytestmark = [pytest.mark.integration, pytest.mark.slow]\n"
    )
    (tmp_path / "test_c.py").write_text("import pytest\n\npytestmark = pytest.mark.slow\n")
    assert unmarked(tmp_path) == ["test_a.py", "test_c.py"]
