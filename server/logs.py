"""Structured logs: one JSON object per line, each with the request id it was written under.

``tractatus serve`` configures the root logger with :func:`configure` (uvicorn's loggers
included; uvicorn's own access log is off, :class:`server.middleware.Metrics` writes one
line per request instead). What a line may hold is decided where it is written: no log call
of the server is given a header, a body, a query string or an observation's text; an access
line names the route's template (``/v1/events/{event_id}``), never the path sent. As a second
guard, anything shaped like a bearer credential (``Bearer …``, a ``tr_live_``/``tr_test_``
key) is masked in every field of a line, the request id included.
``tests/integration/test_logs.py`` greps a served run's captured log for every key and every
observation text it sent.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from datetime import UTC, datetime
from typing import Any

from server import request_ids

# a bearer header's value, or a key of the shape `tractatus dev-principals` makes
_CREDENTIAL = re.compile(r"(?i)(bearer\s+)\S+|\btr_[a-z]+_[A-Za-z0-9_-]{8,}")
# record attributes every LogRecord has; anything else was passed with ``extra=``
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message",
    "asctime",
    "request_id",
    "taskName",
    "color_message",  # uvicorn's message with terminal colours
}


def mask(text: str) -> str:
    return _CREDENTIAL.sub(lambda m: (m.group(1) or "") + "***", text)


class RequestIdFilter(logging.Filter):
    """Stamps each record with the id of the request it was written under (or None)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_ids.serving()
        return True


class JsonFormatter(logging.Formatter):
    """``{"time", "level", "logger", "message", "request_id", ...extra fields}``."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None),
        }
        for name, value in vars(record).items():
            if name not in _STANDARD and not name.startswith("_"):
                plain = value is None or isinstance(value, int | float | bool)
                line[name] = value if plain else str(value)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        # every field, the request id included: a caller's X-Request-ID is echoed when it is
        # a safe id, and a key is one (a new operator's trial found a key in this field)
        masked = {k: mask(v) if isinstance(v, str) else v for k, v in line.items()}
        return json.dumps(masked, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """One line for people: time, level, logger, request id, message (masked likewise)."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        return mask(super().format(record))


def handler(fmt: str) -> logging.Handler:
    """A stderr handler in the ``json`` or ``text`` format, stamping request ids."""
    out = logging.StreamHandler(sys.stderr)
    out.addFilter(RequestIdFilter())
    out.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    return out


def configure(level: str, fmt: str) -> None:
    """Route every logger (uvicorn's too) to one stderr handler at ``level``."""
    root = logging.getLogger()
    root.handlers[:] = [handler(fmt)]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True
