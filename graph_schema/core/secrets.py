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
  server's own ``tr_live_``/``tr_test_`` keys) after no letter or digit; right after ``_`` or
  ``-`` (``note_ghp_...``, ``build-sk-proj-...``) when the generated part mixes capitals and
  small letters; documentation placeholders (``...EXAMPLE``, ``xoxb-your-...``) aside;
* ``jwt``: three base64url parts whose first two are JSON objects (``eyJ...``), the third
  possibly empty (an unsecured token);
* ``url_password``: a URL or connection string with a password in its userinfo
  (``scheme://user:pass@host``, ``redis://:pass@host``), placeholders (``user:password@``,
  ``:***@``) aside;
* ``password``: "password / passwd / pwd / passphrase / passcode / secret / api key / auth,
  access, refresh, bearer or api token ... is, = or : <value>", also as the end of an env-style
  name (``DB_PASSWORD=``, ``GITHUB_TOKEN=``), where the value is one word of at least 6
  characters holding a digit, a symbol or an inner capital ("password reset link" and "the
  secret is out" are not it), and not a placeholder, a path, a secret manager's reference, a
  line of code or a variable's name; an object's field named so (``{"db_password": "..."}``)
  counts too;
* ``card_number``: 13 to 19 digits written as cards print them (in one run, in groups of
  four, or Amex's 4-6-5; never inside an identifier, "bulk:4532015112-103") with a card
  network's prefix and length that pass the Luhn check, the published test cards aside;
* ``iban``: an IBAN of its country's length that passes the mod-97 check (in capitals or in
  small letters), the documentation's example IBANs aside.

The finder never returns a value, only where it is and its kind: what refuses a write
names the field and the kind, never the secret.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
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

# A key's prefix follows no letter or digit. After ``_`` or ``-`` (inside an id, a file name or
# an env-style name: ``note_ghp_...``, ``build-sk-proj-...``) it counts only when what follows
# the prefix mixes capitals and small letters, as generated keys do and kebab- or snake-case
# words do not (``risk-assessment-...``, ``disk_test_...``: :func:`_after_joiner`).
_PREFIXED: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "private_key",
        re.compile(r"-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----"),
    ),
    ("aws_access_key", re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])")),
    (
        "github_token",
        re.compile(r"(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})"),
    ),
    ("slack_token", re.compile(r"(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}")),
    ("stripe_key", re.compile(r"(?<![A-Za-z0-9])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}")),
    ("google_api_key", re.compile(r"(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])")),
    (
        "openai_key",
        re.compile(r"(?<![A-Za-z0-9])sk-(?:proj-|ant-|svcacct-)?[A-Za-z0-9_-]{32,}"),
    ),
    ("tractatus_key", re.compile(r"(?<![A-Za-z0-9])tr_(?:live|test)_[A-Za-z0-9_-]{16,}")),
    (
        # an unsecured JWT (RFC 7519: "alg": "none") has an empty third part
        "jwt",
        re.compile(
            r"(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.(?:[A-Za-z0-9_-]{8,})?"
        ),
    ),
)
# what a provider key starts with: the rest is its generated part
_KEY_PREFIX = re.compile(
    r"^(?:gh[pousr]_|github_pat_|xox[a-z]-|[sr]k_(?:live|test)_|AIza|"
    r"sk-(?:proj-|ant-|svcacct-)?|tr_(?:live|test)_|AKIA|ASIA)"
)
# a documentation placeholder in a key's shape: "xoxb-your-bot-token", AWS's documented
# AKIA...EXAMPLE and its secret key ...EXAMPLEKEY
_KEY_EXAMPLE = re.compile(r"EXAMPLE|(?i:(?:^|[-_])your[-_])")


def _after_joiner(key: str) -> bool:
    """A key right after ``_`` or ``-``: its generated part mixes capitals and small letters."""
    body = _KEY_PREFIX.sub("", key)
    return any(c.isupper() for c in body) and any(c.islower() for c in body)


# scheme://user:password@host; the password is what lies between the first ':' and the '@'
# (the user may be empty: redis://:password@host)
_URL_USERINFO = re.compile(
    r"(?i)\b[a-z][a-z0-9+.-]{1,20}://(?P<user>[^\s:/@?#]*):(?P<password>[^\s@/?#]+)@[^\s/@]+"
)
_PLACEHOLDER = re.compile(
    r"(?i)^(?:pass(?:word|wd)?|pwd|secret|changeme|x+|\*+|\.+|_+|-+|[<{\[$%].*|.*[>}\]])$"
)


def _url_passwords(text: str) -> Iterator[Found]:
    for match in _URL_USERINFO.finditer(text):
        if not _PLACEHOLDER.match(match.group("password")):
            yield Found("url_password", match.start(), match.end())


