"""Refused events: quarantined with a reason, nothing of them written."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from neo4j import Driver

from tests.helpers import Api
from tests.integration.test_events_support import (
    at,
    event,
    fact,
    ledger_counts,
    new_task,
    quarantined,
)

pytestmark = pytest.mark.integration

UNKNOWN_ID = "01ZZZZZZZZZZZZZZZZZZZZZZZZ"


def _root(api: Api, task: str, **extra: Any) -> str:
    response = api.post("/v1/events", event(task, "start", at("10:00"), **extra))
    assert response.status_code == 201, response.text
    return str(response.json()["event"]["id"])


def _refused(driver: Driver, api: Api, body: Any, reason: str) -> dict[str, Any]:
    """POST a body that must be refused: 422, quarantined, and nothing else written."""
    before, held = ledger_counts(driver), quarantined(driver)
    response = api.post("/v1/events", body)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "rejected"
    assert [r["reason"] for r in error["details"]["rejections"]] == [reason]
    assert ledger_counts(driver) == before
    assert quarantined(driver) == held + 1
    [qid] = error["details"]["quarantine_ids"]
    records, _, _ = driver.execute_query(
        "MATCH (q:Quarantine {id: $id}) RETURN q.reason AS reason, q.payload AS payload", id=qid
    )
    assert records[0]["reason"] == reason and '"action"' in records[0]["payload"]
    return dict(error)


def test_unknown_cause_is_refused(driver: Driver, api: dict[str, Api], subject: str) -> None:
    body = event(
        new_task(),
        "pay",
        at("11:00"),
        caused_by=[UNKNOWN_ID],
        assertions=[fact(subject, "status", "paid", "paid", "tool_returned", "tool")],
    )
    error = _refused(driver, api["bob"], body, "unknown_cause")
    assert UNKNOWN_ID in error["message"]


def test_an_invisible_cause_is_refused_exactly_like_an_unknown_one(
    driver: Driver, api: dict[str, Api]
) -> None:
    secret = _root(api["alice"], new_task(), access=["finance"])
    task = new_task()
    invisible = _refused(
        driver, api["bob"], event(task, "pay", at("11:00"), caused_by=[secret]), "unknown_cause"
    )
    unknown = _refused(
        driver,
        api["bob"],
        event(task, "pay", at("11:00"), caused_by=[UNKNOWN_ID]),
        "unknown_cause",
    )

    def shape(error: dict[str, Any], cause: str) -> Any:
        details = {k: v for k, v in error["details"].items() if k != "quarantine_ids"}
        return (
            error["code"],
            error["message"].replace(cause, "<id>"),
            str(details).replace(cause, "<id>"),
        )

    assert shape(invisible, secret) == shape(unknown, UNKNOWN_ID)
    # alice, who can see it, may cite it
    ok = api["alice"].post(
        "/v1/events", event(task, "pay", at("11:00"), caused_by=[secret], access=["finance"])
    )
    assert ok.status_code == 201, ok.text


def test_a_non_root_event_must_name_its_causes(driver: Driver, api: dict[str, Api]) -> None:
    body = event(new_task(), "pay", at("11:00"), caused_by=[])
    error = _refused(driver, api["bob"], body, "invalid")
    assert "caused_by" in error["message"] and "root" in error["message"]
    both = event(new_task(), "pay", at("11:00"), caused_by=[UNKNOWN_ID], root=True)
    _refused(driver, api["bob"], both, "invalid")


def test_a_cause_recorded_after_its_effect_is_refused(driver: Driver, api: dict[str, Api]) -> None:
    task = new_task()
    later = api["bob"].post("/v1/events", event(task, "late", at("15:00"))).json()["event"]["id"]
    error = _refused(
        driver,
        api["bob"],
        event(task, "early", at("14:00"), caused_by=[later]),
        "cause_after_effect",
    )
    assert later in error["message"]
    same_time = api["bob"].post("/v1/events", event(task, "same", at("15:00"), caused_by=[later]))
    assert same_time.status_code == 201, same_time.text


def test_a_refused_assertion_refuses_the_whole_event(
    driver: Driver, api: dict[str, Api], subject: str
) -> None:
    root = _root(api["bob"], new_task())
    body = event(
        new_task(),
        "pay",
        at("11:00"),
        caused_by=[root],
        assertions=[
            fact(subject, "status", "paid", "paid", "tool_returned", "tool"),
            fact(subject, f"unknown_{uuid.uuid4().hex[:8]}", "red", "red", "tool_returned", "tool"),
        ],
    )
    error = _refused(driver, api["bob"], body, "unknown_predicate")
    assert error["message"].startswith("refused by the gate: assertions[1]:")


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"occurred_at": "2026-03-01 10:00"}, "bad_timestamp"),
        ({"occurred_at": "2026-03-01T10:00:00"}, "bad_timestamp"),
        ({"before": ["not", "an", "object"]}, "invalid"),
        ({"outcome": "exploded"}, "invalid"),
        ({"colour": "red"}, "unknown_field"),
        ({"access": ["finance"]}, "access_not_allowed"),
        # an hour ahead of the clock (local time sent as UTC): its facts would be dated where
        # no read as of now finds them
        (
            {"occurred_at": (datetime.now(UTC) + timedelta(hours=1)).isoformat()},
            "future_timestamp",
        ),
    ],
)
def test_malformed_events_are_quarantined(
    driver: Driver, api: dict[str, Api], change: dict[str, Any], reason: str
) -> None:
    body = event(new_task(), "step", at("10:00")) | change
    error = _refused(driver, api["bob"], body, reason)
    assert error["message"].startswith("refused by the gate: ")
    assert error["details"]["rejections"][0]["message"] in error["message"]


def test_missing_fields_and_non_objects(driver: Driver, api: dict[str, Api]) -> None:
    body = event(new_task(), "step", at("10:00"))
    del body["actor"]
    _refused(driver, api["bob"], body, "missing_field")
    before = ledger_counts(driver)
    response = api["bob"].post("/v1/events", ["not", "an", "object"])
    assert response.status_code == 422
    assert ledger_counts(driver) == before


def test_a_moved_on_slot_refuses_the_whole_event(
    driver: Driver, api: dict[str, Api], subject: str
) -> None:
    root = _root(api["bob"], new_task())
    first = api["bob"].post(
        "/v1/assertions", fact(subject, "status", "open", "open", "user_stated", subject)
    )
    assert first.status_code == 201
    stale = fact(subject, "status", "closed", "closed", "tool_returned", "tool") | {
        "expected_current": UNKNOWN_ID
    }
    before = ledger_counts(driver)
    response = api["bob"].post(
        "/v1/events",
        event(new_task(), "close", at("11:00"), caused_by=[root], assertions=[stale]),
    )
    assert response.status_code == 409, response.text
    assert response.json()["error"]["code"] == "precondition_failed"
    assert ledger_counts(driver) == before


def _nested(depth: int) -> dict[str, Any]:
    state: dict[str, Any] = {"leaf": 1}
    for _ in range(depth - 1):
        state = {"a": state}
    return state


def test_a_state_nested_too_deep_is_refused_not_answered_500(
    driver: Driver, api: dict[str, Api]
) -> None:
    """A new user's trial: ``after`` nested 256 to 999 levels deep was parsed, written in the
    transaction and then answered 500 (the answer's serialiser stops at 255 levels)."""
    for depth in (65, 300):
        body = event(new_task(), "step", at("10:00"), after=_nested(depth))
        error = _refused(driver, api["bob"], body, "invalid")
        assert "nests deeper than 64 levels" in error["message"]
    written = api["bob"].post(
        "/v1/events", event(new_task(), "step", at("10:00"), after=_nested(64))
    )
    assert written.status_code == 201, written.text


def test_a_number_too_large_for_a_double_in_a_state_is_refused(
    driver: Driver, api: dict[str, Api]
) -> None:
    """``1e400`` is JSON that Python reads as infinity: it was stored as null. It is refused
    with where it is, before the gate (tests/integration/test_number_range.py)."""
    before, held = ledger_counts(driver), quarantined(driver)
    body = event(new_task(), "step", at("10:00"), after={"n": 0})
    raw = httpx.Request("POST", "/", json=body).content.replace(b'{"n":0}', b'{"n":1e400}')
    assert b"1e400" in raw
    response = api["bob"].client.post(
        "/v1/events", content=raw, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_request"
    assert error["message"].startswith("body.after.n: the number 1e400 is too large for a double")
    assert ledger_counts(driver) == before and quarantined(driver) == held
