"""The gate's check that a disclosure does not give the exact value it stands for
(docs/semantics.md, *Disclosures*). Pure.

Everything is compared after NFKC with format characters (Cf: zero-width space, joiners,
soft hyphen) dropped, so a full-width or zero-width spelling is the plain one; a number also
by its digits only, over a run of digits joined by any grouping separator ("987 654",
"987'654", "987.654"); a text by its letters and digits only ("InitechCorp" gives "Initech
Corp"). A new user's contract trial had a disclosure read by another team give the exact
value in each of those spellings."""

from __future__ import annotations

import math
import re
import unicodedata

# a run of digits joined by grouping or decimal separators (after NFKC every space is U+0020)
_RUN = re.compile(r"[-+]?\d+(?:[ ,'._\u2019]\d+)*(?:[eE][-+]?\d+)?")
_SEPARATORS = re.compile(r"[ ,'_\u2019]")


def plain(text: str) -> str:
    """NFKC, format characters dropped: what a reader sees, as one spelling."""
    normal = unicodedata.normalize("NFKC", text)
    return "".join(c for c in normal if unicodedata.category(c) != "Cf")


def _as_number(text: str) -> float | None:
    try:
        number = float(_SEPARATORS.sub("", text))
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def _digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def _value_digits(value: float) -> str:
    """The digits of a number as it is written plainly: 987654 -> "987654", 9876.54 ->
    "987654"."""
    text = str(int(value)) if value.is_integer() else repr(abs(value))
    return _digits(text) if "e" not in text else ""


def _readings(run: str) -> list[float]:
    """The numbers a run may be read as: its own grouping, or dots as groups and a comma as
    the decimal point (987.654,5)."""
    out = [_as_number(run), _as_number(run.replace(".", "").replace(",", "."))]
    return [n for n in out if n is not None]


def reveals(exact: str, view: str) -> bool:
    """Whether a disclosure's text ``view`` gives the ``exact`` value: a number anywhere in
    it equal to a numeric value, or with its digits ("50" does not give 5; "1,987,654" does
    not give 987654), else the value's letters and digits in any case and spacing."""
    value = _as_number(plain(exact))
    seen = plain(view)
    if value is not None:
        digits = _value_digits(value)
        for m in _RUN.finditer(seen):
            run = m.group()
            if value in _readings(run) or (digits and _digits(run).lstrip("0") == digits):
                return True
        return False
    letters = "".join(c for c in plain(exact).casefold() if c.isalnum())
    return bool(letters) and letters in "".join(c for c in seen.casefold() if c.isalnum())
