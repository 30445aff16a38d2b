"""The local embedding model: offline, 384 unit-length dimensions, thread-safe, batched."""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graph_schema.ledger.types import AssertionWrite
from graph_schema.schema.migrations import EMBEDDING_DIMENSIONS
from ingest.embeddings import embedder as embeddings_embedder
from ingest.embeddings import model as embeddings_model
from ingest.embeddings import onnx as embeddings_onnx
from ingest.embeddings import texts as embeddings_texts


def _item(predicate: str, obj: str, quote: str) -> AssertionWrite:
    return AssertionWrite.model_validate(
        {
            "subject": "user:alice",
            "predicate": predicate,
            "object": obj,
            "source_kind": "user_stated",
            "asserted_by": "user:alice",
            "confidence": 0.9,
            "evidence": {"quote": quote},
        }
    )


def test_the_text_embedded_per_assertion() -> None:
    said = _item("said", "I love hiking.", "I love hiking.")
    assert embeddings_texts.assertion_text(said) == "I love hiking."
    stack = _item("tech_stack", "React", "we moved the project to React")
    assert embeddings_texts.assertion_text(stack) == (
        "user:alice tech stack React. we moved the project to React"
    )


def test_the_default_model_is_installed_with_its_spec_and_no_hub_is_used() -> None:
    path = Path(embeddings_model.default_model_path())
    assert (path / "model.onnx").is_file() and (path / "tokenizer.json").is_file()
    spec = embeddings_onnx.read_spec(str(path))
    assert spec is not None and spec.name == "e5-small-v2-q" and spec.pooling == "mean"
    assert embeddings_model.prefixes(str(path)) == ("query: ", "passage: ")
    embeddings_model.offline_environment()  # what loading a model does first
    assert os.environ["HF_HUB_OFFLINE"] == "1" and os.environ["TRANSFORMERS_OFFLINE"] == "1"
    assert embeddings_embedder.make_embedder("none", batch_size=8) is None


def test_queries_and_searched_texts_are_marked_as_the_model_was_trained() -> None:
    embedder = embeddings_embedder.make_embedder(
        embeddings_model.default_model_path(), batch_size=4
    )
    assert embedder is not None
    [as_query] = embedder.embed_query(["Where does Mia work?"])
    [as_passage] = embedder.embed(["Where does Mia work?"])
    assert max(abs(a - b) for a, b in zip(as_query, as_passage, strict=True)) > 1e-3
    load = embeddings_model.load_model(embeddings_model.default_model_path())
    [direct] = load.encode(["query: Where does Mia work?"])
    assert max(abs(a - b) for a, b in zip(as_query, direct.tolist(), strict=True)) < 1e-5


def test_a_querys_names_are_cut_and_a_sentences_first_word_kept() -> None:
    cut = embeddings_texts.query_without_names
    assert cut("What did Caroline's friend paint?") == "What did friend paint?"
    assert cut("When did Mel go to Oslo in May?") == "When did go to in?"
    assert cut("Where is Mel? And where does Jo work?") == "Where is? And where does work?"
    assert cut("Did the LGBTQ group meet?") is None  # an acronym is no name
    assert cut("which spec is current?") is None
    assert cut("用户喜欢什么颜色？") is None
    # nothing left to ask without the names: the query is searched as it is
    assert cut("Who is Anjali?") is None and cut("When was Jon in Paris?") is None


def test_a_query_naming_someone_is_searched_with_the_mean_of_it_and_it_without_names() -> None:
    embedder = embeddings_embedder.make_embedder(
        embeddings_model.default_model_path(), batch_size=2
    )
    assert embedder is not None
    query = "What did Caroline paint last summer?"
    vector = embeddings_texts.query_vector(embedder, query)
    own, plain = embedder.embed_query([query, "What did paint last summer?"])
    mean = [(a + b) / 2 for a, b in zip(own, plain, strict=True)]
    norm = math.sqrt(sum(x * x for x in mean))
    assert max(abs(v - m / norm) for v, m in zip(vector, mean, strict=True)) < 1e-6
    assert math.isclose(sum(x * x for x in vector), 1.0, rel_tol=1e-6)
    assert max(abs(v - o) for v, o in zip(vector, own, strict=True)) > 1e-3
    assert embeddings_texts.query_vector(embedder, query, names=False) == own  # step disabled
    # a query naming nothing is searched with its own vector
    [unchanged] = embedder.embed_query(["what did she paint last summer?"])
    assert embeddings_texts.query_vector(embedder, "what did she paint last summer?") == unchanged


def test_the_previous_model_still_loads_without_prefixes() -> None:
    path = embeddings_model.minilm_model_path()
    assert path is not None and (Path(path) / "model.safetensors").exists()
    assert embeddings_model.prefixes(path) == ("", "")
    embedder = embeddings_embedder.SentenceTransformerEmbedder(path, batch_size=2, cache_size=0)
    [vector] = embedder.embed_query(["a sentence"])
    assert [vector] == embedder.embed(["a sentence"])
    assert math.isclose(sum(x * x for x in vector), 1.0, rel_tol=1e-4)


