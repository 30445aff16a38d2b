"""The notebooks (notebooks/) run from top to bottom against the real API and Neo4j, through
the public client only, as a researcher would run them (nbclient, a real kernel)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from neo4j import Driver

from tests.conftest import KEYS

pytestmark = pytest.mark.integration

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
CELL_TIMEOUT = 180  # seconds; a notebook is meant to run in under 3 minutes here
CYPHER = re.compile(r"```cypher\n(.*?)```", re.DOTALL)


def execute(name: str, monkeypatch: pytest.MonkeyPatch, **env: str) -> Any:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    started = time.perf_counter()
    client.execute()
    print(f"{name}: {time.perf_counter() - started:.1f} s")
    return notebook


def summary(notebook: Any) -> dict[str, Any]:
    [cell] = [c for c in notebook.cells if "summary" in c.metadata.get("tags", [])]
    text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
    parsed: dict[str, Any] = json.loads(text.strip().splitlines()[-1])
    return parsed


def _images(notebook: Any) -> int:
    return sum(
        1
        for cell in notebook.cells
        for output in cell.get("outputs", [])
        if "image/png" in output.get("data", {})
    )


def test_quickstart(base_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    notebook = execute(
        "01-quickstart.ipynb", monkeypatch, TRACTATUS_URL=base_url, TRACTATUS_API_KEY=KEYS["alice"]
    )
    printed = "".join(
        o.get("text", "") for c in notebook.cells for o in c.get("outputs", []) if "text" in o
    )
    assert "precondition_failed" in printed and "current: React True" in printed
    assert "out_of_scope" in printed


def test_causal_analysis_agrees_with_the_browser_cypher(
    base_url: str, driver: Driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    notebook = execute(
        "02-causal-analysis.ipynb",
        monkeypatch,
        TRACTATUS_URL=base_url,
        TRACTATUS_API_KEY=KEYS["public"],
    )
    found = summary(notebook)
    assert found["roots"] == ["create_order"]
    assert found["longest"][0] == "send_receipt" and found["longest"][-1] == "create_order"
    assert _images(notebook) == 1
    queries = {}
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            for block in CYPHER.findall(cell.source):
                queries[block.splitlines()[0].removeprefix("// name: ")] = block
    assert set(queries) == {"root_causes", "longest_path"}
    roots, _, _ = driver.execute_query(queries["root_causes"], event_id=found["failure"])
    assert [r["action"] for r in roots] == found["roots"]
    [longest], _, _ = driver.execute_query(queries["longest_path"], event_id=found["last"])
    assert longest["actions"] == found["longest"]


def test_recall_evaluation(base_url: str, locomo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    notebook = execute(
        "03-recall-evaluation.ipynb",
        monkeypatch,
        TRACTATUS_URL=base_url,
        TRACTATUS_API_KEY=KEYS["public"],
        TRACTATUS_LOCOMO=str(locomo),
    )
    scores = summary(notebook)
    assert scores["questions"] >= 20
    assert 0 < scores["hit10"] <= 1 and 0 < scores["mrr"] <= scores["hit10"]
    assert _images(notebook) == 2  # the per-category chart and the latency histogram


def test_recall_evaluation_names_the_setting_when_the_data_is_missing(
    base_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(CellExecutionError) as failed:
        execute(
            "03-recall-evaluation.ipynb",
            monkeypatch,
            TRACTATUS_URL=base_url,
            TRACTATUS_API_KEY=KEYS["public"],
            TRACTATUS_LOCOMO=str(tmp_path / "missing.json"),
        )
    assert "LoCoMo data not found" in str(failed.value)
    assert "set TRACTATUS_LOCOMO" in str(failed.value)
