"""How long the API takes to answer while its store is unreachable (README "Reliability").

How to run (no Neo4j needed: that is the point):

    .venv/bin/python bench/unreachable.py          # options: --rounds 3

What it does: serves the API (in this process, over real HTTP) on each of two unreachable
stores with the default settings (`TRACTATUS_NEO4J_*` bounds, `TRACTATUS_PROBE_TIMEOUT`): a
closed port (connections refused at once) and a socket that accepts connections and never
answers (the Bolt handshake hangs). It times `GET /healthz`, `GET /readyz` and an
authenticated `GET /v1/facts` ``--rounds`` times each and prints, per store and route, the
status, the `Retry-After`, and the median and worst seconds.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx

from bench.harness import free_port, serve_app
from server.app import create_app
from server.settings import Settings

KEY = "tr_bench_unreachable_000000000000000"
PRINCIPALS = f'[[principal]]\nid = "bench"\nkey = "{KEY}"\ngroups = []\n'
ROUTES = (
    ("/healthz", False),
    ("/readyz", False),
    ("/v1/facts?subject=user:a&predicate=tech_stack", True),
)


def silent_port() -> int:
    """A port whose socket accepts every connection and never sends a byte (a daemon
    thread holds them until the process ends)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            held.append(server.accept()[0])

    threading.Thread(target=accept, daemon=True).start()
    return int(server.getsockname()[1])


def measure(url: str, rounds: int) -> None:
    for path, authenticated in ROUTES:
        headers = {"Authorization": f"Bearer {KEY}"} if authenticated else {}
        seconds: list[float] = []
        for _ in range(rounds):
            started = time.perf_counter()
            response = httpx.get(url + path, headers=headers, timeout=300)
            seconds.append(time.perf_counter() - started)
        print(
            f"  {path.split('?')[0]:10} {response.status_code}"
            f" Retry-After={response.headers.get('Retry-After')}"
            f" median {statistics.median(seconds):.2f} s, worst {max(seconds):.2f} s",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        principals = Path(tmp) / "principals.toml"
        principals.write_text(PRINCIPALS, "utf-8")
        for name, port in (("closed port", free_port()), ("silent socket", silent_port())):
            settings = Settings(
                principals=principals,
                neo4j_uri=f"bolt://127.0.0.1:{port}",
                embedding_model="none",
                access_log=False,
            )
            print(name, flush=True)
            with serve_app(create_app(settings)) as url:
                measure(url, args.rounds)


if __name__ == "__main__":
    main()
