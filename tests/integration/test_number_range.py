"""A JSON number no double can hold is refused, whatever its spelling and wherever it is: 422
``invalid_request`` naming the field, nothing written, nothing quarantined.

A new user's trial: 10^400 written out in 401 digits was accepted on ``stock_level`` and
``likes`` (and in an event's state) while ``1e400`` was refused, and ``0.000…0001`` (400
zeros) was stored as ``"0.0"``; a confidence of ``1e-400`` as 0 and an evidence ``start`` of
``1e-400`` as 0. A number a double holds is kept as before."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from neo4j import Driver

from tests.helpers import Api, assertion, count_nodes
from tests.integration.test_events_support import at, event, new_task

pytestmark = pytest.mark.integration

BIG = "1" + "0" * 400
TINY = "0." + "0" * 400 + "1"
SPELLINGS = {
    "1e400": "too large",
    "10^400": "too large",
    "-10^400": "too large",
    "1e-400": "too small",
    "0.0…01": "too small",
}
WRITTEN = {
    "1e400": "1e400",
    "10^400": BIG,
    "-10^400": "-" + BIG,
    "1e-400": "1e-400",
    "0.0…01": TINY,
}
RECORD = ("Assertion", "Evidence", "Slot", "Event", "Quarantine")
MARK = 123456789  # a number the body holds once, replaced by the spelling tried


def _counts(driver: Driver) -> dict[str, int]:
    return {label: count_nodes(driver, label) for label in RECORD}


def _send(api: Api, path: str, body: dict[str, Any], number: str) -> httpx.Response:
    raw = json.dumps(body)
    value = f": {MARK}"  # the number as a JSON value (a quote may hold its digits as text)
    assert raw.count(value) == 1
    return api.client.post(
        path,
        content=raw.replace(value, f": {number}"),
        headers={"Content-Type": "application/json"},
    )


def _bodies(subject: str) -> dict[str, tuple[str, dict[str, Any], str]]:
    """Every place a body takes a number: the route, the body, where the number is."""
    source = {"quote": "Vue", "source_text": "Vue is it", "start": MARK, "end": 3}
    return {
        "number_object": ("/v1/assertions", assertion(subject, "stock_level", MARK), "body.object"),
        "text_object": ("/v1/assertions", assertion(subject, "likes", MARK), "body.object"),
        "batch_object": (
            "/v1/assertions",
            {
                "assertions": [
                    assertion(subject, "tech_stack", "Vue"),
                    assertion(subject, "stock_level", MARK),
                ]
            },
            "body.assertions[1].object",
        ),
        "confidence": (
            "/v1/assertions",
            assertion(subject, "tech_stack", "Vue", confidence=MARK),
            "body.confidence",
        ),
        "evidence_start": (
            "/v1/assertions",
            assertion(subject, "tech_stack", "Vue", evidence=source),
            "body.evidence.start",
        ),
        "event_state": (
            "/v1/events",
            event(new_task(), "step", at("10:00"), after={"stock": [1, {"n": MARK}]}),
            "body.after.stock[1].n",
        ),
        "recall_k": ("/v1/recall", {"query": "what is the stock", "k": MARK}, "body.k"),
    }


PLACES = list(_bodies("placeholder"))


@pytest.mark.parametrize("spelling", list(SPELLINGS))
@pytest.mark.parametrize("place", PLACES)
def test_a_number_no_double_holds_is_refused_wherever_it_is(
    api: dict[str, Api], driver: Driver, subject: str, place: str, spelling: str
) -> None:
    path, body, where = _bodies(subject)[place]
    before = _counts(driver)
    response = _send(api["bob"], path, body, WRITTEN[spelling])
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_request"
    assert error["message"].startswith(f"{where}: the number ")
    assert f"{SPELLINGS[spelling]} for a double" in error["message"]
    assert error["details"]["problems"] == [
        {
            "where": where,
            "message": error["message"].removeprefix(f"{where}: "),
            "type": "number_out_of_range",
        }
    ]
    assert _counts(driver) == before


@pytest.mark.parametrize(
    ("text", "why"), [("1e-400", "too small"), (TINY, "too small"), ("1e999", "too large")]
)
def test_number_text_no_double_holds_is_refused_on_a_number_predicate(
    api: dict[str, Api], subject: str, text: str, why: str
) -> None:
    """As text, on a number-typed predicate, the gate judges it by the same rule (it was
    stored as the text "1e-400", which every reader parsing numbers reads as 0)."""
    response = api["bob"].post("/v1/assertions", assertion(subject, "stock_level", text))
    assert response.status_code == 422, response.text
    assert response.json()["error"]["details"]["rejections"][0]["reason"] == "bad_value_type"


@pytest.mark.parametrize(
    ("path", "parameter"),
    [("/v1/facts", "min_confidence"), ("/v1/procedures", "min_success_rate")],
)
def test_a_query_number_no_double_holds_is_refused(
    api: dict[str, Api], path: str, parameter: str
) -> None:
    """``min_confidence=1e-400`` was read as 0, and so returned the facts of confidence 0
    it was sent to leave out."""
    params = {"subject": "user:nobody", "predicate": "tech_stack"} if path == "/v1/facts" else {}
    response = api["bob"].get(path, **params, **{parameter: "1e-400"})
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["message"].startswith(f"query.{parameter}: the number 1e-400 is too small")


@pytest.mark.parametrize(
    ("number", "stored"),
    [("5e-324", "5e-324"), ("0e-400", "0.0"), (str(2**64), str(2**64)), ("1e308", "1e+308")],
)
def test_a_number_a_double_holds_is_kept(
    api: dict[str, Api], subject: str, number: str, stored: str
) -> None:
    response = _send(api["bob"], "/v1/assertions", assertion(subject, "stock_level", MARK), number)
    assert response.status_code == 201, response.text
    assert response.json()["assertion"]["object"] == stored
