"""POST /v1/observations with a fake distiller, the real embedding model and real Neo4j."""

from __future__ import annotations

import re
import threading
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from neo4j import Driver

from bench.harness import serve_app
from graph_schema.core.types import Principal
from graph_schema.schema.ontology import predicate_map
from ingest.embeddings.embedder import make_embedder
from ingest.observations import Context, ingest_observations
from server.app import create_app
from server.deps import get_distiller
from server.settings import Settings
from tests.fakes import (
    DateBugDistiller,
    FailingDistiller,
    SaidDistiller,
    ScriptedDistiller,
    SwitchDistiller,
)
from tests.helpers import KEYS, Api, count_nodes

pytestmark = pytest.mark.integration

T0 = "2026-03-01T10:00:00+00:00"


@pytest.fixture(scope="module")
def switch() -> SwitchDistiller:
    return SwitchDistiller(SaidDistiller())


@pytest.fixture(scope="module")
def fake_url(settings: Settings, driver: Driver, switch: SwitchDistiller) -> Iterator[str]:
    app = create_app(settings)
    app.dependency_overrides[get_distiller] = lambda: switch
    with serve_app(app) as url:
        yield url


@pytest.fixture(scope="module")
def apis(fake_url: str) -> dict[str, Api]:
    return {name: Api(fake_url, key) for name, key in KEYS.items()}


def _key() -> str:
    return f"k-{uuid.uuid4().hex[:12]}"


def observation(text: str, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "text": text,
        "speaker": "user:alice",
        "occurred_at": T0,
        "source_kind": "user_stated",
        "idempotency_key": _key(),
    }
    body.update(extra)
    return body


def _scalar(driver: Driver, query: str, **params: Any) -> Any:
    records, _, _ = driver.execute_query(query, **params)
    return records[0][0]


def _metric(api: Api, name: str, **labels: str) -> float:
    text = api.client.get("/metrics").text
    want = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    total = 0.0
    for line in text.splitlines():
        match = re.match(rf"^{name}\{{(.*)\}} (\S+)$", line)
        if match and ",".join(sorted(match.group(1).split(","))) == want:
            total += float(match.group(2))
    return total


def test_an_observation_becomes_assertions_with_evidence_and_embeddings(
    apis: dict[str, Api], driver: Driver
) -> None:
    text = f"I adopted a greyhound called Pixel {uuid.uuid4().hex[:6]}. She loves the beach."
    response = apis["alice"].post("/v1/observations", observation(text, conversation_id="c1"))
    assert response.status_code == 201, response.text
    assert response.headers["Idempotent-Replayed"] == "false"
    body = response.json()
    assert body["replayed"] is False and body["quarantined"] == []
    oid = body["observation_id"]
    objects = [r["assertion"]["object"] for r in body["assertions"]]
    assert objects == [text.split(". ")[0] + ".", "She loves the beach."]
    first = body["assertions"][0]["assertion"]
    assert first["asserted_by"] == "user:alice" and first["source_kind"] == "user_stated"
    assert first["valid_from"].startswith("2026-03-01T10:00:00")
    assert first["evidence"][0]["observation_id"] == oid
    assert first["evidence"][0]["occurred_at"].startswith("2026-03-01T10:00:00")
    node = _scalar(driver, "MATCH (o:Observation {id: $id}) RETURN properties(o)", id=oid)
    assert node["text"] == text and node["speaker"] == "user:alice"
    assert node["idempotency_scope"].startswith("alice\x1f") and len(node["sha256"]) == 64
    linked = _scalar(
        driver,
        "MATCH (a:Assertion)-[:EVIDENCED_BY]->(:Evidence)-[:FROM]->(:Observation {id: $id}) "
        "RETURN count(DISTINCT a)",
        id=oid,
    )
    assert linked == 2
    times = _scalar(  # times are sent as strings and stored as datetimes (cypher.set_times)
        driver,
        "MATCH (o:Observation {id: $id})<-[:FROM]-(e:Evidence) WITH o, e LIMIT 1 "
        "RETURN [t IN [o.occurred_at, o.received_at, e.occurred_at, e.recorded_at] "
        "| valueType(t)]",
        id=oid,
    )
    assert times == ["ZONED DATETIME NOT NULL"] * 4
    embedding = _scalar(driver, "MATCH (a:Assertion {id: $id}) RETURN a.embedding", id=first["id"])
    assert len(embedding) == 384
    assert abs(sum(x * x for x in embedding) - 1.0) < 1e-3


