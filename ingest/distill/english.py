"""The English clause: a verb of a parsed sentence with its subject, negation, modality and
tense, and the noun phrases around it cut at their syntactic boundary.

:mod:`ingest.distill.english_rules` maps clauses to facts; this module only reads the parse.
A clause is *blocked* (yields nothing) when it is asked, wished, conditional or hypothetical:
a question, ``if``/``unless``/``whether``, a modal (``would``, ``could``, ``should``, ``can``,
``must``; ``may``/``might`` + have only hedge), ``want``/``wish``/``need``/``would love`` to,
``let's``, ``used to``, an imperative. It is *future* under ``will``, ``going to`` or
``gonna``, and *hedged* under ``I think``, ``maybe``, ``probably`` or ``may have``.

Chat leaves the speaker out ("Took a short trip to Lisbon last week", "Still working on my
thesis", "Been practising the cello"): a sentence whose main verb is past or progressive,
has no subject and nothing but adverbs before it is the speaker's (:func:`elided_speaker`).
An imperative ("Enjoy your trip!") is a base form and stays blocked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from spacy.tokens import Doc, Span, Token

from ingest.distill.dates import MONTHS, WEEKDAYS
from ingest.distill.english_frames import taken_back
from ingest.distill.facts import HEDGE_PENALTY, Fact
from ingest.distill.identifiers import relation, relative_id
from ingest.distill.lexicon import (
    ACTIVITIES,
    ACTIVITY_VERBS,
    EVALUATIVE,
    GENERIC,
    HEDGE_VERBS,
    HEDGES,
    PLACE_NAMES,
)

SUBJECTS = ("nsubj", "nsubjpass", "csubj")
BLOCKING_MARKS = frozenset({"if", "unless", "whether"})
BLOCKING_MODALS = frozenset({"would", "could", "should", "can", "must", "shall", "ought"})
WISH_VERBS = frozenset(
    {
        "want",
        "wish",
        "need",
        "like",
        "love",
        "try",
        "let",
        "have",
        "decide",
        "consider",
        "think",
        "dream",
        "imagine",
        "search",
        "look",
        "hope",
        "wan",
        "wanna",
        "gon",
        "gotta",
    }
)
PLAN_VERBS = frozenset({"plan", "intend", "aim", "hope", "decide", "prepare"})
# verbs whose to-infinitive happened when they did ("I started to paint", "I got to meet
# her", "I managed to finish"); under any other verb ("I chose to go", "I agreed to run",
# "I promised to call") the infinitive is not stated as done
IMPLICATIVE = frozenset(
    {"start", "begin", "continue", "keep", "get", "manage", "go", "come", "happen", "learn"}
)
DROPPED_LEFT = frozenset({"det", "predet", "punct", "case", "cc", "preconj", "advmod"})
INTENSIFIERS = frozenset(
    {"really", "very", "so", "super", "pretty", "too", "quite", "extremely", "most", "more"}
)
TIME_NOUNS = frozenset(
    {
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "week",
        "weekend",
        "month",
        "year",
        "day",
        "morning",
        "afternoon",
        "evening",
        "night",
        "today",
        "yesterday",
        "tomorrow",
        "time",
        "times",
    }
)
# a time a preposition opens ("in the spring", "over the holidays"): an adjunct, never part of
# what a plan does; vague, so left open (not resolved, not written into the plan)
SEASONS = frozenset(
    {"spring", "summer", "autumn", "fall", "winter", "holiday", "holidays", "future", "season"}
)
WHEN_WORDS = (TIME_NOUNS | SEASONS) - {"time", "times"}  # a month stays: "in May" is said
NOT_NAMES = frozenset([*WEEKDAYS, *MONTHS])  # a capitalised time word names nobody
CHILDHOOD = frozenset({"kid", "child", "teen", "teenager", "boy", "girl", "student"})
THING_PREPS = ("of", "to", "for")
TEAMS = frozenset({"team", "company", "group", "department", "squad", "org"})
VAGUE_OBJECTS = frozenset({"one", "ones", "thing", "things", "stuff", "more", "much", "less"})
DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})
DEICTIC = frozenset(
    {
        "app",
        "book",
        "song",
        "movie",
        "film",
        "show",
        "game",
        "series",
        "recipe",
        "dish",
        "video",
        "one",
        "place",
        "spot",
        "website",
        "site",
        "novel",
        "album",
        "painting",
        "picture",
        "event",
        "trip",
        "genre",
    }
)  # "the migration to Postgres 16" names one migration
# an object only with a modifier saying which ("a charity event", "celiac disease")
KIND_ONLY = frozenset({"event", "activity", "disease", "intolerance"})
MAX_OBJECT_TOKENS = 8
MAX_OBJECT_CHARS = 80
Kind = Literal["speaker", "relative", "thing", "person"]


@dataclass(frozen=True)
class Who:
    """The resolved subject of a clause."""

    id: str
    kind: Kind
    token: Token


FIRST_PERSON = frozenset({"i", "we", "me", "us", "my", "our", "myself", "ourselves"})


def first_person(token: Token) -> bool:
    return token.pos_ == "PRON" and token.lower_ in FIRST_PERSON


def verb_above(token: Token) -> Token:
    """The verb (or the root) a noun hangs from."""
    node = token.head
    while node.pos_ not in ("VERB", "AUX") and node.head.i != node.i:
        node = node.head
    return node


def possessed_by_speaker(token: Token) -> bool:
    """A noun whose possessive is the speaker's, by the parse ("my dad", "our plan")."""
    return any(c.dep_ == "poss" and first_person(c) for c in token.children)


def name_of(token: Token) -> str | None:
    """The name a relation noun is given: "my friend Anna", "a puppy named Max", "my
    boyfriend Chen Hao" (the whole name, :func:`given_name`)."""
    for child in token.children:
        if child.dep_ in ("appos", "compound") and child.pos_ == "PROPN" and child.i > token.i:
            return given_name(child)
        if child.dep_ == "acl" and child.lemma_ in ("name", "call"):
            named = [c for c in child.children if c.dep_ in ("oprd", "attr", "dobj")]
            if named and named[0].pos_ == "PROPN":
                return given_name(named[0])
    if token.dep_ == "compound" and token.head.pos_ == "PROPN":
        return given_name(token.head)
    return _name_beside(token)


