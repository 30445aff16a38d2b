"""Every error leaves as ``{"error": {"code", "message", "details", "request_id"}}``; mapped here.

:func:`declared` says which of these errors an operation can answer, for the OpenAPI
document: each route lists its error codes, so the document names every status it returns.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from neo4j.exceptions import ConnectionPoolError, ServiceUnavailable, SessionExpired, TransientError
from starlette.exceptions import HTTPException as StarletteHTTPException

from graph_schema.core import errors, problems
from graph_schema.core.secrets import refuse_secrets
from graph_schema.core.types import ErrorBody, RejectedBody
from server import request_ids
from server.params import IDEMPOTENCY_HEADER

log = logging.getLogger("tractatus.errors")

STATUS: dict[type[errors.TractatusError], int] = {
    errors.GateRejected: 422,
    errors.SecretDetected: 422,
    errors.PreconditionFailed: 409,
    errors.OntologyConflict: 409,
    errors.TaskEnded: 409,
    errors.TaskConflict: 409,
    errors.SleepRunning: 409,
    errors.NotFound: 404,
    errors.AuthenticationFailed: 401,
    errors.PermissionDenied: 403,
    errors.StoreUnavailable: 503,
    errors.StoreBusy: 503,
    errors.ModelUnavailable: 503,
}

HTTP_CODES = {
    400: "bad_request",
    401: "unauthenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    429: "rate_limited",
    415: "unsupported_media_type",
    422: "invalid_request",
}


# Every error code a route can answer: its status and what it means (for the OpenAPI document).
CODES: dict[str, tuple[int, str]] = {
    "invalid_json": (400, "the body is not JSON (NaN, Infinity and unpaired surrogates included)"),
    "unauthenticated": (401, "no valid bearer key (the answer carries `WWW-Authenticate: Bearer`)"),
    "forbidden": (403, "the caller's role or rights do not allow the operation"),
    "not_found": (404, "nothing visible to the caller has this id"),
    "precondition_failed": (
        409,
        "`expected_current` does not name the slot's current version (`details.current`), a"
        " retraction of a one-valued predicate names another value than the one that holds,"
        " or an idempotency key was used before for another body",
    ),
    "ontology_conflict": (
        409,
        "a predicate of this name exists with another definition (`details.existing`)",
    ),
    "task_ended": (409, "the write names a task of the writer that has ended; nothing written"),
    "task_conflict": (
        409,
        "the task was started before with another goal or access (an event: another goal than"
        " its task's, `details.goal`); nothing written",
    ),
    "sleep_running": (409, "another sleep holds the sleep lock; try again after it ends"),
    "body_too_large": (413, "the body exceeds the server's limit (`details.limit`, in bytes)"),
    "batch_too_large": (
        413,
        "the batch holds more items than the server's maximum (`details.limit`, in items)",
    ),
    "unsupported_media_type": (
        415,
        "a body sent without `Content-Type: application/json` (or `application/*+json`):"
        " the message names the type sent; nothing read or written",
    ),
    "invalid_request": (
        422,
        "a parameter or the body does not match this document (`details.problems`)",
    ),
    "rejected": (
        422,
        "refused by the gate and quarantined: `details.rejections` gives each refused item's"
        " index and reason, `details.quarantine_ids` where it was kept; nothing else written",
    ),
    "secret_detected": (
        422,
        "the body or the `Idempotency-Key` header holds what looks like a secret (a private key,"
        " a provider's API key, a token, a password, a card number, an IBAN: docs/security.md"
        ' "Secrets"): `details.secrets` names each field and kind, never the value; nothing'
        " written or quarantined",
    ),
    "rate_limited": (
        429,
        "the caller sent more requests than its rate limit allows (`TRACTATUS_RATE_LIMIT`);"
        " nothing was read or written; `Retry-After` says in how many seconds to try again",
    ),
    "store_unavailable": (
        503,
        "the graph store cannot be reached or cannot answer now (within the server's bounds);"
        " `Retry-After` says in how many seconds to try again",
    ),
    "store_busy": (
        503,
        "the graph store is up, but the request's transaction kept conflicting with others (a"
        " deadlock, a lock wait that timed out) until the server's retries ran out; nothing was"
        " written; `Retry-After` says in how many seconds to send it again",
    ),
    "embedding_unavailable": (
        503,
        "the server's embedding model cannot be loaded or used (not installed, damaged, or its"
        " worker died; an operator must repair it, a dead worker is restarted by the next"
        " request); nothing was read or written",
    ),
    "embedding_space_mismatch": (
        503,
        "the server's embedding model is not the one the store's vectors come from"
        " (`details` names both); an operator must configure the store's model or run"
        " `tractatus reembed`; nothing was read or written",
    ),
}
# the answers that say when to try again, and how the document declares their header
RETRY_STATUSES = frozenset({429, 503})
RETRY_AFTER_HEADER: dict[str, Any] = {
    "description": "seconds after which the request may be sent again",
    "schema": {"type": "integer", "minimum": 1},
}
# what every /v1 route can answer; what a route with parameters or a body adds
V1 = ("unauthenticated", "rate_limited", "store_unavailable", "store_busy")
PARAMS = ("invalid_request",)
BODY = ("invalid_json", "body_too_large", "unsupported_media_type", "invalid_request")
# what a route that embeds text (writes that are searched, recall's query) adds
EMBEDS = ("embedding_unavailable", "embedding_space_mismatch")


def declared(*codes: str) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of an operation that can answer these error codes, and
    ``body_too_large``, which the body limit answers before any route (a GET sent a body over
    the limit is refused too)."""
    by_status: dict[int, list[str]] = {}
    for code in dict.fromkeys((*codes, "body_too_large")):
        status, _ = CODES[code]
        by_status.setdefault(status, []).append(code)
    out: dict[int | str, dict[str, Any]] = {}
    for status, named in sorted(by_status.items()):
        entry: dict[str, Any] = {
            "model": RejectedBody | ErrorBody if "rejected" in named else ErrorBody,
            "description": "; ".join(f"`{c}`: {CODES[c][1]}" for c in sorted(named)),
        }
        if status == 401:
            entry["headers"] = {"WWW-Authenticate": {"schema": {"type": "string"}}}
        if status in RETRY_STATUSES:
            entry["headers"] = {"Retry-After": RETRY_AFTER_HEADER}
        out[status] = entry
    return out


