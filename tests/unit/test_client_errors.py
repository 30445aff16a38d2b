"""Every error code the server answers has its class in the client, documented, and the client's
exception tree is the one its docs draw.

A review of the client found the server's 422 ``secret_detected`` (docs/security.md "Secrets")
raised as a plain ``InvalidRequest`` with empty ``problems``: the caller had to read ``code``
and ``details`` to learn which field held the secret. These tests read the error table of
docs/api.md and the server's list of codes, so a code added there without a class here (or a
row in docs/client.md) fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from tractatus_client import _http, errors

from server.errors import CODES

ROOT = Path(__file__).resolve().parents[2]
API_TABLE = "## What every operation declares"
CLIENT_TABLE = "| exception | status | codes |"
# codes a server may answer outside CODES (the status fallbacks) or answered once
OTHER_CODES = {"bad_request": 400, "valid_time_conflict": 409}


def _table(text: str, marker: str) -> list[list[str]]:
    """The body cells of the first Markdown table from ``marker`` (a heading or its header)."""
    lines = text[text.index(marker) :].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows[2:]  # the header and its rule


def _codes(cell: str) -> list[str]:
    return re.findall(r"`([a-z_]+)`", cell)


def api_codes() -> dict[str, int]:
    """Each code of docs/api.md's error table, with its status."""
    rows = _table((ROOT / "docs" / "api.md").read_text(encoding="utf-8"), API_TABLE)
    return {code: int(row[0]) for row in rows for code in _codes(row[1])}


def client_table() -> dict[str, str]:
    """Each code of docs/client.md's error table, with the exception the row names."""
    text = (ROOT / "docs" / "client.md").read_text(encoding="utf-8")
    rows = _table(text, CLIENT_TABLE)
    named = {}
    for row in rows:
        exception = re.match(r"`(\w+)`", row[0])
        assert exception, row
        for code in _codes(row[2].split(":")[0]):
            named[code] = exception.group(1)
    return named


def test_the_tables_are_read() -> None:
    """The parsing above finds what it must (else the tests below would check nothing)."""
    codes = api_codes()
    assert codes["secret_detected"] == 422 and codes["store_busy"] == 503
    assert len(codes) >= 17
    assert client_table()["secret_detected"] == "SecretDetected"


@pytest.mark.parametrize(
    ("code", "status"),
    sorted({**api_codes(), **{c: s for c, (s, _) in CODES.items()}, **OTHER_CODES}.items()),
)
def test_every_code_the_server_answers_has_its_documented_class(code: str, status: int) -> None:
    cls = errors.BY_CODE.get(code)
    assert cls is not None, f"{code} has no class in tractatus_client.errors.BY_CODE"
    assert errors.error_class(status, code) is cls
    assert client_table().get(code) == cls.__name__, f"docs/client.md's errors table: {code}"
    by_status = errors.BY_STATUS.get(status, errors.ServerError if status >= 500 else None)
    if cls is not errors.Rejected:  # older than the rule: no InvalidRequest
        assert by_status is not None and issubclass(cls, by_status), (code, cls, by_status)


def test_every_code_of_the_client_is_one_the_server_answers() -> None:
    known = {*api_codes(), *CODES, *OTHER_CODES}
    assert set(errors.BY_CODE) - known == set()


def _tree(text: str) -> dict[str, str]:
    """Each class of the first tree drawn in ``text`` (from a line ``TractatusError`` to the
    first line that is no branch), with its parent: the class above it one level less deep."""
    parents: dict[str, str] = {}
    stack: list[tuple[int, str]] = []
    for line in text.splitlines():
        branch = re.match(r"^([ │├└─]*)([A-Z][A-Za-z]+)(\s|$)", line)
        if not stack:
            if branch and branch.group(2) == "TractatusError" and not branch.group(1).strip():
                stack.append((branch.start(2), "TractatusError"))
            continue
        if not branch or not branch.group(1).strip():
            break
        depth = branch.start(2)
        while stack[-1][0] >= depth:
            stack.pop()
        parents[branch.group(2)] = stack[-1][1]
        stack.append((depth, branch.group(2)))
    return parents


def test_the_drawn_tree_is_the_class_tree() -> None:
    actual = {
        cls.__name__: cls.__bases__[0].__name__
        for cls in vars(errors).values()
        if isinstance(cls, type) and issubclass(cls, errors.TractatusError)
        if cls is not errors.TractatusError
    }
    assert actual["SecretDetected"] == "InvalidRequest"
    drawn = _tree(errors.__doc__ or "")
    assert drawn == actual
    for page in (ROOT / "client" / "README.md", ROOT / "docs" / "client.md"):
        assert _tree(page.read_text(encoding="utf-8")) == actual, page


def _answer(status: int, error: object) -> httpx.Response:
    return httpx.Response(status, json={"error": error}, headers={"X-Request-ID": "rid-1"})


def test_a_secret_refusal_is_a_secret_detected_with_its_fields() -> None:
    secrets = [
        {"field": "body.object", "kind": "stripe_key"},
        {"field": "body.evidence.quote", "kind": "stripe_key"},
    ]
    details = {"secrets": secrets, "count": 2}
    error = _http.error_from(
        _answer(422, {"code": "secret_detected", "message": "m", "details": details}), "sent"
    )
    assert type(error) is errors.SecretDetected and isinstance(error, errors.InvalidRequest)
    assert error.secrets == secrets and error.count == 2
    assert (error.status, error.code, error.request_id) == (422, "secret_detected", "rid-1")
    assert error.problems == []


def test_a_secret_refusal_with_odd_details_has_no_secrets() -> None:
    odd = {"code": "secret_detected", "message": "m", "details": {"secrets": "x", "count": "2"}}
    error = _http.error_from(_answer(422, odd), "sent")
    assert isinstance(error, errors.SecretDetected)
    assert error.secrets == [] and error.count == 0
