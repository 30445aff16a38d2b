"""A question whether a thing was done, and the promise to do it (docs/recall.md, step 10,
"A question whether it was done").

A support agent's notes: "Promised Priya that we will refund the duplicate $1,200 charge on
INV-7781 by Friday" (12 November), then "Issued the $1,200 refund for INV-7781 to Acme Ltd."
(20 November). "Did we refund the duplicate charge on INV-7781?" ranked the promise first:
it holds every word of the question, and the note of the deed holds fewer. A promise says what
will be done, never that it was: when the best group of a question asking whether something
was done is a promise or a plan of a deed the question names ("will refund"), a later group
among the best that tells of the same deed and is no promise comes first. Pure functions, no
model, unit-tested in ``tests/unit/test_deeds.py``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graph_schema.recall.fusion import Scored
from graph_schema.recall.query import content_terms, split_sentences, stem
from graph_schema.recall.rerank import PRESENT_DEPTH, mark_moved_up, own_text

BOOST = "done"

# "Did we refund ...?", "Has the charge been refunded yet?", "Have you sent ...?"
_ASKS_DONE = re.compile(r"^\W*(?:did|has|have|had)\b", re.IGNORECASE)
# a promise or a plan, and the verb of what it will do: "we will refund", "we'll send",
# "going to issue", "promised to call", "plan to ship"
_PROMISED = re.compile(
    r"\b(?:will|['\u2019]ll|shall|going to|gonna|promised? to|plan(?:s|ning)? to|"
    r"intends? to|aim(?:s|ing)? to)\s+(?:(?:also|still|then|soon|definitely)\s+)?"
    r"(?:be\s+)?([a-z][a-z-]+)",
    re.IGNORECASE,
)
_LIGHT = frozenset(["be", "have", "get", "do", "make", "take", "try", "look", "see", "let"])
# a sentence that says the deed is not done: "the refund hasn't shown on the account yet"
_UNDONE = re.compile(
    r"\b(?:not|never|no|yet|still|pending|awaiting|waiting)\b|n['\u2019]t\b", re.IGNORECASE
)
# a verb in the past: "Issued the refund", "refunded", "sent", "paid"
_PAST = re.compile(
    r"\b(?:[a-z]+ed|sent|paid|made|got|gave|did|done|put|took|went|came|told|left|"
    r"brought|bought|wrote|ran|won|spent|built)\b",
    re.IGNORECASE,
)


def asks_done(query: str) -> bool:
    """Whether ``query`` asks whether something was done ("Did we refund ...?")."""
    return _ASKS_DONE.search(query) is not None


def promised(text: str) -> frozenset[str]:
    """The stems of the deeds ``text`` promises or plans ("we will refund": ``refund``), less
    the light verbs that name no deed ("will get back to you")."""
    found = (m.group(1).lower() for m in _PROMISED.finditer(text))
    return frozenset(stem(v) for v in found if v not in _LIGHT)


def done_first(ranked: list[Scored], query: str) -> list[Scored]:
    """Step 10 (module docstring): when the best group promises a deed the question names,
    the first later group of the best PRESENT_DEPTH that tells of that deed and promises
    nothing comes first; it carries the boost ``done``. Scores are left as they are."""
    head = ranked[:PRESENT_DEPTH]
    if len(head) < 2 or head[0].occurred_at is None:
        return ranked
    deeds = promised(own_text(head[0])) & frozenset(content_terms(query))
    if not deeds:
        return ranked
    since = head[0].occurred_at
    for s in head[1:]:
        later = s.occurred_at is not None and s.occurred_at >= since
        if later and not promised(own_text(s)) and tells_done(own_text(s), deeds):
            order = [s, *(x for x in head if x is not s)]
            mark_moved_up(head, order, BOOST)
            return order + ranked[PRESENT_DEPTH:]
    return ranked


def tells_done(text: str, deeds: frozenset[str]) -> bool:
    """Whether a sentence of ``text`` tells of one of the ``deeds`` as done: it holds the
    deed's stem and a verb in the past, and says nothing is not done yet ("Issued the refund
    for INV-7781"; not "Harbourline's refund hasn't shown on the account yet", which ranked
    above the bank's credit in a trial of the benchmark)."""
    for sentence in split_sentences(text):
        held = deeds & frozenset(content_terms(sentence))
        if held and _PAST.search(sentence) and not _UNDONE.search(sentence):
            return True
    return False


__all__: Sequence[str] = ("BOOST", "asks_done", "done_first", "promised", "tells_done")
