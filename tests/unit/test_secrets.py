"""The secret finder (graph_schema/core/secrets.py): each kind it detects, the near misses it
must leave alone, the field paths it names (never a value), and the benchmark texts it must
leave alone (a new user's security review stored keys, passwords, IBANs and card numbers
through every write route)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graph_schema.core.errors import SecretDetected
from graph_schema.core.secrets import find_secrets, iban_ok, luhn_ok, refuse_secrets, scan

ROOT = Path(__file__).resolve().parents[2]

# built from parts, so that no scanner reading this file takes them for real credentials
GITHUB = "ghp_" + "A1b2C3d4E5" * 4
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ"
    ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)

KINDS = [
    ("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA...", "private_key"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----", "private_key"),
    ("key id AKIA" + "Q3XGZ7MPL2RT4VWY in the ci vars", "aws_access_key"),
    (f"token {GITHUB}", "github_token"),
    ("github_pat_" + "11ABCDEFG0" * 5, "github_token"),
    ("bot: xoxb-" + "123456789012-abcdefghijkl", "slack_token"),
    ("The staging API key is sk_" + "test_H1MCPSECRET42.", "stripe_key"),
    ("apikey sk_" + "live_H1SECRETabc123", "stripe_key"),
    ("restricted rk_" + "live_0123456789abcdef", "stripe_key"),
    ("maps key AIza" + "SyA-1234567890abcdefghijklmnopqrstu", "google_api_key"),
    ("OPENAI sk-" + "proj-" + "abcDEF123456" * 3, "openai_key"),
    ("my key is tr_" + "live_" + "Zx9-Qw_8" * 5, "tractatus_key"),
    (f"Authorization header {JWT}", "jwt"),
    ("DATABASE_URL=postgres://app:" + "s3cr3tPW@db.internal:5432/prod", "url_password"),
    ("amqp://guest:" + "Gu3st!2024@rabbit/", "url_password"),
    ("the wifi password is hunter22", "password"),
    ("DB password: Sup3r-Secret!", "password"),
    ("api_key=Q2hhbmdlTWUx", "password"),
    ("client secret = aBcD9fGh", "password"),
    ("card 4556 7375 8143 1233, exp 12/29", "card_number"),
    ("amex 3714-496353-98472", "card_number"),
    ("paid with 5222222222224447 yesterday", "card_number"),
    ("IBAN DE23 5001 0517 5432 1098 76 (Sparkasse)", "iban"),
    ("send it to GB07NWBK40512098765432", "iban"),
    ("IBAN DE23 5001 0517 5432 1098 76 EUR", "iban"),
    ("card 4556 7375 8143 1233 2029", "card_number"),
]


@pytest.mark.parametrize(("text", "kind"), KINDS)
def test_each_kind_is_found(text: str, kind: str) -> None:
    assert [f.kind for f in find_secrets(text)] == [kind]


NEAR_MISSES = [
    "order number 4111111111111112 shipped",  # 16 digits, fails Luhn
    "order 4111-1111-1111-1112",
    "tracking 1234567812345670",  # passes Luhn, but no card network's prefix
    "timestamp 1733526000000 in ms",
    # an identifier with a counter: a Luhn-valid Visa-like run inside an id (CI's sleep test
    # wrote 3,000 subjects "bulk:<hex>-<n>"; those whose hex was digits were refused)
    "subject bulk:4532015112-103",
    "user:4532015112103",
    "run 4532-0151-12103",
    "call +44 20 7946 0958 0123",
    "I clicked the password reset link",
    "a token economy for the classroom",
    "the secret is out",
    "the password is required",
    "Password: ********",
    "password: <redacted>",
    "token: ${API_TOKEN}",
    "pwd: ./projects/site",
    "postgres://user:password@localhost/db",  # the documentation's placeholder
    "postgres://app@db.internal/prod",  # no password
    "https://example.com/a:b@c",  # '@' in the path, no userinfo
    "IBAN DE89 3704 0044 0532 0130 01",  # fails mod-97
    "sk_live_short",  # too short for a key
    "risk-score 0.91; sk-learn was used",
    "eyJhbGciOiJIUzI1NiJ9 alone is a header, not a token",
    "-----BEGIN PUBLIC KEY-----",
    "2024-02-14 14:00 to 2024-02-28 14:00",
]


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses_are_not_found(text: str) -> None:
    assert find_secrets(text) == []


def test_luhn_and_mod97() -> None:
    assert luhn_ok("4111111111111111") and not luhn_ok("4111111111111112")
    assert iban_ok("GB82WEST12345698765432") and not iban_ok("GB82WEST12345698765433")
    assert not iban_ok("GB82WEST1234569876543")  # one character short for GB


def test_the_span_covers_the_secret() -> None:
    text = "use AKIA" + "Q3XGZ7MPL2RT4VWY now"
    (found,) = find_secrets(text)
    assert text[found.start : found.end] == "AKIA" + "Q3XGZ7MPL2RT4VWY"


def test_scan_names_field_paths_and_kinds_never_values() -> None:
    card = "4556 7375 8143 1233"
    payload = {
        "assertions": [
            {"subject": "acct:1", "object": "fine", "evidence": {"quote": "fine"}},
            {"subject": "acct:2", "object": "ok", "evidence": {"quote": f"card {card}"}},
        ],
        "after": {"db_password": "hunter22", "count": 5, "token_count": 12},
        "before": {"sk_" + "live_ABCDEFGHIJKLMNOP": True},
        "number": 4556737581431233,
    }
    hits = {(h.field, h.kind) for h in scan(payload)}
    assert hits == {
        ("body.assertions[1].evidence.quote", "card_number"),
        ("body.after.db_password", "password"),
        ("body.before.<name>", "stripe_key"),
        ("body.number", "card_number"),
    }
    with pytest.raises(SecretDetected) as refused:
        refuse_secrets(payload, "refuse")
    said = json.dumps([refused.value.message, refused.value.details])
    assert refused.value.code == "secret_detected"
    assert card not in said and "hunter22" not in said and "ABCDEFGHIJKLMNOP" not in said
    assert refused.value.details["count"] == 4
    refuse_secrets(payload, "allow")  # stored as sent: no refusal


def test_a_clean_payload_passes() -> None:
    payload = {"text": "I ran a charity 5K last weekend.", "speaker": "Mia"}
    assert scan(payload) == []
    refuse_secrets(payload, "refuse")  # raises on a secret


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


BENCHMARK_TEXTS = [
    ROOT / "bench" / "trials" / "conversations.json",
    ROOT / "bench" / "team" / "corpus.json",
    ROOT / "bench" / "team" / "questions.json",
]


@pytest.mark.parametrize("path", BENCHMARK_TEXTS, ids=lambda p: p.parent.name + "/" + p.name)
def test_no_false_positive_on_the_benchmark_texts(path: Path) -> None:
    """Conversations new users wrote and the team corpus (tool results, tickets, bookings,
    invoices, dates and references): not one secret."""
    texts = set(_strings(json.loads(path.read_text(encoding="utf-8"))))
    assert len(texts) > 300
    found = [(t[:80], f.kind) for t in texts for f in find_secrets(t)]
    assert found == []
