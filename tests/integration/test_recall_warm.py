"""Recall's plans: one per statement whatever the lengths of the lists a recall passes, and all
of them made by the warm-up at start, so that a recall after it plans nothing. Read from
Neo4j's own count of the plans it holds (``db.clearQueryCaches()`` says how many it cleared),
not from a clock."""

from __future__ import annotations

import logging
import re
import threading
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from fastapi import FastAPI
from neo4j import Driver

from bench.harness import serve_app
from graph_schema.core.types import Principal
from graph_schema.recall import pipeline, warm
from graph_schema.recall.types import RecallFilters
from graph_schema.schema.migrations import EMBEDDING_DIMENSIONS
from ingest.lifecycle.access_log import AccessLog
from server.app import create_app
from server.settings import Settings
from tests.helpers import Api, turn

pytestmark = pytest.mark.integration

READER = Principal(id="warm-reader")
VECTOR = [1.0] + [0.0] * (EMBEDDING_DIMENSIONS - 1)
CHAT = [
    ("Ann", "I finally adopted a cat last week, her name is Miso."),
    ("Bo", "Congratulations! I started cello lessons on Monday."),
    ("Ann", "我家的猫叫团团，今年三岁了。"),
    ("Bo", "My knee hurts after the hiking trip in Wales."),
]


def quiet(app: FastAPI) -> None:
    """Wait for what the session's server runs beside the test, for it plans statements too:
    its warm-up, and its access log's thread, which writes the reads of earlier tests within
    a second (one plan more in a count, seen once in CI)."""
    for thread in threading.enumerate():
        if thread.name == "warm-recall":
            thread.join(timeout=300)
    log: AccessLog | None = getattr(app.state, "access_log", None)
    if log is not None:
        assert log.flush(), "the access log did not write within a minute"


def planned(app: FastAPI, driver: Driver, database: str, work: Callable[[], object]) -> int:
    """How many plans Neo4j holds after ``work`` on an emptied cache."""
    quiet(app)
    driver.execute_query("CALL db.clearQueryCaches()", database_=database)
    work()
    value = driver.execute_query("CALL db.clearQueryCaches()", database_=database).records
    found = re.search(r"(\d+) quer", str(value[0]["value"]))
    return int(found.group(1)) if found else 0


@pytest.fixture(scope="module")
def chats(api: dict[str, Api]) -> list[str]:
    """The same chat in a conversation of a short id (2-10 characters) and of a long one."""
    ids = [f"w-{uuid.uuid4().hex[:6]}", f"warm-conversation-{uuid.uuid4().hex}"]
    for conversation in ids:
        for n, (speaker, text) in enumerate(CHAT):
            response = api["alice"].post("/v1/observations", turn(conversation, n, speaker, text))
            assert response.status_code == 201, response.text
    return ids


def test_the_lengths_of_a_recalls_lists_make_no_new_plans(
    session_app: FastAPI, driver: Driver, settings: Settings, api: dict[str, Api], chats: list[str]
) -> None:
    """A query of one term or of twelve, three groups to expand or twenty: the same plans.
    A read through the API just before the second count leaves the server's access log
    something to write while the test counts: ``quiet`` waits for it."""
    database, config = settings.neo4j_database, settings.fusion()
    now = datetime.now(UTC)

    def lists(sizes: list[int]) -> Callable[[], None]:
        def work() -> None:
            with driver.session(database=database) as session:
                for n in sizes:
                    text = " ".join(f"word{i}" for i in range(n))
                    query = pipeline.RecallQuery(text, 10, now, now, RecallFilters(), VECTOR)
                    p = pipeline.parameters(READER, query, config.exact_limit)
                    ids = [f"no-such-group-{i}" for i in range(n)]
                    session.execute_read(pipeline.candidate_lists, p, query, config)
                    session.execute_read(pipeline.neighbours, p, ids)
                    session.execute_read(pipeline.fetch_results, p, ids)
                    session.execute_read(pipeline.fetch_assertions, p, ids)

        return work

    one = planned(session_app, driver, database, lists([1]))
    assert one > 0
    body = {"query": "Ann's cat", "k": 3, "filters": {"conversation_id": chats[0]}}
    response = api["alice"].post("/v1/recall", body)
    assert response.status_code == 200 and response.json()["results"], response.text
    assert planned(session_app, driver, database, lists([1, 3, 12, 20])) == one


