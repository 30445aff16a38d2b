"""One body or a batch: the shared request shape of the write routes."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse

from server.errors import NOT_AN_OBJECT, error_response, invalid_request


def keyed_by_header(items: list[Any], is_batch: bool, header: str | None) -> None:
    """An ``Idempotency-Key`` header on observations keys those that carry no key of their
    own: a single observation by the header, the items of a batch by the header and their
    index (``KEY:0``, ``KEY:1``, ...), so the same request sent again replays each. A key in
    the body wins. (A new user's trial sent the header and it was silently ignored.)"""
    if header is None:
        return
    for index, body in enumerate(items):
        if isinstance(body, dict) and body.get("idempotency_key") is None:
            body["idempotency_key"] = f"{header}:{index}" if is_batch else header


def batch_items(payload: Any, *, key: str, max_batch: int) -> tuple[list[Any], bool] | JSONResponse:
    """The items of a body and whether it was a batch, or the error response refusing it."""
    if isinstance(payload, dict) and set(payload) == {key}:
        items = payload[key]
        if not isinstance(items, list):
            return invalid_request(f"body.{key}", "Input should be a valid list", "list_type")
        if not items:
            return invalid_request(f"body.{key}", "List should have at least 1 item", "too_short")
        if len(items) > max_batch:
            return error_response(
                413, "batch_too_large", f"a batch holds at most {max_batch} {key}"
            )
        return items, True
    if isinstance(payload, dict):
        return [payload], False
    return invalid_request(*NOT_AN_OBJECT)
