"""TRACTATUS_MAX_FUTURE: how far an observation's occurred_at may lie ahead of the server's
clock (docs/ingestion.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from graph_schema.observations.types import ObservationIn
from ingest.gate import DEFAULT_MAX_FUTURE, not_ahead
from server.settings import Settings


def _at(delta: timedelta) -> str:
    return (datetime.now(UTC) + delta).isoformat()


def test_the_setting_reads_seconds_or_iso_and_refuses_a_negative(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert Settings().max_future == DEFAULT_MAX_FUTURE == timedelta(minutes=5)
    monkeypatch.setenv("TRACTATUS_MAX_FUTURE", "60")
    assert Settings().max_future == timedelta(seconds=60)
    monkeypatch.setenv("TRACTATUS_MAX_FUTURE", "PT1H")
    assert Settings().max_future == timedelta(hours=1)
    monkeypatch.setenv("TRACTATUS_MAX_FUTURE", "-PT1M")
    with pytest.raises(ValidationError, match="negative"):
        Settings()


def test_only_an_occurred_at_beyond_the_allowance_is_refused() -> None:
    allowance = timedelta(minutes=5)
    assert not_ahead(_at(timedelta(minutes=-1)), index=0, raw={}, max_future=allowance) is None
    assert not_ahead(_at(timedelta(minutes=4)), index=0, raw={}, max_future=allowance) is None
    refused = not_ahead(_at(timedelta(minutes=6)), index=3, raw={}, max_future=allowance)
    assert refused is not None and (refused.index, refused.reason) == (3, "future_timestamp")
    assert (
        not_ahead(_at(timedelta(minutes=6)), index=0, raw={}, max_future=timedelta(hours=1)) is None
    )


def test_the_text_of_an_observation_is_not_blank_and_holds_no_nul() -> None:
    for text in (" ", "\u3000", "a\x00b"):
        with pytest.raises(ValidationError, match="text"):
            ObservationIn(
                text=text,
                speaker="a",
                occurred_at="2026-01-01T00:00:00Z",
                source_kind="user_stated",
            )
