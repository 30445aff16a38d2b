"""What the benchmarks and the tests share, written once: a free loopback port, the API served
in a thread of this process or as a subprocess, the LoCoMo data file, the machine a run
ran on, and the HTTP steps of the recall benchmarks that write conversations and ask about
them as a principal (bench/team, bench/trials). Nothing here is part of the product's
packages.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from neo4j import Driver

from bench.locomo.scoring import dedupe
from graph_schema.schema import migrations, ontology
from server.app import create_app
from server.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
# The LoCoMo dev file is not part of the repository (CC BY-NC 4.0): it is found through this
# setting, else beside the repository (``../shared/data/locomo-dev.json``).
LOCOMO_SETTING = "TRACTATUS_LOCOMO"
LOCOMO_DEFAULT = ROOT.parent / "shared" / "data" / "locomo-dev.json"
LOCOMO_HELP = (
    f"the LoCoMo dev file (default: ${LOCOMO_SETTING}, else ../shared/data/locomo-dev.json)"
)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def local_app(principals: str) -> Iterator[tuple[str, Settings]]:
    """The API of this checkout on a free loopback port, with ``principals`` (the text of a
    principals file) and no embedding model; its URL and settings."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "principals.toml"
        path.write_text(principals)
        settings = Settings(principals=path, embedding_model="none")
        with serve_app(create_app(settings)) as url:
            yield url, settings


@contextmanager
def serve_app(app: Any, *, timeout: float = 30) -> Iterator[str]:
    """Run an ASGI ``app`` with uvicorn in a daemon thread of this process on a free loopback
    port for the block; yield its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            server.should_exit = True
            raise RuntimeError("the API server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def start_server(
    env: dict[str, str],
    *,
    timeout: float = 120,
    output: Any = subprocess.DEVNULL,
    checkout: Path = ROOT,
) -> tuple[subprocess.Popen[bytes], str]:
    """Start `tractatus serve` on a free port; return the process and its URL once /readyz
    answers (the store too; the process is killed if it does not). ``output``: where its
    stdout and stderr go (an open file, to read its log); ``checkout``: the source tree it
    runs (another commit's, for a side-by-side comparison)."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--port", str(port)],
        cwd=checkout,
        env=env,
        stdout=output,
        stderr=output,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                return process, url
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or process.poll() is not None:
            process.kill()
            process.wait(timeout=30)
            raise RuntimeError("the server did not start")
        time.sleep(0.3)


@contextmanager
def serve(env: dict[str, str], *, timeout: float = 120, checkout: Path = ROOT) -> Iterator[str]:
    """Run `tractatus serve` (:func:`start_server`) for the block; yield its URL."""
    process, url = start_server(env, timeout=timeout, checkout=checkout)
    try:
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


class LocomoMissing(FileNotFoundError):
    """The LoCoMo data file is not where the setting (or the default) says."""


def locomo_file(explicit: Path | None = None) -> Path:
    """The LoCoMo dev file: ``explicit`` (a command-line argument), else ``$TRACTATUS_LOCOMO``,
    else ``../shared/data/locomo-dev.json`` beside the repository. Raises
    :class:`LocomoMissing`, naming the setting, when the file is not there."""
    configured = os.environ.get(LOCOMO_SETTING, "")
    if explicit is not None:
        path, source = explicit, "the --file argument"
    elif configured:
        path, source = Path(configured), f"from {LOCOMO_SETTING}"
    else:
        path, source = LOCOMO_DEFAULT, f"{LOCOMO_SETTING} is not set; the default"
    if not path.is_file():
        raise LocomoMissing(
            f"LoCoMo data file not found: {path} ({source}); set {LOCOMO_SETTING} (or a "
            "benchmark's --file) to the path of locomo-dev.json"
        )
    return path


def locomo_argument(parser: argparse.ArgumentParser, value: Path | None) -> Path:
    """:func:`locomo_file` for a benchmark's ``--file`` option: a missing file is a usage
    error that names the setting."""
    try:
        return locomo_file(value)
    except LocomoMissing as error:
        parser.error(str(error))


def machine(**extra: Any) -> dict[str, Any]:
    """What a benchmark ran on: CPU, cores, memory, Python, platform, the 1-minute load at the
    time of the call; ``extra`` adds the benchmark's own entries (torch, Neo4j, ...)."""
    cpu = platform.processor() or "unknown"
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
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory": memory,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "load_avg_1m": round(os.getloadavg()[0], 2),
        **extra,
    }


def shown_path(path: Path) -> str:
    """A path as a result file records it: relative to the repository when inside it, else
    only its name (results never name a directory of the machine they ran on)."""
    resolved = path.resolve()
    if resolved.is_relative_to(ROOT):
        return str(resolved.relative_to(ROOT))
    return resolved.name


