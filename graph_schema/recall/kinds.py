"""Kinds nothing names: a question that asks for a thing of a kind, read against the texts
that could answer it (docs/recall.md, *Kinds nothing names*). Pure.

"What instrument does Tom play?" asks for a musical instrument; a turn of Tom's that answers
it names one ("I play the cello"). When none of the texts recall read for the answer names a
thing of the kind asked for, nothing there answers the question, however close its words
are ("What is Priya's favourite colour?" against Priya's turns about a new job).

The kinds and their members come from WordNet 3.1 (``kinds.json``, written by
``scripts/wordnet_kinds.py``): a word names a kind when one of its two most frequent noun
senses lies under the kind's synset. Only kinds whose members are common nouns are checked
(colours, musical instruments, animals, food, drinks, plants, languages, relatives,
children):
the answer to "which song" or "what book" is a title, which no word list holds.

A text in Chinese is read for the kinds of :data:`CHINESE` by their Chinese words (狗 is a
dog, 妈妈 a mother); for any other kind, or a text in Japanese or Korean script, it may name
a thing in words no list here holds, so nothing is said to be missing.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from graph_schema.recall.query import has_cjk

TABLE = Path(__file__).with_name("kinds.json")
# a word is letters of any alphabet ("Tomás" is one word, never "tom", a tomcat);
# "my daughter's": "my", "daughter", "s"
WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
LONGEST = 3  # words in the longest member checked ("french horn", "chow chow")
# where a question asks for a kind: "what kind of X", "which X", "what colour", "X's favourite Y"
_KIND_OF = re.compile(r"\b(?:what|which)\s+(?:kinds?|types?|sorts?)\s+of\s+([a-z]+)")
# the noun after "what" / "which", or the one after an adjective ("which musical instrument")
_WHICH = re.compile(
    r"\b(?:what|which)\s+(?!(?:is|was|are|were|do|does|did|has|have|had|will|would|can|could"
    r"|should|might|may)\b)([a-z]+)(?:\s+([a-z]+))?"
)
_ACRONYM = re.compile(r"\b[A-Z]{2,}\b")
_FAVOURITE = re.compile(r"\bfavou?rite\s+([a-z]+)")
# "how many kids", "does she have a brother", "has he any pets"
_COUNTED = re.compile(r"\bhow\s+many\s+([a-z]+)")
_HAS = re.compile(r"\b(?:have|has|had)\s+(?:a|an|any)\s+([a-z]+)")
_POSSESSED = re.compile(
    r"\b[A-Z][\w-]*['\u2019]s?\s+(?:(?:new|old|first|second|pet|own|little|only)\s+)?([a-z]+)"
)
# the asker's own: "what's my brother's name?", "what is the name of my brother?" (a new
# user's trial of an assistant: "do I have a brother?" was read, these two were not)
_MINE = re.compile(
    r"\bmy\s+(?:(?:new|old|first|second|pet|own|little|only|older|younger|big)\s+)?([a-z]+)"
)
# a kind narrowed by the word before it to things known by their names, which no word list
# holds: "What programming language is the team moving to?" is answered by "Rust"
_NAMED_BY_TITLES = {
    "language": frozenset({"programming", "coding", "computer", "scripting", "query", "markup"})
}
# Chinese words that name a thing of a kind, found anywhere in a Chinese text (Chinese
# writes no spaces: 爸妈 names a father and a mother, 橘猫 a cat), generous on purpose: a word
# read too often only keeps a question answered. Only the kinds a mixed chat's question asks
# for by its English word ("What is my dog's name?" of a chat that speaks of 橘猫 in Chinese
# and of a kitten in English); a Chinese text may name a thing of any other kind (children
# too: a class's 小朋友, 学生 or a child's name, "晓雨6月21日可以去水族馆", for "how many kids
# went to the aquarium")
_CHINESE: dict[str, tuple[str, ...]] = {
    "dog": ("狗", "犬", "汪星人", "金毛", "哈士奇", "二哈", "柯基", "泰迪", "拉布拉多",
            "边牧", "德牧", "萨摩", "比熊", "博美", "贵宾", "雪纳瑞", "吉娃娃", "法斗",
            "巴哥", "阿拉斯加"),
    "feline": ("猫", "喵", "布偶", "英短", "美短", "暹罗", "缅因", "加菲"),
    "mother": ("妈", "母", "娘"),
    "father": ("爸", "父", "爹"),
    "sister": ("姐", "妹"),
    "brother": ("哥", "弟", "兄"),
    "wife": ("妻", "老婆", "太太", "媳妇", "夫人", "爱人", "内人"),
    "husband": ("夫", "老公", "先生", "爱人"),
    "grandmother": ("奶", "婆", "姥", "祖母"),
    "grandfather": ("爷", "外公", "姥爷", "祖父"),
}  # fmt: skip
CHINESE: Mapping[str, tuple[str, ...]] = _CHINESE
# scripts the Chinese words cannot read: Japanese kana, Korean hangul
_NOT_CHINESE = re.compile("[\u3040-\u30ff\uac00-\ud7af]")
_PLURALS = (("ies", "y"), ("ches", "ch"), ("shes", "sh"), ("sses", "ss"), ("xes", "x"), ("s", ""))


@dataclass(frozen=True)
class Kinds:
    """The table: the question words that ask for a kind, each kind's members (lower case,
    spaces between words) and irregular plurals."""

    asked: Mapping[str, str]
    members: Mapping[str, frozenset[str]]
    irregular: Mapping[str, str]

    def singular(self, word: str) -> str:
        if word in self.irregular:
            return self.irregular[word]
        for suffix, base in _PLURALS:
            if word.endswith(suffix) and len(word) > len(suffix) + 2:
                return word[: -len(suffix)] + base
        return word

    def member(self, kind: str, phrase: str) -> bool:
        """Whether ``phrase`` (lower case, one to three words) is itself a thing of ``kind``,
        its last word read in the singular too: "beagle", "golden retrievers"; not "dog
        person", which only holds one."""
        *head, last = phrase.split()
        members = self.members.get(kind, frozenset())
        return phrase in members or " ".join([*head, self.singular(last)]) in members

    def names(self, kind: str, text: str) -> bool:
        """Whether ``text`` names a thing of ``kind`` (one to three words, the last one
        read in the singular too)."""
        words = WORD.findall(_folded(text.lower()))
        for n in range(1, LONGEST + 1):
            for i in range(len(words) - n + 1):
                if n == 1 and len(words[i]) == 1:
                    continue  # "a" is no vitamin A (WordNet's food holds the letters)
                if self.member(kind, " ".join(words[i : i + n])):
                    return True
        return False

    def asked_in(self, query: str) -> list[str]:
        """The kinds ``query`` asks for, in order, each once."""
        lower = query.lower()
        words = [m.group(1) for m in _KIND_OF.finditer(lower)]
        for m in _WHICH.finditer(lower):
            if m.group(1) in _NAMED_BY_TITLES.get(m.group(2) or "", ()):
                continue  # "which programming language": Rust, Go, no common noun
            words += [w for w in m.groups() if w]
        words += [m.group(1) for m in _FAVOURITE.finditer(lower)]
        words += [m.group(1) for m in _COUNTED.finditer(lower)]
        words += [m.group(1) for m in _HAS.finditer(lower)]
        words += [m.group(1) for m in _POSSESSED.finditer(query)]
        words += [m.group(1) for m in _MINE.finditer(lower)]
        # a word in capitals is an acronym, no kind: "Which CAT tool am I using?" (a
        # translator's computer-assisted translation), unless the whole query is in capitals
        acronyms = set() if query.isupper() else {w.lower() for w in _ACRONYM.findall(query)}
        kinds = (
            self.asked.get(w) or self.asked.get(self.singular(w))
            for w in words
            if w not in acronyms
        )
        return list(dict.fromkeys(k for k in kinds if k is not None))


