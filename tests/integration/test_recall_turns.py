"""Recall over conversation turns: passages with the previous turn as context, one result per
turn, neighbouring turns, and hidden turns that change nothing for those who cannot see them."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from neo4j import Driver

from graph_schema.core.types import Principal
from graph_schema.schema.ontology import predicate_map
from ingest.observations import Context, ingest_observations
from server.settings import Settings
from tests.fakes import SaidDistiller
from tests.helpers import Api, assertion, recall_in, turn

pytestmark = pytest.mark.integration


def observe(
    api: Api, conversation: str, n: int, speaker: str, text: str, access: list[str] | None = None
) -> str:
    response = api.post("/v1/observations", turn(conversation, n, speaker, text, access))
    assert response.status_code == 201, response.text
    observation_id: str = response.json()["observation_id"]
    return observation_id


def index(api: dict[str, Api], conversation: str) -> None:
    response = api["admin"].post(
        "/v1/recall/index", {"conversation_id": conversation, "max_batches": 5}
    )
    assert response.status_code == 200, response.text
    assert response.json()["pending"] == 0


def turns(answer: dict[str, Any]) -> list[str]:
    return [r["evidence"][0]["observation_id"] for r in answer["results"]]


ask = recall_in


@pytest.fixture
def conversation(api: dict[str, Api]) -> dict[str, str]:
    conv = f"conv-{uuid.uuid4().hex[:8]}"
    word = f"zq{uuid.uuid4().hex[:6]}"
    t1 = observe(api["alice"], conv, 1, "Zed", f"Did you go to the {word} festival last weekend?")
    t2 = observe(api["alice"], conv, 3, "Mia", "Yes! I went with my sister. We loved it.")
    t3 = observe(api["alice"], conv, 5, "Zed", "That sounds wonderful, I am glad.")
    index(api, conv)
    return {"id": conv, "word": word, "t1": t1, "t2": t2, "t3": t3}


def test_a_reply_is_found_through_the_question_it_answers(
    api: dict[str, Api], conversation: dict[str, str]
) -> None:
    c = conversation
    answer = ask(api["bob"], f"Who did Mia go to the {c['word']} festival with?", c["id"])
    assert answer["status"] == "answered"
    found = turns(answer)
    assert c["t2"] in found[:2]
    assert len(found) == len(set(found)), "one result per turn"
    reply = answer["results"][found.index(c["t2"])]
    assert reply["assertion"]["subject"] == "Mia"
    assert "vector" in reply["why"]["sources"]


def test_why_describes_the_turn_itself_not_the_context_that_found_it(
    api: dict[str, Api], conversation: dict[str, str]
) -> None:
    c = conversation
    answer = ask(api["bob"], f"{c['word']} festival", c["id"])
    by_turn = dict(zip(turns(answer), answer["results"], strict=True))
    assert by_turn[c["t1"]]["why"]["coverage"] == 1.0
    reply = by_turn[c["t2"]]["why"]
    assert "context_fulltext" in reply["ranks"], "found through its previous turn"
    assert reply["coverage"] == 0.0, "the reply itself names neither word"


def test_hidden_turn_is_never_context_neighbour_or_result(
    api: dict[str, Api], conversation: dict[str, str]
) -> None:
    c = conversation
    query = f"Who did Mia go to the {c['word']} festival with?"
    before = ask(api["bob"], query, c["id"])
    secret = f"zq{uuid.uuid4().hex[:6]}"
    hidden = observe(
        api["alice"],
        c["id"],
        2,
        "Mia",
        f"The {c['word']} {secret} merger is on.",
        access=["finance"],
    )
    index(api, c["id"])
    after = ask(api["bob"], query, c["id"])
    strip = [(r["assertion"]["id"], r["score"], r["why"]) for r in after["results"]]
    assert strip == [(r["assertion"]["id"], r["score"], r["why"]) for r in before["results"]]
    assert hidden not in turns(ask(api["bob"], f"{secret} merger", c["id"]))
    assert turns(ask(api["alice"], f"{secret} merger", c["id"]))[0] == hidden


def test_neighbouring_turns_are_offered_by_graph_expansion(
    api: dict[str, Api], conversation: dict[str, str]
) -> None:
    """The question holds every word of the query; its reply, which holds none, comes with it
    through its context and the graph. Which of the two ranks first is the rerank's call (it
    varies with the made-up word's embedding), so the test asks for both at the top."""
    c = conversation
    answer = ask(api["bob"], f"{c['word']} festival last weekend", c["id"])
    found = turns(answer)
    assert set(found[:2]) == {c["t1"], c["t2"]}
    reply = answer["results"][found.index(c["t2"])]
    assert reply["why"]["coverage"] == 0.0, "the reply holds none of the query's words"
    assert any("graph" in r["why"]["boosts"] for r in answer["results"])


