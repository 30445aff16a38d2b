"""A restatement in another conversation carries the evidence of the version it restates.

A new user's trial: alice's conversation said "I moved to Tallinn last year" (lives_in Tallinn
from 2025-01-01); bob, in another conversation, said "I live in Tallinn". The restatement kept
the start but its evidence cited bob's turn only, so a recall filtered to alice's conversation
no longer found the fact, and the current version's evidence did not support its start. The
restatement now carries the restated version's evidence too, in either order of arrival, and
never evidence that a reader of the restatement may not read (docs/semantics.md "A
restatement keeps the start").
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from neo4j import Driver

from graph_schema.observations.types import ObservationIn
from ingest.distill.offline import OfflineDistiller
from ingest.redistill import Run, redistill
from server.app import create_app
from server.deps import get_distiller
from server.settings import Settings
from tests.fakes import ScriptedDistiller, serve
from tests.helpers import KEYS, Api

pytestmark = pytest.mark.integration

MOVED = ("I moved to {city} last year.", "2026-09-01T10:00:00Z")
LIVE = ("I live in {city}.", "2026-09-11T10:00:00Z")


def _say(
    api: Api, speaker: str, said: tuple[str, str], city: str, access: list[str] | None = None
) -> str:
    """One turn of a conversation of its own; its conversation id."""
    conversation = f"conv-{uuid.uuid4().hex[:8]}"
    text, at = said
    body = {"text": text.format(city=city), "speaker": speaker, "source_kind": "user_stated",
            "occurred_at": at, "conversation_id": conversation, "access": access or []}  # fmt: skip
    response = api.post("/v1/observations", body)
    assert response.status_code == 201, response.text
    return conversation


def _current(api: Api, speaker: str) -> list[tuple[str, str, list[str]]]:
    """The current lives_in facts: object, start and evidence quotes, as ``api`` reads them."""
    response = api.get("/v1/facts", subject=speaker, predicate="lives_in")
    assert response.status_code == 200, response.text
    return [
        (f["object"], f["valid_from"][:10], [e["quote"] for e in f["evidence"]])
        for f in response.json()["facts"]
    ]


def _history(api: Api, speaker: str) -> list[dict[str, Any]]:
    response = api.get("/v1/facts/history", subject=speaker, predicate="lives_in")
    assert response.status_code == 200, response.text
    versions: list[dict[str, Any]] = response.json()["versions"]
    return versions


@pytest.fixture(scope="module", autouse=True)
def _warm(api: dict[str, Api]) -> None:
    """The first recall of a server loads its models: given more than a request's minute when
    this module runs alone on a busy machine (it timed out)."""
    body = {"query": "Where does anyone live?", "k": 1}
    response = api["public"].client.post("/v1/recall", json=body, timeout=600)
    assert response.status_code == 200, response.text


def _recalled(api: Api, speaker: str, conversation: str) -> list[tuple[str, str]]:
    """The (predicate, object) of the assertions a recall filtered to ``conversation`` gives."""
    response = api.post(
        "/v1/recall",
        {"query": f"Where does {speaker} live?", "k": 10,
         "filters": {"conversation_id": conversation}},
    )  # fmt: skip
    assert response.status_code == 200, response.text
    return [
        (r["assertion"]["predicate"], r["assertion"]["object"]) for r in response.json()["results"]
    ]


@pytest.mark.parametrize("order", ["moved first", "restatement first"])
def test_a_restatement_elsewhere_keeps_the_first_conversation_and_its_words(
    api: dict[str, Api], order: str
) -> None:
    """The trial, in both orders of arrival (a bulk load, a retry): the current version keeps
    the start, cites both turns (its own words first), and both conversations' recall find it;
    history keeps both versions."""
    alice, bob, speaker = api["alice"], api["bob"], f"Rowan{uuid.uuid4().hex[:6]}"
    if order == "moved first":
        first = _say(alice, speaker, MOVED, "Tallinn")
        second = _say(bob, speaker, LIVE, "Tallinn")
    else:
        second = _say(bob, speaker, LIVE, "Tallinn")
        first = _say(alice, speaker, MOVED, "Tallinn")
    words = ["I live in Tallinn.", "I moved to Tallinn last year."]
    for reader in (alice, bob, api["public"]):
        assert _current(reader, speaker) == [("Tallinn", "2025-01-01", words)]
    assert ("lives_in", "Tallinn") in _recalled(alice, speaker, first)
    assert ("lives_in", "Tallinn") in _recalled(bob, speaker, second)
    versions = _history(alice, speaker)
    assert len(versions) >= 2  # append-only: what each arrival wrote stays, superseded
    assert {tuple(e["quote"] for e in v["evidence"]) for v in versions} >= {
        ("I moved to Tallinn last year.",),
        tuple(words),
    }


def test_a_restatement_carries_what_it_restates_along_a_chain(api: dict[str, Api]) -> None:
    """Said a third time, in a third conversation: the version carries all three turns, and
    the first conversation still finds it."""
    alice, bob, speaker = api["alice"], api["bob"], f"Rowan{uuid.uuid4().hex[:6]}"
    first = _say(alice, speaker, MOVED, "Tartu")
    _say(bob, speaker, LIVE, "Tartu")
    third = _say(alice, speaker, ("I live in Tartu now.", "2026-10-01T10:00:00Z"), "Tartu")
    assert _current(alice, speaker) == [
        ("Tartu", "2025-01-01", ["I live in Tartu now.", "I live in Tartu.",
                                 "I moved to Tartu last year."])
    ] or _current(alice, speaker) == [
        ("Tartu", "2025-01-01", ["I live in Tartu now.", "I moved to Tartu last year.",
                                 "I live in Tartu."])
    ]  # fmt: skip
    assert ("lives_in", "Tartu") in _recalled(alice, speaker, first)
    assert ("lives_in", "Tartu") in _recalled(alice, speaker, third)


def test_another_groups_reader_learns_nothing_from_a_restatement(api: dict[str, Api]) -> None:
    """A fact from a finance conversation and the same words said publicly or in sales are
    three slots: the public and the sales versions start when they were said and cite only
    their own turn; finance's fact keeps its start and its conversation finds it."""
    alice, bob, public = api["alice"], api["bob"], api["public"]
    speaker = f"Rowan{uuid.uuid4().hex[:6]}"
    secret = _say(alice, speaker, MOVED, "Narva", access=["finance"])
    _say(bob, speaker, LIVE, "Narva", access=["sales"])
    _say(public, speaker, LIVE, "Narva")
    assert _current(public, speaker) == [("Narva", "2026-09-11", ["I live in Narva."])]
    assert [len(v["evidence"]) for v in _history(public, speaker)] == [1]
    assert sorted(_current(bob, speaker)) == [
        ("Narva", "2026-09-11", ["I live in Narva."]),
        ("Narva", "2026-09-11", ["I live in Narva."]),
    ]
    assert ("Narva", "2025-01-01", ["I moved to Narva last year."]) in _current(alice, speaker)
    assert ("lives_in", "Narva") in _recalled(alice, speaker, secret)
    assert _recalled(bob, speaker, secret) == []
    assert _recalled(public, speaker, secret) == []