MAX_NAME_WORDS = 3


def given_name(token: Token) -> str | None:
    """The name ending on ``token`` with the proper nouns the parse joins before it, as
    said: "Chen Hao", "Lin Yue", "Mary Jane Watson" (version 32, a new user's trial: "My
    boyfriend Chen Hao" was named ``Hao``, "my sister Lin Yue" ``/sister:Yue``). A run of
    more than three words is no name the parse can be trusted with, and two or more that
    are a known place name nobody (None)."""
    words = _name_tokens(token)
    name = " ".join(w.text for w in words)
    return None if len(words) > MAX_NAME_WORDS or _place(name) else name


def _place(name: str) -> bool:
    """A name of two or more words that is a known place ("my dad New York ..."): no name."""
    return " " in name and name.lower() in PLACE_NAMES


def _name_beside(token: Token) -> str | None:
    """ "My cat Miso has been keeping me company", "My boyfriend Chen Hao voted for Mochi":
    the name right after a possessed relation noun, where the parse hung it elsewhere (as the
    verb's subject): one capitalised word, or two the parse joins into one name; no time
    ("my sister Monday" names nobody), no place ("my dad New York ...")."""
    if token.i + 1 >= len(token.doc) or not any(c.dep_ == "poss" for c in token.children):
        return None
    after = token.doc[token.i + 1]
    if not _capitalised(after):
        return None
    following = after.doc[after.i + 1] if after.i + 1 < len(after.doc) else None
    if following is None or following.tag_ != "NNP":
        return after.text
    joined = after.dep_ == "compound" and after.head.i == following.i and _capitalised(following)
    two = f"{after.text} {following.text}"
    if not joined or _place(two):
        return None  # "my dad New York ...": a place, or more than a name the parse joins
    last = following.doc[following.i + 1] if following.i + 1 < len(following.doc) else None
    return two if last is None or last.tag_ != "NNP" else None


def _capitalised(word: Token) -> bool:
    return word.tag_ == "NNP" and word.text[:1].isupper() and word.lower_ not in NOT_NAMES


def relative_of(token: Token, speaker: str) -> tuple[str, str] | None:
    """(predicate, id) when ``token`` is a relation noun the speaker possesses ("my dad")."""
    found = relation(token.text) or relation(token.lemma_)
    if found is None or not possessed_by_speaker(token) or in_law(token):
        return None
    predicate, role = found
    return predicate, relative_id(speaker, role, name_of(token))


def in_law(token: Token) -> bool:
    """ "my brother-in-law", "my sister in law": a relative by marriage, not the blood
    relative the first word names (version 28: "My sister-in-law is a doctor" wrote the
    sister's occupation)."""
    after = [t.lower_ for t in token.doc[token.i + 1 : token.i + 5] if t.text not in "-‐–"]
    return "-in-law" in token.lower_ or after[:2] == ["in", "law"]


def full_name(token: Token) -> str:
    """A person's name with the names before it ("Marek Zielinski", version 27: a new user's
    trial wrote "Marek Zielinski takes over the payments API" as owner "Zielinski")."""
    return token.doc[_name_tokens(token)[0].i : token.i + 1].text


def _name_tokens(token: Token) -> list[Token]:
    """``token`` and the proper nouns right before it that the parse hangs on it as
    compounds (a time word is none: "my sister Monday Anna")."""
    first = token
    while first.i > 0:
        before = token.doc[first.i - 1]
        if before.pos_ != "PROPN" or before.dep_ != "compound" or before.head.i != token.i:
            break
        if before.lower_ in NOT_NAMES:
            break
        first = before
    return list(token.doc[first.i : token.i + 1])


def resolve_subject(token: Token, speaker: str) -> Who | None:
    """The speaker (I, we), a possessed relative (my dad), a named person or a thing."""
    if first_person(token) or (token.lemma_ in TEAMS and speakers_own(token)):
        return Who(speaker, "speaker", token)  # "our team uses Linear" is the speaker's "we"
    if any(first_person(c) for c in token.conjuncts):
        return Who(speaker, "speaker", token)
    if token.pos_ not in ("NOUN", "PROPN"):
        return None
    rel = relative_of(token, speaker) or _named_relative(token, speaker)
    if rel is not None:
        return Who(rel[1], "relative", token)
    if token.pos_ == "PROPN" and token.dep_ != "compound":
        return Who(full_name(token), "person", token)
    text = phrase(token, preps=THING_PREPS)
    return Who(text, "thing", token) if text else None


def _named_relative(token: Token, speaker: str) -> tuple[str, str] | None:
    """ "My husband Tiago hates running" (version 29, a new user's trial): the parse makes the
    name the subject and hangs the relation noun on it; the subject is the relative, never a
    third person whose facts are left to ``said``."""
    if token.pos_ != "PROPN":
        return None
    for role in (c for c in token.children if c.dep_ == "compound" and c.i < token.i):
        found = relative_of(role, speaker)
        if found is not None:
            return found
    return None


ELIDED_LEAD = frozenset({"advmod", "aux", "punct", "intj", "cc", "neg", "npadvmod"})
# irregular past forms the small model tags as a base form when they open a sentence
PAST_FORMS = {
    "took": "take",
    "went": "go",
    "got": "get",
    "had": "have",
    "made": "make",
    "found": "find",
    "bought": "buy",
    "began": "begin",
    "ran": "run",
    "won": "win",
    "wrote": "write",
    "lost": "lose",
    "saw": "see",
    "met": "meet",
    "drew": "draw",
    "gave": "give",
    "tried": "try",
    "joined": "join",
    "started": "start",
    "finished": "finish",
    "visited": "visit",
}


