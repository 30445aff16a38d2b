"""Frames that make a whole English sentence, or the part of it before a word, say nothing
of the speaker as true now (version 28, from two new users' trials): a hypothesis set up
("Let's say I live in Paris", "Pretend ...", "Suppose I move to Berlin", "Just imagine: I
bought a yacht"), another person's words passed on ("Tiago: I got a job at Sonae",
"Forwarded from Tiago: ...", "According to Tiago, I'm allergic to cats"), and a joke
("Yeah right, and I work at NASA"; "I'm a huge Benfica fan, just kidding": the words before
the "kidding" are taken back). The parse is read by :mod:`ingest.distill.english`; this
module reads only the sentence's words.
"""

from __future__ import annotations

import re

from spacy.tokens import Span, Token

from ingest.distill.dates import MONTHS, WEEKDAYS

# fillers that may open a sentence before its frame ("OK so let's say ...")
_LEAD = r"^\W*(?:(?:ok(?:ay)?|so|now|and|but|just|hmm+|well|alright|right)\W+)*"
_HYPOTHESIS = re.compile(
    _LEAD + r"(?:let['’]?s\s+|let\s+us\s+)?"
    r"(?:say|suppose|supposing|pretend|imagine|assume|hypothetically|picture\s+this)\b"
    r"(?!\s+(?:my\s+surprise|how|what|that\s+(?:you|he|she|they)))",
    re.IGNORECASE,
)
# "Tiago: I got a job", "Tiago said: ...", "Forwarded from Tiago: ...", "Fwd: ..."
_FORWARDED = re.compile(
    r"^\W*(?:fwd|fw|forwarded(?:\s+message)?(?:\s+from\s+[^:]{1,40})?"
    r"|(?:from|message\s+from|quote\s+from)\s+[^:]{1,40})\s*:",
    re.IGNORECASE,
)
_NAMED_COLON = re.compile(
    r"^\W*(?P<name>[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,2})"
    r"(?:\s+(?:said|says|wrote|writes|texted|texts|messaged|replied|asked|posted))?\s*:\s"
)
# capitalised words that head a line of one's own notes, not someone's name
_HEADINGS = frozenset(
    {
        "update",
        "note",
        "notes",
        "edit",
        "ps",
        "p.s.",
        "fyi",
        "btw",
        "reminder",
        "status",
        "summary",
        "todo",
        "today",
        "yesterday",
        "tomorrow",
        "also",
        "news",
        "fact",
        "fun fact",
        "question",
        "answer",
        "plan",
        "context",
        "background",
        "result",
        "results",
        "done",
        "me",
        "i",
        "ok",
        "okay",
        "so",
        "guess what",
        "good news",
        "bad news",
        "big news",
        "quick update",
        "re",
        "subject",
        "tldr",
        "morning",
        "afternoon",
        "evening",
        "tonight",
        "weekend",
        "goal",
        "goals",
        "mood",
        "work",
        "home",
        "health",
        "family",
        "travel",
        "diary",
        "journal",
        "log",
        "idea",
        "thought",
        "thoughts",
        "confession",
        "important",
        "warning",
        "reminder to self",
        "note to self",
    }
)
_SARCASM = re.compile(r"^\W*(?:oh\W+)?(?:yeah|yea|ya|yes)\W+right\b", re.IGNORECASE)
_KIDDING = frozenset({"kidding", "joking", "jk", "j/k"})
_NOT = frozenset({"not", "n't", "no", "never"})


def hypothesis(text: str) -> bool:
    """A sentence that opens by setting up a hypothesis: nothing in it is said as so."""
    return _HYPOTHESIS.search(text) is not None


def passed_on(text: str, speaker: str) -> bool:
    """A sentence that passes on another person's words: "Tiago: I got a job at Sonae",
    "Tiago said: I live in London", "Forwarded from Tiago: ..." (the "I" is Tiago). A line
    headed by the speaker's own name, or by a heading of one's notes ("Update: ..."), is the
    speaker's."""
    if _FORWARDED.search(text):
        return True
    found = _NAMED_COLON.search(text)
    if found is None:
        return False
    name = found.group("name").strip().lower()
    own = speaker.rsplit("/", 1)[-1].rsplit(":", 1)[-1].lower()
    if name in _HEADINGS or name in WEEKDAYS or name in MONTHS:
        return False
    return name != own and not own.endswith(name)


def sarcastic(text: str) -> bool:
    """ "Yeah right, and I work at NASA": what follows is said in jest."""
    return _SARCASM.search(text) is not None


def hearsay(sentence: Span) -> bool:
    """ "According to Tiago, I'm allergic to cats": another person's claim, not the
    speaker's (according to me is the speaker's own)."""
    for token in sentence:
        if token.lower_ != "according":
            continue
        to = [c for c in token.children if c.lower_ == "to"]
        source = [o for t in to for o in t.children if o.dep_ == "pobj"]
        if not source or any(o.lower_ not in ("me", "us") for o in source):
            return True
    return False


def taken_back(verb: Token) -> bool:
    """Whether a later "(just) kidding" / "jk" of the sentence takes ``verb`` back ("I'm a
    huge Benfica fan, just kidding"); "I'm not kidding" confirms, and what follows the
    kidding is said anew ("just kidding, I support Porto")."""
    for token in verb.sent:
        if token.i <= verb.i or token.lower_ not in _KIDDING:
            continue
        before = verb.doc[max(token.i - 2, verb.sent.start) : token.i]
        if not any(t.lower_ in _NOT for t in before):
            return True
    return False


def framed(sentence: Span, speaker: str) -> bool:
    """Whether a frame of the sentence's own words makes all of it say nothing as so."""
    text = sentence.text
    return hypothesis(text) or passed_on(text, speaker) or sarcastic(text) or hearsay(sentence)
