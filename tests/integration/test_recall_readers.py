"""Readers terms (graph_schema/core/cypher.py): what recall asks Lucene for is bounded by the
caller's groups, and the exact vector scan finds what the index finds."""

from __future__ import annotations

import re
import uuid
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from neo4j import Driver

from graph_schema.core import cypher as core_cypher
from graph_schema.core.types import Principal
from graph_schema.recall import cypher as recall_cypher
from graph_schema.recall.fusion import FusionConfig
from graph_schema.recall.pipeline import RecallQuery, fulltext_parameters, parameters, recall
from graph_schema.schema import migrations
from ingest.embeddings.embedder import make_embedder
from server.settings import Settings
from tests.helpers import Api, assertion

pytestmark = pytest.mark.integration

# every character a group name may hold, in the cases that must not meet
GROUPS = ["Team-A", "team-a", "team_a", "team.a", "team:a", "TEAM:A", "teama", "a", "A", "_", "-"]


def _terms(driver: Driver, groups: list[str]) -> list[str]:
    records, _, _ = driver.execute_query(
        "UNWIND $groups AS g WITH g, {access: [g]} AS n RETURN g, "
        + core_cypher.readers_of("n")
        + " AS term",
        groups=groups,
    )
    found = {r["g"]: r["term"] for r in records}
    return [found[g] for g in groups]


def test_each_group_has_its_own_term_that_no_analyzer_splits(driver: Driver) -> None:
    terms = _terms(driver, GROUPS)
    assert len(set(terms)) == len(GROUPS), dict(zip(GROUPS, terms, strict=True))
    assert all(re.fullmatch(r"g[a-z0-9_]+0", t) for t in terms), terms
    marker = f"readersprobe{uuid.uuid4().hex[:8]}"
    driver.execute_query(
        "UNWIND range(0, size($terms) - 1) AS i "
        "CREATE (:Assertion {id: $marker + toString(i), text: $marker, readers: $terms[i]})",
        terms=terms,
        marker=marker,
    )
    driver.execute_query("CALL db.awaitIndexes(60)")
    try:
        for index in ("assertion_text", "assertion_text_cjk"):
            for i, term in enumerate(terms):
                records, _, _ = driver.execute_query(
                    "CALL db.index.fulltext.queryNodes($index, $q) YIELD node "
                    "WHERE node.text = $marker RETURN collect(node.id) AS ids",
                    index=index,
                    q=f"+readers:({term}) +text:({marker})",
                    marker=marker,
                )
                assert records[0]["ids"] == [f"{marker}{i}"], (index, GROUPS[i])
    finally:
        driver.execute_query("MATCH (a:Assertion) WHERE a.text = $m DETACH DELETE a", m=marker)


def test_written_nodes_carry_their_readers_and_the_migration_restores_them(
    api: dict[str, Api], driver: Driver
) -> None:
    subject = f"readers:{uuid.uuid4().hex[:8]}"
    for access in ([], ["finance"], ["finance", "sales"]):
        body = assertion(subject, "tech_stack", f"stack-{len(access)}", access=access)
        assert api["carol"].post("/v1/assertions", body).status_code == 201
    query = "MATCH (a:Assertion {subject: $s}) RETURN a.object AS o, a.readers AS r ORDER BY o"
    records, _, _ = driver.execute_query(query, s=subject)
    expected = ["pub0", "gfinance0", "gfinance0 gsales0"]
    assert [r["r"] for r in records] == expected
    driver.execute_query("MATCH (a:Assertion {subject: $s}) REMOVE a.readers", s=subject)
    for step in recall_cypher.READERS_STEPS:
        migrations._run_step(driver, step, database="neo4j")
    records, _, _ = driver.execute_query(query, s=subject)
    assert [r["r"] for r in records] == expected


def test_the_exact_scan_finds_what_the_vector_index_finds(
    api: dict[str, Api], driver: Driver, settings: Settings
) -> None:
    token = uuid.uuid4().hex[:8]
    topics = ["glacier hiking", "sourdough baking", "chess openings", "tax returns"]
    for i, topic in enumerate(topics * 3):
        body = assertion(f"exact:{token}:{i}", "said", f"{topic} note {i}", access=["finance"])
        assert api["alice"].post("/v1/assertions", body).status_code == 201
    embedder = make_embedder(settings.embedding_model, batch_size=8)
    assert embedder is not None
    now = datetime.now(UTC)
    alice = Principal(id="alice", groups=("finance",))
    for topic in topics:
        query = RecallQuery(
            text=f"{topic} {token}",
            k=10,
            as_of=now,
            known_at=now,
            vector=embedder.embed_query([topic])[0],
        )
        answers = [
            recall(
                driver,
                database=settings.neo4j_database,
                principal=alice,
                query=query,
                config=replace(FusionConfig(), exact_limit=limit),
            )
            for limit in (0, 100_000)
        ]
        index, exact = ([r.assertion.id for r in a.results] for a in answers)
        assert index == exact, topic


@pytest.mark.parametrize("cjk", [False, True])
def test_a_term_the_analyzer_drops_matches_nothing(
    api: dict[str, Api], driver: Driver, cjk: bool
) -> None:
    # "the" is a stop word of both analyzers (our own list drops it first; a caller of the
    # statement, or a stop word only Lucene knows, like "www" for the CJK one, must not turn
    # the query into "everything the caller may read")
    body = assertion(f"dropped:{uuid.uuid4().hex[:8]}", "said", "the public glacier note")
    assert api["alice"].post("/v1/assertions", body).status_code == 201
    now = datetime.now(UTC)
    query = RecallQuery(text="glacier", k=10, as_of=now, known_at=now)
    p = parameters(Principal(id="public"), query)
    found = {}
    for term in ("the", "www", "glacier"):
        params = fulltext_parameters(p, ("assertion", cjk), [term])
        records, _, _ = driver.execute_query(recall_cypher.ASSERTION_FULLTEXT, params)
        found[term] = len(records)
    assert found["the"] == 0 and (cjk is False or found["www"] == 0)
    assert found["glacier"] >= 1