def test_vectors_are_unit_length_and_similar_texts_are_close() -> None:
    embedder = embeddings_embedder.make_embedder(
        embeddings_model.default_model_path(), batch_size=2
    )
    assert embedder is not None
    texts = [
        "We use React for the frontend.",
        "Our frontend is built with React.",
        "My grandmother grows tomatoes.",
    ]
    vectors = embedder.embed(texts)
    assert [len(v) for v in vectors] == [EMBEDDING_DIMENSIONS] * 3
    for v in vectors:
        assert math.isclose(sum(x * x for x in v), 1.0, rel_tol=1e-4)

    def cos(a: list[float], b: list[float]) -> float:
        return sum(x * y for x, y in zip(a, b, strict=True))

    # e5's cosines lie in a narrow band (unrelated texts ~0.7): the gap is smaller than MiniLM's
    assert cos(vectors[0], vectors[1]) > cos(vectors[0], vectors[2]) + 0.1
    assert embedder.embed([]) == []


def test_one_model_per_process_and_threads_get_the_same_answers() -> None:
    path = embeddings_model.default_model_path()
    first = embeddings_embedder.make_embedder(path, batch_size=4)
    assert first is embeddings_embedder.make_embedder(path, batch_size=4)
    assert first is not None
    text = ["the same sentence from several threads"]
    expected = first.embed(text)
    results: list[list[list[float]]] = []

    def work() -> None:
        results.append(first.embed(text * 3))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 4
    for batch in results:
        for v in batch:
            assert max(abs(a - b) for a, b in zip(v, expected[0], strict=True)) < 1e-5


def test_a_missing_model_is_a_clear_error() -> None:
    broken = embeddings_embedder.SentenceTransformerEmbedder("/nonexistent/model/dir", batch_size=2)
    with pytest.raises(embeddings_model.EmbeddingUnavailable):
        broken.embed(["x"])


def test_a_damaged_onnx_model_directory_is_a_clear_error(tmp_path: Path) -> None:
    source = Path(embeddings_model.default_model_path())
    for name in ("tractatus-model.json", "tokenizer.json"):
        (tmp_path / name).write_bytes((source / name).read_bytes())
    missing = embeddings_embedder.SentenceTransformerEmbedder(str(tmp_path), cache_size=0)
    with pytest.raises(embeddings_model.EmbeddingUnavailable, match=r"model\.onnx is missing"):
        missing.embed(["x"])
    (tmp_path / "model.onnx").write_bytes(b"not an onnx model")
    damaged = embeddings_embedder.SentenceTransformerEmbedder(str(tmp_path), cache_size=0)
    with pytest.raises(embeddings_model.EmbeddingUnavailable, match="cannot be loaded"):
        damaged.embed(["x"])


def test_repeated_texts_come_from_the_cache_and_match_the_model() -> None:
    cached = embeddings_embedder.SentenceTransformerEmbedder(
        embeddings_model.default_model_path(), batch_size=8, cache_size=3
    )
    uncached = embeddings_embedder.SentenceTransformerEmbedder(
        embeddings_model.default_model_path(), batch_size=8, cache_size=0
    )
    first = cached.embed(["Thanks!", "Wow!", "Thanks!"])
    assert cached.encoded == 2  # the repeat inside one call is encoded once
    second = cached.embed(["Wow!", "Cool!", "Thanks!"])
    assert cached.encoded == 3  # only "Cool!" was new
    assert second[0] == first[1] and second[2] == first[0]
    direct = uncached.embed(["Thanks!", "Wow!", "Cool!", "Thanks!"])
    assert uncached.encoded == 4  # no cache: every text goes through the model
    for got, want in zip([first[0], first[1], second[1]], direct[:3], strict=True):
        assert max(abs(a - b) for a, b in zip(got, want, strict=True)) < 1e-5
    # LRU of 3: "Wow!" (least recently used) leaves when two new texts arrive
    cached.embed(["Hi!", "Bye!"])
    cached.embed(["Wow!"])
    assert cached.encoded == 6


def test_the_cache_returns_copies_callers_cannot_corrupt() -> None:
    cached = embeddings_embedder.SentenceTransformerEmbedder(
        embeddings_model.default_model_path(), batch_size=8, cache_size=10
    )
    vector = cached.embed(["a sentence"])[0]
    original = list(vector)
    vector[0] = 42.0
    assert cached.embed(["a sentence"])[0] == original


def _uncached(replicas: int) -> embeddings_embedder.SentenceTransformerEmbedder:
    return embeddings_embedder.SentenceTransformerEmbedder(
        embeddings_model.default_model_path(), batch_size=4, cache_size=0, replicas=replicas
    )


def _assert_same_rows(got: list[list[float]], want: list[list[float]]) -> None:
    for row, expected in zip(got, want, strict=True):
        assert max(abs(a - b) for a, b in zip(row, expected, strict=True)) < 1e-5


