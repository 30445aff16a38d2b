"""An embedding model exported to ONNX, run with onnxruntime: the default model, e5-small-v2.

A model directory holds ``model.onnx``, ``tokenizer.json`` (the Hugging Face ``tokenizers``
format) and ``tractatus-model.json``, which says how the model is used::

    {"name": "e5-small-v2-q", "pooling": "mean", "max_tokens": 512,
     "query_prefix": "query: ", "passage_prefix": "passage: "}

``scripts/embedding_model.py`` writes such a directory from the model's published archive
(hash-checked). The prefixes are the model's own convention: e5 was trained with questions
marked ``query:`` and searched texts marked ``passage:``; an embedder applies them
(:class:`ingest.embeddings.embedder.SentenceTransformerEmbedder`), this module does not.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SPEC_FILE = "tractatus-model.json"
MODEL_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"


@dataclass(frozen=True)
class ModelSpec:
    """How a model directory's model is used: pooling, length bound, the two prefixes."""

    name: str
    pooling: str = "mean"
    max_tokens: int = 512
    query_prefix: str = ""
    passage_prefix: str = ""


def read_spec(directory: str) -> ModelSpec | None:
    """The spec of an ONNX model directory; None for anything else (a sentence-transformers
    model directory or name)."""
    path = Path(directory) / SPEC_FILE
    if not path.is_file():
        return None
    raw = json.loads(path.read_text(encoding="utf-8"))
    return ModelSpec(
        name=str(raw["name"]),
        pooling=str(raw.get("pooling", "mean")),
        max_tokens=int(raw.get("max_tokens", 512)),
        query_prefix=str(raw.get("query_prefix", "")),
        passage_prefix=str(raw.get("passage_prefix", "")),
    )


class OnnxEncoder:
    """One inference session and one tokenizer; not safe to share between threads (the
    embedder lends a whole replica to one call at a time)."""

    def __init__(self, directory: str, spec: ModelSpec, threads: int) -> None:
        import onnxruntime
        from onnxruntime.capi import onnxruntime_pybind11_state as state
        from tokenizers import Tokenizer

        for name in (MODEL_FILE, TOKENIZER_FILE):
            if not (Path(directory) / name).is_file():
                raise FileNotFoundError(f"{name} is missing from {directory}")
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        try:
            self.session = onnxruntime.InferenceSession(
                str(Path(directory) / MODEL_FILE), options, providers=["CPUExecutionProvider"]
            )
        except (state.Fail, state.InvalidProtobuf, state.InvalidGraph) as error:
            # onnxruntime's own errors derive from Exception only: said as a ValueError, which
            # the loader reports as the model being unavailable
            raise ValueError(f"{MODEL_FILE} cannot be loaded: {error}") from error
        self.tokenizer = Tokenizer.from_file(str(Path(directory) / TOKENIZER_FILE))
        self.tokenizer.enable_truncation(spec.max_tokens)
        self.inputs = {i.name for i in self.session.get_inputs()}
        self.spec = spec

    def _batch(self, texts: list[str]) -> Any:
        import numpy

        encoded = self.tokenizer.encode_batch(texts)
        ids = numpy.array([e.ids for e in encoded], dtype=numpy.int64)
        mask = numpy.array([e.attention_mask for e in encoded], dtype=numpy.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self.inputs:
            feed["token_type_ids"] = numpy.zeros_like(ids)
        hidden = self.session.run(None, feed)[0]
        if self.spec.pooling == "cls":
            rows = hidden[:, 0]
        else:
            rows = (hidden * mask[..., None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
        rows = rows / numpy.linalg.norm(rows, axis=1, keepdims=True)
        return rows.astype(numpy.float32)

    def encode(self, texts: list[str], batch_size: int = 1, **_: Any) -> Any:
        """Unit-length float32 rows, in order, one text per run.

        The model is quantised dynamically: each activation is scaled by the range of the
        whole batch, padding included, so in a batch a text's vector would depend on the
        texts beside it (up to 0.017 per dimension, measured). One text per run makes a
        vector a function of its text alone (the cache, replicas and a repeated write all
        agree), and on this CPU it costs little: 178 texts/s on one thread against 220 in
        batches of 4. ``batch_size`` and the keyword arguments of a sentence-transformers
        model are accepted and ignored; rows are always normalised."""
        import numpy

        if not texts:
            return numpy.zeros((0, 0), dtype=numpy.float32)
        return numpy.concatenate([self._batch([text]) for text in texts])
