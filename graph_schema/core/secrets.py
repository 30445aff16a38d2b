"""Secrets in what a write would store: detection of high-confidence shapes only. Pure.

A memory keeps what it is given verbatim and for good (append-only: no route deletes a
version or an observation), so a credential written by mistake is read back by every member
of its groups on every read path. A new user's security review wrote an API key, a database
password, an IBAN, a card number and tokens through every write route and read them all back.
The write routes refuse a request holding one of these shapes (``TRACTATUS_SECRETS``,
docs/security.md "Secrets"); this module finds them.

Only shapes that are rarely anything else are detected, each with its kind:

* ``private_key``: a PEM private key block's header (``-----BEGIN ... PRIVATE KEY-----``);
* ``aws_access_key``, ``github_token``, ``slack_token``, ``stripe_key``, ``google_api_key``,
  ``openai_key``, ``tractatus_key``: provider keys with a fixed prefix (``AKIA``/``ASIA``,
  ``ghp_``/``github_pat_``, ``xoxb-``, ``sk_live_``/``rk_test_``, ``AIza``, ``sk-``, and this
  server's own ``tr_live_``/``tr_test_`` keys);
* ``jwt``: three base64url parts whose first two are JSON objects (``eyJ...``);
* ``url_password``: a URL or connection string with a password in its userinfo
  (``scheme://user:pass@host``), placeholders (``user:password@``, ``:***@``) aside;
* ``password``: "password / passwd / pwd / passphrase / secret / api key / token ... is, =
  or : <value>" where the value is one word of at least 6 characters holding a digit, a
  symbol or an inner capital ("password reset link", "token economy" and "the secret is
  out" are not it); an object's field named so (``{"db_password": "..."}``) counts too;
* ``card_number``: 13 to 19 digits written as cards print them (in one run, in groups of
  four, or Amex's 4-6-5; never inside an identifier, "bulk:4532015112-103") with a card
  network's prefix and length that pass the Luhn check;
* ``iban``: an IBAN of its country's length that passes the mod-97 check.

The finder never returns a value, only where it is and its kind: what refuses a write
names the field and the kind, never the secret.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from graph_schema.core.errors import SecretDetected

# TRACTATUS_SECRETS: refuse a write holding a secret (the default), or store it as sent
Policy = Literal["refuse", "allow"]
MAX_REPORTED = 20  # findings named in one refusal


@dataclass(frozen=True)
class Found:
    """A secret's kind and span in a text (the span, never the value, leaves this module)."""

    kind: str
    start: int
    end: int


@dataclass(frozen=True)
class Hit:
    """A secret found in a request: the field path (``body.assertions[0].object``) and kind."""

    field: str
    kind: str


# --- fixed shapes ------------------------------------------------------------------------------

_PREFIXED: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "private_key",
        re.compile(r"-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----"),
    ),
    ("aws_access_key", re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])")),
    (
        "github_token",
        re.compile(r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})"),
    ),
    ("slack_token", re.compile(r"(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}")),
    ("stripe_key", re.compile(r"(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}")),
    ("google_api_key", re.compile(r"(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])")),
    (
        "openai_key",
        re.compile(r"(?<![A-Za-z0-9_-])sk-(?:proj-|ant-|svcacct-)?[A-Za-z0-9_-]{32,}"),
    ),
    ("tractatus_key", re.compile(r"(?<![A-Za-z0-9_])tr_(?:live|test)_[A-Za-z0-9_-]{16,}")),
    (
        "jwt",
        re.compile(
            r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"
        ),
    ),
)

# scheme://user:password@host; the password is what lies between the first ':' and the '@'
_URL_USERINFO = re.compile(
    r"(?i)\b[a-z][a-z0-9+.-]{1,20}://(?P<user>[^\s:/@?#]+):(?P<password>[^\s@/?#]+)@[^\s/@]+"
)
_PLACEHOLDER = re.compile(
    r"(?i)^(?:pass(?:word|wd)?|pwd|secret|changeme|x+|\*+|\.+|_+|-+|[<{\[$%].*|.*[>}\]])$"
)


