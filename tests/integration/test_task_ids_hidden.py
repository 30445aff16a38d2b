"""A task's id reaches only those who may see the task (docs/lifecycle.md "Tasks").

A new user's trial wrote a public fact from a step of a team-only task: every principal read
the task's id in the fact's ``task_id`` (facts, why, recall, history), and the history's
transition dated the task's end, although the task itself answered them 404. Now a reader who
may not see the task reads ``task_id: null`` wherever the fact shows, a filter by that task
id answers as for an id nobody used, and the transition its end recorded keeps its tier
change but not the rule, reason and run that tie it to that end.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import pytest

from tests.conftest import Api, assertion
from tests.integration.lifecycle_helpers import at, end, facts, history
from tests.integration.test_events_support import event

pytestmark = pytest.mark.integration

PREDICATE = "tech_stack"


@dataclass(frozen=True)
class Planted:
    task: str  # alice's task, finance only
    subject: str  # of the public fact written by a finance-only step of it
    token: str  # the public fact's object (a word recall finds it by)
    event: str  # a public step of the task (its own access: none)


def _new(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


@pytest.fixture(scope="module")
def planted(apis: dict[str, Api]) -> Planted:
    alice = apis["alice"]
    task, subject, token = _new("incident-acme"), _new("thd:order"), _new("Zorblang")
    started = alice.post("/v1/tasks", {"task_id": task, "goal": "acme", "access": ["finance"]})
    assert started.status_code == 201, started.text
    fact = assertion(
        subject, PREDICATE, token, source_kind="tool_returned", confidence=1.0, access=[]
    )
    fact["evidence"] = {"quote": f"the stack is {token}"}
    hidden_step = alice.post(
        "/v1/events", event(task, "inspect", at(10), access=["finance"], assertions=[fact])
    )
    assert hidden_step.status_code == 201, hidden_step.text
    public_step = alice.post(
        "/v1/events", event(task, "note", at(11), caused_by=[hidden_step.json()["event"]["id"]])
    )
    assert public_step.status_code == 201, public_step.text
    return Planted(task, subject, token, public_step.json()["event"]["id"])


def _task_ids(found: list[dict[str, Any]]) -> list[str | None]:
    return [f["task_id"] for f in found]


def test_the_task_card_is_what_each_reader_may_see(apis: dict[str, Api], planted: Planted) -> None:
    """The control: bob may not see alice's finance task, carol may."""
    owner = {"owner": "alice"}
    assert apis["bob"].get(f"/v1/tasks/{planted.task}", **owner).status_code == 404
    assert apis["carol"].get(f"/v1/tasks/{planted.task}", **owner).status_code == 200


def test_facts_why_and_entity_pages_name_the_task_only_to_its_readers(
    apis: dict[str, Api], planted: Planted
) -> None:
    for name, expected in (("alice", planted.task), ("carol", planted.task), ("bob", None)):
        api = apis[name]
        found = facts(api, planted.subject, PREDICATE)["facts"]
        assert [f["object"] for f in found] == [planted.token], name
        assert _task_ids(found) == [expected], name
        why = api.get("/v1/facts/why", subject=planted.subject, predicate=PREDICATE).json()
        assert [x["fact"]["task_id"] for x in why["explanations"]] == [expected], name
        entities = api.get("/v1/entities", q=planted.subject).json()["entities"]
        page = api.get(f"/v1/entities/{entities[0]['id']}").json()
        assert _task_ids(page["about"]) == [expected], name
        assert planted.task not in str(page) or expected is not None, name


def _recall(api: Api, planted: Planted, **filters: Any) -> dict[str, Any]:
    response = api.post("/v1/recall", {"query": planted.token, "filters": filters})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_recall_results_name_the_task_only_to_its_readers(
    apis: dict[str, Api], planted: Planted
) -> None:
    for name, expected in (("alice", planted.task), ("carol", planted.task), ("bob", None)):
        results = _recall(apis[name], planted)["results"]
        mine = [r for r in results if r["assertion"]["subject"] == planted.subject]
        assert [r["assertion"]["task_id"] for r in mine] == [expected], name
        if expected is None:
            assert planted.task not in str(results)


def test_a_public_step_names_its_task_only_to_its_readers(
    apis: dict[str, Api], planted: Planted
) -> None:
    """The task's public step (no access of its own) shows to everyone, its task id only to
    those who may see the task: the event, its chain and the chain of a recall result."""
    for name, expected in (("alice", planted.task), ("carol", planted.task), ("bob", None)):
        api = apis[name]
        step = api.get(f"/v1/events/{planted.event}")
        assert step.status_code == 200, (name, step.text)
        assert step.json()["task_id"] == expected, name
        chain = api.get(f"/v1/events/{planted.event}/chain").json()
        assert [e["task_id"] for e in chain["events"]] == [expected] * len(chain["events"])
        assert chain["events"], name
        if expected is None:
            assert planted.task not in step.text + str(chain), name