def repair_opening(sentence: Span) -> None:
    """An opening irregular past the tagger read as a base form ("Took a trip ...": a bare
    VB, lemma "took") is the past tense of its verb: an elided "I", not an imperative."""
    for token in sentence:
        if token.dep_ in ELIDED_LEAD and token.head.i != token.i:
            continue
        base = PAST_FORMS.get(token.lower_)
        if base is not None and token.dep_ == "ROOT" and token.tag_ in ("VB", "VBP", "NN"):
            token.tag_, token.pos_, token.lemma_ = "VBD", "VERB", base
        return


# present forms the small model lemmatizes wrongly ("hates" -> "hat"), read as their verb
PRESENT_FORMS = {"hates": "hate"}


def repair_lemmas(sentence: Span) -> None:
    """Version 29 (a new user's trial: "My husband Tiago hates running" wrote no dislike):
    the small model lemmatizes the verb "hates" as "hat", so no liking rule read it."""
    for token in sentence:
        base = PRESENT_FORMS.get(token.lower_)
        if base is not None and token.tag_ == "VBZ":
            token.lemma_ = base


def elided_speaker(verb: Token) -> bool:
    """Whether ``verb`` belongs to a chat sentence that leaves out its subject "I": its main
    verb (``verb`` or the verb it is conjoined with or complements) is past, progressive or
    a perfect participle, has no subject, and only adverbs come before it."""
    root = verb
    while root.dep_ in ("conj", "xcomp") and root.head.i != root.i:
        root = root.head
    if root.dep_ != "ROOT" or any(c.dep_ in (*SUBJECTS, "expl") for c in root.children):
        return False
    if root.tag_ not in ("VBD", "VBG", "VBN") or root.pos_ != "VERB":
        return False
    been = any(a.lower_ == "been" for a in root.children)
    if root.tag_ == "VBN" and not been:
        return False  # "Stuck at home": a participle, not "I have ..."
    finite = ("VBD", "VBZ", "VBP", "MD")
    if root.tag_ == "VBG" and not been and any(t.tag_ in finite for t in root.sent[1:]):
        return False  # "Climbing to the summit was exhausting": a gerund subject the parse missed
    before = [c for c in root.children if c.dep_ == "advcl" and c.i < root.i]
    if any(children(a, *SUBJECTS) for a in before):
        return False
    aside = {t.i for a in before for t in a.subtree}  # "Been a long week - had an exam"
    lead = [t for t in root.sent if t.i < root.i and t.i not in aside]
    return all(t.dep_ in ELIDED_LEAD and t.head.i == root.i for t in lead)


def _my_gerund(verb: Token) -> bool:
    """A gerund standing as the subject whose object is the speaker's: "Losing my job
    hurt" (the speaker lost it); "Climbing to the summit was hard" says nothing of whom."""
    if verb.tag_ != "VBG" or verb.dep_ != "csubj":
        return False
    return any(p.lower_ == "my" for o in children(verb, "dobj") for p in children(o, "poss"))


def _practice(verb: Token) -> bool:
    """A gerund naming an activity ("surfing", "volunteering", "playing the violin")."""
    return verb.tag_ == "VBG" and (
        verb.lemma_ in ACTIVITY_VERBS or verb.lower_ in ACTIVITIES or verb.lemma_ == "play"
    )


_WENT = frozenset({"go", "goes", "went"})


def subject_token(verb: Token) -> Token | None:
    """The verb's own subject, or the one it shares: conjoined verbs ("I live in X and work
    at Y") and complements ("I started to learn X", "I'm going to X")."""
    for child in verb.children:
        if child.dep_ in SUBJECTS:
            return child
    if verb.dep_ in ("conj", "xcomp") and verb.head.i != verb.i:
        if verb.tag_ == "VBG" and verb.head.dep_ == "acomp":
            return subject_token(verb.head.head)  # "I'm busy getting ready for X"
        told = [o for o in children(verb.head, "dobj") if o.i < verb.i]
        if verb.dep_ == "xcomp" and told:
            return told[0]  # "I told my students to get involved": theirs, not mine
        return subject_token(verb.head)
    if verb.dep_ == "advcl" and _practice(verb) and not children(verb, "mark", "advmod"):
        return subject_token(verb.head)  # "I had a summer with friends, surfing": mine
    if verb.dep_ == "dobj" and verb.tag_ == "VBG" and verb.head.lemma_ == "go":
        return subject_token(verb.head)  # "we went camping": the small model's object (v15)
    went = [a for a in children(verb, "aux") if a.lower_ in _WENT and verb.tag_ == "VBG"]
    if went:  # "I went fishing", parsed with "went" an auxiliary holding the subject (v15)
        return next((s for s in went[0].children if s.dep_ in SUBJECTS), None)
    had = _chance_taken(verb)
    return subject_token(had) if had is not None else None


def _chance_taken(verb: Token) -> Token | None:
    """ "I had the chance to coach a team": the verb of having the chance, when it says the
    infinitive happened (had / got it, in the past, not negated, not a wish)."""
    chance = verb.head
    if verb.dep_ != "acl" or chance.lemma_ not in ("chance", "opportunity"):
        return None
    had = chance.head
    if chance.dep_ != "dobj" or had.lemma_ not in ("have", "get") or had.tag_ not in ("VBD", "VBN"):
        return None
    if any(c.dep_ == "neg" or c.lower_ in ("never", "if") for c in had.children):
        return None
    return had


# --- noun phrases -----------------------------------------------------------------------------


def _left(token: Token) -> Iterator[Token]:
    for child in token.lefts:
        if child.dep_ in DROPPED_LEFT or child.pos_ == "PRON":
            continue
        if child.dep_ == "amod" and child.lower_ in EVALUATIVE:
            continue
        if child.dep_ == "amod" and any(c.lower_ in INTENSIFIERS for c in child.children):
            continue
        yield from child.subtree


