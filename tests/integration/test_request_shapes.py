"""What a request is, decided exactly, over real HTTP: a write body is one item or a batch and
nothing else (a malformed request is no draft: refused, nothing written, not quarantined); a
name has a visible character and holds no NUL, on the read routes as on writes; the refusals
place each problem as every other is placed, and say their limits (docs/api.md)."""

from __future__ import annotations

import re
import uuid
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from neo4j import Driver

from tests.helpers import Api, assertion, count_nodes, turn

pytestmark = pytest.mark.integration

LABELS = ("Assertion", "Evidence", "Slot", "Observation", "Event", "Quarantine")
# texts with no visible character: whitespace, a format character (zero-width space, word
# joiner, BOM), a lone combining accent, a Hangul filler, a control
INVISIBLE = ["   ", "\u200b", "\u0301", "\u200b\u0301 \u2060\ufeff", "\u3164", "\x01"]


def _counts(driver: Driver) -> dict[str, int]:
    return {label: count_nodes(driver, label) for label in LABELS}


def _invalid(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code == 422, response.text
    error: dict[str, Any] = response.json()["error"]
    assert error["code"] == "invalid_request", error
    return error


def _item(route: str, subject: str) -> dict[str, Any]:
    if route == "assertions":
        return assertion(subject, "tech_stack", "Vue")
    return turn(f"conv-{subject}", 1, "Mia", "I moved to Lisbon.")


@pytest.mark.parametrize("route", ["assertions", "observations"])
def test_a_batch_with_another_field_is_refused_naming_it_and_writes_nothing(
    api: dict[str, Api], subject: str, driver: Driver, route: str
) -> None:
    """``{"assertions": [item], "x": 1}`` was taken for one assertion: 422 ``rejected``
    "subject: field required", and the request quarantined as a draft."""
    before = _counts(driver)
    body = {route: [_item(route, subject)], "x": 1, "subject": "y"}
    error = _invalid(api["public"].post(f"/v1/{route}", body))
    assert error["message"] == "body.subject: Extra inputs are not permitted"
    assert [p["where"] for p in error["details"]["problems"]] == ["body.subject", "body.x"]
    assert {p["type"] for p in error["details"]["problems"]} == {"extra_forbidden"}
    assert _counts(driver) == before


@pytest.mark.parametrize("route", ["assertions", "observations"])
@pytest.mark.parametrize("body", [{}, {"x": 1}, {"valid_form": "2026-01-01T00:00:00Z"}])
def test_a_body_with_no_field_of_an_item_is_no_draft(
    api: dict[str, Api], driver: Driver, route: str, body: dict[str, Any]
) -> None:
    """``{}`` was one assertion missing every field: 422 ``rejected``, quarantined."""
    before = _counts(driver)
    error = _invalid(api["public"].post(f"/v1/{route}", body))
    assert error["message"].startswith("body: neither one ")
    assert f'nor a batch ({{"{route}": [...]}})' in error["message"]
    assert error["details"]["problems"][0]["where"] == "body"
    assert _counts(driver) == before


@pytest.mark.parametrize("route", ["assertions", "observations", "events"])
@pytest.mark.parametrize("body", [{}, {"x": 1}, {"x": 1, "subjekt": "s"}])
def test_a_body_with_no_field_of_an_item_is_refused_alike_on_every_write(
    api: dict[str, Api], driver: Driver, route: str, body: dict[str, Any]
) -> None:
    """``POST /v1/events`` took ``{}`` and ``{"x": 1}`` for an event missing every field:
    422 ``rejected`` "task_id: field required", and a quarantine item written each time,
    where assertions and observations answered ``invalid_request`` and kept nothing (a
    database engineer's audit). The refusal names the unknown fields."""
    before = _counts(driver)
    error = _invalid(api["public"].post(f"/v1/{route}", body))
    item = route.removesuffix("s")
    assert f"it has none of the fields of an {item}" in error["message"]
    if body:
        assert error["message"].endswith(f"(unknown: {', '.join(sorted(body))})")
    assert error["details"]["problems"][0]["where"] == "body"
    assert "quarantine_ids" not in error["details"]
    assert _counts(driver) == before


def test_an_event_with_a_field_of_an_event_is_still_the_gates(
    api: dict[str, Api], driver: Driver
) -> None:
    """Only a body with none of an event's fields is no draft: one missing its task is the
    gate's, refused and quarantined with its reason, as before."""
    quarantined = count_nodes(driver, "Quarantine")
    response = api["public"].post("/v1/events", {"actor": "agent:x", "x": 1})
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == "rejected"
    assert count_nodes(driver, "Quarantine") == quarantined + 1


@pytest.mark.parametrize("route", ["assertions", "observations"])
def test_a_draft_with_an_unknown_field_is_still_the_gates(
    api: dict[str, Api], subject: str, driver: Driver, route: str
) -> None:
    """An item that has an item's fields is a draft: a malformed one is the gate's to refuse
    and quarantine, as before; only the request's shape is decided before the gate."""
    quarantined = count_nodes(driver, "Quarantine")
    response = api["public"].post(f"/v1/{route}", {**_item(route, subject), "x": 1})
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == "rejected"
    assert count_nodes(driver, "Quarantine") == quarantined + 1


READS = [
    ("/v1/facts", "subject"),
    ("/v1/facts", "predicate"),
    ("/v1/facts/history", "subject"),
    ("/v1/facts/history", "predicate"),
    ("/v1/facts/why", "subject"),
    ("/v1/facts/why", "predicate"),
]


@pytest.mark.parametrize(("path", "name"), READS)
@pytest.mark.parametrize("value", [*INVISIBLE, "a\x00b"])
def test_reads_refuse_the_names_writes_refuse(
    api: dict[str, Api], path: str, name: str, value: str
) -> None:
    """``GET /v1/facts?subject=%20%20`` and ``subject=a%00b`` answered 200 ``not_found``."""
    query = {"subject": "user:alice", "predicate": "status", name: value}
    error = _invalid(api["public"].get(path, **query))
    assert error["details"]["problems"][0]["where"] == f"query.{name}"


@pytest.mark.parametrize("value", ["   ", "\u200b", "a\x00b"])
def test_task_ids_and_owners_are_names_too(api: dict[str, Api], value: str) -> None:
    error = _invalid(api["public"].get("/v1/tasks/t1/timeline", owner=value))
    assert error["details"]["problems"][0]["where"] == "query.owner"
    error = _invalid(api["public"].client.get(f"/v1/tasks/{quote(value, safe='')}/timeline"))
    assert error["details"]["problems"][0]["where"] == "path.task_id"


def test_the_document_says_the_name_pattern_of_every_name_parameter(base_url: str) -> None:
    document = httpx.get(f"{base_url}/openapi.json").json()
    named = {"subject", "predicate", "task_id", "owner", "q", "trigger", "action"}
    seen = set()
    for path, operations in document["paths"].items():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["name"] not in named:
                    continue
                schema = parameter["schema"]
                schema = next((s for s in schema.get("anyOf", []) if "pattern" in s), schema)
                pattern = schema.get("pattern", "")
                assert all(re.fullmatch(pattern, v) is None for v in [*INVISIBLE, "a\x00b"])
                assert re.fullmatch(pattern, "user:Cafe\u0301"), (path, parameter["name"])
                seen.add((path, parameter["name"]))
    assert {p for p, n in seen if n == "subject"} >= {path for path, _ in READS}


@pytest.mark.parametrize("blank", INVISIBLE)
def test_a_subject_with_no_visible_character_is_blank_on_writes(
    api: dict[str, Api], driver: Driver, blank: str
) -> None:
    """A subject of a zero-width space or of a lone combining accent was written (201)."""
    before = count_nodes(driver, "Assertion")
    response = api["public"].post("/v1/assertions", assertion(blank, "tech_stack", "Vue"))
    assert response.status_code == 422, response.text
    [rejection] = response.json()["error"]["details"]["rejections"]
    assert rejection["message"] == "subject: must not be blank (it has no visible character)"
    assert count_nodes(driver, "Assertion") == before


def test_a_name_with_a_visible_character_is_kept_exactly_as_sent(
    api: dict[str, Api], subject: str
) -> None:
    """Invisible characters beside a visible one are part of the name; names are compared
    exactly as sent, not normalised: "Café" in NFC and in NFD are two subjects. A text (an
    object) of a zero-width space is content, and written."""
    nfc, nfd = f"{subject}:Caf\u00e9", f"{subject}:Cafe\u0301"
    for name, city in ((nfc, "Lisbon"), (nfd, "Porto"), (f"{subject}\u200b", "Faro")):
        written = api["public"].post("/v1/assertions", assertion(name, "lives_in", city))
        assert written.status_code == 201, written.text
        assert written.json()["assertion"]["subject"] == name
    read = api["public"].get("/v1/facts", subject=nfd, predicate="lives_in").json()
    assert [f["object"] for f in read["facts"]] == ["Porto"]
    # a text is content, kept as said: only whitespace makes it blank
    said = assertion(subject, "said", "\u200b", evidence={"quote": "\u200b"})
    assert api["public"].post("/v1/assertions", said).status_code == 201


def test_a_long_object_is_placed_at_object_like_every_field(
    api: dict[str, Api], subject: str
) -> None:
    """It was "body: object longer than 10000 characters"; a long subject says
    "subject: String should have at most 512 characters"."""
    spoken = {"quote": "x"}
    long = api["public"].post(
        "/v1/assertions", assertion(subject, "said", "x" * 10_001, evidence=spoken)
    )
    [rejection] = long.json()["error"]["details"]["rejections"]
    assert rejection["message"] == "object: String should have at most 10000 characters"
    blank = api["public"].post("/v1/assertions", assertion(subject, "said", "   ", evidence=spoken))
    [rejection] = blank.json()["error"]["details"]["rejections"]
    assert rejection["message"] == "object: must not be empty or blank"
    name = api["public"].post("/v1/assertions", assertion("s" * 513, "said", "x"))
    [rejection] = name.json()["error"]["details"]["rejections"]
    assert rejection["message"] == "subject: String should have at most 512 characters"


@pytest.mark.parametrize(("route", "limit"), [("assertions", 1_000), ("observations", 256)])
def test_a_batch_too_large_says_its_limit(
    api: dict[str, Api], subject: str, driver: Driver, route: str, limit: int
) -> None:
    """``batch_too_large`` answered ``details: {}``, ``body_too_large`` ``details.limit``."""
    before = _counts(driver)
    response = api["public"].post(f"/v1/{route}", {route: [_item(route, subject)] * (limit + 1)})
    assert response.status_code == 413, response.text
    error = response.json()["error"]
    assert error["code"] == "batch_too_large"
    assert error["details"] == {"limit": limit}
    assert error["message"] == f"a batch holds at most {limit} {route}"
    assert _counts(driver) == before


def test_one_assertion_and_its_batch_of_one_are_one_request(
    api: dict[str, Api], subject: str, driver: Driver
) -> None:
    """The key names the items: a batch of the one assertion sent first replays the first
    result in the batch's form, and the assertion alone a batch of it in the single form
    (docs/ingestion.md#idempotency)."""
    one = assertion(subject, "tech_stack", "Vue")
    key = {"Idempotency-Key": f"k-{uuid.uuid4().hex}"}
    first = api["public"].post("/v1/assertions", one, headers=key)
    assert first.status_code == 201, first.text
    before = _counts(driver)
    again = api["public"].post("/v1/assertions", {"assertions": [one]}, headers=key)
    assert again.status_code == 201, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == {"results": [first.json()]}
    assert _counts(driver) == before
    other = assertion(subject, "uses", "Vim")
    key = {"Idempotency-Key": f"k-{uuid.uuid4().hex}"}
    batch = api["public"].post("/v1/assertions", {"assertions": [other]}, headers=key)
    assert batch.status_code == 201, batch.text
    before = _counts(driver)
    alone = api["public"].post("/v1/assertions", other, headers=key)
    assert alone.headers["Idempotent-Replayed"] == "true"
    assert alone.json() == batch.json()["results"][0]
    assert _counts(driver) == before


@pytest.mark.parametrize(
    ("field", "evidence"),
    [
        ("quote", {"quote": "tea\x00time"}),
        ("source_text", {"quote": "tea", "source_text": "tea\x00time"}),
    ],
)
def test_evidence_holds_no_nul_like_every_text(
    api: dict[str, Api], subject: str, driver: Driver, field: str, evidence: dict[str, str]
) -> None:
    """A NUL in an evidence quote or source text was stored (201) while every other text
    refused one (a database engineer's audit): refused by the gate the same way now."""
    before = count_nodes(driver, "Evidence")
    body = assertion(subject, "likes", "tea", evidence=evidence)
    response = api["public"].post("/v1/assertions", body)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "rejected"
    [rejection] = error["details"]["rejections"]
    assert rejection["message"] == f"evidence.{field}: must not contain NUL characters"
    assert count_nodes(driver, "Evidence") == before


def _body_routes(base_url: str) -> list[tuple[str, bool]]:
    """Every operation that takes a body, with whether the body is required."""
    document = httpx.get(f"{base_url}/openapi.json").json()
    return [
        (path, bool(operation["requestBody"].get("required")))
        for path, operations in document["paths"].items()
        for operation in operations.values()
        if "requestBody" in operation
    ]


@pytest.mark.parametrize("sent", [b" ", b"   ", b"\r\n\t ", b"\xef\xbb\xbf", b"\xef\xbb\xbf \n"])
def test_a_body_of_whitespace_is_no_body_as_an_empty_one_is(
    api: dict[str, Api], base_url: str, driver: Driver, sent: bytes
) -> None:
    """An empty body answered 422 ``body: Field required`` and one of whitespace 400
    ``invalid_json``, on every body route (a database engineer's audit): neither holds a JSON
    value, so both are no body, with or without a Content-Type."""
    routes = _body_routes(base_url)
    assert len(routes) >= 8
    before = _counts(driver)
    for path, required in routes:
        if not required:
            continue
        for headers in ({"Content-Type": "application/json"}, {}):
            answers = [
                api["admin"].client.post(path, content=body, headers=headers)
                for body in (b"", sent)
            ]
            for response in answers:
                assert response.status_code == 422, (path, response.text)
                error = response.json()["error"]
                assert error["code"] == "invalid_request", (path, error)
                assert error["message"] == "body: Field required", (path, error)
                assert error["request_id"] == response.headers["x-request-id"]
    assert _counts(driver) == before
