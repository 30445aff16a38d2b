"""The LLM distiller is sent the live ontology: a predicate an admin registers is in the very
next request to the model, and the model's use of it is written (tested against the stub
endpoint in tests/stubs/llm_stub.py, over the real API and Neo4j)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from neo4j import Driver

from ingest.distill.llm import LlmDistiller
from server.app import create_app
from server.deps import get_distiller
from server.settings import Settings
from tests.conftest import KEYS, Api
from tests.fakes import serve
from tests.stubs.llm_stub import LlmStub

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def stub() -> Iterator[LlmStub]:
    with LlmStub() as running:
        yield running


@pytest.fixture(scope="module")
def apis(settings: Settings, driver: Driver, stub: LlmStub) -> Iterator[dict[str, Api]]:
    llm = LlmDistiller(url=stub.url, model="stub-model", timeout=10, retries=0)
    app = create_app(settings)
    app.dependency_overrides[get_distiller] = lambda: llm
    with serve(app) as url:
        yield {name: Api(url, key) for name, key in KEYS.items()}
    llm.close()


def test_a_newly_registered_predicate_is_in_the_next_request(
    apis: dict[str, Api], stub: LlmStub
) -> None:
    name = f"favourite_colour_{uuid.uuid4().hex[:6]}"
    created = apis["admin"].post(
        "/v1/ontology/predicates",
        {"name": name, "cardinality": "one", "description": "Someone's favourite colour."},
    )
    assert created.status_code == 201, created.text
    text = "My favourite colour is teal."
    stub.reply_drafts(
        [
            {
                "subject": "I",
                "predicate": name,
                "object": "teal",
                "confidence": 0.9,
                "quote": text,
                "start": 0,
                "end": len(text),
            }
        ]
    )
    posted = apis["alice"].post(
        "/v1/observations",
        {
            "text": text,
            "speaker": "user:alice",
            "occurred_at": "2026-06-01T09:00:00+00:00",
            "source_kind": "user_stated",
            "idempotency_key": uuid.uuid4().hex,
        },
    )
    assert posted.status_code == 201, posted.text
    system = stub.requests[-1].json["messages"][0]["content"]
    assert f"- {name} (one, string): Someone's favourite colour." in system
    assert "- has_relative (many, string)" in system  # the seed is still listed
    written = [r["assertion"] for r in posted.json()["assertions"]]
    assert [(a["predicate"], a["object"]) for a in written] == [(name, "teal")]
    assert posted.json()["quarantined"] == []
