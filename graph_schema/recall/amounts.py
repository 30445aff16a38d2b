"""Amounts nothing states: a question asking what something cost, read against the texts
that could answer it (docs/recall.md, *Kinds nothing names*, the amount). Pure.

"How much did the Canon R6 cost?" asks for a sum; a text that answers it states one ("1,400
dollars", "$30", "two grand", "it was free"). When the texts recall read for the answer that
speak of the thing asked about state no amount at all, nothing there answers it, however
close their words are ("I bought a Canon R6 last week"). The answer lists the kind
``amount`` in ``missing_kinds``, as it lists a kind of thing nothing names.

Lenient on purpose: any number standing alone counts as an amount ("19 weddings"), and so do
a currency sign or word, a scale word ("thousand", "grand") and "free"; the rule refuses only
where no such word is there to read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from graph_schema.recall.named import Vocabulary, thing_terms

KIND = "amount"
# "How much did X cost / charge / quote", "How much do they pay", "How much is the rent",
# "What did X cost", "What is the price of X"
_HOW_MUCH = re.compile(
    r"^\s*how\s+much\b[^?]*?\b(?:cost|costs|costed|charge|charges|charged|pay|pays|paid|"
    r"spend|spends|spent|quote|quotes|quoted|bill|billed|earn|earns|earned|owe|owes|owed|"
    r"sell|sells|sold|buy|bought|rent|rents|rented)\b",
    re.I,
)
_HOW_MUCH_IS = re.compile(
    r"^\s*how\s+much\s+(?:is|was|are|were)\s+(?:the|a|an|my|your|his|her|their|our|"
    r"[^\W\d_][\w-]*(?:'s|\u2019s))\s",
    re.I,
)
_WHAT_COST = re.compile(
    r"^\s*what\s+(?:did|does|do|will|would)\s+[^?]+?\s+cost(?=[\s?]|$)"
    r"|^\s*what\s+(?:is|was|were|are)\s+(?:the\s+)?(?:price|cost|fee|fees|rent|salary|"
    r"budget|bill)\b",
    re.I,
)
# an amount stated: a number standing alone ("1,400", "30%", "2.5k"), a currency sign, or
# a word of money or of scale
_AMOUNT = re.compile(
    r"(?<![\w.,-])\d[\d,.]*(?:k|m|bn|%)?(?![^\W\d_])|[$\u20ac\u00a3\u00a5\u20b9]"
    r"|\b(?:dollars?|bucks?|cents?|euros?|pounds?|quid|yen|yuan|rupees?|francs?|pesos?|"
    r"grand|hundreds?|thousands?|millions?|billions?|free|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety)\b"
    r"|[\u5143\u5757\u4e07\u5343\u767e]",  # 元 块 万 千 百
    re.I,
)


def asked(query: str) -> bool:
    """Whether ``query`` asks for a sum of money."""
    return any(p.search(query) for p in (_HOW_MUCH, _HOW_MUCH_IS, _WHAT_COST))


def states(text: str) -> bool:
    """Whether ``text`` states an amount (module docstring: any number standing alone)."""
    return _AMOUNT.search(text) is not None


@dataclass(frozen=True)
class Read:
    """One group read for the answer: its texts and the question it answers (the turn
    before it, when that asks something)."""

    texts: Sequence[str]
    question: str | None = None


def missing(query: str, groups: Iterable[Read]) -> bool:
    """Whether ``query`` asks for an amount that none of ``groups`` states. When it names
    the thing asked about by its words ("How much did the Canon R6 cost?"), only the groups
    that hold all of them, in their texts or in the question they answer ("How much was
    the bike?" - "Only 300 euros"), are read; otherwise every group. Whoever said it: an
    amount someone else states may be the answer.

    A reply to a question that names the thing by a pronoun only ("I got a bike." - "How
    much was it?" - "300 euros") is not read: the turn before "How much was that?" may as
    well name another thing ("Nice! And the studio, what would that cost?"), and telling
    the two apart needs the parse (docs/recall.md)."""
    if not asked(query):
        return False
    read = list(groups)
    terms = thing_terms(query)
    if terms:
        read = [g for g in read if _holds(g, terms)]
    return not any(states(t) for g in read for t in [*g.texts, g.question or ""])


def _holds(group: Read, terms: list[str]) -> bool:
    words = Vocabulary.of([*group.texts, group.question or ""])
    return all(words.holds(t) for t in terms)
