"""Fixtures that need services: the real Neo4j (started by `make test`, found through
NEO4J_URI) and the API over real HTTP, served in a thread of the test process."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from neo4j import Driver

from bench.harness import serve_app
from graph_schema.schema import migrations, ontology, space
from ingest.embeddings.embedder import DISABLED
from ingest.embeddings.model import model_identity
from server.app import create_app
from server.settings import Settings, open_driver
from tests.fakes import ShiftedClock
from tests.helpers import KEYS, PRINCIPALS, Api
from tests.integration.lifecycle_helpers import lifecycle_server, light


def _settings(principals: Path) -> Settings:
    if "NEO4J_URI" not in os.environ:
        pytest.fail("integration tests need NEO4J_URI: run them with `make test`")
    return Settings(principals=principals)


@pytest.fixture(scope="session")
def principals_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("auth") / "principals.toml"
    path.write_text(PRINCIPALS, "utf-8")
    return path


@pytest.fixture(scope="session")
def settings(principals_file: Path) -> Settings:
    return _settings(principals_file)


@pytest.fixture(scope="session")
def driver(settings: Settings) -> Iterator[Driver]:
    with open_driver(settings) as drv:
        drv.verify_connectivity()
        reset_store(drv, settings)
        yield drv


def reset_store(drv: Driver, settings: Settings) -> None:
    """Start from an empty store; only on a loopback server or when explicitly allowed."""
    host = settings.neo4j_uri.split("://", 1)[-1].split(":", 1)[0]
    if host not in ("127.0.0.1", "localhost") and os.environ.get("TRACTATUS_TEST_WIPE") != "1":
        pytest.fail("refusing to wipe a non-loopback Neo4j; set TRACTATUS_TEST_WIPE=1")
    db = settings.neo4j_database
    with drv.session(database=db) as session:
        session.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS").consume()
    migrations.migrate(drv, database=db)
    ontology.seed(drv, database=db)
    record_space(drv, settings)


def record_space(drv: Driver, settings: Settings) -> None:
    """Record the configured embedding model on the (empty) store, as the first start with it
    would: a test that writes vectors before any server starts leaves no unrecorded vectors,
    which a later start would take for an older version's (graph_schema/schema/space.py)."""
    if settings.embedding_model.strip().lower() not in DISABLED:
        model = model_identity(settings.embedding_model)
        space.ensure(drv, database=settings.neo4j_database, model=model)


@pytest.fixture
def fresh_store(driver: Driver, settings: Settings) -> None:
    """An empty, migrated store for tests that judge the whole store (e.g. check-chains)."""
    reset_store(driver, settings)


@pytest.fixture(scope="session")
def session_app(settings: Settings, driver: Driver) -> FastAPI:
    """The session's API (served by ``base_url``); its state holds the access log's thread."""
    return create_app(settings)


@pytest.fixture(scope="session")
def base_url(session_app: FastAPI) -> Iterator[str]:
    with serve_app(session_app) as url:
        yield url


@pytest.fixture(scope="session")
def api(base_url: str) -> dict[str, Api]:
    return {name: Api(base_url, key) for name, key in KEYS.items()}


@pytest.fixture(scope="module")
def clock() -> ShiftedClock:
    """A lifecycle test module's own clock, which its tests move (a module may define its
    own ``clock``)."""
    return ShiftedClock()


@pytest.fixture(scope="module")
def apis(settings: Settings, driver: Driver, clock: ShiftedClock) -> Iterator[dict[str, Api]]:
    """A lifecycle test module's own server on ``clock``: light settings, no embeddings (a
    module may define its own ``apis``, with embeddings or a switchable distiller)."""
    with lifecycle_server(light(settings, embedding_model="none"), clock) as served:
        yield served


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print the probe suite's count of attacks and leaks when it ran."""
    from tests.integration.probes import RESULTS

    if RESULTS["attacks"] or RESULTS["measures"]:
        terminalreporter.write_sep("=", "adversarial probes")
        terminalreporter.write_line(
            f"{len(RESULTS['attacks'])} attacks, {len(RESULTS['leaks'])} leaks"
        )
        for leak in RESULTS["leaks"]:
            terminalreporter.write_line(f"LEAK {leak}")
        for measure in RESULTS["measures"]:
            terminalreporter.write_line(measure)