def _url_passwords(text: str) -> Iterator[Found]:
    for match in _URL_USERINFO.finditer(text):
        if not _PLACEHOLDER.match(match.group("password")):
            yield Found("url_password", match.start(), match.end())


# --- "password is <value>" ---------------------------------------------------------------------

_KEYWORD = (
    r"pass(?:word|wd|phrase|code)|pwd|secret|client[ _-]?secret|"
    r"(?:api|access|secret|private)[ _-]?key|(?:auth|access|refresh|bearer|api)?[ _-]?token"
)
_ASSIGNMENT = re.compile(
    rf"(?i)\b(?:{_KEYWORD})s?\b[\"']?\s*(?:(?:is|was|are)\b\s*[:=]?|:=|[:=])\s*[\"'`]?"
    r"(?P<value>[^\s\"'`,;]+)"
)
_NAMED = re.compile(rf"(?i)\b(?:{_KEYWORD})s?\b")  # a field named so: "db password"
_TRAILING = ".,;:!?)]}>"
_MIN_VALUE = 6


def _looks_secret(value: str) -> bool:
    """A value after "password is": one word, not a placeholder, a path or a URL, holding a
    digit, a symbol or a capital after its first letter (not a plain word like "required")."""
    value = value.rstrip(_TRAILING)
    if len(value) < _MIN_VALUE or _PLACEHOLDER.match(value):
        return False
    if value.startswith(("/", "~/", "./", "(", "#", "@")) or "://" in value:
        return False
    if not any(c.isalpha() for c in value) and not value.isdigit():
        return False  # masked (****) or punctuation
    plain_word = value.isalpha() and (value.islower() or value[1:].islower() or value.isupper())
    return not plain_word


def _assignments(text: str) -> Iterator[Found]:
    for match in _ASSIGNMENT.finditer(text):
        if _looks_secret(match.group("value")):
            yield Found("password", match.start(), match.end("value"))


# --- card numbers ------------------------------------------------------------------------------

# a card number as cards print it: 13-19 digits in one run, in groups of four (the last one
# to four), or Amex's 4-6-5; never digits inside an identifier ("bulk:4532015112-108", an
# id with a counter, failed Luhn nine times in ten and passed the tenth)
_DIGIT_RUN = re.compile(
    r"(?<![\w.,+:/#@=-])"
    r"(?:\d{13,19}|\d{4}(?:[ -]\d{4}){2,3}(?:[ -]\d{1,3})?|\d{4}[ -]\d{6}[ -]\d{5})"
    r"(?![\w-]|[.,]\d)"
)


def luhn_ok(digits: str) -> bool:
    """The Luhn check of a string of digits."""
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2 == 1:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _card_network(digits: str) -> bool:
    """A prefix and length some card network issues (Visa, Mastercard, Amex, Discover, JCB,
    Diners, UnionPay, Maestro)."""
    n, two, four = len(digits), int(digits[:2]), int(digits[:4])
    if digits[0] == "4":
        return n in (13, 16, 19)
    if 51 <= two <= 55 or 2221 <= four <= 2720:
        return n == 16
    if two in (34, 37):
        return n == 15
    if two in (36, 38, 39) or 300 <= int(digits[:3]) <= 305:
        return 14 <= n <= 19
    if 3528 <= four <= 3589:
        return 16 <= n <= 19
    if two in (50, 56, 57, 58) or 60 <= two <= 69:
        return 16 <= n <= 19
    return False


def _prefixes(match: re.Match[str]) -> Iterator[tuple[str, int]]:
    """A run's text and end, then the same without its last group, and so on: a card number
    or an IBAN followed by a year or a currency ("... 1111 2029", "... 00 EUR")."""
    text = match.group()
    while True:
        yield text, match.start() + len(text)
        cut = max(text.rfind(" "), text.rfind("-"))
        if cut <= 0:
            return
        text = text[:cut]


