"""A read as of a time shows what was said by then: recall reads, ranks and shows no turn said
after its ``as_of``, a result lists only the evidence said by then, and so do the facts
endpoints (docs/recall.md "The request", docs/semantics.md "Evidence at an as_of").

A new user's trial: Mei said "My dad loves gardening." on 17 February, then "My dad turned 60
last Sunday!" on 6 May in the same chat. The second restates ``has_relative`` (Mei's father)
and carries the first's start, so the restated version is valid from February and cites the
May turn first. "How old did my dad turn?" as of 1 April answered 0.766 with the May turn
first: it had not been said yet.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.helpers import Api

pytestmark = pytest.mark.integration

SPEAKER = "Mei"
CHAT = [
    ("My dad loves gardening.", "2025-02-17T10:00:00Z"),
    ("My dad turned 60 last Sunday!", "2025-05-06T10:00:00Z"),
]
AS_OF = "2025-04-01T00:00:00Z"
QUESTION = "How old did my dad turn?"


@pytest.fixture(scope="module", autouse=True)
def _warm(api: dict[str, Api]) -> None:
    """The first write and recall of a server load its models: more than a request's minute
    on a busy machine when this module runs first."""
    body = {"text": "Hello.", "speaker": "Warm", "source_kind": "user_stated",
            "occurred_at": "2025-01-01T00:00:00Z"}  # fmt: skip
    assert api["alice"].client.post("/v1/observations", json=body, timeout=600).status_code == 201
    warm = {"query": "Where does anyone live?", "k": 1}
    assert api["alice"].client.post("/v1/recall", json=warm, timeout=600).status_code == 200


@pytest.fixture(scope="module")
def chat(api: dict[str, Api]) -> dict[str, Any]:
    """Mei's chat, written by a principal with its default groups; the ids of its turns."""
    conversation = f"conv-{uuid.uuid4().hex[:8]}"
    ids = []
    for n, (text, at) in enumerate(CHAT):
        body = {"text": text, "speaker": SPEAKER, "source_kind": "user_stated",
                "occurred_at": at, "conversation_id": conversation,
                "idempotency_key": f"{conversation}:{n}"}  # fmt: skip
        response = api["alice"].post("/v1/observations", body)
        assert response.status_code == 201, response.text
        ids.append(response.json()["observation_id"])
    # the first recall filtered to a conversation plans its statements
    warm = {"query": QUESTION, "filters": {"conversation_id": conversation}}
    assert api["alice"].client.post("/v1/recall", json=warm, timeout=600).status_code == 200
    return {"conversation": conversation, "feb": ids[0], "may": ids[1]}


def recall(api: Api, query: str, **body: Any) -> dict[str, Any]:
    response = api.post("/v1/recall", {"query": query, **body})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def cited(answer: dict[str, Any]) -> list[tuple[str, str]]:
    """Every turn an answer shows: each result's turn and each evidence span's observation,
    with its time."""
    shown = [(r["turn"]["observation_id"], r["turn"]["occurred_at"]) for r in answer["results"]
             if r["turn"] is not None]  # fmt: skip
    spans = [e for r in answer["results"] for e in [*r["evidence"], *r["assertion"]["evidence"]]]
    return shown + [(e["observation_id"], e["occurred_at"]) for e in spans if e["occurred_at"]]


def test_recall_as_of_shows_no_turn_said_after_it(
    api: dict[str, Api], chat: dict[str, Any]
) -> None:
    filters = {"conversation_id": chat["conversation"]}
    now = recall(api["alice"], QUESTION, filters=filters)
    # the control: asked now, the May turn answers
    assert now["results"][0]["turn"]["observation_id"] == chat["may"], now
    then = recall(api["alice"], QUESTION, as_of=AS_OF, filters=filters)
    shown = cited(then)
    assert shown, then
    assert chat["may"] not in {turn for turn, _ in shown}, then["results"]
    assert all(at <= AS_OF for _, at in shown), shown
    texts = [r["turn"]["text"] for r in then["results"] if r["turn"]]
    texts += [e["quote"] for r in then["results"] for e in r["evidence"]]
    assert not any("60" in t for t in texts), texts


def test_an_unfiltered_recall_as_of_shows_no_later_turn_either(
    api: dict[str, Api], chat: dict[str, Any]
) -> None:
    then = recall(api["alice"], QUESTION, as_of=AS_OF, k=20)
    shown = cited(then)
    assert chat["may"] not in {turn for turn, _ in shown}, then["results"]
    assert all(at <= AS_OF for _, at in shown), shown


def test_a_result_lists_only_the_evidence_said_by_its_as_of(
    api: dict[str, Api], chat: dict[str, Any]
) -> None:
    filters = {"conversation_id": chat["conversation"]}
    question = "Does Mei have a relative?"
    now = recall(api["alice"], question, filters=filters)
    relative = [r for r in now["results"] if r["assertion"]["predicate"] == "has_relative"]
    # the control: the restated version (valid from February) cites both turns
    assert {e["observation_id"] for e in relative[0]["evidence"]} == {chat["may"], chat["feb"]}
    then = recall(api["alice"], question, as_of=AS_OF, filters=filters)
    relative = [r for r in then["results"] if r["assertion"]["predicate"] == "has_relative"]
    assert relative, then["results"]
    for result in relative:
        assert [e["observation_id"] for e in result["evidence"]] == [chat["feb"]]
        assert [e["observation_id"] for e in result["assertion"]["evidence"]] == [chat["feb"]]
        assert result["turn"]["observation_id"] == chat["feb"]


