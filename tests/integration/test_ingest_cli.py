"""`tractatus ingest` against the real server: JSONL, a LoCoMo excerpt, resumption."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from neo4j import Driver

from server.cli import main
from tests.helpers import KEYS

pytestmark = pytest.mark.integration


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    capsys.readouterr()
    code = main(["ingest", *args, "--quiet"])
    out = capsys.readouterr().out
    return code, json.loads(out)


def _counts(driver: Driver, conversation: str) -> tuple[int, int, int]:
    records, _, _ = driver.execute_query(
        "MATCH (o:Observation {conversation_id: $c}) "
        "OPTIONAL MATCH (a:Assertion)-[:EVIDENCED_BY]->(:Evidence)-[:FROM]->(o) "
        "RETURN count(DISTINCT o) AS o, count(DISTINCT a) AS a, "
        "count(DISTINCT o.idempotency_scope) AS scopes",
        c=conversation,
    )
    return records[0]["o"], records[0]["a"], records[0]["scopes"]


def test_a_jsonl_file_is_ingested_once(
    base_url: str, driver: Driver, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conversation = f"jsonl-{uuid.uuid4().hex[:8]}"
    rows = [
        {
            "text": text,
            "speaker": "user:dana",
            "source_kind": "user_stated",
            "occurred_at": f"2026-02-01T10:00:0{n}+00:00",
            "conversation_id": conversation,
        }
        for n, text in enumerate(["I live in Porto.", "我喜欢咖啡。", "We use Vue for the app."])
    ]
    rows[0]["idempotency_key"] = f"{conversation}:1"
    source = tmp_path / "obs.jsonl"
    source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    common = [
        str(source),
        "--url",
        base_url,
        "--key",
        KEYS["alice"],
        "--progress",
        str(tmp_path / "done"),
    ]
    code, summary = _run(capsys, *common)
    assert code == 0, summary
    assert (summary["created"], summary["replayed"], summary["rejected"]) == (3, 0, 0)
    assert summary["assertions"] == 6
    first = _counts(driver, conversation)
    assert first == (3, 6, 3)
    code, again = _run(capsys, *common)
    assert code == 0 and again["skipped"] == 3 and again["created"] == 0
    code, resent = _run(capsys, *common, "--restart")
    assert code == 0 and resent["replayed"] == 3 and resent["created"] == 0
    assert _counts(driver, conversation) == first


def test_a_locomo_conversation_resumes_without_duplicates(
    base_url: str,
    driver: Driver,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    locomo: Path,
) -> None:
    sample = json.loads(locomo.read_text("utf-8"))[0]
    conversation = f"locomo-{uuid.uuid4().hex[:8]}"
    turns = sample["conversation"]
    excerpt = {
        "sample_id": conversation,
        "conversation": {
            k: turns[k]
            for k in (
                "speaker_a",
                "speaker_b",
                "session_1",
                "session_1_date_time",
                "session_2",
                "session_2_date_time",
            )
        },
        "qa": [],
    }
    source = tmp_path / "excerpt.json"
    source.write_text(json.dumps([excerpt]), "utf-8")
    total = len(turns["session_1"]) + len(turns["session_2"])
    half = total // 2
    common = [
        str(source),
        "--url",
        base_url,
        "--key",
        KEYS["alice"],
        "--progress",
        str(tmp_path / "done"),
        "--batch-size",
        "8",
    ]
    code, first = _run(capsys, *common, "--limit", str(half))  # the interrupted run
    assert code == 0, first
    assert first["created"] == half
    assert _counts(driver, conversation)[0] == half
    code, rest = _run(capsys, *common)
    assert code == 0, rest
    assert (rest["skipped"], rest["created"], rest["replayed"]) == (half, total - half, 0)
    done = _counts(driver, conversation)
    assert done[0] == done[2] == total
    assert done[1] >= total  # at least the faithful `said` of each turn
    code, resent = _run(capsys, *common, "--restart")  # progress lost: the server replays
    assert code == 0 and resent["replayed"] == total and resent["created"] == 0
    assert _counts(driver, conversation) == done
    records, _, _ = driver.execute_query(
        "MATCH (o:Observation {idempotency_scope: $s}) RETURN o.text AS text, "
        "o.occurred_at AS at, o.speaker AS speaker",
        s=f"alice\x1f{conversation}:D1:1",
    )
    assert records[0]["text"] == turns["session_1"][0]["text"]
    assert records[0]["speaker"] == turns["session_1"][0]["speaker"]
    assert records[0]["at"].to_native().isoformat() == "2023-05-08T13:56:00+00:00"


def _jsonl(tmp_path: Path, conversation: str, n: int) -> Path:
    source = tmp_path / "turns.jsonl"
    rows = [
        {
            "text": f"Turn {i} of {conversation}.",
            "speaker": "user:erin",
            "source_kind": "user_stated",
            "occurred_at": f"2026-03-01T10:00:0{i}+00:00",
            "conversation_id": conversation,
        }
        for i in range(n)
    ]
    source.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    return source


def test_an_unreachable_server_fails_the_batches_and_a_rerun_resumes(
    base_url: str, driver: Driver, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.fakes import free_port

    conversation = f"down-{uuid.uuid4().hex[:8]}"
    source = _jsonl(tmp_path, conversation, 3)
    progress = ["--progress", str(tmp_path / "done"), "--key", KEYS["alice"]]
    closed = f"http://127.0.0.1:{free_port()}"
    # --wait 3: the loader's patience after the client's own retries (the default, 300 s,
    # made this test the slowest of the suite by minutes; what it checks does not need it)
    down_args = ["--url", closed, *progress, "--batch-size", "2", "--wait", "3"]
    code, down = _run(capsys, str(source), *down_args)
    assert code == 1 and down["failed"] == 3 and down["created"] == 0
    assert not (tmp_path / "done").exists() or (tmp_path / "done").read_text() == ""
    code, up = _run(capsys, str(source), "--url", base_url, *progress)
    assert code == 0 and up["created"] == 3 and up["skipped"] == 0
    assert _counts(driver, conversation)[0] == 3


def test_a_refused_key_aborts_with_exit_2(
    base_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """2 (bad input or no key), not 1 ("run again", which cannot help): a new operator's
    trial."""
    source = _jsonl(tmp_path, f"nokey-{uuid.uuid4().hex[:8]}", 1)
    capsys.readouterr()
    code = main(["ingest", str(source), "--url", base_url, "--key", "tr_wrong_key_0000000000000000",
                 "--no-progress", "--quiet"])  # fmt: skip
    assert code == 2
    err = capsys.readouterr().err
    assert "the server refused the key: HTTP 401" in err and "give another key" in err