# --- "password is <value>" ---------------------------------------------------------------------

# "token" alone is no keyword ("token: 128000" is a context size, "?token=..." a reset link);
# a token is a credential when it says so (auth, access, refresh, bearer, api token) or is an
# environment variable's name (GITHUB_TOKEN=..., NPM_TOKEN: ...), CSRF and XSRF tokens aside
_TOKEN = r"(?:auth|access|refresh|bearer|api)[ _-]?token|(?-i:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_TOKEN)"
_KEYWORD = (
    r"pass(?:word|wd|phrase|code)|pwd|secret|client[ _-]?secret|"
    rf"(?:api|access|secret|private)[ _-]?key|(?P<token>{_TOKEN})"
)
# a keyword follows no letter or digit: after "_" it is the end of an env-style name
# (DB_PASSWORD=..., STRIPE_SECRET=..., MYSQL_PWD=...), and it ends the name
_ASSIGNMENT = re.compile(
    rf"(?i)(?<![A-Za-z0-9])(?:{_KEYWORD})s?\b[\"']?\s*(?:(?:is|was|are)\b\s*[:=]?|:=|[:=])\s*"
    r"[\"'`]?(?P<value>[^\s\"'`,;]+)"
)
_NAMED = re.compile(rf"(?i)(?<![A-Za-z0-9])(?:{_KEYWORD})s?\b")  # a field named so: "db password"
_NOT_CREDENTIAL = re.compile(r"(?i)[CX]SRF")  # an anti-forgery token: no credential alone
_TRAILING = ".,;:!?)]}>"
_MIN_VALUE = 6

# what a value after "password is" may be without being a secret
_PATH = re.compile(r"^(?:~?\.{0,2}/|[A-Za-z]:[\\/]|\\\\)")  # /x, ~/x, ./x, ../x, C:\x, \\host
_REFERENCE = re.compile(r"(?i)^(?:arn|vault|op):|://")  # a secret manager's name for it, a URL
# code: a call or an index (getenv(, os.environ[, input(), an attribute lookup of a constant
# (settings.SECRET_KEY, process.env.API_TOKEN) or of small words (self.password)
_CODE = re.compile(
    r"^(?:[A-Za-z_$][\w$]*\.)*[A-Za-z_$][\w$]*[(\[](?:[^()\[\]]*[)\]])?$|"
    r"^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\.[A-Z][A-Z0-9_]*$|^[a-z_]+(?:\.[a-z_]+)+$"
)
# a variable's name or a placeholder: YOUR_API_KEY, OPENAI_API_KEY, your-api-key-here
_NAME_OR_PLACEHOLDER = re.compile(
    r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$|EXAMPLE|(?i:(?:^|[-_])your[-_])"
)
# digits and separators only: a date, a time, an amount ("password was 2024-02-14")
_NUMERIC = re.compile(r"^[\d.,:/+-]+$")


def _not_a_value(value: str) -> bool:
    """A placeholder, a path, a reference to a secret manager, a line of code or a name."""
    return bool(
        _PLACEHOLDER.match(value)
        or _PATH.match(value)
        or _REFERENCE.search(value)
        or _CODE.match(value)
        or _NAME_OR_PLACEHOLDER.search(value)
    )


def _looks_secret(value: str, *, token: bool = False) -> bool:
    """A value after "password is": one word, not a placeholder, a path, a reference, code or a
    name, holding a digit, a symbol or a capital after its first letter (not a plain word like
    "required"); digits alone are a PIN, but no token ("max_tokens: 128000" is a count)."""
    value = value.rstrip(_TRAILING)
    if len(value) < _MIN_VALUE or _not_a_value(value):
        return False
    if not any(c.isalpha() for c in value):
        if value.isdigit():
            return not token
        return any(c.isdigit() for c in value) and not _NUMERIC.match(value)  # 90210#, not ****
    plain_word = value.isalpha() and (value.islower() or value[1:].islower() or value.isupper())
    return not plain_word


def _assignments(text: str) -> Iterator[Found]:
    for match in _ASSIGNMENT.finditer(text):
        token = match.group("token")
        if token is not None and _NOT_CREDENTIAL.search(token):
            continue
        if _looks_secret(match.group("value"), token=token is not None):
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


# the card networks' and payment processors' published test numbers: they charge no account
# (4242 4242 4242 4242 is in every payment tutorial); an agent's notes on code name them
TEST_CARDS = frozenset(
    {
        "4242424242424242", "4000056655665556", "4111111111111111", "4012888888881881",
        "4222222222222", "4000000000000002", "4000000000000077", "4000002500003155",
        "5555555555554444", "5200828282828210", "5105105105105100", "2223003122003222",
        "378282246310005", "371449635398431", "378734493671000", "6011111111111117",
        "6011000990139424", "6011000400000000", "3056930009020004", "30569309025904",
        "38520000023237", "36227206271667", "3530111333300000", "3566002020360505",
        "3566111111111113", "6200000000000005", "6759649826438453",
    }
)  # fmt: skip


