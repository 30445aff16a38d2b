"""From tasks' steps to procedures: pure Python, no store (docs/procedures.md).

A task's *trace* is its steps' actions in time order, a run of one action (a retry) read as
one step. Traces of at least two steps that share their actions and their visibility scope
are one *variant*; a variant seen in at least ``min_support`` tasks is a procedure, with how
often it ended in success.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

# root events a procedure links to as its evidence (EVIDENCED_BY), the first ones in time
MAX_EVIDENCE = 100
DEFAULT_MIN_SUPPORT = 3


@dataclass(frozen=True)
class Step:
    """One event of a task as mining reads it."""

    id: str
    action: str
    outcome: str
    occurred_at: datetime
    access: tuple[str, ...] = ()


@dataclass(frozen=True)
class Trace:
    """One task's steps in time order."""

    task: str
    steps: tuple[Step, ...]

    def actions(self) -> tuple[str, ...]:
        """The actions in order, a run of the same action read once."""
        out: list[str] = []
        for step in self.steps:
            if not out or out[-1] != step.action:
                out.append(step.action)
        return tuple(out)

    def scope(self) -> tuple[str, ...]:
        """Who may read every step: one requirement per distinct restricted access list
        (its groups joined by ``|``, any of them), sorted; empty for public steps only."""
        return tuple(sorted({"|".join(sorted(s.access)) for s in self.steps if s.access}))

    def succeeded(self) -> bool:
        return self.steps[-1].outcome == "success"


def shown_access(access: Sequence[str], access_all: Sequence[str]) -> tuple[list[str], list[str]]:
    """Who may read a procedure, in the API's one form (docs/procedures.md "Scope"): ``access``,
    groups of which the reader needs one (empty: no such requirement), and ``access_all``,
    further requirements ("g1|g2": one of these groups) the reader needs each of, as on
    assertions. A version is stored with its scope as ``access_all`` and ``access`` empty
    (every version, before and after this form); its first requirement is shown as ``access``
    and the others as ``access_all``, so ``access`` is empty only for a public procedure and
    a scope of one requirement (the usual one) needs no ``access_all``. A new user's trial:
    the scope was answered as ``access``, each entry ``g1|g2`` and all of them needed, and a
    client's usual check (any of ``access``) read a task of ``["ops", "support"]`` wrong."""
    own = ["|".join(sorted(access))] if access else []
    requirements = sorted({*own, *access_all})
    if not requirements:
        return [], []
    return sorted(requirements[0].split("|")), requirements[1:]


def key_of(scope: Sequence[str], actions: Sequence[str]) -> str:
    """The stable key of a variant: the same actions in the same scope, the same key."""
    text = json.dumps([list(scope), list(actions)], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@dataclass
class Variant:
    """The tasks that went through the same actions in the same scope."""

    scope: tuple[str, ...]
    steps: tuple[str, ...]
    support: int = 0
    successes: int = 0
    first_seen: datetime | None = None
    last_seen: datetime | None = None
    roots: list[tuple[datetime, str]] = field(default_factory=list)

    @property
    def key(self) -> str:
        return key_of(self.scope, self.steps)

    @property
    def trigger(self) -> str:
        return self.steps[0]

    @property
    def success_rate(self) -> float:
        return self.successes / self.support if self.support else 0.0

    def evidence(self) -> list[str]:
        """The first :data:`MAX_EVIDENCE` supporting tasks' first steps, in time order."""
        return [event_id for _, event_id in sorted(self.roots)[:MAX_EVIDENCE]]

    def add(self, trace: Trace) -> None:
        first, last = trace.steps[0], trace.steps[-1]
        self.support += 1
        self.successes += int(trace.succeeded())
        if self.first_seen is None or first.occurred_at < self.first_seen:
            self.first_seen = first.occurred_at
        if self.last_seen is None or last.occurred_at > self.last_seen:
            self.last_seen = last.occurred_at
        self.roots.append((first.occurred_at, first.id))


def variants(traces: Iterable[Trace], min_support: int) -> list[Variant]:
    """The variants seen in at least ``min_support`` tasks, by key; a trace of one step (after
    retries are read once) is no procedure."""
    found: dict[tuple[tuple[str, ...], tuple[str, ...]], Variant] = {}
    for trace in traces:
        if not trace.steps:
            continue
        actions = trace.actions()
        if len(actions) < 2:
            continue
        scope = trace.scope()
        variant = found.setdefault((scope, actions), Variant(scope, actions))
        variant.add(trace)
    kept = [v for v in found.values() if v.support >= max(min_support, 1)]
    return sorted(kept, key=lambda v: v.key)
