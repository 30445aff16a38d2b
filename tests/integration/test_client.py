"""The Python client (client/tractatus_client) against the real API over HTTP: every method,
typed answers without unknown fields, errors as exceptions per code, retries only where safe."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from pydantic import BaseModel
from tractatus_client import (
    AsyncTractatus,
    Conflict,
    ConnectionFailed,
    Forbidden,
    InvalidRequest,
    NotFound,
    OntologyConflict,
    PreconditionFailed,
    Rejected,
    SecretDetected,
    Tractatus,
    Unauthenticated,
)
from tractatus_client.models import (
    ObservationAccepted,
    ObservationRefused,
    Status,
    unknown_fields,
)

from tests.conftest import KEYS
from tests.fakes import free_port

pytestmark = pytest.mark.integration

JAN = datetime(2026, 1, 10, 9, tzinfo=UTC)
JUNE = datetime(2026, 6, 1, 9, tzinfo=UTC)
WRITE = {"source_kind": "user_stated", "confidence": 0.95}


def exact(result: Any) -> Any:
    """The answer, after checking that the server sent no field the client's models lack."""
    items = result if isinstance(result, list) else [result]
    for item in items:
        assert isinstance(item, BaseModel)
        assert unknown_fields(item) == [], unknown_fields(item)
    return result


COLD = 120  # seconds: the first write of a session loads the embedding model


@pytest.fixture
def alice(base_url: str) -> Any:
    with Tractatus(base_url, KEYS["alice"], timeout=COLD) as client:
        yield client


def test_write_supersede_read_as_of_and_history(alice: Tractatus, subject: str) -> None:
    vue = exact(
        alice.assert_fact(
            subject, "tech_stack", "Vue", asserted_by=subject, evidence="we use Vue",
            valid_from=JAN, expected_current=None, **WRITE,
        )
    )  # fmt: skip
    react = exact(
        alice.assert_fact(
            subject, "tech_stack", "React", asserted_by=subject, evidence="we moved to React",
            valid_from=JUNE, expected_current=vue.assertion.id, **WRITE,
        )
    )  # fmt: skip
    assert react.superseded == vue.assertion.id
    march = exact(alice.facts(subject, "tech_stack", as_of="2026-03-01T00:00:00Z"))
    assert march.status == Status.answered and [f.object for f in march.facts] == ["Vue"]
    now = exact(alice.facts(subject, "tech_stack"))
    assert [f.object for f in now.facts] == ["React"]
    history = exact(alice.history(subject, "tech_stack"))
    assert [v.object for v in history.versions] == ["Vue", "React"]
    assert history.versions[0].valid_to == JUNE
    with pytest.raises(PreconditionFailed) as failed:
        alice.assert_fact(
            subject, "tech_stack", "Svelte", asserted_by=subject, evidence="Svelte?",
            expected_current=vue.assertion.id, **WRITE,
        )  # fmt: skip
    assert failed.value.status == 409 and failed.value.current is not None
    assert failed.value.current["id"] == react.assertion.id
    assert failed.value.request_id and len(failed.value.request_id) == 32
    assert [f.object for f in alice.facts(subject, "tech_stack").facts] == ["React"]


def test_retract_and_batch(alice: Tractatus, subject: str) -> None:
    body = {"subject": subject, "predicate": "lives_in", "asserted_by": subject, **WRITE}
    results = exact(
        alice.assert_facts([{**body, "object": "Porto", "evidence": {"quote": "in Porto"}}])
    )
    assert len(results) == 1 and results[0].assertion.object == "Porto"
    retracted = exact(
        alice.retract(
            subject, "lives_in", asserted_by=subject, evidence="I moved away",
            expected_current=results[0].assertion.id, **WRITE,
        )
    )  # fmt: skip
    assert retracted.assertion.polarity is False
    assert alice.facts(subject, "lives_in").status == Status.not_found
    assert [v.polarity for v in alice.history(subject, "lives_in").versions] == [True, False]


