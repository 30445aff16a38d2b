"""The HTTP contract as a new user's contract trial found it: over real HTTP, every refusal in
the one error shape with a status the operation declares, and nothing written.

* a path with a trailing slash is 404, never a 307 to a host the caller named;
* a JSON body sent as another media type is 415 naming the type sent;
* an integer longer than the server reads is 422 naming the limit, not "not valid JSON";
* a body that is no object, or a batch that is no list, is worded and placed alike on every
  route;
* a time an answer gives can be sent back.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.helpers import Api, assertion

pytestmark = pytest.mark.integration

DIGITS = sys.get_int_max_str_digits()


def _error(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "details", "request_id"}
    assert body["error"]["code"] == code
    assert body["error"]["request_id"] == response.headers["X-Request-ID"]
    error: dict[str, Any] = body["error"]
    return error


def _declared(base_url: str, method: str, path: str) -> set[str]:
    document = httpx.get(f"{base_url}/openapi.json").json()
    return set(document["paths"][path][method]["responses"])


def _facts(api: Api, subject: str, predicate: str = "tech_stack") -> list[Any]:
    response = api.get("/v1/facts", subject=subject, predicate=predicate)
    assert response.status_code == 200, response.text
    facts: list[Any] = response.json()["facts"]
    return facts


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/v1/facts/?subject=x&predicate=tech_stack"),
        ("GET", "/v1/ontology/"),
        ("POST", "/v1/assertions/"),
    ],
)
def test_a_trailing_slash_is_not_found_never_a_redirect(
    api: dict[str, Api], method: str, path: str
) -> None:
    """It was a 307 (undeclared, no error body) whose Location was built from the caller's
    ``Host`` and ``X-Forwarded-Proto``."""
    spoofed = {"Host": "memory.example.com", "X-Forwarded-Proto": "https"}
    response = api["public"].client.request(
        method, path, headers=spoofed, json={} if method == "POST" else None
    )
    _error(response, 404, "not_found")
    assert "location" not in response.headers


@pytest.mark.parametrize(
    "content_type", ["application/x-www-form-urlencoded", "text/plain", "application/jsonx", None]
)
def test_a_json_object_sent_as_another_media_type_is_415_naming_it(
    api: dict[str, Api], base_url: str, subject: str, content_type: str | None
) -> None:
    """It was 422 "the body must be a JSON object", for a body that is one (curl's ``-d``
    sends a form type unless told)."""
    body = json.dumps(assertion(subject, "tech_stack", "Vue")).encode()
    headers = {"Content-Type": content_type} if content_type else {}
    response = api["public"].client.post("/v1/assertions", content=body, headers=headers)
    error = _error(response, 415, "unsupported_media_type")
    assert "application/json" in error["message"]
    assert (content_type or "none") in error["message"]
    assert "415" in _declared(base_url, "post", "/v1/assertions")
    assert _facts(api["public"], subject) == []


@pytest.mark.parametrize("path", ["/v1/recall", "/v1/tasks", "/v1/observations", "/v1/events"])
def test_every_body_route_refuses_another_media_type_alike(
    api: dict[str, Api], base_url: str, path: str
) -> None:
    response = api["public"].client.post(
        path, content=b'{"query": "tea"}', headers={"Content-Type": "text/plain"}
    )
    _error(response, 415, "unsupported_media_type")
    assert "415" in _declared(base_url, "post", path)


def test_a_streamed_body_over_the_limit_is_413_whatever_its_type(
    api: dict[str, Api], base_url: str
) -> None:
    """The media type is judged after the body is read, within the limit: an answer sent
    while the client still writes reaches it as a connection reset."""

    def chunks() -> Iterator[bytes]:
        for _ in range(9):
            yield b" " * (1 << 20)

    response = api["public"].client.post(
        "/v1/recall", content=chunks(), headers={"Content-Type": "text/plain"}
    )
    assert "content-length" not in response.request.headers
    _error(response, 413, "body_too_large")


def test_a_json_media_type_with_a_suffix_or_parameters_is_json(
    api: dict[str, Api], subject: str
) -> None:
    for index, content_type in enumerate(
        ["application/merge-patch+json", "Application/JSON; charset=utf-8"]
    ):
        body = json.dumps(assertion(f"{subject}-{index}", "tech_stack", "Vue")).encode()
        response = api["public"].client.post(
            "/v1/assertions", content=body, headers={"Content-Type": content_type}
        )
        assert response.status_code == 201, response.text


@pytest.mark.parametrize("path", ["/v1/assertions", "/v1/recall", "/v1/observations"])
def test_an_integer_longer_than_the_server_reads_is_422_naming_the_limit(
    api: dict[str, Api], subject: str, path: str
) -> None:
    """It was 400 "the body is not valid JSON": 5,000 digits are valid JSON."""
    body = b'{"subject": "' + subject.encode() + b'", "k": 1' + b"0" * DIGITS + b"}"
    response = api["public"].client.post(
        path, content=body, headers={"Content-Type": "application/json"}
    )
    error = _error(response, 422, "invalid_request")
    assert f"{DIGITS + 1} digits" in error["message"]
    assert f"at most {DIGITS}" in error["message"]
    assert _facts(api["public"], subject) == []


def test_a_query_integer_longer_than_the_server_reads_names_the_field_and_limit(
    api: dict[str, Api],
) -> None:
    response = api["public"].get(
        "/v1/events/01K00000000000000000000000/chain", max_depth="1" + "0" * DIGITS
    )
    error = _error(response, 422, "invalid_request")
    assert error["message"] == f"query.max_depth: an integer here has at most {DIGITS} digits"


@pytest.mark.parametrize(
    "path", ["/v1/assertions", "/v1/observations", "/v1/events", "/v1/recall", "/v1/tasks"]
)
def test_a_body_that_is_no_object_is_worded_and_placed_alike(
    api: dict[str, Api], path: str
) -> None:
    """The write routes said "the body must be a JSON object" with no ``details``, the others
    the request parser's "body: Input should be a JSON object or object to extract fields
    from"."""
    error = _error(api["public"].post(path, [1, 2]), 422, "invalid_request")
    assert error["message"] == "body: Input should be a JSON object"
    assert [p["where"] for p in error["details"]["problems"]] == ["body"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"assertions": []}, "body.assertions: List should have at least 1 item"),
        ({"assertions": {}}, "body.assertions: Input should be a valid list"),
        ({"observations": []}, "body.observations: List should have at least 1 item"),
    ],
)
def test_a_batch_that_is_no_list_is_placed_on_its_field(
    api: dict[str, Api], body: dict[str, Any], message: str
) -> None:
    path = "/v1/" + next(iter(body))
    error = _error(api["public"].post(path, body), 422, "invalid_request")
    assert error["message"] == message
    assert error["details"]["problems"][0]["where"] == message.split(":")[0]


