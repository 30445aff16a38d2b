"""Contact details nothing states: a question asking for a phone number or an email address,
read against the texts that could answer it (docs/recall.md, *Kinds nothing names*, contact
details). Pure.

"What's Dana Whitfield's phone number?" asks for a number to call; a text that answers it
holds one ("call me on 0161 555 0142"). When none of the texts recall read for the answer
holds one, nothing there answers it, however much they say of Dana (her order, her office's
address). The answer lists the kind (``phone_number``, ``email_address``) in
``missing_kinds``, as it lists a kind of thing nothing names.

A phone number is a run of 7 to 15 digits, spaced or joined by dashes, dots or brackets,
with an optional leading "+", that is no ISO date ("2025-03-14") and no part of an
identifier ("CA-48213077", "INV-2024-0316"); an email address is
``name@domain.tld``. Lenient: any such number counts, whatever it numbers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from graph_schema.recall.named import holding, named_terms

EMAIL, PHONE = "email_address", "phone_number"
# whose detail it is: "Sam's", "her", "what is" (the detail then ends its sentence: "do you
# have Ms. Okafor's email? want to thank her" asks for it, "Okafor's email about the
# deadline" names a message)
_WHOSE = r"(?:['\u2019]s|\b(?:his|her|their|your|my|what\s+is|what['\u2019]s))\s+"
_ENDS = r"\s*(?:[?.!,;]|$)"
# or named after it: "What is the email of Shift Removals?", "the phone for the plumber"
_OF = r"\bthe\s+(?:{})\s+(?:of|for)\b"
# "What's Ms. Alvarez's email address?", "Which e-mail address ...", "What is Sam's email?"
_ASKS_EMAIL = re.compile(
    rf"\be-?mail\s+address(?:es)?\b|{_WHOSE}e-?mail{_ENDS}|{_OF.format('e-?mail')}", re.I
)
# "What's Tomasz's phone number?", "his mobile number", "What is Priya's phone?"
_ASKS_PHONE = re.compile(
    rf"\b(?:phone|mobile|cell|telephone)\s+(?:number|no\.?)s?\b|{_WHOSE}(?:phone|mobile|cell){_ENDS}"
    rf"|{_OF.format('phone|mobile|cell')}",
    re.I,
)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# digits not joined to letters: "CA-48213077", "INV-2024-036", "R2-0412" are identifiers
_DIGITS = re.compile(r"(?<![\w-])(?<![^\W\d_][-#/])\+?\(?\d[\d\s().-]*\d(?!\w)")
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def asked(query: str) -> list[str]:
    """The contact details ``query`` asks for, in order: ``email_address``, ``phone_number``."""
    return [k for k, p in ((EMAIL, _ASKS_EMAIL), (PHONE, _ASKS_PHONE)) if p.search(query)]


def states(kind: str, text: str) -> bool:
    """Whether ``text`` holds a detail of ``kind`` (module docstring)."""
    if kind == EMAIL:
        return _EMAIL.search(text) is not None
    # a date is no number to call, nor part of one ("as of 2025-03-12 07:10")
    undated = _DATE.sub(" ", text)
    return any(7 <= sum(c.isdigit() for c in m.group(0)) <= 15 for m in _DIGITS.finditer(undated))


def missing(query: str, texts: Iterable[str], *, narrow: bool = True) -> list[str]:
    """The contact details ``query`` asks for that none of ``texts`` holds. Recall passes the
    texts of the groups that can answer: for a question about one speaker, theirs and what
    others say of them (``narrow`` False); otherwise only the texts that hold every name the
    question gives are read, when any does ("What's Raj Patel's phone number?" is not
    answered by an invoice number in a note about the tiles). A whole text, not a sentence:
    a note gives a person's number before or after naming them ("Updated Wang Li's record:
    phone changed to 021 555 0192. Mochi's booster remains due ...")."""
    kinds = asked(query)
    if not kinds:
        return []
    read = holding(named_terms(query) if narrow else [], list(texts))
    return [k for k in kinds if not any(states(k, t) for t in read)]
