"""The README is checked against the code: every route it lists exists, every route exists
in the README, and every setting in the configuration table is one the code reads."""

from __future__ import annotations

import re
from pathlib import Path

from server.app import create_app
from server.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text("utf-8")


def _app_routes() -> set[tuple[str, str]]:
    app = create_app(Settings(principals=ROOT / "README.md"))
    return {
        (method.upper(), path)
        for path, operations in app.openapi()["paths"].items()
        for method in operations
    }


def _readme_routes() -> set[tuple[str, str]]:
    routes = set()
    for line in README.splitlines():
        if not line.startswith("| `"):
            continue
        first_column = line.split(" | ")[0]
        for cell in re.findall(r"`([^`]+)`", first_column):
            match = re.match(r"(GET|POST|PUT|DELETE|PATCH) (/\S*)", cell.strip())
            if match:
                routes.add((match.group(1), match.group(2).split("?")[0]))
    return routes


def test_every_route_is_documented_and_every_documented_route_exists() -> None:
    assert _readme_routes() == _app_routes()


def test_configuration_table_names_real_settings() -> None:
    table = README.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    names = set(re.findall(r"^\| `([A-Z0-9_]+)`", table, flags=re.M))
    names |= set(re.findall(r"/ `([A-Z0-9_]+)`", table))
    # read outside Settings: the local Neo4j runner, the benchmarks' and tests' data file, the
    # client and its MCP server, and the notebooks
    runtime = "".join(
        (ROOT / path).read_text("utf-8")
        for path in (
            "scripts/neo4j_local.py",
            "bench/harness.py",
            "client/tractatus_client/_http.py",
            "client/tractatus_client/mcp_server.py",
            "notebooks/03-recall-evaluation.ipynb",
        )
    )
    known = {
        alias
        for name, field in Settings.model_fields.items()
        for alias in (
            [f"TRACTATUS_{name.upper()}"]
            + (
                list(field.validation_alias.choices)  # type: ignore[union-attr]
                if hasattr(field.validation_alias, "choices")
                else [field.validation_alias]
                if field.validation_alias
                else []
            )
        )
    }
    unknown = {n for n in names if n not in known and n not in runtime}
    assert not unknown, unknown
    undocumented = {
        f"TRACTATUS_{n.upper()}"
        for n, f in Settings.model_fields.items()
        if f.validation_alias is None
    } - names
    assert not undocumented, undocumented


# --- the layout and the paths the documentation names -----------------------------------------

PACKAGES = ("server", "ingest", "graph_schema")
TOP = ("server", "ingest", "graph_schema", "tests", "bench", "docs", "scripts", ".ci")
# a repository path in running text or in backticks: a top-level folder, then more of a path
MENTION = re.compile(r"(?<![\w./~$-])((?:" + "|".join(map(re.escape, TOP)) + r")/[\w./*-]*)")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _layout(readme: str) -> list[str]:
    """The folders the README's "## Layout" section lists (first word of each line)."""
    section = readme.split("## Layout", 1)[1].split("\n## ", 1)[0]
    block = section.split("```", 2)[1]
    return [line.split()[0] for line in block.splitlines()[1:] if line.strip()]


def _package_folders() -> set[str]:
    return {
        f"{init.parent.relative_to(ROOT).as_posix()}/"
        for package in PACKAGES
        for init in (ROOT / package).rglob("__init__.py")
    }


def test_every_recall_switch_is_documented() -> None:
    """The README's `TRACTATUS_RECALL_DISABLE` row names every step that can be switched
    off (``fusion.FEATURES``), and docs/recall.md lists them too (the `fact` step was first
    missing from the latter's list, as five others were)."""
    from graph_schema.recall.fusion import FEATURES

    row = next(line for line in README.splitlines() if "`TRACTATUS_RECALL_DISABLE`" in line)
    assert set(FEATURES) <= set(re.findall(r"`([a-z_]+)`", row))
    recall_doc = (ROOT / "docs" / "recall.md").read_text("utf-8")
    listed = recall_doc.split("`TRACTATUS_RECALL_DISABLE` (comma list of", 1)[1].split(")", 1)[0]
    assert set(FEATURES) <= set(re.findall(r"`([a-z_]+)`", listed))


def test_readme_layout_matches_the_tree() -> None:
    listed = _layout(README)
    missing = [folder for folder in listed if not (ROOT / folder).is_dir()]
    assert not missing, f"the README's layout lists folders that do not exist: {missing}"
    unlisted = _package_folders() - set(listed)
    assert not unlisted, f"package folders missing from the README's layout: {sorted(unlisted)}"


def test_layout_check_sees_a_stale_entry() -> None:
    stale = README.replace("## Layout\n\n```\n", "## Layout\n\n```\nserver/gone/   removed\n", 1)
    assert "server/gone/" in _layout(stale)
    assert "server/routers/" in _package_folders()


def _docs() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def mentioned_paths(text: str) -> set[str]:
    """Repository paths named in a page: ``server/app.py``, ``bench/locomo/`` and the like
    (globs and placeholders are left out)."""
    return {m.rstrip(".,:;") for m in MENTION.findall(text) if "*" not in m}


def test_every_repository_path_the_docs_mention_exists() -> None:
    missing = {
        f"{page.name}: {path}"
        for page in _docs()
        for path in mentioned_paths(page.read_text("utf-8"))
        if not (ROOT / path).exists()
    }
    assert not missing, sorted(missing)


def test_mentions_are_found_in_text_and_backticks() -> None:
    text = (
        "see `server/app.py`, bench/locomo/. and `tests/integration/test_recall*.py` or ~/x/docs/y"
    )
    assert mentioned_paths(text) == {"server/app.py", "bench/locomo/"}


def test_every_relative_link_of_the_docs_points_inside_the_repository() -> None:
    bad = set()
    for page in _docs():
        for target in LINK.findall(page.read_text("utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # a URL or an anchor of the same page
            path = (page.parent / target.split("#", 1)[0]).resolve()
            if not path.is_relative_to(ROOT) or not path.exists():
                bad.add(f"{page.name}: {target}")
    assert not bad, sorted(bad)
