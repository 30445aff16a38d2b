"""The client's pure parts: the async client mirrors the sync one, errors map by code, and the
retry policy retries only transient failures of idempotent calls (no server needed)."""

from __future__ import annotations

import inspect
from typing import Any

import httpx
import pytest
from tenacity import RetryCallState, Retrying
from tractatus_client import AsyncTractatus, Tractatus, _calls, _http, errors


def _public(cls: type) -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(member)
        for name, member in vars(cls).items()
        if callable(member) and (not name.startswith("_") or name == "__init__")
    }


def test_the_async_client_has_the_methods_and_signatures_of_the_sync_one() -> None:
    sync, aio = _public(Tractatus), _public(AsyncTractatus)
    assert set(sync) == set(aio)
    for name, signature in sync.items():
        theirs = str(aio[name]).replace("AsyncClient", "Client").replace("AsyncTractatus", "")
        assert str(signature).replace("Tractatus", "") == theirs, name
        if name != "__init__":
            assert inspect.iscoroutinefunction(getattr(AsyncTractatus, name)), name


def _response(status: int, body: Any = None, **headers: str) -> httpx.Response:
    request = httpx.Request("GET", "http://memory.invalid/v1/facts")
    if body is None:
        return httpx.Response(status, text="upstream said no", headers=headers, request=request)
    return httpx.Response(status, json=body, headers=headers, request=request)


