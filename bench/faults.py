"""Faults: a `kill -9` of the API during a bulk ingest, and of Neo4j during another; each
resumed; the store compared with a clean ingest of the same turns (a report: `make faults`).

How to run (it kills and restarts the LOCAL Neo4j of scripts/neo4j_local.py, and wipes it):

    make neo4j-start && eval "$(.venv/bin/python scripts/neo4j_local.py env --shell)"
    .venv/bin/python bench/faults.py --wipe
    # options: --conversation conv-26 (default: the first of the file) --at 0.3
    #          --file PATH (default: $TRACTATUS_LOCOMO, else ../shared/data/locomo-dev.json)
    #          --out bench/results/faults.json

Three runs, each into a wiped store, of ``tractatus ingest`` (over HTTP, its own progress
file) on the same turns:

1. *clean*: no fault; its store is the reference.
2. *api*: once ``--at`` of the turns are stored, the API process gets SIGKILL; a new API
   process is started and the same command is run again (it resumes from its progress file).
3. *neo4j*: once ``--at`` of the turns are stored, the Neo4j JVM gets SIGKILL and is started
   again; the ingest retries on its own, and is run again if it gave up.

After each run the store is fingerprinted: observations and distinct idempotency keys,
assertions and their evidence (remnants aside: which remnants a back-fill cuts depends on the
order in which concurrent batches commit, by design; docs/semantics.md), observations with
no evidence (a half-written batch), evidence whose quote is not found at its offsets in its
observation's text, and a SHA-256 over every (idempotency key, subject, predicate, object,
quote, start, end) row; and `tractatus check` audits the whole ledger and every chain. A fault
run passes when its fingerprint equals the clean run's, both bad counts are 0 and the check
exits 0. Exit code 1 when one
does not. Then a backup's round trip on the store the last run left: its checksum
(`tractatus checksum`), `tractatus backup`, one more observation (the checksum must
change), `tractatus restore`: the checksum must be the first one again. Results:
bench/README-faults.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from neo4j import Driver
from neo4j.exceptions import ServiceUnavailable, SessionExpired

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import harness
from graph_schema.schema.checksum import store_checksum
from ingest import bulk
from server.settings import Settings, open_driver

KEY = "tr_bench_faults_000000000000000000000000"
PRINCIPALS = f'[[principal]]\nid = "bench"\nkey = "{KEY}"\ngroups = []\n'
NEO4J = [sys.executable, str(ROOT / "scripts/neo4j_local.py")]

COUNTS = """
MATCH (o:Observation)
WITH count(o) AS observations, count(DISTINCT o.idempotency_scope) AS keys
OPTIONAL MATCH (a:Assertion) WHERE a.remnant_of IS NULL
WITH observations, keys, count(a) AS assertions
OPTIONAL MATCH (:Assertion)-[:EVIDENCED_BY]->(e:Evidence) WHERE e.observation_id IS NOT NULL
RETURN observations, keys, assertions, count(DISTINCT e) AS evidence
"""
NO_EVIDENCE = """
MATCH (o:Observation) WHERE NOT EXISTS { (:Evidence)-[:FROM]->(o) }
RETURN count(o) AS n
"""
SPAN_MISMATCH = """
MATCH (e:Evidence)-[:FROM]->(o:Observation)
WHERE e.start IS NOT NULL AND o.text IS NOT NULL
  AND substring(o.text, e.start, e.end - e.start) <> e.quote
RETURN count(e) AS n
"""
ROWS = """
MATCH (a:Assertion)-[:EVIDENCED_BY]->(e:Evidence)-[:FROM]->(o:Observation)
WHERE a.remnant_of IS NULL
RETURN o.idempotency_scope AS key, a.subject AS s, a.predicate AS p, a.object AS o,
       e.quote AS quote, e.start AS start, e.end AS end
