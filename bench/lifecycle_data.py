"""The data the lifecycle benchmarks read (no benchmark here): facts written over HTTP, half
of them in tasks that are then ended, so half the store carries tier transitions.

Facts are `user-N lives_in / works_at / likes / uses / prefers <two words>`, public, written in
batches of 500 through `POST /v1/assertions` (the server embeds them with the real model).
Every 50 consecutive facts of the task half share one task; a fifth of them are guesses
(agent_inferred, 0.5), so ending the tasks promotes four in five and discards one.
"""

from __future__ import annotations

import os
import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from neo4j import Driver

from graph_schema.schema import migrations, ontology

KEY = "tr_bench_lifecycle_000000000000000000000"
ADMIN_KEY = "tr_bench_lifecycle_admin_0000000000000000"
PREDICATES = ("lives_in", "works_at", "likes", "uses", "prefers")
WORDS = (
    "harbour",
    "lantern",
    "copper",
    "meadow",
    "violet",
    "orchard",
    "granite",
    "falcon",
    "willow",
    "ember",
    "tundra",
    "cobalt",
    "saffron",
    "quarry",
    "glacier",
    "maple",
    "thistle",
    "raven",
    "canyon",
    "juniper",
    "basalt",
    "heron",
    "marigold",
    "cedar",
)
BATCH = 500


@dataclass
class Data:
    subjects: list[tuple[str, str]] = field(default_factory=list)  # (subject, predicate)
    queries: list[str] = field(default_factory=list)
    tasks: int = 0


def principals_file() -> Path:
    directory = Path(tempfile.mkdtemp(prefix="tractatus-bench-"))
    path = directory / "principals.toml"
    path.write_text(
        f'[[principal]]\nid = "bench"\nkey = "{KEY}"\ngroups = []\n\n'
        f'[[principal]]\nid = "bench-admin"\nkey = "{ADMIN_KEY}"\ngroups = []\nrole = "admin"\n',
        "utf-8",
    )
    return path


def prepare(driver: Driver, database: str, uri: str, wipe: bool) -> None:
    host = uri.split("://", 1)[-1].split(":", 1)[0]
    if wipe:
        if host not in ("127.0.0.1", "localhost"):
            raise SystemExit("refusing to wipe a non-loopback Neo4j")
        with driver.session(database=database) as session:
            session.run(
                "MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS"
            ).consume()
    migrations.migrate(driver, database=database)
    ontology.seed(driver, database=database)


def _fact(n: int, rng: random.Random, task: str | None) -> dict[str, Any]:
    guess = task is not None and n % 5 == 0
    obj = f"{rng.choice(WORDS)} {rng.choice(WORDS)}"
    body: dict[str, Any] = {
        "subject": f"bench:user-{n}",
        "predicate": PREDICATES[n % len(PREDICATES)],
        "object": obj,
        "source_kind": "agent_inferred" if guess else "user_stated",
        "asserted_by": f"bench:user-{n}",
        "confidence": 0.5 if guess else 0.95,
        "evidence": {"quote": f"{PREDICATES[n % len(PREDICATES)]} {obj}"},
    }
    if task is not None:
        body["task_id"] = task
    return body


def load(url: str, facts: int, seed: int = 7) -> Data:
    """Write ``facts`` facts (half in tasks, which are then ended); the slots and queries."""
    rng = random.Random(seed)
    data = Data()
    headers = {"Authorization": f"Bearer {KEY}"}
    with httpx.Client(base_url=url, headers=headers, timeout=600) as client:
        bodies = []
        tasks: set[str] = set()
        for n in range(facts):
            task = f"bench-task-{n // 50}" if n >= facts // 2 else None
            bodies.append(_fact(n, rng, task))
            if task is not None:
                tasks.add(task)
            data.subjects.append((bodies[-1]["subject"], bodies[-1]["predicate"]))
            data.queries.append(f"{bodies[-1]['object']} {rng.choice(WORDS)}")
        for start in range(0, len(bodies), BATCH):
            response = client.post(
                "/v1/assertions", json={"assertions": bodies[start : start + BATCH]}
            )
            response.raise_for_status()
        for task in sorted(tasks):
            client.post(f"/v1/tasks/{task}/end").raise_for_status()
        data.tasks = len(tasks)
    return data


def server_env(principals: Path, **extra: str) -> dict[str, str]:
    """The environment of a benchmark server: one in-thread model copy (the two servers of a
    run share two cores with Neo4j and the client)."""
    return {
        **os.environ,
        "TRACTATUS_PRINCIPALS": str(principals),
        "TRACTATUS_EMBED_PROCESSES": "false",
        "TRACTATUS_EMBED_REPLICAS": "1",
        **extra,
    }