def _of_phrase(token: Token, preps: tuple[str, ...] = ("of",)) -> list[Token]:
    for child in token.rights:
        if child.dep_ == "prep" and child.lower_ in preps:
            objects = [c for c in child.children if c.dep_ == "pobj"]
            if objects:  # its article stays: "Lord of the Rings", not "Lord of Rings"
                the = [d for d in children(objects[0], "det") if d.lower_ in ("the", "a", "an")]
                # a name keeps its own "of": "a trip to the Isle of Skye" (version 22)
                named = objects[0].pos_ == "PROPN"
                return [child, *the, *phrase_tokens(objects[0], keep_of=named)]
    return []


def phrase_tokens(
    token: Token, *, keep_of: bool = True, preps: tuple[str, ...] = ("of",)
) -> list[Token]:
    """A noun phrase's tokens: its modifiers (compounds, adjectives that are not mere praise,
    numbers), the head and an ``of`` phrase; never its article, possessive, relative clause
    or adjuncts."""
    left = sorted({t.i: t for t in _left(token)}.values(), key=lambda t: t.i)
    while left and (left[0].pos_ == "DET" or left[0].dep_ in ("det", "predet", "case")):
        left = left[1:]  # "a children's book": the article belongs to the whole phrase
    if len(left) > 1 and left[0].lower_ in ("my", "our") and left[0].head.dep_ == "poss":
        left = left[1:]  # "my friend's wedding": the possessive of the possessor, as "a"
    tokens = [*left, token]
    for child in token.rights:
        if child.dep_ in ("compound", "nummod", "flat") or (
            child.dep_ == "amod" and child.i == token.i + 1
        ):
            tokens.append(child)
    if keep_of:
        tokens.extend(_of_phrase(token, preps))
    return tokens


def _glued(tokens: list[Token]) -> list[Token]:
    """``tokens`` with the words a hyphen glues to their last one, no space on either side
    ("the payments-api": the parser split it and hung "api" on the verb; version 27)."""
    if not tokens:
        return tokens
    last = max(tokens, key=lambda t: t.i)
    doc, glued = last.doc, list(tokens)
    while last.i + 2 < len(doc) and not last.whitespace_:
        dash, word = doc[last.i + 1], doc[last.i + 2]
        if dash.text != "-" or dash.whitespace_ or not (word.is_alpha or word.like_num):
            break
        glued += [dash, word]
        last = word
    return glued


def _hyphen_after(token: Token) -> bool:
    """A hyphen right after ``token`` gluing it to the next word ("Winston-Salem": the parse
    leaves the hyphen out of the phrase, which read "Winston Salem"; version 27)."""
    if token.whitespace_ or token.i + 1 >= len(token.doc):
        return False
    dash = token.doc[token.i + 1]
    return dash.text == "-" and not dash.whitespace_


def text_of(tokens: list[Token]) -> str:
    ordered = sorted(tokens, key=lambda t: t.i)
    parts = []
    for n, tok in enumerate(ordered):
        gap = n + 1 < len(ordered) and ordered[n + 1].i == tok.i + 1
        hyphen = n + 1 < len(ordered) and ordered[n + 1].i == tok.i + 2 and _hyphen_after(tok)
        parts.append(tok.text + ("-" if hyphen else tok.whitespace_ if gap else " "))
    return "".join(parts).strip().strip("\"'“”‘’")


def usable(tokens: list[Token]) -> bool:
    """Whether a captured phrase can be trusted as an object: no pronoun, no token the
    parser could not attach, not too long, not ending on a function word, some content."""
    if not tokens or len(tokens) > MAX_OBJECT_TOKENS:
        return False
    ordered = sorted(tokens, key=lambda t: t.i)
    if any(t.pos_ == "PRON" or t.dep_ in ("dep", "meta") for t in ordered):
        return False
    if any(t.dep_ == "cc" or t.lower_ in ("and", "or", "&") for t in ordered):
        return False  # a coordinated modifier: "reading and fantasy novels" is two things or one
    if ordered[-1].pos_ in ("ADP", "DET", "CCONJ", "SCONJ", "PART", "AUX"):
        return False
    return any(
        t.is_alpha or t.like_num or _VERSION.fullmatch(t.lower_) or _DOTTED.fullmatch(t.text)
        for t in ordered
    )


_VERSION = re.compile(r"v\d+(?:\.\d+)*")  # "v2": content (version 19), as "2" is
# a name written with its dot ("Trip.com", "Booking.com"): content, as a word is (version 32,
# a new user's trial: "I work at Trip.com as a product manager" wrote no employer)
_DOTTED = re.compile(r"[A-Z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)+")


def says_nothing(token: Token) -> bool:
    """A head no object may have: a pronoun or verb, a generic noun (thing, lot, time ...),
    a bare kind ("an event", "a great event", but not "a charity event"), or a deictic one
    ("this app", "that book", "that event": what it is, the turn does not say)."""
    if token.pos_ in ("PRON", "VERB", "AUX") or token.lemma_.lower() in GENERIC:
        return True
    if token.lower_ in ("mine", "yours", "his", "hers", "ours", "theirs"):
        return True  # "a fan of yours": a person, named by a pronoun the model may tag a noun
    if token.pos_ in ("ADV", "ADP", "SCONJ", "CCONJ", "PART", "INTJ", "DET", "PUNCT"):
        return True
    if token.pos_ == "ADJ" and children(token, "advmod"):
        return True  # "working on ... - super excited": a predicate the parse hung there
    if len(children(token, "poss")) > 1:
        return True  # "Runnin' my shop": no noun has two owners, the parse is not to be trusted
    span = token.dep_ == "pobj" and token.head.lower_ in ("for", "since", "during", "over")
    lemma = token.lemma_.lower()
    if lemma == "while" or (span and lemma in TIME_NOUNS):
        return True  # "working on it for a while", "for a year": a time, never an object
    if token.dep_ == "pobj" and {lemma, lemma.removesuffix("s")} & WHEN_WORDS:
        return True  # "go hiking on Sundays", "in the spring": a time, never a place
    if lemma in KIND_ONLY and not any(
        c.dep_ in ("compound", "amod", "nmod") and c.lower_ not in EVALUATIVE
        for c in token.children
    ):
        return True  # "an event": which kind of event, the turn does not say
    deictic = any(d.lower_ in DEMONSTRATIVES for d in token.children)
    return deictic and lemma in DEICTIC


