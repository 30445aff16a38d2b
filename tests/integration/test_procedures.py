"""Procedures over HTTP: a sleep mines recurring tasks' steps into versions, a later sleep
supersedes them when the tasks grew, readers see only what every step lets them see, and a
task still running waits (docs/procedures.md)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from neo4j import Driver

from graph_schema.core.timeutil import utcnow
from server.settings import Settings
from tests.conftest import Api
from tests.fakes import ShiftedClock
from tests.integration.lifecycle_helpers import at, end, lifecycle_server, light, sleep
from tests.integration.test_events_support import event, new_task

pytestmark = pytest.mark.integration


@pytest.fixture(autouse=True)
def _clock_back(clock: ShiftedClock) -> Iterator[None]:
    clock.reset()
    yield
    clock.reset()


def _actions(*names: str) -> list[str]:
    """Action names no other test writes."""
    tag = uuid.uuid4().hex[:8]
    return [f"{name}_{tag}" for name in names]


def _task(
    api: Api,
    actions: list[str],
    *,
    start: int,
    last: str = "success",
    access: list[str] | None = None,
    when: str | None = None,
    ended: bool = True,
    each: list[list[str]] | None = None,
) -> str:
    """One task of ``actions``, each caused by the one before, a minute apart (yesterday,
    ``start`` minutes in, unless ``when`` is given; ``each``: each step's access), then
    ended (a task still running counts an hour after its last step was recorded, whatever its
    steps' dates); its first step's id."""
    task, ids = new_task(), []
    for i, action in enumerate(actions):
        occurred = when or at(start + i)
        outcome = last if i == len(actions) - 1 else "success"
        body = event(task, action, occurred, caused_by=ids[-1:] or None, outcome=outcome)
        body["access"] = each[i] if each else access or []
        response = api.post("/v1/events", body)
        assert response.status_code == 201, response.text
        ids.append(response.json()["event"]["id"])
    if ended:
        end(api, task)
    return ids[0]


def _list(api: Api, **params: Any) -> dict[str, Any]:
    response = api.get("/v1/procedures", **params)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_a_sleep_mines_recurring_tasks_and_a_later_one_supersedes_the_version(
    apis: dict[str, Api],
) -> None:
    alice, admin = apis["alice"], apis["admin"]
    steps = _actions("check_stock", "reserve", "charge_card")
    roots = [
        _task(alice, steps, start=10 * i, last=("failure" if i == 1 else "success"))
        for i in range(3)
    ]
    _task(alice, steps[:2], start=40)  # another variant, seen once: no procedure
    assert _list(alice, trigger=steps[0])["status"] == "not_found"

    first = sleep(admin)
    answer = _list(alice, trigger=steps[0])
    assert answer["status"] == "answered"
    [mined] = answer["procedures"]
    assert mined["steps"] == steps and mined["trigger"] == steps[0]
    assert (mined["support"], mined["successes"]) == (3, 2)
    assert mined["success_rate"] == pytest.approx(2 / 3)
    assert mined["evidence"] == roots and mined["supersedes"] is None
    assert mined["source_kind"] == "agent_inferred" and mined["access"] == []
    assert mined["id"] in first["procedures"] and first["counts"]["procedures"] >= 1
    assert _list(alice, action=steps[1])["procedures"] == [mined]
    assert _list(alice, trigger=steps[0], min_support=4)["status"] == "not_found"
    assert _list(alice, trigger=steps[0], min_success_rate=0.7)["status"] == "not_found"

    again = sleep(admin)  # nothing new: nothing written for it
    assert mined["id"] not in again["procedures"]
    assert _list(alice, trigger=steps[0])["procedures"] == [mined]

    _task(alice, steps, start=60)
    later = sleep(admin)
    [grown] = _list(alice, trigger=steps[0])["procedures"]
    assert grown["id"] in later["procedures"] and grown["supersedes"] == mined["id"]
    assert (grown["support"], grown["successes"], grown["key"]) == (4, 3, mined["key"])
    old = alice.get(f"/v1/procedures/{mined['id']}").json()["procedure"]
    assert old["superseded_at"] is not None  # kept, with its stamp
    just_before = alice.get(
        "/v1/procedures", trigger=steps[0], known_at=mined["recorded_at"]
    ).json()
    assert [p["id"] for p in just_before["procedures"]] == [mined["id"]]
    assert just_before["procedures"][0]["superseded_at"] is None  # as known then


def test_what_a_reader_may_not_see_is_indistinguishable_from_nothing(
    apis: dict[str, Api],
) -> None:
    alice, bob, carol, admin = apis["alice"], apis["bob"], apis["carol"], apis["admin"]
    steps = _actions("close_books", "reconcile")
    for i in range(3):
        _task(alice, steps, start=100 + 5 * i, access=["finance"])
    report = sleep(admin)
    [mined] = _list(carol, trigger=steps[0])["procedures"]
    assert mined["access"] == ["finance"] and mined["support"] == 3
    assert _list(alice, trigger=steps[0])["procedures"] == [mined]
    assert mined["id"] not in report["procedures"]  # the admin holds no finance group
    hidden = bob.get("/v1/procedures", trigger=steps[0]).json()
    nothing = bob.get("/v1/procedures", trigger=_actions("never")[0]).json()
    assert hidden["status"] == nothing["status"] == "not_found"
    assert hidden["procedures"] == nothing["procedures"] == []
    unseen = bob.get(f"/v1/procedures/{mined['id']}")
    unknown = bob.get("/v1/procedures/01ZZZZZZZZZZZZZZZZZZZZZZZZ")
    assert unseen.status_code == unknown.status_code == 404
    assert unseen.json()["error"]["code"] == unknown.json()["error"]["code"] == "not_found"
    assert unseen.json()["error"]["message"] == unknown.json()["error"]["message"]


GROUPS = {"alice": {"finance"}, "bob": {"sales"}, "carol": {"finance", "sales"}, "dave": {"hr"}}


STORED = "MATCH (p:Procedure {id: $id}) RETURN [p.access, p.access_all] AS stored"


def test_a_procedures_access_means_what_it_means_on_an_assertion(
    apis: dict[str, Api], driver: Driver
) -> None:
    """A new user's trial: tasks written with access ["ops", "support"] gave a procedure of
    access ["ops|support"] ("every group needed", each entry "g1|g2"), where an assertion's,
    an event's and a task's access is "any of these groups": a client's usual check read it
    wrong. Now ``access`` is any of its groups, ``access_all`` the further requirements (each
    needed), as on assertions, and the usual check agrees with what each reader is shown."""
    carol, admin = apis["carol"], apis["admin"]
    either = _actions("triage", "fix")
    both = _actions("triage", "fix")
    for i in range(3):
        _task(carol, either, start=500 + 5 * i, access=["sales", "finance"])
        _task(carol, both, start=520 + 5 * i, each=[["finance"], ["sales"]])
    report = sleep(admin, dry_run=True)  # the admin reads neither: counted, not listed
    assert not {v["trigger"] for v in report["procedure_versions"]} & {either[0], both[0]}
    sleep(admin)
    [any_of] = _list(carol, trigger=either[0])["procedures"]
    assert (any_of["access"], any_of["access_all"]) == (["finance", "sales"], [])
    [each_of] = _list(carol, trigger=both[0])["procedures"]
    assert (each_of["access"], each_of["access_all"]) == (["finance"], ["sales"])

    def usual_check(groups: set[str], p: dict[str, Any]) -> bool:
        """Any group of ``access`` (or public), and one group of each of ``access_all``."""
        return (not p["access"] or bool(groups & set(p["access"]))) and all(
            groups & set(requirement.split("|")) for requirement in p["access_all"]
        )

    for who, groups in GROUPS.items():
        for procedure in (any_of, each_of):
            shown = _list(apis[who], trigger=procedure["trigger"])["procedures"]
            assert (shown == [procedure]) == usual_check(groups, procedure), who
    assert [usual_check(GROUPS[w], any_of) for w in GROUPS] == [True, True, True, False]
    assert [usual_check(GROUPS[w], each_of) for w in GROUPS] == [False, False, True, False]
    one = carol.get(f"/v1/procedures/{each_of['id']}").json()["procedure"]
    assert (one["access"], one["access_all"]) == (["finance"], ["sales"])
    # stored as every version before was (its scope as access_all), answered in the new form
    stored = [
        driver.execute_query(STORED, id=p["id"]).records[0]["stored"] for p in (any_of, each_of)
    ]
    assert stored == [[[], ["finance|sales"]], [[], ["finance", "sales"]]]


def test_tasks_in_different_scopes_are_never_pooled(apis: dict[str, Api]) -> None:
    alice, bob, public, admin = apis["alice"], apis["bob"], apis["public"], apis["admin"]
    steps = _actions("triage", "fix")
    for i in range(2):
        _task(alice, steps, start=200 + 5 * i, access=["finance"])
        _task(bob, steps, start=220 + 5 * i, access=["sales"])
        _task(public, steps, start=240 + 5 * i)
    sleep(admin)
    # two tasks in each scope: under the floor of three everywhere, though six in all
    assert _list(apis["carol"], trigger=steps[0])["status"] == "not_found"


def test_a_task_still_running_waits_until_it_ends_or_falls_quiet(
    apis: dict[str, Api], clock: ShiftedClock
) -> None:
    alice, admin = apis["alice"], apis["admin"]
    steps = _actions("open_ticket", "answer")
    now = utcnow().replace(microsecond=0).isoformat()
    for _ in range(3):
        _task(alice, steps, start=0, when=now, ended=False)
    sleep(admin)
    assert _list(alice, trigger=steps[0])["status"] == "not_found"
    clock.shift(hours=2)  # an hour without a step: whole
    sleep(admin)
    [mined] = _list(alice, trigger=steps[0])["procedures"]
    assert mined["support"] == 3


def test_a_running_task_of_back_dated_steps_waits_an_hour_after_its_last_record(
    apis: dict[str, Api], clock: ShiftedClock
) -> None:
    """A new user's trial: steps dated three hours back, recorded seconds before a sleep,
    were mined as a whole task while the task was still running (its next step, a minute
    later, made it another sequence). The hour without a step is read on both clocks."""
    alice, admin = apis["alice"], apis["admin"]
    steps = _actions("import_log", "parse", "load")
    tasks = [new_task() for _ in range(3)]
    three_hours_ago = utcnow() - timedelta(hours=3)
    firsts: list[str] = []
    for task in tasks:
        for i, action in enumerate(steps[:2]):
            when = (three_hours_ago + timedelta(minutes=i)).replace(microsecond=0).isoformat()
            body = event(task, action, when, caused_by=firsts[-1:] if i else None)
            response = alice.post("/v1/events", body)
            assert response.status_code == 201, response.text
            firsts.append(response.json()["event"]["id"])
    sleep(admin)
    assert _list(alice, trigger=steps[0])["status"] == "not_found"
    for task, cause in zip(tasks, firsts[1::2], strict=True):  # the tasks go on
        when = (three_hours_ago + timedelta(minutes=2)).replace(microsecond=0).isoformat()
        response = alice.post("/v1/events", event(task, steps[2], when, caused_by=[cause]))
        assert response.status_code == 201, response.text
    sleep(admin)
    assert _list(alice, trigger=steps[0])["status"] == "not_found"
    clock.shift(hours=2)  # an hour since the last step was recorded: whole
    sleep(admin)
    [mined] = _list(alice, trigger=steps[0])["procedures"]
    assert mined["steps"] == steps and mined["support"] == 3


def test_an_ended_task_counts_at_once(apis: dict[str, Api]) -> None:
    alice, admin = apis["alice"], apis["admin"]
    steps = _actions("draft", "review", "send")
    now = utcnow().replace(microsecond=0).isoformat()
    tasks = []
    for _ in range(3):
        task = new_task()
        ids: list[str] = []
        for action in steps:
            body = event(task, action, now, caused_by=ids[-1:] or None)
            ids.append(alice.post("/v1/events", body).json()["event"]["id"])
        tasks.append(task)
    sleep(admin)
    assert _list(alice, trigger=steps[0])["status"] == "not_found"
    for task in tasks:
        end(alice, task)
    sleep(admin)
    assert _list(alice, trigger=steps[0])["procedures"][0]["support"] == 3


def test_a_dry_run_counts_and_writes_nothing(apis: dict[str, Api]) -> None:
    alice, admin = apis["alice"], apis["admin"]
    steps = _actions("ship", "notify")
    for i in range(3):
        _task(alice, steps, start=300 + 5 * i)
    preview = sleep(admin, dry_run=True)
    assert preview["counts"]["procedures"] >= 1 and preview["procedures"] == []
    assert _list(alice, trigger=steps[0])["status"] == "not_found"


def test_mining_switched_off_writes_no_procedure(
    settings: Settings, driver: Driver, clock: ShiftedClock, apis: dict[str, Api]
) -> None:
    steps = _actions("pack", "label")
    for i in range(3):
        _task(apis["alice"], steps, start=400 + 5 * i)
    off = light(settings, embedding_model="none", procedure_min_support=0)
    with lifecycle_server(off, clock) as quiet:
        report = sleep(quiet["admin"])
    assert report["counts"]["procedures"] == 0
    assert _list(apis["alice"], trigger=steps[0])["status"] == "not_found"


@pytest.mark.parametrize(
    "params",
    [
        {"min_support": "0"},
        {"min_success_rate": "1.5"},
        {"limit": "0"},
        {"limit": "101"},
        {"known_at": "2026-01-01T00:00:00"},
        {"trigger": ""},
        {"colour": "red"},
    ],
)
def test_bad_parameters_are_refused_with_the_one_error_shape(
    apis: dict[str, Api], params: dict[str, str]
) -> None:
    response = apis["alice"].client.get("/v1/procedures", params=params)
    assert 400 <= response.status_code < 500, response.text
    assert set(response.json()) == {"error"}
    assert set(response.json()["error"]) >= {"code", "message"}


def test_a_malformed_id_is_refused(apis: dict[str, Api]) -> None:
    response = apis["alice"].get("/v1/procedures/not-an-id")
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_request"


def test_a_store_with_no_procedures_reads_in_the_mined_shape(
    apis: dict[str, Api], driver: Driver
) -> None:
    answer = _list(apis["public"], trigger=_actions("unseen")[0])
    assert answer == {"status": "not_found", "procedures": [], "known_at": answer["known_at"]}
