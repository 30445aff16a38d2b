"""A distiller's withdrawal of a pet by its kind reaches the one held by name.

A new user's trial: "I have a cat named Biscuit." wrote ``has_pet <S>/cat:Biscuit``; a later
"I don't have a cat anymore." wrote ``has_pet <S>/cat``, ``polarity: false``, a value that
never held, and Biscuit stayed current. The distiller sees one text, so the writer moves the
withdrawal of ``<S>/cat`` to the one named cat its subject holds (docs/distillers.md).
"""

from __future__ import annotations

import uuid

import pytest

from tests.helpers import Api, assertion, turn

pytestmark = pytest.mark.integration


def _pets(api: Api, subject: str) -> list[str | None]:
    body = api.get("/v1/facts", subject=subject, predicate="has_pet").json()
    return sorted(f["object"] for f in body["facts"])


def _chat(api: Api, *texts: str) -> tuple[str, list[dict[str, object]]]:
    conversation, speaker = f"conv-{uuid.uuid4().hex[:8]}", f"Sam{uuid.uuid4().hex[:6]}"
    bodies = []
    for n, text in enumerate(texts, start=1):
        response = api.post("/v1/observations", turn(conversation, n, speaker, text))
        assert response.status_code == 201, response.text
        bodies.append(response.json())
    return speaker, bodies


def _withdrawn(body: dict[str, object]) -> list[tuple[str, bool]]:
    written = body["assertions"]
    assert isinstance(written, list)
    return [
        (a["assertion"]["object"], a["assertion"]["polarity"])
        for a in written
        if a["assertion"]["predicate"] == "has_pet"
    ]


def test_a_pet_no_longer_had_withdraws_the_one_named_cat(api: dict[str, Api]) -> None:
    alice = api["alice"]
    speaker, bodies = _chat(alice, "I have a cat named Biscuit.", "I don't have a cat anymore.")
    assert _withdrawn(bodies[1]) == [(f"{speaker}/cat:Biscuit", False)]
    assert _pets(alice, speaker) == []
    history = alice.get("/v1/facts/history", subject=speaker, predicate="has_pet").json()
    assert [(v["object"], v["polarity"]) for v in history["versions"]] == [
        (f"{speaker}/cat:Biscuit", True),
        (f"{speaker}/cat:Biscuit", False),
    ]


def test_two_named_cats_or_an_unnamed_one_keep_the_withdrawal_as_said(
    api: dict[str, Api],
) -> None:
    alice = api["alice"]
    two, bodies = _chat(
        alice,
        "I have a cat named Biscuit.",
        "I have a cat named Miso.",
        "I don't have a cat anymore.",
    )
    assert _withdrawn(bodies[2]) == [(f"{two}/cat", False)]
    assert _pets(alice, two) == [f"{two}/cat:Biscuit", f"{two}/cat:Miso"]

    unnamed, bodies = _chat(
        alice, "I have a cat named Biscuit.", "I have a cat.", "I don't have a cat anymore."
    )
    assert _withdrawn(bodies[2]) == [(f"{unnamed}/cat", False)]
    assert _pets(alice, unnamed) == [f"{unnamed}/cat:Biscuit"]


def test_a_dog_withdrawn_leaves_the_named_cat_and_a_writer_names_what_it_withdraws(
    api: dict[str, Api],
) -> None:
    alice = api["alice"]
    speaker, bodies = _chat(alice, "I have a cat named Biscuit.", "I don't have a dog anymore.")
    assert _withdrawn(bodies[1]) == [(f"{speaker}/dog", False)]
    assert _pets(alice, speaker) == [f"{speaker}/cat:Biscuit"]

    # POST /v1/assertions writes what it is sent: the rule is the distiller's drafts'
    kind = assertion(speaker, "has_pet", f"{speaker}/cat", polarity=False)
    written = alice.post("/v1/assertions", kind)
    assert written.status_code == 201, written.text
    assert written.json()["assertion"]["object"] == f"{speaker}/cat"
    assert _pets(alice, speaker) == [f"{speaker}/cat:Biscuit"]