def status_of(error: errors.TractatusError) -> int:
    """The HTTP status of a domain error."""
    return next((s for cls, s in STATUS.items() if isinstance(error, cls)), 500)


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    """The one error shape, with the id of the request being served."""
    error = {"code": code, "message": message, "details": details or {}}
    return {"error": {**error, "request_id": request_ids.current()}}


def error_response(
    status: int,
    code: str,
    message: str,
    details: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    if status == 401:
        headers = {**(headers or {}), "WWW-Authenticate": "Bearer"}
    body = error_body(code, message, details)
    # also here, for the answers made outside the RequestId middleware (a 500)
    headers = {**(headers or {}), request_ids.HEADER: body["error"]["request_id"]}
    return JSONResponse(body, status_code=status, headers=headers)


def invalid_request(where: str, message: str, kind: str) -> JSONResponse:
    """A 422 ``invalid_request`` made by a route, in the request parser's shape: the message
    is ``where: message`` and ``details.problems`` lists it, so every route words and places a
    body that is no object, or a batch that is no list, the same way (a new user's trial got
    "the body must be a JSON object" from some routes and the parser's wording from others)."""
    return invalid_problems([(where, message, kind)])


def invalid_problems(found: list[tuple[str, str, str]]) -> JSONResponse:
    """:func:`invalid_request` of several problems, each ``(where, message, type)``; the
    message names the first."""
    listed = [{"where": w, "message": m, "type": k} for w, m, k in found]
    first = listed[0]
    message = f"{first['where']}: {first['message']}"
    return error_response(422, "invalid_request", message, {"problems": listed})


NOT_AN_OBJECT = ("body", "Input should be a JSON object", "model_type")


def _retry_after(request: Request) -> dict[str, str]:
    return {"Retry-After": str(request.app.state.settings.retry_after)}


def _domain(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, errors.TractatusError)
    status = status_of(exc)
    headers = _retry_after(request) if status in RETRY_STATUSES else None
    if status >= 500:  # the server cannot serve it: its operator reads why in the log
        log.error("%s: %s", exc.code, exc.message)
    return error_response(status, exc.code, exc.public or exc.message, exc.details, headers=headers)


def declares(route: Any, code: str) -> bool:
    """Whether a route's ``responses`` (made by :func:`declared`) name this error code."""
    status, _ = CODES[code]
    entry = getattr(route, "responses", {}).get(status, {})
    return f"`{code}`:" in str(entry.get("description", ""))


def _secret_sent(request: Request, body: Any) -> errors.SecretDetected | None:
    """The refusal of a write whose body or ``Idempotency-Key`` holds a secret, on a route that
    stores what it is sent (it declares ``secret_detected``): the secret check comes before
    anything else, the request's validation included, whose messages name what was sent (a
    new user's trial read a key back in a task's 422 ``invalid_request``)."""
    if not declares(request.scope.get("route"), "secret_detected"):
        return None
    key = request.headers.get(IDEMPOTENCY_HEADER)
    try:
        refuse_secrets(
            body, request.app.state.settings.secrets, headers={IDEMPOTENCY_HEADER.lower(): key}
        )
    except errors.SecretDetected as found:
        return found
    return None


def _validation(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    found = exc.errors()
    if any(e["type"] == "json_invalid" for e in found):
        return error_response(400, "invalid_json", "the body is not valid JSON")
    secret = _secret_sent(request, exc.body)
    if secret is not None:
        return _domain(request, secret)
    listed = [_problem(e) for e in found]
    first = _problem(problems.first(found)) if found else {"where": "request", "message": "invalid"}
    return error_response(
        422, "invalid_request", f"{first['where']}: {first['message']}", {"problems": listed}
    )


def _problem(error: Any) -> dict[str, str]:
    where = problems.where(error["loc"])
    return {"where": where, "message": problems.message(error), "type": error["type"]}


class BodyTooLarge(Exception):
    """Raised by the body limit (``server.middleware.BodyLimit``) while a body without a
    Content-Length streams in over ``limit`` bytes."""

    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.limit = limit


class BodyProblem(HTTPException):
    """A body refused while it is parsed, before any route reads it (a number no double can
    hold): ``invalid_request`` in the request parser's shape, naming where the problem is.
    An HTTPException, so that FastAPI's body reading lets it through as it is."""

    def __init__(self, where: str, message: str, kind: str) -> None:
        super().__init__(422, f"{where}: {message}")
        self.where, self.message, self.kind = where, message, kind


def _http(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if isinstance(exc, BodyProblem):
        return invalid_request(exc.where, exc.message, exc.kind)
    if isinstance(exc.__cause__, BodyTooLarge):
        # the route read the body and FastAPI made the limit's refusal "There was an error
        # parsing the body" (400 bad_request: a new user's trial sent a chunked body)
        limit = exc.__cause__.limit
        message = f"the body exceeds {limit} bytes"
        return error_response(413, "body_too_large", message, {"limit": limit})
    code = HTTP_CODES.get(exc.status_code, "http_error")
    # a 405 keeps its Allow header (RFC 9110): the methods the path does answer
    headers = dict(exc.headers) if exc.headers else None
    return error_response(exc.status_code, code, str(exc.detail), headers=headers)


# the transient failures of a transaction that met others' locks (DeadlockDetected,
# LockAcquisitionTimeout, ...): the store answered, so it is busy, not unavailable
CONFLICT_PREFIX = "Neo.TransientError.Transaction."


def _transient(request: Request, exc: Exception) -> JSONResponse:
    """A transient failure still there when the driver's retries ran out: a transaction
    conflict is ``store_busy`` (the store is up: a new user's trial read "the graph store is
    unavailable" for a deadlock while ``/healthz`` said ``neo4j: up``), any other one
    (the database unavailable, no leader) ``store_unavailable``."""
    assert isinstance(exc, TransientError)
    if not (exc.code or "").startswith(CONFLICT_PREFIX):
        return _unavailable(request, exc)
    # the caller reads StoreBusy.public; the log the store's own words (which lock, which node)
    busy = errors.StoreBusy(f"a transaction conflict outlasted the retries: {exc}")
    return _domain(request, busy)


def _unavailable(request: Request, exc: Exception) -> JSONResponse:
    """The store could not answer within the driver's bounds (TRACTATUS_NEO4J_*_TIMEOUT,
    TRACTATUS_NEO4J_RETRY_TIME): no connection, none acquired in time, or a transient
    failure other than a transaction conflict still there when the retries ran out."""
    log.error("neo4j unavailable: %s: %s", type(exc).__name__, exc)
    return error_response(
        503,
        "store_unavailable",
        "the graph store is unavailable",
        headers=_retry_after(request),
    )


def _unexpected(_: Request, exc: Exception) -> JSONResponse:
    log.exception("unhandled error", exc_info=exc)
    return error_response(500, "internal_error", "internal error")


def install(app: FastAPI) -> None:
    app.add_exception_handler(errors.TractatusError, _domain)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(StarletteHTTPException, _http)
    app.add_exception_handler(ServiceUnavailable, _unavailable)
    app.add_exception_handler(SessionExpired, _unavailable)
    app.add_exception_handler(ConnectionPoolError, _unavailable)
    app.add_exception_handler(TransientError, _transient)
    app.add_exception_handler(Exception, _unexpected)
