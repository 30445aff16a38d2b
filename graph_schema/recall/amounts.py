"""Amounts nothing states: a question asking what something cost, read against the texts
that could answer it (docs/recall.md, *Kinds nothing names*, the amount). Pure.

"How much did the Canon R6 cost?" asks for a sum; a text that answers it states one ("1,400
dollars", "$30", "two grand", "it was free"). When the texts recall read for the answer that
speak of the thing asked about state no amount at all, nothing there answers it, however
close their words are ("I bought a Canon R6 last week"). The answer lists the kind
``amount`` in ``missing_kinds``, as it lists a kind of thing nothing names.

An amount is a currency sign or word ("$30", "300 euros"), "free", or a number or a word of
scale in a text that speaks of money ("I paid 300 for it", "they quoted two grand"): an
agent's notes are full of numbers that are no price ("p99 latency 38 ms", "lag 0.3
seconds"). Lenient otherwise: any such number counts, a year too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from graph_schema.recall.named import (
    named_terms,
    sentences_about,
    terms_of_thing,
    thing_terms,
    unheld_in,
)
from graph_schema.recall.query import not_compared, split_sentences

KIND = "amount"
# "How much did X cost / charge / quote", "How much do they pay", "How much is the rent",
# "What did X cost", "What is the price of X", "What salary was X offered"
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
# "How much does Tomás make per hour?", "How much did the bake sale make?": "make" with no
# noun after "much" ("How much pasta did you make?" asks for no sum)
_HOW_MUCH_MAKE = re.compile(
    r"^\s*how\s+much\s+(?:does|did|do|will|would|could|can)\s+(?:[^\W\d_][\w'\u2019-]*\s+){1,3}"
    r"(?:make|makes|made)\b",
    re.I,
)
_MONEY_NOUNS = r"price|cost|fee|fees|rent|salary|budget|income|wage|wages"
_WHAT_COST = re.compile(
    r"^\s*what\s+(?:did|does|do|will|would)\s+[^?]+?\s+cost(?=[\s?]|$)"
    r"|^\s*what\s+(?:is|was|were|are)\s+(?:the\s+|(?:my|your|his|her|their|our)\s+|"
    rf"[^\W\d_][\w-]*(?:'s|\u2019s)\s+)?(?:{_MONEY_NOUNS}|bill)\b"
    # the money noun asked for by "what" itself: "What salary was Lena offered?", "What
    # discount did we give them?"
    rf"|^\s*what\s+(?:{_MONEY_NOUNS}|discount|refund)\b",
    re.I,
)
# the thing a sum was paid for or earned at, in the shapes :func:`thing_terms` does not read
# ("How much did Sam pay for the house in Bedminster?", "How much does Lena earn at
# Zalando?", "What is Sam's salary at Verdant?"): a new user's trial, where a sum the person
# stated of something else (a salary, a rent) answered them; "in the end" is no word of it
_PAID_FOR = re.compile(
    r"^\s*(?:how\s+much\b[^?]*?\b(?:(?:pay|pays|paid)\s+for|(?:spend|spends|spent)\s+on"
    r"|(?:earn|earns|earned|make|makes|made|paid)\s+at)"
    r"|what\b[^?]*?\b(?:salary|income|wage|wages)\s+at)"
    r"\s+(?P<thing>[^?]+?)(?:\s+(?:in\s+the\s+end|in\s+total|all\s+in)\b[^?]*)?\s*\?*\s*$",
    re.I,
)
# an amount stated: a currency sign or word, or "for free" / "it was free"; or a number
# standing alone ("1,400", "30%", "2.5k": not one inside a name, "R6", "p99-3", nor a day,
# "the 28th", whose "2" a new user's trial read as a sum), a word of
# scale or "free", in a text that speaks of money ("paid 300 for it", "the bill was cut by
# 30%") or that answers a question of money ("What's the salary like?" - "85k"); "are you
# free this weekend?" states none (a new user's trial)
_CURRENCY = re.compile(
    r"[$\u20ac\u00a3\u00a5\u20b9\u5143\u5757]"  # $ € £ ¥ ₹ 元 块
    r"|\b(?:dollars?|bucks?|cents?|euros?|pounds?|quid|yen|yuan|renminbi|rupees?|francs?|"
    r"pesos?|usd|eur|gbp|rmb|cny|jpy|inr|aud|cad|nzd|hkd|sgd|chf|sek|nok|dkk|krw|mxn|brl|"
    r"zar)\b"
    r"|\b(?:for|was|were|is|are|it's|it\u2019s|that's|that\u2019s)\s+free\b|\bfree\s+of\s+charge\b",
    re.I,
)
_NUMBER = re.compile(
    r"(?<![\w.,-])\d[\d,.]*(?:k|m|bn|%)?(?!\w)"
    r"|\b(?:grand|hundreds?|thousands?|millions?|billions?|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety|free)\b",
    re.I,
)
_MONEY = re.compile(
    r"\b(?:cost|costs|costing|price|prices|priced|pay|pays|paid|paying|payment|spend|spends|"
    r"spent|spending|charge|charges|charged|quote|quotes|quoted|bill|bills|billed|budget|"
    r"fee|fees|rent|salary|earn|earns|earned|owe|owes|owed|sold|bought|invoice|invoiced|"
    r"discount|refund|refunded|cheap|expensive)\b|[\u82b1\u94b1\u4ef7\u8d39]",  # 花 钱 价 费
    re.I,
)


# a sum asked for by its name ("How much deposit did Keystone want?", "How much equity was
# Diego offered?") or by its rate ("How much are we paying Jasmine per hour?"): the words that
# give it that name in a text. Only names a text rarely leaves out: a salary or a discount
# is often stated without its word ("accepted the offer at $98k", "12% if we sign by Friday")
_NAMED_SUMS: dict[str, str] = {
    "deposit": r"deposits?|down\s+payment|put\s+down|holding\s+fee",
    "refund": r"refund(?:s|ed)?|reimburs\w*|back",
    "equity": r"equity|options?|shares?|stock",
    "budget": r"budgets?",
    "bonus": r"bonus(?:es)?",
    "tip": r"tips?|tipped",
    "premium": r"premiums?",
    "retainer": r"retainers?",
    "commission": r"commissions?",
    "stipend": r"stipends?",
    "allowance": r"allowances?",
    "scholarship": r"scholarships?|award",
    "tuition": r"tuition",
    "excess": r"excess|deductible",
    "deductible": r"deductible|excess",
}
_RATES: dict[str, str] = {
    "hour": r"hours?|hr|hrs|hourly|/h",
    "word": r"words?",
    "night": r"nights?|nightly",
    "month": r"months?|mo|monthly|pcm",
    "week": r"weeks?|weekly|wk",
    "day": r"days?|daily",
    "year": r"years?|yr|annual|annually|yearly|p\.?a\.?",
}
_RATE_ADJECTIVES = {"hourly": "hour", "nightly": "night", "monthly": "month", "weekly": "week"}
_HOW_MUCH_OF = re.compile(r"^\s*how\s+much\b", re.I)
_ASKS_NAMED = re.compile(rf"\b({'|'.join(_NAMED_SUMS)})\b", re.I)
# "per hour", "a night", "hourly"; not a time ago or ahead ("How much was the rent a year ago?")
_ASKS_RATE = re.compile(
    rf"\b(?:per|an?|each|every)\s+({'|'.join(_RATES)})\b(?!\s+(?:ago|later|earlier|before|after|"
    rf"from|back|on)\b)|\b({'|'.join(_RATE_ADJECTIVES)})\b",
    re.I,
)


def asked(query: str) -> bool:
    """Whether ``query`` asks for a sum of money."""
    return any(p.search(query) for p in (_HOW_MUCH, _HOW_MUCH_IS, _HOW_MUCH_MAKE, _WHAT_COST))


def states(text: str, question: str | None = None) -> bool:
    """Whether ``text`` states an amount: a currency sign or word, or a number in a text of
    money, or in the reply to a ``question`` of money (module docstring)."""
    if _CURRENCY.search(text) is not None:
        return True
    money = _MONEY.search(text) or (question and _MONEY.search(question))
    return _NUMBER.search(text) is not None and bool(money)


def named_sum(query: str) -> str | None:
    """The forms of the words that name the sum ``query`` asks for by its rate or its name
    (module docstring), as a pattern; ``None`` when it asks for none so named."""
    if not (asked(query) or _HOW_MUCH_OF.match(query)):
        return None
    rate = _ASKS_RATE.search(query)
    if rate is not None:
        unit = rate.group(1) or _RATE_ADJECTIVES[rate.group(2).lower()]
        return _RATES[unit.lower()]
    name = _ASKS_NAMED.search(query)
    return _NAMED_SUMS[name.group(1).lower()] if name is not None else None


def states_named(forms: str, text: str) -> bool:
    """Whether a sentence of ``text`` states an amount (:func:`states`) with a word of
    ``forms`` (a name or a rate of :func:`named_sum`): "Keystone wants a $1,200 deposit"."""
    word = re.compile(rf"(?<![\w])(?:{forms})(?![\w])", re.I)
    return any(word.search(x) and states(x) for x in split_sentences(text))


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
    the bike?" - "Only 300 euros"), are read; so when it names what was paid for or
    earned at (:func:`paid_for`: "How much did Sam pay for the house in Bedminster?"), but
    every group when none holds those; otherwise every group. Each text of a group is read
    as the reply to the question it answers (:func:`states`). Recall passes the
    groups that can answer: for a question about one person, theirs ("How much does Nadia
    earn?" is not answered by Omar's "Twenty-five euros").

    A reply to a question that names the thing by a pronoun only ("I got a bike." - "How
    much was it?" - "300 euros") is not read: the turn before "How much was that?" may as
    well name another thing ("Nice! And the studio, what would that cost?"), and telling
    the two apart needs the parse (docs/recall.md).

    A sum asked for by its name or its rate ("How much deposit did Keystone want?", "How
    much are we paying Jasmine per hour?") is missing too when no sentence read states an
    amount with that name or rate (:func:`named_sum`, :func:`states_named`)."""
    read = list(groups)
    forms = named_sum(query)
    if forms is not None and _named_missing(query, forms, read):
        return True
    if not asked(query):
        return False
    terms = thing_terms(query)
    if terms:
        return not any(_states_of(g, terms) for g in read if _holds(g, terms))
    paid = paid_for(query)
    held = [g for g in read if paid and _holds(g, paid)]
    if held:  # else the thing goes by another name ("a used Subaru" paid for as "his car")
        return not any(_states_of(g, paid) for g in held)
    return not any(_states(g, [*g.texts, g.question or ""]) for g in read)


