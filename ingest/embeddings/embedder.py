"""The embedder the server uses: model replicas, a cache of recent texts, one per configuration.

The model (:mod:`ingest.embeddings.model`) is loaded lazily, once per replica.

``replicas`` copies of the model encode concurrently, each on ``cores // replicas`` torch
threads; a tokenizer is not safe to share between threads, so a call borrows one whole
replica. On the 2-core reference machine two single-threaded replicas encode ~10-25% more
texts/s than one two-threaded model, and they keep working when Neo4j takes a core, where a
two-threaded forward pass stalls at every operation (bench/README-ingest.md). The replicas
are threads of this process, or with ``processes=True`` child processes with an interpreter
lock of their own (:mod:`ingest.embeddings.processes`; the server's default).

Chat repeats itself ("Thanks!", "Wow!"): an LRU cache of recent texts (``cache_size``
entries, float32, ~1.6 KB each) answers repeated texts without the model. On the LoCoMo
dev file 1,406 of 9,035 assertion texts are repeats. ``cache_size=0`` turns it off.
"""

from __future__ import annotations

import os
import queue
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from graph_schema.core.vectors import Vector
from graph_schema.schema.migrations import EMBEDDING_DIMENSIONS
from ingest.embeddings.model import Embedder, encode_with, load_model, prefixes, use_threads

if TYPE_CHECKING:
    from ingest.embeddings.processes import ProcessReplicas

DISABLED = frozenset({"", "none", "off", "disabled"})
DEFAULT_CACHE_SIZE = 10_000
# requests embed ~100-200 texts; small batches pad less (measured: bench/README-ingest.md)
DEFAULT_BATCH_SIZE = 16


def _concat(arrays: list[Any]) -> Any:
    import numpy

    return arrays[0] if len(arrays) == 1 else numpy.concatenate(arrays)


class SentenceTransformerEmbedder:
    """A local model (ONNX or sentence-transformers, :mod:`ingest.embeddings.model`), loaded
    on first use; searched texts and queries get the model's own prefixes."""

    def __init__(
        self,
        model: str,
        *,
        batch_size: int = DEFAULT_BATCH_SIZE,
        device: str = "cpu",
        cache_size: int = DEFAULT_CACHE_SIZE,
        replicas: int = 1,
        processes: bool = False,
        dimensions: int | None = EMBEDDING_DIMENSIONS,
    ) -> None:
        self.name = model
        self.dimensions = dimensions  # None: vectors never stored, any dimensions
        self.query_prefix, self.passage_prefix = prefixes(model)
        self.batch_size = batch_size
        self.device = device
        self.cache_size = cache_size
        self.replicas = max(1, replicas)
        self.threads = max(1, (os.cpu_count() or 1) // self.replicas)
        self.encoded = 0  # texts that went through the model (the cache's effect, in tests)
        self._cache: OrderedDict[str, Any] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._load_lock = threading.Lock()
        self._idle: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._loaded = 0
        self._executor: ThreadPoolExecutor | None = None
        self._processes: ProcessReplicas | None = None
        if processes:
            from ingest.embeddings.processes import ProcessReplicas

            self._processes = ProcessReplicas(model, replicas=self.replicas, threads=self.threads)

    def _load(self) -> Any:
        use_threads(self.threads)  # an ONNX session takes its thread count when it is made
        return load_model(self.name, self.device, self.dimensions)

    def _borrow(self) -> Any:
        """An idle replica; a new one while fewer than ``replicas`` exist; else wait."""
        try:
            return self._idle.get_nowait()
        except queue.Empty:
            pass
        with self._load_lock:
            if self._loaded < self.replicas:
                model = self._load()
                self._loaded += 1
                return model
        return self._idle.get()

    def warm(self) -> None:
        """Load every replica now (otherwise the first calls pay for it)."""
        if self._processes is not None:
            self._processes.warm()
            return
        models = [self._borrow() for _ in range(self.replicas)]
        for model in models:
            self._idle.put(model)

    def _encode(self, texts: list[str]) -> Any:
        """Rows for ``texts``; a call larger than one batch is shared among the replicas.

        Each part goes to a replica of its own, so while another request is busy writing
        its replica's core does not stand idle (a request no longer embeds on one core)."""
        parts = min(self.replicas, -(-len(texts) // self.batch_size))
        size = -(-len(texts) // max(1, parts))
        chunks = [texts[i : i + size] for i in range(0, len(texts), size)]
        if self._processes is not None:
            rows = _concat(self._processes.encode(chunks, self.batch_size))
        elif len(chunks) == 1:
            rows = self._encode_part(texts)
        else:
            rows = _concat(list(self._pool().map(self._encode_part, chunks)))
        with self._cache_lock:
            self.encoded += len(texts)
        return rows

    def _pool(self) -> ThreadPoolExecutor:
        with self._load_lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(
                    max_workers=self.replicas * 2, thread_name_prefix="embed"
                )
            return self._executor

    def _encode_part(self, texts: list[str]) -> Any:
        model = self._borrow()
        try:
            use_threads(self.threads)
            return encode_with(model, texts, self.batch_size)
        finally:
            self._idle.put(model)

    def _cached(self, texts: list[str]) -> list[Any]:
        """Rows for ``texts``: cache hits, and one model call for the distinct misses."""
        with self._cache_lock:
            hits = {t: self._cache[t] for t in texts if t in self._cache}
        missing = list(dict.fromkeys(t for t in texts if t not in hits))
        fresh = dict(zip(missing, self._encode(missing), strict=True)) if missing else {}
        with self._cache_lock:
            for text in hits:
                if text in self._cache:
                    self._cache.move_to_end(text)
            for text, row in fresh.items():
                self._cache[text] = row.copy()  # not a view into the batch array
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return [hits[t] if t in hits else fresh[t] for t in texts]

    def _vectors(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        rows = self._cached(texts) if self.cache_size else list(self._encode(texts))
        return [Vector(row.tolist()) for row in rows]

    def embed(self, texts: list[str]) -> list[list[float]]:
        return self._vectors([self.passage_prefix + text for text in texts])

    def embed_query(self, texts: list[str]) -> list[list[float]]:
        return self._vectors([self.query_prefix + text for text in texts])


@lru_cache(maxsize=4)
def shared_embedder(
    model: str,
    batch_size: int,
    cache_size: int,
    replicas: int,
    processes: bool = False,
    dimensions: int | None = EMBEDDING_DIMENSIONS,
) -> SentenceTransformerEmbedder:
    """One embedder per configuration per process, so apps and tests share weights."""
    return SentenceTransformerEmbedder(
        model,
        batch_size=batch_size,
        cache_size=cache_size,
        replicas=replicas,
        processes=processes,
        dimensions=dimensions,
    )


def make_embedder(
    model: str,
    *,
    batch_size: int,
    cache_size: int = DEFAULT_CACHE_SIZE,
    replicas: int = 1,
    processes: bool = False,
) -> Embedder | None:
    """The embedder named by settings; ``none`` turns embeddings off (no vector recall)."""
    if model.strip().lower() in DISABLED:
        return None
    return shared_embedder(model, batch_size, cache_size, replicas, processes)