QUOTES = frozenset({'"', "“", "”"})


def quoted(token: Token) -> Span | None:
    """The words between the double quotes ``token`` stands in, if any: a title ("Home
    Alone") the small model may split into a noun and an adverb."""
    sentence = token.sent
    marks = [t.i for t in sentence if t.text in QUOTES]
    for opening, closing in zip(marks[::2], marks[1::2], strict=False):
        if opening < token.i < closing:
            return token.doc[opening + 1 : closing]
    return None


def phrase(token: Token, *, keep_of: bool = True, preps: tuple[str, ...] = ("of",)) -> str | None:
    """The cleaned noun phrase of ``token``; None when it cannot be trusted or says nothing.
    Inside double quotes, the whole quoted title (or nothing, when it is too long)."""
    title = quoted(token)
    if title is not None:
        text = title.text.strip()
        return (
            text if 0 < len(title) <= MAX_OBJECT_TOKENS and len(text) <= MAX_OBJECT_CHARS else None
        )
    if says_nothing(token):
        return None
    tokens = _glued(phrase_tokens(token, keep_of=keep_of, preps=preps))
    if not usable(tokens):
        return None
    text = text_of(tokens)
    last = max(tokens, key=lambda t: t.i)
    if text.endswith(".") and last.i == last.sent.end - 1:
        text = text[:-1]  # "Acme Corp." ends the sentence: the period is the sentence's
    if len(text) > MAX_OBJECT_CHARS:
        return None
    first = min(tokens, key=lambda t: t.i)
    if first.is_sent_start and first.pos_ == "NOUN" and not first.text.isupper():
        text = text[:1].lower() + text[1:]
    return text


def phrase_or_none(token: Token | None) -> str | None:
    return None if token is None else phrase(token)


def phrases(token: Token | None) -> list[str]:
    """The phrase of ``token`` and of each of its conjuncts ("Vim, Git and Docker")."""
    if token is None:
        return []
    found = [phrase(t) for t in (token, *token.conjuncts) if t.dep_ != "compound"]
    return list(dict.fromkeys(p for p in found if p))


def children(token: Token, *deps: str) -> list[Token]:
    return [c for c in token.children if c.dep_ in deps]


def naming_clauses(token: Token) -> list[Token]:
    """The clauses that give ``token`` a name: "a fintech *called* Moeda"."""
    return [c for c in children(token, "acl") if c.lemma_ in ("call", "name")]


def called_name(token: Token) -> Token | None:
    """The proper name a clause gives ``token`` ("a fintech called Moeda": ``Moeda``)."""
    for named in naming_clauses(token):
        names = [n for n in children(named, "oprd", "attr", "dobj") if n.pos_ == "PROPN"]
        if names:
            return names[0]
    return None


def dobjs(verb: Token) -> list[Token]:
    """The verb's direct objects; in a relative clause ("the books I bought", "a concert
    that we enjoyed") the noun the clause describes."""
    found = [c for c in verb.children if c.dep_ == "dobj" and c.tag_ not in ("WDT", "WP")]
    found = found[:1] + [o for o in found[1:] if not _appositive(o)]
    relative = verb.dep_ == "relcl" and not any(
        c.dep_ == "dobj" and c.tag_ not in ("WDT", "WP") for c in verb.children
    )
    return [verb.head] if relative and verb.head.pos_ in ("NOUN", "PROPN") else found


def _appositive(obj: Token) -> bool:
    """A second object set off by a comma ("I bought a used road bike last Saturday, a blue
    Bianchi, to ride ..."): the small model reads it as another object of the verb; it
    names the first one again (version 14), one thing."""
    first = obj.left_edge.i
    return first > obj.sent.start and obj.doc[first - 1].text == ","


def pobj(token: Token, *preps: str) -> Token | None:
    """The object of the first preposition in ``preps`` attached to ``token``; in a relative
    clause whose preposition is left without one ("a concert I went to", "the group I am a
    part of"), the noun the clause describes."""
    for prep in children(token, "prep", "agent"):
        if prep.lower_ in preps:
            objects = children(prep, "pobj", "pcomp")
            if objects and not _stranded(token, prep, objects[0]):
                return objects[0]
            if _describes(token) and (not objects or _stranded(token, prep, objects[0])):
                return token.head
    return None


def _describes(verb: Token) -> bool:
    """A relative clause of the speaker's ("... I went to") on a noun, with no relative word
    of its own that would be the preposition's object."""
    return (
        verb.dep_ == "relcl"
        and verb.head.pos_ in ("NOUN", "PROPN")
        and any(c.dep_ == "nsubj" and first_person(c) for c in verb.children)
        and not any(c.tag_ in ("WDT", "WP", "WRB") for c in verb.subtree)
    )


def _stranded(verb: Token, prep: Token, obj: Token) -> bool:
    """A stranded preposition the small model gave the time after it as its object ("the
    concert I went to last month": "to ... month")."""
    return (
        _describes(verb)
        and obj.lemma_.lower() in TIME_NOUNS
        and any(
            c.dep_ in ("amod", "det") and c.lower_ in ("last", "this", "next") for c in obj.children
        )
        and prep.i + 1 < obj.i
    )


def whole_clause(verb: Token) -> str | None:
    """A gerund with its whole clause, when the clause is short, contiguous and holds no
    list or punctuation: "being able to make a difference", "talking about what we're
    thankful for" (where :func:`gerund` stops at a complement it cannot cut)."""
    tokens = sorted(verb.subtree, key=lambda t: t.i)
    while tokens and tokens[-1].pos_ == "PUNCT":
        tokens = tokens[:-1]
    if not tokens or tokens[0].i != verb.i or len(tokens) > MAX_OBJECT_TOKENS:
        return None
    inside = tokens[1:]
    if any(t.pos_ == "PUNCT" or t.dep_ in ("cc", "conj", "dep", "meta") for t in inside):
        return None
    if any(t.pos_ == "PRON" and t.lower_ in ("i", "me", "you") for t in inside):
        return None
    own = [
        *children(verb, "dobj"),
        *(o for p in children(verb, "prep") for o in children(p, "pobj")),
    ]
    if any(o.pos_ == "PRON" for o in own):
        return None  # "being with them": whom, the sentence does not say
    text = text_of(tokens)
    if verb.is_sent_start:
        text = text[:1].lower() + text[1:]
    return text if len(text) <= MAX_OBJECT_CHARS else None


