"""Adversarial probes against recall and observations: a hidden fact must not change what
another principal gets back (results, scores, ranks, counts), nor be replayed to it."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
import pytest

from tests.helpers import Api
from tests.integration.probes import (
    GROUP,
    PAIRS,
    RESULTS,
    Secret,
    check,
    pair_ids,
    plant,
    without_echo,
)

pytestmark = pytest.mark.integration


def _recall(api: Api, query: str, **extra: Any) -> httpx.Response:
    return api.post("/v1/recall", {"query": query, **extra})


def _stable(response: httpx.Response) -> tuple[int, str]:
    """Recall answers without the echoed coordinates (they move with the clock)."""
    body = response.json()
    body.pop("as_of", None)
    body.pop("known_at", None)
    return response.status_code, json.dumps(body, sort_keys=True)


QUERIES = {
    "exact_value": "{token}",
    "paraphrase": "which tech stack does {subject} use now?",
    "subject_only": "{subject}",
    "old_value": "{token}-old",
}


@pytest.mark.parametrize("owner,prober", PAIRS, ids=pair_ids())
@pytest.mark.parametrize("query", list(QUERIES))
@pytest.mark.parametrize("k", [1, 10, 100])
def test_recall_is_unchanged_by_a_hidden_fact(
    api: dict[str, Api], owner: str, prober: str, query: str, k: int
) -> None:
    token = f"SECRET{uuid.uuid4().hex[:10]}"
    subject = f"probe:{uuid.uuid4().hex[:10]}"
    text = QUERIES[query].format(token=token, subject=subject)
    before = _recall(api[prober], text, k=k)
    secret = plant(api, owner, prober)
    # re-plant under the names the query used, so the query aims exactly at the secret
    body = {
        "subject": subject,
        "predicate": "tech_stack",
        "object": token,
        "source_kind": "user_stated",
        "asserted_by": subject,
        "confidence": 0.9,
        "evidence": {"quote": f"we use {token} now"},
        "access": [GROUP[owner]],
    }
    assert api[owner].post("/v1/assertions", body).status_code == 201
    hidden = api[owner].post(
        "/v1/assertions", {**body, "object": f"{token}-old", "valid_from": "2026-01-01T00:00:00Z"}
    )
    assert hidden.status_code == 201
    after = _recall(api[prober], text, k=k)
    label = f"recall:{query}:k={k}[{owner}->{prober}]"
    RESULTS["attacks"].append(label)
    problems = []
    # `unmentioned` echoes words of the prober's own query (the token, when the query is it):
    # read apart, it must hold nothing but the query's words, and it is compared below
    echoed = after.json().get("unmentioned", [])
    if any(term not in text for term in echoed):
        problems.append(f"unmentioned holds words that are not the query's: {echoed}")
    if token in without_echo(after.text) or secret.token in after.text:
        problems.append("secret value in recall results")
    if _stable(after) != _stable(before):
        b, a = before.json()["results"], after.json()["results"]
        pairs = zip(b, a, strict=False)
        diff = [{k: (x[k], y[k]) for k in x if x[k] != y[k]} for x, y in pairs if x != y][:1]
        problems.append(
            f"recall results changed when a hidden fact was added: {len(b)} vs {len(a)} {diff}"
        )
    if problems:
        RESULTS["leaks"].append(f"{label}: {problems}")
    assert not problems, problems
    # the owner finds it (the probe can fail); scoped, so unrelated data cannot crowd it out
    mine = api[owner].post("/v1/recall", {"query": token, "filters": {"subject": subject}})
    assert mine.text.count(token) >= 1


@pytest.fixture(params=PAIRS, ids=pair_ids())
def secret(request: pytest.FixtureRequest, api: dict[str, Api]) -> Secret:
    owner, prober = request.param
    return plant(api, owner, prober)


def _observation(
    key: str, text: str, access: list[str], speaker: str = "user:probe"
) -> dict[str, Any]:
    return {
        "text": text,
        "speaker": speaker,
        "occurred_at": "2026-06-01T09:00:00Z",
        "source_kind": "user_stated",
        "access": access,
        "idempotency_key": key,
        "conversation_id": "probe-chat",
    }


def test_idempotency_key_of_another_principal(secret: Secret, api: dict[str, Api]) -> None:
    key = f"chat-{uuid.uuid4().hex[:8]}"
    owned = api[secret.owner].post(
        "/v1/observations", _observation(key, f"I use {secret.token}.", [GROUP[secret.owner]])
    )
    assert owned.status_code == 201, owned.text
    secret.ids.append(owned.json()["observation_id"])
    probe = api[secret.prober].post(
        "/v1/observations", _observation(key, "I use Vim.", [], speaker=secret.subject)
    )
    control = api[secret.prober].post(
        "/v1/observations",
        _observation(f"chat-{uuid.uuid4().hex[:8]}", "I use Vim.", [], speaker=secret.control),
    )
    assert probe.status_code == 201
    assert probe.headers.get("idempotent-replayed") == control.headers.get("idempotent-replayed")
    check("observation:foreign-idempotency-key", secret, probe, control)


def test_hidden_observation_by_id(secret: Secret, api: dict[str, Api]) -> None:
    owned = api[secret.owner].post(
        "/v1/observations",
        _observation(
            f"chat-{uuid.uuid4().hex[:8]}", f"I live in {secret.token}.", [GROUP[secret.owner]]
        ),
    )
    hidden_id = owned.json()["observation_id"]
    secret.ids.append(hidden_id)
    probe = api[secret.prober].get(f"/v1/observations/{hidden_id}", context=3)
    control = api[secret.prober].get(f"/v1/observations/{uuid.uuid4().hex.upper()[:26]}", context=3)
    check("observation:get-hidden", secret, probe, control, supplied=(hidden_id,))


@pytest.mark.parametrize("owner,prober", PAIRS, ids=pair_ids())
def test_a_hidden_rival_statement_does_not_move_a_question_about_a_person(
    api: dict[str, Api], owner: str, prober: str
) -> None:
    """The contrast (docs/recall.md "Threshold") reads the other people's statements: one the
    prober may not see must change nothing of the answer, status and ``person`` included."""
    chat = f"probe-chat-{uuid.uuid4().hex[:8]}"
    person, rival = f"Tom{uuid.uuid4().hex[:6]}", f"Ana{uuid.uuid4().hex[:6]}"
    token = f"SECRET{uuid.uuid4().hex[:10]}"

    def say(n: int, speaker: str, text: str, access: list[str]) -> None:
        body = {**_observation(f"{chat}:{n}", text, access, speaker), "conversation_id": chat}
        body["occurred_at"] = f"2026-06-01T09:0{n}:00Z"
        assert api[owner].post("/v1/observations", body).status_code == 201

    say(1, person, "I tried surfing once last summer and mostly fell off the board.", [])
    say(2, rival, "My brother repairs old radios in his garage.", [])
    question = f"How does {person} feel while surfing?"
    body = {"query": question, "filters": {"conversation_id": chat}}
    before = api[prober].post("/v1/recall", body)
    say(
        0,
        rival,
        f"Surfing makes me feel free, {token}; while surfing I forget everything.",
        [GROUP[owner]],
    )
    after = api[prober].post("/v1/recall", body)
    label = f"recall:contrast[{owner}->{prober}]"
    RESULTS["attacks"].append(label)
    problems = []
    if token in after.text:
        problems.append("secret value in recall results")
    if _stable(after) != _stable(before):
        problems.append(f"the answer moved: {before.json()['person']} -> {after.json()['person']}")
    if problems:
        RESULTS["leaks"].append(f"{label}: {problems}")
    assert not problems, problems
    # the owner sees the rival statement and is told the question is not about Tom's own words
    seen = api[owner].post("/v1/recall", body).json()
    assert seen["status"] == "not_found" and seen["person"]["name"] == person, seen["person"]
