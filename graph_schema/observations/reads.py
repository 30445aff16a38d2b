"""Read paths of observations: one observation with its visible neighbouring turns."""

from __future__ import annotations

from neo4j import Driver

from graph_schema.core.errors import NotFound
from graph_schema.core.records import native
from graph_schema.core.types import Principal
from graph_schema.observations import cypher
from graph_schema.observations.types import ObservationInContext


def get_observation(
    driver: Driver, *, database: str, principal: Principal, observation_id: str, context: int
) -> ObservationInContext:
    records, _, _ = driver.execute_query(
        cypher.GET_OBSERVATION,
        id=observation_id,
        groups=list(principal.groups),
        caller=principal.id,
        context=context,
        database_=database,
        routing_="r",
    )
    if not records:
        raise NotFound("no such observation", details={"id": observation_id})
    record = records[0]
    return ObservationInContext.model_validate(
        {
            "observation": native(dict(record["observation"])),
            "before": [native(dict(o)) for o in reversed(record["before"])],
            "after": [native(dict(o)) for o in record["after"]],
        }
    )