def gerund(verb: Token) -> str | None:
    """A gerund with its object ("watching movies", "learning about different cultures")."""
    tokens = [verb, *children(verb, "prt")]
    if children(verb, "ccomp", "xcomp", "oprd", "dative", "attr", "acomp"):
        return None  # "making it a habit": more than a gerund and its object
    objects = [o for o in children(verb, "dobj") if o.lemma_.lower() not in VAGUE_OBJECTS]
    if objects:  # its article stays: "writing a story", "publishing a book"
        tokens.extend([*_article(objects[0]), *phrase_tokens(objects[0])])
    preps = [p for p in children(verb, "prep") if p.lower_ not in ("as", "since", "during")]
    if objects:
        preps += [
            p for p in children(objects[0], "prep") if p.lower_ in ("in", "with", "on", "for")
        ]
    for prep in preps:
        found = [o for o in children(prep, "pobj") if o.pos_ in ("NOUN", "PROPN")]
        if found and found[0].lemma_.lower().strip("-–—") not in TIME_NOUNS:
            objects.append(found[0])
            tokens.extend([prep, *phrase_tokens(found[0])])
            break
    if any(d.lower_ in DEMONSTRATIVES for o in objects for d in children(o, "det")):
        return None  # "escaping to that world": which one, the turn does not say
    if not usable(tokens):
        return None
    return text_of(tokens)


def _article(token: Token) -> list[Token]:
    """The article opening ``token``'s phrase, when nothing stands before it."""
    first = min((t.i for t in _left(token)), default=token.i)
    return [d for d in children(token, "det") if d.lower_ in ("a", "an", "the") and d.i < first]


def verb_phrase(verb: Token, cut: set[int]) -> str | None:
    """A verb with its complements, as written ("release version 4", "give kids a loving
    home"); adjuncts, other clauses and the tokens in ``cut`` (time phrases) left out."""
    keep = {"dobj", "dative", "prt", "prep", "attr", "acomp", "oprd", "npadvmod", "advmod", "xcomp"}
    last = verb.i
    for child in verb.rights:
        if child.dep_ not in keep or any(t.i in cut for t in child.subtree):
            break
        if child.dep_ in ("npadvmod", "advmod") and not child.like_num:
            break
        if child.dep_ == "prep" and _a_time(child):
            break  # "visit Lisbon in the spring": the plan is the visit, its time left open
        last = max(last, max(t.i for t in child.subtree))
    tokens = [t for t in verb.doc[verb.i : last + 1] if t.i not in cut]
    ending = [t for t in tokens if t.dep_ == "prep" and _a_time(t) and t.right_edge.i >= last]
    if ending:  # "visiting more HP spots in the future" (version 24): the time hung on a noun
        tokens = [t for t in tokens if t.i < ending[0].i]
    while tokens and tokens[-1].is_punct:
        tokens = tokens[:-1]  # "do doggy playdates," ends on its word
    if len(tokens) > 2 * MAX_OBJECT_TOKENS or any(t.pos_ == "PRON" for t in tokens[1:]):
        return None
    return text_of(tokens) if tokens else None


def _a_time(prep: Token) -> bool:
    """A prepositional phrase that says a vague time: "in the spring", "over the holidays",
    "in the evening"."""
    objects = children(prep, "pobj")
    return bool(objects) and all(o.lower_ in WHEN_WORDS or o.lemma_ in WHEN_WORDS for o in objects)


# --- the clause -------------------------------------------------------------------------------


def _modal(verb: Token) -> str | None:
    for aux in children(verb, "aux"):
        if aux.tag_ == "MD":
            return aux.lower_.replace("'d", "would").replace("’d", "would")
    return None


def _negated(verb: Token) -> bool:
    for child in verb.children:
        if child.dep_ == "neg" or child.lower_ == "never":
            return True
        if child.lower_ == "longer" and any(c.lower_ == "no" for c in child.children):
            return True
        if child.dep_ == "aux" and any(c.dep_ == "neg" for c in child.children):
            return True
    return False


def _not_done(verb: Token) -> bool:
    """ "I almost bought a house", "I was going to buy a bike": neither happened, and the
    intention is past, no plan now."""
    if any(c.dep_ == "advmod" and c.lower_ in ("almost", "nearly") for c in verb.children):
        return True
    head = verb.head
    intended = verb.dep_ == "xcomp" and head.lemma_ == "go" and head.tag_ == "VBG"
    return intended and any(a.tag_ == "VBD" for a in children(head, "aux"))


def future_tense(verb: Token) -> bool:
    """ "will" / "shall" / "'ll", or "going to": the verb tells of what is still ahead."""
    if any(
        a.lemma_ in ("will", "shall") or a.lower_ in ("'ll", "’ll") for a in children(verb, "aux")
    ):
        return True
    head = verb.head
    return verb.dep_ == "xcomp" and head.lemma_ == "go" and head.tag_ == "VBG"


def _chain(verb: Token) -> Iterator[Token]:
    """The verb and the verbs it depends on within its sentence's clause structure (through
    a preposition too: "thinking *of* working")."""
    node = verb
    while True:
        yield node
        if node.dep_ == "pcomp" and node.head.dep_ == "prep":
            node = node.head.head
            continue
        if node.dep_ not in ("xcomp", "ccomp", "conj", "advcl", "relcl") or node.head.i == node.i:
            return
        if _reported(node):
            return  # "Wanted to tell you I joined a rowing club": the club is joined
        node = node.head


