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

from graph_schema.recall.kinds import CHINESE, WORD, table
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
_ANY_WHOM = re.compile(rf"(?:{_WHOM})(?:s|ren)?", re.I)
# "call(ed) / name(d) (him / her...) / name is" before a name: it names the whom spoken of
# last before it ("allergic to dogs, so I adopted a cat instead, her name is Mochi": the cat)
_CALLED = re.compile(
    rf"(?i:\b(?:call(?:ed|s)?|named?|name\s+is|names\s+are)(?:\s+(?:him|her|it|them))?)\s+{_NAME}"
)
# "Biscuit is a beagle, he is small", "Emma is my older sister": a name, the subject of "is
# a <whom or a kind of whom>"; the whom's noun phrase ends at a word of these or a stop
_IS_A = re.compile(
    rf"\b(?P<name>{_NAME})\s+(?:is|was)\s+(?:a|an|my|our|his|her|their)\s+"
    r"(?P<phrase>[^\W\d_]+(?:[\s-]+[^\W\d_]+){0,4})"
)
_NOT_NAMES = frozenset(
    ("It", "This", "That", "He", "She", "They", "There", "Here", "What", "Which", "Who",
     "Mine", "Ours", "Yours", "Hers", "His", "Theirs", "One", "Today", "Tomorrow")
)  # fmt: skip
_PHRASE_ENDS = frozenset(
    ("and", "but", "or", "so", "who", "that", "which", "with", "from", "in", "on", "at",
     "of", "for", "to", "he", "she", "it", "they", "we", "i", "like", "named", "called",
     "is", "was", "too", "now", "since")
)  # fmt: skip


# a Chinese text gives a name of a whom it speaks of by a word of naming ("它叫汤圆", "名字是",
# "取名", "称呼"), or by a name right after the whom, a common Chinese family name or a word
# in Latin capitals ("我妈妈王芳", "我的狗Lucky"), or before "是我…" ("王芳是我妈妈")
_ZH_NAMING = re.compile("[叫名称号]")
_ZH_FAMILY = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程"
    "苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛"
    "郝龚邵万钱严覃武戴莫孔向汤欧"
)
_NOT_CHINESE = re.compile("[\u3040-\u30ff\uac00-\ud7af]")  # kana, hangul


def asked(query: str) -> str | None:
    """The relative, friend or pet ``query`` asks the name of ("daughter"), if it does."""
    for pattern in _ASKS:
        found = pattern.search(query)
        if found is not None:
            return found["whom"].lower()
    return None


def _whom_words(whom: str) -> str:
    """The words that speak of ``whom``: itself, or any animal for a pet."""
    return rf"(?:{_ANIMALS}|pet)s?" if whom == "pet" else rf"{re.escape(whom)}s?"


def _is_whom(whom: str, words: list[str]) -> bool:
    """Whether the last of ``words`` (lower case) speaks of ``whom``: the whom itself, or a
    thing of its kind ending there ("beagle" and "golden retriever" of a dog, "cat" of a
    pet), by the kinds' table (:mod:`graph_schema.recall.kinds`)."""
    if re.fullmatch(_whom_words(whom), words[-1]) is not None:
        return True
    kinds = table()
    kind = "animal" if whom == "pet" else kinds.asked.get(whom)
    tail = range(max(0, len(words) - 3), len(words))
    return kind is not None and any(kinds.member(kind, " ".join(words[i:])) for i in tail)


def _last_spoken_of(whom: str, before: str) -> bool:
    """Whether the whom spoken of last in ``before`` is ``whom``, or none is: "so I adopted a
    cat instead, her name is Mochi" names no dog."""
    words = WORD.findall(before.lower())
    for i in range(len(words) - 1, -1, -1):
        if _is_whom(whom, words[max(0, i - 2) : i + 1]):
            return True
        if _ANY_WHOM.fullmatch(words[i]) is not None:
            return False
    return True


def _is_a(whom: str, found: re.Match[str]) -> bool:
    """Whether an "X is a ..." of :data:`_IS_A` calls a name (not "It", "That") a ``whom``
    or a thing of its kind, the last word of its noun phrase ("a small beagle"; not "a
    dog person")."""
    words = found["phrase"].lower().replace("-", " ").split()
    end = next((i for i, w in enumerate(words) if w in _PHRASE_ENDS), len(words))
    return found["name"] not in _NOT_NAMES and 0 < end <= 4 and _is_whom(whom, words[:end])


