"""POST /v1/recall (hybrid retrieval, filtered before ranking) and POST /v1/recall/index
(admin: build the derived search passages of stored observations). See docs/recall.md."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, Field, StrictInt, ValidationError

from graph_schema.core.timeutil import parse_rfc3339
from graph_schema.core.types import Name, Strict
from graph_schema.recall.pipeline import RecallQuery, recall
from graph_schema.recall.types import RecallAnswer, RecallRequest
from ingest import passages
from server.deps import AdminDep, DriverDep, EmbedderDep, FusionDep, PrincipalDep, SettingsDep
from server.params import coordinates

router = APIRouter(prefix="/v1/recall", tags=["recall"])


class IndexRequest(Strict):
    conversation_id: Name | None = None
    max_batches: Annotated[StrictInt, Field(ge=1, le=100)] = 1
    batch_size: Annotated[StrictInt, Field(ge=1, le=1_000)] = passages.DEFAULT_BATCH


class IndexAnswer(BaseModel):
    indexed: int
    pending: int


def _validated(model: type[Any], payload: Any) -> Any:
    """Strict validation of a raw JSON body; failures answer 422 in the one error shape."""
    try:
        return model.model_validate(payload)
    except ValidationError as error:
        problems = [
            {"loc": ("body", *e["loc"]), "msg": e["msg"], "type": e["type"]}
            for e in error.errors(include_url=False)
        ]
        raise RequestValidationError(problems) from error


_SCHEMA = {
    "requestBody": {
        "content": {
            "application/json": {
                "schema": RecallRequest.model_json_schema(
                    ref_template="#/components/schemas/{model}"
                )
            }
        },
        "required": True,
    }
}


@router.post("", response_model=RecallAnswer, openapi_extra=_SCHEMA)
def post_recall(
    payload: Annotated[Any, Body()],
    driver: DriverDep,
    settings: SettingsDep,
    principal: PrincipalDep,
    embedder: EmbedderDep,
    fusion: FusionDep,
) -> RecallAnswer:
    """Ranked assertions with evidence, scores and ``why``; ``status`` answered/not_found."""
    request: RecallRequest = _validated(RecallRequest, payload)
    as_of, known_at = coordinates(None, None)
    if request.as_of is not None:
        as_of = parse_rfc3339(request.as_of)
    if request.known_at is not None:
        known_at = min(parse_rfc3339(request.known_at), known_at)
    vector = embedder.embed([request.query])[0] if embedder is not None else None
    query = RecallQuery(
        text=request.query,
        k=request.k,
        as_of=as_of,
        known_at=known_at,
        filters=request.filters,
        vector=vector,
    )
    return recall(
        driver, database=settings.neo4j_database, principal=principal, query=query, config=fusion
    )


@router.post("/index", response_model=IndexAnswer)
def post_index(
    driver: DriverDep,
    settings: SettingsDep,
    principal: AdminDep,
    embedder: EmbedderDep,
    payload: Annotated[Any, Body()] = None,
) -> IndexAnswer:
    """Admin: build passages for observations that have none (oldest first)."""
    request: IndexRequest = _validated(IndexRequest, payload or {})
    report = passages.index_pending(
        driver,
        database=settings.neo4j_database,
        embedder=embedder,
        conversation_id=request.conversation_id,
        max_batches=request.max_batches,
        limit=request.batch_size,
    )
    return IndexAnswer(**report.body())