"""


def fingerprint(driver: Driver, database: str) -> dict[str, Any]:
    def one(query: str) -> Any:
        records, _, _ = driver.execute_query(query, database_=database)
        return records[0]

    counts = dict(one(COUNTS))
    rows, _, _ = driver.execute_query(ROWS, database_=database)
    digest = hashlib.sha256()  # over the sorted rows: equal rows may come in any order
    for line in sorted(json.dumps(list(r.values()), sort_keys=True, default=str) for r in rows):
        digest.update(line.encode())
    return {
        **counts,
        "observations_without_evidence": one(NO_EVIDENCE)["n"],
        "evidence_not_at_offsets": one(SPAN_MISMATCH)["n"],
        "content_sha256": digest.hexdigest(),
    }


def wait_for(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"faults: timed out waiting for {what}")
        time.sleep(0.2)


class Run:
    """One scenario: a server, an ingest subprocess, the store it fills."""

    def __init__(self, args: argparse.Namespace, env: dict[str, str], tmp: Path) -> None:
        self.args, self.env, self.tmp = args, env, tmp
        self.settings = Settings()
        self.turns = len(bulk.read_locomo(args.file, only=[args.conversation]))

    def stored(self) -> int:
        try:
            with open_driver(self.settings) as driver:
                records, _, _ = driver.execute_query(
                    "MATCH (o:Observation) RETURN count(o) AS n",
                    database_=self.settings.neo4j_database,
                )
        except (ServiceUnavailable, SessionExpired, OSError):
            return -1
        return int(records[0]["n"])

    def ingest(self, url: str, name: str, wait: float | None = None) -> subprocess.Popen[bytes]:
        command = [sys.executable, "-m", "server.cli", "ingest", str(self.args.file)]
        command += ["--format", "locomo", "--conversation", self.args.conversation]
        command += ["--url", url, "--key", KEY, "--quiet", "--batch-size", "16"]
        command += ["--wait", str(wait)] if wait is not None else []
        command += ["--progress", str(self.tmp / f"{name}.progress")]
        log = (self.tmp / f"{name}.log").open("ab")
        return subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log, stderr=log)

    def wipe(self) -> None:
        with open_driver(self.settings) as driver:
            harness.prepare_store(driver, self.settings, wipe=True)

    def result(self, started: float, **facts: Any) -> dict[str, Any]:
        seconds = round(time.monotonic() - started, 1)
        with open_driver(self.settings) as driver:
            print_ = fingerprint(driver, self.settings.neo4j_database)
        check = subprocess.run(  # the whole ledger and every chain (docs/semantics.md)
            [sys.executable, "-m", "server.cli", "check", "--json"],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            check=False,
        )
        return {"seconds": seconds, **facts, "store": print_, "check_exit": check.returncode}


def clean(run: Run) -> dict[str, Any]:
    run.wipe()
    started = time.monotonic()
    with harness.serve(run.env) as url:
        exit_code = run.ingest(url, "clean").wait()
    return run.result(started, exit_codes=[exit_code])


def kill_api(run: Run) -> dict[str, Any]:
    run.wipe()
    started = time.monotonic()
    process, url = harness.start_server(run.env)
    # the API stays dead until this ingest gives up: wait 30 s for it, not the default 300
    ingest = run.ingest(url, "api", wait=30)
    wait_for(lambda: run.stored() >= run.args.at * run.turns, 600, "the first turns")
    process.send_signal(signal.SIGKILL)
    process.wait()
    stored_at_kill = run.stored()
    first = ingest.wait(timeout=900)
    with harness.serve(run.env) as url:
        second = run.ingest(url, "api").wait()
    return run.result(started, stored_at_kill=stored_at_kill, exit_codes=[first, second])


def kill_neo4j(run: Run) -> dict[str, Any]:
    run.wipe()
    started = time.monotonic()
    exits = []
    with harness.serve(run.env) as url:
        ingest = run.ingest(url, "neo4j")
        wait_for(lambda: run.stored() >= run.args.at * run.turns, 600, "the first turns")
        home = Path(run.env.get("TRACTATUS_NEO4J_HOME") or ROOT / "var/neo4j")
        pid = int((home / "run/neo4j.pid").read_text().strip())
        stored_at_kill = run.stored()
        os.kill(pid, signal.SIGKILL)
        wait_for(lambda: not Path(f"/proc/{pid}").exists(), 60, "the JVM to die")
        time.sleep(2)
        local = {k: v for k, v in run.env.items() if k != "NEO4J_URI"}  # else `start` skips
        subprocess.run([*NEO4J, "start"], env=local, check=True)
        exits.append(ingest.wait(timeout=900))
        while exits[-1] != 0 and len(exits) < 3:
            exits.append(run.ingest(url, "neo4j").wait(timeout=900))
    return run.result(started, stored_at_kill=stored_at_kill, exit_codes=exits)


def backup_round_trip(run: Run) -> dict[str, Any]:
    """The store the last run left: checksum, backup, one more observation (the checksum
    must move), restore; the checksum must be the first one again."""
    local = {k: v for k, v in run.env.items() if k != "NEO4J_URI"}  # the local runtime's
    database = run.settings.neo4j_database

    def checksum() -> dict[str, Any]:
        with open_driver(run.settings) as driver:
            return store_checksum(driver, database=database).model_dump()

    def timed(*command: str) -> float:
        started = time.monotonic()
        subprocess.run(
            [sys.executable, "-m", "server.cli", *command], cwd=ROOT, env=local, check=True
        )
        return round(time.monotonic() - started, 1)

    before = checksum()
    backup_s = timed("backup", str(run.tmp / "backup"))
    after_backup = checksum()
    with harness.serve(run.env) as url:
        body = {"text": "One more line after the backup.", "speaker": "user:x"}
        headers = {"Authorization": f"Bearer {KEY}"}
        httpx.post(f"{url}/v1/observations", json=body, headers=headers, timeout=300)
    changed = checksum()
    restore_s = timed("restore", str(run.tmp / "backup"))
    restored = checksum()
    return {
        "before": before,
        "unchanged_by_backup": after_backup == before,
        "changed_after_a_write": changed != before,
        "restored_equal": restored == before,
        "backup_seconds": backup_s,
        "restore_seconds": restore_s,
    }


def verdict(results: dict[str, dict[str, Any]]) -> dict[str, bool]:
    reference = results["clean"]["store"]
    passed = {}
    for name, result in results.items():
        store = result["store"]
        good = not store["observations_without_evidence"] and not store["evidence_not_at_offsets"]
        passed[name] = (
            good
            and store == reference
            and result["exit_codes"][-1] == 0
            and result["check_exit"] == 0
        )
    return passed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", type=Path, default=None, help=harness.LOCOMO_HELP)
    parser.add_argument("--conversation", default=None)
    parser.add_argument("--at", type=float, default=0.3, help="fraction stored at the kill")
    parser.add_argument("--wipe", action="store_true")
    parser.add_argument("--out", type=Path, default=ROOT / "bench/results/faults.json")
    args = parser.parse_args()
    args.file = harness.locomo_argument(parser, args.file)
    if not args.wipe:
        parser.error("--wipe is required: every run starts from an empty store")
    args.conversation = args.conversation or json.loads(args.file.read_text())[0]["sample_id"]
    with tempfile.TemporaryDirectory() as tmp:
        principals = Path(tmp) / "principals.toml"
        principals.write_text(PRINCIPALS, "utf-8")
        env = {**os.environ, "TRACTATUS_PRINCIPALS": str(principals)}
        run = Run(args, env, Path(tmp))
        results = {}
        for name, scenario in (("clean", clean), ("api", kill_api), ("neo4j", kill_neo4j)):
            results[name] = scenario(run)
            print(f"{name}: {json.dumps(results[name])}", flush=True)
        backup = backup_round_trip(run)
        print(f"backup: {json.dumps(backup)}", flush=True)
    passed = verdict(results)
    keys = ("unchanged_by_backup", "changed_after_a_write", "restored_equal")
    passed["backup"] = all(backup[key] for key in keys)
    report = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "data": {"file": harness.shown_path(args.file), "conversation": args.conversation},
        "turns": run.turns,
        "kill_at": args.at,
        "runs": results,
        "backup": backup,
        "passed": passed,
        "machine": harness.machine(),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", "utf-8")
    print(f"passed: {passed}\nwrote {args.out}")
    sys.exit(0 if all(passed.values()) else 1)


if __name__ == "__main__":
    main()
