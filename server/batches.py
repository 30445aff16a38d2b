"""One body or a batch: the shared request shape of the write routes."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse
from pydantic import BaseModel

from server.errors import error_response


def batch_schema(model: type[BaseModel], key: str, max_items: int) -> dict[str, Any]:
    """OpenAPI for a body that is one ``model`` or ``{key: [model, ...]}``."""
    single = model.model_json_schema(ref_template="#/components/schemas/{model}")
    batch = {
        "type": "object",
        "properties": {key: {"type": "array", "maxItems": max_items}},
        "required": [key],
    }
    return {
        "requestBody": {
            "content": {"application/json": {"schema": {"oneOf": [single, batch]}}},
            "required": True,
        }
    }


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
