"""Every error leaves as ``{"error": {"code", "message", "details"}}``; mapped here only."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from neo4j.exceptions import ServiceUnavailable, SessionExpired
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from graph_schema.core import errors

log = logging.getLogger("tractatus.errors")

STATUS: dict[type[errors.TractatusError], int] = {
    errors.GateRejected: 422,
    errors.PreconditionFailed: 409,
    errors.ValidTimeConflict: 409,
    errors.OntologyConflict: 409,
    errors.TaskEnded: 409,
    errors.TaskConflict: 409,
    errors.SleepRunning: 409,
    errors.NotFound: 404,
    errors.AuthenticationFailed: 401,
    errors.PermissionDenied: 403,
    errors.StoreUnavailable: 503,
}

HTTP_CODES = {
    400: "bad_request",
    401: "unauthenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
}


class ErrorDetail(BaseModel):
    code: str
    message: str
    details: dict[str, Any] = Field(default_factory=dict)


class ErrorAnswer(BaseModel):
    """The one error shape."""

    error: ErrorDetail


_DESCRIPTIONS = {
    401: "no valid bearer key",
    403: "the caller's role or rights do not allow it",
    404: "nothing of that id the caller may see (an unknown one answers the same)",
    409: "refused by the current state (see error.code)",
    422: "invalid request",
}


def responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for the error statuses a route can answer, all in the one shape."""
    return {code: {"model": ErrorAnswer, "description": _DESCRIPTIONS[code]} for code in codes}


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details or {}}}


def error_response(
    status: int, code: str, message: str, details: dict[str, Any] | None = None
) -> JSONResponse:
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse(error_body(code, message, details), status_code=status, headers=headers)


def _domain(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, errors.TractatusError)
    status = next((s for cls, s in STATUS.items() if isinstance(exc, cls)), 500)
    return error_response(status, exc.code, exc.message, exc.details)


def _validation(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    problems = [
        {"where": ".".join(str(p) for p in e["loc"]), "message": e["msg"], "type": e["type"]}
        for e in exc.errors()
    ]
    if any(p["type"] == "json_invalid" for p in problems):
        return error_response(400, "invalid_json", "the body is not valid JSON")
    first = problems[0] if problems else {"where": "request", "message": "invalid"}
    return error_response(
        422, "invalid_request", f"{first['where']}: {first['message']}", {"problems": problems}
    )


def _http(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = HTTP_CODES.get(exc.status_code, "http_error")
    return error_response(exc.status_code, code, str(exc.detail))


def _unavailable(_: Request, exc: Exception) -> JSONResponse:
    log.error("neo4j unavailable: %s", exc)
    return error_response(503, "store_unavailable", "the graph store is unavailable")


def _unexpected(_: Request, exc: Exception) -> JSONResponse:
    log.exception("unhandled error", exc_info=exc)
    return error_response(500, "internal_error", "internal error")


def install(app: FastAPI) -> None:
    app.add_exception_handler(errors.TractatusError, _domain)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(StarletteHTTPException, _http)
    app.add_exception_handler(ServiceUnavailable, _unavailable)
    app.add_exception_handler(SessionExpired, _unavailable)
    app.add_exception_handler(Exception, _unexpected)
