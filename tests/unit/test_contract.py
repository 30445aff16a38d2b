"""What the OpenAPI document says about a value is what the code checks: the patterns of
names, texts, timestamps, groups and predicates, and the JSON the request parser accepts."""

from __future__ import annotations

import importlib
import json
import re
import sys
import unicodedata
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Strict, ValidationError
from pydantic.fields import FieldInfo

from graph_schema.core.timeutil import RFC3339_PATTERN, parse_rfc3339
from graph_schema.core.types import (
    INTEGRAL,
    NAME_PATTERN,
    NO_NUL_PATTERN,
    NOT_BLANK_PATTERN,
    TEXT_PATTERN,
    check_groups,
    check_name,
    check_no_nul,
    check_text,
)
from graph_schema.core.visible import INVISIBLE_RANGES, is_invisible
from graph_schema.ledger.types import EvidenceWrite
from graph_schema.recall.types import RecallRequest
from graph_schema.schema.types import Predicate
from server.routing import IntegerTooLong, NumberOutOfRange, is_json, strict_json

WHITESPACE = "".join(c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace())
# texts made mostly of what makes one blank or refused: every whitespace character and NUL
TEXTS = st.text(alphabet=st.sampled_from(WHITESPACE + "\x00ab\u180e\ufeff"), max_size=6)
# characters that show nothing alone: format (zero-width space, BOM, a tag), combining marks,
# a Hangul filler, a control
INVISIBLE = "\u180e\ufeff\u200b\u2060\u0301\u20dd\u3164\x01\U000e0041\U000e0100"
# names made mostly of what makes one blank or refused, and of visible characters (a spacing
# mark, an unassigned code point, one beyond the basic plane)
NAMES = st.text(
    alphabet=st.sampled_from(WHITESPACE + INVISIBLE + "\x00ab\u0903\u0378\U0001f680"),
    max_size=6,
)
# what graph_schema.core.visible calls invisible besides whitespace: Unicode's categories, and
# the default-ignorable code points of other categories (DerivedCoreProperties.txt)
INVISIBLE_CATEGORIES = {"Cc", "Cf", "Mn", "Me"}
OTHER_IGNORABLE = [(0x115F, 0x1160), (0x3164, 0x3164), (0xFFA0, 0xFFA0), (0x2065, 0x2065)]
OTHER_IGNORABLE += [(0xFFF0, 0xFFF8), (0xE0000, 0xE0FFF)]


def _accepted(check: object, value: str) -> bool:
    try:
        check(value)  # type: ignore[operator]
    except ValueError:
        return False
    return True


@given(TEXTS)
def test_the_text_pattern_is_check_text(value: str) -> None:
    """Schema-valid names are exactly the names the code accepts (blank and NUL refused)."""
    assert (re.fullmatch(TEXT_PATTERN, value) is not None) == _accepted(check_text, value)


@given(TEXTS)
def test_the_not_blank_pattern_is_strip(value: str) -> None:
    assert (re.search(NOT_BLANK_PATTERN, value) is not None) == bool(value.strip())


@given(TEXTS)
def test_the_no_nul_pattern_is_check_no_nul(value: str) -> None:
    assert (re.fullmatch(NO_NUL_PATTERN, value) is not None) == _accepted(check_no_nul, value)


def _evidence_accepted(quote: str, source_text: str | None) -> bool:
    try:
        EvidenceWrite.model_validate({"quote": quote, "source_text": source_text})
    except ValidationError:
        return False
    return True


@settings(deadline=None)
@given(TEXTS.filter(bool))
def test_the_evidence_patterns_are_what_evidence_accepts(value: str) -> None:
    """A quote and a source text holding a NUL were stored (201) while every other text
    refused one; the document says what the model refuses: a quote not blank and without
    NUL, a source text without NUL."""
    schema = EvidenceWrite.model_json_schema()["properties"]
    quote = schema["quote"]["pattern"]
    source = next(s["pattern"] for s in schema["source_text"]["anyOf"] if "pattern" in s)
    assert (re.fullmatch(quote, value) is not None) == _evidence_accepted(value, None)
    sent = f"{value}ok"
    assert (re.fullmatch(source, sent) is not None) == _evidence_accepted("ok", sent)


def test_every_whitespace_character_is_blank_to_the_pattern() -> None:
    assert all(re.fullmatch(TEXT_PATTERN, c) is None for c in WHITESPACE)
    assert re.fullmatch(TEXT_PATTERN, "\u180e") is not None  # not whitespace to Python