def _folded(text: str) -> str:
    """``text`` without its accents: WordNet's words are written without them ("café au
    lait" is its "cafe au lait")."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@cache
def table() -> Kinds:
    data = json.loads(TABLE.read_text(encoding="utf-8"))
    return Kinds(
        asked=data["asked"],
        members={kind: frozenset(words) for kind, words in data["members"].items()},
        irregular=data["irregular"],
    )


# a relative named through two others ("My sister Leila just had a baby girl": a niece): the
# kinds, one of each slot, that one text names
_THROUGH: dict[str, tuple[tuple[str, ...], ...]] = {
    "niece": (("brother", "sister"), ("daughter", "child")),
    "nephew": (("brother", "sister"), ("son", "child")),
    "aunt": (("mother", "father"), ("sister",)),
    "uncle": (("mother", "father"), ("brother",)),
    "cousin": (("aunt", "uncle"), ("son", "daughter", "child")),
    "grandmother": (("mother", "father"), ("mother",)),
    "grandfather": (("mother", "father"), ("father",)),
}


def names_through(kinds: Kinds, kind: str, text: str) -> bool:
    """Whether ``text`` names a relative of ``kind`` through two others: a sibling and a
    child for a niece or a nephew, a parent and a sibling for an aunt or an uncle..."""
    slots = _THROUGH.get(kind, ())
    return bool(slots) and all(any(_names(kinds, k, text) for k in slot) for slot in slots)


def cjk_may_name(kind: str, text: str) -> bool:
    """Whether ``text``, written in CJK script, may name a thing of ``kind``: by one of its
    Chinese words (:data:`CHINESE`) in a Chinese text; always for a kind without Chinese
    words, and for a text in Japanese or Korean script, which no list here reads."""
    words = CHINESE.get(kind)
    if words is None or _NOT_CHINESE.search(text):
        return True
    return any(w in text for w in words)


def _names(kinds: Kinds, kind: str, text: str) -> bool:
    """Whether ``text`` names a thing of ``kind``: in its English words, or, when it is
    written in CJK script, in its Chinese ones (:func:`cjk_may_name`)."""
    return kinds.names(kind, text) or (has_cjk(text) and cjk_may_name(kind, text))


def missing(query: str, texts: Iterable[str]) -> list[str]:
    """The kinds ``query`` asks for that none of ``texts`` names (each by its question word's
    kind: ``color``, ``musical_instrument``...); empty when it asks for none. A text in CJK
    script is read by the Chinese words of the kind (:func:`cjk_may_name`): "When is Hana's
    mother visiting?" against "我妈妈下个月来温哥华看我们" names her, "What is my dog's name?"
    against "我领养了一只橘猫" names no dog; of any other kind it may name one in words no
    list here holds, so that kind is never missing beside it."""
    kinds = table()
    asked = kinds.asked_in(query)
    if not asked:
        return []
    read = list(texts)
    return [
        kind
        for kind in asked
        if not any(_names(kinds, kind, t) or names_through(kinds, kind, t) for t in read)
    ]
