"""A retraction of a one-valued predicate that names a value withdraws that value only.

A new user's trial: after "I live in Paris.", the turn "I don't live in Berlin." was
distilled into ``lives_in Berlin`` with polarity false, which closed Paris: where the user
lives read ``not_found``. The same through ``POST /v1/assertions``.
"""

from __future__ import annotations

import uuid

import pytest

from tests.helpers import Api, assertion, turn

pytestmark = pytest.mark.integration

JAN, MAY = "2026-01-01T00:00:00Z", "2026-05-01T00:00:00Z"


def _lives(api: Api, subject: str) -> list[str | None]:
    body = api.get("/v1/facts", subject=subject, predicate="lives_in").json()
    return [f["object"] for f in body["facts"]]


def test_a_retraction_naming_another_value_is_refused_and_changes_nothing(
    api: dict[str, Api], subject: str
) -> None:
    alice = api["alice"]
    paris = alice.post("/v1/assertions", assertion(subject, "lives_in", "Paris", valid_from=JAN))
    assert paris.status_code == 201, paris.text
    berlin = assertion(subject, "lives_in", "Berlin", polarity=False, valid_from=MAY)
    refused = alice.post("/v1/assertions", berlin)
    assert refused.status_code == 409, refused.text
    error = refused.json()["error"]
    assert error["code"] == "precondition_failed"
    assert "'Berlin'" in error["message"] and "'Paris'" in error["message"]
    assert error["details"]["current"]["object"] == "Paris"
    assert error["details"]["index"] == 0
    assert _lives(alice, subject) == ["Paris"]
    history = alice.get("/v1/facts/history", subject=subject, predicate="lives_in").json()
    assert [v["object"] for v in history["versions"]] == ["Paris"]

    # the value it names, in any case, and a retraction without an object withdraw it
    named = assertion(subject, "lives_in", "paris", polarity=False, valid_from=MAY)
    assert alice.post("/v1/assertions", named).status_code == 201
    assert _lives(alice, subject) == []
    other = f"{subject}-2"
    assert alice.post("/v1/assertions", assertion(other, "lives_in", "Oslo")).status_code == 201
    bare = assertion(other, "lives_in", None, polarity=False)
    assert alice.post("/v1/assertions", bare).status_code == 201
    assert _lives(alice, other) == []


def test_a_distilled_retraction_of_another_value_is_quarantined_not_written(
    api: dict[str, Api],
) -> None:
    alice = api["alice"]
    conversation, speaker = f"conv-{uuid.uuid4().hex[:8]}", f"Ines{uuid.uuid4().hex[:6]}"
    first = alice.post("/v1/observations", turn(conversation, 1, speaker, "I live in Paris."))
    assert first.status_code == 201, first.text
    assert _lives(alice, speaker) == ["Paris"]
    second = alice.post(
        "/v1/observations", turn(conversation, 2, speaker, "I don't live in Berlin.")
    )
    assert second.status_code == 201, second.text
    body = second.json()
    assert [q["reason"] for q in body["quarantined"]] == ["retraction_mismatch"]
    assert all(a["assertion"]["predicate"] != "lives_in" for a in body["assertions"])
    assert _lives(alice, speaker) == ["Paris"]

    third = alice.post(
        "/v1/observations", turn(conversation, 3, speaker, "I no longer live in Paris.")
    )
    assert third.status_code == 201, third.text
    assert third.json()["quarantined"] == []
    assert _lives(alice, speaker) == []
