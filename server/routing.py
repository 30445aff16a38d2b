"""How every route reads its body and writes its answer.

* :class:`JSONRoute` parses request bodies as strict JSON (RFC 8259): ``NaN``, ``Infinity``,
  bytes that are not UTF-8, unpaired surrogate escapes (``"\\ud800"``, which no UTF-8 text
  can hold) and nesting too deep to parse are ``invalid_json`` (400), like any other
  malformed body, instead of reaching the store or the answer's encoder.
* :func:`answer` serialises an already-validated answer once; the route's ``response_model``
  still documents it (FastAPI would validate a large answer, a 1,000-step replay, again).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response

# a JSON escape of a UTF-16 surrogate; only then can the parsed text hold an unpaired one
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def strict_json(body: bytes) -> Any:
    """``json.loads`` that refuses what RFC 8259 JSON text cannot be (as JSONDecodeError)."""
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise json.JSONDecodeError("the body is not UTF-8", "", error.start) from None
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError:
        raise
    except ValueError as error:  # NaN, Infinity
        raise json.JSONDecodeError(str(error), text, 0) from None
    except RecursionError:
        raise json.JSONDecodeError("the body is nested too deeply", text, 0) from None
    if _SURROGATE_ESCAPE.search(body):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError as error:
            raise json.JSONDecodeError("an unpaired surrogate escape", text, error.start) from None
    return value


class StrictJSONRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = strict_json(await self.body())
        return self._json


class JSONRoute(APIRoute):
    """A route whose JSON body is parsed by :func:`strict_json`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJSONRequest(request.scope, request.receive))

        return strict


def answer(
    model: BaseModel, status_code: int = 200, headers: dict[str, str] | None = None
) -> Response:
    """An answer serialised once, as the route's response model describes it."""
    return Response(
        model.model_dump_json(by_alias=True),
        status_code=status_code,
        media_type="application/json",
        headers=headers,
    )
