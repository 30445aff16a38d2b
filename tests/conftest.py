"""Shared fixtures: a real Neo4j (started by `make test`) and the API over real HTTP."""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from neo4j import Driver

from graph_schema.schema import migrations, ontology
from server.app import create_app
from server.settings import Settings, open_driver

KEYS = {
    "alice": "tr_test_alice_000000000000000000000000",
    "bob": "tr_test_bob_00000000000000000000000000",
    "carol": "tr_test_carol_000000000000000000000000",
    "admin": "tr_test_admin_000000000000000000000000",
    "public": "tr_test_public_00000000000000000000000",
    "dave": "tr_test_dave_000000000000000000000000",
    "erin": "tr_test_erin_000000000000000000000000",
    "frank": "tr_test_frank_00000000000000000000000",
    "grace": "tr_test_grace_00000000000000000000000",
}
PRINCIPALS = f"""
[[principal]]
id = "alice"
key = "{KEYS["alice"]}"
groups = ["finance"]

[[principal]]
id = "bob"
key = "{KEYS["bob"]}"
groups = ["sales"]

[[principal]]
id = "carol"
key = "{KEYS["carol"]}"
groups = ["finance", "sales"]

[[principal]]
id = "admin"
key = "{KEYS["admin"]}"
groups = []
role = "admin"

[[principal]]
id = "public"
key = "{KEYS["public"]}"
groups = []

[[principal]]
id = "dave"
key = "{KEYS["dave"]}"
groups = ["hr"]

[[principal]]
id = "erin"
key = "{KEYS["erin"]}"
groups = ["legal"]

[[principal]]
id = "frank"
key = "{KEYS["frank"]}"
groups = ["eng", "eng.platform"]

[[principal]]
id = "grace"
key = "{KEYS["grace"]}"
groups = ["ops"]
"""


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
        _reset(drv, settings)
        yield drv


def _reset(drv: Driver, settings: Settings) -> None:
    """Start from an empty store; only on a loopback server or when explicitly allowed."""
    host = settings.neo4j_uri.split("://", 1)[-1].split(":", 1)[0]
    if host not in ("127.0.0.1", "localhost") and os.environ.get("TRACTATUS_TEST_WIPE") != "1":
        pytest.fail("refusing to wipe a non-loopback Neo4j; set TRACTATUS_TEST_WIPE=1")
    db = settings.neo4j_database
    with drv.session(database=db) as session:
        session.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS").consume()
    migrations.migrate(drv, database=db)
    ontology.seed(drv, database=db)


@pytest.fixture
def fresh_store(driver: Driver, settings: Settings) -> None:
    """An empty, migrated store for tests that judge the whole store (e.g. check-chains)."""
    _reset(driver, settings)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def base_url(settings: Settings, driver: Driver) -> Iterator[str]:
    port = _free_port()
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the API server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


class Api:
    """A small HTTP client bound to one principal."""

    def __init__(self, base_url: str, key: str | None) -> None:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.client = httpx.Client(base_url=base_url, headers=headers, timeout=60)

    def post(self, path: str, body: Any = None, **kw: Any) -> httpx.Response:
        return self.client.post(path, json=body, **kw)

    def get(self, path: str, **params: Any) -> httpx.Response:
        return self.client.get(path, params={k: v for k, v in params.items() if v is not None})


@pytest.fixture(scope="session")
def api(base_url: str) -> dict[str, Api]:
    return {name: Api(base_url, key) for name, key in KEYS.items()}


@pytest.fixture
def subject() -> str:
    return f"test:{uuid.uuid4().hex[:12]}"


def assertion(subject: str, predicate: str, obj: Any, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "subject": subject,
        "predicate": predicate,
        "object": obj,
        "source_kind": "user_stated",
        "asserted_by": subject,
        "confidence": 0.9,
        "evidence": {"quote": f"{predicate} is {obj}"},
    }
    body.update(extra)
    return body


def count_nodes(driver: Driver, label: str) -> int:
    records, _, _ = driver.execute_query(f"MATCH (n:{label}) RETURN count(n) AS c")
    return int(records[0]["c"])


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print the probe suite's count of attacks and leaks when it ran."""
    from tests.integration.probes import RESULTS

    if RESULTS["attacks"]:
        terminalreporter.write_sep("=", "adversarial probes")
        terminalreporter.write_line(
            f"{len(RESULTS['attacks'])} attacks, {len(RESULTS['leaks'])} leaks"
        )
        for leak in RESULTS["leaks"]:
            terminalreporter.write_line(f"LEAK {leak}")