def _cards(text: str) -> Iterator[Found]:
    for match in _DIGIT_RUN.finditer(text):
        for run, end in _prefixes(match):
            digits = re.sub(r"[ -]", "", run)
            if digits in TEST_CARDS:
                break
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
# in capitals or in small letters (a pasted "fr76 3000 ..."), never mixed
_IBAN_RUN = re.compile(
    r"(?<![A-Za-z0-9])"
    r"(?:[A-Z]{2}\d{2}(?: ?[A-Z0-9]{1,4}){3,8}|[a-z]{2}\d{2}(?: ?[a-z0-9]{1,4}){3,8})"
    r"(?![A-Za-z0-9])"
)
# the IBANs of the standard's and the banks' documentation (GB82 WEST 1234 5698 7654 32):
# examples that name no account
EXAMPLE_IBANS = frozenset(
    {
        "GB82WEST12345698765432", "GB29NWBK60161331926819", "DE89370400440532013000",
        "FR1420041010050500013M02606", "NL91ABNA0417164300", "BE68539007547034",
        "CH9300762011623852957", "ES9121000418450200051332", "IT60X0542811101000000123456",
        "AT611904300234573201",
    }
)  # fmt: skip


def iban_ok(iban: str) -> bool:
    """An IBAN (no spaces) of its country's length that passes the mod-97 check."""
    if IBAN_LENGTHS.get(iban[:2]) != len(iban) or not iban.isalnum():
        return False
    moved = iban[4:] + iban[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


def _ibans(text: str) -> Iterator[Found]:
    for match in _IBAN_RUN.finditer(text):
        for run, end in _prefixes(match):
            iban = run.replace(" ", "").upper()
            if iban in EXAMPLE_IBANS:
                break
            if iban_ok(iban):
                yield Found("iban", match.start(), end)
                break


# --- the finder --------------------------------------------------------------------------------


# the fixed shapes in one pass: one named group per kind
_ANY_PREFIXED = re.compile("|".join(f"(?P<{kind}>{p.pattern})" for kind, p in _PREFIXED))
# the kinds whose prefix is checked after "_" or "-"; a JWT's and a PEM header's shape is its own
_JOINABLE = frozenset(kind for kind, _ in _PREFIXED) - {
    "private_key",
    "jwt",
    "aws_access_key",
    "slack_token",  # found after "_" and "-" from the first
}


def _prefixed(text: str) -> Iterator[Found]:
    for match in _ANY_PREFIXED.finditer(text):
        kind, key = str(match.lastgroup), match.group()
        if kind not in ("private_key", "jwt") and _KEY_EXAMPLE.search(_KEY_PREFIX.sub("", key)):
            continue  # a documentation placeholder
        joined = match.start() > 0 and text[match.start() - 1] in "_-"
        if joined and kind in _JOINABLE and not _after_joiner(key):
            continue
        yield Found(kind, match.start(), match.end())


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
    elif isinstance(value, float) and value.is_integer() and abs(value) < 1e20:
        yield path, str(int(value))  # 4153619811348501.0: a card number all the same
    elif isinstance(value, dict):
        for key, item in value.items():
            # a field name that is itself a secret is not repeated in the path
            where = f"{path}.{'<name>' if find_secrets(str(key)) else key}"
            yield where, str(key)
            words = _field_words(str(key))
            # "db password is ...", or as named: "GITHUB_TOKEN is ..."
            said = next((n for n in (words, str(key)) if _NAMED.search(n)), None)
            if isinstance(item, str) and said is not None:
                yield where, f"{said} is {item}"
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


def refuse_secrets(
    payload: Any,
    policy: Policy,
    where: str = "body",
    *,
    headers: Mapping[str, str | None] | None = None,
) -> None:
    """Raise :class:`SecretDetected` naming each field and kind (never a value) when the
    payload, or a header the write stores (``headers``, by lower-case name: the
    ``Idempotency-Key``, named ``header.idempotency-key``), holds a secret and the policy is
    ``refuse``; nothing has been written then."""
    if policy == "allow":
        return
    hits = [h for name, value in (headers or {}).items() for h in scan(value, f"header.{name}")]
    hits += scan(payload, where)
    if hits:
        raise SecretDetected.of([(h.field, h.kind) for h in hits[:MAX_REPORTED]], len(hits))
