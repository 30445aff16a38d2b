"""Versioned, idempotent schema migrations, recorded on a ``(:SchemaVersion)`` node.

A migration runs its schema statements, then its data steps: each step is a statement that
does at most ``$batch`` items per transaction and returns how many (``done``); it is run
again until it does nothing. Steps only touch what is not migrated yet, so a migration that
was interrupted resumes where it stopped when ``tractatus migrate`` runs again (the version
is recorded only once every step has finished).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from neo4j import Driver

from graph_schema.entities import cypher as entities_cypher
from graph_schema.entities import migration as entities_migration
from graph_schema.ledger import cypher as ledger_cypher
from graph_schema.lifecycle import cypher as lifecycle_cypher
from graph_schema.lifecycle.types import TASK_KEY_SEPARATOR
from graph_schema.recall import cypher as recall_cypher
from graph_schema.schema import cypher
from graph_schema.schema.types import DownReason, Health

EMBEDDING_DIMENSIONS = 384
DATA_BATCH = 1_000


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]
    steps: tuple[str, ...] = ()
    # steps that need Python between reading and writing (a hash Cypher cannot compute):
    # ``batch(driver, database=, batch=)`` does at most ``batch`` items in one transaction
    # and returns how many; run again until it does nothing, like ``steps``
    batches: tuple[Callable[..., int], ...] = ()


def _unique(label: str, prop: str) -> str:
    return (
        f"CREATE CONSTRAINT {label.lower()}_{prop}_unique IF NOT EXISTS "
        f"FOR (n:{label}) REQUIRE n.{prop} IS UNIQUE"
    )


_FULLTEXT_ANALYZERS = {False: "english", True: "cjk"}


def _readers_index(name: str) -> tuple[str, str]:
    """Recall's full-text index ``name`` dropped, then made again over its text fields and
    ``readers`` (graph_schema/core/cypher.py); Neo4j fills it from the store."""
    label, var = ("Assertion", "a") if name.startswith("assertion") else ("Passage", "n")
    fields = ", ".join(f"{var}.{f}" for f in [*recall_cypher.FULLTEXT_FIELDS[name], "readers"])
    analyzer = _FULLTEXT_ANALYZERS[name.endswith("_cjk")]
    return (
        f"DROP INDEX {name} IF EXISTS",
        f"CREATE FULLTEXT INDEX {name} IF NOT EXISTS FOR ({var}:{label}) ON EACH [{fields}] "
        f"OPTIONS {{indexConfig: {{`fulltext.analyzer`: '{analyzer}'}}}}",
    )


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "ledger constraints and lookup indexes",
        (
            _unique("Assertion", "id"),
            _unique("Evidence", "id"),
            _unique("Observation", "id"),
            _unique("Event", "id"),
            # Task ids were unique here until migration 7 keyed tasks by (owner, id) and
            # dropped this constraint; a store migrated from scratch never makes it (its
            # index on Task.id would block the constraint when these migrations run again).
            _unique("Slot", "key"),
            _unique("Predicate", "name"),
            _unique("Quarantine", "id"),
            _unique("Disclosure", "id"),
            "CREATE INDEX assertion_slot IF NOT EXISTS FOR (a:Assertion) ON (a.slot_key)",
            "CREATE INDEX assertion_subject_predicate IF NOT EXISTS "
            "FOR (a:Assertion) ON (a.subject, a.predicate)",
            "CREATE INDEX assertion_task IF NOT EXISTS FOR (a:Assertion) ON (a.task_id)",
            "CREATE INDEX event_task IF NOT EXISTS FOR (e:Event) ON (e.task_id)",
            "CREATE INDEX observation_idempotency IF NOT EXISTS "
            "FOR (o:Observation) ON (o.idempotency_scope)",
            "CREATE INDEX quarantine_received IF NOT EXISTS FOR (q:Quarantine) ON (q.received_at)",
        ),
    ),
    Migration(
        2,
        "vector and full-text indexes",
        (
            "CREATE VECTOR INDEX assertion_embedding IF NOT EXISTS "
            "FOR (a:Assertion) ON (a.embedding) OPTIONS {indexConfig: {"
            f"`vector.dimensions`: {EMBEDDING_DIMENSIONS}, "
            "`vector.similarity_function`: 'cosine'}}",
            "CREATE FULLTEXT INDEX assertion_text IF NOT EXISTS "
            "FOR (a:Assertion) ON EACH [a.text] "
            "OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}",
            "CREATE FULLTEXT INDEX assertion_text_cjk IF NOT EXISTS "
            "FOR (a:Assertion) ON EACH [a.text] "
            "OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk'}}",
            "CREATE FULLTEXT INDEX evidence_quote IF NOT EXISTS "
            "FOR (e:Evidence) ON EACH [e.quote] "
            "OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}",
            "CREATE FULLTEXT INDEX evidence_quote_cjk IF NOT EXISTS "
            "FOR (e:Evidence) ON EACH [e.quote] "
            "OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk'}}",
        ),
    ),
    Migration(
        3,
        "observations: one node per idempotency scope; turns in conversation order",
        (
            # a uniqueness constraint needs the plain index on the same property gone
            "DROP INDEX observation_idempotency IF EXISTS",
            _unique("Observation", "idempotency_scope"),
            "CREATE INDEX observation_conversation IF NOT EXISTS "
            "FOR (o:Observation) ON (o.conversation_id, o.occurred_at)",
        ),
    ),
    Migration(
        4,
        "recall passages: one search document per observation, with its previous turn",
        (
            _unique("Passage", "observation_id"),
            "CREATE INDEX passage_conversation IF NOT EXISTS "
            "FOR (n:Passage) ON (n.conversation_id)",
            "CREATE VECTOR INDEX passage_embedding IF NOT EXISTS "
            "FOR (n:Passage) ON (n.embedding) OPTIONS {indexConfig: {"
            f"`vector.dimensions`: {EMBEDDING_DIMENSIONS}, "
            "`vector.similarity_function`: 'cosine'}}",
            "CREATE VECTOR INDEX passage_context_embedding IF NOT EXISTS "
            "FOR (n:Passage) ON (n.context_embedding) OPTIONS {indexConfig: {"
            f"`vector.dimensions`: {EMBEDDING_DIMENSIONS}, "
            "`vector.similarity_function`: 'cosine'}}",
            "CREATE FULLTEXT INDEX passage_text IF NOT EXISTS "
            "FOR (n:Passage) ON EACH [n.text] "
            "OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}",
            "CREATE FULLTEXT INDEX passage_context IF NOT EXISTS "
            "FOR (n:Passage) ON EACH [n.context] "
            "OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}",
            # A second full-text index on the same label and properties is "equivalent" to
            # the first for IF NOT EXISTS and silently not created, whatever its analyzer:
            # the CJK indexes cover one more property, so they exist (migration 2's two CJK
            # statements were no-ops for this reason).
            "CREATE FULLTEXT INDEX passage_context_cjk IF NOT EXISTS "
            "FOR (n:Passage) ON EACH [n.context, n.text] "
            "OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk'}}",
            "CREATE FULLTEXT INDEX assertion_text_cjk IF NOT EXISTS "
            "FOR (a:Assertion) ON EACH [a.text, a.object] "
            "OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk'}}",
            "CREATE FULLTEXT INDEX evidence_quote_cjk IF NOT EXISTS "
            "FOR (e:Evidence) ON EACH [e.quote, e.speaker] "
            "OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk'}}",
        ),
    ),
    Migration(
        5,
        "drop the evidence full-text indexes: nothing reads them, every write paid for them",
        (
            # recall searches assertions and passages (which hold the same words); each
            # Evidence node cost two Lucene documents at commit (docs/ingestion.md)
            "DROP INDEX evidence_quote IF EXISTS",
            "DROP INDEX evidence_quote_cjk IF EXISTS",
        ),
    ),
    Migration(
        6,
        "display labels for Neo4j Browser's style: :Failed events, :Superseded versions",
        (
            # the writers set them from now on (events/cypher.py, ledger/cypher.py); reads
            # never use them (docs/browser.md)
            "MATCH (e:Event {outcome: 'failure'}) SET e:Failed",
            # every version a later one closed or superseded (an incoming SUPERSEDES)
            "MATCH (:Assertion)-[:SUPERSEDES]->(a:Assertion) SET a:Superseded",
        ),
    ),
    Migration(
        7,
        "lifecycle: tasks keyed by owner, tier and pin transitions, the access log, sleep",
        (
            # a task id is no longer global: (owner, id) is the task (docs/lifecycle.md)
            "DROP CONSTRAINT task_id_unique IF EXISTS",
            _unique("Task", "key"),
            "CREATE INDEX task_id IF NOT EXISTS FOR (t:Task) ON (t.id)",
            "CREATE INDEX task_status IF NOT EXISTS FOR (t:Task) ON (t.status)",
            _unique("TierChange", "id"),
            _unique("PinChange", "id"),
            "CREATE INDEX tier_change_assertion IF NOT EXISTS "
            "FOR (c:TierChange) ON (c.assertion_id)",
            "CREATE INDEX pin_change_assertion IF NOT EXISTS FOR (c:PinChange) ON (c.assertion_id)",
            _unique("AccessCount", "assertion_id"),
            _unique("SleepLock", "id"),
        ),
        steps=lifecycle_cypher.MIGRATION_STEPS,
    ),
    Migration(
        8,
        "redistill: the versions a distiller wrote from an observation, by seek",
        (
            "CREATE INDEX assertion_distilled_from IF NOT EXISTS "
            "FOR (a:Assertion) ON (a.distilled_from)",
            "CREATE INDEX assertion_remnant_of IF NOT EXISTS FOR (a:Assertion) ON (a.remnant_of)",
        ),
    ),
    Migration(
        9,
        "a derived fact's slot names its sources' requirements (access_all)",
        (),
        steps=ledger_cypher.MIGRATION_STEPS,
    ),
    Migration(
        10,
        "idempotency keys of assertions and events: one request per (caller, key)",
        (_unique("IdempotentRequest", "scope"),),
    ),
    Migration(
        11,
        "recall's full-text indexes hold the readers terms: work follows what a caller may see",
        tuple(st for name in recall_cypher.FULLTEXT_FIELDS for st in _readers_index(name)),
        steps=recall_cypher.READERS_STEPS,
    ),
    Migration(
        12,
        "passages written with their observations: a lock per conversation; stale ones rebuilt",
        (_unique("PassageLock", "conversation_id"),),
        steps=recall_cypher.STALE_PASSAGE_STEPS,
    ),
    Migration(
        13,
        "entities: Entity nodes keyed by (namespace, name), ABOUT and OBJECT from each version",
        (_unique("Entity", "id"), _unique("Entity", "key")),
        batches=(entities_migration.link_batch,),
    ),
    Migration(
        14,
        "the embedding space: one node records the model of the store's vectors",
        # recorded by the first start or `tractatus migrate` with an embedder
        # (graph_schema/schema/space.py), not here: a migration does not know the model
        (_unique("EmbeddingSpace", "id"),),
    ),
    Migration(
        15,
        "an utterance (said) is a slot of its own per observation; ended ones marked for redistill",
        (),
        steps=ledger_cypher.UTTERANCE_STEPS,
    ),
    Migration(
        16,
        "entity search by index: each version's lower-cased subject and object, a text index each",
        (
            "CREATE TEXT INDEX assertion_subject_lower IF NOT EXISTS "
            "FOR (a:Assertion) ON (a.subject_lower)",
            "CREATE TEXT INDEX assertion_object_lower IF NOT EXISTS "
            "FOR (a:Assertion) ON (a.object_lower)",
        ),
        steps=entities_cypher.MIGRATION_STEPS,
    ),
    Migration(
        17,
        "procedures: versions mined by a sleep, by id, by key and by trigger",
        (
            _unique("Procedure", "id"),
            "CREATE INDEX procedure_key IF NOT EXISTS FOR (p:Procedure) ON (p.key)",
            "CREATE INDEX procedure_trigger IF NOT EXISTS FOR (p:Procedure) ON (p.trigger)",
        ),
    ),
    Migration(
        18,
        "entity search folds diacritics: each version's indexed names folded again",
        (),
        steps=entities_cypher.FOLD_STEPS,
    ),
)

LATEST_VERSION = MIGRATIONS[-1].version


def current_version(driver: Driver, *, database: str) -> int:
    records, _, _ = driver.execute_query(cypher.SCHEMA_VERSION, database_=database, routing_="r")
    return int(records[0]["version"]) if records else 0


def health(driver: Driver, *, database: str) -> Health:
    """Ping the store and read the schema version it is at (raises when it cannot answer)."""
    driver.execute_query(cypher.PING, database_=database, routing_="r")
    version = current_version(driver, database=database)
    return Health(status="ok", neo4j="up", schema_version=version, schema_latest=LATEST_VERSION)


def store_down(reason: DownReason) -> Health:
    """What the probes answer while the store cannot: the process serves, the store does not."""
    return Health(
        status="ok",
        neo4j="down",
        schema_version=None,
        schema_latest=LATEST_VERSION,
        store_error=reason,
    )


def _run_step(driver: Driver, step: str, *, database: str) -> int:
    """Run a data step until it does nothing; each run is its own transaction."""
    total = 0
    while True:
        records, _, _ = driver.execute_query(
            step, batch=DATA_BATCH, separator=TASK_KEY_SEPARATOR, database_=database
        )
        done = int(records[0]["done"]) if records else 0
        if done == 0:
            return total
        total += done


def migrate(driver: Driver, *, database: str) -> list[int]:
    """Apply every migration newer than the recorded version; return the versions applied."""
    applied: list[int] = []
    start = current_version(driver, database=database)
    for migration in MIGRATIONS:
        if migration.version <= start:
            continue
        for statement in migration.statements:
            driver.execute_query(statement, database_=database)
        for step in migration.steps:
            _run_step(driver, step, database=database)
        for batch in migration.batches:
            while batch(driver, database=database, batch=DATA_BATCH):
                pass
        driver.execute_query(
            cypher.SET_SCHEMA_VERSION, version=migration.version, database_=database
        )
        applied.append(migration.version)
    driver.execute_query("CALL db.awaitIndexes(300)", database_=database)
    return applied
