"""Step 8, a question asking for a fact the ontology holds one of: the current fact first
(docs/recall.md, *A question a current fact answers*). Pure.

"Who owns the replicas now?", "Which version of the runbook is current?", "What is the
status of the migration?" ask for a predicate of one value per thing (``owner``,
``current_version``, ``status``): recall reads only facts valid as of the question's time,
and a newer fact supersedes the older, so a current fact about the thing asked about is the
answer as of then. Its turn may still rank below an older, longer turn that shares more
words with the question ("Arjun handles the replicas and Bea owns the runbook" above "Kofi
takes over the replicas from Monday"). Among the groups read for the answer, those holding
such a fact come first, each in its order, then the rest; a group moved up carries the boost
``fact``.

Only a question about the present: the present tense, no time of its own ("in April 2026")
and no "before" or "previous" ("Who owned the API before Omar?" asks for a fact superseded).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from graph_schema.recall.fusion import Scored
from graph_schema.recall.named import thing_terms, unheld_in
from graph_schema.recall.query import names_a_day
from graph_schema.recall.rerank import mark_moved_up

BOOST = "fact"
# the question's head, each with the predicate it asks for
_HEADS = (
    (
        re.compile(
            r"^\s*who\s+(?:owns|maintains|handles|leads|is\s+(?:responsible\s+for|the\s+owner"
            r"\s+of|in\s+charge\s+of))\s",
            re.I,
        ),
        "owner",
    ),
    (
        re.compile(
            r"^\s*(?:which|what)\s+(?:is\s+the\s+)?(?:current\s+|latest\s+)?version\s+of\s"
            r"(?![^?]*\b(?:was|were|had|did)\b)",
            re.I,
        ),
        "current_version",
    ),
    (re.compile(r"^\s*what\s+is\s+the\s+(?:current\s+)?status\s+of\s", re.I), "status"),
)
_NOT_NOW = re.compile(r"\b(?:before|previous|previously|originally|first|used\s+to)\b", re.I)


@dataclass(frozen=True)
class Asked:
    """The predicate a question asks for and the words of the thing it asks it of."""

    predicate: str
    thing: tuple[str, ...]


def asked(query: str) -> Asked | None:
    """What ``query`` asks for, when it asks for a current fact of one value per thing."""
    if _NOT_NOW.search(query) or names_a_day(query):
        return None
    for head, predicate in _HEADS:
        if head.search(query):
            terms = thing_terms(query)
            return Asked(predicate, tuple(terms)) if terms else None
    return None


def holds(records: Sequence[Mapping[str, Any]], question: Asked) -> bool:
    """Whether one of a group's ``records`` is a fact of the predicate asked for whose
    subject holds every word of the thing (polarity true)."""
    for record in records:
        a = record["assertion"]
        if a["predicate"] != question.predicate or a.get("polarity") is False:
            continue
        if not unheld_in(list(question.thing), [str(a["subject"])]):
            return True
    return False


def fact_first(
    ranked: list[Scored], records: Mapping[str, Sequence[Mapping[str, Any]]], question: Asked
) -> list[Scored]:
    """The groups of ``ranked`` holding such a fact (:func:`holds`) first, then the rest,
    each in its order; a group moved up carries :data:`BOOST`. Scores are left as they are."""
    first = [s for s in ranked if holds(records.get(s.gid, []), question)]
    if not first:
        return ranked
    moved = {s.gid for s in first}
    order = first + [s for s in ranked if s.gid not in moved]
    mark_moved_up(ranked, order, BOOST)
    return order
