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
    # read outside Settings: the local Neo4j runner, and the benchmarks' and tests' data file
    runtime = "".join(
        (ROOT / path).read_text("utf-8") for path in ("scripts/neo4j_local.py", "bench/harness.py")
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