def test_index_is_idempotent(api: dict[str, Api], conversation: dict[str, str]) -> None:
    response = api["admin"].post("/v1/recall/index", {"conversation_id": conversation["id"]})
    assert response.json() == {"indexed": 0, "pending": 0}


# --- the turn a result comes from ---------------------------------------------------------------


def test_a_result_carries_the_whole_turn_it_was_distilled_from(api: dict[str, Api]) -> None:
    """The assertion that represents a turn is one sentence of it; what was asked may be in
    another ("Duolingo every morning"): the result carries the turn (failed before: no
    ``turn``, and the answer's text was only the first sentence)."""
    conv = f"conv-{uuid.uuid4().hex[:8]}"
    word = f"zq{uuid.uuid4().hex[:6]}"
    text = f"By the way, I started learning {word} two weeks ago. Duolingo every morning."
    first = observe(api["alice"], conv, 1, "Idris", text)
    observe(api["alice"], conv, 2, "Rosa", "Ganbatte! Are you planning a trip?")
    answer = ask(api["bob"], f"What app does Idris use to learn {word}?", conv, k=2)
    top = answer["results"][0]
    assert top["evidence"][0]["observation_id"] == first
    assert "Duolingo" not in top["assertion"]["object"]  # the sentence that matched
    assert top["turn"] == {
        "observation_id": first,
        "speaker": "Idris",
        "occurred_at": "2023-05-08T13:01:00Z",
        "text": text,
        "start": 0,
        "end": len(text),
        "chars": len(text),
    }
    fact = api["alice"].post("/v1/assertions", assertion(f"user:{word}", "likes", f"{word} tea"))
    assert fact.status_code == 201, fact.text
    structured = api["bob"].post(
        "/v1/recall", {"query": f"{word} tea", "filters": {"subject": f"user:{word}"}}
    )
    assert structured.json()["results"][0]["turn"] is None  # a fact from no observation


def test_a_long_turn_gives_the_window_around_the_results_evidence(api: dict[str, Api]) -> None:
    conv = f"conv-{uuid.uuid4().hex[:8]}"
    word = f"zq{uuid.uuid4().hex[:6]}"
    filler = [f"Line {n} of the runbook says nothing in particular." for n in range(120)]
    text = " ".join([*filler[:90], f"The {word} service restarts at midnight.", *filler[90:]])
    doc = observe(api["alice"], conv, 1, "tool:wiki", text)
    answer = ask(api["bob"], f"When does the {word} service restart?", conv, k=1)
    turn_ = answer["results"][0]["turn"]
    assert turn_["observation_id"] == doc and turn_["chars"] == len(text) > 5_000
    assert turn_["end"] - turn_["start"] == 2_000 and turn_["start"] > 0
    assert turn_["text"] == text[turn_["start"] : turn_["end"]]
    assert f"The {word} service restarts at midnight." in turn_["text"]
    # centred on the evidence: as much of the turn before the sentence as after it
    at = turn_["text"].index(word)
    assert 800 < at < 1_200


def test_a_turn_whose_raw_text_is_not_kept_has_no_text(
    api: dict[str, Api], driver: Driver, settings: Settings
) -> None:
    word = f"zq{uuid.uuid4().hex[:6]}"
    ctx = Context(
        driver=driver,
        database=settings.neo4j_database,
        principal=Principal(id="alice", groups=()),
        distiller=SaidDistiller(),
        embedder=None,
        ontology=predicate_map(driver, database=settings.neo4j_database),
        retention=settings.quarantine_retention,
        retain_raw_text=False,
    )
    conv = f"conv-{uuid.uuid4().hex[:8]}"
    [outcome] = ingest_observations(ctx, [turn(conv, 1, "Mia", f"The {word} quote stays.")])
    assert not isinstance(outcome, Exception)
    answer = ask(api["bob"], f"{word} quote", conv, k=1)
    chars = len(f"The {word} quote stays.")
    assert answer["results"][0]["turn"] == {
        "observation_id": outcome.observation_id,
        "speaker": "Mia",
        "occurred_at": "2023-05-08T13:01:00Z",
        "text": None,
        "start": 0,
        "end": chars,
        "chars": chars,
    }
