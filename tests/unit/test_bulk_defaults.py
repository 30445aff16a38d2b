"""The CLI's batch size is the library's (the CLI cannot import it before parsing)."""

from __future__ import annotations

import inspect

from ingest import bulk
from server import cli


def test_cli_and_library_share_the_default_batch_size() -> None:
    assert inspect.signature(bulk.load).parameters["batch_size"].default == bulk.DEFAULT_BATCH
    args = cli.build_parser().parse_args(["ingest", "turns.jsonl"])
    assert args.batch_size == bulk.DEFAULT_BATCH


def test_cli_and_library_share_the_default_patience() -> None:
    assert inspect.signature(bulk.load).parameters["patience"].default == bulk.DEFAULT_PATIENCE
    args = cli.build_parser().parse_args(["ingest", "turns.jsonl"])
    assert args.wait == bulk.DEFAULT_PATIENCE
