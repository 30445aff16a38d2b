"""One body or a batch: the shared request shape of the write routes."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse

from server.errors import error_response


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
