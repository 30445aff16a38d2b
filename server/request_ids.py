"""The request id: one per request, on every answer (``X-Request-ID``), in every error body
and on every log line written while the request is served.

A caller's ``X-Request-ID`` is echoed when it is a safe id (1 to 128 characters of letters,
digits, ``.``, ``_``, ``:`` and ``-``); anything else (empty, too long, spaces, control
characters, a second header) is replaced by a fresh one, never reflected. The id of the
request being served is kept in a context variable: uvicorn serves each request in a task of
its own, and the threads that run sync routes copy the context, so error bodies and log
records read it without it being passed down.
"""

from __future__ import annotations

import re
import uuid
from contextvars import ContextVar

from graph_schema.core.types import REQUEST_ID_PATTERN

HEADER = "X-Request-ID"
SAFE = re.compile(REQUEST_ID_PATTERN)

_current: ContextVar[str | None] = ContextVar("tractatus_request_id", default=None)


def accept(given: list[bytes]) -> str:
    """The caller's id if it is exactly one safe value, else a fresh one."""
    if len(given) == 1:
        try:
            value = given[0].decode("ascii")
        except UnicodeDecodeError:
            value = ""
        if SAFE.fullmatch(value):
            return value
    return uuid.uuid4().hex


def begin(request_id: str) -> None:
    _current.set(request_id)


def serving() -> str | None:
    """The id of the request being served here (None outside a request: a log line of the
    sleep scheduler or of the access log's thread)."""
    return _current.get()


def current() -> str:
    """The id of the request being served (a fresh one outside a request)."""
    return _current.get() or uuid.uuid4().hex
