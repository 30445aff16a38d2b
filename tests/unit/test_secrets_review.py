"""The secret finder after a new user's review of it (docs/security.md "Secrets"): keys right
after ``_`` or ``-`` (inside ids, file names, env-style names) and env-file lines were stored;
bare "token", paths, references to a secret manager, lines of code, placeholders and the
vendors' published examples were refused. Also the goals and the observation ``kind`` the
same review stored blank or with a NUL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from graph_schema.core.errors import SecretDetected
from graph_schema.core.secrets import (
    EXAMPLE_IBANS,
    TEST_CARDS,
    find_secrets,
    iban_ok,
    luhn_ok,
    refuse_secrets,
    scan,
)
from graph_schema.core.types import TEXT_PATTERN
from graph_schema.events.types import EventWrite
from graph_schema.lifecycle.types import TaskStart
from graph_schema.observations.types import ObservationIn

ROOT = Path(__file__).resolve().parents[2]

# built from parts, so that no scanner reading this file takes them for real credentials
KEYS = {
    "github_token": "ghp_" + "Gop52rzQnACaODCb8ydNvCHWcTDJKbtatwxx",
    "stripe_key": "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc",
    "google_api_key": "AIza" + "cq6xpL4J5PxpTyDy7rhrUHxFTSMCwO9FvDB",
    "openai_key": "sk-" + "proj-" + "LAv-X0LTcWWGnIQZGr4mRsQQKSjLQBio90qDEC0fnJwG2eRj",
    "tractatus_key": "tr_" + "live_" + "Zx9-Qw_8Ab3kLm2Qp7Rt",
    "jwt": "eyJhbGciOiJIUzI1NiJ9"
    + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0"
    + ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9P",
    "aws_access_key": "AKIA" + "Q3XGZ7MPL2RT4VWY",
    "slack_token": "xoxb-" + "123456789012-" + "Ab3dEf9hIjKlMnOpQrStUv",
}


@pytest.mark.parametrize("joiner", ["_", "-"])
@pytest.mark.parametrize("kind", sorted(KEYS))
def test_a_key_right_after_an_underscore_or_a_hyphen_is_found(kind: str, joiner: str) -> None:
    """The review's matrix: ``ghp_``, ``sk_live_``, ``tr_live_`` after ``_``, ``AIza``,
    ``sk-proj-`` and a JWT after ``_`` and ``-`` were stored (a task id
    ``h4-rep7938-sk-proj-...``, a field named ``note_ghp_...``)."""
    for text in (
        f"x{joiner}{KEYS[kind]}",
        f"h4-rep7938{joiner}{KEYS[kind]}",
        f"note{joiner}{KEYS[kind]}.txt",
    ):
        assert [f.kind for f in find_secrets(text)] == [kind], text
    hits = scan({f"note{joiner}{KEYS[kind]}": 1, "task_id": f"build{joiner}{KEYS[kind]}"})
    assert {(h.field, h.kind) for h in hits} == {("body.<name>", kind), ("body.task_id", kind)}


ORDINARY_IDENTIFIERS = [
    "risk-assessment-framework-for-q3-vendors-list",
    "task-checkout-8841-retry-attempt-number-three-final",
    "homework_test_questionnaire_answers",
    "disk_test_throughput20261207results",
    "str_test_utilities_module_for_parsing",
    "network_test_latency2026report",
    "build-sk-learn-pipeline-for-the-churn-model-v2",  # sk- after a hyphen, all small letters
    "note_sk_test_integration_suite_2026",
    "my_ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    "desk-booking-confirmation-2026-12-07-floor-3-seat-41",
]


@pytest.mark.parametrize("text", ORDINARY_IDENTIFIERS)
def test_ordinary_identifiers_with_a_prefix_inside_are_not_keys(text: str) -> None:
    """A key after ``_`` or ``-`` counts when its generated part mixes capitals and small
    letters; kebab- and snake-case words do not."""
    assert find_secrets(text) == []


ENV_LINES = [
    "DB_PASSWORD=Sup3rS3cret!x",
    "DB_PASSWORD: Sup3rS3cret!x",
    "db_password=Sup3rS3cret!x",
    "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz9Kq1",
    "GITHUB_TOKEN=abc123def456",
    "NPM_TOKEN: npm_abc123def456",
    "STRIPE_SECRET=Xk9-2mPq-77aa",
    "MYSQL_PWD=abc123XYZ",
    "door passcode is 90210#",  # digits and a symbol: a PIN
    "redis://:" + "50dla9UJ1t7VwS2YKDZb7@cache.internal:6379/0",  # no user name
    "iban fr76 3000 6000 0112 3456 7890 189",  # small letters
    "iban fr7630006000011234567890189",
    # an unsecured JWT (its third part empty): refused, see docs/security.md
    "id token eyJhbGciOiJub25lIn0" + ".eyJzdWIiOiJ1c2VyLTg4MSJ9" + ".",
]


@pytest.mark.parametrize("text", ENV_LINES)
def test_env_file_lines_and_the_smaller_misses_are_found(text: str) -> None:
    """The review stored each of these (``NAME_PASSWORD=...`` in the form of a pasted ``.env``
    or shell line; ``PASSWORD=...`` alone was refused)."""
    assert len(find_secrets(text)) == 1, text


def test_a_card_number_sent_as_a_json_float_is_found() -> None:
    """``{"n": 4153619811348501.0}`` was stored while the same integer was refused."""
    assert [(h.field, h.kind) for h in scan({"after": {"n": 4556737581431233.0}})] == [
        ("body.after.n", "card_number")
    ]
    assert scan({"after": {"ratio": 0.25, "n": 1.0e3}}) == []


def test_an_env_style_field_name_reads_as_its_keyword() -> None:
    hits = scan({"GITHUB_TOKEN": "abc123def456", "MAX_TOKENS": "128000", "token_count": "4096"})
    assert [(h.field, h.kind) for h in hits] == [("body.GITHUB_TOKEN", "password")]


NOT_SECRETS = [
    # "token" alone is no keyword (docs: auth, access, refresh, bearer token)
    "token: 128000",
    "max_token: 128000",
    "MAX_TOKENS=128000",
    "https://example.com/reset?token=3f2b1c4e9a7d",
    "token = get_token(user_id)",
    "Token: ABC-123",
    "session token: x9-2026-12",
    # an anti-forgery token is no credential alone: not refused, in any spelling
    "csrf token=8f3a2b1c4d",
    "csrf_token=8f3a2b1c4d",
    "CSRF_TOKEN=8f3a2b1c4d",
    # paths
    "pwd=C:\\Users\\alice",
    "pwd: C:/Users/alice",
    "pwd: ../build-2026",
    "pwd: \\\\fileserver\\share\\alice",
    # a reference to where the secret is kept
    "secret = arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-AbCdEf",
    "password: op://Private/prod-db/password",
    "password: vault://secret/prod/db",
    # code: a call, an index, an environment or attribute lookup
    "api_key = os.environ['OPENAI_API_KEY']",
    'api_key = os.getenv("STRIPE_KEY")',
    "token = process.env.API_TOKEN",
    "access_key=config.get('aws.access_key')",
    "secret_key = settings.SECRET_KEY",
    "password = input('Password: ')",
    "password = self.password",
    # a variable's name or a placeholder
    "api key = YOUR_API_KEY",
    "API_KEY=your-api-key-here",
    "set SLACK_BOT_TOKEN to xoxb-your-bot-token",
    # the vendors' published examples
    "example from AWS docs: AKIA" + "IOSFODNN7EXAMPLE",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY",
    "example card from Stripe docs: 4242 4242 4242 4242",
    "card 4111 1111 1111 1111, exp 12/29",
    "serial 3530111333300000 on the router",
    "meter reading 4012888888881881 kWh cumulative",
    "example IBAN from the docs: GB82 WEST 1234 5698 7654 32",
    "IBAN DE89 3704 0044 0532 0130 00",
    # digits and separators: a date, not a PIN
    "the password was 2024-02-14",
]


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_what_the_review_found_refused_and_is_no_secret(text: str) -> None:
    assert find_secrets(text) == [], text


STILL_SECRETS = [
    "auth token: x9-2026-12",
    "access_token=3f2b1c4e9a7d",
    "https://app.example.com/callback#access_token=3f2b1c4e9a7d",
    "refresh token = Ab3dEf9hIj",
    "bearer_token: Zx9kLm2Qp7",
    "api token is Q2hhbmdlTWUx",
    "password = 'Sup3rS3cret!x'",
    "password = Pass(word)9",  # not an identifier before the parenthesis
    "door passcode is 902107",
]


@pytest.mark.parametrize("text", STILL_SECRETS)
def test_what_the_docs_list_is_still_found(text: str) -> None:
    assert [f.kind for f in find_secrets(text)] == ["password"], text


def test_the_published_examples_are_valid_cards_and_ibans() -> None:
    """The exempt numbers are real shapes (else exempting them would change nothing)."""
    assert all(luhn_ok(card) for card in TEST_CARDS)
    assert all(iban_ok(iban) for iban in EXAMPLE_IBANS)


def test_a_secret_in_the_idempotency_key_header_is_refused_by_name() -> None:
    header = {"idempotency-key": "deploy-AKIA" + "CXBO6U4S1YBK7XYZ"}
    with pytest.raises(SecretDetected) as refused:
        refuse_secrets({"subject": "x"}, "refuse", headers=header)
    assert refused.value.details == {
        "secrets": [{"field": "header.idempotency-key", "kind": "aws_access_key"}],
        "count": 1,
    }
    assert "CXBO6U4S1YBK7XYZ" not in json.dumps([refused.value.message, refused.value.details])
    refuse_secrets({"subject": "x"}, "refuse", headers={"idempotency-key": "deploy-2026-12-07"})
    refuse_secrets({"subject": "x"}, "refuse", headers={"idempotency-key": None})
    refuse_secrets({"subject": "x"}, "allow", headers=header)


def _distill_label_texts() -> set[str]:
    texts: set[str] = set()

    def strings(value: Any) -> None:
        if isinstance(value, str):
            texts.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                strings(item)
        elif isinstance(value, list):
            for item in value:
                strings(item)

    for path in sorted((ROOT / "bench" / "distill-labels").rglob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                strings(json.loads(line))
    return texts


def test_no_false_positive_on_the_distillers_labelled_sentences() -> None:
    """The distiller's labelled sentences (LoCoMo turns and notes), measured with the trials
    and team corpora (tests/unit/test_secrets.py): not one secret."""
    texts = _distill_label_texts()
    assert len(texts) > 1_000
    assert [(t[:80], f.kind) for t in texts for f in find_secrets(t)] == []


# --- goals and kinds: not blank and without NUL, like every other stored text -----------------

GOAL = {"task_id": "t1", "goal": "ship it"}
EVENT = {
    "task_id": "t1",
    "actor": "a",
    "action": "step",
    "outcome": "success",
    "root": True,
    "occurred_at": "2026-12-07T02:00:00Z",
    "goal": "ship it",
}
OBSERVATION = {
    "text": "hello",
    "speaker": "u",
    "occurred_at": "2026-12-07T02:00:00Z",
    "source_kind": "user_stated",
}


@pytest.mark.parametrize("bad", ["   ", "a\x00b", "\u3000\n"])
def test_a_blank_or_nul_goal_or_kind_is_refused(bad: str) -> None:
    """The review stored a task goal ``"   "`` and ``"a\\u0000b"``, an event goal with a NUL
    and an observation of ``kind`` ``""``, while docs/api.md says "not blank and without NUL"."""
    with pytest.raises(ValidationError):
        TaskStart.model_validate({**GOAL, "goal": bad})
    with pytest.raises(ValidationError):
        EventWrite.model_validate({**EVENT, "goal": bad})
    for kind in (bad, ""):
        with pytest.raises(ValidationError):
            ObservationIn.model_validate({**OBSERVATION, "kind": kind})
    assert TaskStart.model_validate(GOAL).goal == "ship it"
    assert EventWrite.model_validate(EVENT).goal == "ship it"
    assert ObservationIn.model_validate({**OBSERVATION, "kind": "note"}).kind == "note"


def test_the_openapi_document_states_the_goal_and_kind_pattern() -> None:
    """The committed document (tests/unit/test_openapi.py holds it equal to the served one)."""
    document = json.loads((ROOT / "docs" / "openapi.json").read_text(encoding="utf-8"))
    schemas = document["components"]["schemas"]
    task_goal = schemas["TaskStart"]["properties"]["goal"]["anyOf"][0]
    event_goal = schemas["EventWrite"]["properties"]["goal"]["anyOf"][0]
    kind = schemas["ObservationIn"]["properties"]["kind"]
    for schema in (task_goal, event_goal, kind):
        assert schema["pattern"] == TEXT_PATTERN and schema["minLength"] == 1, schema
