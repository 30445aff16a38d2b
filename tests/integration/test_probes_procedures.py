"""Adversarial probes against procedures: a procedure mined from a group's tasks shows to no
one outside the group, by trigger, by action, by id or in the whole list."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.helpers import KEYS, Api
from tests.integration.probes import GROUP, PAIRS, Secret, check, pair_ids
from tests.integration.test_events_support import at, event

pytestmark = pytest.mark.integration

NEVER_WRITTEN = "01ZZZZZZZZZZZZZZZZZZZZZZZZ"


def _task(api: Api, actions: list[str], access: list[str], hour: int) -> None:
    task, cause = f"task:{uuid.uuid4().hex[:10]}", None
    for i, action in enumerate(actions):
        body = event(task, action, at(f"{hour:02d}:{i:02d}"), caused_by=cause, access=access)
        response = api.post("/v1/events", body)
        assert response.status_code == 201, response.text
        cause = [response.json()["event"]["id"]]
    ended = api.client.post(f"/v1/tasks/{task}/end")  # a running task waits an hour
    assert ended.status_code == 200, ended.text


def _mined(api: dict[str, Api], owner: str, prober: str, base_url: str) -> tuple[Secret, str]:
    """Three tasks of the owner's group through hidden steps, a sleep, the procedure's id."""
    token = f"SECRET{uuid.uuid4().hex[:10]}"
    actions = [f"open_{token}", f"settle_{token}"]
    for hour in (9, 10, 11):
        _task(api[owner], actions, [GROUP[owner]], hour)
    admin = Api(base_url, KEYS["admin"])
    assert admin.post("/v1/sleep", {"dry_run": False}).status_code == 200
    carol_like = api[owner].get("/v1/procedures", trigger=actions[0]).json()
    [procedure] = carol_like["procedures"]  # the owner sees it
    secret = Secret(owner, prober, actions[0], f"open_never_{uuid.uuid4().hex[:8]}", token)
    secret.ids.append(procedure["id"])
    return secret, procedure["id"]


@pytest.fixture(params=PAIRS, ids=pair_ids())
def mined(request: pytest.FixtureRequest, api: dict[str, Api], base_url: str) -> tuple[Secret, str]:
    owner, prober = request.param
    return _mined(api, owner, prober, base_url)


def _list(api: Api, **params: Any) -> Any:
    return api.client.get("/v1/procedures", params=params)


def test_hidden_procedure_by_trigger_action_id_and_in_the_list(
    mined: tuple[Secret, str], api: dict[str, Api]
) -> None:
    secret, procedure_id = mined
    prober = api[secret.prober]
    hidden_action = secret.subject.replace("open_", "settle_")
    check(
        "procedures:trigger",
        secret,
        _list(prober, trigger=secret.subject),
        _list(prober, trigger=secret.control),
    )
    check(
        "procedures:action",
        secret,
        _list(prober, action=hidden_action),
        _list(prober, action=secret.control),
    )
    check(
        "procedures:get",
        secret,
        prober.client.get(f"/v1/procedures/{procedure_id}"),
        prober.client.get(f"/v1/procedures/{NEVER_WRITTEN}"),
        supplied=(procedure_id,),
    )
    whole = _list(prober, limit=100, min_support=3)
    check("procedures:list", secret, whole, whole)
