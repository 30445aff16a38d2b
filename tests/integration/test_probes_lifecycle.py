"""Adversarial probes against tasks, consolidation, pins and dormancy.

For each (owner, prober) pair the owner keeps a hidden task with hidden working facts, a
public task holding one public and one hidden fact, and a public control task holding only
the public kind. The prober's view of each must equal its view of the control (or of
something that never existed) while the tasks are open, after the owner ends them, and
after 200 days and a sleep made the kept facts dormant.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import httpx
import pytest

from tests.conftest import Api, assertion
from tests.fakes import ShiftedClock
from tests.integration.lifecycle_helpers import sleep
from tests.integration.probes import (
    GROUP,
    PAIRS,
    RESULTS,
    Secret,
    check,
    pair_ids,
    plant_in_hidden_task,
)

pytestmark = pytest.mark.integration

TIERS = ("short", "long", "discarded", "dormant")
TASK_TIMES = ("started_at", "ended_at")


@dataclass
class World:
    secret: Secret
    hidden_task: str
    public_task: str
    control_task: str


def _write(api: Api, *bodies: dict[str, object]) -> list[str]:
    response = api.post("/v1/assertions", {"assertions": list(bodies)})
    assert response.status_code == 201, response.text
    return [r["assertion"]["id"] for r in response.json()["results"]]


def _plant(apis: dict[str, Api], owner: str, prober: str) -> World:
    token = f"SECRET{uuid.uuid4().hex[:10]}"
    secret = Secret(
        owner, prober, f"probe:{uuid.uuid4().hex[:10]}", f"probe:{uuid.uuid4().hex[:10]}", token
    )
    access = [GROUP[owner]]
    api = apis[owner]
    hidden_task, public_task, control_task = (f"ptask:{uuid.uuid4().hex[:10]}" for _ in range(3))
    start = api.post("/v1/tasks", {"task_id": hidden_task, "goal": token, "access": access})
    assert start.status_code == 201, start.text
    guess = {"source_kind": "agent_inferred", "confidence": 0.4}
    public = f"probe:{uuid.uuid4().hex[:10]}"
    # the public task starts public (a task takes the access of the write that starts it)
    _write(api, assertion(public, "uses", "Vim", task_id=public_task))
    _write(api, assertion(public, "uses", "Vim", task_id=control_task))
    secret.ids += _write(
        api,
        assertion(secret.subject, "lives_in", token, access=access, task_id=hidden_task),
        assertion(secret.subject, "likes", token, access=access, task_id=hidden_task, **guess),
        assertion(secret.subject, "works_at", token, access=access, task_id=public_task, **guess),
    )
    secret.ids.append(hidden_task)
    return World(secret, hidden_task, public_task, control_task)


@pytest.fixture(scope="module")
def worlds(apis: dict[str, Api]) -> dict[str, World]:
    return {f"{o}->{p}": _plant(apis, o, p) for o, p in PAIRS}


@pytest.fixture(scope="module")
def ended(apis: dict[str, Api], worlds: dict[str, World]) -> dict[str, World]:
    for world in worlds.values():
        owner = apis[world.secret.owner]
        for task in (world.hidden_task, world.public_task, world.control_task):
            assert owner.client.post(f"/v1/tasks/{task}/end").status_code == 200
    return worlds


@pytest.fixture(scope="module")
def silent(apis: dict[str, Api], ended: dict[str, World], clock: ShiftedClock) -> dict[str, World]:
    clock.shift(days=200)
    assert sleep(apis["admin"])["counts"]["dormant"] > 0
    return ended


def _unknown_task() -> str:
    return f"ptask:{uuid.uuid4().hex[:10]}"


def _task_probes(stage: str, api: Api, w: World) -> None:
    owner = {"owner": w.secret.owner}
    unknown = _unknown_task()
    for method, suffix in (("GET", ""), ("POST", "/end")):
        check(
            f"task:{method.lower()}{suffix}:hidden:{stage}",
            w.secret,
            api.client.request(method, f"/v1/tasks/{w.hidden_task}{suffix}", params=owner),
            api.client.request(method, f"/v1/tasks/{unknown}{suffix}", params=owner),
            supplied=(w.hidden_task,),
        )
    # a public task of the owner: the hidden fact in it shows in no count
    check(
        f"task:counts:{stage}",
        w.secret,
        api.get(f"/v1/tasks/{w.public_task}", **owner),
        api.get(f"/v1/tasks/{w.control_task}", **owner),
        volatile=TASK_TIMES,
    )


def _write_probe(stage: str, api: Api, w: World, task: str) -> None:
    """A write naming an owner's task id (open or ended) goes to the prober's own task: it
    looks exactly like a write naming a task id nobody used."""

    def write(task: str) -> httpx.Response:
        subject = f"probe:{uuid.uuid4().hex[:10]}"
        body = assertion(subject, "uses", "Emacs", task_id=task, asserted_by="probe:writer")
        return api.post("/v1/assertions", body)

    check(
        f"task:write-same-id:{stage}",
        w.secret,
        write(task),
        write(_unknown_task()),
        supplied=(task,),
    )


def _fact_probes(stage: str, api: Api, w: World) -> None:
    s = w.secret
    for predicate in ("lives_in", "likes", "works_at"):
        for tier in TIERS:
            check(
                f"facts:{predicate}:tier={tier}:{stage}",
                s,
                api.get("/v1/facts", subject=s.subject, predicate=predicate, tier=tier),
                api.get("/v1/facts", subject=s.control, predicate=predicate, tier=tier),
            )
        check(
            f"history:{predicate}:{stage}",
            s,
            api.get("/v1/facts/history", subject=s.subject, predicate=predicate),
            api.get("/v1/facts/history", subject=s.control, predicate=predicate),
        )
    for tiers in (None, list(TIERS)):
        filters = {"tiers": tiers} if tiers else {}
        check(
            f"recall:tiers={tiers}:{stage}",
            s,
            api.post("/v1/recall", {"query": s.token, "filters": filters}),
            api.post("/v1/recall", {"query": f"SECRET{uuid.uuid4().hex[:10]}", "filters": filters}),
        )
    check(
        f"pin:hidden:{stage}",
        s,
        api.post(f"/v1/assertions/{s.ids[0]}/pin"),
        api.post("/v1/assertions/01HZZZZZZZZZZZZZZZZZZZZZZZ/pin"),
        supplied=(s.ids[0],),
    )


def _attacks_since(start: int, label: str) -> list[str]:
    """The attacks made since ``start`` for this stage (each one checked by :func:`check`)."""
    return [a for a in RESULTS["attacks"][start:] if f":{label}[" in a]


@pytest.mark.parametrize("pair", pair_ids())
def test_working_memory_of_others(
    apis: dict[str, Api], worlds: dict[str, World], pair: str
) -> None:
    w = worlds[pair]
    api = apis[w.secret.prober]
    start, leaks = len(RESULTS["attacks"]), len(RESULTS["leaks"])
    _task_probes("open", api, w)
    _write_probe("open", api, w, w.hidden_task)
    _fact_probes("open", api, w)
    assert _attacks_since(start, "open") and RESULTS["leaks"][leaks:] == []


@pytest.mark.parametrize("pair", pair_ids())
def test_after_the_end(apis: dict[str, Api], ended: dict[str, World], pair: str) -> None:
    w = ended[pair]
    api = apis[w.secret.prober]
    start, leaks = len(RESULTS["attacks"]), len(RESULTS["leaks"])
    _task_probes("ended", api, w)
    _write_probe("ended", api, w, w.public_task)
    _fact_probes("ended", api, w)
    assert _attacks_since(start, "ended") and RESULTS["leaks"][leaks:] == []


@pytest.mark.parametrize("pair", pair_ids())
def test_after_dormancy(apis: dict[str, Api], silent: dict[str, World], pair: str) -> None:
    w = silent[pair]
    api = apis[w.secret.prober]
    start, leaks = len(RESULTS["attacks"]), len(RESULTS["leaks"])
    _task_probes("dormant", api, w)
    _fact_probes("dormant", api, w)
    assert _attacks_since(start, "dormant") and RESULTS["leaks"][leaks:] == []


def test_the_owner_saw_what_the_probers_could_not(
    apis: dict[str, Api], silent: dict[str, World]
) -> None:
    """Controls of the controls: the hidden facts exist, moved tiers, and fell silent."""
    w = silent["alice->bob"]
    alice = apis["alice"]
    dormant = alice.get("/v1/facts", subject=w.secret.subject, predicate="lives_in", tier="dormant")
    assert [f["object"] for f in dormant.json()["facts"]] == [w.secret.token]
    discarded = alice.get(
        "/v1/facts", subject=w.secret.subject, predicate="likes", tier="discarded"
    )
    assert [f["object"] for f in discarded.json()["facts"]] == [w.secret.token]
    card = alice.get(f"/v1/tasks/{w.public_task}").json()
    assert card["counts"]["discarded"] == 1 and card["working_memory"]["count"] == 0


# --- a public fact written in a hidden task: the fact shows, the task's name does not --------


def _hidden_task_probes(stage: str, api: Api, secret: Secret, task: str) -> None:
    for path in ("/v1/facts", "/v1/facts/history", "/v1/facts/why"):
        check(
            f"task-name:{path}:{stage}",
            secret,
            api.get(path, subject=secret.subject, predicate="tech_stack"),
            api.get(path, subject=secret.control, predicate="tech_stack"),
            volatile=("at",),  # the two tasks ended a moment apart
        )
    unknown = f"ptask:{uuid.uuid4().hex[:10]}"
    check(
        f"task-name:recall-filter:{stage}",
        secret,
        api.post("/v1/recall", {"query": "Vim", "filters": {"task_id": task}}),
        api.post("/v1/recall", {"query": "Vim", "filters": {"task_id": unknown}}),
        supplied=(task,),
    )
    check(
        f"task-name:timeline:{stage}",
        secret,
        api.client.get(f"/v1/tasks/{task}/timeline"),
        api.client.get(f"/v1/tasks/{unknown}/timeline"),
        supplied=(task,),
    )


@pytest.mark.parametrize("pair", pair_ids())
def test_a_public_fact_of_a_hidden_task_does_not_name_it(apis: dict[str, Api], pair: str) -> None:
    """A new user's trial: every principal read a hidden task's id in the ``task_id`` of a
    public fact written in it, and its history dated the task's end by the transition's run.
    The owner's own reads of the run ids are the hidden ids too."""
    owner, prober = pair.split("->")
    secret, task = plant_in_hidden_task(apis, owner, prober)
    api = apis[prober]
    start, leaks = len(RESULTS["attacks"]), len(RESULTS["leaks"])
    _hidden_task_probes("open", api, secret, task)
    for each in secret.ids:
        assert apis[owner].client.post(f"/v1/tasks/{each}/end").status_code == 200
    for subject in (secret.subject, secret.control):
        own = apis[owner].get("/v1/facts/history", subject=subject, predicate="tech_stack")
        runs = [t["run_id"] for v in own.json()["versions"] for t in v["transitions"]]
        assert runs and all(runs), own.text
        secret.ids.extend(runs)
    _hidden_task_probes("ended", api, secret, task)
    assert len(RESULTS["attacks"]) - start == 10 and RESULTS["leaks"][leaks:] == []


