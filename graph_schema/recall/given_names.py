"""A name asked for that nothing gives: "What is the name of Maya's daughter?", read against
the texts that could answer it (docs/recall.md, *Kinds nothing names*, names). Pure.

A question asking for the name of a relative, a friend or a pet is answered by a text that
gives one ("my daughter Lily", "Emma, my sister", "our dog is called Rex", the relative's
identifier ``maya/sister:Emma``). When the texts recall read for the answer speak of the
daughter but never name her ("My daughter is allergic to peanuts"), nothing there answers
the question, however close its words: the answer lists ``name`` in ``missing_kinds``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from graph_schema.recall.query import has_cjk

KIND = "name"
_OWNER = r"(?:[A-Z][\w-]*['\u2019]s?|my|his|her|their|our|your)"
_ANIMALS = (
    "dog|cat|puppy|kitten|hamster|rabbit|bunny|horse|pony|bird|parrot|fish|turtle|tortoise|"
    "snake|lizard|guinea\\s+pig"
)
# whom a name is asked of: relatives, friends and the people of one's work, pets
_WHOM = (
    "daughter|son|kid|child|baby|wife|husband|partner|boyfriend|girlfriend|fianc[eé]e?|"
    "mom|mum|mother|dad|father|brother|sister|sibling|grandma|grandmother|grandpa|"
    "grandfather|granddaughter|grandson|aunt|uncle|cousin|niece|nephew|friend|boss|manager|"
    f"colleague|coworker|roommate|flatmate|neighbou?r|pet|{_ANIMALS}"
)
_ADJ = r"(?:(?:new|old|pet|little|older|younger|big|first|second|eldest|youngest)\s+)?"
# "What is the name of Maya's daughter?", "What are the names of my cats?", "What's Maya's
# daughter's name?", "What is Maya's dog called?", "What did Maya name her puppy?"
_ASKS = (
    re.compile(rf"\bnames?\s+of\s+{_OWNER}\s+{_ADJ}(?P<whom>{_WHOM})s?\b"),
    re.compile(rf"\b{_OWNER}\s+{_ADJ}(?P<whom>{_WHOM})s?['\u2019]s?\s+names?\b"),
    re.compile(
        rf"\b(?i:what\s+(?:is|was|are|were))\s+{_OWNER}\s+{_ADJ}(?P<whom>{_WHOM})s?\s+called\b"
    ),
    re.compile(
        rf"\b(?i:what\s+did)\s+\w+\s+(?:name|call)\s+{_OWNER}\s+{_ADJ}(?P<whom>{_WHOM})s?\b"
    ),
)
# a question that speaks of one of them ("What is Nina's daughter allergic to?")
OF_OTHERS = re.compile(rf"(?i:\b(?:{_WHOM})(?:s|ren)?\b)")
_NAME = r"(?!I['\u2019])[A-Z][\w'\u2019-]+"


def asked(query: str) -> str | None:
    """The relative, friend or pet ``query`` asks the name of ("daughter"), if it does."""
    for pattern in _ASKS:
        found = pattern.search(query)
        if found is not None:
            return found["whom"].lower()
    return None


def _gives(whom: str, text: str) -> bool:
    """Whether ``text`` names one ``whom``: "my daughter Lily", "cats, Luna and Oliver",
    "Emma, my sister", "is called Rex", "I named her Mango", ``…/sister:Emma``."""
    w = rf"(?:{_ANIMALS}|pet)s?" if whom == "pet" else rf"{re.escape(whom)}s?"
    patterns = (
        rf"(?i:\b{w})\b,?\s+(?:(?i:is|was)\s+)?(?:(?i:called|named)\s+)?{_NAME}",
        rf"\b{_NAME},?\s+(?i:my|our|his|her|their)\s+{_ADJ}(?i:{w})\b",
        rf"(?i:\b(?:call(?:ed|s)?|named?|name\s+is|names\s+are)(?:\s+(?:him|her|it|them))?)\s+{_NAME}",
        rf"/(?i:{w}):\S",
    )
    return any(re.search(p, text) is not None for p in patterns)


def missing(query: str, texts: Iterable[str]) -> list[str]:
    """``[KIND]`` when ``query`` asks for a name that none of ``texts`` gives; empty when it
    asks for none, or a text is written in a script these patterns cannot read."""
    whom = asked(query)
    if whom is None:
        return []
    read = list(texts)
    if any(has_cjk(t) for t in read):
        return []
    return [] if any(_gives(whom, t) for t in read) else [KIND]
