"""Bad input gets a clear 4xx in the one error shape, and nothing but quarantine is written."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from neo4j import Driver

from tests.helpers import KEYS, Api, assertion, count_nodes

pytestmark = pytest.mark.integration

RECORD_LABELS = ("Assertion", "Evidence", "Slot", "Observation", "Event")


def _record_counts(driver: Driver) -> dict[str, int]:
    return {label: count_nodes(driver, label) for label in RECORD_LABELS}


def _error(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "details", "request_id"}
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return body["error"]


def _bad(subject: str) -> dict[str, dict[str, Any]]:
    good = assertion(subject, "tech_stack", "Vue")
    return {
        "naive_timestamp": {**good, "valid_from": "2026-06-01T09:00:00"},
        "human_date": {**good, "valid_from": "March 3rd, 2024"},
        "date_only": {**good, "valid_from": "2024-03-03"},
        "confidence_high": {**good, "confidence": 1.5},
        "confidence_negative": {**good, "confidence": -0.1},
        "confidence_string": {**good, "confidence": "0.9"},
        "unknown_source_kind": {**good, "source_kind": "rumour"},
        "unknown_predicate": {**good, "predicate": "shoe_size"},
        "empty_subject": {**good, "subject": ""},
        "blank_subject": {**good, "subject": "   "},
        "long_quote": {**good, "evidence": {"quote": "x" * 10_001}},
        "quote_not_in_source": {
            **good,
            "evidence": {"quote": "React", "source_text": "we use Vue"},
        },
        "offsets_mismatch": {
            **good,
            "evidence": {"quote": "Vue", "source_text": "we use Vue", "start": 0, "end": 3},
        },
        "subject_wrong_type": {**good, "subject": 42},
        "object_wrong_type": {**good, "object": {"nested": True}},
        "unknown_field": {**good, "valid_form": "2026-06-01T09:00:00Z"},
        "missing_evidence": {k: v for k, v in good.items() if k != "evidence"},
        "evidence_a_bare_string": {**good, "evidence": "we use Vue"},
        "bad_group": {**good, "access": ["no spaces allowed"]},
        "group_not_mine": {**good, "access": ["finance"]},
        "valid_to_before_from": {
            **good,
            "valid_from": "2026-06-01T00:00:00Z",
            "valid_to": "2026-01-01T00:00:00Z",
        },
        "number_for_boolean": {**good, "predicate": "needs_restock", "object": "maybe"},
        # a new user's trial: Python's float() read these, and they were stored as numbers
        "nan_for_number": {**good, "predicate": "stock_level", "object": "NaN"},
        "infinity_for_number": {**good, "predicate": "stock_level", "object": "-Infinity"},
        "spaced_number": {**good, "predicate": "stock_level", "object": " 5 "},
        "underscored_number": {**good, "predicate": "stock_level", "object": "1_000"},
        "overflowing_number_text": {**good, "predicate": "stock_level", "object": "1e999"},
        # a new user's trial: not 0, but read as 0 by every reader that parses numbers
        "underflowing_number_text": {**good, "predicate": "stock_level", "object": "1e-400"},
        # a new user's trial: other scripts' digits were stored as numbers
        "fullwidth_digits": {**good, "predicate": "stock_level", "object": "\uff11\uff12\uff13"},
        "arabic_indic_digits": {**good, "predicate": "stock_level", "object": "\u0661\u0662"},
    }


CASES = list(_bad("placeholder"))


@pytest.mark.parametrize("case", CASES)
def test_each_bad_item_is_refused_and_quarantined(
    case: str, api: dict[str, Api], subject: str, driver: Driver
) -> None:
    before = _record_counts(driver)
    quarantined = count_nodes(driver, "Quarantine")
    response = api["public"].post("/v1/assertions", _bad(subject)[case])
    error = _error(response, 422)
    assert error["code"] == "rejected"
    assert error["details"]["rejections"][0]["reason"]
    assert len(error["details"]["quarantine_ids"]) == 1
    assert _record_counts(driver) == before
    assert count_nodes(driver, "Quarantine") == quarantined + 1


def test_reasons_are_specific(api: dict[str, Api], subject: str) -> None:
    bad = _bad(subject)
    reasons = {
        case: api["public"]
        .post("/v1/assertions", bad[case])
        .json()["error"]["details"]["rejections"][0]["reason"]
        for case in (
            "human_date",
            "unknown_predicate",
            "quote_not_in_source",
            "unknown_field",
            "group_not_mine",
        )
    }
    assert reasons == {
        "human_date": "bad_timestamp",
        "unknown_predicate": "unknown_predicate",
        "quote_not_in_source": "evidence_mismatch",
        "unknown_field": "unknown_field",
        "group_not_mine": "access_not_allowed",
    }


def test_messages_name_what_was_sent_never_the_validators_insides(
    api: dict[str, Api], subject: str, driver: Driver
) -> None:
    before = _record_counts(driver)
    sent = _bad(subject)["evidence_a_bare_string"]
    bare = _error(api["public"].post("/v1/assertions", sent), 422)
    assert bare["message"].startswith("refused by the gate: evidence: must be one span")
    blank = assertion(subject, "uses", "Vue", evidence=[{"quote": "Vue"}, {"quote": " "}])
    second = _error(api["public"].post("/v1/assertions", blank), 422)
    assert second["message"] == "refused by the gate: evidence[1]: evidence quote must not be blank"
    event = {
        "task_id": f"{subject}-task",
        "actor": "agent:checkout",
        "action": "charge_card",
        "outcome": "failure",
        "occurred_at": "2026-06-01T10:00:00Z",
        "root": True,
        "assertions": [assertion(subject, "uses", "Vue", evidence="charge declined")],
    }
    refused = _error(api["public"].post("/v1/events", event), 422)
    assert "assertions[0]: evidence: must be one span" in refused["message"]
    # a new user's trial: an empty list and nine spans were told "Input should be a valid
    # dictionary or instance of EvidenceWrite"
    empty = _error(api["public"].post("/v1/assertions", {**sent, "evidence": []}), 422)
    assert (
        empty["message"] == "refused by the gate: evidence: List should have at least 1 item, not 0"
    )
    nine = _error(
        api["public"].post("/v1/assertions", {**sent, "evidence": [{"quote": "Vue"}] * 9}), 422
    )
    assert (
        nine["message"] == "refused by the gate: evidence: List should have at most 8 items, not 9"
    )
    junk = _error(api["public"].post("/v1/assertions", {"assertions": [blank, "junk"]}), 422)
    messages = [bare, second, refused, empty, nine, junk]
    for message in (m["message"] for m in messages):
        assert "function-after" not in message and "EvidenceWrite" not in message
        assert "AssertionWrite" not in message and "instance of" not in message
    assert _record_counts(driver) == before


def test_an_unknown_predicate_names_the_nearest_ones(
    api: dict[str, Api], subject: str, driver: Driver
) -> None:
    """A new user's try wrote `status_of` (the ontology says `status`) and was told only that
    it is not in the ontology; the message now names the near ones (the ontology is every
    caller's to read) and where the list is."""
    before = _record_counts(driver)
    near = _error(api["public"].post("/v1/assertions", assertion(subject, "status_of", "up")), 422)
    assert near["message"] == (
        "refused by the gate: predicate 'status_of' is not in the ontology; did you mean "
        "'status'? (GET /v1/ontology lists them)"
    )
    far = _error(api["public"].post("/v1/assertions", _bad(subject)["unknown_predicate"]), 422)
    assert "did you mean" not in far["message"]
    assert far["message"].endswith("is not in the ontology (GET /v1/ontology lists them)")
    assert _record_counts(driver) == before


def test_a_batch_with_one_bad_item_is_refused_whole(
    api: dict[str, Api], subject: str, driver: Driver
) -> None:
    before = _record_counts(driver)
    items = [assertion(f"{subject}-{n}", "uses", f"tool-{n}") for n in range(5)]
    items[3]["confidence"] = 7
    error = _error(api["public"].post("/v1/assertions", {"assertions": items}), 422)
    assert [r["index"] for r in error["details"]["rejections"]] == [3]
    assert _record_counts(driver) == before


def test_invalid_json_is_400_and_writes_nothing(base_url: str, driver: Driver) -> None:

    before = _record_counts(driver)
    quarantined = count_nodes(driver, "Quarantine")
    response = httpx.post(
        f"{base_url}/v1/assertions",
        content=b'{"subject": "x", ',
        headers={"Authorization": f"Bearer {KEYS['public']}", "Content-Type": "application/json"},
    )
    assert _error(response, 400)["code"] == "invalid_json"
    assert _record_counts(driver) == before
    assert count_nodes(driver, "Quarantine") == quarantined


def test_body_over_the_limit_is_413(api: dict[str, Api], subject: str, driver: Driver) -> None:
    before = _record_counts(driver)
    huge = assertion(subject, "said", "y" * (9 * 1024 * 1024))
    assert _error(api["public"].post("/v1/assertions", huge), 413)["code"] == "body_too_large"
    assert _record_counts(driver) == before


def test_a_streamed_body_over_the_limit_is_413_too(
    base_url: str, subject: str, driver: Driver
) -> None:
    """A new user's trial sent the body chunked (no Content-Length): the limit stopped it
    while it streamed, and the answer was 400 bad_request "There was an error parsing the
    body"."""
    before = _record_counts(driver)
    body = json.dumps(assertion(subject, "said", "y" * (9 * 1024 * 1024))).encode()

    def chunks() -> Iterator[bytes]:
        for at in range(0, len(body), 1 << 20):
            yield body[at : at + (1 << 20)]

    response = httpx.post(
        f"{base_url}/v1/assertions",
        content=chunks(),
        headers={"Authorization": f"Bearer {KEYS['public']}", "Content-Type": "application/json"},
        timeout=60,
    )
    assert "content-length" not in response.request.headers
    error = _error(response, 413)
    assert error["code"] == "body_too_large" and error["details"]["limit"] > 0
    assert _record_counts(driver) == before


def test_batch_over_1000_is_refused(api: dict[str, Api], subject: str, driver: Driver) -> None:
    before = _record_counts(driver)
    items = [assertion(subject, "uses", f"t{n}") for n in range(1001)]
    error = _error(api["public"].post("/v1/assertions", {"assertions": items}), 413)
    assert error["code"] == "batch_too_large"
    assert _record_counts(driver) == before


def test_non_object_body_is_refused(api: dict[str, Api], driver: Driver) -> None:
    before = _record_counts(driver)
    _error(api["public"].post("/v1/assertions", ["not", "an", "object"]), 422)
    _error(api["public"].post("/v1/assertions", "text"), 422)
    assert _record_counts(driver) == before


def test_bad_query_parameters(api: dict[str, Api], subject: str) -> None:
    response = api["public"].get(
        "/v1/facts", subject=subject, predicate="tech_stack", as_of="March 3rd, 2024"
    )
    assert _error(response, 422)["code"] == "invalid_request"
    response = api["public"].get("/v1/facts", predicate="tech_stack")
    assert _error(response, 422)["code"] == "invalid_request"
    response = api["public"].get(
        "/v1/facts", subject=subject, predicate="tech_stack", min_confidence=3
    )
    assert _error(response, 422)["code"] == "invalid_request"


@pytest.mark.parametrize(
    "text",
    [
        "我们项目从Vue换成React了",
        "emoji 🚀🔥 and ZWJ 👩‍👩‍👧",
        "ελληνικά • עברית • 日本語",
        "tab\tand\nnewline",
    ],
)
def test_unicode_round_trips_exactly(api: dict[str, Api], subject: str, text: str) -> None:
    body = assertion(subject, "said", text, evidence={"quote": text, "source_text": f"«{text}»"})
    written = api["public"].post("/v1/assertions", body)
    assert written.status_code == 201, written.text
    assert written.json()["assertion"]["object"] == text
    facts = api["public"].get("/v1/facts", subject=subject, predicate="said").json()
    assert facts["facts"][0]["object"] == text
    evidence = facts["facts"][0]["evidence"][0]
    assert evidence["quote"] == text
    assert (evidence["start"], evidence["end"]) == (1, 1 + len(text))


def test_unknown_route_and_method_use_the_error_shape(api: dict[str, Api]) -> None:
    assert _error(api["public"].get("/v1/nothing-here"), 404)["code"] == "not_found"
    response = api["public"].client.delete("/v1/assertions")
    assert _error(response, 405)["code"] == "method_not_allowed"
    assert response.headers["allow"] == "POST"  # RFC 9110: the methods the path answers


def test_an_unknown_query_parameter_is_refused(api: dict[str, Api], subject: str) -> None:
    """A misspelt ``as_of`` was ignored: the read answered for now instead of the time asked."""
    response = api["public"].get(
        "/v1/facts", subject=subject, predicate="tech_stack", asof="2026-01-01T00:00:00Z"
    )
    error = _error(response, 422)
    assert error["code"] == "invalid_request" and error["message"].startswith("query.asof")


def test_a_parameter_of_one_value_given_twice_is_refused(api: dict[str, Api], subject: str) -> None:
    """``?as_of=A&as_of=B`` answered for B (the last value won, silently); a list parameter
    (``tier``) still takes several values."""
    query = [("subject", subject), ("predicate", "tech_stack")]
    twice = [*query, ("as_of", "2026-01-01T00:00:00Z"), ("as_of", "2026-06-01T00:00:00Z")]
    error = _error(api["public"].client.get("/v1/facts", params=twice), 422)
    assert error["code"] == "invalid_request" and error["message"].startswith("query.as_of")
    tiers = [*query, ("tier", "long"), ("tier", "short")]
    assert api["public"].client.get("/v1/facts", params=tiers).status_code == 200
    owners = [("owner", "alice"), ("owner", "bob")]
    timeline = api["public"].client.get(f"/v1/tasks/{subject}/timeline", params=owners)
    assert _error(timeline, 422)["code"] == "invalid_request"


@pytest.mark.parametrize(
    "as_of", ["0001-01-01T00:00:00+01:00", "9999-12-31T23:00:00-05:00", "0001-06-01T00:00:00Z"]
)
def test_times_at_the_ends_of_the_calendar_are_refused(
    api: dict[str, Api], subject: str, as_of: str
) -> None:
    """Moved to UTC, these fell outside Python's datetime and answered 500."""
    response = api["public"].get("/v1/facts", subject=subject, predicate="tech_stack", as_of=as_of)
    assert _error(response, 422)["code"] == "invalid_request"


def test_a_write_at_the_start_of_the_calendar_is_quarantined(
    api: dict[str, Api], subject: str, driver: Driver
) -> None:
    """``valid_from`` 0001-01-01T00:00:00Z passed the gate and overflowed in the writer (500)."""
    before = _record_counts(driver)
    body = assertion(subject, "tech_stack", "Vue", valid_from="0001-01-01T00:00:00Z")
    error = _error(api["public"].post("/v1/assertions", body), 422)
    assert error["details"]["rejections"][0]["reason"] == "bad_timestamp"
    assert _record_counts(driver) == before


@pytest.mark.parametrize(
    "body",
    [
        b'{"subject": "s\\ud800", "predicate": "tech_stack"}',  # no UTF-8 text holds it: 500
        b'{"subject": "s", "predicate": "said", "object": NaN}',  # was stored as "nan"
        b'{"subject": "s", "predicate": "said", "object": "\xff"}',  # not UTF-8
    ],
)
def test_what_is_not_json_text_is_invalid_json(base_url: str, driver: Driver, body: bytes) -> None:
    from tests.conftest import KEYS

    before = _record_counts(driver)
    quarantined = count_nodes(driver, "Quarantine")
    response = httpx.post(
        f"{base_url}/v1/assertions",
        content=body,
        headers={"Authorization": f"Bearer {KEYS['public']}", "Content-Type": "application/json"},
    )
    assert _error(response, 400)["code"] == "invalid_json"
    assert _record_counts(driver) == before
    assert count_nodes(driver, "Quarantine") == quarantined


def test_a_predicate_name_with_a_trailing_newline_is_refused(api: dict[str, Api]) -> None:
    """``re.match`` with ``$`` let "name\\n" through; the stored predicate then broke every
    read of the ontology."""
    body = {"name": "colour_probe\n", "cardinality": "one"}
    assert _error(api["admin"].post("/v1/ontology/predicates", body), 422)["code"] == (
        "invalid_request"
    )
    names = [p["name"] for p in api["public"].get("/v1/ontology").json()["predicates"]]
    assert "colour_probe\n" not in names


def test_a_json_number_too_large_for_a_double_is_refused(
    api: dict[str, Api], subject: str, driver: Driver
) -> None:
    """``1e999`` is JSON, and Python reads it as infinity: it was stored as "inf". It is
    refused with where it is, before the gate (tests/integration/test_number_range.py)."""
    before = _record_counts(driver)
    for predicate in ("stock_level", "tech_stack"):
        body = assertion(subject, predicate, 0).copy()
        raw = httpx.Request("POST", "/", json=body).content.replace(
            b'"object":0', b'"object":1e999'
        )
        assert b"1e999" in raw
        response = api["public"].client.post(
            "/v1/assertions", content=raw, headers={"Content-Type": "application/json"}
        )
        error = _error(response, 422)
        assert error["code"] == "invalid_request"
        assert error["message"].startswith("body.object: the number 1e999 is too large")
    assert _record_counts(driver) == before
    grouped = api["public"].post("/v1/assertions", assertion(subject, "stock_level", "1,250.5"))
    assert grouped.status_code == 201, grouped.text
