"""Disclosure levels, decided at write time: bands and trends for wider audiences."""

from __future__ import annotations

import math
from typing import Any

from graph_schema.core.timeutil import new_id
from graph_schema.ledger.types import AssertionWrite
from graph_schema.schema.types import DisclosurePolicy, Predicate


def _number(value: str | None) -> float | None:
    if value is None:
        return None
    try:
        number = float(value.replace(",", ""))
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def _short(value: float) -> str:
    for scale, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "K")):
        if abs(value) >= scale:
            return f"{value / scale:.1f}{suffix}"
    return f"{value:g}"


def band(value: float, width: float) -> str:
    low = math.floor(value / width) * width
    return f"{_short(low)}–{_short(low + width)}"


def trend(previous: float | None, current: float) -> str | None:
    if previous is None:
        return None
    if current > previous:
        return "rising"
    return "falling" if current < previous else "flat"


def _from_policy(
    policy: DisclosurePolicy, value: float, previous: float | None
) -> dict[str, Any] | None:
    view = band(value, policy.band_width) if policy.band_width else None
    direction = trend(previous, value) if policy.trend else None
    if view is None and direction is None:
        return None
    return {"audience": policy.audience, "object": view or "", "trend": direction}


def disclosures_for(
    item: AssertionWrite, predicate: Predicate, previous_object: str | None
) -> list[dict[str, Any]]:
    """Explicit disclosures of the write, else the predicate's policy (restricted facts only)."""
    views = [d.model_dump() for d in item.disclosures]
    value = _number(item.object_text())
    policy = predicate.disclosure
    if not views and policy and item.access and item.polarity and value is not None:
        derived = _from_policy(policy, value, _number(previous_object))
        views = [derived] if derived else []
    return [
        {
            "id": new_id(),
            "audience": sorted(v["audience"]),
            "access": sorted(v["audience"]),
            "object": v["object"],
            "trend": v.get("trend"),
        }
        for v in views
    ]