def paid_for(query: str) -> list[str]:
    """The words of the thing ``query`` asks what was paid for or earned at
    (:data:`_PAID_FOR`): "the house in Bedminster" of "How much did Sam pay for the house in
    Bedminster?"."""
    found = _PAID_FOR.match(query)
    return terms_of_thing(found["thing"]) if found is not None else []


def _states(group: Read, texts: list[str]) -> bool:
    """Whether one of ``texts`` of ``group`` states an amount, each read as the reply to the
    question the group answers ("What's the salary like at Verdant?" - "Lower than Monzo,
    85k"): a group reads the same whether the passage joining the two was found or not."""
    return any(states(t, group.question) for t in texts)


def _named_missing(query: str, forms: str, groups: list[Read]) -> bool:
    """Whether no group states the sum asked for by its name or rate (:func:`named_sum`):
    only the groups that hold every name the question gives are read, when any does ("How
    much deposit did Marcus Webb put down?" is not answered by another buyer's deposit);
    not the name a question compares with ("How much less per month is Northpeak costing us
    than Brightwake did?": each sum is stated on its own)."""
    terms = named_terms(not_compared(query))
    held = [g for g in groups if not terms or _holds(g, terms)] or groups
    return not any(states_named(forms, x) for g in held for x in [*g.texts, g.question or ""])


def _holds(group: Read, terms: list[str]) -> bool:
    return not unheld_in(terms, [*group.texts, group.question or ""])


def _states_of(group: Read, terms: list[str]) -> bool:
    """Whether ``group`` states an amount of the thing ``terms`` name: in a reply to a
    question that names it, anywhere ("How much was the bike?" - "Only 300 euros"); else in
    the sentences that name it and the one after each (``sentences_about``: "Tasha is $30 a
    walk. Pepper passed her Good Citizen test!" states no price of the test)."""
    if group.question and not unheld_in(terms, [group.question]):
        return _states(group, [*group.texts, group.question])
    return _states(group, sentences_about(terms, list(group.texts)))