# --- restoration: a caller who sees the discarded guess, not the fact it displaced ------------


@dataclass
class Displaced:
    secret: Secret
    writes: list[httpx.Response]  # the guess about the secret subject, about the control
    reports: list[dict[str, object]]  # the ends of their tasks


def _displace(apis: dict[str, Api], owner: str, prober: str) -> Displaced:
    """The owner's public long-term fact cites an observation only its group may read, so the
    prober (same slot: same access list) cannot read it. The prober writes a guess over it, in
    its own task, and the same guess about a control subject where nothing was displaced; the
    end of the task must look the same for both."""
    token = f"SECRET{uuid.uuid4().hex[:10]}"
    secret = Secret(
        owner, prober, f"probe:{uuid.uuid4().hex[:10]}", f"probe:{uuid.uuid4().hex[:10]}", token
    )
    text = f"Their office is in {token}."
    seen = apis[owner].post(
        "/v1/observations",
        {
            "text": text,
            "speaker": "probe:speaker",
            "occurred_at": "2026-01-01T00:00:00Z",
            "source_kind": "user_stated",
            "access": [GROUP[owner]],
        },
    )
    assert seen.status_code == 201, seen.text
    evidence = {"quote": text, "observation_id": seen.json()["observation_id"]}
    long = assertion(
        secret.subject, "works_at", token, valid_from="2026-01-01T00:00:00Z", evidence=evidence
    )
    secret.ids += _write(apis[owner], long)
    writes, reports = [], []
    for subject in (secret.subject, secret.control):
        task = f"ptask:{uuid.uuid4().hex[:10]}"
        guess = {"source_kind": "agent_inferred", "confidence": 0.4, "task_id": task}
        body = assertion(subject, "works_at", "Springfield", valid_from="2026-03-01T00:00:00Z")
        writes.append(apis[prober].post("/v1/assertions", {**body, **guess}))
        assert writes[-1].status_code == 201, writes[-1].text
        ended = apis[prober].client.post(f"/v1/tasks/{task}/end")
        assert ended.status_code == 200, ended.text
        reports.append(ended.json())
    return Displaced(secret, writes, reports)


