"""An utterance (`said`) is a slot of its own per observation: the same sentence by the same
speaker in another turn, in another conversation or later in this one, never ends it. Before,
the two shared a slot and the later one closed the earlier at its own time: a reply made only
of a sentence said elsewhere vanished from recall in its conversation. Migration 15 re-keys an
older store and marks what the old rule ended; `tractatus redistill` makes it current again."""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from typing import Any

import pytest
from neo4j import Driver

from graph_schema.ledger.types import AssertionWrite
from graph_schema.schema import cypher as schema_cypher
from graph_schema.schema import migrations
from graph_schema.schema.types import Predicate
from ingest import writer
from ingest.distill.offline import OfflineDistiller
from ingest.embeddings.embedder import make_embedder
from ingest.redistill import Run, redistill
from server.settings import Settings
from tests.helpers import Api, count_nodes, turn

pytestmark = pytest.mark.integration

REPLY = "I went there with my sister."
LEGACY_SLOT_KEY = writer.slot_key


def _legacy_slot_key(
    item: AssertionWrite, predicate: Predicate, access_all: Sequence[str] = ()
) -> str:
    """The slot rule of the versions before migration 15: no observation in the key."""
    return re.sub(r"@[^+]*", "", LEGACY_SLOT_KEY(item, predicate, access_all))


def _observe(api: Api, body: dict[str, Any]) -> str:
    response = api.post("/v1/observations", body)
    assert response.status_code == 201, response.text
    return str(response.json()["observation_id"])


def _two_conversations(api: Api, speaker: str, word: str) -> dict[str, str]:
    """The reply said at 13:03 in one conversation, then at 13:01 in another."""
    first, second = f"conv-{uuid.uuid4().hex[:8]}", f"conv-{uuid.uuid4().hex[:8]}"
    ask = f"Did you go to the {word} festival?"
    _observe(api, turn(first, 2, "Zed", ask))
    earlier = _observe(api, turn(first, 3, speaker, REPLY))
    _observe(api, turn(second, 0, "Zed", ask))
    later = _observe(api, turn(second, 1, speaker, REPLY))
    return {first: earlier, second: later}


def _current_utterances(api: Api, speaker: str) -> set[str]:
    response = api.get("/v1/facts", subject=speaker, predicate="said")
    assert response.status_code == 200, response.text
    return {f["evidence"][0]["observation_id"] for f in response.json()["facts"]}


def _found_in(api: Api, conversation: str, word: str) -> list[str]:
    response = api.post(
        "/v1/recall",
        {
            "query": f"Who did Mia go to the {word} festival with?",
            "filters": {"conversation_id": conversation},
        },
    )
    assert response.status_code == 200, response.text
    return [r["evidence"][0]["observation_id"] for r in response.json()["results"]]


def test_the_same_sentence_in_two_turns_ends_neither(api: dict[str, Api]) -> None:
    speaker, word = f"Mia{uuid.uuid4().hex[:6]}", f"zq{uuid.uuid4().hex[:6]}"
    replies = _two_conversations(api["alice"], speaker, word)
    assert _current_utterances(api["bob"], speaker) == set(replies.values())
    for conversation, reply in replies.items():
        assert reply in _found_in(api["bob"], conversation, word)


def test_an_older_store_is_rekeyed_and_redistill_makes_the_ended_utterance_current(
    api: dict[str, Api], driver: Driver, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    speaker, word = f"Mia{uuid.uuid4().hex[:6]}", f"zq{uuid.uuid4().hex[:6]}"
    monkeypatch.setattr(writer, "slot_key", _legacy_slot_key)
    replies = _two_conversations(api["alice"], speaker, word)
    monkeypatch.undo()
    (first, earlier), (second, later) = replies.items()
    # what the old rule left: the later write, earlier in valid time, was closed at 13:03
    assert _current_utterances(api["bob"], speaker) == {earlier}
    # (recall in the second conversation still reaches the later turn: its "sister", which
    # the first conversation's reply restates, is cited by the restated version's evidence,
    # docs/semantics.md; the ended utterance is what the old rule lost, read above)

    db = settings.neo4j_database
    driver.execute_query(schema_cypher.SET_SCHEMA_VERSION, version=14, database_=db)
    assert migrations.migrate(driver, database=db) == [
        m.version for m in migrations.MIGRATIONS if m.version >= 15
    ]
    embedder = make_embedder(settings.embedding_model, batch_size=16, processes=False)
    run = Run(driver, db, OfflineDistiller(), embedder)
    summary = redistill(run, conversation=second)
    # both turns of the second conversation: Zed's question was said in the first one too;
    # and the reply's "sister" (13:01), which the first conversation's reply (13:03) restates
    # whatever the order of arrival (docs/semantics.md, "A restatement keeps the start"), is
    # written again: its version read at ingest is superseded
    assert (summary.observations, summary.written, summary.retracted) == (2, 3, 0)
    assert redistill(run, conversation=first).observations == 0  # nothing of it was ended

    assert _current_utterances(api["bob"], speaker) == {earlier, later}
    assert later in _found_in(api["bob"], second, word)
    assert earlier in _found_in(api["bob"], first, word)
    nodes = count_nodes(driver, "Assertion")
    assert redistill(run, conversation=second).observations == 0
    driver.execute_query(schema_cypher.SET_SCHEMA_VERSION, version=14, database_=db)
    assert migrations.migrate(driver, database=db) == [
        m.version for m in migrations.MIGRATIONS if m.version >= 15
    ]  # a second run finds nothing to do
    assert redistill(run, conversation=second).observations == 0
    assert count_nodes(driver, "Assertion") == nodes