def test_the_vector_index_finds_a_stored_assertion(apis: dict[str, Api], driver: Driver) -> None:
    marker = uuid.uuid4().hex[:6]
    text = f"My sister Ottilie {marker} keeps three beehives on the roof of her flat in Lisbon."
    body = apis["alice"].post("/v1/observations", observation(text)).json()
    assertion_id = body["assertions"][0]["assertion"]["id"]
    embedder = make_embedder(Settings().embedding_model, batch_size=8)
    assert embedder is not None
    [vector] = embedder.embed_query(["who keeps beehives on a roof in Lisbon?"])
    records, _, _ = driver.execute_query(
        "CALL db.index.vector.queryNodes('assertion_embedding', 5, $vec) YIELD node, score "
        "RETURN node.id AS id, score",
        vec=vector,
    )
    assert assertion_id in [r["id"] for r in records]


def test_the_same_key_replays_the_first_result_and_writes_nothing(
    apis: dict[str, Api], driver: Driver, switch: SwitchDistiller
) -> None:
    body = observation("We ship the release on Friday.")
    first = apis["alice"].post("/v1/observations", body)
    assert first.status_code == 201
    before = {label: count_nodes(driver, label) for label in ("Observation", "Assertion")}
    calls = switch.calls
    again = apis["alice"].post("/v1/observations", body)
    assert again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == {**first.json(), "replayed": True}
    assert {label: count_nodes(driver, label) for label in before} == before
    assert switch.calls == calls  # not even distilled again


def test_ten_racing_identical_requests_write_once(
    apis: dict[str, Api], driver: Driver, fake_url: str
) -> None:
    body = observation("The warehouse in Leeds closes at six. Deliveries go round the back.")
    barrier = threading.Barrier(10)
    responses: list[httpx.Response] = []
    lock = threading.Lock()

    def send() -> None:
        with httpx.Client(
            base_url=fake_url, timeout=120, headers={"Authorization": f"Bearer {KEYS['alice']}"}
        ) as client:
            barrier.wait()
            response = client.post("/v1/observations", json=body)
        with lock:
            responses.append(response)

    threads = [threading.Thread(target=send) for _ in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r.status_code for r in responses] == [201] * 10, [r.text for r in responses]
    ids = {r.json()["observation_id"] for r in responses}
    assert len(ids) == 1
    assert sorted(r.json()["replayed"] for r in responses) == [False] + [True] * 9
    oid = ids.pop()
    scope = f"alice\x1f{body['idempotency_key']}"
    assert (
        _scalar(driver, "MATCH (o:Observation {idempotency_scope: $s}) RETURN count(o)", s=scope)
        == 1
    )
    assert (
        _scalar(
            driver,
            "MATCH (a:Assertion)-[:EVIDENCED_BY]->(:Evidence {observation_id: $id}) "
            "RETURN count(DISTINCT a)",
            id=oid,
        )
        == 2
    )
    assert _scalar(driver, "MATCH (e:Evidence {observation_id: $id}) RETURN count(e)", id=oid) == 2


def test_another_principals_key_is_independent_and_reveals_nothing(
    apis: dict[str, Api],
) -> None:
    key = _key()
    secret = apis["alice"].post(
        "/v1/observations",
        observation("The Q3 bonus pool is 2.1 million.", idempotency_key=key, access=["finance"]),
    )
    assert secret.status_code == 201
    mine = apis["bob"].post(
        "/v1/observations",
        observation("Lunch is at noon.", idempotency_key=key, speaker="user:bob"),
    )
    assert mine.status_code == 201, mine.text
    assert mine.json()["replayed"] is False
    assert mine.json()["observation_id"] != secret.json()["observation_id"]
    assert "bonus" not in mine.text
    hidden = apis["bob"].get(f"/v1/observations/{secret.json()['observation_id']}")
    assert hidden.status_code == 404


