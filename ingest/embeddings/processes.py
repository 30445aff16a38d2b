"""Model replicas in child processes (``TRACTATUS_EMBED_PROCESSES``, on by default).

A replica in a thread shares the server's interpreter lock: between torch operations the
model's own Python (each layer's forward call, the tokenizer hand-off) waits while a request
is validated, distilled or written. During an ingest on 2 cores ~10% of the CPU stood idle
that way, with both replicas busy (bench/README-ingest.md). A child process has an
interpreter of its own.

Each child is spawned (not forked: torch's and the Neo4j driver's threads do not survive a
fork), loads the model once, and encodes the chunks it is sent; rows come back as float32
arrays. All children start together on first use, so no model loads in the middle of a
load. A child that dies takes its call down with :class:`EmbeddingUnavailable`; the next
call starts a fresh set.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import threading
import time
import weakref
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ingest.embeddings import model as embeddings

PARENT_POLL_SECONDS = 0.5
_MODEL: Any = None
_ERROR: str | None = None
_LIVE: weakref.WeakSet[ProcessReplicas] = weakref.WeakSet()


def _outlive_no_parent(parent: int) -> None:
    """Exit once the server is gone, however it went: uvicorn ends on a re-raised SIGTERM,
    which skips the interpreter's exit hooks that would stop the children, and a SIGKILL
    skips everything."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(0)


def _start(model: str, threads: int) -> None:
    """In the child: load the model once (a failure is kept and reported per call)."""
    global _MODEL, _ERROR
    threading.Thread(target=_outlive_no_parent, args=(os.getppid(),), daemon=True).start()
    embeddings.use_threads(threads)
    try:
        _MODEL = embeddings.load_model(model)
    except embeddings.EmbeddingUnavailable as error:
        _ERROR = error.message


def _ready() -> str | None:
    return _ERROR


def _encode(texts: list[str], batch_size: int) -> Any:
    if _MODEL is None:
        raise embeddings.EmbeddingUnavailable(_ERROR or "the embedding model is not loaded")
    return embeddings.encode_with(_MODEL, texts, batch_size)


def _start_all(pool: ProcessPoolExecutor, replicas: int) -> str | None:
    """Start every child now (as many tasks at once as replicas: each one starts a child of
    its own); the first load error, if any."""
    try:
        errors = [f.result() for f in [pool.submit(_ready) for _ in range(replicas)]]
    except BrokenProcessPool:
        return "an embedding process could not start"
    return next((e for e in errors if e), None)


class ProcessReplicas:
    """``replicas`` child processes with a model each; chunks go to whichever is free."""

    def __init__(self, model: str, *, replicas: int, threads: int) -> None:
        self.model = model
        self.replicas = replicas
        self.threads = threads
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        _LIVE.add(self)

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                pool = ProcessPoolExecutor(
                    self.replicas,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start,
                    initargs=(self.model, self.threads),
                )
                error = _start_all(pool, self.replicas)
                if error is not None:
                    pool.shutdown(cancel_futures=True)
                    raise embeddings.EmbeddingUnavailable(error)
                self._pool = pool
            return self._pool

    def encode(self, chunks: list[list[str]], batch_size: int) -> list[Any]:
        """Rows for each chunk, in order; the chunks are encoded concurrently."""
        pool = self._executor()
        try:
            return list(pool.map(_encode, chunks, [batch_size] * len(chunks)))
        except BrokenProcessPool as error:
            self._discard(pool)
            raise embeddings.EmbeddingUnavailable(
                "an embedding process stopped; the next call starts new ones"
            ) from error

    def warm(self) -> None:
        self._executor()

    def pids(self) -> list[int]:
        """The children's process ids, once started (for monitoring and tests)."""
        with self._lock:
            pool = self._pool
        # ProcessPoolExecutor keeps its children by pid; it has no public accessor
        return sorted(pool._processes or {}) if pool is not None else []

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is pool:
                self._pool = None
        pool.shutdown(cancel_futures=True)  # broken: its manager thread has ended or is ending

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(cancel_futures=True)


@atexit.register
def _close_all() -> None:
    """Stop the children while the interpreter is whole: a pool left to the garbage collector
    at shutdown reports an ignored exception from its half-torn-down module."""
    for replicas in list(_LIVE):
        replicas.close()
