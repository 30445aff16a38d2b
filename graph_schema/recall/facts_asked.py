"""Step 8, a question asking for a fact the ontology holds one of: the current fact first
(docs/recall.md, *A question a current fact answers*). Pure.

"Who owns the replicas now?", "Which version of the runbook is current?", "What is the
status of the migration?" ask for a predicate of one value per thing (``owner``,
``current_version``, ``status``), and "Where does Hana work now?", "Where does Dev live?" for
one of a person (``works_at``, ``lives_in``; the person named by a capital): recall reads
only facts valid as of the question's time, and a newer fact supersedes the older, so a
current fact about the thing asked about is the answer as of then. "Is Hana still learning
Korean?" asks whether a practice goes on: a ``dropped`` fact whose object holds a word of
the question answers it. Its turn may still rank below an older, longer turn that shares more
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
from graph_schema.recall.given_names import OF_OTHERS
from graph_schema.recall.named import thing_terms, unheld_in
from graph_schema.recall.query import STOP_WORDS, names_a_day
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
# a person's fact of one value (version 2 of this step): "Where does Hana work now?", "Who
# does Hana work for?", "Where is Dev living these days?"; the person named by a capital
_NAME = r"(?P<who>[A-Z][\w'\u2019-]*(?:\s+[A-Z][\w'\u2019-]*)?)"
_NOW = r"(?:(?:currently|still|now)\s+)?"
# what someone's work is called: "job", "job title", "occupation", "profession"
_JOB = r"(?:current\s+)?(?:job(?:\s+title)?|occupation|profession)\b(?:\s+now)?\s*\??\s*$"
_PERSON_HEADS = (
    (
        re.compile(rf"^\s*(?i:where\s+(?:does|do))\s+{_NAME}\s+(?i:{_NOW}work)\b(?!\s+out)"),
        "works_at",
    ),
    (re.compile(rf"^\s*(?i:where\s+is)\s+{_NAME}\s+(?i:{_NOW}working)\b(?!\s+out)"), "works_at"),
    (
        re.compile(rf"^\s*(?i:(?:who|which\s+company)\s+does)\s+{_NAME}\s+(?i:{_NOW}work\s+for)\b"),
        "works_at",
    ),
    (re.compile(rf"^\s*(?i:where\s+(?:does|do))\s+{_NAME}\s+(?i:{_NOW}live)\b"), "lives_in"),
    (re.compile(rf"^\s*(?i:where\s+is)\s+{_NAME}\s+(?i:{_NOW}living)\b"), "lives_in"),
    (
        re.compile(
            rf"^\s*(?i:what\s+does)\s+{_NAME}\s+(?i:{_NOW}do\s+for\s+(?:a\s+living|work))\b"
        ),
        "works_as",
    ),
    (
        re.compile(rf"^\s*(?i:what(?:'s|\u2019s|\s+is))\s+{_NAME}(?:'s?|\u2019s?)\s+(?i:{_JOB})"),
        "works_as",
    ),
)
# the same asked in the first person, as a user asks an assistant ("where do I live?"): the
# speaker's own fact, never a relative's ("Nora/sister lives_in Oslo"; a new user's trial
# ranked the sister's city first, the user's fifth)
_SELF_HEADS = (
    (re.compile(rf"^\s*where\s+do\s+i\s+{_NOW}work\b(?!\s+out)", re.I), "works_at"),
    (re.compile(rf"^\s*where\s+am\s+i\s+{_NOW}working\b(?!\s+out)", re.I), "works_at"),
    (re.compile(rf"^\s*(?:who|which\s+company)\s+do\s+i\s+{_NOW}work\s+for\b", re.I), "works_at"),
    (re.compile(rf"^\s*where\s+do\s+i\s+{_NOW}live\b", re.I), "lives_in"),
    (re.compile(rf"^\s*where\s+am\s+i\s+{_NOW}living\b", re.I), "lives_in"),
    (re.compile(rf"^\s*what\s+do\s+i\s+{_NOW}do\s+for\s+(?:a\s+living|work)\b", re.I), "works_as"),
    (re.compile(rf"^\s*what(?:'s|\u2019s|\s+is)\s+my\s+{_JOB}", re.I), "works_as"),
)
_NOT_NOW = re.compile(r"\b(?:before|previous|previously|originally|first|used\s+to)\b", re.I)


# "Is Hana still learning Korean?", "Does Priya still take the pottery class?": a practice
# given up since answers it ("I've given up Korean for now"), however much closer the turn
# that took it up is in words
_STILL_ASKED = re.compile(r"^\s*(?:is|are|does|do|has|have)\b[^?]*\bstill\b", re.I)
_WORD = re.compile(r"[^\W\d_][\w'\u2019-]*")


@dataclass(frozen=True)
class Asked:
    """The predicate a question asks for and the words of the thing it asks it of; for a
    practice given up (``dropped``), the words of the question one of which the thing given
    up holds (``of_object``)."""

    predicate: str
    thing: tuple[str, ...]
    of_object: bool = False
    of_self: bool = False  # the first person: the speaker's own fact, no relative's


def asked(query: str) -> Asked | None:
    """What ``query`` asks for, when it asks for a current fact of one value per thing."""
    if _NOT_NOW.search(query) or names_a_day(query):
        return None
    for head, predicate in _HEADS:
        if head.search(query):
            terms = thing_terms(query)
            return Asked(predicate, tuple(terms)) if terms else None
    for shape, own_predicate in _SELF_HEADS:
        if shape.search(query):
            return Asked(own_predicate, (), of_self=True)
    for shape, person_predicate in _PERSON_HEADS:
        found = shape.search(query)
        if found is not None:
            return Asked(person_predicate, tuple(found["who"].split()))
    if _STILL_ASKED.search(query):
        words = [w for w in _WORD.findall(query)[1:] if w.lower() != "still"]
        practice = tuple(w for w in words if w.lower() not in STOP_WORDS and len(w) > 2)
        return Asked("dropped", practice, of_object=True) if practice else None
    return None


def holds(records: Sequence[Mapping[str, Any]], question: Asked) -> bool:
    """Whether one of a group's ``records`` is a fact of the predicate asked for whose
    subject holds every word of the thing (polarity true)."""
    for record in records:
        a = record["assertion"]
        if a["predicate"] != question.predicate or a.get("polarity") is False:
            continue
        if question.of_self:
            if "/" not in str(a["subject"]):
                return True  # "Nora/sister" is a relative of the speaker, not the speaker
            continue
        if question.of_object:
            unheld = unheld_in(list(question.thing), [str(a["object"])])
            if len(unheld) < len(question.thing):
                return True  # one word of the question names the thing given up
        elif not unheld_in(list(question.thing), [str(a["subject"])]):
            return True
    return False


def answers(
    first: Sequence[Scored],
    records: Mapping[str, Sequence[Mapping[str, Any]]],
    question: Asked | None,
) -> bool:
    """Whether the first group holds the fact ``question`` asks for of a person or a thing
    (:func:`holds`): a fact of the predicate asked for, about whom it is asked, valid as of
    the question's time, is the answer, whatever words it shares with the question ("what's
    my job title?" and ``works_as data analyst``). A practice given up (``of_object``) is
    read by one word of the question only, so it never decides the status alone."""
    if question is None or question.of_object or not first:
        return False
    return holds(records.get(first[0].gid, []), question)


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


# how deep the person's own facts are read for: the groups step 6 reads
OWN_DEPTH = 5
_TOLD = frozenset({"said", "has_relative", "has_friend", "has_pet"})


def _predicates(records: Sequence[Mapping[str, Any]], person: str) -> tuple[set[str], set[str]]:
    """The predicates of a group's facts about ``person`` and about their relatives
    (``person/daughter``), the sentence and the relation itself left out."""
    own: set[str] = set()
    others: set[str] = set()
    who = person.casefold()
    for record in records:
        a = record["assertion"]
        subject = str(a["subject"]).casefold()
        if a["predicate"] in _TOLD or a.get("polarity") is False:
            continue
        if subject == who:
            own.add(a["predicate"])
        elif subject.startswith(who + "/"):
            others.add(a["predicate"])
    return own, others


def own_first(
    ranked: list[Scored],
    records: Mapping[str, Sequence[Mapping[str, Any]]],
    person: str | None,
    query: str,
) -> list[Scored]:
    """A question about one person that speaks of no relative ("What is Nina allergic
    to?"): among the first :data:`OWN_DEPTH` groups, one holding only a relative's fact
    (``Nina/daughter allergic_to peanuts``) goes after the first below it holding the
    person's own fact of the same predicate (``Nina allergic_to penicillin``), which
    carries :data:`BOOST`. Scores are left as they are."""
    if person is None or OF_OTHERS.search(query):
        return ranked
    top = ranked[:OWN_DEPTH]
    read = {s.gid: _predicates(records.get(s.gid, []), person) for s in top}
    order = list(top)
    for s in top:
        own, others = read[s.gid]
        if not others or own & others:
            continue
        at = order.index(s)
        later = [t for t in order[at + 1 :] if read[t.gid][0] & others]
        if later:
            order.remove(later[0])
            order.insert(at, later[0])
    mark_moved_up(top, order, BOOST)
    return order + ranked[OWN_DEPTH:]