@given(NAMES)
def test_the_name_pattern_is_check_name(value: str) -> None:
    """Schema-valid names are exactly the names the code accepts: a visible character, no
    NUL (a subject of a zero-width space, or of a lone combining accent, was written)."""
    assert (re.fullmatch(NAME_PATTERN, value) is not None) == _accepted(check_name, value)
    assert (re.fullmatch(NAME_PATTERN, value) is not None) == (
        not is_invisible(value) and "\x00" not in value
    )


def test_every_invisible_character_is_blank_to_the_name_pattern() -> None:
    assert all(re.fullmatch(NAME_PATTERN, c) is None for c in WHITESPACE + INVISIBLE)
    assert re.fullmatch(NAME_PATTERN, "\u180e") is None  # not whitespace to Python, but Cf
    # a visible character with invisible ones is a name, kept as sent
    assert re.fullmatch(NAME_PATTERN, "e\u0301\u200b") is not None
    assert re.fullmatch(NAME_PATTERN, "\u0903") is not None  # a spacing mark shows


def test_the_invisible_characters_are_the_runtimes() -> None:
    """The list is written out (the pattern must not change with the runtime's Unicode); this
    fails when the runtime's Unicode has moved on, to say the list should follow."""
    ignorable = {c for start, end in OTHER_IGNORABLE for c in range(start, end + 1)}
    expected = {
        code
        for code in range(sys.maxunicode + 1)
        if chr(code).isspace()
        or unicodedata.category(chr(code)) in INVISIBLE_CATEGORIES
        or code in ignorable
    }
    listed = {c for start, end in INVISIBLE_RANGES for c in range(start, end + 1)}
    assert listed == expected


@pytest.mark.parametrize("year", [2, 9, 10, 99, 100, 999, 1000, 1999, 2026, 8999, 9899, 9998])
def test_supported_years_match_the_pattern_and_parse(year: int) -> None:
    text = f"{year:04d}-01-01T00:00:00+23:59"
    assert re.fullmatch(RFC3339_PATTERN, text)
    assert parse_rfc3339(text).tzinfo is UTC
    late = f"{year:04d}-12-31T23:59:59.999999999-23:59"
    assert parse_rfc3339(late) > datetime(year, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    "text",
    [
        "0000-06-01T00:00:00Z",
        "0001-01-01T00:00:00+01:00",  # before year 1 in UTC: overflowed to a 500
        "0001-06-01T00:00:00Z",
        "9999-12-31T23:00:00-05:00",  # after year 9999 in UTC: overflowed to a 500
        "2026-06-01T09:00:00Z\n",
        "\u0662\u0660\u0662\u0666-06-01T09:00:00Z",  # Arabic-Indic digits
        "2026-06-01T24:00:00Z",
        "2026-06-01T09:00:60Z",
        "2026-06-01T09:00:00+24:00",
        "2026-02-30T00:00:00Z",
    ],
)
def test_times_outside_the_pattern_are_refused_with_a_value_error(text: str) -> None:
    assert re.fullmatch(RFC3339_PATTERN, text) is None or "02-30" in text
    with pytest.raises(ValueError, match="RFC 3339"):
        parse_rfc3339(text)


def test_group_names_are_matched_whole() -> None:
    """A trailing newline passed ``re.match`` with ``$``; the schema's pattern refuses it."""
    with pytest.raises(ValueError):
        check_groups(["finance\n"])
    assert check_groups(["finance", "eng.platform"]) == ["eng.platform", "finance"]


def test_predicate_names_are_matched_whole() -> None:
    with pytest.raises(ValidationError):
        Predicate.model_validate({"name": "colour\n", "cardinality": "one"})


def test_integers_are_json_integers() -> None:
    """JSON Schema's integer includes 3.0; booleans, strings and fractions stay refused."""
    assert RecallRequest.model_validate({"query": "q", "k": 3.0}).k == 3
    assert EvidenceWrite.model_validate(
        {"quote": "Vue", "source_text": "we use Vue", "start": 7.0, "end": 10}
    ).span() == (7, 10)
    for bad in (True, "3", 3.5):
        with pytest.raises(ValidationError):
            RecallRequest.model_validate({"query": "q", "k": bad})
    predicate = {"name": "colour", "cardinality": "one", "version": 2.0}
    assert Predicate.model_validate(predicate).version == 2