def _datetimes_in_bodies(client: Any, subject: str) -> Any:
    """The trial's calls with datetimes inside their bodies (they raised "Object of type
    datetime is not JSON serializable"), and a retraction with a ``valid_to``; as a
    generator of calls, so that the async client runs the same ones."""
    body = {"subject": subject, "asserted_by": subject, **WRITE}
    yield client.assert_facts(
        [{**body, "predicate": "lives_in", "object": "Oslo", "valid_from": JAN,
          "evidence": {"quote": "I live in Oslo", "occurred_at": JAN}}]
    )  # fmt: skip
    yield client.observe(
        [{"text": "I like green tea.", "speaker": subject, "occurred_at": JUNE,
          "conversation_id": f"client-{uuid.uuid4().hex[:8]}"}]
    )  # fmt: skip
    yield client.record_event(
        f"task:{uuid.uuid4().hex[:10]}", "agent:a", "check", "success", root=True,
        occurred_at=JUNE, after={"checked_on": JUNE.date()},
        assertions=[{**body, "predicate": "works_at", "object": "Initech",
                     "valid_from": JAN, "valid_to": JUNE, "evidence": "Initech until June"}],
    )  # fmt: skip
    yield client.retract(
        subject, "lives_in", "Oslo", asserted_by=subject, evidence="not Oslo from March",
        valid_from=datetime(2026, 3, 1, tzinfo=UTC), valid_to=JUNE, **WRITE,
    )  # fmt: skip


def _check_datetimes_in_bodies(answers: list[Any], history: Any) -> None:
    facts, observed, event, retracted = answers
    assert facts[0].assertion.valid_from == JAN
    assert [item.status for item in observed] == [201]
    assert exact(event).assertions[0].assertion.valid_to == JUNE
    assert (retracted.assertion.polarity, retracted.assertion.valid_to) == (False, JUNE)
    spans = [(v.object, v.polarity, v.valid_from, v.valid_to) for v in history.versions]
    assert ("Oslo", True, JAN, datetime(2026, 3, 1, tzinfo=UTC)) in spans
    assert ("Oslo", True, JUNE, None) in spans  # the retraction's remnant, after June


def test_datetimes_inside_bodies_and_a_retraction_until_a_time(
    alice: Tractatus, subject: str
) -> None:
    answers = list(_datetimes_in_bodies(alice, subject))
    _check_datetimes_in_bodies(answers, alice.history(subject, "lives_in"))


def test_the_async_client_sends_them_too(base_url: str, subject: str) -> None:
    async def story() -> tuple[list[Any], Any]:
        async with AsyncTractatus(base_url, KEYS["alice"], timeout=COLD) as client:
            answers = [await call for call in _datetimes_in_bodies(client, subject)]
            return answers, await client.history(subject, "lives_in")

    _check_datetimes_in_bodies(*asyncio.run(story()))


def test_unknown_predicate_is_out_of_scope_and_refused(base_url: str, subject: str) -> None:
    with (
        Tractatus(base_url, KEYS["alice"], timeout=COLD) as alice,
        Tractatus(base_url, KEYS["admin"]) as admin,
    ):
        assert alice.facts(subject, "shoe_size").status == Status.out_of_scope
        with pytest.raises(Rejected) as refused:
            alice.assert_fact(
                subject, "shoe_size", "42", asserted_by=subject, evidence="size 42", **WRITE
            )
        assert refused.value.reasons == ["unknown_predicate"]
        [quarantine_id] = refused.value.quarantine_ids
        assert quarantine_id in {item.id for item in admin.quarantine(limit=50)}
        with pytest.raises(Forbidden):
            alice.quarantine()
        predicates = {p.name: p for p in exact(alice.ontology())}
        assert {"tech_stack", "payment_status"} <= set(predicates)
        same = predicates["tech_stack"].model_dump(mode="json")
        assert exact(admin.register_predicate(same)).created is False
        with pytest.raises(OntologyConflict):
            admin.register_predicate({**same, "cardinality": "many"})


def test_a_hidden_fact_is_not_found_for_others(base_url: str, subject: str) -> None:
    with (
        Tractatus(base_url, KEYS["alice"], timeout=COLD) as alice,
        Tractatus(base_url, KEYS["bob"]) as bob,
    ):
        alice.assert_fact(
            subject, "lives_in", "Porto", asserted_by=subject, evidence="I live in Porto",
            access=["finance"], **WRITE,
        )  # fmt: skip
        assert alice.facts(subject, "lives_in").status == Status.answered
        hidden = bob.facts(subject, "lives_in")
        assert hidden.status == Status.not_found and hidden.facts == []


