"""POST /v1/recall (hybrid retrieval, filtered before ranking) and POST /v1/recall/index
(admin: build the derived search passages of stored observations). See docs/recall.md."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body

from graph_schema.recall.pipeline import RecallQuery, is_cjk, recall
from graph_schema.recall.types import IndexAnswer, IndexRequest, RecallAnswer, RecallRequest
from ingest import passages
from ingest.embeddings.texts import query_vector
from server.deps import (
    AccessLogDep,
    AdminDep,
    CjkReaderDep,
    DriverDep,
    EmbedderDep,
    FusionDep,
    PrincipalDep,
    SettingsDep,
)
from server.errors import BODY, EMBEDS, V1, declared
from server.params import coordinates
from server.routing import JSONRoute

router = APIRouter(prefix="/v1/recall", tags=["recall"], route_class=JSONRoute)


@router.post("", response_model=RecallAnswer, responses=declared(*V1, *BODY, *EMBEDS))
def post_recall(
    request: RecallRequest,
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    embedder: EmbedderDep,
    access_log: AccessLogDep,
    fusion: FusionDep,
    reader: CjkReaderDep,
) -> RecallAnswer:
    """Ranked assertions with evidence, scores and ``why``; ``status`` answered/not_found."""
    as_of, known_at = coordinates(request.as_of, request.known_at)
    names = fusion.enabled("names")
    vector = None
    # a CJK query is searched without its vector: it needs no embedding (nor a loaded model)
    if embedder is not None and not is_cjk(request.query):
        vector = query_vector(embedder, request.query, names=names)
    query = RecallQuery(
        text=request.query,
        k=request.k,
        as_of=as_of,
        known_at=known_at,
        filters=request.filters,
        vector=vector,
        reader=reader,
    )
    return recall(
        driver,
        database=settings.neo4j_database,
        principal=principal,
        query=query,
        config=fusion,
        recorder=access_log,
    )


@router.post(
    "/index", response_model=IndexAnswer, responses=declared(*V1, *BODY, *EMBEDS, "forbidden")
)
def post_index(
    driver: DriverDep,
    settings: SettingsDep,
    principal: AdminDep,
    embedder: EmbedderDep,
    request: Annotated[IndexRequest | None, Body()] = None,
) -> IndexAnswer:
    """Admin: build passages for observations that have none (oldest first)."""
    options = request or IndexRequest()
    return passages.index_pending(
        driver,
        database=settings.neo4j_database,
        embedder=embedder,
        conversation_id=options.conversation_id,
        max_batches=options.max_batches,
        limit=options.batch_size,
    )
