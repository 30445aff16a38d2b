"""The FastAPI application: one router per resource, errors mapped in one place."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from fastapi import Depends, FastAPI
from neo4j.exceptions import DriverError, Neo4jError
from starlette.types import Lifespan

from graph_schema.core.clock import Clock, SystemClock
from graph_schema.lifecycle.types import SleepReport
from graph_schema.recall import warm
from graph_schema.schema.migrations import EMBEDDING_DIMENSIONS
from graph_schema.schema.space import EmbeddingSpaceMismatch, Guard
from ingest.distill.factory import make_distiller
from ingest.embeddings.model import model_identity
from ingest.lifecycle.access_log import AccessLog
from ingest.lifecycle.consolidate import Lifecycle
from ingest.lifecycle.sleep import SCHEDULER, Scheduler, run_sleep
from server import errors, openapi
from server.auth import KeyRing, PrincipalsInvalid
from server.before_routing import HeadProbes
from server.deps import known_query
from server.middleware import Authenticate, BodyLimit, Metrics, RateLimit, RequestId
from server.probe import StoreProbe
from server.ratelimit import RateLimiter
from server.routers import (
    assertions,
    entities,
    events,
    facts,
    health,
    observations,
    ontology,
    procedures,
    quarantine,
    recall,
    sleep,
    tasks,
)
from server.settings import (
    Settings,
    get_settings,
    open_driver,
    settings_cjk_reader,
    settings_embedder,
)

log = logging.getLogger("tractatus.app")


def _access_log(settings: Settings, app: FastAPI, clock: Clock) -> AccessLog | None:
    if not settings.access_log:
        return None
    return AccessLog(
        app.state.driver,
        database=settings.neo4j_database,
        clock=clock,
        capacity=settings.access_log_queue,
        flush_seconds=settings.access_log_flush,
    ).start()


def _scheduler(settings: Settings, app: FastAPI) -> Scheduler | None:
    if settings.sleep_interval is None:
        return None
    log: AccessLog | None = app.state.access_log

    def sleep_once() -> SleepReport:
        return run_sleep(
            app.state.driver,
            database=settings.neo4j_database,
            principal=SCHEDULER,
            life=app.state.lifecycle,
            config=settings.sleep_config(),
            flush=log.flush if log is not None else None,
        )

    return Scheduler(settings.sleep_interval, sleep_once).start()


@dataclass
class _Warming:
    """The warm-up thread and the event that stops it at shutdown."""

    thread: threading.Thread
    stop: threading.Event

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=10)


def _warm_recall(settings: Settings, app: FastAPI) -> _Warming:
    """Recall's statements planned in the background (:mod:`graph_schema.recall.warm`), so
    that the first caller of a store just started does not wait for Neo4j to plan them.
    A warm-up that fails (the store not up yet) leaves the plans to the first recalls, as
    without it; it writes nothing."""
    dimensions = None if app.state.embedder is None else EMBEDDING_DIMENSIONS
    stop = threading.Event()

    def run() -> None:
        started = time.monotonic()
        try:
            runs = warm.warm(
                app.state.driver,
                database=settings.neo4j_database,
                config=app.state.fusion,
                dimensions=dimensions,
                group_counts=app.state.keyring.group_counts(),
                stop=stop,
            )
        except (DriverError, Neo4jError, OSError) as error:
            log.warning("recall's plans not warmed (the first recalls will plan them): %s", error)
            return
        took = time.monotonic() - started
        if stop.is_set():
            log.info("recall's warm-up stopped at shutdown after %d shapes (%.1f s)", runs, took)
        else:
            log.info("recall's plans warmed: %d shapes in %.1f s", runs, took)

    thread = threading.Thread(target=run, name="warm-recall", daemon=True)
    thread.start()
    return _Warming(thread, stop)


def _space(settings: Settings, app: FastAPI) -> Guard | None:
    """The check that the store's vectors come from the configured model, done now: a
    refusal (:class:`EmbeddingSpaceMismatch`) stops the start. A store that cannot be reached
    now (as the probes class it: server/probe.py) is checked at the first request that
    embeds (``server.deps.get_embedder``)."""
    if app.state.embedder is None:
        return None
    guard = Guard(
        app.state.driver,
        database=settings.neo4j_database,
        model=model_identity(settings.embedding_model),
    )
    try:
        guard.ensure()
    except (DriverError, Neo4jError) as error:  # unreachable, refused credentials, offline
        log.warning("embedding space not checked at start (the store cannot answer: %s)", error)
    return guard


def _lifespan(settings: Settings, life: Lifecycle) -> Lifespan[FastAPI]:
    """What the application opens at start and closes at shutdown: the driver, the embedding
    model and distiller, the access log's thread and the sleep scheduler."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        try:
            app.state.keyring.check()
        except PrincipalsInvalid as refused:
            log.error("refused to start: %s", refused)
            raise
        driver = open_driver(settings)
        app.state.driver = driver
        probe_driver = open_driver(settings, probe=True)
        app.state.probe = StoreProbe(
            probe_driver, database=settings.neo4j_database, timeout=settings.probe_timeout
        )
        # the model itself loads lazily, once per process, on the first observation
        app.state.embedder = settings_embedder(settings)
        app.state.cjk_reader = settings_cjk_reader(settings)
        try:
            app.state.space = _space(settings, app)
        except EmbeddingSpaceMismatch as refused:
            log.error("refused to start: %s", refused.message)
            probe_driver.close()
            driver.close()
            raise
        app.state.distiller = make_distiller(
            llm_url=settings.llm_url,
            llm_model=settings.llm_model,
            llm_timeout=settings.llm_timeout,
            llm_retries=settings.llm_retries,
            llm_api_key=(settings.llm_api_key.get_secret_value() if settings.llm_api_key else None),
            english_model=settings.english_model,
        )
        app.state.access_log = _access_log(settings, app, life.clock)
        scheduler = _scheduler(settings, app)
        warming = _warm_recall(settings, app) if settings.recall_warm_up else None
        try:
            yield
        finally:
            if warming is not None:
                warming.close()
            if scheduler is not None:
                scheduler.close()
            if app.state.access_log is not None:
                app.state.access_log.close()
            probe_driver.close()
            driver.close()

    return lifespan