def test_observations_are_idempotent_and_have_context(alice: Tractatus) -> None:
    conversation = f"client-{uuid.uuid4().hex[:8]}"
    key = f"{conversation}:1"
    first = exact(
        alice.observe(
            "I live in Lisbon.", speaker="user:dana", conversation_id=conversation,
            idempotency_key=key, occurred_at=JAN,
        )
    )  # fmt: skip
    assert first.replayed is False and first.assertions
    again = alice.observe(
        "I live in Lisbon.", speaker="user:dana", conversation_id=conversation,
        idempotency_key=key, occurred_at=JAN,
    )  # fmt: skip
    assert again.replayed is True and again.observation_id == first.observation_id
    items = exact(
        alice.observe(
            [
                {"text": "We use Vue.", "speaker": "user:dana", "source_kind": "user_stated",
                 "occurred_at": "2026-01-10T09:00:05+00:00", "conversation_id": conversation},
                {"text": "", "speaker": "user:dana", "source_kind": "user_stated",
                 "occurred_at": "2026-01-10T09:00:06+00:00"},
            ]
        )
    )  # fmt: skip
    assert [i.status for i in items] == [201, 422]
    assert isinstance(items[0], ObservationAccepted)
    assert isinstance(items[1], ObservationRefused) and items[1].error.code == "rejected"
    context = exact(alice.observation(first.observation_id, context=1))
    assert context.observation.text == "I live in Lisbon."
    assert [turn.text for turn in context.after] == ["We use Vue."]
    where = {"conversation_id": conversation}
    recalled = exact(alice.recall("Where does Dana live?", k=5, filters=where))
    assert recalled.status == Status.answered
    assert any(r.assertion.object and "Lisbon" in r.assertion.object for r in recalled.results)


def _chain_story(client: Tractatus, order: str) -> dict[str, str]:
    task = f"task:{uuid.uuid4().hex[:10]}"
    ids = {"task": task}
    created = client.record_event(
        task, "agent:shop", "create_order", "success", root=True, goal="restock",
        occurred_at="2026-02-01T14:03:00+00:00", after={"order": order},
    )  # fmt: skip
    ids["order"] = created.event.id
    failed = client.record_event(
        task, "agent:shop", "pay_order", "failure", caused_by=[ids["order"]],
        occurred_at="2026-02-01T14:30:00+00:00", after={"payment_status": "timed_out"},
    )  # fmt: skip
    ids["fail"] = failed.event.id
    paid = client.record_event(
        task, "agent:shop", "pay_order", "success", caused_by=[ids["fail"]],
        occurred_at="2026-02-01T15:00:00+00:00", after={"payment_status": "succeeded"},
        assertions=[{"subject": order, "predicate": "payment_status", "object": "succeeded",
                     "source_kind": "tool_returned", "asserted_by": "tool:payments",
                     "confidence": 0.99, "evidence": {"quote": "paid"}}],
    )  # fmt: skip
    exact(paid)
    ids["pay"] = paid.event.id
    return ids


def test_events_chain_why_and_timeline(alice: Tractatus) -> None:
    order = f"order:{uuid.uuid4().hex[:8]}"
    ids = _chain_story(alice, order)
    chain = exact(alice.chain(ids["pay"]))
    assert [e.action for e in chain.events] == ["pay_order", "pay_order", "create_order"]
    assert {(e.from_, e.to) for e in chain.edges} == {
        (ids["pay"], ids["fail"]),
        (ids["fail"], ids["order"]),
    }
    effects = alice.chain(ids["order"], direction="effects")
    assert {e.id for e in effects.events} == {ids["order"], ids["fail"], ids["pay"]}
    why = exact(alice.why(order, "payment_status"))
    assert why.status == Status.answered
    [explanation] = why.explanations
    assert explanation.fact.object == "succeeded" and explanation.event is not None
    assert [e.outcome for e in explanation.chain.events] == ["success", "failure", "success"]
    timeline = exact(alice.timeline(ids["task"]))
    assert timeline.task is not None and timeline.task.goal == "restock"
    assert [e.action for e in timeline.events] == ["create_order", "pay_order", "pay_order"]
    assert exact(alice.event(ids["fail"])).outcome == "failure"
    with pytest.raises(NotFound) as missing:
        alice.event("no-such-event")
    assert missing.value.code == "not_found"


