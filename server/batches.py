"""One body or a batch: the shared request shape of the write routes."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse

from server.errors import error_response


def keyed_by_header(items: list[Any], is_batch: bool, header: str | None) -> JSONResponse | None:
    """An ``Idempotency-Key`` header on observations: one observation's key (set in its body
    when the body has none), else the error response refusing it."""
    if header is None:
        return None
    if is_batch:
        return error_response(
            422,
            "invalid_request",
            "header.Idempotency-Key: a batch's observations carry their own idempotency_key",
        )
    body = items[0]
    if isinstance(body, dict):
        sent = body.setdefault("idempotency_key", header)
        if sent != header:
            return error_response(
                422,
                "invalid_request",
                "header.Idempotency-Key: differs from the body's idempotency_key",
            )
    return None


def batch_items(payload: Any, *, key: str, max_batch: int) -> tuple[list[Any], bool] | JSONResponse:
    """The items of a body and whether it was a batch, or the error response refusing it."""
    if isinstance(payload, dict) and set(payload) == {key}:
        items = payload[key]
        if not isinstance(items, list) or not items:
            return error_response(422, "invalid_request", f"{key} must be a non-empty list")
        if len(items) > max_batch:
            return error_response(
                413, "batch_too_large", f"a batch holds at most {max_batch} {key}"
            )
        return items, True
    if isinstance(payload, dict):
        return [payload], False
    return error_response(422, "invalid_request", "the body must be a JSON object")
