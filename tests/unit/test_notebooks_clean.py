"""Notebooks are committed without outputs (nothing a run printed, no execution counts), so
their diffs stay readable and no result of someone's data is committed by accident."""

from __future__ import annotations

import json
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def dirty_cells(path: Path) -> list[int]:
    notebook = json.loads(path.read_text("utf-8"))
    return [
        index
        for index, cell in enumerate(notebook["cells"])
        if cell.get("outputs") or cell.get("execution_count") is not None
    ]


def test_there_are_at_least_three_notebooks() -> None:
    assert len(list(NOTEBOOKS.glob("*.ipynb"))) >= 3


def test_every_notebook_is_committed_without_outputs() -> None:
    dirty = {p.name: cells for p in NOTEBOOKS.glob("*.ipynb") if (cells := dirty_cells(p))}
    assert not dirty, f"strip the outputs (nbstripout, or Jupyter's 'Clear All Outputs'): {dirty}"


def test_the_check_sees_an_output(tmp_path: Path) -> None:
    notebook = json.loads((NOTEBOOKS / "01-quickstart.ipynb").read_text("utf-8"))
    code = next(c for c in notebook["cells"] if c["cell_type"] == "code")
    code["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["hello\n"]}]
    run = tmp_path / "run.ipynb"
    run.write_text(json.dumps(notebook), "utf-8")
    assert dirty_cells(run) == [notebook["cells"].index(code)]
