"""What the sync and async clients share: headers, request ids, errors and the retry policy.

Retries (tenacity) are for idempotent calls only: reads, recall, writes that carry an
idempotency key (observations, assertions, events: one is generated per call unless given, and
every retry of the call sends the same one) and predicate registration. They happen on
connection errors and timeouts and on 429, 502, 503 and 504, with exponential backoff and
jitter, or after exactly the server's ``Retry-After`` when it sends one (up to
``RetryPolicy.max_retry_after``; a longer one is not waited for: the error is raised at once,
with ``retry_after``). Anything else is sent once.
"""

from __future__ import annotations

import logging
import os
import uuid
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx
from tenacity import (
    RetryCallState,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential,
    wait_random,
)

from tractatus_client import errors
from tractatus_client._calls import REPLAYED_HEADER, Call, json_body

T = TypeVar("T")

log = logging.getLogger("tractatus_client")

VERSION = "0.1.0"
REQUEST_ID_HEADER = "X-Request-ID"
RETRY_STATUSES = frozenset({429, 502, 503, 504})
DEFAULT_TIMEOUT = 60.0  # seconds; a server loads its embedding model on the first write
URL_VARIABLE = "TRACTATUS_URL"
KEY_VARIABLE = "TRACTATUS_API_KEY"
DEFAULT_URL = "http://127.0.0.1:8000"


def new_request_id() -> str:
    return uuid.uuid4().hex


def headers(api_key: str) -> dict[str, str]:
    if not api_key:
        raise ValueError("an API key is required (a principal's bearer key)")
    return {"Authorization": f"Bearer {api_key}", "User-Agent": f"tractatus-client/{VERSION}"}


def from_env(url: str | None, api_key: str | None) -> tuple[str, str]:
    """``url`` and ``api_key``, else ``$TRACTATUS_URL`` and ``$TRACTATUS_API_KEY``."""
    key = api_key or os.environ.get(KEY_VARIABLE)
    if not key:
        raise ValueError(f"no API key: pass api_key or set {KEY_VARIABLE}")
    return url or os.environ.get(URL_VARIABLE) or DEFAULT_URL, key


def request_kwargs(call: Call[Any], request_id: str) -> dict[str, Any]:
    kwargs: dict[str, Any] = {
        "params": call.params or None,
        "headers": {**call.headers, REQUEST_ID_HEADER: request_id},
    }
    if call.body is not None:
        kwargs["json"] = json_body(call.body)
    return kwargs


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("Retry-After")
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None  # an HTTP date: fall back to the backoff


def error_from(response: httpx.Response, request_id: str) -> errors.TractatusError:
    """The exception for an error response, from its ``{"error": {...}}`` body if it has one."""
    try:
        payload = response.json()
    except ValueError:
        payload = None
    body = payload.get("error") if isinstance(payload, dict) else None
    if isinstance(body, dict):
        code = str(body.get("code") or "error")
        message = str(body.get("message") or response.reason_phrase)
        details = body.get("details") if isinstance(body.get("details"), dict) else {}
        request_id = str(body.get("request_id") or request_id)
    else:
        code, message, details = "http_error", response.text[:300] or response.reason_phrase, {}
    cls = errors.error_class(response.status_code, code)
    return cls(
        message,
        status=response.status_code,
        code=code,
        details=details,
        request_id=response.headers.get(REQUEST_ID_HEADER) or request_id,
        retry_after=_retry_after(response),
    )


def decode(call: Call[T], response: httpx.Response, request_id: str) -> T:
    if response.is_success:
        replayed = response.headers.get(REPLAYED_HEADER, "").lower() == "true"
        return call.parse(response.json(), replayed=replayed)
    raise error_from(response, request_id)


def connection_failed(error: httpx.TransportError, request_id: str) -> errors.ConnectionFailed:
    kind = type(error).__name__
    return errors.ConnectionFailed(
        f"{kind}: {error}" if str(error) else kind, code="connection_failed", request_id=request_id
    )


def transient(error: BaseException) -> bool:
    if isinstance(error, errors.ConnectionFailed):
        return True
    return isinstance(error, errors.TractatusError) and error.status in RETRY_STATUSES


@dataclass(frozen=True)
class RetryPolicy:
    """``retries`` extra attempts for idempotent calls, ``backoff`` seconds before the first
    (doubling, at most ``max_backoff``, plus jitter). A server's ``Retry-After`` is waited for
    exactly, never cut short (a retry the server said is too early would most likely fail
    again and spend an attempt: a trial saw 30 s cut to 8), unless it is over
    ``max_retry_after``: then the call is not retried and the error (with ``retry_after``)
    reaches the caller at once, who decides whether to wait that long."""

    retries: int = 3
    backoff: float = 0.5
    max_backoff: float = 8.0
    max_retry_after: float = 60.0

    def __post_init__(self) -> None:
        if self.retries < 0 or self.backoff < 0 or self.max_retry_after < 0:
            raise ValueError("retries, backoff and max_retry_after must not be negative")

    def retryable(self, error: BaseException) -> bool:
        """A transient failure whose ``Retry-After``, if any, this policy will wait for."""
        if isinstance(error, errors.TractatusError) and error.retry_after is not None:
            return transient(error) and error.retry_after <= self.max_retry_after
        return transient(error)

    def wait(self, state: RetryCallState) -> float:
        outcome = state.outcome
        error = outcome.exception() if outcome is not None else None
        if isinstance(error, errors.TractatusError) and error.retry_after is not None:
            return error.retry_after
        backoff = wait_exponential(multiplier=self.backoff, max=self.max_backoff)
        return float((backoff + wait_random(0, self.backoff))(state))

    def tenacity(self, call: Call[Any]) -> dict[str, Any]:
        """Arguments of ``tenacity.Retrying`` / ``AsyncRetrying`` for one call."""
        attempts = 1 + (self.retries if call.idempotent else 0)

        def say_waiting(state: RetryCallState) -> None:
            log.warning(waiting_message(call, state, attempts))

        return {
            "stop": stop_after_attempt(attempts),
            "wait": self.wait,
            "retry": retry_if_exception(self.retryable),
            "before_sleep": say_waiting,
            "reraise": True,
        }


def waiting_message(call: Call[Any], state: RetryCallState, attempts: int) -> str:
    """What a retry waits for: the call, why it failed (with the request id) and how long."""
    outcome = state.outcome
    error = outcome.exception() if outcome is not None else None
    pause = state.next_action.sleep if state.next_action is not None else 0.0
    return (
        f"{call.method} {call.path}: {error}; waiting {pause:.1f} s before attempt"
        f" {state.attempt_number + 1} of {attempts}"
    )