REPORTING = frozenset({"know", "tell", "say", "share", "mention", "announce", "update"})
# verbs that pass on what someone holds true ("Sara thinks I'm a terrible cook")
SAYING = frozenset(
    {"say", "tell", "think", "believe", "claim", "reckon", "insist", "write", "text", "swear"}
)


def told_by_another(token: Token) -> bool:
    """Whether ``token`` sits in what another person says or thinks: "Tiago said: I live in
    London", "She said I live in a bubble", "Sara thinks I'm a terrible cook", "My doctor
    says I'm pre-diabetic" (version 28: their words or their view, never the speaker's
    statement; "I told you I moved" is the speaker's own)."""
    node = token
    while node.head.i != node.i:
        if node.dep_ in ("ccomp", "parataxis") and node.head.lemma_ in SAYING:
            subjects = children(node.head, "nsubj")
            if subjects and not first_person(subjects[0]):
                return True
        node = node.head
    return False


def _reported(node: Token) -> bool:
    """A clause with its own subject that a verb of telling reports: what it says holds
    whatever the frame's modality ("I wanted to tell you I got the job")."""
    return (
        node.dep_ == "ccomp"
        and node.head.lemma_ in REPORTING
        and any(c.dep_ in SUBJECTS for c in node.children)
        and not any(c.dep_ == "mark" and c.lower_ != "that" for c in node.children)
    )  # "text you once I'm done": a time still ahead, under the frame


@dataclass
class Clause:
    verb: Token
    speaker: str
    who: Who | None
    negated: bool
    hedged: bool
    future: bool
    blocked: bool
    planned: bool = False

    def fact(
        self,
        predicate: str,
        obj: str | bool,
        *,
        subject: str | None = None,
        confidence: float = 0.9,
        polarity: bool | None = None,
    ) -> Fact:
        if self.who is not None and self.who.kind == "relative":
            confidence -= 0.05
        if self.hedged:
            confidence -= HEDGE_PENALTY
        return Fact(
            subject=subject or (self.who.id if self.who else ""),
            predicate=predicate,
            object=obj,
            polarity=(not self.negated) if polarity is None else polarity,
            confidence=round(confidence, 2),
        )


PEOPLE = ("speaker", "relative")


def of_person(c: Clause) -> bool:
    """The clause is about the speaker or a relative the speaker names by a possessive."""
    return c.who is not None and c.who.kind in PEOPLE


def of_speaker(c: Clause) -> bool:
    return c.who is not None and c.who.kind == "speaker"


def speakers_own(obj: Token) -> bool:
    """A noun with a possessive of the speaker's ("my skills", "our platform")."""
    return any(p.dep_ == "poss" and p.lower_ in ("my", "our") for p in obj.children)


def broke_up(verb: Token) -> bool:
    """ "broke up", "split up", "we've separated": a couple ended."""
    up = any(p.lower_ == "up" for p in children(verb, "prt"))
    return (verb.lemma_ in ("break", "split") and up) or verb.lemma_ == "separate"


UNREAL_VERBS = frozenset({"wish", "pretend", "fantasize", "fantasise", "hope"})
UNREAL_WORLDS = frozenset({"life", "universe", "world", "timeline", "reality"})
UNREAL_MARKS = frozenset({"another", "parallel", "alternate", "ideal", "perfect", "different"})


def unreal_frame(sentence: Span) -> bool:
    """ "in another life I live in Lisbon", "In a perfect world I'd work at Google", "in my
    dreams": the sentence tells a world that is not this one (version 27)."""
    for token in sentence:
        if token.lower_ != "in":
            continue
        for world in children(token, "pobj"):
            if world.lower_ == "dreams" and any(p.lower_ == "my" for p in world.children):
                return True
            marks = {m.lower_ for m in world.children}
            if world.lemma_ in UNREAL_WORLDS and marks & UNREAL_MARKS:
                return True
    return False


UNDO_VERBS = frozenset({"decline", "reject", "cancel", "withdraw", "rescind", "revoke", "undo"})
UNDO_PARTICLES = {"turn": "down", "back": "out", "pull": "out"}


def _undone(verb: Token) -> bool:
    """ "I accepted a job at Acme but then declined it", "I signed up for pottery but cancelled",
    "I accepted the offer, then turned it down" (version 27): a verb undone by a later verb of
    its own sentence states nothing that holds."""
    for later in verb.children:
        if later.i < verb.i or later.dep_ not in ("conj", "dep") or later.pos_ != "VERB":
            continue
        if later.lemma_ in UNDO_VERBS:
            return True
        particle = UNDO_PARTICLES.get(later.lemma_)
        if particle is not None and any(p.lower_ == particle for p in children(later, "prt")):
            return True
        if later.lemma_ == "change" and any(o.lemma_ == "mind" for o in children(later, "dobj")):
            return True
    return False


def _blocked_by(verb: Token, node: Token, below: Token) -> bool:
    """Whether ``node``, a verb of ``verb``'s chain, blocks it; ``below`` is the verb of the
    chain just under ``node`` (``verb`` itself, or a verb ``verb`` is conjoined with: in
    "I'm trying to stay fit and do yoga", *do* hangs on *stay*, the complement of *trying*)."""
    if any(c.lower_ in BLOCKING_MARKS for c in children(node, "mark")):
        return True
    conditions = children(node, "advcl")
    if any(m.lower_ in BLOCKING_MARKS for a in conditions for m in children(a, "mark")):
        return True  # "If I get the job, I'll move": the main clause is conditional too
    if node.head.lower_ == "for" and any(c.lower_ == "when" for c in node.children):
        return True  # "a library for when I have kids"
    modal = _modal(node)
    if modal in BLOCKING_MODALS and not (node.lemma_ in ("prefer", "rather") and modal == "would"):
        return True
    if modal in ("may", "might") and not any(a.lemma_ == "have" for a in children(node, "aux")):
        return True
    if node.i != verb.i and node.lemma_ in UNREAL_VERBS and below.head.i == node.i:
        return below.dep_ == "ccomp"  # "I wish I lived in Lisbon" (version 27)
    if node.i != verb.i and node.lemma_ in WISH_VERBS and _complement_of(below, node):
        return not ((node.lemma_ == "try" and below.tag_ == "VBG") or _had_to(node))
    if node.i != verb.i and node.pos_ == "VERB" and _infinitive_of(below, node):
        return node.lemma_ not in IMPLICATIVE | PLAN_VERBS  # "I chose to go to X": not gone
    if node.lemma_ == "use" and node.tag_ == "VBD" and verb.dep_ == "xcomp":
        return True  # "I used to live in Rome"
    return _childhood(node) or (node.lemma_ == "let" and node.i != verb.i)


