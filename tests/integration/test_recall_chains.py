"""Recall answers a *why* with the chain of steps behind a fact: each result an event wrote
carries that event and its causes, newest first, as the caller may see them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.helpers import Api, assertion
from tests.integration.test_events_support import at, event, fact, new_task

pytestmark = pytest.mark.integration


def _write(api: Api, body: dict[str, Any]) -> str:
    response = api.post("/v1/events", body)
    assert response.status_code == 201, response.text
    event_id: str = response.json()["event"]["id"]
    return event_id


def _payment(api: dict[str, Api], order: str, hidden_risk: bool = False) -> list[str]:
    """An order, its card tokenised, a risk check that flags it, the charge refused: the
    refusal writes ``order:N payment_status declined``. Returns the event ids, oldest first."""
    task = new_task()
    alice = api["alice"]
    created = _write(alice, event(task, "create_order", at("10:00"), after={"amount": "129.90"}))
    card = _write(alice, event(task, "tokenize_card", at("10:01"), caused_by=[created]))
    risk = _write(
        alice,
        event(
            task,
            "risk_check",
            at("10:02"),
            caused_by=[card],
            actor="service:fraud",
            after={"risk_score": "0.91", "reason": "billing country differs from card country"},
            **({"access": ["finance"]} if hidden_risk else {}),
        ),
    )
    declined = fact(
        order, "payment_status", "declined", "declined: risk_blocked", "tool_returned", "agent"
    )
    charge = _write(
        alice,
        event(
            task,
            "charge_card",
            at("10:03"),
            caused_by=[risk],
            outcome="failure",
            after={"payment_status": "declined"},
            assertions=[declined],
        ),
    )
    return [created, card, risk, charge]


def _top(api: Api, query: str) -> dict[str, Any]:
    response = api.post("/v1/recall", {"query": query, "k": 3})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    assert answer["status"] == "answered", answer
    result: dict[str, Any] = answer["results"][0]
    return result


def test_why_a_payment_failed_is_answered_with_the_chain_that_led_to_it(
    api: dict[str, Api],
) -> None:
    number = str(random.randrange(10**6, 10**7))
    ids = _payment(api, f"order:{number}")
    top = _top(api["public"], f"Why did the payment for order {number} fail?")
    assert (top["assertion"]["subject"], top["assertion"]["object"]) == (
        f"order:{number}",
        "declined",
    )
    chain = top["chain"]
    assert [e["id"] for e in chain["events"]] == ids[::-1]  # the refusal first, then its causes
    assert [e["depth"] for e in chain["events"]] == [0, 1, 2, 3]
    assert chain["events"][1]["after"]["reason"] == "billing country differs from card country"
    assert chain["truncated"] is False
    assert top["turn"] is None


def test_a_cause_the_caller_may_not_see_ends_the_chain_there(api: dict[str, Api]) -> None:
    number = str(random.randrange(10**6, 10**7))
    ids = _payment(api, f"order:{number}", hidden_risk=True)
    query = f"Why did the payment for order {number} fail?"
    seen = _top(api["alice"], query)["chain"]  # alice is in finance
    assert [e["id"] for e in seen["events"]] == ids[::-1]
    unseen = _top(api["bob"], query)["chain"]  # bob is not: the chain ends at the charge
    assert [e["id"] for e in unseen["events"]] == [ids[3]]
    assert unseen["edges"] == [] and unseen["events"][0]["caused_by"] == []
    assert "risk_score" not in str(unseen)


def test_a_long_chain_is_cut_and_says_so(api: dict[str, Api]) -> None:
    number = str(random.randrange(10**6, 10**7))
    task = new_task()
    previous = _write(api["alice"], event(task, "step_0", at("09:00")))
    for n in range(1, 12):
        body = event(task, f"step_{n}", at(f"09:{n:02d}"), caused_by=[previous])
        if n == 11:
            body["assertions"] = [
                fact(f"build:{number}", "status", "failed", "exit 1", "tool_returned", "agent")
            ]
        previous = _write(api["alice"], body)
    chain = _top(api["public"], f"What is the status of build {number}?")["chain"]
    assert len(chain["events"]) == 11 and chain["events"][-1]["action"] == "step_1"
    assert chain["truncated"] is True


def test_a_fact_no_event_wrote_has_no_chain(api: dict[str, Api]) -> None:
    number = str(random.randrange(10**6, 10**7))
    body = assertion(f"order:{number}", "payment_status", "captured")
    assert api["public"].post("/v1/assertions", body).status_code == 201
    top = _top(api["public"], f"What is the payment status of order {number}?")
    assert top["assertion"]["subject"] == f"order:{number}" and top["chain"] is None