def test_include_superseded_reads_every_turn_as_it_reads_every_version(
    api: dict[str, Api], chat: dict[str, Any]
) -> None:
    """``include_superseded`` reads every version recorded by ``known_at``, whatever its valid
    time (docs/recall.md): the turns they cite too, the later ones included."""
    filters = {"conversation_id": chat["conversation"], "include_superseded": True}
    answer = recall(api["alice"], QUESTION, as_of=AS_OF, filters=filters)
    assert chat["may"] in {turn for turn, _ in cited(answer)}, answer["results"]


def _quotes(facts: list[dict[str, Any]]) -> list[list[str]]:
    return [[e["quote"] for e in f["evidence"]] for f in facts]


def test_the_facts_endpoints_as_of_list_the_evidence_said_by_then(
    api: dict[str, Api], chat: dict[str, Any]
) -> None:
    slot = {"subject": SPEAKER, "predicate": "has_relative"}
    now = api["alice"].get("/v1/facts", **slot)
    assert now.status_code == 200, now.text
    assert _quotes(now.json()["facts"]) == [[CHAT[1][0], CHAT[0][0]]]
    then = api["alice"].get("/v1/facts", as_of=AS_OF, **slot)
    assert then.status_code == 200, then.text
    # the same version (valid from February), with the words said by 1 April only
    assert [f["id"] for f in then.json()["facts"]] == [f["id"] for f in now.json()["facts"]]
    assert _quotes(then.json()["facts"]) == [[CHAT[0][0]]]
    why = api["alice"].get("/v1/facts/why", as_of=AS_OF, **slot)
    assert why.status_code == 200, why.text
    assert _quotes([x["fact"] for x in why.json()["explanations"]]) == [[CHAT[0][0]]]
    # the history is no read as of a time: every version with all its evidence
    history = api["alice"].get("/v1/facts/history", **slot)
    assert history.status_code == 200, history.text
    assert _quotes(history.json()["versions"]) == [[CHAT[0][0]], [CHAT[1][0], CHAT[0][0]]]


def test_an_entity_page_as_of_lists_the_evidence_said_by_then(
    api: dict[str, Api], chat: dict[str, Any]
) -> None:
    found = api["alice"].get("/v1/entities", q=SPEAKER)
    assert found.status_code == 200, found.text
    entity = next(e["id"] for e in found.json()["entities"] if e["name"] == SPEAKER)

    def relative(**at: str) -> list[list[str]]:
        page = api["alice"].get(f"/v1/entities/{entity}", **at)
        assert page.status_code == 200, page.text
        return _quotes([a for a in page.json()["about"] if a["predicate"] == "has_relative"])

    assert relative() == [[CHAT[1][0], CHAT[0][0]]]
    assert relative(as_of=AS_OF) == [[CHAT[0][0]]]


def test_a_fact_said_later_of_an_earlier_time_holds_then_without_the_later_words(
    api: dict[str, Api],
) -> None:
    """ "I moved to Tallinn last year." said in September 2025 holds from 1 January 2025 as
    known now: as of June it is the answer, with none of the words said in September."""
    speaker, conversation = f"Ines{uuid.uuid4().hex[:4]}", f"conv-{uuid.uuid4().hex[:8]}"
    body = {"text": "I moved to Tallinn last year.", "speaker": speaker,
            "source_kind": "user_stated", "occurred_at": "2025-09-01T10:00:00Z",
            "conversation_id": conversation}  # fmt: skip
    response = api["alice"].post("/v1/observations", body)
    assert response.status_code == 201, response.text
    said = response.json()["observation_id"]
    june = "2025-06-01T00:00:00Z"
    slot = {"subject": speaker, "predicate": "lives_in"}
    now = api["alice"].get("/v1/facts", **slot).json()["facts"]
    assert [(f["object"], f["valid_from"][:10]) for f in now] == [("Tallinn", "2024-01-01")]
    assert _quotes(now) == [["I moved to Tallinn last year."]]
    then = api["alice"].get("/v1/facts", as_of=june, **slot).json()["facts"]
    assert [f["id"] for f in then] == [f["id"] for f in now] and _quotes(then) == [[]]
    answer = recall(api["alice"], f"Where does {speaker} live?", as_of=june,
                    filters={"conversation_id": conversation})  # fmt: skip
    assert said not in {turn for turn, _ in cited(answer)}, answer["results"]
    lives = [r for r in answer["results"] if r["assertion"]["id"] == now[0]["id"]]
    assert [(r["turn"], r["evidence"]) for r in lives] == [(None, [])], answer["results"]