def _cards(text: str) -> Iterator[Found]:
    for match in _DIGIT_RUN.finditer(text):
        for run, end in _prefixes(match):
            digits = re.sub(r"[ -]", "", run)
            if 13 <= len(digits) <= 19 and _card_network(digits) and luhn_ok(digits):
                yield Found("card_number", match.start(), end)
                break


# --- IBANs -------------------------------------------------------------------------------------

# the length of each country's IBAN (the registry's countries)
IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
    "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28,
    "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
    "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
    "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20,
    "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18,
    "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24,
    "SC": 31, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28, "TL": 23, "TN": 24,
    "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
}  # fmt: skip
_IBAN_RUN = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{1,4}){3,8}(?![A-Za-z0-9])")


def iban_ok(iban: str) -> bool:
    """An IBAN (no spaces) of its country's length that passes the mod-97 check."""
    if IBAN_LENGTHS.get(iban[:2]) != len(iban) or not iban.isalnum():
        return False
    moved = iban[4:] + iban[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


def _ibans(text: str) -> Iterator[Found]:
    for match in _IBAN_RUN.finditer(text):
        for run, end in _prefixes(match):
            if iban_ok(run.replace(" ", "")):
                yield Found("iban", match.start(), end)
                break


# --- the finder --------------------------------------------------------------------------------


# the fixed shapes in one pass: one named group per kind
_ANY_PREFIXED = re.compile("|".join(f"(?P<{kind}>{p.pattern})" for kind, p in _PREFIXED))


def _prefixed(text: str) -> Iterator[Found]:
    for match in _ANY_PREFIXED.finditer(text):
        yield Found(str(match.lastgroup), match.start(), match.end())


_FINDERS: tuple[Callable[[str], Iterator[Found]], ...] = (
    _prefixed,
    _url_passwords,
    _assignments,
    _cards,
    _ibans,
)


def find_secrets(text: str) -> list[Found]:
    """The secrets in a text, in order of position (one per span: the first kind found)."""
    found: list[Found] = []
    for finder in _FINDERS:
        for hit in finder(text):
            if not any(f.start < hit.end and hit.start < f.end for f in found):
                found.append(hit)
    return sorted(found, key=lambda f: f.start)


def _field_words(name: str) -> str:
    """A field name as words: ``db_password`` -> "db password", ``apiKey`` -> "api Key"."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).replace("_", " ").replace("-", " ")


def _walk(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """Every text a JSON value holds, with its field path: strings, integers (a card number
    sent as a number), an object's field names, and "name is value" for each string field."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, int) and not isinstance(value, bool):
        yield path, str(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            # a field name that is itself a secret is not repeated in the path
            where = f"{path}.{'<name>' if find_secrets(str(key)) else key}"
            yield where, str(key)
            words = _field_words(str(key))
            if isinstance(item, str) and _NAMED.search(words):
                yield where, f"{words} is {item}"
            yield from _walk(item, where)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from _walk(item, f"{path}[{index}]")


def scan(payload: Any, where: str = "body") -> list[Hit]:
    """Each (field, kind) of a secret in a request's JSON payload, in the order met."""
    hits: dict[Hit, None] = {}
    for path, text in _walk(payload, where):
        for found in find_secrets(text):
            hits[Hit(path, found.kind)] = None
    return list(hits)


def refuse_secrets(payload: Any, policy: Policy, where: str = "body") -> None:
    """Raise :class:`SecretDetected` naming each field and kind (never a value) when the
    payload holds a secret and the policy is ``refuse``; nothing has been written then."""
    if policy == "allow":
        return
    hits = scan(payload, where)
    if hits:
        raise SecretDetected.of([(h.field, h.kind) for h in hits[:MAX_REPORTED]], len(hits))