def test_a_time_an_answer_gives_can_be_sent_back(api: dict[str, Api], subject: str) -> None:
    """A new user's trial: a fact valid from "0002-01-01T00:00:00+23:59" was listed as valid
    from "0001-12-31T00:01:00Z", and reading it as of that time was refused (422)."""
    body = assertion(subject, "tech_stack", "Vue", valid_from="0002-01-01T00:00:00+23:59")
    assert api["public"].post("/v1/assertions", body).status_code == 201
    history = api["public"].get("/v1/facts/history", subject=subject, predicate="tech_stack")
    assert history.status_code == 200, history.text
    valid_from = history.json()["versions"][0]["valid_from"]
    assert valid_from == "0001-12-31T00:01:00Z"
    read = api["public"].get("/v1/facts", subject=subject, predicate="tech_stack", as_of=valid_from)
    assert read.status_code == 200, read.text
    assert [f["object"] for f in read.json()["facts"]] == ["Vue"]
    assert read.json()["as_of"] == valid_from


def test_a_time_beyond_the_bounds_in_utc_is_refused_naming_them(
    api: dict[str, Api], subject: str
) -> None:
    response = api["public"].get(
        "/v1/facts", subject=subject, predicate="tech_stack", as_of="0001-12-31T00:00:00+01:00"
    )
    error = _error(response, 422, "invalid_request")
    assert "a year from 0002 to 9998, or 0001-12-31 with no positive offset" in error["message"]


def test_an_admin_pins_only_what_it_can_see(api: dict[str, Api], subject: str) -> None:
    """security.md said an admin pins "any" assertion; an admin has no visibility bypass, so
    one in a group it is not in is 404, as for an id that does not exist (docs fixed; this
    guards the documented behaviour)."""
    body = assertion(subject, "tech_stack", "Vue", access=["finance"])
    written = api["alice"].post("/v1/assertions", body)
    assert written.status_code == 201, written.text
    hidden = written.json()["assertion"]["id"]
    _error(api["admin"].post(f"/v1/assertions/{hidden}/pin"), 404, "not_found")
    assert api["alice"].post(f"/v1/assertions/{hidden}/pin").json()["changed"] is True


def test_a_default_sent_explicitly_is_another_body_for_idempotency(
    api: dict[str, Api], subject: str
) -> None:
    """api.md now says it: the key names the body as sent, so a retry must send the same
    fields (in any order or spacing), not the defaults spelt out."""
    key = {"Idempotency-Key": f"{subject}-retry"}
    body = assertion(subject, "tech_stack", "Vue")
    first = api["public"].post("/v1/assertions", body, headers=key)
    assert first.status_code == 201, first.text
    reordered = dict(reversed(list(body.items())))
    again = api["public"].post("/v1/assertions", reordered, headers=key)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    spelt_out = {**body, "polarity": True}
    error = _error(
        api["public"].post("/v1/assertions", spelt_out, headers=key), 409, "precondition_failed"
    )
    assert "different" in error["message"]
