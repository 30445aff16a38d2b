"""The ledger audit behind ``tractatus check`` (with the chain audit of ``check-chains``).

It reports what the ledger promises and a store could break: two versions of one slot and
scope current at once, SUPERSEDES edges and closing stamps that disagree, evidence whose
observation is missing or whose span is not at its offsets in the observation's stored text
(observations whose raw text is not retained are skipped: only their hash is stored), facts
readable by more principals than the observations they cite, valid times that run backwards,
and one value held current in two slots in two spellings (written before the writer joined
spellings: docs/semantics.md "Auditing the ledger").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from neo4j import Driver

from graph_schema.core.records import as_datetime
from graph_schema.ledger import cypher
from graph_schema.ledger.reads import overlapping_versions
from graph_schema.ledger.timeline import spelled
from graph_schema.ledger.types import UTTERANCE

SPAN_PAGE = 5_000
SUBJECT_PAGE = 1_000


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


def _holds_with(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether the valid times of two versions (as known now) share an instant."""
    a_from, b_from = as_datetime(a["valid_from"]), as_datetime(b["valid_from"])
    a_to, b_to = as_datetime(a["valid_to"]), as_datetime(b["valid_to"])
    if a_from is None or b_from is None:
        return False
    return (a_to is None or a_to > b_from) and (b_to is None or b_to > a_from)


def spelling_pairs(versions: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Pairs of alive versions of one subject, predicate, value and scope (``access`` and
    ``access_all``, sorted) in two slots whose valid times overlap: one value current twice.
    The value is compared as the writer compares it (:func:`spelled`: any case, any spacing),
    so "Acme" and "acme " are one value; the writer now joins them into one slot
    (``ingest.writer.same_spelling``), a store written before may hold both."""
    groups: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}
    for v in versions:
        scope = (tuple(sorted(v["access"])), tuple(sorted(v["access_all"])))
        value = (v["subject"], v["predicate"], spelled(str(v["object"])), scope)
        groups.setdefault(value, []).append(v)
    pairs = []
    for (subject, predicate, value, _), held in groups.items():
        ordered = sorted(held, key=lambda v: str(v["id"]))
        for a, b in combinations(ordered, 2):
            if a["slot"] != b["slot"] and _holds_with(a, b):
                pairs.append(
                    {
                        "subject": subject,
                        "predicate": predicate,
                        "value": value,
                        "first": a["id"],
                        "second": b["id"],
                        "objects": [a["object"], b["object"]],
                        "slots": [a["slot"], b["slot"]],
                    }
                )
    return pairs


def _spellings(driver: Driver, *, database: str, sample: int) -> list[Problems]:
    """One value current in two slots in two spellings, a page of subjects at a time."""
    problems: list[dict[str, Any]] = []
    after = ""
    while True:
        records, _, _ = driver.execute_query(
            cypher.SUBJECTS_PAGE, after=after, page=SUBJECT_PAGE, database_=database, routing_="r"
        )
        subjects = [r["subject"] for r in records]
        if subjects:
            rows, _, _ = driver.execute_query(
                cypher.SPELLING_VERSIONS,
                subjects=subjects,
                utterance=UTTERANCE,
                database_=database,
                routing_="r",
            )
            problems.extend(spelling_pairs(dict(r) for r in rows))
        if len(subjects) < SUBJECT_PAGE:
            break
        after = subjects[-1]
    shown = problems[:sample]
    return [Problems("two_spellings_current", len(problems), shown)] if problems else []


def check_ledger(driver: Driver, *, database: str, sample: int = 100) -> list[Problems]:
    """Run every ledger check (read-only); each kind keeps up to ``sample`` examples."""
    return [
        *_overlaps(driver, database=database, sample=sample),
        *_statement_checks(driver, database=database, sample=sample),
        *_misplaced_spans(driver, database=database, sample=sample),
        *_spellings(driver, database=database, sample=sample),
    ]