def _gives(whom: str, text: str) -> bool:
    """Whether ``text`` names one ``whom``: "my daughter Lily", "cats, Luna and Oliver",
    "the kitten Mochi" of a cat, "Emma, my sister", "is called Rex", "I named her Mango"
    (the whom spoken of last before it), "Biscuit is a beagle", ``…/sister:Emma``."""
    w = _whom_words(whom)
    patterns = (
        rf"(?i:\b{w})\b,?\s+(?:(?i:is|was)\s+)?(?:(?i:called|named)\s+)?{_NAME}",
        rf"\b{_NAME},?\s+(?i:my|our|his|her|their)\s+{_ADJ}(?i:{w})\b",
        rf"/(?i:{w}):\S",
    )
    if any(re.search(p, text) is not None for p in patterns) or _kind_before_name(whom, text):
        return True
    if any(_last_spoken_of(whom, text[: m.start()]) for m in _CALLED.finditer(text)):
        return True
    return any(_is_a(whom, m) for m in _IS_A.finditer(text))


# the words right before a name, with "is", "called", "named" between: "the kitten Mochi",
# "my mom, Linda", "a greyhound called Pixel"
_BEFORE_NAME = re.compile(
    r"((?:[^\W\d_][\w-]*\s+){0,2}[^\W\d_][\w-]*),?\s+(?:(?i:is|was)\s+)?"
    r"(?:(?i:called|named)\s+)?$"
)


def _kind_before_name(whom: str, text: str) -> bool:
    """Whether a name in ``text`` follows a thing of the whom's kind, not only the whom's
    own word: "We named the kitten Mochi" names a cat, "my mom Linda" a mother
    (:func:`_is_whom`)."""
    for found in re.finditer(rf"\b{_NAME}", text):
        lead = _BEFORE_NAME.search(text[max(0, found.start() - 80) : found.start()])
        if lead is not None and _is_whom(whom, lead.group(1).lower().split()):
            return True
    return False


def _chinese_words(whom: str) -> tuple[str, ...] | None:
    """The Chinese words that speak of ``whom`` (its kind's, :data:`kinds.CHINESE`), or
    None when none are known (a friend, a boss, any animal of a pet)."""
    return CHINESE.get(table().asked.get(whom, ""))


def _unread(whom: str, text: str) -> bool:
    """Whether ``text`` is in a script these patterns cannot read for ``whom``: Japanese or
    Korean, or Chinese when the whom has no Chinese words."""
    return has_cjk(text) and (_NOT_CHINESE.search(text) is not None or not _chinese_words(whom))


def _gives_in_chinese(whom: str, text: str) -> bool:
    """Whether a Chinese ``text`` names one ``whom``: it speaks of the whom in Chinese (我妈妈)
    and names someone there (:data:`_ZH_NAMING`, a family name after the whom, a name before
    "是我…"). Generous: a text that speaks of the whom and of a name may name another."""
    found = [w for w in _chinese_words(whom) or () if w in text]
    if not found or not has_cjk(text):
        return False
    if _ZH_NAMING.search(text) is not None:
        return True
    spoken = "|".join(re.escape(w) for w in found)
    after = rf"(?:{spoken})+(?:是)?(?:[{_ZH_FAMILY}]|\s*[A-Z])"
    name = r"(?:[\u4e00-\u9fff]{2,3}|[A-Z][\w-]*)"
    before = rf"{name}\s*是(?:我|你|他|她)们?的?\w{{0,2}}(?:{spoken})"
    return re.search(after, text) is not None or re.search(before, text) is not None


def missing(query: str, texts: Iterable[str]) -> list[str]:
    """``[KIND]`` when ``query`` asks for a name that none of ``texts`` gives; empty when it
    asks for none, or a text is written in a script these patterns cannot read. A Chinese
    text is read for a whom with Chinese words (a relative, a dog, a cat:
    :func:`_gives_in_chinese`): "我打算带妈妈去京都玩五天" speaks of the mother and names no
    one, so "What is my mother's name?" is not answered by it."""
    whom = asked(query)
    if whom is None:
        return []
    read = list(texts)
    if any(_unread(whom, t) for t in read):
        return []
    gives = (_gives(whom, t) or _gives_in_chinese(whom, t) for t in read)
    return [] if any(gives) else [KIND]
