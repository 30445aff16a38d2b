"""The store: Neo4j's schema, every Cypher statement, the domain types and the read paths.

One folder per capability, each with ``types.py`` (pydantic models), ``cypher.py`` (named,
parameterised statements) and its logic:

    core/          shared types, errors, time, records, vectors, the Cypher builders
    schema/        constraints, indexes, migrations, the ontology of predicates
    ledger/        assertions: slots, versions, the valid-time planner, disclosures, fact reads
    events/        ordered memory: events, causal chains, their replay and audit
    observations/  raw observations: idempotent storage, the turn with its neighbours
    recall/        query analysis, candidate lists, fusion, the learned rerank
    quarantine/    what the gate refused, kept apart from the record

Nothing here imports ``ingest`` or ``server`` (docs/architecture.md).
"""