def index_passages(client: httpx.Client) -> int:
    """``POST /v1/recall/index`` (``client`` holds an admin's key) until no observation is
    left without its passage; how many were built."""
    total = 0
    while True:
        response = client.post("/v1/recall/index", json={"max_batches": 10})
        response.raise_for_status()
        body = response.json()
        total += int(body["indexed"])
        if body["pending"] == 0 or body["indexed"] == 0:
            return total


def wipe_store(driver: Driver, database: str) -> None:
    """Delete everything in the store, then migrate it and seed the ontology."""
    with driver.session(database=database) as session:
        session.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS").consume()
    migrations.migrate(driver, database=database)
    ontology.seed(driver, database=database)


def prepare_store(driver: Driver, settings: Settings, *, wipe: bool) -> None:
    """A benchmark's store: wiped (`wipe`, loopback servers only) or refused unless empty of
    observations and assertions; migrated and seeded either way."""
    database = settings.neo4j_database
    host = settings.neo4j_uri.split("://", 1)[-1].split(":", 1)[0]
    if wipe:
        if host not in ("127.0.0.1", "localhost"):
            sys.exit("refusing to wipe a non-loopback Neo4j")
        wipe_store(driver, database)
        return
    records, _, _ = driver.execute_query(
        "MATCH (n) WHERE n:Observation OR n:Assertion RETURN count(n) AS c", database_=database
    )
    if records[0]["c"]:
        sys.exit("the store is not empty: pass --wipe (dedicated loopback Neo4j only)")
    migrations.migrate(driver, database=database)
    ontology.seed(driver, database=database)


# --- the recall benchmarks' HTTP steps (bench/team, bench/trials) -------------------------------


@contextmanager
def serve_as(principals: str) -> Iterator[str]:
    """Run `tractatus serve` (:func:`serve`) with this process's environment and a throw-away
    principals file holding ``principals`` (TOML) for the block; yield its URL."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "principals.toml"
        path.write_text(principals, "utf-8")
        with serve({**os.environ, "TRACTATUS_PRINCIPALS": str(path)}) as url:
            yield url


@contextmanager
def clients(url: str, *keys: str) -> Iterator[tuple[httpx.Client, ...]]:
    """One HTTP client of ``url`` per key, in the order of the keys, for the block."""

    def client(key: str) -> httpx.Client:
        return httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=600)

    with ExitStack() as stack:
        yield tuple(stack.enter_context(client(key)) for key in keys)


def write_observation(client: httpx.Client, body: dict[str, Any]) -> str:
    """``POST /v1/observations`` with ``body``; the observation_id of the answer."""
    response = client.post("/v1/observations", json=body)
    response.raise_for_status()
    return str(response.json()["observation_id"])


def write_turns(
    client: httpx.Client,
    conversations: list[dict[str, Any]],
    body: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]],
) -> dict[str, str]:
    """Every turn of ``conversations`` (each with an ``id`` and its ``turns``), one
    ``POST /v1/observations`` each, in order, with the body ``body(conversation, turn)``
    gives: observation_id -> turn id."""
    written: dict[str, str] = {}
    for conversation in conversations:
        for turn in conversation["turns"]:
            written[write_observation(client, body(conversation, turn))] = turn["id"]
        print(f"{conversation['id']}: {len(conversation['turns'])} turns written", flush=True)
    return written


def recall(
    client: httpx.Client, query: str, conversation_id: str, *, k: int = 10
) -> tuple[dict[str, Any], float]:
    """``POST /v1/recall`` with ``query`` inside one conversation: the answer, and the time the
    request took in milliseconds."""
    body = {"query": query, "k": k, "filters": {"conversation_id": conversation_id}}
    started = time.perf_counter()
    response = client.post("/v1/recall", json=body)
    latency = (time.perf_counter() - started) * 1000
    response.raise_for_status()
    answer: dict[str, Any] = response.json()
    return answer, latency


def warm_up(client: httpx.Client) -> None:
    """One recall outside every conversation, not scored: the first request of a process loads
    what recall needs, and that belongs to no question's latency."""
    recall(client, "warm-up", "no-such-stream")


def ranked_turns(
    results: list[dict[str, Any]], written: dict[str, str], conversation: str
) -> list[str]:
    """Turn ids of recall's results in order (evidence -> observation -> turn, through
    ``written``: observation_id -> turn id), only ``conversation``'s, without repeats."""
    found = []
    for result in results:
        for evidence in result["evidence"]:
            tid = written.get(evidence.get("observation_id") or "")
            if tid and tid.startswith(f"{conversation}:"):
                found.append(tid)
    return dedupe(found)


def save_report(out: Path, label: str, result: dict[str, Any], markdown: str) -> None:
    """A run's result as ``out/label.json`` and its table as ``out/label.md``."""
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{label}.json").write_text(
        json.dumps(result, indent=1, ensure_ascii=False) + "\n", "utf-8"
    )
    (out / f"{label}.md").write_text(markdown, "utf-8")