def _error(code: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": f"{code}!", "details": details or {}}}


@pytest.mark.parametrize(
    ("status", "code", "cls"),
    [
        (409, "precondition_failed", errors.PreconditionFailed),
        (409, "ontology_conflict", errors.OntologyConflict),
        (422, "rejected", errors.Rejected),
        (422, "invalid_request", errors.InvalidRequest),
        (401, "unauthenticated", errors.Unauthenticated),
        (403, "forbidden", errors.Forbidden),
        (404, "not_found", errors.NotFound),
        (413, "batch_too_large", errors.PayloadTooLarge),
        (503, "store_unavailable", errors.Unavailable),
        (429, "slow_down", errors.RateLimited),
        (500, "internal_error", errors.ServerError),
        (418, "teapot", errors.TractatusError),
    ],
)
def test_errors_map_by_code_then_status(status: int, code: str, cls: type) -> None:
    error = _http.error_from(_response(status, _error(code)), "rid-1")
    assert type(error) is cls
    assert (error.status, error.code, error.message, error.request_id) == (
        status,
        code,
        f"{code}!",
        "rid-1",
    )


def test_errors_carry_their_details_and_the_servers_request_id() -> None:
    current = {"id": "01K", "object": "React"}
    answer = _response(
        409, _error("precondition_failed", {"current": current}), **{"X-Request-ID": "s"}
    )
    conflict = _http.error_from(answer, "sent")
    assert isinstance(conflict, errors.PreconditionFailed) and conflict.current == current
    assert conflict.request_id == "s"
    rejections = [{"index": 0, "reason": "unknown_predicate", "message": "m"}]
    refused = _http.error_from(
        _response(422, _error("rejected", {"rejections": rejections, "quarantine_ids": ["q"]})),
        "r",
    )
    assert isinstance(refused, errors.Rejected)
    assert refused.reasons == ["unknown_predicate"] and refused.quarantine_ids == ["q"]
    proxy = _http.error_from(_response(502), "r")
    assert isinstance(proxy, errors.ServerError) and proxy.message == "upstream said no"


def test_only_transient_failures_are_retried() -> None:
    def failure(status: int) -> errors.TractatusError:
        return _http.error_from(_response(status, _error("x")), "r")

    assert all(_http.transient(failure(s)) for s in (429, 502, 503, 504))
    assert not any(_http.transient(failure(s)) for s in (400, 401, 404, 409, 422, 500))
    assert _http.transient(errors.ConnectionFailed("refused"))


def _attempts(call: _calls.Call[Any], error: Exception, policy: _http.RetryPolicy) -> int:
    count = 0

    def attempt() -> None:
        nonlocal count
        count += 1
        raise error

    with pytest.raises(type(error)):
        Retrying(**policy.tenacity(call), sleep=lambda _: None)(attempt)
    return count


def test_idempotent_calls_and_keyed_writes_are_retried() -> None:
    policy = _http.RetryPolicy(retries=3, backoff=0.01)
    busy = _http.error_from(_response(503, _error("store_unavailable")), "r")
    assert _attempts(_calls.facts("s", "p"), busy, policy) == 4
    assert _attempts(_calls.observe_one({"text": "t"}), busy, policy) == 4
    # assertions and events carry an Idempotency-Key (generated unless given)
    assert _attempts(_calls.assert_one({}), busy, policy) == 4
    assert _attempts(_calls.assert_many([{}]), busy, policy) == 4
    assert _attempts(_calls.record_event({}), busy, policy) == 4
    conflict = _http.error_from(_response(409, _error("precondition_failed")), "r")
    assert _attempts(_calls.facts("s", "p"), conflict, policy) == 1


def test_writes_carry_an_idempotency_key_generated_unless_given() -> None:
    header = _calls.IDEMPOTENCY_HEADER
    one, two = _calls.assert_one({}), _calls.assert_one({})
    assert one.headers[header] != two.headers[header]
    assert _calls.record_event({}, "mine").headers == {header: "mine"}
    assert _calls.assert_many([{}], "batch-1").headers == {header: "batch-1"}
    sent = _http.request_kwargs(_calls.assert_one({}, "k"), "rid")["headers"]
    assert sent == {header: "k", _http.REQUEST_ID_HEADER: "rid"}


def test_retry_after_is_waited_for_exactly_and_a_longer_one_is_not_retried() -> None:
    """A new agent developer's trial: ``Retry-After: 30`` was retried after 8 s (the backoff's
    cap), before the server said it would be worth it. Now the server's value is waited for
    as sent; over ``max_retry_after`` the error reaches the caller at once."""
    policy = _http.RetryPolicy(retries=3, backoff=0.01, max_backoff=5, max_retry_after=60)

    def wait_after(response: httpx.Response) -> float:
        state = RetryCallState(Retrying(), fn=None, args=(), kwargs={})
        state.set_exception((errors.TractatusError, _http.error_from(response, "r"), None))
        return policy.wait(state)

    assert wait_after(_response(429, _error("slow"), **{"Retry-After": "2"})) == 2.0
    assert wait_after(_response(429, _error("slow"), **{"Retry-After": "30"})) == 30.0
    assert 0.01 <= wait_after(_response(503, _error("busy"))) <= 0.02 + 0.01  # backoff, jitter
    busy = _http.error_from(_response(503, _error("busy"), **{"Retry-After": "60"}), "r")
    too_long = _http.error_from(_response(503, _error("busy"), **{"Retry-After": "61"}), "r")
    assert _attempts(_calls.facts("s", "p"), busy, policy) == 4
    assert _attempts(_calls.facts("s", "p"), too_long, policy) == 1
    assert too_long.retry_after == 61.0


def test_bodies_leave_out_what_was_not_given_and_keep_an_explicit_null() -> None:
    body = _calls.assertion_body(
        "s",
        "p",
        "o",
        source_kind="user_stated",
        asserted_by="s",
        confidence=0.9,
        evidence="q",
        expected_current=None,
        valid_from=None,
    )
    assert body["expected_current"] is None and "valid_from" not in body
    assert "expected_current" not in _calls.assertion_body(
        "s", "p", "o", source_kind="user_stated", asserted_by="s", confidence=1, evidence="q"
    )
    keyed = {"text": "b", "idempotency_key": "k", "occurred_at": "2026-01-01T00:00:00Z"}
    items = _calls.observe_many([{"text": "a"}, keyed]).body
    keys = [item["idempotency_key"] for item in items["observations"]]
    assert keys[0].startswith("tc-") and keys[1] == "k"
    with pytest.raises(ValueError, match="naive"):
        _calls.time_text(__import__("datetime").datetime(2026, 1, 1))


def test_a_quote_alone_is_a_span_in_every_assertion_body_the_client_sends() -> None:
    body = {"subject": "order:1", "predicate": "payment_status", "evidence": "declined"}
    event = _calls.event_body("t", "agent:a", "charge", "failure", assertions=[body])
    assert event["assertions"][0]["evidence"] == {"quote": "declined"}
    many = _calls.assert_many([body, {**body, "evidence": [{"quote": "x"}]}]).body
    assert many is not None
    assert [b["evidence"] for b in many["assertions"]] == [{"quote": "declined"}, [{"quote": "x"}]]
    assert body["evidence"] == "declined"  # the caller's mapping is left as it was


def test_a_batch_of_observations_gets_the_defaults_of_the_one_text_form() -> None:
    bare = {"text": "I moved to Neukölln", "speaker": "Nadia"}
    given = {**bare, "source_kind": "document", "occurred_at": "2026-07-01T09:00:00Z"}
    sent = _calls.observe_many([bare, given]).body
    assert sent is not None
    first, second = sent["observations"]
    assert first["source_kind"] == "user_stated" and first["occurred_at"].startswith("20")
    assert (second["source_kind"], second["occurred_at"]) == ("document", "2026-07-01T09:00:00Z")
    assert first["idempotency_key"] != second["idempotency_key"]
    one = _calls.observation_body("I moved", speaker="Nadia")
    assert "assertions" not in one and one["source_kind"] == "user_stated"


def test_a_date_is_refused_as_a_time_with_a_clear_error() -> None:
    """A new user's trial: ``as_of=date(2024, 3, 15)`` raised AttributeError ('tzinfo')."""
    import datetime as dt

    with pytest.raises(TypeError, match="datetime with a timezone"):
        _calls.time_text(dt.date(2024, 3, 15))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="naive"):
        _calls.time_text(dt.datetime(2024, 3, 15))
    assert _calls.time_text(dt.datetime(2024, 3, 15, tzinfo=dt.UTC)) == "2024-03-15T00:00:00+00:00"


def test_the_mcp_http_token_may_hold_no_whitespace(monkeypatch: pytest.MonkeyPatch) -> None:
    """A red-team trial: a token padded with spaces passed the checks, and no client could ever
    send it (a header's value is trimmed): every request was 401."""
    from tractatus_client import mcp_server

    token = "m" * 30
    monkeypatch.setenv(mcp_server.TOKEN_VARIABLE, f" {token} ")
    with pytest.raises(ValueError, match="whitespace"):
        mcp_server._http_token("tr_key")
    monkeypatch.setenv(mcp_server.TOKEN_VARIABLE, token)
    assert mcp_server._http_token("tr_key") == token
