"""Which written numbers a double can hold. Pure.

Every number Tractatus reads (a JSON number in a body, a number-typed object sent as text, a
query parameter) is read as a double, as RFC 8259 expects of JSON readers: a number is kept to
a double's precision, and one outside its range is refused whatever its spelling, never
changed into another value. Too large: ``1e400``, and the same number written out in 401
digits, which was accepted (and stored as those digits) while ``1e400`` was refused (a new
user's trial). Too small: a number that is not zero but reads as 0 (``1e-400``, or
``0.000…0001`` with 400 zeros), which was stored as ``0.0`` (the same trial).
"""

from __future__ import annotations

import re
import sys

LARGEST = sys.float_info.max  # 1.7976931348623157e308
SMALLEST = 5e-324  # the smallest double above zero (subnormal)
# the digits of a number before its exponent: any of 1-9 says it is not zero
_NONZERO_MANTISSA = re.compile(r"^[^eE]*[1-9]")
SHOWN_CHARS = 40


def shown(text: str) -> str:
    """A number as a message quotes it: whole when short, else its ends and its length."""
    if len(text) <= SHOWN_CHARS:
        return text
    return f"{text[:12]}…{text[-6:]} ({len(text)} characters)"


def too_large(text: str) -> str:
    return (
        f"the number {shown(text)} is too large for a double (the largest is {LARGEST!r}, either"
        " side of 0); no field can hold it"
    )


def too_small(text: str) -> str:
    return (
        f"the number {shown(text)} is too small for a double: it is not 0, but would be read as"
        f" 0 (the smallest above 0 is {SMALLEST!r}); send 0, or a number a double can hold"
    )


def out_of_range(text: str) -> str | None:
    """Why the number written as ``text`` (a JSON number, or ASCII number text: digits, a
    decimal part, an exponent) is no double, or ``None`` when it is one."""
    value = float(text)
    if value in (float("inf"), float("-inf")):
        return too_large(text)
    if value == 0 and _NONZERO_MANTISSA.match(text):
        return too_small(text)
    return None


def integer_out_of_range(text: str, value: int) -> str | None:
    """Why the JSON integer ``value`` (written ``text``) is no double: too large, or ``None``.
    An integer a double holds only approximately (above 2^53) is kept exactly where it is
    kept as written (an object, a state), like any other integer."""
    try:
        float(value)  # rounded as a JSON number is: just above LARGEST reads as LARGEST
    except OverflowError:
        return too_large(text)
    return None
