"""`tractatus serve` with its model replicas in child processes: none outlives the server."""

from __future__ import annotations

import os
import signal
import time
import uuid
from pathlib import Path

import httpx
import pytest
from neo4j import Driver

from bench.harness import start_server
from tests.helpers import KEYS

pytestmark = pytest.mark.integration


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pids: set[int]) -> set[int]:
    return {pid for pid in pids if Path(f"/proc/{pid}").exists()}


@pytest.mark.skipif(not Path("/proc").exists(), reason="reads the process table in /proc")
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_the_embedding_processes_end_with_the_server(
    stop: signal.Signals,
    principals_file: Path,
    driver: Driver,
) -> None:
    env = {
        **os.environ,
        "TRACTATUS_PRINCIPALS": str(principals_file),
        "TRACTATUS_EMBED_PROCESSES": "true",
        "TRACTATUS_EMBED_REPLICAS": "2",
    }
    process, url = start_server(env, timeout=60)
    try:
        response = httpx.post(
            f"{url}/v1/observations",
            timeout=120,
            headers={"Authorization": f"Bearer {KEYS['alice']}"},
            json={
                "text": "We use React for the frontend.",
                "speaker": "user:alice",
                "source_kind": "user_stated",
                "occurred_at": "2024-03-01T10:00:00+00:00",
                "idempotency_key": f"embed-processes-{uuid.uuid4()}",
            },
        )
        assert response.status_code == 201, response.text
        assert response.json()["assertions"]
        children = _children(process.pid)
        assert len(children) >= 2  # the two replicas (and the multiprocessing tracker)
    finally:
        process.send_signal(stop)
        process.wait(timeout=30)
    deadline = time.monotonic() + 10
    while _alive(children) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(children)