def _ids(driver: Driver, speaker: str) -> list[str]:
    records, _, _ = driver.execute_query(
        "MATCH (a:Assertion {subject: $s, predicate: 'lives_in'}) WHERE a.superseded_at IS NULL"
        " RETURN a.id AS id",
        s=speaker,
    )
    return [r["id"] for r in records]


def test_a_version_of_another_scope_lends_neither_its_start_nor_its_words(
    api: dict[str, Api], driver: Driver
) -> None:
    """A slot can only hold another scope's version in a store broken by hand (or written
    before its slot rule): a finance-derived version in the public slot. A public restatement
    neither keeps its start (the public would learn when the finance turn dated the move) nor
    carries its evidence; it starts when it was said."""
    alice, public, speaker = api["alice"], api["public"], f"Rowan{uuid.uuid4().hex[:6]}"
    _say(alice, speaker, MOVED, "Parnu")
    [held] = _ids(driver, speaker)
    driver.execute_query(
        "MATCH (a:Assertion {id: $id})-[:EVIDENCED_BY]->(e:Evidence)"
        " SET a.access_all = ['finance'], e.access_all = ['finance']",
        id=held,
    )
    _say(public, speaker, LIVE, "Parnu")
    assert _current(public, speaker) == [("Parnu", "2026-09-11", ["I live in Parnu."])]
    assert ("Parnu", "2026-09-11", ["I live in Parnu."]) in _current(alice, speaker)


