"""Adversarial probes against events, chains, timelines and why."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
import pytest

from tests.helpers import Api
from tests.integration.probes import GROUP, PAIRS, Secret, check, pair_ids
from tests.integration.test_events_support import at, event, fact

pytestmark = pytest.mark.integration


def _post(api: Api, body: dict[str, Any]) -> dict[str, Any]:
    response = api.post("/v1/events", body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def _story(api: dict[str, Api], owner: str, prober: str) -> tuple[Secret, dict[str, str]]:
    """A hidden root (owner's group) causing a public step, beside a control of one public
    step. Both tasks are the owner's group's: a task's id shows only to those who may see the
    task, so the prober reads both public steps with ``task_id`` null and neither timeline."""
    token = f"SECRET{uuid.uuid4().hex[:10]}"
    subject, control = f"probe:{uuid.uuid4().hex[:10]}", f"probe:{uuid.uuid4().hex[:10]}"
    hidden_task, control_task = f"task:{uuid.uuid4().hex[:10]}", f"task:{uuid.uuid4().hex[:10]}"
    access = [GROUP[owner]]
    for task in (hidden_task, control_task):
        started = api[owner].post("/v1/tasks", {"task_id": task, "access": access})
        assert started.status_code == 201, started.text
    root = _post(
        api[owner],
        event(
            hidden_task,
            f"decide_{token}",
            at("09:00"),
            access=access,
            before={"note": token},
            after={"note": token},
            assertions=[
                {
                    **fact(
                        subject, "order_status", token, f"order {token}", "tool_returned", "agent"
                    ),
                    "access": access,
                }
            ],
        ),
    )["event"]
    public = _post(
        api[owner], event(hidden_task, "pay_order", at("10:00"), caused_by=[root["id"]])
    )["event"]
    ctl_root = _post(api[owner], event(control_task, "pay_order", at("10:00")))["event"]
    secret = Secret(owner, prober, subject, control, token, ids=[root["id"]])
    return secret, {
        "hidden_root": root["id"],
        "public_step": public["id"],
        "control_root": ctl_root["id"],
        "hidden_task": hidden_task,
        "control_task": control_task,
    }


@pytest.fixture(params=PAIRS, ids=pair_ids())
def story(request: pytest.FixtureRequest, api: dict[str, Api]) -> tuple[Secret, dict[str, str]]:
    owner, prober = request.param
    return _story(api, owner, prober)


def _get(api: Api, path: str, **params: Any) -> httpx.Response:
    return api.get(path, **params)


def test_hidden_event_by_id(story: tuple[Secret, dict[str, str]], api: dict[str, Api]) -> None:
    secret, ids = story
    api_ = api[secret.prober]
    check(
        "event:get",
        secret,
        _get(api_, f"/v1/events/{ids['hidden_root']}"),
        _get(api_, f"/v1/events/{uuid.uuid4().hex.upper()[:26]}"),
        supplied=(ids["hidden_root"],),
    )


@pytest.mark.parametrize("direction", ["causes", "effects"])
def test_hidden_event_chain(
    story: tuple[Secret, dict[str, str]], api: dict[str, Api], direction: str
) -> None:
    secret, ids = story
    api_ = api[secret.prober]
    check(
        f"chain:{direction}:hidden-start",
        secret,
        _get(api_, f"/v1/events/{ids['hidden_root']}/chain", direction=direction),
        _get(api_, f"/v1/events/{uuid.uuid4().hex.upper()[:26]}/chain", direction=direction),
        supplied=(ids["hidden_root"],),
    )


def test_chain_through_a_hidden_cause_stops_silently(
    story: tuple[Secret, dict[str, str]], api: dict[str, Api]
) -> None:
    secret, ids = story
    api_ = api[secret.prober]
    check(
        "chain:cut-at-hidden-cause",
        secret,
        _get(api_, f"/v1/events/{ids['public_step']}/chain", direction="causes"),
        _get(api_, f"/v1/events/{ids['control_root']}/chain", direction="causes"),
    )


def test_timeline_hides_hidden_steps(
    story: tuple[Secret, dict[str, str]], api: dict[str, Api]
) -> None:
    secret, ids = story
    api_ = api[secret.prober]
    check(
        "timeline:mixed-task",
        secret,
        _get(api_, f"/v1/tasks/{ids['hidden_task']}/timeline"),
        _get(api_, f"/v1/tasks/{ids['control_task']}/timeline"),
    )


def test_timeline_of_an_unknown_task(
    story: tuple[Secret, dict[str, str]], api: dict[str, Api]
) -> None:
    secret, _ = story
    api_ = api[secret.prober]
    hidden_only = f"task:{uuid.uuid4().hex[:10]}"
    _post(
        api[secret.owner],
        event(hidden_only, "secret_step", at("08:00"), access=[GROUP[secret.owner]]),
    )
    secret.ids.append(hidden_only)
    check(
        "timeline:hidden-task",
        secret,
        _get(api_, f"/v1/tasks/{hidden_only}/timeline"),
        _get(api_, f"/v1/tasks/task:{uuid.uuid4().hex[:10]}/timeline"),
        supplied=(hidden_only,),
    )


def test_why_on_a_hidden_fact(story: tuple[Secret, dict[str, str]], api: dict[str, Api]) -> None:
    secret, _ = story
    api_ = api[secret.prober]
    check(
        "why:hidden-fact",
        secret,
        _get(api_, "/v1/facts/why", subject=secret.subject, predicate="order_status"),
        _get(api_, "/v1/facts/why", subject=secret.control, predicate="order_status"),
    )


def test_citing_a_hidden_cause_is_refused_like_an_unknown_one(
    story: tuple[Secret, dict[str, str]], api: dict[str, Api]
) -> None:
    secret, ids = story
    api_ = api[secret.prober]
    task = f"task:{uuid.uuid4().hex[:10]}"
    probe = api_.post(
        "/v1/events", event(task, "probe", at("11:00"), caused_by=[ids["hidden_root"]])
    )
    control = api_.post(
        "/v1/events", event(task, "probe", at("11:00"), caused_by=["01HZZZZZZZZZZZZZZZZZZZZZZZ"])
    )
    assert probe.status_code == 422
    text = probe.text.replace(ids["hidden_root"], "01HZZZZZZZZZZZZZZZZZZZZZZZ")
    check("event:cite-hidden-cause", secret, httpx.Response(probe.status_code, text=text), control)


def _recalled_chain(api: Api, subject: str) -> httpx.Response:
    """The chain of recall's best result for a query naming ``subject``, alone, the subject
    blanked: what recall shows of the steps behind a fact."""
    response = api.post("/v1/recall", {"query": subject, "k": 1})
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert results and results[0]["assertion"]["subject"] == subject, response.text
    text = json.dumps(results[0]["chain"], sort_keys=True).replace(subject, "<S>")
    return httpx.Response(200, text=text)


def test_recall_shows_a_chain_through_a_hidden_cause_cut_silently(
    story: tuple[Secret, dict[str, str]], api: dict[str, Api]
) -> None:
    """A public fact written by a public step whose cause is hidden: the chain recall shows
    with it looks exactly like that of the same fact written by a step with no cause."""
    secret, ids = story
    probed, control = (f"order:{uuid.uuid4().hex[:12]}" for _ in range(2))

    def paid(subject: str) -> list[dict[str, Any]]:
        return [fact(subject, "order_status", "paid", "paid", "tool_returned", "agent")]

    owner = api[secret.owner]
    step = event(ids["hidden_task"], "ship_order", at("11:00"), caused_by=[ids["hidden_root"]])
    _post(owner, {**step, "assertions": paid(probed)})
    _post(
        owner,
        {**event(ids["control_task"], "ship_order", at("11:00")), "assertions": paid(control)},
    )
    check(
        "recall:chain-cut-at-hidden-cause",
        secret,
        _recalled_chain(api[secret.prober], probed),
        _recalled_chain(api[secret.prober], control),
    )
