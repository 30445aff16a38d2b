"""Names the person asked about never says (docs/recall.md, *A name the person never says*).
Pure: the pipeline reads the candidates and a full-text probe, and passes their texts here.

"When did Dev go to Lisbon?", of a chat where only Priya was in Lisbon: Lisbon is mentioned
(so the rule of things memory has no record of does not refuse it), but only by Priya. Dev's
turns about his car and his new job were read as the answer, their relevance close enough to
Priya's that the contrast between people did not refuse it either. A question about one person
that names a place or a thing (a capitalised word, an identifier) which none of that person's
own turns holds, while another person's statement does, asks about something that happened to
someone else: ``not_found``, the names listed in the answer's ``unsaid``.

Only what other people state (``user_stated``) counts as the other side: in an agent's notes
a teammate's decision is often named only in the agent's note about it ("Maya decided to drop
Kafka"), and that says nothing of whom the thing concerns.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from graph_schema.core.types import SourceKind
from graph_schema.recall.fusion import Scored
from graph_schema.recall.named import named_terms, unheld_in
from graph_schema.recall.query import names_in_query


def asked_names(
    query: str, person: str, speakers: set[str], unmentioned: Iterable[str]
) -> list[str]:
    """The names and identifiers of ``query`` other than a speaker's name, the person's
    own included, in full or short ("Mel" for Melanie, whose own turns never say it), and the
    names nothing visible mentions (those are refused already)."""
    skip = set(unmentioned)
    return [
        term
        for term in named_terms(query)
        if term not in skip and not names_in_query(term, speakers | {person})
    ]


def _stated(s: Scored, records: Mapping[str, list[Any]]) -> bool:
    return any(
        r["assertion"]["source_kind"] == SourceKind.user_stated for r in records.get(s.gid, [])
    )


def states(window: Sequence[Scored], records: Mapping[str, list[Any]], person: str) -> bool:
    """Whether ``person`` is one who states things among the groups read (a person, not a
    tool or an agent: "the analytics SDK" names the speaker ``tool:analytics`` too)."""
    return any(s.speaker == person and _stated(s, records) for s in window)


def stated_by_others(
    window: Sequence[Scored], records: Mapping[str, list[Any]], person: str
) -> list[str]:
    """The texts of the groups read for the answer that another person states (a speaker's
    turn holding a ``user_stated`` assertion)."""
    texts: list[str] = []
    for s in window:
        if s.speaker is not None and s.speaker != person and _stated(s, records):
            texts.extend([*s.texts, *([s.turn] if s.turn else [])])
    return list(dict.fromkeys(texts))


def unsaid(missing: list[str], others: list[str]) -> list[str]:
    """Of the names the person's own turns do not hold (``missing``), those another
    person's statement holds."""
    held = set(missing) - set(unheld_in(missing, others))
    return [term for term in missing if term in held]
