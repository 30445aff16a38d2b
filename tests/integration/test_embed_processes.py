"""`tractatus serve` with its model replicas in child processes: none outlives the server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest
from neo4j import Driver

from tests.conftest import KEYS, _free_port

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]


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


def _serve(principals: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {**os.environ, "TRACTATUS_PRINCIPALS": str(principals),
           "TRACTATUS_EMBED_PROCESSES": "true", "TRACTATUS_EMBED_REPLICAS": "2"}
    process = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return process, url
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or process.poll() is not None:
            process.kill()
            pytest.fail("the server did not start")
        time.sleep(0.2)


@pytest.mark.skipif(not Path("/proc").exists(), reason="reads the process table in /proc")
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_the_embedding_processes_end_with_the_server(
    stop: signal.Signals, principals_file: Path, driver: Driver,
) -> None:
    process, url = _serve(principals_file)
    try:
        response = httpx.post(
            f"{url}/v1/observations", timeout=120,
            headers={"Authorization": f"Bearer {KEYS['alice']}"},
            json={"text": "We use React for the frontend.", "speaker": "user:alice",
                  "source_kind": "user_stated", "occurred_at": "2024-03-01T10:00:00+00:00",
                  "idempotency_key": f"embed-processes-{uuid.uuid4()}"},
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
