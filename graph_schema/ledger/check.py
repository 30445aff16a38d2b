"""The ledger audit behind ``tractatus check`` (with the chain audit of ``check-chains``).

It reports what the ledger promises and a store could break: two versions of one slot and
scope current at once, SUPERSEDES edges and closing stamps that disagree, evidence whose
observation is missing or whose span is not at its offsets in the observation's stored text
(observations whose raw text is not retained are skipped: only their hash is stored), and
facts readable by more principals than the observations they cite.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from neo4j import Driver

from graph_schema.ledger import cypher
from graph_schema.ledger.reads import overlapping_versions

SPAN_PAGE = 5_000


@dataclass(frozen=True)
class Problems:
    kind: str
    total: int
    sample: list[dict[str, Any]]


def _statement_checks(driver: Driver, *, database: str, sample: int) -> list[Problems]:
    found = []
    for kind, statement in cypher.LEDGER_CHECKS.items():
        records, _, _ = driver.execute_query(
            statement, limit=sample, database_=database, routing_="r"
        )
        total = int(records[0]["total"])
        if total:
            found.append(Problems(kind, total, [dict(p) for p in records[0]["sample"]]))
    return found


def _overlaps(driver: Driver, *, database: str, sample: int) -> list[Problems]:
    pairs = overlapping_versions(driver, database=database)
    shown = [
        {
            "slot": p["slot"],
            "first": p["first"],
            "second": p["second"],
            "known_at": str(p["known_at"]),
        }
        for p in pairs[:sample]
    ]
    return [Problems("two_current_versions", len(pairs), shown)] if pairs else []


def _misplaced_spans(driver: Driver, *, database: str, sample: int) -> list[Problems]:
    """Evidence spans not found at their offsets in their observation's stored text."""
    problems: list[dict[str, Any]] = []
    after = ""
    while True:
        records, _, _ = driver.execute_query(
            cypher.EVIDENCE_SPANS, after=after, page=SPAN_PAGE, database_=database, routing_="r"
        )
        for r in records:
            start, end, text = r["start"], r["end"], r["text"]
            if start is None or end is None or text[start:end] != r["quote"]:
                problems.append(
                    {
                        "evidence": r["evidence"],
                        "observation": r["observation"],
                        "start": start,
                        "end": end,
                        "quote": r["quote"][:200],
                    }
                )
        if len(records) < SPAN_PAGE:
            break
        after = records[-1]["evidence"]
    return (
        [Problems("evidence_not_at_offsets", len(problems), problems[:sample])] if problems else []
    )


def check_ledger(driver: Driver, *, database: str, sample: int = 100) -> list[Problems]:
    """Run every ledger check (read-only); each kind keeps up to ``sample`` examples."""
    return [
        *_overlaps(driver, database=database, sample=sample),
        *_statement_checks(driver, database=database, sample=sample),
        *_misplaced_spans(driver, database=database, sample=sample),
    ]
