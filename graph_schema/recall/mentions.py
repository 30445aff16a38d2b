"""The person a question asks about who never speaks: a relative or friend the speakers name.

In a chat between a user and an assistant every third party is spoken about, never a speaker:
"Where does Meera work?" asks about the user's sister, whose turns do not exist. The facts
distilled from the conversation know her (``Priya has_relative Priya/sister:Meera``,
``Priya/partner name Sam``), so a question naming such a person is read like one naming a
speaker (docs/recall.md, "The person mentioned"): what can answer it is what mentions them.

A person mentioned is a person identifier among the results' facts (``<speaker>/<role>``,
``<speaker>/<role>:<Name>``: the distiller's identifiers) known by a name: the name in the
identifier, or the object of a ``name`` fact about it. Only names of persons count: a place
or a company the question names is no person.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from graph_schema.recall.fusion import Scored
from graph_schema.recall.query import names_in_query

NAME_PREDICATE = "name"
SAID_PREDICATE = "said"


@dataclass(frozen=True)
class Mentioned:
    """A person the query names who is not a speaker: the name as the facts give it, and the
    identifiers of the person (``Priya/partner``)."""

    name: str
    identifiers: frozenset[str]

    @cached_property
    def _word(self) -> re.Pattern[str]:
        """The name as a word, compiled once: every ranked group is read with it."""
        return re.compile(rf"(?<!\w){re.escape(self.name)}(?!\w)", re.IGNORECASE)

    def in_group(self, s: Scored, records: Sequence[Any]) -> bool:
        """Whether group ``s`` is about this person: its own turn (or, for a group from no
        observation, its text) names them as a word, or one of its facts has them as subject
        or object."""
        own = [s.turn] if s.turn is not None else s.texts
        if any(self._word.search(t) for t in own):
            return True
        return any(_ends(r) & self.identifiers for r in records)


def _ends(record: Any) -> set[str]:
    """The subject of a fact, and its object unless the fact is words said (a sentence is
    no identifier, however it is spelt: "Merged PR #482 'runbooks/disk-full.md: add ...'")."""
    fact = record["assertion"]
    ends = {fact.get("subject")}
    if isinstance(fact.get("object"), str) and fact.get("predicate") != SAID_PREDICATE:
        ends.add(fact["object"])
    return {e for e in ends if isinstance(e, str)}


# the last part of a person identifier (``ingest.distill.identifiers.relative_id``): a role in
# lower-case words, then the name the text gives, if any: ``sister:Meera``, ``partner``
_PERSON_TAIL = re.compile(r"[a-z][a-z ]{0,30}(?::(?P<name>[^\W\d_][\w .'\u2019-]{0,60}))?")


def _identifier_name(identifier: str) -> str | None:
    """``Priya/sister:Meera`` -> ``Meera``; None for an identifier without a name, and for
    a string that is no person identifier (a path, a sentence)."""
    if "/" not in identifier:
        return None
    found = _PERSON_TAIL.fullmatch(identifier.rsplit("/", 1)[1])
    name = found["name"] if found else None
    return name.strip() or None if name else None


def persons(records: Iterable[Sequence[Any]]) -> dict[str, set[str]]:
    """The persons the facts of some groups know by a name: name -> identifiers."""
    known: dict[str, set[str]] = {}
    for group in records:
        for r in group:
            fact = r["assertion"]
            subject, obj = fact.get("subject"), fact.get("object")
            named = fact.get("predicate") == NAME_PREDICATE and "/" in str(subject)
            if named and isinstance(obj, str) and obj.strip():
                known.setdefault(obj.strip(), set()).add(str(subject))
            for end in _ends(r):
                name = _identifier_name(end)
                if name:
                    known.setdefault(name, set()).add(end)
    return known


def mentioned_person(
    text: str, records: Mapping[str, Sequence[Any]], window: Sequence[Scored]
) -> Mentioned | None:
    """The one person the query names who is known to the window's facts by a name and is
    not a speaker (a query naming a speaker is read by the speaker's rule first)."""
    known = persons(records.get(s.gid, ()) for s in window)
    speakers = {s.speaker.lower() for s in window if s.speaker}
    known = {n: ids for n, ids in known.items() if n.lower() not in speakers}
    named = names_in_query(text, set(known))
    if len(named) != 1:
        return None
    name = next(iter(named))
    return Mentioned(name, frozenset(known[name]))