def test_tasks_pins_and_a_sleep_preview(base_url: str, alice: Tractatus, subject: str) -> None:
    """The lifecycle methods against the real routes (a new user's trial found the docs still
    calling them unbuilt): start, card, a fact in the task, end, a write after it, pin."""
    task = f"task:{uuid.uuid4().hex[:8]}"
    card = exact(alice.start_task(task, goal="restock"))
    assert (card.id, card.status, card.goal) == (task, "open", "restock")
    assert exact(alice.start_task(task, goal="restock")).status == "open"  # again: a no-op
    kept = alice.assert_fact(
        subject, "tech_stack", "Vue", asserted_by=subject, evidence="we use Vue", task_id=task,
        **WRITE,
    )  # fmt: skip
    assert exact(alice.task(task)).counts.short == 1
    report = exact(alice.end_task(task))
    assert report.task_id == task and report.promoted == [kept.assertion.id]
    assert exact(alice.end_task(task)).promoted == report.promoted  # the same report
    assert exact(alice.task(task)).status == "ended"
    with pytest.raises(Conflict) as ended:
        alice.assert_fact(subject, "tech_stack", "React", asserted_by=subject,
                          evidence="React", task_id=task, **WRITE)  # fmt: skip
    assert ended.value.code == "task_ended"
    pinned = exact(alice.pin(kept.assertion.id))
    assert pinned.pinned and pinned.changed
    assert not exact(alice.unpin(kept.assertion.id)).pinned
    with pytest.raises(Forbidden):
        alice.sleep(dry_run=True)
    with Tractatus(base_url, KEYS["admin"], timeout=COLD) as admin:
        preview = exact(admin.sleep(dry_run=True))
    assert preview.dry_run and preview.run_id is None


def test_bad_input_and_bad_keys_are_typed_errors(base_url: str, alice: Tractatus) -> None:
    with pytest.raises(InvalidRequest) as invalid:
        alice.recall("anything", k=0)
    assert invalid.value.status == 422 and invalid.value.problems
    stranger = Tractatus(base_url, "tr_not_a_key_000000000000000000")
    with stranger, pytest.raises(Unauthenticated) as refused:
        stranger.facts("user:x", "tech_stack")
    assert refused.value.status == 401
    with pytest.raises(ValueError, match="naive"):
        alice.facts("user:x", "tech_stack", as_of=datetime(2026, 1, 1))
    assert exact(alice.health()).neo4j == "up"


# built from parts, so that no scanner reading this file takes them for real credentials
STRIPE_KEY = "sk_" + "live_H1SECRETabc123"
CARD = "4556 7375 8143 1233"  # not a published test card (those are no secret)


def test_a_secret_is_refused_as_secret_detected_with_its_fields_by_both_clients(
    base_url: str, subject: str
) -> None:
    """A review of the client: the server's 422 ``secret_detected`` came as a plain
    ``InvalidRequest`` with no ``problems``, and the caller had to read ``code`` and ``details``
    to learn which field held the secret. Now ``SecretDetected`` with ``secrets``; nothing was
    written."""
    with Tractatus(base_url, KEYS["alice"], timeout=COLD) as alice:
        with pytest.raises(SecretDetected) as refused:
            alice.assert_fact(
                subject, "tech_stack", f"Stripe {STRIPE_KEY}", asserted_by=subject,
                evidence=f"our key is {STRIPE_KEY}", **WRITE,
            )  # fmt: skip
        assert alice.facts(subject, "tech_stack").status == Status.not_found

    async def observe() -> SecretDetected:
        async with AsyncTractatus(base_url, KEYS["alice"], timeout=COLD) as client:
            try:
                await client.observe(f"pay with card {CARD}", speaker=subject)
            except SecretDetected as error:
                return error
            raise AssertionError("the secret was not refused")

    for error, secrets in (
        (
            refused.value,
            [
                {"field": "body.object", "kind": "stripe_key"},
                {"field": "body.evidence.quote", "kind": "stripe_key"},
            ],
        ),
        (asyncio.run(observe()), [{"field": "body.text", "kind": "card_number"}]),
    ):
        assert isinstance(error, InvalidRequest) and error.problems == []
        assert (error.status, error.code) == (422, "secret_detected")
        assert sorted(error.secrets, key=str) == sorted(secrets, key=str)
        assert error.count == len(secrets) and error.request_id
        assert STRIPE_KEY not in str(error.details) and CARD not in str(error.details)


