"""What the benchmarks share: a free loopback port and the real server as a subprocess."""

from __future__ import annotations

import os
import platform
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    env: dict[str, str], *, timeout: float = 120
) -> tuple[subprocess.Popen[bytes], str]:
    """Start `tractatus serve` on a free port; return the process and its URL once /healthz
    answers (the process is killed if it does not)."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return process, url
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or process.poll() is not None:
            process.kill()
            process.wait(timeout=30)
            raise RuntimeError("the server did not start")
        time.sleep(0.3)


@contextmanager
def serve(env: dict[str, str], *, timeout: float = 120) -> Iterator[str]:
    """Run `tractatus serve` (:func:`start_server`) for the block; yield its URL."""
    process, url = start_server(env, timeout=timeout)
    try:
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


def machine() -> dict[str, Any]:
    """What a benchmark ran on: CPU model, cores, memory, Python, and torch when loaded."""
    cpu = platform.processor()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        names = [
            line.split(":", 1)[1].strip()
            for line in cpuinfo.read_text().splitlines()
            if line.startswith("model name")
        ]
        cpu = names[0] if names else cpu
    memory = ""
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        memory = meminfo.read_text().splitlines()[0].split(":", 1)[1].strip()
    found: dict[str, Any] = {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory": memory,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "load_avg_1m": os.getloadavg()[0],
    }
    torch = sys.modules.get("torch")
    if torch is not None:
        found.update(torch=torch.__version__, torch_threads=torch.get_num_threads())
    return found
