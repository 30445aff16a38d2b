"""Every command that opens the store (``check``, ``check-chains``, ``checksum``, ``sleep``,
``migrate``, ``redistill``, ``reembed``) exits 2 with one line when the store cannot be read
(1 means problems found, or run again): a new user's trial ran ``check`` without the password
and read a traceback ending in exit 1, and a new operator's trial read the same from
``checksum`` and ``sleep``."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from server import cli
from server.settings import get_settings


@pytest.fixture(autouse=True)
def unreachable(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:1")  # nothing listens there
    monkeypatch.setenv("NEO4J_PASSWORD", "not-the-password")
    monkeypatch.setenv("TRACTATUS_NEO4J_RETRY_TIME", "0")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.mark.parametrize(
    "args",
    [
        ["check", "--json"],
        ["check-chains", "--json"],
        # a new operator's trial read tracebacks ending in exit 1 from these
        ["checksum"],
        ["sleep", "--dry-run"],
        ["sleep"],
        ["migrate"],
        ["redistill", "--quiet"],
        ["reembed", "--quiet"],
    ],
)
def test_an_unreadable_store_exits_2_with_one_line(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"tractatus {args[0]}: cannot read the store: ")
    assert "connection.env" in captured.err and "Traceback" not in captured.err
    assert captured.err.count("\n") == 1, captured.err  # one line, the driver's message too


def test_every_command_that_opens_the_store_is_covered() -> None:
    """A command added later that opens the store joins ``STORE_COMMANDS`` (and the list
    above), or an unreachable store prints a traceback again."""
    source = Path(cli.__file__).read_text("utf-8")
    opening = set()
    for name, action in _subcommands().items():
        body = source.split(f"def {action.__name__}(", 1)[1].split("\ndef ", 1)[0]
        if "open_driver(" in body:
            opening.add(name)
    assert opening == cli.STORE_COMMANDS


def _subcommands() -> dict[str, Callable[..., Any]]:
    parser = cli.build_parser()
    [sub] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return {name: p.get_default("func") for name, p in sub.choices.items()}