def test_a_public_turn_names_its_task_only_to_its_readers(
    apis: dict[str, Api], planted: Planted
) -> None:
    """An observation written into the task without access of its own shows to everyone,
    its task id (and its neighbours' in the conversation) only to the task's readers."""
    conversation = _new("chat")
    ids = []
    for n, text in enumerate(["The Acme incident is open.", "We paged the on-call engineer."]):
        body = {
            "text": text,
            "speaker": "agent",
            "source_kind": "agent_inferred",
            "occurred_at": at(20 + n),
            "conversation_id": conversation,
            "task_id": planted.task,
        }
        written = apis["alice"].post("/v1/observations", body)
        assert written.status_code == 201, written.text
        ids.append(written.json()["observation_id"])
    for name, expected in (("alice", planted.task), ("carol", planted.task), ("bob", None)):
        read = apis[name].get(f"/v1/observations/{ids[1]}", context=1)
        assert read.status_code == 200, (name, read.text)
        answer = read.json()
        assert answer["observation"]["task_id"] == expected, name
        assert [t["task_id"] for t in answer["before"]] == [expected], name
        if expected is None:
            assert planted.task not in read.text, name


def _stampless(answer: dict[str, Any], task: str) -> str:
    """The answer without its time stamps, the filtered task id replaced (an echo of it
    would be the caller's own words)."""
    return str({k: v for k, v in answer.items() if k not in {"as_of", "known_at"}}).replace(
        task, "<T>"
    )


def test_a_task_id_filter_answers_as_for_an_id_nobody_used(
    apis: dict[str, Api], planted: Planted
) -> None:
    """Recall filtered by a task id the caller may not see: nothing, exactly as for an
    unknown id (no existence oracle); the task's readers find the fact by it."""
    unknown = _new("incident-none")
    bob = apis["bob"]
    hidden = _recall(bob, planted, task_id=planted.task)
    nobody = _recall(bob, planted, task_id=unknown)
    assert hidden["results"] == [] and hidden["status"] == nobody["status"]
    assert _stampless(hidden, planted.task) == _stampless(nobody, unknown)
    assert _recall(bob, planted)["results"], "bob finds the public fact without the filter"
    for name in ("alice", "carol"):
        results = _recall(apis[name], planted, task_id=planted.task)["results"]
        assert [r["assertion"]["subject"] for r in results] == [planted.subject], name


def _timeline(api: Api, task: str) -> tuple[int, str]:
    response = api.client.get(f"/v1/tasks/{task}/timeline")
    return response.status_code, response.text.replace(task, "<T>")


def test_the_timeline_of_a_task_the_caller_may_not_see_is_that_of_no_task(
    apis: dict[str, Api], planted: Planted
) -> None:
    """The task's public step shows in no timeline by the hidden task's id: bob's answer is
    the one for an id nobody used; the task's readers see the step."""
    bob = apis["bob"]
    assert _timeline(bob, planted.task) == _timeline(bob, _new("incident-none"))
    for name in ("alice", "carol"):
        shown = apis[name].get(f"/v1/tasks/{planted.task}/timeline").json()
        assert planted.event in [e["id"] for e in shown["events"]], name


@pytest.fixture(scope="module")
def ended(apis: dict[str, Api], planted: Planted) -> Planted:
    end(apis["alice"], planted.task)
    return planted


def test_history_keeps_the_tier_change_but_not_the_end_that_made_it(
    apis: dict[str, Api], ended: Planted
) -> None:
    own = history(apis["alice"], ended.subject, PREDICATE)
    assert [v["task_id"] for v in own] == [ended.task]
    [change] = own[0]["transitions"]
    assert (change["from"], change["to"], change["rule"]) == ("short", "long", "verified")
    assert change["run_id"]
    assert history(apis["carol"], ended.subject, PREDICATE)[0]["transitions"] == [change]
    [version] = history(apis["bob"], ended.subject, PREDICATE)
    assert version["task_id"] is None and version["tier"] == "long"
    assert version["transitions"] == [
        {
            "at": change["at"],
            "change": "tier",
            "from": "short",
            "to": "long",
            "rule": "task_end",
            "reason": "the end of a task this reader may not see",
            "run_id": None,
        }
    ]
    assert change["run_id"] not in str(version) and ended.task not in str(version)