def _strict_int_fields() -> list[tuple[str, FieldInfo]]:
    """Every field of the request and domain models whose value is a strict integer."""
    found = []
    for name in ("core", "ledger", "events", "observations", "recall", "schema", "lifecycle"):
        module = importlib.import_module(f"graph_schema.{name}.types")
        for model in vars(module).values():
            if not (isinstance(model, type) and issubclass(model, BaseModel)):
                continue
            for field_name, info in model.model_fields.items():
                strict = any(isinstance(m, Strict) and m.strict for m in info.metadata)
                if strict and info.annotation is int:
                    found.append((f"{model.__name__}.{field_name}", info))
    return found


def test_every_strict_integer_takes_json_integers() -> None:
    """A fuzzer may send 3.0 for any integer of the schema: each one must take it (INTEGRAL).
    (The predicate's version did not, and answered invalid_request to a schema-valid body.)"""
    fields = _strict_int_fields()
    assert fields
    missing = [name for name, info in fields if INTEGRAL not in info.metadata]
    assert not missing, missing


@pytest.mark.parametrize(
    "body",
    [
        b'{"x": NaN}',
        b'{"x": -Infinity}',
        b'{"x": "\\ud800"}',
        b'{"\\udc00": 1}',
        b'{"x": "\xff"}',
        b'{"x": "\xed\xa0\x80"}',
        b"[" * 100_000 + b"]" * 100_000,
        b'{"x": ',
    ],
)
def test_what_is_not_json_text_is_a_decode_error(body: bytes) -> None:
    with pytest.raises(json.JSONDecodeError):
        strict_json(body)


def test_json_text_parses_as_json() -> None:
    body = '\ufeff{"emoji": "\\ud83d\\ude80", "text": "日本語", "n": 1e3}'.encode()
    assert strict_json(body) == {"emoji": "🚀", "text": "日本語", "n": 1000.0}


# the extremes of what is accepted, at the offsets that move them furthest once in UTC
EXTREME_TIMES = [
    "0002-01-01T00:00:00+23:59",
    "0002-01-01T00:00:00Z",
    "0001-12-31T00:00:00Z",
    "0001-12-31T00:00:00-23:59",
    "9998-12-31T23:59:59.999999-23:59",
    "9998-12-31T23:59:59.999999Z",
    "9999-01-01T23:59:59.999999Z",
    "9999-01-01T23:59:59.999999+23:59",
]


@pytest.mark.parametrize("text", EXTREME_TIMES)
def test_every_time_an_answer_gives_can_be_sent_back(text: str) -> None:
    """A new user's trial: "0002-01-01T00:00:00+23:59" was accepted and answered as
    "0001-12-31T00:01:00Z", which was then refused as a year out of bounds. An accepted time,
    written in UTC as answers write it, is accepted again, as the same instant."""
    instant = parse_rfc3339(text)
    answered = instant.isoformat().replace("+00:00", "Z")
    assert re.fullmatch(RFC3339_PATTERN, answered)
    assert parse_rfc3339(answered) == instant
    assert instant - timedelta(microseconds=1) < instant  # still computable


@pytest.mark.parametrize(
    "text",
    [
        "0001-12-31T00:00:00+01:00",  # before 0001-12-31 in UTC
        "0001-12-30T23:00:00-05:00",
        "9999-01-01T00:00:00-01:00",  # after 9999-01-01 in UTC
        "9999-01-02T00:00:00+23:59",
    ],
)
def test_the_days_beyond_the_years_are_refused_with_the_bound(text: str) -> None:
    assert re.fullmatch(RFC3339_PATTERN, text) is None
    with pytest.raises(ValueError, match="0001-12-31 with no positive offset"):
        parse_rfc3339(text)


def test_an_integer_longer_than_python_reads_is_named_not_called_invalid_json() -> None:
    """A new user's trial: 5,000 digits were answered "the body is not valid JSON"."""
    limit = sys.get_int_max_str_digits()
    # as many digits as Python reads: read, then refused as no double holds it
    with pytest.raises(NumberOutOfRange, match="too large for a double"):
        strict_json(b'{"k": -' + b"9" * limit + b"}")
    with pytest.raises(IntegerTooLong) as refused:
        strict_json(b'{"k": 1' + b"0" * limit + b"}")
    assert refused.value.digits == limit + 1
    assert str(limit) in refused.value.message()


@pytest.mark.parametrize(
    ("content_type", "json_"),
    [
        ("application/json", True),
        ("application/json; charset=utf-8", True),
        ("APPLICATION/JSON", True),
        ("application/merge-patch+json", True),
        ("application/x-www-form-urlencoded", False),
        ("text/plain", False),
        ("application/jsonx", False),
        ("", False),
        (None, False),
    ],
)
def test_only_json_media_types_are_json(content_type: str | None, json_: bool) -> None:
    assert is_json(content_type) is json_
