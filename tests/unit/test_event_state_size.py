"""The size bound of an event's ``before`` / ``after`` state is counted on the state as a
client sends it, compact JSON (docs/openapi.json ``EventWrite.after``): a new user's trial
found it counted with a space after each ``,`` and ``:``, so a state of 61,601 characters as
sent was refused as longer than 65,536."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from graph_schema.events.types import MAX_STATE_CHARS, EventWrite


def _event(after: dict[str, Any]) -> EventWrite:
    return EventWrite.model_validate(
        {
            "task_id": "t",
            "actor": "a",
            "action": "s",
            "outcome": "success",
            "occurred_at": "2026-12-05T12:01:00Z",
            "root": True,
            "after": after,
        }
    )


def _compact(state: dict[str, Any]) -> int:
    return len(json.dumps(state, ensure_ascii=False, separators=(",", ":")))


def test_many_keys_are_counted_as_sent_not_with_spaces() -> None:
    state = {f"k{i:05d}": 1 for i in range(5_600)}
    assert _compact(state) == 61_601 < MAX_STATE_CHARS < len(json.dumps(state))
    assert _event(state).after == state


def test_the_bound_is_exact_on_compact_json() -> None:
    text = "y" * (MAX_STATE_CHARS - len('{"k":1,"x":""}'))
    at_bound = {"k": 1, "x": text}
    assert _compact(at_bound) == MAX_STATE_CHARS
    assert _event(at_bound).after == at_bound
    over = {"k": 1, "x": text + "y"}
    with pytest.raises(ValidationError, match="65536 characters as compact JSON"):
        _event(over)


def test_a_non_ascii_character_counts_once() -> None:
    state = {"x": "é" * (MAX_STATE_CHARS - len('{"x":""}'))}
    assert _event(state).after == state
    with pytest.raises(ValidationError, match="longer than"):
        _event({"x": state["x"] + "é"})
