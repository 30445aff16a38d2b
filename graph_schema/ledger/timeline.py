"""Pure valid-time planning for one slot: what a new version does to the versions alive now.

A slot's alive versions (``superseded_at`` unset) tile valid time without overlap. A new
version paints ``[valid_from, valid_to)``; when it names no ``valid_to`` it reaches up to the
next alive version, so a back-fill lands in history without displacing a later version.
Overlapped versions are closed in place (``valid_to`` set once) when they were open-ended,
superseded otherwise; the parts of them left outside the new interval become *remnants*:
new nodes with the same content and the trimmed interval. Nothing existing is rewritten.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class Version:
    id: str
    valid_from: datetime
    valid_to: datetime | None
    polarity: bool = True
    object: str | None = None
    # whether the writer may read it: a write's answer names only versions its writer may read
    shown: bool = True
    # a distiller's draft whose start is when it was said (ingest.writer._continued)
    untimed: bool = False
    # the observations its evidence cites
    sources: frozenset[str] = frozenset()
    # its (access, access_all), sorted, as stored (None: written by this batch, in its slot's)
    scope: tuple[tuple[str, ...], tuple[str, ...]] | None = None


@dataclass(frozen=True)
class Remnant:
    source_id: str
    valid_from: datetime
    valid_to: datetime | None


@dataclass
class Plan:
    valid_to: datetime | None
    close: list[tuple[str, datetime]] = field(default_factory=list)
    supersede: list[str] = field(default_factory=list)
    remnants: list[Remnant] = field(default_factory=list)
    sources: dict[str, Version] = field(default_factory=dict)

    @property
    def touched(self) -> list[str]:
        return [vid for vid, _ in self.close] + self.supersede


def _overlaps(v: Version, start: datetime, end: datetime | None) -> bool:
    starts_before_end = end is None or v.valid_from < end
    ends_after_start = v.valid_to is None or v.valid_to > start
    return starts_before_end and ends_after_start


def reach(alive: list[Version], valid_from: datetime, valid_to: datetime | None) -> datetime | None:
    """Where a new version from ``valid_from`` ends: its ``valid_to``, or, with none, the start
    of the next alive version (a back-fill lands in history without displacing it)."""
    if valid_to is not None:
        return valid_to
    later = [v.valid_from for v in alive if v.valid_from > valid_from]
    return min(later) if later else None


def plan_write(alive: list[Version], valid_from: datetime, valid_to: datetime | None) -> Plan:
    """Decide the stamps and remnants for a new version ``[valid_from, valid_to)``."""
    end = reach(alive, valid_from, valid_to)
    plan = Plan(valid_to=end)
    for v in sorted(alive, key=lambda x: x.valid_from):
        if not _overlaps(v, valid_from, end):
            continue
        keeps_left = v.valid_from < valid_from
        keeps_right = end is not None and (v.valid_to is None or v.valid_to > end)
        if keeps_left and v.valid_to is None:
            plan.close.append((v.id, valid_from))
            if keeps_right:
                plan.remnants.append(Remnant(v.id, end, None))  # type: ignore[arg-type]
            continue
        plan.supersede.append(v.id)
        if keeps_left:
            plan.remnants.append(Remnant(v.id, v.valid_from, valid_from))
        if keeps_right:
            plan.remnants.append(Remnant(v.id, end, v.valid_to))  # type: ignore[arg-type]
    return plan


def governing(alive: list[Version], at: datetime) -> Version | None:
    """The alive version whose valid interval contains ``at``."""
    for v in alive:
        if v.valid_from <= at and (v.valid_to is None or at < v.valid_to):
            return v
    return None


def restated(alive: list[Version], named: str, at: datetime) -> Version | None:
    """The open-ended version holding ``named`` from before ``at``, which a statement of the
    same value at ``at`` restates (None if none): "I live in Gdansk now" after "I moved to
    Gdansk last week" is no move."""
    held = governing(alive, at)
    if held is None or not held.polarity or held.valid_to is not None or held.object is None:
        return None
    return held if held.valid_from < at and spelled(held.object) == spelled(named) else None


def spelled(text: str) -> str:
    """A value as it is compared with another's spelling: any case, any spacing."""
    return " ".join(text.casefold().split())


def cut_by(
    alive: list[Version], named: str, valid_from: datetime, valid_to: datetime | None
) -> Version | None:
    """The first alive version of another value than ``named`` that a retraction of a
    one-valued slot naming ``named`` over [valid_from, valid_to) would cut: "not Berlin"
    withdraws Berlin, never the Paris that holds then (None when it cuts nothing else). With
    no ``valid_to`` it reaches as a write does (:func:`reach`): "not Berlin from July 2023"
    before "Munich from 2024" withdraws Berlin up to 2024 and cuts no Munich."""
    name = spelled(named)
    valid_to = reach(alive, valid_from, valid_to)
    for version in alive:
        if not version.polarity or version.object is None or spelled(version.object) == name:
            continue
        starts_before_end = valid_to is None or version.valid_from < valid_to
        if starts_before_end and (version.valid_to is None or version.valid_to > valid_from):
            return version
    return None