def test_a_reused_key_with_another_body_is_a_conflict(apis: dict[str, Api]) -> None:
    key = _key()
    assert (
        apis["alice"].post("/v1/observations", observation("One.", idempotency_key=key)).status_code
        == 201
    )
    other = apis["alice"].post("/v1/observations", observation("Two.", idempotency_key=key))
    assert other.status_code == 409
    assert other.json()["error"]["code"] == "precondition_failed"


def test_the_idempotency_key_header_is_the_key_of_one_observation(
    apis: dict[str, Api], driver: Driver
) -> None:
    """A new user's trial sent the header, as for assertions, and it was silently ignored:
    the same request twice wrote two observations."""
    body = {k: v for k, v in observation("The header names the request.").items()}
    del body["idempotency_key"]
    header = {"Idempotency-Key": _key()}
    first = apis["alice"].post("/v1/observations", body, headers=header)
    assert first.status_code == 201, first.text
    before = count_nodes(driver, "Observation")
    again = apis["alice"].post("/v1/observations", body, headers=header)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["observation_id"] == first.json()["observation_id"]
    assert count_nodes(driver, "Observation") == before
    own = apis["alice"].post(  # a key in the body wins: another observation
        "/v1/observations", {**body, "idempotency_key": _key()}, headers=header
    )
    assert own.status_code == 201 and own.headers["Idempotent-Replayed"] == "false"
    batch = {"observations": [body, {**body, "text": "A second turn."}]}
    batch_key = {"Idempotency-Key": _key()}
    answers = [apis["alice"].post("/v1/observations", batch, headers=batch_key) for _ in "ab"]
    assert [r.status_code for r in answers] == [200, 200]
    first_ids = [r["observation_id"] for r in answers[0].json()["results"]]
    assert [r["observation_id"] for r in answers[1].json()["results"]] == first_ids
    assert [r["replayed"] for r in answers[1].json()["results"]] == [True, True]
    assert len(set(first_ids)) == 2
    before += 3
    assert count_nodes(driver, "Observation") == before


def test_the_date_bug_quarantines_every_draft_and_writes_no_assertion(
    apis: dict[str, Api], driver: Driver, switch: SwitchDistiller
) -> None:
    metric = "tractatus_gate_quarantined_total"
    quarantined = _metric(apis["admin"], metric, origin="observations", reason="bad_timestamp")
    accepted = _metric(apis["admin"], "tractatus_gate_accepted_total", origin="observations")
    assertions = count_nodes(driver, "Assertion")
    text = "We moved to Berlin. The office is in Kreuzberg. Rent is high."
    with switch.use(DateBugDistiller()):
        response = apis["alice"].post("/v1/observations", observation(text))
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["assertions"] == []
    assert [q["reason"] for q in body["quarantined"]] == ["bad_timestamp"] * 3
    assert all("RFC 3339" in q["message"] for q in body["quarantined"])
    assert count_nodes(driver, "Assertion") == assertions
    assert (
        _metric(apis["admin"], metric, origin="observations", reason="bad_timestamp")
        == quarantined + 3
    )
    assert (
        _metric(apis["admin"], "tractatus_gate_accepted_total", origin="observations") == accepted
    )
    ids = [q["quarantine_id"] for q in body["quarantined"]]
    stored = apis["admin"].get("/v1/quarantine", origin="observations", limit=1000).json()
    by_id = {item["id"]: item for item in stored["items"]}
    assert all(by_id[i]["reason"] == "bad_timestamp" for i in ids)
    assert all(by_id[i]["observation_id"] == body["observation_id"] for i in ids)
    assert "March 3rd, 2024" in by_id[ids[0]]["payload"]


