"""The chain audit behind ``tractatus check-chains``.

It reports what would break a causal replay: non-root events without causes, causes that
are not events, causes that occurred or were recorded after their effects, events outside
their task, and assertions whose ``CAUSED_BY`` does not lead to an event. Causes the effect's
readers may not see (their replay stops there) are reported as notes, not problems: the API
accepts such a step on purpose, and a store written only through it had failed the audit
(a new user's trial).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from neo4j import Driver

from graph_schema.events import cypher as q

DEFAULT_SAMPLE = 100


@dataclass(frozen=True)
class Finding:
    kind: str
    total: int
    sample: list[dict[str, Any]]


@dataclass(frozen=True)
class ChainReport:
    findings: list[Finding] = field(default_factory=list)
    notes: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings

    @property
    def total(self) -> int:
        return sum(f.total for f in self.findings)

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "problems": self.total,
            "findings": [
                {"kind": f.kind, "total": f.total, "sample": f.sample} for f in self.findings
            ],
            "notes": [{"kind": f.kind, "total": f.total, "sample": f.sample} for f in self.notes],
        }


def check_chains(driver: Driver, *, database: str, sample: int = DEFAULT_SAMPLE) -> ChainReport:
    """Run every chain check (read-only); each finding keeps up to ``sample`` examples."""
    return ChainReport(
        _found(driver, q.CHAIN_CHECKS, database, sample),
        _found(driver, q.CHAIN_NOTES, database, sample),
    )


def _found(driver: Driver, checks: dict[str, str], database: str, sample: int) -> list[Finding]:
    found = []
    for kind, statement in checks.items():
        records, _, _ = driver.execute_query(
            statement, limit=sample, database_=database, routing_="r"
        )
        total = int(records[0]["total"])
        if total:
            found.append(Finding(kind, total, [dict(p) for p in records[0]["sample"]]))
    return found


def render(report: ChainReport, what: str = "chain") -> str:
    """A human-readable report: one block per kind of problem (``what``: chain, ledger), then
    the notes."""
    if report.ok:
        ok = f"{what}s ok" if what == "chain" else f"{what} ok"
        lines = [f"{ok}: no problems found"]
    else:
        lines = [f"{report.total} {what} problem(s) found"]
    _blocks(lines, report.findings)
    if report.notes:
        lines.append("notes (not problems):")
        _blocks(lines, report.notes)
    return "\n".join(lines)


def _blocks(lines: list[str], findings: list[Finding]) -> None:
    for finding in findings:
        lines.append(f"- {finding.kind}: {finding.total}")
        for example in finding.sample:
            lines.append("    " + json.dumps(example, ensure_ascii=False, sort_keys=True))
        if finding.total > len(finding.sample):
            lines.append(f"    ... and {finding.total - len(finding.sample)} more")
