"""The JSONL and LoCoMo readers and the progress file (no services needed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph_schema.core.timeutil import parse_rfc3339
from graph_schema.observations.types import ObservationIn
from ingest import bulk


def _sample() -> list[dict[str, object]]:
    return [
        {
            "sample_id": "conv-x",
            "conversation": {
                "speaker_a": "Ann",
                "speaker_b": "Ben",
                "session_2_date_time": "9:05 am on 1 June, 2023",
                "session_2": [{"speaker": "Ben", "dia_id": "D2:1", "text": "Later."}],
                "session_1_date_time": "1:56 pm on 8 May, 2023",
                "session_1": [
                    {"speaker": "Ann", "dia_id": "D1:1", "text": "Hi Ben!"},
                    {
                        "speaker": "Ben",
                        "dia_id": "D1:2",
                        "text": "Look at this.",
                        "img_url": ["http://example.invalid/x.jpg"],
                        "blip_caption": "a photo of a dog",
                    },
                    {"speaker": "Ann", "dia_id": "D1:3", "text": "Cute!"},
                ],
            },
            "qa": [],
        },
        {
            "sample_id": "conv-y",
            "conversation": {
                "session_1_date_time": "12:48 am on 1 February, 2023",
                "session_1": [{"speaker": "Cy", "dia_id": "D1:1", "text": "Yo."}],
            },
        },
    ]


def test_locomo_session_time_is_utc_rfc3339() -> None:
    assert bulk.parse_locomo_time("1:56 pm on 8 May, 2023").isoformat() == (
        "2023-05-08T13:56:00+00:00"
    )
    assert bulk.parse_locomo_time("12:48 am on 1 February, 2023").isoformat() == (
        "2023-02-01T00:48:00+00:00"
    )
    with pytest.raises(bulk.BulkInputError):
        bulk.parse_locomo_time("March 3rd, 2024")


def test_locomo_turns_become_ordered_observations() -> None:
    items = bulk.locomo_observations(_sample())
    keys = [i["idempotency_key"] for i in items]
    assert keys == ["conv-x:D1:1", "conv-x:D1:2", "conv-x:D1:3", "conv-x:D2:1", "conv-y:D1:1"]
    assert [i["occurred_at"] for i in items[:4]] == [
        "2023-05-08T13:56:00+00:00",
        "2023-05-08T13:56:01+00:00",
        "2023-05-08T13:56:02+00:00",
        "2023-06-01T09:05:00+00:00",
    ]
    assert items[1]["text"] == "Look at this. [image: a photo of a dog]"
    assert items[1]["speaker"] == "Ben" and items[1]["conversation_id"] == "conv-x"
    for item in items:
        ObservationIn.model_validate(item)  # every body is a valid observation
    only = bulk.locomo_observations(_sample(), only=["conv-y"])
    assert [i["idempotency_key"] for i in only] == ["conv-y:D1:1"]


def test_the_locomo_dev_file_reads_whole(locomo: Path) -> None:
    items = bulk.read_observations(locomo)
    assert len(items) == 2760
    assert len({i["idempotency_key"] for i in items}) == len(items)
    by_conversation: dict[str, list[str]] = {}
    for item in items:
        by_conversation.setdefault(item["conversation_id"], []).append(item["occurred_at"])
    for times in by_conversation.values():
        parsed = [parse_rfc3339(t) for t in times]
        assert parsed == sorted(parsed)


def test_jsonl_lines_keep_or_derive_their_keys(tmp_path: Path) -> None:
    path = tmp_path / "obs.jsonl"
    rows = [
        {
            "text": "a",
            "speaker": "s",
            "occurred_at": "2026-01-01T00:00:00Z",
            "source_kind": "user_stated",
            "idempotency_key": "given",
        },
        {
            "text": "b",
            "speaker": "s",
            "occurred_at": "2026-01-01T00:00:00Z",
            "source_kind": "user_stated",
        },
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n", "utf-8")
    items = bulk.read_observations(path)
    assert items[0]["idempotency_key"] == "given"
    derived = items[1]["idempotency_key"]
    assert derived.startswith("sha256:")
    assert bulk.read_observations(path)[1]["idempotency_key"] == derived  # stable
    path.write_text('{"text": "a", "occurred_at": "2026-01-01T00:00:00Z"}\n[1, 2]\n', "utf-8")
    with pytest.raises(bulk.BulkInputError, match=":2: not a JSON object"):
        bulk.read_jsonl(path)


def test_a_jsonl_line_without_its_time_is_refused_with_its_number(tmp_path: Path) -> None:
    """A line with no ``occurred_at`` was stamped with the time of sending under a key kept
    across runs: the run that resumed it was refused (409); now the client refuses it too."""
    path = tmp_path / "obs.jsonl"
    path.write_text('{"text": "a", "occurred_at": "2026-01-01T00:00:00Z"}\n{"text": "b"}\n')
    with pytest.raises(bulk.BulkInputError, match=":2: occurred_at is required"):
        bulk.read_jsonl(path)


def test_progress_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "p" / "done"
    progress = bulk.Progress(path)
    progress.record(["a", "b"])
    progress.record([])
    assert bulk.Progress(path).done == {"a", "b"}
    assert bulk.Progress(None).done == set()
    one = bulk.default_progress_path(tmp_path / "f.json", "http://h:1", "k1", cache=tmp_path)
    two = bulk.default_progress_path(tmp_path / "f.json", "http://h:2", "k1", cache=tmp_path)
    assert one != two and one.name.startswith("f.json.")
    assert one.parent == tmp_path / "tractatus" / "ingest"
