"""Configuration is read once, through server/settings.py: no module of the packages reads the
environment on its own (the exceptions are listed and explained below), and importing any of
them writes nothing to it."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("server", "ingest", "graph_schema")
# (file, function) -> why it may touch the environment
ALLOWED = {
    # `tractatus ingest` is an HTTP client that starts without the settings (and the neo4j
    # driver): its defaults for --key and --url, and the user's cache directory
    ("server/cli.py", "_ingest"): "TRACTATUS_API_KEY, the default of --key",
    ("server/cli.py", "_add_ingest"): "TRACTATUS_URL, the default of --url",
    ("server/cli.py", "_user_cache"): "XDG_CACHE_HOME, where progress files go",
    # the names of the TRACTATUS_* variables set, to warn of one nothing reads (a misspelling)
    ("server/setting_errors.py", "unknown"): "lists TRACTATUS_* names, reads no value",
    # tells the model's libraries to stay offline, just before they are first imported
    ("ingest/embeddings/model.py", "offline_environment"): "writes HF_HUB_OFFLINE & co.",
}

IMPORT_EVERYTHING = """
import importlib, json, os, pkgutil, sys
sys.path.insert(0, sys.argv[1])
before = dict(os.environ)
names = []
for package in sys.argv[2:]:
    names.append(package)
    module = importlib.import_module(package)
    for info in pkgutil.walk_packages(module.__path__, package + "."):
        names.append(info.name)
        importlib.import_module(info.name)
after = dict(os.environ)
changed = {k: [before.get(k), after.get(k)] for k in before.keys() | after.keys()
           if before.get(k) != after.get(k)}
print(json.dumps({"modules": names, "changed": changed}))
"""


def environment_uses(root: Path, packages: tuple[str, ...] = PACKAGES) -> set[tuple[str, str]]:
    """(file, enclosing function or "<module>") of every use of os.environ / os.getenv /
    os.putenv / os.unsetenv in the packages."""
    names = {"environ", "getenv", "putenv", "unsetenv", "environb"}
    found = set()
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            tree = ast.parse(path.read_text("utf-8"))
            where = {}
            for func in ast.walk(tree):
                if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                    for node in ast.walk(func):
                        where.setdefault(id(node), func.name)
            for node in ast.walk(tree):
                name = (
                    node.attr
                    if isinstance(node, ast.Attribute)
                    else node.id
                    if isinstance(node, ast.Name)
                    else None
                )
                imported = isinstance(node, ast.ImportFrom) and node.module == "os"
                if name in names or (imported and {a.name for a in node.names} & names):
                    found.add((str(path.relative_to(root)), where.get(id(node), "<module>")))
    return found


def test_only_settings_and_the_listed_exceptions_touch_the_environment() -> None:
    assert environment_uses(ROOT) == set(ALLOWED)


def test_an_environment_read_elsewhere_is_found(tmp_path: Path) -> None:
    (tmp_path / "ingest").mkdir()
    (tmp_path / "ingest" / "x.py").write_text(
        "import os\nfrom os import getenv\nURL = os.environ.get('U')\n"
        "def f():\n    return getenv('V')\n",
        "utf-8",
    )
    assert environment_uses(tmp_path, ("ingest",)) == {
        ("ingest/x.py", "<module>"),
        ("ingest/x.py", "f"),
    }


def test_importing_every_module_leaves_the_environment_unchanged() -> None:
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_EVERYTHING, str(ROOT), *PACKAGES],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(report["modules"]) > 60  # every module was imported
    assert "ingest.embeddings.model" in report["modules"]
    assert report["changed"] == {}