@pytest.fixture(scope="module")
def displaced(apis: dict[str, Api], ended: dict[str, World]) -> dict[str, Displaced]:
    return {f"{o}->{p}": _displace(apis, o, p) for o, p in PAIRS}


@pytest.mark.parametrize("pair", pair_ids())
def test_a_restoration_shows_nothing_to_a_reader_of_the_guess_only(
    apis: dict[str, Api], displaced: dict[str, Displaced], pair: str
) -> None:
    d = displaced[pair]
    s, api = d.secret, apis[d.secret.prober]
    # the guess's own write answer names no version its writer may not read
    check("restored:write-over-hidden", s, d.writes[0], d.writes[1])
    for report in d.reports:
        assert report["restored"] == [], report
        assert s.token not in str(report) and not any(i in str(report) for i in s.ids)
    for tier in TIERS:
        check(
            f"restored:facts:tier={tier}",
            s,
            api.get("/v1/facts", subject=s.subject, predicate="works_at", tier=tier),
            api.get("/v1/facts", subject=s.control, predicate="works_at", tier=tier),
        )
    for known_at in ({}, {"known_at": "2026-02-01T00:00:00Z"}):
        check(
            f"restored:history:{known_at}",
            s,
            api.get("/v1/facts/history", subject=s.subject, predicate="works_at", **known_at),
            api.get("/v1/facts/history", subject=s.control, predicate="works_at", **known_at),
            volatile=("at", "run_id"),  # the guesses were discarded by two ends
        )
    for tiers in (None, list(TIERS)):
        filters = {"tiers": tiers} if tiers else {}
        check(
            f"restored:recall:tiers={tiers}",
            s,
            api.post("/v1/recall", {"query": s.token, "filters": filters}),
            api.post("/v1/recall", {"query": f"SECRET{uuid.uuid4().hex[:10]}", "filters": filters}),
        )
    # control of the control: the owner's fact exists, closed by the guess; it is not restored
    # (superseding the guess would tell its readers that a fact they may not read was there:
    # docs/lifecycle.md "Restoration", Permissions)
    owner = apis[s.owner]
    versions = owner.get("/v1/facts/history", subject=s.subject, predicate="works_at").json()
    objects = sorted((v["object"], v["tier"]) for v in versions["versions"])
    assert objects == sorted([(s.token, "long"), ("Springfield", "discarded")])
