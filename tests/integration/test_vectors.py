"""A Vector reaches Neo4j as the same list of floats a plain list would."""

from __future__ import annotations

import pytest
from neo4j import Driver

from graph_schema.core.vectors import Vector
from server.settings import Settings

pytestmark = pytest.mark.integration


def test_vector_parameters_round_trip_exactly(driver: Driver, settings: Settings) -> None:
    values = [0.1 * i - 1.7 for i in range(384)]
    records, _, _ = driver.execute_query(
        "RETURN $v AS v, $plain = $v AS same, vector.similarity.cosine($v, $plain) AS sim",
        v=Vector(values),
        plain=values,
        database_=settings.neo4j_database,
    )
    assert records[0]["v"] == values and records[0]["same"] is True
    assert abs(records[0]["sim"] - 1.0) < 1e-9