def test_evidence_its_readers_may_not_read_is_never_carried(
    api: dict[str, Api], driver: Driver
) -> None:
    """Evidence of the restated version that a reader of the restatement may not read (an
    evidence node or its observation narrowed by hand) stays where it is: the restatement
    keeps the start it shares a scope with, and cites its own words only."""
    alice, public, speaker = api["alice"], api["public"], f"Rowan{uuid.uuid4().hex[:6]}"
    _say(alice, speaker, MOVED, "Rakvere")
    [held] = _ids(driver, speaker)
    driver.execute_query(
        "MATCH (:Assertion {id: $id})-[:EVIDENCED_BY]->(:Evidence)-[:FROM]->(o:Observation)"
        " SET o.access = ['finance']",
        id=held,
    )
    _say(public, speaker, LIVE, "Rakvere")
    assert _current(public, speaker) == [("Rakvere", "2025-01-01", ["I live in Rakvere."])]
    [current] = _ids(driver, speaker)
    records, _, _ = driver.execute_query(
        "MATCH (:Assertion {id: $id})-[:EVIDENCED_BY]->(e:Evidence) RETURN count(e) AS n",
        id=current,
    )
    assert records[0]["n"] == 1


def _misread(observation: ObservationIn) -> list[dict[str, Any]]:
    """An older distiller that took "I have been to X" for where the speaker lives."""
    text = observation.text
    if not text.startswith("I have been to "):
        return []
    city = text.removeprefix("I have been to ").rstrip(".")
    return [{"subject": observation.speaker, "predicate": "lives_in", "object": city,
             "confidence": 0.9, "quote": text, "start": 0, "end": len(text)}]  # fmt: skip


def test_redistill_withdraws_a_misread_restatement_by_its_own_words(
    api: dict[str, Api], settings: Settings, driver: Driver
) -> None:
    """A restatement an older distiller misread carries the evidence of the version it
    restates; ``tractatus redistill`` of its turn reads it as that turn's alone, and withdraws
    it with that turn's words (it took the carried quote for one of the turn's, and a
    retraction quoting another turn's words failed)."""
    app = create_app(settings)
    app.dependency_overrides[get_distiller] = lambda: ScriptedDistiller(_misread)
    speaker = f"Rowan{uuid.uuid4().hex[:6]}"
    _say(api["alice"], speaker, MOVED, "Viljandi")
    with serve(app) as url:
        misread = _say(Api(url, KEYS["public"]), speaker, ("I have been to {city}.", LIVE[1]),
                       "Viljandi")  # fmt: skip
    words = ["I have been to Viljandi.", "I moved to Viljandi last year."]
    assert _current(api["public"], speaker) == [("Viljandi", "2025-01-01", words)]
    run = Run(driver, settings.neo4j_database, OfflineDistiller(), None)
    summary = redistill(run, conversation=misread)
    assert (summary.observations, summary.retracted) == (1, 1)
    withdrawn = [v for v in _history(api["public"], speaker) if not v["polarity"]]
    assert [[e["quote"] for e in v["evidence"]] for v in withdrawn] == [words[:1]]
