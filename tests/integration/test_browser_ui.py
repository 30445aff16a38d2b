"""Neo4j Browser in headless Chromium against the local runtime: log in with the local
credentials, see the guide open on connect, run the guide's task-chain query and check that
the result frame draws the chain's nodes and relationships. The screenshot is kept under
var/test-artifacts/ (not committed)."""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Any

import pytest

from scripts.neo4j_local import USER, Settings, guide_pid
from tests.conftest import Api
from tests.integration.test_browser_guide import QUERIES
from tests.integration.test_events_support import at, event, new_task
from tests.integration.webdriver import Session, binaries, chromium

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "var" / "test-artifacts"
EDITOR = "[data-testid=activeEditor] textarea"
NEWEST_FRAME = "document.querySelector('[data-testid=frame]')"

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        binaries() is None and os.environ.get("CI") != "true",
        reason="chromium and chromedriver are not installed (.ci/run installs them)",
    ),
]


@pytest.fixture(scope="module")
def chain(api: dict[str, Api]) -> dict[str, Any]:
    """Six steps: two payment failures, a channel switch, a retry, and a refund request."""
    agent, task = api["public"], new_task()
    ids: list[str] = []

    def post(action: str, hhmm: str, outcome: str = "success") -> None:
        causes = {"caused_by": ids[-1:]} if ids else {}
        body = event(task, action, at(hhmm), outcome=outcome, goal=f"pay {task}", **causes)
        if not ids:
            body.pop("caused_by", None)
        response = agent.post("/v1/events", body)
        assert response.status_code == 201, response.text
        ids.append(response.json()["event"]["id"])

    post("create_order", "10:00")
    post("pay_order", "10:05", "failure")
    post("pay_order", "10:06", "failure")
    post("switch_channel", "10:07")
    post("pay_order", "10:08")
    post("send_receipt", "10:09")
    return {"task": task, "ids": ids}


def _one_line(query: str) -> str:
    """The query without its name comment, on one line (Enter would run it in the Browser)."""
    lines = [line.strip() for line in query.splitlines() if not line.startswith("//")]
    return " ".join(line for line in lines if line)


def _run(page: Session, command: str) -> None:
    page.click(EDITOR)
    page.type(EDITOR, command)
    page.click("[data-testid=editor-Run]")


def _log_in(page: Session, settings: Settings) -> None:
    page.open(settings.browser_url)
    page.wait_for("return document.querySelector('[data-testid=username]')")
    page.wait_for("return !!document.querySelector('[data-testid=connect]').offsetParent")
    # the form is drawn before its fields take input (a CI run failed typing into a field
    # that was there but not yet interactable): wait until both are shown and enabled
    page.wait_for(
        "return ['username', 'password'].every(id => {"
        " const e = document.querySelector(`[data-testid=${id}]`);"
        " return e && e.offsetParent && !e.disabled && !e.readOnly; })"
    )
    page.type("[data-testid=username]", USER)
    page.type("[data-testid=password]", settings.password_file.read_text("utf-8").strip())
    page.click("[data-testid=connect]")


DRAWN = f"""
const frame = {NEWEST_FRAME};
if (!frame || !frame.innerText.includes(arguments[0])) return null;
const nodes = frame.querySelectorAll('svg g.node').length;
const links = frame.querySelectorAll('svg g.relationship').length;
const captions = Array.from(frame.querySelectorAll('svg g.node text'))
  .map(t => t.textContent.trim());
const fills = Array.from(frame.querySelectorAll('svg g.node circle.b-outline'))
  .map(c => (c.getAttribute('fill') || '').toUpperCase());
return nodes ? {{nodes: nodes, links: links, captions: captions, fills: fills}} : null;
"""


def test_the_browser_draws_a_task_chain(chain: dict[str, Any], tmp_path: Path) -> None:
    settings = Settings.from_env()
    if guide_pid(settings) is None:
        pytest.skip("the local runtime is not running (external NEO4J_URI?)")
    with chromium(tmp_path / f"profile-{uuid.uuid4().hex[:6]}") as page:
        _log_in(page, settings)
        page.wait_for("return document.body.innerText.includes('Tractatus for analysts')")
        _run(page, f":param task_id => '{chain['task']}'")
        page.wait_for(f"return {NEWEST_FRAME}.innerText.includes('{chain['task']}')")
        _run(page, _one_line(QUERIES["task_chain"]))
        drawn = page.wait_for(DRAWN, "MATCH (task:Task", timeout=60)
        page.screenshot(ARTIFACTS / "browser-task-chain.png")
    assert drawn["nodes"] == 7  # the task and its six steps
    assert drawn["links"] == 11  # six IN_TASK, five CAUSED_BY
    # the guide's style: events captioned "action · outcome", the two failures orange
    assert "pay_order ·" in drawn["captions"] and "failure" in drawn["captions"]
    assert drawn["fills"].count("#E8590C") == 2, drawn["fills"]
    assert (ARTIFACTS / "browser-task-chain.png").stat().st_size > 10_000
