"""A transaction conflict that outlasts the driver's retries is ``503 store_busy``, not
``store_unavailable``: a new user's trial saw a deadlock answered "the graph store is
unavailable" while ``/healthz`` said ``neo4j: up``.

The deadlock is real, and no database is mocked: the server's own driver (its retries cut to
half a second) runs a transaction that locks node A and then B, while another transaction of
the test, begun first, holds B and waits for A; Neo4j aborts the younger, the server's, at
every attempt until the driver gives up."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import httpx
import pytest
from fastapi import FastAPI, Request
from neo4j import Driver, ManagedTransaction
from neo4j.exceptions import Neo4jError

from bench.harness import serve_app
from server.app import create_app
from server.settings import Settings

pytestmark = pytest.mark.integration

PROBE = "LockProbeBusy"
CREATE = f"UNWIND ['a', 'b'] AS name MERGE (:{PROBE} {{name: name}})"
LOCK = f"MATCH (n:{PROBE} {{name: $name}}) SET n.held = coalesce(n.held, 0) + 1"
DROP = f"MATCH (n:{PROBE}) DELETE n"
# how long the server's transaction lets the rival ask for A before it asks for B
SETTLE = 0.5


class Rival:
    """A transaction of the test that locks B, then asks for A. Each one is started before
    the server's attempt it deadlocks with begins, so that it is the older of the two and
    Neo4j aborts the server's (it aborts the younger)."""

    def __init__(self, driver: Driver, database: str) -> None:
        self.driver, self.database = driver, database
        self.holds_b, self.server_holds_a = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.holds_b.wait(10), "the rival did not get its lock"

    def _run(self) -> None:
        with self.driver.session(database=self.database) as session:
            tx = session.begin_transaction()
            try:
                tx.run(LOCK, name="b").consume()
                self.holds_b.set()
                self.server_holds_a.wait(10)
                tx.run(LOCK, name="a").consume()
            except Neo4jError:  # Neo4j aborted this one instead (not expected)
                pass
            finally:
                tx.close()  # rolled back: the probe nodes keep no trace


def deadlocking(driver: Driver, database: str) -> None:
    """The server's transaction, run by its driver: lock A, then B, while a rival holds B and
    waits for A. Every attempt deadlocks: a failed one starts the next attempt's rival."""
    rivals = [Rival(driver, database)]

    def attempt(tx: ManagedTransaction) -> None:
        try:
            tx.run(LOCK, name="a").consume()
            rivals[-1].server_holds_a.set()
            time.sleep(SETTLE)  # the rival is now waiting for A
            tx.run(LOCK, name="b").consume()
        except Neo4jError:
            rivals[-1].thread.join(10)
            rivals.append(Rival(driver, database))
            raise

    try:
        with driver.session(database=database) as session:
            session.execute_write(attempt)
    finally:  # the rival started for an attempt that never came ends now
        rivals[-1].server_holds_a.set()
        rivals[-1].thread.join(10)


@pytest.fixture
def busy_server(settings: Settings, driver: Driver) -> Iterator[str]:
    driver.execute_query(CREATE, database_=settings.neo4j_database)
    short = settings.model_copy(update={"neo4j_retry_time": 0.5, "embedding_model": "none"})
    app: FastAPI = create_app(short)

    def deadlock(request: Request) -> dict[str, str]:
        deadlocking(request.app.state.driver, short.neo4j_database)
        return {"status": "written"}

    app.add_api_route("/deadlock", deadlock, methods=["POST"])
    try:
        with serve_app(app) as url:
            yield url
    finally:
        driver.execute_query(DROP, database_=settings.neo4j_database)


def test_a_deadlock_that_outlasts_the_retries_is_store_busy(busy_server: str) -> None:
    with httpx.Client(base_url=busy_server, timeout=60) as client:
        response = client.post("/deadlock")
        health = client.get("/healthz")
    assert response.status_code == 503, response.text
    error = response.json()["error"]
    assert error["code"] == "store_busy"
    assert "busy" in error["message"] and "unavailable" not in error["message"]
    assert "nothing was written" in error["message"]
    assert int(response.headers["Retry-After"]) >= 1
    # the store is up all along: busy is not unreachable
    assert health.status_code == 200 and health.json()["neo4j"] == "up"
