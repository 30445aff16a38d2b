"""How every route reads its body and writes its answer.

* :class:`JSONRoute` parses request bodies as strict JSON (RFC 8259): ``NaN``, ``Infinity``,
  bytes that are not UTF-8, unpaired surrogate escapes (``"\\ud800"``, which no UTF-8 text
  can hold) and nesting too deep to parse are ``invalid_json`` (400), like any other
  malformed body, instead of reaching the store or the answer's encoder. An integer longer
  than Python converts (4,300 digits) is valid JSON: ``invalid_request`` (422) naming the
  limit. A number no double can hold, too large (``1e400``, or the same written out in
  digits) or too small (``1e-400``: not 0, but read as 0), is ``invalid_request`` (422)
  naming where it is (``graph_schema.core.numbers``), for every field alike: it was
  refused or accepted depending on how it was spelt, and stored as ``0.0``. A body sent as
  another media type than JSON is ``unsupported_media_type`` (415). A body that holds no JSON
  value (empty, or whitespace only) is no body: where one is required, ``invalid_request``
  (422) ``body: Field required``.
* :func:`answer` serialises an already-validated answer once; the route's ``response_model``
  still documents it (FastAPI would validate a large answer, a 1,000-step replay, again).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import HTTPException
from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response

from graph_schema.core import numbers, problems
from server.errors import BodyProblem, BodyTooLarge

# a JSON escape of a UTF-16 surrogate; only then can the parsed text hold an unpaired one
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class IntegerTooLong(Exception):
    """A JSON integer with more digits than Python converts (``sys.get_int_max_str_digits``):
    valid JSON, but no value any field takes (a new user's trial was told "the body is not
    valid JSON")."""

    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits
        self.limit = sys.get_int_max_str_digits()

    def message(self) -> str:
        return (
            f"a JSON integer in the body has {self.digits} digits; an integer here has at most"
            f" {self.limit}"
        )


class OutOfRange:
    """What the parser puts where a number no double can hold was (found afterwards by
    :func:`_first_out_of_range`, which names where it is)."""

    def __init__(self, why: str) -> None:
        self.why = why


class NumberOutOfRange(Exception):
    """A JSON number no double can hold, and where it is in the body."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(f"{where}: {why}")
        self.where = where
        self.why = why


class _Numbers:
    """The parser's number hooks: an integer too long for Python, a number out of range."""

    def __init__(self) -> None:
        self.out_of_range = False

    def parse_int(self, text: str) -> int | OutOfRange:
        digits = len(text.lstrip("-"))
        if digits > sys.get_int_max_str_digits():
            raise IntegerTooLong(digits)
        value = int(text)
        return self._checked(numbers.integer_out_of_range(text, value)) or value

    def parse_float(self, text: str) -> float | OutOfRange:
        return self._checked(numbers.out_of_range(text)) or float(text)

    def _checked(self, why: str | None) -> OutOfRange | None:
        if why is None:
            return None
        self.out_of_range = True
        return OutOfRange(why)


def _first_out_of_range(value: Any) -> NumberOutOfRange | None:
    """The first out-of-range number of a parsed body, in the order it was written, with
    where it is (``body.assertions[0].object``)."""
    stack: list[tuple[tuple[int | str, ...], Any]] = [(("body",), value)]
    while stack:
        loc, item = stack.pop()
        if isinstance(item, OutOfRange):
            return NumberOutOfRange(problems.where(loc), item.why)
        if isinstance(item, dict):
            stack.extend(reversed([((*loc, key), child) for key, child in item.items()]))
        elif isinstance(item, list):
            stack.extend(reversed([((*loc, index), child) for index, child in enumerate(item)]))
    return None


def strict_json(body: bytes) -> Any:
    """``json.loads`` that refuses what RFC 8259 JSON text cannot be (as JSONDecodeError),
    and a number no double can hold (as :class:`NumberOutOfRange`)."""
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise json.JSONDecodeError("the body is not UTF-8", "", error.start) from None
    hooks = _Numbers()
    try:
        value = json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_int=hooks.parse_int,
            parse_float=hooks.parse_float,
        )
    except json.JSONDecodeError:
        raise
    except ValueError as error:  # NaN, Infinity
        raise json.JSONDecodeError(str(error), text, 0) from None
    except RecursionError:
        raise json.JSONDecodeError("the body is nested too deeply", text, 0) from None
    if hooks.out_of_range and (refused := _first_out_of_range(value)) is not None:
        raise refused
    if _SURROGATE_ESCAPE.search(body):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError as error:
            raise json.JSONDecodeError("an unpaired surrogate escape", text, error.start) from None
    return value


# JSON's whitespace (RFC 8259), and the byte order mark a UTF-8 text may begin with
_JSON_WHITESPACE = b" \t\n\r"
_BOM = b"\xef\xbb\xbf"


def holds_no_value(body: bytes) -> bool:
    """Whether a body holds no JSON value: it is empty, or whitespace only (after a byte order
    mark). Such a body is no body, as an empty one was: a whitespace-only one answered
    ``invalid_json`` (400) where an empty one answered ``body: Field required`` (422)."""
    return not body.removeprefix(_BOM).strip(_JSON_WHITESPACE)


class StrictJSONRequest(Request):
    async def body(self) -> bytes:
        """The body as sent, or none when it holds no JSON value (:func:`holds_no_value`)."""
        sent = await super().body()
        return b"" if holds_no_value(sent) else sent

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            try:
                self._json = strict_json(await self.body())
            except IntegerTooLong as refused:
                raise HTTPException(422, refused.message()) from None
            except NumberOutOfRange as refused:
                raise BodyProblem(refused.where, refused.why, "number_out_of_range") from None
        return self._json


def is_json(content_type: str | None) -> bool:
    """Whether a Content-Type names JSON: ``application/json`` or ``application/*+json``, any
    case, any parameters."""
    if not content_type:
        return False
    media = content_type.split(";", 1)[0].strip().lower()
    main, _, sub = media.partition("/")
    return main == "application" and (sub == "json" or sub.endswith("+json"))


async def _sent_body(request: Request) -> bytes:
    """The body, read whole before a refusal (an answer sent while the client still writes
    reaches it as a connection reset: ``server.middleware.BodyLimit``); a body over the limit
    is refused as FastAPI's own read refuses it, so the error handler answers 413."""
    try:
        return await request.body()
    except BodyTooLarge as over:
        raise HTTPException(400, "There was an error parsing the body") from over


def unsupported_media_type(content_type: str | None) -> HTTPException:
    """The refusal of a body sent as another media type than JSON (415). A new user's trial
    sent a JSON object with curl's default form type and was told "the body must be a JSON
    object"."""
    sent = f"`{content_type}`" if content_type else "none"
    return HTTPException(
        415,
        f"the body must be sent with Content-Type: application/json (sent: {sent})",
    )


class JSONRoute(APIRoute):
    """A route whose JSON body is parsed by :func:`strict_json`, and refused with 415 when it
    is sent as another media type."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        takes_body = self.body_field is not None

        async def strict(request: Request) -> Response:
            strict_request = StrictJSONRequest(request.scope, request.receive)
            content_type = request.headers.get("content-type")
            if takes_body and not is_json(content_type) and await _sent_body(strict_request):
                raise unsupported_media_type(content_type)
            return await handler(strict_request)

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
