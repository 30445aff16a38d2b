"""A practice the speaker names as what a sentence is about (distiller version 20).

"Painting's great for expressing myself", "Gaming has been my focus", "Writing has become a
way to express my feelings", "Playing video games or watching movies helps me unwind": the
sentence opens with an activity as its subject and says, in the present, what it is or does
to the speaker (a ``me``, ``my`` or ``myself`` after the verb, or "for me" before it). The
speaker does it: an ``activity``. The small parser reads many of these openings wrongly
("Painting" the root of the sentence, "'s" a possessive), so the rule reads the sentence's
words in order and the parse only for the words' classes.

Not an activity: a past ("Dancing was my escape"), a negation ("Writing isn't easy for me"),
a judgement of difficulty ("Running is hard for me"), a passion ("Dance is my passion" is a
liking, :mod:`ingest.distill.english_nouns`), a joy ("Dancing brings me joy" is a
liking, :mod:`ingest.distill.english_extract`), a question, or an activity of someone else's
("Swimming is what my kids love": the speaker's words must not name a person after the verb).
"""

from __future__ import annotations

from spacy.tokens import Span, Token

from ingest.distill import lexicon as lx
from ingest.distill.facts import Fact

CONFIDENCE = 0.8
# words that may open the sentence before its subject ("Yeah, painting is ...")
_LEAD = frozenset(
    {"yeah", "yes", "yep", "well", "oh", "and", "so", "honestly", "plus", "also", "but", "now"}
)
# the verbs that say what the practice is or does to the speaker
_VERBS = frozenset({"be", "become", "help", "keep", "let"})
_PRESENT = frozenset({"VBZ", "VBP"})
# what, right after the verb, says it is no practice of the speaker's
_REFUSED = frozenset(
    {"not", "n't", "never", "hard", "tough", "difficult", "boring", "scary", "overrated"}
)
_ME = frozenset({"me", "my", "myself"})
_PEOPLE_AFTER_MY = frozenset(
    {
        "kids", "kid", "children", "child", "son", "daughter", "husband", "wife", "partner",
        "family", "friend", "friends", "mom", "dad", "mother", "father", "sister", "brother",
        "students", "team", "wife's", "husband's", "parents", "boyfriend", "girlfriend",
    }
)  # fmt: skip
# activities that name a group or a place, not a practice ("club", "gym")
_NOT_PRACTICES = lx.CLUBS | lx.GROUPS | frozenset({"team", "gym", "training", "rehab"})


def practice_said(sentence: Span, speaker: str) -> list[Fact]:
    """The activities a sentence opens with, when it says what they are to the speaker."""
    words = [t for t in sentence if not t.is_punct or t.lower_ in ("-", "—")]
    at = _skip_lead(words)
    first = _practice(words, at)
    if first is None:
        return []
    names, at = [first[0]], first[1]
    if at < len(words) and words[at].lower_ in ("and", "or"):
        second = _gerund_phrase(words, at + 1)
        if second is not None:
            names.append(second[0])
        at = second[1] if second is not None else _nouns_end(words, at + 1)
    for_me = at + 1 < len(words) and [w.lower_ for w in words[at : at + 2]] == ["for", "me"]
    verb_at = _verb_at(words, at + 2 if for_me else at)
    if verb_at is None or not _said_of_me(words, verb_at, for_me):
        return []
    return [Fact(speaker, "activity", name, confidence=CONFIDENCE) for name in names]


def _skip_lead(words: list[Token]) -> int:
    at = 0
    while at < len(words) and (words[at].lower_ in _LEAD or words[at].is_punct):
        at += 1
    return at


def _practice(words: list[Token], at: int) -> tuple[str, int] | None:
    """The activity at ``at`` and the index after it: a word of the activity lexicon
    ("painting", "yoga"), or a practice's gerund with its object ("playing video games")."""
    if at >= len(words):
        return None
    word = words[at].lower_
    if word in lx.ACTIVITIES and word not in _NOT_PRACTICES and not word.endswith("ing"):
        return word, at + 1
    if _practice_gerund(words[at]):
        return _gerund_phrase(words, at)
    return None


def _practice_gerund(token: Token) -> bool:
    word = token.lower_
    if not word.endswith("ing"):
        return False
    return (
        word in lx.ACTIVITIES
        or word in lx.ACTIVITY_VERBS.values()
        or token.lemma_.lower() in lx.ACTIVITY_VERBS
        or word in ("playing", "gaming")
    )


def _gerund_phrase(words: list[Token], at: int) -> tuple[str, int] | None:
    """A gerund and the bare nouns that follow it as its object ("watching movies",
    "drawing flowers"): up to three nouns or adjectives, no article, no pronoun."""
    if at >= len(words) or not words[at].lower_.endswith("ing") or words[at].pos_ == "PROPN":
        return None
    end = at + 1
    while end < len(words) and end - at <= 3 and words[end].pos_ in ("NOUN", "ADJ"):
        end += 1
    if words[at].lower_ == "playing" and end == at + 1:
        return None  # "Playing is ...": playing what, it does not say
    return " ".join(w.lower_ for w in words[at:end]), end


def _nouns_end(words: list[Token], at: int) -> int:
    """The index after up to three nouns or adjectives from ``at`` ("and creative projects":
    a conjunct that is no practice, read over)."""
    end = at
    while end < len(words) and end - at < 3 and words[end].pos_ in ("NOUN", "ADJ"):
        end += 1
    return end


def _verb_at(words: list[Token], at: int) -> int | None:
    """The index of the verb right after the subject: a present form of be / become / help /
    keep / let, or "has been" / "has become" (never a past: "Dancing was my escape")."""
    if at >= len(words):
        return None
    verb = words[at]
    if verb.lemma_ in _VERBS and verb.tag_ in _PRESENT:
        return at
    if verb.lower_ in ("has", "have") and at + 1 < len(words):
        k = at + 1 + (words[at + 1].lower_ in ("always", "really", "also"))
        if k < len(words) and words[k].lower_ in ("been", "become"):
            return k
    return None


def _said_of_me(words: list[Token], verb_at: int, for_me: bool) -> bool:
    """Whether what follows the verb is said of the speaker and is no refusal."""
    rest = words[verb_at + 1 :]
    if any(w.lower_ in _REFUSED for w in rest[:3]):
        return False
    if any(w.lower_ == "my" and _next_lower(words, w) in _PEOPLE_AFTER_MY for w in rest):
        return False  # "Swimming is what my kids love": theirs
    if any(w.lemma_ == "passion" for w in rest[:3]):
        return False  # "Dance is my passion": a liking (english_nouns), as labelled
    return for_me or any(w.lower_ in _ME for w in rest)


def _next_lower(words: list[Token], token: Token) -> str:
    following = [w for w in words if w.i > token.i]
    return following[0].lower_ if following else ""
