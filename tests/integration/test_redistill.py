"""`tractatus redistill` over a real store: what an older distiller wrote stops being current,
what it read right stays as it is, a re-run does nothing, and a run killed in the middle leaves
every observation either done or untouched and is finished by the next run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from neo4j import Driver

from graph_schema.observations.types import ObservationIn
from ingest.distill.offline import OfflineDistiller
from ingest.embeddings.embedder import make_embedder
from ingest.redistill import Run, redistill
from server.app import create_app
from server.deps import get_distiller
from server.settings import Settings
from tests.conftest import KEYS, Api, count_nodes
from tests.fakes import ScriptedDistiller, serve

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]
AT = "2026-06-10T09:00:00+00:00"
FRAGMENT = "making it a"


def old_distiller(observation: ObservationIn) -> list[dict[str, Any]]:
    """What the first offline distiller wrote: the sentence, a fragment for "love", and a
    concert dated when it was said."""
    text = observation.text
    said = {"subject": observation.speaker, "predicate": "said", "object": text}
    drafts = [{**said, "confidence": 1.0, "quote": text, "start": 0, "end": len(text)}]

    def fact(predicate: str, value: str) -> dict[str, Any]:
        return {**drafts[0], "predicate": predicate, "object": value, "confidence": 0.9}

    if "love" in text:
        drafts.append(fact("likes", FRAGMENT))
    if "Berlin" in text:
        drafts.append(fact("lives_in", "Berlin"))
    if "concert" in text:
        drafts.append(fact("attended", "concert"))
    return drafts


@pytest.fixture(scope="module")
def old_api(settings: Settings, driver: Driver) -> Iterator[dict[str, Api]]:
    app = create_app(settings)
    scripted = ScriptedDistiller(old_distiller)
    app.dependency_overrides[get_distiller] = lambda: scripted
    with serve(app) as url:
        yield {name: Api(url, key) for name, key in KEYS.items()}


@pytest.fixture(scope="module")
def run(settings: Settings, driver: Driver) -> Run:
    embedder = make_embedder(settings.embedding_model, batch_size=16, processes=False)
    return Run(driver, settings.neo4j_database, OfflineDistiller(), embedder)


def _observe(api: Api, text: str, speaker: str, conversation: str) -> str:
    response = api.post(
        "/v1/observations",
        {
            "text": text,
            "speaker": speaker,
            "occurred_at": AT,
            "source_kind": "user_stated",
            "idempotency_key": uuid.uuid4().hex,
            "conversation_id": conversation,
        },
    )
    assert response.status_code == 201, response.text
    return str(response.json()["observation_id"])


def _facts(api: Api, subject: str, predicate: str, **params: str) -> list[dict[str, Any]]:
    body = api.get("/v1/facts", subject=subject, predicate=predicate, **params).json()
    return list(body["facts"])


def test_redistill_supersedes_fragments_keeps_right_facts_and_redates(
    old_api: dict[str, Api], run: Run, driver: Driver
) -> None:
    api, speaker, conversation = old_api["public"], f"user:{uuid.uuid4().hex[:8]}", uuid.uuid4().hex
    loved = _observe(api, "I love making it a habit to run.", speaker, conversation)
    _observe(api, "I live in Berlin.", speaker, conversation)
    _observe(api, "I went to a concert two days ago.", speaker, conversation)
    likes = api.get("/v1/facts", subject=speaker, predicate="likes").json()
    assert [f["object"] for f in likes["facts"]] == [FRAGMENT]

    summary = redistill(run, conversation=conversation)
    assert summary.observations == 3 and summary.retracted == 1

    assert api.get("/v1/facts", subject=speaker, predicate="likes").json()["status"] == "not_found"
    history = api.get("/v1/facts/history", subject=speaker, predicate="likes").json()["versions"]
    fragment, retraction = history
    assert (fragment["object"], fragment["polarity"]) == (FRAGMENT, True)
    assert (retraction["object"], retraction["polarity"]) == (FRAGMENT, False)
    assert retraction["supersedes"] == [fragment["id"]]
    assert retraction["valid_from"] == fragment["valid_from"]
    assert retraction["evidence"][0]["observation_id"] == loved

    berlin = api.get("/v1/facts/history", subject=speaker, predicate="lives_in").json()
    assert [v["object"] for v in berlin["versions"]] == ["Berlin"]  # read again: untouched

    concert = _facts(api, speaker, "attended")
    assert [f["object"] for f in concert] == ["concert"]
    assert concert[0]["valid_from"].startswith("2026-06-10")
    before = _facts(api, speaker, "attended", as_of="2026-06-08T12:00:00Z")
    assert [f["object"] for f in before] == ["concert"]  # back-filled from two days before

    said = api.get("/v1/facts/history", subject=speaker, predicate="said").json()["versions"]
    assert len(said) == 3  # the sentences are read as before: no new versions

    nodes = count_nodes(driver, "Assertion")
    again = redistill(run, conversation=conversation)
    assert again.observations == 0
    assert count_nodes(driver, "Assertion") == nodes


def _marked(driver: Driver, conversation: str, marker: str) -> int:
    records, _, _ = driver.execute_query(
        "MATCH (o:Observation {conversation_id: $c}) WHERE o.distilled_with = $m "
        "RETURN count(o) AS n",
        c=conversation,
        m=marker,
    )
    return int(records[0]["n"])


def _current_fragments(driver: Driver, speaker: str) -> int:
    records, _, _ = driver.execute_query(
        "MATCH (a:Assertion {subject: $s, predicate: 'likes', object: $o}) "
        "WHERE a.superseded_at IS NULL AND a.polarity RETURN count(a) AS n",
        s=speaker,
        o=FRAGMENT,
    )
    return int(records[0]["n"])


def test_a_killed_run_leaves_whole_observations_and_the_next_run_finishes(
    old_api: dict[str, Api], run: Run, driver: Driver, settings: Settings
) -> None:
    api, conversation = old_api["public"], uuid.uuid4().hex
    speakers = [f"user:{uuid.uuid4().hex[:8]}" for _ in range(12)]
    for speaker in speakers:
        _observe(api, "I love making it a habit to run.", speaker, conversation)
    env = {
        **os.environ,
        "TRACTATUS_EMBED_PROCESSES": "false",
        "TRACTATUS_EMBED_REPLICAS": "1",
    }
    command = [sys.executable, "-m", "server.cli", "redistill", "--batch", "2"]
    command += ["--conversation", conversation]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    for line in process.stderr:
        if line.startswith("redistill: ") and "observations done" in line:
            process.send_signal(signal.SIGKILL)
            break
    process.wait(timeout=60)
    assert process.returncode == -signal.SIGKILL

    marker = "offline:" + OfflineDistiller.version
    done = _marked(driver, conversation, marker)
    assert 2 <= done < len(speakers)
    # every observation is whole: its fragment retracted exactly when it is marked
    assert sum(_current_fragments(driver, s) for s in speakers) == len(speakers) - done

    finished = redistill(run, conversation=conversation)
    assert finished.observations == len(speakers) - done
    assert _marked(driver, conversation, marker) == len(speakers)
    assert all(_current_fragments(driver, s) == 0 for s in speakers)
    records, _, _ = driver.execute_query(
        "MATCH (a:Assertion {predicate: 'likes', object: $o}) WHERE a.subject IN $s "
        "AND NOT a.polarity RETURN count(a) AS n",
        o=FRAGMENT,
        s=speakers,
    )
    assert records[0]["n"] == len(speakers)  # one retraction each, none twice