def create_app(settings: Settings | None = None, *, clock: Clock | None = None) -> FastAPI:
    """The application. ``clock`` is the one clock of every lifecycle rule (the real time by
    default; tests pass one they can move forward)."""
    settings = settings or get_settings()
    if settings.principals is None:
        raise ValueError("TRACTATUS_PRINCIPALS must name the principals TOML file")
    life = Lifecycle(policy=settings.lifecycle_policy(), clock=clock or SystemClock())
    app = FastAPI(
        title="Tractatus",
        version="0.1.0",
        summary="A governed, append-only, bitemporal memory for AI agents.",
        lifespan=_lifespan(settings, life),
        # a path with a trailing slash is no path of the API: 404 in the error shape, never a
        # 307 whose Location was built from the caller's Host (a new user's trial)
        redirect_slashes=False,
    )
    app.state.settings = settings
    app.state.lifecycle = life
    app.state.access_log = None
    app.state.space = None  # the embedding space's check, made at start (_space)
    app.state.fusion = settings.fusion()  # recall's configuration, built once
    app.state.keyring = KeyRing(settings.principals)
    errors.install(app)
    openapi.install(app, settings)
    for module in (
        assertions,
        facts,
        events,
        tasks,
        observations,
        ontology,
        quarantine,
        recall,
        sleep,
        entities,
        procedures,
    ):
        # the API refuses query parameters it does not know; probes and scrapers may add any
        app.include_router(module.router, dependencies=[Depends(known_query)])
    app.include_router(health.router)
    # the last added runs first: the request id, metrics, HEAD on the probes, authentication,
    # the rate limit, the body limit
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    if settings.rate_limit > 0:
        limiter = RateLimiter(rate=settings.rate_limit, burst=settings.rate_burst)
        app.add_middleware(RateLimit, limiter=limiter)
    app.add_middleware(Authenticate, keyring=app.state.keyring)
    app.add_middleware(HeadProbes)
    app.add_middleware(Metrics)
    app.add_middleware(RequestId)
    return app