def test_the_async_client_has_the_same_answers(base_url: str, subject: str) -> None:
    async def story() -> tuple[Any, Any, Any]:
        async with AsyncTractatus(base_url, KEYS["alice"], timeout=COLD) as client:
            written = await client.assert_fact(
                subject, "works_at", "Acme", asserted_by=subject, evidence="I work at Acme",
                expected_current=None, **WRITE,
            )  # fmt: skip
            facts, history = await asyncio.gather(
                client.facts(subject, "works_at"), client.history(subject, "works_at")
            )
            try:
                await client.assert_fact(
                    subject, "works_at", "Initech", asserted_by=subject, evidence="Initech",
                    expected_current=None, **WRITE,
                )  # fmt: skip
            except PreconditionFailed as error:
                return written, (facts, history), error.current
            raise AssertionError("the precondition did not fail")

    written, (facts, history), current = asyncio.run(story())
    assert exact(facts).facts[0].id == written.assertion.id
    assert len(exact(history).versions) == 1
    assert current is not None and current["id"] == written.assertion.id


def _counting(attempts: list[str]) -> httpx.Client:
    def count(request: httpx.Request) -> None:
        attempts.append(request.headers["X-Request-ID"])

    return httpx.Client(timeout=2, event_hooks={"request": [count]})


def test_a_write_whose_answer_was_lost_is_retried_and_written_once(
    base_url: str, subject: str
) -> None:
    """The first answer of each write is lost after the server wrote it (the connection
    drops while reading it); the client retries with the same Idempotency-Key and gets the
    first answer, replayed; the fact exists once."""
    lost: list[str] = []
    replayed: list[str] = []

    def drop_first_answer(response: httpx.Response) -> None:
        key = response.request.headers.get("Idempotency-Key")
        if response.request.method == "POST" and key not in lost:
            lost.append(str(key))
            raise httpx.ReadError("connection dropped", request=response.request)
        replayed.append(response.headers.get("Idempotent-Replayed", ""))

    hooks = {"response": [drop_first_answer]}
    with (
        httpx.Client(timeout=COLD, event_hooks=hooks) as http,
        Tractatus(base_url, KEYS["alice"], retries=2, backoff=0.01, http_client=http) as client,
    ):
        fact = client.assert_fact(
            subject, "tech_stack", "React", asserted_by=subject, evidence="React", **WRITE
        )
        event = client.record_event(f"lost-{subject}", "agent", "act", "success", root=True)
        body = {"subject": subject, "predicate": "uses", "asserted_by": subject, **WRITE}
        many = client.assert_facts(
            [{**body, "object": tool, "evidence": {"quote": tool}} for tool in ("Vim", "Git")]
        )
        history = client.history(subject, "tech_stack")
        uses = client.facts(subject, "uses")
    assert len(lost) == 3 and replayed[:3] == ["true", "true", "true"]
    assert [v.id for v in history.versions] == [fact.assertion.id]
    assert event.event.task_id == f"lost-{subject}"
    assert sorted(f.id for f in uses.facts) == sorted(r.assertion.id for r in many)


def test_only_idempotent_calls_are_retried_and_keep_their_request_id() -> None:
    closed = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    attempts: list[str] = []
    with _counting(attempts) as http:
        client = Tractatus(closed, KEYS["alice"], retries=2, backoff=0.01, http_client=http)
        with pytest.raises(ConnectionFailed) as read:
            client.facts("user:x", "tech_stack")
        assert len(attempts) == 3 and len(set(attempts)) == 1
        assert read.value.request_id == attempts[0]
        attempts.clear()
        with pytest.raises(ConnectionFailed):
            client.record_event("t", "a", "act", "success", root=True)  # keyed: retried
        assert len(attempts) == 3
        attempts.clear()
        with pytest.raises(ConnectionFailed):
            client.observe("hello", speaker="user:x")  # carries an idempotency key
        assert len(attempts) == 3