def compiling(driver: Driver, database: str, work: Callable[[], object]) -> int:
    """Microseconds Neo4j spent compiling the statements of ``work`` (its query statistics,
    ``db.stats``), on the plans it holds when called."""
    for step in ("stop", "clear", "collect"):
        driver.execute_query(f"CALL db.stats.{step}('QUERIES')", database_=database)
    work()
    records = driver.execute_query(
        "CALL db.stats.retrieve('QUERIES') YIELD data RETURN data", database_=database
    ).records
    driver.execute_query("CALL db.stats.stop('QUERIES')", database_=database)
    return sum(
        int(i["elapsedCompileTimeInUs"])
        for r in records
        if "db.stats" not in r["data"]["query"]
        for i in r["data"]["invocations"]
    )


def test_a_recall_after_the_warm_up_does_not_wait_for_plans(
    session_app: FastAPI, driver: Driver, settings: Settings, chats: list[str]
) -> None:
    """The same recalls (three questions, three filter shapes, k 3 and 10) on an emptied
    plan cache, then after the warm-up: compiling took a small share of what it took cold
    (a ratio in one run; the cold recalls plan every statement, ~0.1-1 s each: 7.0 s in all
    against 0.11 s after the warm-up on the reference machine)."""
    database, config = settings.neo4j_database, settings.fusion()

    def recalls() -> None:
        now = datetime.now(UTC)
        shapes = [RecallFilters(), *(RecallFilters(conversation_id=c) for c in chats)]
        for filters in shapes:
            for text in ("What is the name of Ann's cat?", "cello", "小王的猫叫什么名字？"):
                for k in (3, 10):
                    query = pipeline.RecallQuery(text, k, now, now, filters, VECTOR)
                    answer = pipeline.recall(
                        driver, database=database, principal=READER, query=query, config=config
                    )
                    assert answer.results, (text, filters)

    quiet(session_app)
    driver.execute_query("CALL db.clearQueryCaches()", database_=database)
    cold = compiling(driver, database, recalls)
    driver.execute_query("CALL db.clearQueryCaches()", database_=database)
    runs = warm.warm(
        driver,
        database=database,
        config=config,
        dimensions=EMBEDDING_DIMENSIONS,
        group_counts=[len(READER.groups)],
    )
    assert runs == 14  # 7 filter shapes, English and CJK
    warmed = compiling(driver, database, recalls)
    assert warmed < 0.2 * cold, (warmed, cold)


def test_the_warm_up_writes_nothing_and_stops_when_told(
    session_app: FastAPI, driver: Driver, settings: Settings
) -> None:
    quiet(session_app)  # the access log's own writes are not the warm-up's
    count = "MATCH (n) OPTIONAL MATCH (n)-[r]->() RETURN count(DISTINCT n) AS n, count(r) AS r"
    before = driver.execute_query(count).records[0].data()
    runs = warm.warm(
        driver,
        database=settings.neo4j_database,
        config=settings.fusion(),
        dimensions=None,  # a server that embeds nothing: lexical lists only
    )
    assert runs == 14
    assert driver.execute_query(count).records[0].data() == before
    stop = threading.Event()
    stop.set()
    database = settings.neo4j_database
    assert (
        warm.warm(driver, database=database, config=settings.fusion(), dimensions=None, stop=stop)
        == 0
    )


@pytest.mark.parametrize("on", [True, False])
def test_the_server_warms_recall_at_start_unless_told_not_to(
    settings: Settings, caplog: pytest.LogCaptureFixture, on: bool
) -> None:
    caplog.set_level(logging.INFO, logger="tractatus.app")
    app = create_app(settings.model_copy(update={"recall_warm_up": on}))
    with serve_app(app):
        deadline = time.monotonic() + 120
        while on and time.monotonic() < deadline and not _warmed(caplog):
            time.sleep(0.2)
        threads = [t.name for t in threading.enumerate()]
    assert _warmed(caplog) is on
    if not on:
        assert "warm-recall" not in threads


def _warmed(caplog: pytest.LogCaptureFixture) -> bool:
    return any("recall's plans warmed" in r.getMessage() for r in caplog.records)