def test_replicas_encode_concurrently_with_the_same_answers() -> None:
    pooled, single = _uncached(2), _uncached(1)
    texts = [f"sentence number {n} about gardening" for n in range(12)]
    expected = single.embed(texts)
    results: dict[int, list[list[float]]] = {}

    def work(n: int) -> None:
        results[n] = pooled.embed(texts)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [0, 1, 2, 3]
    assert pooled._loaded <= 2 and pooled.encoded == 48
    for batch in results.values():
        _assert_same_rows(batch, expected)


def test_one_call_larger_than_a_batch_is_shared_among_replicas_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The call is cut into one part per replica, each handed to the pool, and the rows come
    back in order. Which replica runs which part is the scheduler's: on a loaded machine one
    thread may finish the first part and take the second before another starts, so the
    number of replicas loaded is no property of the call (asserting it failed a CI run)."""
    pooled, single = _uncached(2), _uncached(1)
    parts: list[int] = []
    encode_part = pooled._encode_part

    def counted(texts: list[str]) -> Any:
        parts.append(len(texts))
        return encode_part(texts)

    monkeypatch.setattr(pooled, "_encode_part", counted)
    texts = [f"turn {n}: the weather on day {n * 7} was mild" for n in range(11)]
    got = pooled.embed(texts)
    assert sorted(parts) == [5, 6]  # two parts for two replicas, not three batches
    assert 1 <= pooled._loaded <= 2
    _assert_same_rows(got, single.embed(texts))
    parts.clear()
    assert len(pooled.embed(texts[:3])) == 3  # smaller than a batch: one part, no split
    assert parts == [3]


@pytest.fixture(scope="module")
def in_processes() -> Iterator[embeddings_embedder.SentenceTransformerEmbedder]:
    embedder = embeddings_embedder.SentenceTransformerEmbedder(
        embeddings_model.default_model_path(),
        batch_size=4,
        cache_size=0,
        replicas=2,
        processes=True,
    )
    yield embedder
    assert embedder._processes is not None
    embedder._processes.close()


def _children() -> list[multiprocessing.process.BaseProcess]:
    return [p for p in multiprocessing.active_children() if p.is_alive()]


def test_replicas_in_child_processes_give_the_rows_of_one_in_process_model(
    in_processes: embeddings_embedder.SentenceTransformerEmbedder,
) -> None:
    texts = [f"turn {n}: we planted {n} rows of beans" for n in range(13)]
    before = set(_children())
    results: dict[int, list[list[float]]] = {}

    def work(n: int) -> None:
        results[n] = in_processes.embed(texts[n:])

    threads = [threading.Thread(target=work, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    expected = _uncached(1).embed(texts)
    for n in range(3):
        _assert_same_rows(results[n], expected[n:])
    assert in_processes.encoded == 13 + 12 + 11
    assert len(set(_children()) - before) == 2  # both started at the first call, once


def test_a_replica_process_that_dies_fails_its_call_clearly_and_is_replaced(
    in_processes: embeddings_embedder.SentenceTransformerEmbedder,
) -> None:
    in_processes.warm()
    assert in_processes._processes is not None
    pids = in_processes._processes.pids()
    assert len(pids) == 2
    os.kill(pids[0], signal.SIGKILL)
    deadline = time.monotonic() + 10
    while Path(f"/proc/{pids[0]}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)  # reaped once the pool's manager thread has seen it die
    # until the pool has seen the death the survivor may still answer (correctly); then
    # exactly one call fails, clearly, and the ones after it run on a fresh set
    failed: list[str] = []
    for _ in range(20):
        try:
            in_processes.embed([f"text {n}" for n in range(9)])
        except embeddings_model.EmbeddingUnavailable as error:
            failed.append(error.message)
            break
        time.sleep(0.1)
    assert failed and "embedding process stopped" in failed[0]
    again = in_processes.embed(["the next call starts new processes"])
    _assert_same_rows(again, _uncached(1).embed(["the next call starts new processes"]))
    assert in_processes._processes is not None
    assert not set(in_processes._processes.pids()) & set(pids)


def test_a_missing_model_in_a_child_process_is_a_clear_error() -> None:
    broken = embeddings_embedder.SentenceTransformerEmbedder(
        "/nonexistent/model/dir", batch_size=2, replicas=2, processes=True
    )
    with pytest.raises(embeddings_model.EmbeddingUnavailable, match="cannot load embedding model"):
        broken.embed(["x"])


@pytest.mark.parametrize("processes", [False, True], ids=["threads", "processes"])
def test_an_unreadable_model_directory_is_a_clear_error(
    processes: bool,
    tmp_path: Path,
) -> None:
    (tmp_path / "config.json").write_text("{not json", "utf-8")
    (tmp_path / "modules.json").write_text("{not json", "utf-8")
    broken = embeddings_embedder.SentenceTransformerEmbedder(
        str(tmp_path), batch_size=2, replicas=2, processes=processes
    )
    with pytest.raises(embeddings_model.EmbeddingUnavailable, match="cannot load embedding model"):
        broken.embed(["x"])
