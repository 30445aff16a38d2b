"""A number no double can hold is refused whatever its spelling, and where it is is named; a
number a double holds is read as before (graph_schema/core/numbers.py, server/routing.py).

A new user's trial: 10^400 written out in digits was accepted (and stored) where ``1e400`` was
refused, and ``0.000…0001`` (400 zeros) was stored as ``0.0``."""

from __future__ import annotations

import pytest

from graph_schema.core import numbers
from server.routing import NumberOutOfRange, strict_json

BIG = "1" + "0" * 400
TINY = "0." + "0" * 400 + "1"


@pytest.mark.parametrize(
    ("number", "why"),
    [
        ("1e400", "too large"),
        (BIG, "too large"),
        ("-" + BIG, "too large"),
        ("-1.7976931348623159e308", "too large"),
        ("1e-400", "too small"),
        ("-1e-400", "too small"),
        (TINY, "too small"),
        ("2.4e-324", "too small"),
    ],
)
def test_a_number_no_double_holds_is_refused_where_it_is(number: str, why: str) -> None:
    body = '{"assertions": [{"object": 1}, {"object": 1, "state": {"n": [0, NUMBER]}}]}'
    with pytest.raises(NumberOutOfRange) as refused:
        strict_json(body.replace("NUMBER", number).encode())
    assert refused.value.where == "body.assertions[1].state.n[1]"
    assert why in refused.value.why and "double" in refused.value.why
    assert len(refused.value.why) < 300  # a number of 401 digits is not quoted whole


def test_the_first_of_several_is_named() -> None:
    with pytest.raises(NumberOutOfRange) as refused:
        strict_json(b'{"a": {"b": 1e-400}, "c": 1e400}')
    assert refused.value.where == "body.a.b"


@pytest.mark.parametrize(
    ("number", "value"),
    [
        ("0", 0),
        ("0.0", 0.0),
        ("-0.0", 0.0),
        ("0e-400", 0.0),
        ("0.000e5", 0.0),
        ("5e-324", 5e-324),
        ("1e-310", 1e-310),
        ("1.7976931348623157e308", 1.7976931348623157e308),
        ("-1.7976931348623157e308", -1.7976931348623157e308),
        (str(2**64), 2**64),  # kept exactly, as an integer
        ("0.1", 0.1),
    ],
)
def test_a_number_a_double_holds_is_read_as_before(number: str, value: float) -> None:
    parsed = strict_json(b'{"n": %s}' % number.encode())
    assert parsed == {"n": value} and type(parsed["n"]) is type(value)


@pytest.mark.parametrize(
    ("text", "refused"),
    [("1e999", True), (BIG, True), ("1e-400", True), (TINY, True), ("1e-310", False)],
)
def test_number_text_follows_the_same_rule(text: str, refused: bool) -> None:
    """A number-typed object sent as text (``"1e-400"``) is judged by the same rule (the gate)."""
    assert (numbers.out_of_range(text) is not None) is refused
