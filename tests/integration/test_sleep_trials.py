"""A sleep as two new users' trials found it (docs/lifecycle.md "Sleep", docs/procedures.md):
a preview at a past ``now`` mined tasks that did not exist then, a preview listed no
procedure it would write, and plans were forgotten a day after they were said, whatever date
they named.

Each test starts from an empty store (a sleep works on the whole store, and its counts are
the whole store's) with the lifecycle clock at the present.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from neo4j import Driver

from graph_schema.core.timeutil import utcnow
from tests.conftest import Api, assertion
from tests.fakes import ShiftedClock
from tests.integration.lifecycle_helpers import at, created, end, history, new, sleep
from tests.integration.test_events_support import event, new_task

pytestmark = pytest.mark.integration


@pytest.fixture
def quiet(fresh_store: None, clock: ShiftedClock) -> Iterator[None]:
    """An empty store and the clock at the present."""
    clock.reset()
    yield
    clock.reset()


def _actions(*names: str) -> list[str]:
    tag = uuid.uuid4().hex[:8]
    return [f"{name}_{tag}" for name in names]


def _task(api: Api, actions: list[str], *, start: int, access: list[str] | None = None) -> str:
    """One ended task of ``actions``, a minute apart yesterday; its first step's id."""
    task, ids = new_task(), list[str]()
    for i, action in enumerate(actions):
        body = event(task, action, at(start + i), caused_by=ids[-1:] or None)
        body["access"] = access or []
        response = api.post("/v1/events", body)
        assert response.status_code == 201, response.text
        ids.append(str(response.json()["event"]["id"]))
    end(api, task)
    return ids[0]


def _mined(report: dict[str, Any], trigger: str) -> list[dict[str, Any]]:
    return [v for v in report["procedure_versions"] if v["trigger"] == trigger]


def test_a_preview_at_a_past_now_mines_only_what_was_recorded_by_then(
    apis: dict[str, Api], quiet: None
) -> None:
    """h2's trial: a preview in 2020 counted a procedure of three tasks whose every step and
    end were in December 2026. A preview at ``now`` reads the steps recorded and the tasks
    ended by then, against the versions current then."""
    alice, admin = apis["alice"], apis["admin"]
    steps = _actions("inspect", "deploy")
    for i in range(3):
        _task(alice, steps, start=10 * i)
    between = utcnow().isoformat()
    _task(alice, steps, start=40)  # recorded after ``between``

    long_ago = sleep(admin, dry_run=True, now="2020-01-01T00:00:00Z")
    assert long_ago["counts"]["procedures"] == 0 and long_ago["procedure_versions"] == []
    [then] = _mined(sleep(admin, dry_run=True, now=between), steps[0])
    assert then["support"] == 3 and then["supersedes"] is None
    [present] = _mined(sleep(admin, dry_run=True), steps[0])
    assert present["support"] == 4

    written = sleep(admin)  # writes the version of four tasks
    [version_id] = written["procedures"]
    # at ``between`` no version was current yet: the sleep then would have written its first
    [again] = _mined(sleep(admin, dry_run=True, now=between), steps[0])
    assert again["support"] == 3 and again["supersedes"] is None
    assert sleep(admin, dry_run=True)["counts"]["procedures"] == 0  # now: nothing new
    assert version_id == _mined(written, steps[0])[0]["id"]


