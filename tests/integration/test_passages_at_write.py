"""Passages are written by the observation write itself: a turn is searchable (with its
previous turn as context) when its write returns, turns that arrive out of order or in
parallel end with the passages of an ordered load, and a write cut off before its passages
gets them on its retry. An event's assertions are embedded when written, as those of
observations and of POST /v1/assertions are."""

from __future__ import annotations

import random
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from neo4j import Driver

from graph_schema.recall import cypher as recall_cypher
from tests.helpers import Api, turn
from tests.integration.test_events_support import at, event, fact, new_task

pytestmark = pytest.mark.integration

DIALOGUE = [
    ("Zed", "Did you go to the {word} festival last weekend?"),
    ("Mia", "Yes! I went with my sister. We loved it."),
    ("Zed", "That sounds wonderful, I am glad."),
    ("Mia", "The music was loud but the food stalls were the best part."),
    ("Zed", "Which stall did you like most?"),
    ("Mia", "The dumplings, without a doubt."),
    ("Zed", "I will try them next year then."),
    ("Mia", "You should, and bring your brother."),
]


def dialogue(conversation: str, word: str) -> list[dict[str, Any]]:
    return [
        turn(conversation, n, speaker, text.format(word=word))
        for n, (speaker, text) in enumerate(DIALOGUE)
    ]


def write(api: Api, item: dict[str, Any]) -> str:
    response = api.post("/v1/observations", item)
    assert response.status_code == 201, response.text
    observation_id: str = response.json()["observation_id"]
    return observation_id


def passages(driver: Driver, conversation: str) -> dict[str, tuple[Any, ...]]:
    """Per turn (its idempotency key's number): text, context, the context's turn, vectors."""
    records, _, _ = driver.execute_query(
        """
        MATCH (n:Passage)-[:OF]->(o:Observation {conversation_id: $c})
        OPTIONAL MATCH (p:Observation {id: n.context_of})
        RETURN o.idempotency_key AS key, n.text AS text, n.context AS context,
               p.idempotency_key AS context_key, n.embedding AS v, n.context_embedding AS cv
        """,
        c=conversation,
    )
    return {
        r["key"].rsplit(":", 1)[1]: (
            r["text"],
            r["context"],
            (r["context_key"] or "").rsplit(":", 1)[-1],
            [round(x, 4) for x in r["v"] or []],
            [round(x, 4) for x in r["cv"] or []],
        )
        for r in records
    }


def test_a_reply_is_found_through_its_question_as_soon_as_it_is_written(
    api: dict[str, Api],
) -> None:
    conversation, word = f"conv-{uuid.uuid4().hex[:8]}", f"zq{uuid.uuid4().hex[:6]}"
    first, second = dialogue(conversation, word)[:2]
    write(api["alice"], first)
    reply = write(api["alice"], second)
    answer = (
        api["bob"]
        .post(
            "/v1/recall",
            {
                "query": f"Who did Mia go to the {word} festival with?",
                "filters": {"conversation_id": conversation},
            },
        )
        .json()
    )
    by_turn = {r["evidence"][0]["observation_id"]: r for r in answer["results"]}
    assert reply in by_turn, "the reply was not found without an index call"
    assert "context_fulltext" in by_turn[reply]["why"]["ranks"], "found through its question"
    index = api["admin"].post("/v1/recall/index", {"conversation_id": conversation})
    assert index.json() == {"indexed": 0, "pending": 0}


def test_turns_out_of_order_and_in_parallel_end_as_an_ordered_load(
    api: dict[str, Api], driver: Driver
) -> None:
    word = f"zq{uuid.uuid4().hex[:6]}"
    ordered, shuffled = (f"conv-{uuid.uuid4().hex[:8]}" for _ in range(2))
    for item in dialogue(ordered, word):
        write(api["alice"], item)
    items = dialogue(shuffled, word)
    random.Random(7).shuffle(items)
    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(lambda item: write(api["alice"], item), items))
    expected = passages(driver, ordered)
    assert len(expected) == len(DIALOGUE)
    assert expected["1"][2] == "0", "turn 1's context is turn 0"
    assert all(v and cv for _, _, _, v, cv in expected.values()), "embedded"
    assert passages(driver, shuffled) == expected


def test_a_turn_written_late_rebuilds_its_successors_context(
    api: dict[str, Api], driver: Driver
) -> None:
    conversation, word = f"conv-{uuid.uuid4().hex[:8]}", f"zq{uuid.uuid4().hex[:6]}"
    items = dialogue(conversation, word)
    write(api["alice"], items[0])
    write(api["alice"], items[2])
    assert passages(driver, conversation)["2"][2] == "0"
    write(api["alice"], items[1])
    built = passages(driver, conversation)
    assert built["2"][2] == "1"
    assert built["2"][1].startswith("Mia: Yes! I went with my sister")


def test_a_write_cut_off_before_its_passage_gets_it_on_retry(
    api: dict[str, Api], driver: Driver
) -> None:
    conversation, word = f"conv-{uuid.uuid4().hex[:8]}", f"zq{uuid.uuid4().hex[:6]}"
    item = dialogue(conversation, word)[0]
    observation_id = write(api["alice"], item)
    driver.execute_query(
        "MATCH (n:Passage {observation_id: $id}) DETACH DELETE n", id=observation_id
    )
    assert passages(driver, conversation) == {}
    retry = api["alice"].post("/v1/observations", item)
    assert retry.status_code == 201 and retry.json()["replayed"] is True
    assert list(passages(driver, conversation)) == ["0"]


def test_the_migration_deletes_stale_passages_and_the_index_rebuilds_them(
    api: dict[str, Api], driver: Driver
) -> None:
    """A store written by an older version: a passage whose context is not the previous turn."""
    conversation, word = f"conv-{uuid.uuid4().hex[:8]}", f"zq{uuid.uuid4().hex[:6]}"
    items = dialogue(conversation, word)[:3]
    for item in items:
        write(api["alice"], item)
    good = passages(driver, conversation)
    driver.execute_query(
        """
        MATCH (n:Passage)-[:OF]->(:Observation {idempotency_key: $key})
        SET n.context_of = null, n.context = n.text
        """,
        key=f"{conversation}:2",
    )
    (step,) = recall_cypher.STALE_PASSAGE_STEPS
    deleted = 0
    while done := driver.execute_query(step, batch=1).records[0]["done"]:
        deleted += done
    assert deleted >= 1
    assert sorted(passages(driver, conversation)) == ["0", "1"]
    index = api["admin"].post("/v1/recall/index", {"conversation_id": conversation})
    assert index.json() == {"indexed": 1, "pending": 0}
    assert passages(driver, conversation) == good


def test_an_events_assertions_are_embedded_when_written(
    api: dict[str, Api], driver: Driver
) -> None:
    word = f"zq{uuid.uuid4().hex[:6]}"
    body = event(new_task(), "check_order", at("09:00"))
    body["assertions"] = [
        fact(f"order:{word}", "status", "delayed", "the parcel is late", "tool_returned", "agent")
    ]
    response = api["alice"].post("/v1/events", body)
    assert response.status_code == 201, response.text
    (produced,) = response.json()["assertions"]
    records, _, _ = driver.execute_query(
        "MATCH (a:Assertion {id: $id}) RETURN a.embedding AS v", id=produced["assertion"]["id"]
    )
    assert records[0]["v"], "the event's assertion carries no embedding"
