"""Names that share a word with the name a question asks about (docs/recall.md, "Threshold",
*Another thing of the same name*).

A support agent's notes on two customers, Acme Ltd and Acme Labs: "When does Acme Labs'
contract renew?" was answered by Acme Ltd's renewal, since every word of the question is
mentioned somewhere and the turn about the other customer holds the rest. A turn that names
another thing sharing a word with the name asked ("Acme Ltd" for "Acme Labs", "Tom Hanks" for
"Tom Becker") and never the name asked speaks of that other thing: it cannot answer the
question, whatever its words. Pure functions, no model, unit-tested in
``tests/unit/test_rivals.py``:

* :func:`asked_names`: the names of two or more capitalised words the question gives ("Acme
  Labs", "Tom Becker"), less the words of the sentence's start that are not names ("What SSO
  problem" gives none);
* :func:`names_another`: whether a text names a rival of one of them and none of them: a name
  of two or more capitalised words, other than the one asked, sharing a word with it that is
  not a company's form ("Ltd", "Inc", "Group": "Acme Ltd" and "Globex Ltd" share nothing),
  and neither a short nor a long form of it ("Acme Labs" for "Acme Labs Inc" is the same
  thing).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from graph_schema.recall.query import STOP_WORDS

# two or more capitalised words in a row (a word: Latin letters and digits, with "&", "-",
# "." or an apostrophe inside; a CJK character ends it: "Oscar Hale的妈妈")
_LETTERS = "A-Za-z0-9\u00c0-\u024f"
_NAME = re.compile(rf"[A-Z][{_LETTERS}&\u2019'.-]*(?:[ \t]+[A-Z][{_LETTERS}&\u2019'.-]*)+")
_POSSESSIVE = re.compile(r"(?:['\u2019]s?|\.)$")
_OWNER = re.compile(r"['\u2019]s?$")  # "Marcus's DBS renewal": the name ends at its owner
# a title before a surname: "Mr. Chen" is any Chen of the notes ("Chen Guoliang")
_TITLES = frozenset(["mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "madam"])
# words that start a sentence or a question without naming anything
_OPENERS = frozenset((
    "what", "when", "where", "which", "who", "whom", "whose", "why", "how", "did", "does", "do",
    "is", "are", "was", "were", "has", "have", "had", "can", "could", "will", "would", "should",
    "may", "might", "shall", "hi", "hello", "hey", "dear", "thanks", "thank", "please", "yes",
    "no", "ok", "okay", "so", "then", "also", "i", "we", "you", "they", "he", "she", "it", "my",
    "our", "your", "their", "this", "that", "these", "those", "opened", "closed", "issued",
    "moved", "escalated", "cancelled", "told", "promised", "updated", "before", "after",
    "since", "until", "during", "unlike", "like", "about", "between", "besides"
))  # fmt: skip
# the forms of a company or a group: shared by names of different things
_FORMS = frozenset((
    "ltd", "limited", "inc", "incorporated", "llc", "llp", "plc", "gmbh", "ag", "sa", "co",
    "corp", "corporation", "company", "group", "holdings", "the", "of", "and", "team", "labs",
    "lab", "university", "college", "school", "hospital", "bank"
))  # fmt: skip


def _words(name: str) -> tuple[str, ...]:
    return tuple(_POSSESSIVE.sub("", w).lower() for w in name.split())


def _starts_sentence(text: str, at: int) -> bool:
    while at > 0 and text[at - 1] in " \t":
        at -= 1
    return at == 0 or text[at - 1] in '.!?:;\n"\u201c('


def _names(text: str, keep: frozenset[str] = frozenset()) -> list[tuple[str, ...]]:
    """The names of two or more capitalised words ``text`` gives, each as its lower-cased
    words, less the leading words that open a sentence without naming anything. A word that
    starts a sentence is capitalised whatever it is ("Yesterday Tom called"): it is part of
    the name only when it is one of the words ``keep`` ("Acme Ltd renews", for "Acme
    Labs")."""
    found = []
    for match in _NAME.finditer(text):
        written = _to_end(match.group().split())
        words = [_POSSESSIVE.sub("", w).lower() for w in written]
        if _starts_sentence(text, match.start()) and words[0] not in keep:
            words.pop(0)
        while words and (words[0] in _OPENERS or words[0] in STOP_WORDS or words[0] in _TITLES):
            words.pop(0)
        while words and written[-1].isupper():  # words end as written does
            words.pop()  # an attribute's acronym after the name: "the Brightline CPM"
            written = written[:-1]
        if len(words) >= 2:
            found.append(tuple(words))
    return found


def _to_end(written: list[str]) -> list[str]:
    """The words of a name up to its owner's possessive ("Marcus's DBS" is Marcus's) or the
    end of its sentence ("arriving Thursday. Sofia and Dev": a word ending with a full stop
    that is no title)."""
    for n, word in enumerate(written):
        ends = word.endswith(".") and word[:-1].lower() not in _TITLES
        if _OWNER.search(word) or ends:
            return written[: n + 1]
    return written


def asked_names(query: str) -> list[tuple[str, ...]]:
    """The names of two or more words the question asks about (module docstring)."""
    return _names(query, keep=frozenset(w for m in _NAME.finditer(query) for w in _words(m[0])))


def _same_thing(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """One is the other, or a short or long form of it (its words a subset)."""
    return set(a) <= set(b) or set(b) <= set(a)


def _rival(found: tuple[str, ...], asked: tuple[str, ...]) -> bool:
    """Another name sharing a word of three letters or more that is no company's form with
    the one asked ("AP Calc" and "AP Chem" share only a short prefix)."""
    shared = {w for w in set(found) & set(asked) if len(w) >= 3} - _FORMS
    return bool(shared) and not _same_thing(found, asked)


def names_another(texts: Iterable[str], asked: list[tuple[str, ...]]) -> bool:
    """Whether ``texts`` name a rival of a name asked and none of the names asked (module
    docstring): what they say is about another thing."""
    if not asked:
        return False
    joined = " ".join(texts)
    spoken = _names(joined, keep=frozenset(w for name in asked for w in name))
    if any(_same_thing(found, name) for found in spoken for name in asked):
        return False
    lowered = " ".join(_words(joined))
    if any(" ".join(name) in lowered for name in asked):
        return False
    return any(_rival(found, name) for found in spoken for name in asked)