def _had_to(node: Token) -> bool:
    """ "I had to quit the class" (version 19): it was done, as "I have to quit" is not yet."""
    return node.lemma_ == "have" and node.tag_ == "VBD"


def _childhood(node: Token) -> bool:
    """ "I loved reading as a kid", "... when I was younger": then, not now."""
    for token in node.subtree:
        if token.lower_ == "as" and any(o.lemma_ in CHILDHOOD for o in token.children):
            return True
    clauses = [c for x in (node, *children(node, "xcomp")) for c in x.children]
    # "I've always liked turtles since I was a boy" (version 22): a perfect since then holds now
    marks = ("when", "while", "as") if _perfect(node) else ("when", "while", "as", "since")
    for child in clauses:  # "I loved taking lessons when I was younger": on the gerund too
        then = any(
            m.lower_ in marks for m in children(child, "mark", "advmod")
        )  # "to unwind a little" is no childhood
        if (
            child.dep_ == "advcl"
            and then
            and any(t.lower_ in CHILDHOOD | {"younger", "little"} for t in child.subtree)
        ):
            return True
    return False


def _perfect(verb: Token) -> bool:
    """A present perfect: "I've loved", "she has played"."""
    return verb.tag_ == "VBN" and any(
        a.lemma_ == "have" and a.tag_ in ("VBP", "VBZ") for a in children(verb, "aux")
    )


def _infinitive_of(verb: Token, node: Token) -> bool:
    """Whether ``verb`` is a to-infinitive complementing ``node`` ("chose *to go*"), with a
    subject of its own too ("we need a floor for my students *to dance*")."""
    return (
        verb.dep_ in ("xcomp", "ccomp")
        and verb.head.i == node.i
        and any(a.dep_ == "aux" and a.lower_ == "to" for a in verb.children)
    )


def _complement_of(verb: Token, node: Token) -> bool:
    """Whether ``verb`` is what ``node`` wants / considers: its xcomp, or the pcomp of its
    preposition ("thinking of working")."""
    if verb.dep_ == "xcomp" and verb.head.i == node.i:
        return True
    return verb.dep_ == "pcomp" and verb.head.head.i == node.i


def _plan_head(verb: Token) -> bool:
    head = verb.head
    return verb.dep_ == "xcomp" and head.lemma_ in PLAN_VERBS and head.lemma_ != "decide"


def in_quotes(token: Token) -> bool:
    r"""Whether ``token`` stands between an opening and a closing quotation mark of its text
    (the parser tags them ``\`\``` and ``''``; an apostrophe of a possessive is no mark):
    direct speech, someone's words as said ("Tom said "I live in Paris now"", "my boss said
    'I'm moving to Berlin'"), or a title (version 27). The quoted spans of a text are read
    once and kept with its parse."""
    spans = token.doc.user_data.get(_QUOTED)
    if spans is None:
        spans = token.doc.user_data[_QUOTED] = _quoted_spans(token.doc)
    return any(opening < token.i < closing for opening, closing in spans)


_QUOTED = "tractatus:quoted"


def _quoted_spans(doc: Doc) -> list[tuple[int, int]]:
    """The (opening, closing) token positions of each pair of quotation marks of ``doc``."""
    spans: list[tuple[int, int]] = []
    opening: int | None = None
    for mark in doc:
        if mark.tag_ == "``" and opening is None:
            opening = mark.i
        elif mark.tag_ == "''" and opening is not None:
            spans.append((opening, mark.i))
            opening = None
    return spans


def clause(verb: Token, speaker: str, *, question: bool) -> Clause:
    """Read one verb of the parse (see the module docstring). A verb in quotation marks is
    blocked: the words quoted are someone's as said, the speaker's statement is the verb of
    saying around them (version 27)."""
    subject = subject_token(verb)
    who = resolve_subject(subject, speaker) if subject is not None else None
    if subject is None and (elided_speaker(verb) or _my_gerund(verb)):
        who = Who(speaker, "speaker", verb)
    chain = list(_chain(verb))
    below = [verb, *chain[:-1]]
    blocked = question or any(
        _blocked_by(verb, node, under) for node, under in zip(chain, below, strict=True)
    )
    if subject is None and verb.dep_ == "ROOT" and verb.tag_ == "VB":
        blocked = True  # an imperative
    blocked = blocked or _not_done(verb) or _undone(verb) or in_quotes(verb)
    blocked = blocked or unreal_frame(verb.sent) or taken_back(verb) or told_by_another(verb)
    hedged = (
        any(
            node.i != verb.i
            and node.lemma_ in HEDGE_VERBS
            and any(first_person(s) for s in children(node, "nsubj"))
            for node in chain
        )
        or any(c.lower_ in HEDGES for c in verb.children)
        or _modal(verb) in ("may", "might")
    )
    return Clause(
        verb=verb,
        speaker=speaker,
        who=who,
        negated=_negated(verb)
        or any(
            node.i < verb.i and node.lemma_ in HEDGE_VERBS and _negated(node) for node in chain
        ),  # "I don't think I like sushi": the doubt is the denial
        hedged=hedged,
        future=any(future_tense(node) for node in chain) or _plan_head(verb),
        blocked=blocked,
        planned=_plan_head(verb) or future_tense(verb),
    )


def verbs(sentence: Span) -> Iterator[Token]:
    """The heads of the sentence's clauses: verbs and copulas."""
    for token in sentence:
        if token.pos_ == "VERB" or (token.pos_ == "AUX" and token.dep_ not in ("aux", "auxpass")):
            yield token
