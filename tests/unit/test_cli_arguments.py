"""The command line refuses counts that make no sense instead of reading them as Python slices
(a new operator's trial: ``tractatus check-chains --sample -1`` printed all examples but the
last, ``--sample -3`` none, with "... and 1 more")."""

from __future__ import annotations

import pytest

from server import cli


@pytest.mark.parametrize(
    "args",
    [
        ["check", "--sample", "-1"],
        ["check-chains", "--sample", "-3"],
        ["check", "--sample", "many"],
        ["ingest", "x.jsonl", "--limit", "-2"],
        ["ingest", "x.jsonl", "--batch-size", "0"],
        ["ingest", "x.jsonl", "--workers", "0"],
        ["redistill", "--batch", "0"],
        ["redistill", "--limit", "-1"],
        ["reembed", "--batch", "-5"],
    ],
)
def test_a_count_out_of_range_is_refused(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.build_parser().parse_args(args)
    assert exited.value.code == 2
    assert f"argument {args[-2]}: " in capsys.readouterr().err


@pytest.mark.parametrize(("args", "sample"), [(["check", "--sample", "0"], 0), (["check"], 100)])
def test_zero_and_the_default_are_taken(args: list[str], sample: int) -> None:
    assert cli.build_parser().parse_args(args).sample == sample
