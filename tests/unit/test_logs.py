"""The log formatters: one JSON object per line with the request id; credentials masked."""

from __future__ import annotations

import json
import logging

from server import logs, request_ids


def _record(message: str, *args: object, **extra: object) -> logging.LogRecord:
    record = logging.LogRecord("tractatus.test", logging.INFO, __file__, 1, message, args, None)
    for name, value in extra.items():
        setattr(record, name, value)
    logs.RequestIdFilter().filter(record)
    return record


def test_a_line_is_json_with_the_request_id_and_the_extra_fields() -> None:
    request_ids.begin("req-1")
    line = json.loads(logs.JsonFormatter().format(_record("%s done", "sleep", status=200)))
    assert line["request_id"] == "req-1" and line["message"] == "sleep done"
    assert line["status"] == 200 and line["level"] == "info"


def test_credentials_are_masked_in_both_formats() -> None:
    key = "tr_live_" + "a" * 30
    record = _record("header Bearer %s and key %s", "sekret-value", key, principal=key)
    for formatter in (logs.JsonFormatter(), logs.TextFormatter()):
        text = formatter.format(record)
        assert "sekret-value" not in text and key not in text
        assert "Bearer ***" in text


def test_a_credential_shaped_request_id_is_masked_in_every_field() -> None:
    """A caller's X-Request-ID is echoed when it is a safe id, and a key is one: a new
    operator's trial found a key in the JSON log's ``request_id`` (the text log masked it)."""
    key = "tr_live_" + "b" * 32
    request_ids.begin(key)
    record = _record("GET %s 401", "unmatched", route="unmatched", status=401)
    for formatter in (logs.JsonFormatter(), logs.TextFormatter()):
        text = formatter.format(record)
        assert key not in text and "***" in text
    line = json.loads(logs.JsonFormatter().format(record))
    assert line["request_id"] == "***" and line["status"] == 401
