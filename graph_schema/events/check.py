"""The chain audit behind ``tractatus check-chains``.

It reports what would break a causal replay: non-root events without causes, causes that
are not events, causes that occurred or were recorded after their effects, causes the
effect's readers may not see (their replay silently stops there), events outside their
task, and assertions whose ``CAUSED_BY`` does not lead to an event.
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
        }


def check_chains(driver: Driver, *, database: str, sample: int = DEFAULT_SAMPLE) -> ChainReport:
    """Run every chain check (read-only); each finding keeps up to ``sample`` examples."""
    findings = []
    for kind, statement in q.CHAIN_CHECKS.items():
        records, _, _ = driver.execute_query(
            statement, limit=sample, database_=database, routing_="r"
        )
        total = int(records[0]["total"])
        if total:
            findings.append(Finding(kind, total, [dict(p) for p in records[0]["sample"]]))
    return ChainReport(findings)


def render(report: ChainReport, what: str = "chain") -> str:
    """A human-readable report: one block per kind of problem (``what``: chain, ledger)."""
    if report.ok:
        return (
            f"{what}s ok: no problems found" if what == "chain" else f"{what} ok: no problems found"
        )
    lines = [f"{report.total} {what} problem(s) found"]
    for finding in report.findings:
        lines.append(f"- {finding.kind}: {finding.total}")
        for example in finding.sample:
            lines.append("    " + json.dumps(example, ensure_ascii=False, sort_keys=True))
        if finding.total > len(finding.sample):
            lines.append(f"    ... and {finding.total - len(finding.sample)} more")
    return "\n".join(lines)