def test_bad_evidence_is_quarantined_per_draft_and_the_rest_is_written(
    apis: dict[str, Api], switch: SwitchDistiller
) -> None:
    text = "We use Vue for the dashboard."

    def script(obs: Any) -> list[Any]:
        good = {
            "subject": "user:alice",
            "predicate": "uses",
            "object": "Vue",
            "confidence": 0.8,
            "quote": "We use Vue",
            "start": 0,
            "end": 10,
        }
        return [
            good,
            {**good, "quote": "We use React", "start": 0, "end": 12},  # not in the source
            {**good, "start": 3, "end": 13},  # offsets point elsewhere
            {**good, "access": ["sales"]},  # drafts may not set access
        ]

    with switch.use(ScriptedDistiller(script)):
        response = apis["alice"].post("/v1/observations", observation(text))
    assert response.status_code == 201, response.text
    body = response.json()
    assert [r["assertion"]["object"] for r in body["assertions"]] == ["Vue"]
    reasons = [(q["index"], q["reason"]) for q in body["quarantined"]]
    assert reasons == [(1, "evidence_mismatch"), (2, "evidence_mismatch"), (3, "unknown_field")]


def test_a_refused_body_is_quarantined_and_nothing_is_written(
    apis: dict[str, Api], driver: Driver
) -> None:
    observations = count_nodes(driver, "Observation")
    response = apis["alice"].post(
        "/v1/observations", observation("Hello.", occurred_at="March 3rd, 2024")
    )
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "rejected"
    assert error["details"]["rejections"][0]["reason"] == "bad_timestamp"
    assert error["details"]["quarantine_ids"]
    not_mine = apis["alice"].post("/v1/observations", observation("Hi.", access=["sales"]))
    assert not_mine.status_code == 422
    assert not_mine.json()["error"]["details"]["rejections"][0]["reason"] == "access_not_allowed"
    assert count_nodes(driver, "Observation") == observations


def test_a_blank_text_or_a_nul_is_refused_and_nothing_is_written(
    apis: dict[str, Api], driver: Driver
) -> None:
    """The docs said blank text was refused; a text of spaces stored an empty observation, and
    a NUL cut "I moved to Oslo" in two (its `lives_in` lost)."""
    observations = count_nodes(driver, "Observation")
    for text in ("   ", "\n\t", "I moved\u0000 to Oslo."):
        response = apis["alice"].post("/v1/observations", observation(text))
        assert response.status_code == 422, (text, response.text)
        rejection = response.json()["error"]["details"]["rejections"][0]
        assert (rejection["reason"], rejection["message"][:5]) == ("invalid", "text:")
    assert count_nodes(driver, "Observation") == observations


