"""The FastAPI application: one router per resource, errors mapped in one place."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from ingest.distill.factory import make_distiller
from ingest.embeddings.embedder import make_embedder
from server import errors
from server.auth import KeyRing
from server.middleware import Authenticate, BodyLimit, Metrics
from server.routers import (
    assertions,
    events,
    facts,
    health,
    observations,
    ontology,
    quarantine,
    recall,
    tasks,
)
from server.settings import Settings, get_settings, open_driver


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    if settings.principals is None:
        raise ValueError("TRACTATUS_PRINCIPALS must name the principals TOML file")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        driver = open_driver(settings)
        app.state.driver = driver
        # the model itself loads lazily, once per process, on the first observation
        app.state.embedder = make_embedder(
            settings.embedding_model,
            batch_size=settings.embed_batch_size,
            cache_size=settings.embed_cache_size,
            replicas=settings.embed_replicas,
            processes=settings.embed_processes,
        )
        app.state.distiller = make_distiller(
            llm_url=settings.llm_url,
            llm_model=settings.llm_model,
            llm_timeout=settings.llm_timeout,
            llm_retries=settings.llm_retries,
            llm_api_key=(settings.llm_api_key.get_secret_value() if settings.llm_api_key else None),
            english_model=settings.english_model,
        )
        try:
            yield
        finally:
            driver.close()

    app = FastAPI(
        title="Tractatus",
        version="0.1.0",
        summary="A governed, append-only, bitemporal memory for AI agents.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.keyring = KeyRing(settings.principals)
    errors.install(app)
    for module in (
        assertions,
        facts,
        events,
        tasks,
        observations,
        ontology,
        quarantine,
        recall,
        health,
    ):
        app.include_router(module.router)
    # the last added runs first: metrics, then authentication, then the body limit
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(Authenticate, keyring=app.state.keyring)
    app.add_middleware(Metrics)
    return app