def test_a_preview_lists_the_procedure_versions_it_would_write(
    apis: dict[str, Api], quiet: None
) -> None:
    """h2's trial: a preview answered ``counts.procedures: 2`` and ``procedures: []``. It now
    lists each version it would write (no id: none is written), as a sleep lists those it
    wrote, only those the caller may read; ``counts`` still counts them all."""
    alice, admin = apis["alice"], apis["admin"]
    steps = _actions("check_stock", "reserve", "charge_card")
    hidden = _actions("close_books", "reconcile")
    roots = [_task(alice, steps, start=5 * i) for i in range(3)]
    for i in range(3):
        _task(alice, hidden, start=30 + 5 * i, access=["finance"])  # the admin is no reader

    preview = sleep(admin, dry_run=True)
    assert preview["counts"]["procedures"] == 2 and preview["procedures"] == []
    [would] = preview["procedure_versions"]
    assert would["id"] is None and would["supersedes"] is None
    assert (would["trigger"], would["steps"]) == (steps[0], steps)
    assert (would["support"], would["successes"], would["success_rate"]) == (3, 3, 1.0)
    assert would["access"] == [] and not preview["truncated"]

    report = sleep(admin)
    assert report["counts"]["procedures"] == 2
    [wrote] = report["procedure_versions"]
    assert report["procedures"] == [wrote["id"]]
    assert {k: v for k, v in wrote.items() if k != "id"} == {
        k: v for k, v in would.items() if k != "id"
    }
    shown = alice.get(f"/v1/procedures/{wrote['id']}").json()["procedure"]
    assert (shown["support"], shown["evidence"]) == (3, roots)

    _task(alice, steps, start=60)
    [grown] = sleep(admin, dry_run=True)["procedure_versions"]
    assert (grown["support"], grown["supersedes"], grown["id"]) == (4, wrote["id"], None)


def _month_ahead(days: int) -> tuple[str, datetime]:
    """The month ``days`` from now as a plan's bracket names it, and the moment it has
    passed everywhere (noon UTC of the first day of the next month)."""
    month = (utcnow() + timedelta(days=days)).date().replace(day=1)
    following = (month + timedelta(days=32)).replace(day=1)
    passed = datetime(following.year, following.month, 1, 12, tzinfo=UTC)
    return f"{month.year}-{month.month:02d}", passed


def test_a_plan_stays_while_its_date_is_ahead_and_goes_a_day_after_it_passed(
    apis: dict[str, Api], quiet: None, clock: ShiftedClock
) -> None:
    """h3's trial: a dry run two days after the conversation would have discarded every plan,
    those for next month and next year too (the one-day TTL counted from the writing). A plan
    whose object ends with a date in brackets now stays until that date has passed, then a
    TTL; an undated plan, or one dated in the past, keeps the TTL from its writing."""
    alice, admin = apis["alice"], apis["admin"]
    person = new("person")
    label, passed = _month_ahead(62)

    def plan(text: str) -> str:
        body = assertion(person, "plans", text, source_kind="user_stated", confidence=0.8)
        written = created(alice, body)
        assert written["assertion"]["tier"] == "short"
        return str(written["assertion"]["id"])

    ahead = plan(f"trip to Iceland ({label})")
    undated = plan("learn Gaelic")
    gone_by = plan(f"visit Edinburgh ({date(2020, 9, 1):%Y-%m})")
    clock.shift(days=2)
    assert set(sleep(admin)["discarded"]) == {undated, gone_by}

    clock.shift(seconds=(passed - clock.now()).total_seconds() + 23 * 3600)
    assert sleep(admin, dry_run=True)["discarded"] == []  # passed, but not a TTL ago
    assert sleep(admin)["discarded"] == []
    clock.shift(hours=2)
    assert sleep(admin)["discarded"] == [ahead]
    [version] = [v for v in history(alice, person, "plans") if v["id"] == ahead]
    [change] = version["transitions"]
    assert change["rule"] == "ephemeral_expired" and label in change["reason"]


def test_a_preview_at_a_past_now_consolidates_no_task_ended_since(
    apis: dict[str, Api], quiet: None, driver: Driver
) -> None:
    """The same rule for the sleep's first step: a task ended (by other means) after the
    preview's ``now`` has not ended at ``now``."""
    alice, admin = apis["alice"], apis["admin"]
    task = new("task")
    body = assertion(new("user"), "likes", "tea", task_id=task)
    fact_id = alice.post("/v1/assertions", body).json()["assertion"]["id"]
    before_the_end = utcnow().isoformat()
    driver.execute_query(
        "MATCH (t:Task {id: $task, owner: 'alice'}) SET t.status = 'ended', t.ended_at = $now",
        task=task,
        now=utcnow(),
    )
    then = sleep(admin, dry_run=True, now=before_the_end)
    assert then["counts"]["tasks"] == 0 and then["promoted"] == []
    present = sleep(admin, dry_run=True)
    assert present["counts"]["tasks"] == 1 and present["promoted"] == [fact_id]