def test_an_occurred_at_ahead_of_the_clock_is_refused_and_skew_is_allowed(
    apis: dict[str, Api], driver: Driver
) -> None:
    """A turn sent with local time marked as UTC, eight hours ahead, was stored and its facts
    dated then: recall and the facts answered `not_found` until the clock caught up."""
    now = datetime.now(UTC)
    observations = count_nodes(driver, "Observation")
    ahead = (now + timedelta(hours=8)).strftime("%Y-%m-%dT%H:%M:%SZ")
    refused = apis["alice"].post("/v1/observations", observation("Tea.", occurred_at=ahead))
    assert refused.status_code == 422
    rejection = refused.json()["error"]["details"]["rejections"][0]
    assert rejection["reason"] == "future_timestamp" and ahead in rejection["message"]
    assert count_nodes(driver, "Observation") == observations
    skewed = (now + timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    kept = apis["alice"].post("/v1/observations", observation("Tea.", occurred_at=skewed))
    assert kept.status_code == 201, kept.text
    batch = apis["alice"].post(
        "/v1/observations",
        {"observations": [observation("Now."), observation("Later.", occurred_at=ahead)]},
    )
    statuses = [r["status"] for r in batch.json()["results"]]
    assert statuses == [201, 422]


def test_a_failed_distillation_is_quarantined_with_its_reason(
    apis: dict[str, Api], driver: Driver, switch: SwitchDistiller
) -> None:
    observations = count_nodes(driver, "Observation")
    with switch.use(FailingDistiller()):
        response = apis["alice"].post("/v1/observations", observation("Anything at all."))
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["details"]["rejections"][0]["reason"] == "llm_invalid_json"
    assert count_nodes(driver, "Observation") == observations
    [quarantine_id] = error["details"]["quarantine_ids"]
    stored = apis["admin"].get("/v1/quarantine", origin="observations", limit=1000).json()
    item = next(i for i in stored["items"] if i["id"] == quarantine_id)
    assert item["reason"] == "llm_invalid_json"
    assert "Anything at all." in item["payload"] and "Sure! Here are" in item["payload"]


def test_a_batch_answers_per_item(apis: dict[str, Api]) -> None:
    key = _key()
    batch = [
        observation("First turn.", idempotency_key=key, conversation_id="b1"),
        observation("Bad turn.", occurred_at="yesterday"),
        observation("Third turn.", conversation_id="b1", occurred_at="2026-03-01T10:00:01+00:00"),
        observation("First turn.", idempotency_key=key, conversation_id="b1"),
    ]
    response = apis["alice"].post("/v1/observations", {"observations": batch})
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert [r["status"] for r in results] == [201, 422, 201, 201]
    assert results[1]["error"]["details"]["rejections"][0]["reason"] == "bad_timestamp"
    assert results[3]["replayed"] is True
    assert results[3]["observation_id"] == results[0]["observation_id"]
    too_many = apis["alice"].post("/v1/observations", {"observations": [observation("x.")] * 257})
    assert too_many.status_code == 413


def test_neighbouring_turns_come_in_conversation_order(apis: dict[str, Api]) -> None:
    conversation = f"conv-{uuid.uuid4().hex[:8]}"
    times = ["2026-03-01T10:00:02+00:00", "2026-03-01T10:00:00+00:00", "2026-03-01T10:00:01+00:00"]
    ids = []
    for n, at in enumerate(times):
        body = observation(f"Turn {n}.", occurred_at=at, conversation_id=conversation)
        ids.append(apis["alice"].post("/v1/observations", body).json()["observation_id"])
    middle = apis["alice"].get(f"/v1/observations/{ids[2]}", context=5)
    assert middle.status_code == 200, middle.text
    data = middle.json()
    assert data["observation"]["text"] == "Turn 2."
    assert [o["text"] for o in data["before"]] == ["Turn 1."]
    assert [o["text"] for o in data["after"]] == ["Turn 0."]


def test_turns_at_the_same_time_are_ordered_by_id(apis: dict[str, Api]) -> None:
    """The conversation's order is (occurred_at, id): turns written with one time stand in
    the order of their ids, between the turns before and after that time (the turns beside are
    read from the index in its order, ties sorted by id alone: core.cypher.turns_beside)."""
    conversation = f"conv-{uuid.uuid4().hex[:8]}"
    times = ["2026-03-01T10:00:01+00:00"] * 3 + [
        "2026-03-01T10:00:00+00:00",
        "2026-03-01T10:00:02+00:00",
    ]
    written = []
    for n, at in enumerate(times):
        body = observation(f"Turn {n}.", occurred_at=at, conversation_id=conversation)
        response = apis["alice"].post("/v1/observations", body)
        assert response.status_code == 201, response.text
        written.append((at, response.json()["observation_id"], f"Turn {n}."))
    order = [text for _, _, text in sorted(written)]
    for _, oid, text in written:
        got = apis["alice"].get(f"/v1/observations/{oid}", context=5)
        assert got.status_code == 200, got.text
        data = got.json()
        i = order.index(text)
        assert [o["text"] for o in data["before"]] == order[:i], (text, order)  # in order
        assert [o["text"] for o in data["after"]] == order[i + 1 :], (text, order)


def test_raw_text_is_dropped_when_retention_is_off(driver: Driver, settings: Settings) -> None:
    ctx = Context(
        driver=driver,
        database=settings.neo4j_database,
        principal=Principal(id="alice", groups=("finance",)),
        distiller=SaidDistiller(),
        embedder=None,
        ontology=predicate_map(driver, database=settings.neo4j_database),
        retention=settings.quarantine_retention,
        retain_raw_text=False,
    )
    [outcome] = ingest_observations(ctx, [observation("Keep the quote, drop the text.")])
    assert not isinstance(outcome, Exception)
    node = _scalar(
        driver, "MATCH (o:Observation {id: $id}) RETURN properties(o)", id=outcome.observation_id
    )
    assert "text" not in node and len(node["sha256"]) == 64
    quote = _scalar(
        driver,
        "MATCH (e:Evidence {observation_id: $id}) RETURN e.quote",
        id=outcome.observation_id,
    )
    assert quote == "Keep the quote, drop the text."
