"""The import rules of docs/architecture.md, checked on the source: no import circle anywhere in
server/, ingest/ and graph_schema/, and imports point one way, server -> ingest -> graph_schema.

An import counts when it runs as the module is imported: statements at module level, also
under ``if``/``try`` (so ``if TYPE_CHECKING:`` imports count) and in class bodies; imports
inside functions run later and do not. ``from package import name`` is an import of the
module ``package.name`` when that is a module, else of ``package`` itself. Importing a module
also runs its enclosing packages' ``__init__``, so those count too, except the importer's own
(always initialised before it).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("graph_schema", "ingest", "server")  # lowest layer first


def modules(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Dotted module name -> file, for every module of ``packages`` under ``root``."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _run_at_import(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """Import statements that run when the module is imported (not those inside functions)."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        else:  # if/else, try/except/finally, with, match, for, class bodies
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    yield from _run_at_import([child])
                elif isinstance(child, ast.excepthandler | ast.match_case):
                    yield from _run_at_import(child.body)


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module.split(".") if is_package else module.split(".")[:-1]
        anchor = package[: len(package) - (node.level - 1)]
        base = ".".join([*anchor, base] if base else anchor)
    return [base, *(f"{base}.{alias.name}" for alias in node.names)]


def import_graph(root: Path, packages: tuple[str, ...] = PACKAGES) -> nx.DiGraph:
    """Edges importer -> imported between the modules of ``packages``."""
    known = modules(root, packages)
    graph = nx.DiGraph()
    graph.add_nodes_from(known)
    for module, path in known.items():
        is_package = path.name == "__init__.py"
        mine = {".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 1)}
        for node in _run_at_import(ast.parse(path.read_text("utf-8")).body):
            for target in _targets(node, module, is_package):
                if target not in known:
                    continue  # outside the packages, or a name that is not a module
                parts = target.split(".")
                for i in range(1, len(parts) + 1):
                    enclosing = ".".join(parts[:i])
                    if enclosing in known and enclosing not in mine and enclosing != module:
                        graph.add_edge(module, enclosing)
    return graph


def circles(graph: nx.DiGraph) -> list[list[str]]:
    """One concrete circle per group of modules that import each other."""
    found = []
    for group in nx.strongly_connected_components(graph):
        if len(group) > 1:
            cycle = nx.find_cycle(graph.subgraph(group))
            found.append([edge[0] for edge in cycle] + [cycle[0][0]])
    return sorted(found)


def layering_violations(
    graph: nx.DiGraph, packages: tuple[str, ...] = PACKAGES
) -> list[tuple[str, str]]:
    """Imports of a higher layer from a lower one (``packages`` lists the lowest first)."""
    layer = {name: i for i, name in enumerate(packages)}
    return sorted((a, b) for a, b in graph.edges if layer[a.split(".")[0]] < layer[b.split(".")[0]])


def test_no_import_circle_in_the_packages() -> None:
    graph = import_graph(ROOT)
    assert graph.number_of_edges() > 100  # the parser sees the real imports
    assert circles(graph) == []


def test_imports_point_down_the_layers() -> None:
    assert layering_violations(import_graph(ROOT)) == []


# --- the checks themselves fail on what they are meant to catch ------------------------------


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return root


CIRCLES = {
    "plain": {
        "server/a.py": "import server.b\n",
        "server/b.py": "from server import a\n",
    },
    "type-checking-and-relative": {
        "server/a.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
        "    from server.b import B\n",
        "server/b.py": "from .c import C\n",
        "server/c.py": "from . import a\n",
    },
    "through-a-package-init": {  # importing server.p.x runs server/p/__init__.py first
        "server/p/__init__.py": "import server.q\n",
        "server/p/x.py": "",
        "server/q.py": "from server.p.x import X\n",
    },
}


@pytest.mark.parametrize("files", CIRCLES.values(), ids=CIRCLES.keys())
def test_a_circle_is_found(tmp_path: Path, files: dict[str, str]) -> None:
    graph = import_graph(_tree(tmp_path, {"server/__init__.py": "", **files}), ("server",))
    assert len(circles(graph)) == 1


def test_imports_inside_functions_do_not_count(tmp_path: Path) -> None:
    files = {
        "server/__init__.py": "",
        "server/a.py": "import server.b\n",
        "server/b.py": "def later():\n    from server import a\n",
    }
    assert circles(import_graph(_tree(tmp_path, files), ("server",))) == []


def test_an_upward_import_is_a_layering_violation(tmp_path: Path) -> None:
    files = {
        "graph_schema/__init__.py": "",
        "graph_schema/a.py": "from server.b import thing\n",
        "ingest/__init__.py": "",
        "server/__init__.py": "",
        "server/b.py": "import graph_schema.a\nimport ingest\n",
    }
    graph = import_graph(_tree(tmp_path, files))
    assert layering_violations(graph) == [
        ("graph_schema.a", "server"),
        ("graph_schema.a", "server.b"),
    ]
