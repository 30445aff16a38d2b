"""What recall reads out of a query, without any model: terms, names and time windows.

Pure functions, unit-tested in ``tests/unit/test_fusion.py``.

* :func:`lucene_terms` turns free text into safe Lucene terms: only word characters
  survive tokenisation, every token is escaped again and lower-cased (so ``AND``/``OR``/``NOT``
  are never operators), question words are dropped, the clause count is capped.
* :func:`content_terms` are the query's meaningful words (lower-cased, lightly stemmed), used to
  measure how much of the query a result covers.
* :func:`own_sentences`: the sentences of a turn in which the speaker states something of
  their own (not a question, not addressed to the listener alone, not an appraisal of what
  the listener shared); the person rule reads only those.
* :func:`is_question`, :func:`asks_when` / :func:`mentions_time`: a text asks something, the
  query asks for a time, a text places something in time (English words; a CJK query never
  asks when, so the rerank value stays 0).
* :func:`time_windows` finds dates the query names (``May 2023``, ``8 May 2023``,
  ``May 8, 2023``, ``2023-05-08``, ``in 2023``) as UTC ``[start, end)`` windows.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache

MAX_TERMS = 64
_WORD = re.compile(r"\w+", re.UNICODE)
_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
# a run of CJK script or CJK punctuation (:func:`apart`)
CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\u3000-\u303f]+")
_CJK_OR_NOT = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+"
    r"|[^\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+"
)

# Lucene's English stop set plus question words: they carry no topic, and in a chat log they
# match every turn that asks something. And the words a question about the present is framed
# by ("Who owns the Atlas API now?"): they ask when, not what, and matched "The API spec is
# now at version 1.4" over the note that answers.
_STOP_TEXT = """a an and are as at be but by for if in into is it no not of on or such that
    the their then there these they this to was will with what when where who whom whose which
    why how did do does done doing has have had having can could would should shall might may must
    much many kind type sort some any ever i me my you your he him his she her we us our its
    s t am been being were now nowadays still anymore"""
STOP_WORDS = frozenset(_STOP_TEXT.split())


def words(text: str) -> list[str]:
    """Word tokens (letters, digits, CJK runs) of ``text``, in order, lower-cased."""
    return [w.lower() for w in _WORD.findall(text)]


def stem(word: str) -> str:
    """A light English suffix stripper (live, lives, lived, living -> liv); the same on both
    sides of a comparison, so it only has to be consistent, not linguistically right."""
    if len(word) <= 3 or not word.isascii():
        return word
    if word.endswith(("ies", "ied")):
        word = word[:-3] + "y"
    elif word.endswith(("sses", "xes", "zes", "ches", "shes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ing", "ed", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
        word = word[:-1]
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


# Chinese question words and particles: cut out of a CJK run before it is split into terms
# (longest first), as English stop words are dropped; "小王的猫叫什么名字" -> 小王 / 猫叫 / 名字.
_CJK_STOP_TEXT = """为什么 什么 哪里 哪儿 哪个 哪些 怎么 怎样 多少 如何 是否 是不是 有没有 哪 谁 几
    的 了 吗 呢 吧 啊 呀"""
_CJK_STOP = re.compile("|".join(sorted(_CJK_STOP_TEXT.split(), key=len, reverse=True)))


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds Chinese, Japanese or Korean script."""
    return _CJK.search(text) is not None


def cjk_terms(run: str) -> list[str]:
    """The terms of a CJK run: question words and particles out, then each remaining piece as
    overlapping character bigrams (a one-character piece as itself), as a CJK index reads it."""
    terms: list[str] = []
    for piece in _CJK_STOP.split(run):
        if len(piece) == 1:
            terms.append(piece)
        terms.extend(piece[i : i + 2] for i in range(len(piece) - 1))
    return terms


def content_terms(text: str) -> list[str]:
    """Distinct meaningful terms of ``text``: stop words out, lightly stemmed; CJK runs as
    bigrams (:func:`cjk_terms`)."""
    seen: dict[str, None] = {}
    for word in words(text):
        if word in STOP_WORDS:
            continue
        for piece in _CJK_OR_NOT.findall(word) if _CJK.search(word) else [word]:
            if _CJK.search(piece):
                for term in cjk_terms(piece):
                    seen.setdefault(term, None)
            elif (len(piece) > 1 or piece.isdigit()) and piece not in STOP_WORDS:
                seen.setdefault(stem(piece), None)
    return list(seen)[:MAX_TERMS]


def escape_lucene(term: str) -> str:
    return _LUCENE_SPECIAL.sub(r"\\\1", term)


def lucene_terms(text: str) -> list[str]:
    """The query's escaped content words, distinct, in order, at most ``MAX_TERMS``; a CJK run
    gives its bigrams (:func:`cjk_terms`), so that a turn matching more of them ranks higher
    (one term for the whole run matched any of its bigrams, and ranked by length alone)."""
    terms: dict[str, None] = {}
    for word in words(text):
        for piece in _CJK_OR_NOT.findall(word) if _CJK.search(word) else [word]:
            if _CJK.search(piece):  # each bigram its own term, scored apart (as English words)
                for term in cjk_terms(piece):
                    terms.setdefault(escape_lucene(term), None)
            elif piece not in STOP_WORDS:
                terms.setdefault(escape_lucene(piece), None)
    return list(terms)[:MAX_TERMS]


@lru_cache(maxsize=8_192)
def _term_set(text: str) -> frozenset[str]:
    # recall measures the coverage of the same candidate texts several times per query
    return frozenset(content_terms(text))


def found_terms(query_terms: list[str], text: str) -> frozenset[str]:
    """The ``query_terms`` found in ``text`` (CJK terms by substring)."""
    return _found(tuple(query_terms), text)


@lru_cache(maxsize=8_192)
def _found(query_terms: tuple[str, ...], text: str) -> frozenset[str]:
    # the rerank reads the same query terms in the same candidate texts several times
    present = _term_set(text)
    lowered = text.lower()
    return frozenset(t for t in query_terms if t in present or (_CJK.search(t) and t in lowered))


def coverage(query_terms: list[str], text: str) -> float:
    """Share of ``query_terms`` found in ``text`` (:func:`found_terms`)."""
    if not query_terms:
        return 0.0
    return len(found_terms(query_terms, text)) / len(query_terms)


_ASKS_WHEN = re.compile(r"^\W*(when|how long|what (year|month|date|day|time))\b", re.IGNORECASE)
_TIME_WORDS = re.compile(
    r"\b(yesterday|today|tonight|tomorrow|last|next|ago|weekend|weeks?|months?|years?|days"
    r"|since|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march"
    r"|april|may|june|july|august|september|october|november|december|\d{4}|morning|evening"
    r"|recently|just)\b",
    re.IGNORECASE,
)


def is_question(text: str) -> bool:
    """The text (a turn, a sentence) ends by asking something."""
    return text.rstrip().endswith(("?", "\uff1f"))


# a sentence ends at . ! ? before a space (not inside "3.5"), or at a CJK full stop / mark
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[\u3002\uff01\uff1f])\s*")
_FIRST_PERSON = frozenset(
    ["i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves"]
)
_SECOND_PERSON = frozenset(["you", "your", "yours", "yourself", "yourselves", "ya", "u"])
_CJK_FIRST = re.compile("[\u6211\u54b1]")  # 我 咱
_CJK_SECOND = re.compile("[\u4f60\u60a8]")  # 你 您


# an appraisal of what the other person shared: "That meal looks yum!", "Mentoring must be
# so rewarding.", "Sounds special, those trips!", "Learning an instrument is really cool."
_APPRAISAL = re.compile(
    r"\b(sounds?|sounded|looks?|looked|seems?|must (be|have been)|can be"
    r"|(is|are|was) (so|really|very|super|such|totally)|what an?)\b",
    re.IGNORECASE,
)


# a wish or a cheer for the other person's news ("Happy birthday to Lena!", "Congrats on the
# promotion!", "Good luck tomorrow!"), alone, after "Aiko: " (a passage) or "Aiko said " (the
# said assertion's text): it states nothing of the speaker's own
_CHEER = re.compile(
    r"^\s*(?:[^\W\d][\w.'-]{0,40}(?:\s+[^\W\d][\w.'-]{0,40}){0,3}(?::|\s+said)\s+)?"
    r"(?:happy\s+(?:birthday|anniversary)|congrats|"
    r"congratulations|good\s+luck|best\s+of\s+luck|well\s+done|get\s+well\s+soon)\b",
    re.IGNORECASE,
)


# a superlative reaction to what the other person shared: "That's the best cat name I've ever
# heard." (to a friend's "A ginger one called Bacalhau"); the "I" in it hears, it owns nothing
_REACTION = re.compile(
    r"^\W*(?:[^\W\d][\w.'-]{0,40}(?:\s+[^\W\d][\w.'-]{0,40}){0,3}(?::|\s+said)\s+)?"
    r"(?:that['\u2019]?s|that is|this is|it['\u2019]?s|it is|what|such)\b[^.!?]{0,60}?"
    r"\b(?:best|worst|most|least|\w+est)\b[^.!?]{0,40}?"
    r"\b(?:i['\u2019]ve|i have|i['\u2019]d|i had|we['\u2019]ve|we have)\s+(?:ever\s+)?"
    r"(?:heard|seen)\b",
    re.IGNORECASE,
)


def states_own(sentence: str) -> bool:
    """Whether one sentence of a turn says something of the speaker's own: it does not ask,
    it is not addressed to the other person alone ("Glad your son is okay" speaks of the
    listener's son; "I love your idea" still has the speaker in it), and it is not an
    appraisal without the speaker in it ("That meal looks yum!" reacts to what the other
    person shared; nor is a wish or a cheer for the other's news: "Happy birthday to Lena!",
    nor a superlative reaction: "That's the best cat name I've ever heard.")."""
    if is_question(sentence) or _REACTION.search(sentence):
        return False
    tokens = set(words(sentence))
    if _CHEER.search(sentence) and not tokens & _FIRST_PERSON:
        return False
    if tokens & _FIRST_PERSON or _CJK_FIRST.search(sentence):
        return True
    second = bool(tokens & _SECOND_PERSON) or bool(_CJK_SECOND.search(sentence))
    return not second and _APPRAISAL.search(sentence) is None


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``, in order: split at . ! ? before a space, or at a CJK mark."""
    return [x for x in _SENTENCE_END.split(text) if x.strip()]


def own_sentences(text: str) -> list[str]:
    """The sentences of a turn that :func:`states_own` keeps, in order."""
    return [x for x in split_sentences(text) if states_own(x)]


def sentences_of(text: str, person: str) -> list[str]:
    """The sentences of another speaker's turn that speak of ``person`` (:func:`spoken_of`),
    in order: what the turn says about them ("Tomás opens Mon, Wed and Fri"), not what it
    says besides ("Our flour comes from Millbrook, $31.50 a sack")."""
    sentences = split_sentences(text)
    return [sentences[i] for i in sentences_speaking_of(sentences, person)]


def sentences_speaking_of(sentences: list[str], person: str) -> list[int]:
    """The indices of the ``sentences`` (one text's, in order) that speak of ``person``
    (:func:`spoken_of`), each read as it stands in the text: one after the first follows a
    sentence's end ("... screening. Applicant: Jonah Harper-Lin, DOB ...")."""
    return [i for i, x in enumerate(sentences) if spoken_of(f". {x}" if i else x, person)]


def asks_when(query: str) -> bool:
    """The query asks for a time ("When did …", "How long …", "What year …")."""
    return _ASKS_WHEN.search(query) is not None


# a question about the present state of something ("Where does Nadia live now?", "Who owns
# the ledger service now?", "What is the latest crash-free rate?"), not about a past one
_PRESENT = re.compile(
    r"\b(now|nowadays|currently|current|latest|most recent|these days|at the moment|at present)\b",
    re.IGNORECASE,
)
_PAST_PRESENT = re.compile(r"\b(was|were|had been)\s+(the\s+)?(current|latest)\b", re.IGNORECASE)
# whether a state has lasted to now: "Is Priya still running the half marathon?", "Does Sam
# not teach anymore?" (a "still" of a yes/no question only: "while it still scanned" is past),
# or has come about by now: "Has Ngozi's visa been approved yet?", "Is renewal working again?"
_STILL = re.compile(
    r"^\s*(?:is|are|am|does|do|has|have)\b[^?]*\b(?:still\b|yet\s*\??\s*$|again\s*\??\s*$)"
    r"|\b(?:no|any)\s+longer\b|\b(?:anymore|any\s+more)\s*\??\s*$",
    re.IGNORECASE,
)


# the same in Chinese: "现在" (now), "目前" / "当前" (currently), "最新" (latest), "还在" /
# "仍然" (still), "已经…了吗" (… yet?); and how things stood before a change: "原来" /
# "本来" (originally), "一开始" / "最初" (at first), "以前" / "之前" (before), "曾经" (once)
_PRESENT_ZH = re.compile(r"现在|目前|当前|如今|眼下|最新|还在|仍然|仍在|依然|已经[^？?。]*吗")
_PAST_ZH = re.compile(r"原来|原本|本来|最初|最开始|一开始|起初|当初|以前|之前|曾经")


def asks_present(query: str) -> bool:
    """The query asks how things stand now: a word of the present ("now", "currently", or a
    yes/no question asking whether something is "still" so, or so "yet" or "again"; in
    Chinese "现在", "目前", "最新", "还在"), no time of its own ("in late May", "in April
    2026", "3月5日") and no past frame ("which version was current")."""
    return (
        any(p.search(query) is not None for p in (_PRESENT, _STILL, _PRESENT_ZH))
        and _PAST_PRESENT.search(query) is None
        and not names_a_day(query)
    )


# how things stood before a change: "What plot did Wei get at the start of the season?",
# "Who was originally going to water the greenhouse?", "What was the rent before the
# landlord put it up?"; not "right before" or "just before", which ask for the last state
# before it ("How many replicas were we on right before the autoscaler got turned on?")
_PAST_STATE = re.compile(
    r"\b(?:originally|initially|at\s+first|at\s+the\s+(?:start|beginning)|in\s+the\s+beginning|"
    r"to\s+begin\s+with|used\s+to|previously|formerly|"
    r"(?<!right\s)(?<!just\s)(?<!immediately\s)before)\b",
    re.IGNORECASE,
)


def asks_past(query: str) -> bool:
    """The query asks how things stood before a change ("originally", "at first", "used
    to", "before ..."), with no time of its own ("in the beginning of November 2022", "the
    week before 16 November") and not how things stand now (:func:`asks_present`)."""
    return (
        (_PAST_STATE.search(query) is not None or _PAST_ZH.search(query) is not None)
        and not names_a_day(query)
        and not asks_present(query)
    )


def mentions_time(text: str) -> bool:
    """The text places something in time (a date, a weekday, "last week", "ago", …)."""
    return _TIME_WORDS.search(text) is not None


def name_keys(name: str) -> set[str]:
    """How a speaker or subject can be named in a query: ``user:alice`` -> {user:alice, alice}.
    The namespace before a colon names nothing ("user", "svc"), and the letters of a numbered
    identifier are no key alone ("INC" of ``inc:INC-4411``: a new user's trial read "Who
    handled INC-4437?" as a question about INC-4411)."""
    lowered = name.strip().lower()
    keys = {lowered}
    for sep in (":", "/", "@"):
        if sep in lowered:
            keys.add(lowered.rsplit(sep, 1)[-1])
    named = lowered.split(":", 1)[1] if ":" in lowered else lowered
    numbered = {w for n in _NUMBERED.findall(named) for w in words(n)}
    keys.update(w for w in words(named) if len(w) > 2 and (w not in numbered or w.isdigit()))
    return {k for k in keys if k and k not in STOP_WORDS}


# an identifier of letters and a number joined by a hyphen ("inc-4411", "plat-201"); a name
# with digits of its own ("tom3fa", "agent007") is a name
_NUMBERED = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*-\d[a-z0-9-]*")


def numbered_thing(name: str) -> bool:
    """Whether a speaker or subject is a numbered thing, never the person a question is about:
    a code (an incident, a ticket: ``inc:INC-4411``), a name that starts with a digit (a ward:
    ``7B``), or a name of several words one of which holds a digit (a document: "Bed
    Management Policy v3.1"). One word with digits of its own is a name ("Tom3fa2b1")."""
    last = name.strip().lower().rsplit(":", 1)[-1]
    parts = last.split()
    numbered = len(parts) > 1 and any(c.isdigit() for c in last)
    return numbered or _NUMBERED.fullmatch(last) is not None or last[:1].isdigit()


def without_name(query: str, name: str) -> list[str]:
    """The content terms of ``query`` once every way of naming ``name`` (:func:`name_keys`)
    is cut out of it (a CJK name before its run is split into bigrams)."""
    text = query.lower()
    for key in sorted(name_keys(name), key=len, reverse=True):
        pattern = re.escape(key) if _CJK.search(key) else rf"\b{re.escape(key)}\b"
        text = re.sub(pattern, " ", text)
    return content_terms(text)


def names_in_query(query: str, candidates: set[str], *, people: bool = False) -> set[str]:
    """The candidate names (speakers, subjects) that the query mentions, by one of their
    keys (:func:`name_keys`) or by a short form of one (:func:`_short_forms`). ``people``:
    the person a question is about, so a name written in lower case (a tool's, "billing";
    the agent's) is matched by its capitalised form only, never by the common word ("Who was
    in charge of billing before Jordan took over?" asks about Jordan, not the tool)."""
    written = _WORD.findall(query)
    tokens = {w.lower() for w in written}
    capitalised = {w.lower() for w in written if w[:1].isupper()}
    lowered = query.lower()
    found = set()
    for name in candidates:
        common = people and name == name.lower() and not _CJK.search(name)
        read = capitalised if common else tokens
        if any(
            k in read or ((":" in k or _CJK.search(k)) and k in lowered) or _phrase_in(k, lowered)
            for k in name_keys(name)
        ):
            found.add(name)
    found |= _short_forms(query, candidates - found)
    return {name for name in found if not another_of_the_name(query, name)}


# a word of a name as a question writes it: capitalised, no acronym ("DJI"), its possessive
# ending the name ("Lin Xiao's sister")
_NAME_TOKEN = re.compile(r"[^\W\d_][\w-]*(?:['\u2019]s\b)?|[^\w\s]+")
_NOT_OF_NAMES = frozenset(calendar.day_name) | {m for m in calendar.month_name if m}
# a title or a kin word before a name is no word of it: "Mr Osei" is Daniel Osei, "Aunt
# Lily" Lily Zhou
_TITLES = frozenset(
    ("mr", "mrs", "ms", "miss", "mx", "dr", "prof", "professor", "sir", "madam", "dame",
     "aunt", "auntie", "aunty", "uncle", "grandma", "grandpa", "granny", "nana", "cousin",
     "coach", "captain", "officer", "nurse", "doctor", "teacher")
)  # fmt: skip


def _written_names(query: str) -> list[list[str]]:
    """The names ``query`` writes, each as its words (lower case): capitalised words in a
    row, less question words and the other stop words ("Does Lin Yue ..." writes "lin yue"),
    titles ("Mr", "Aunt"), months and weekdays; a possessive, a mark or an acronym ends one."""
    names: list[list[str]] = [[]]
    for token in _NAME_TOKEN.findall(CJK_RUN.sub(" . ", query)):  # "Oscar Hale的妈妈"
        bare = re.sub(r"['\u2019]s$", "", token)
        capitalised = bare[:1].isupper() and not (len(bare) > 1 and bare.isupper())
        skipped = bare.lower() in STOP_WORDS or bare.lower() in _TITLES or bare in _NOT_OF_NAMES
        if capitalised and not skipped:
            names[-1].append(bare.lower())
            if bare == token:
                continue
        if names[-1]:
            names.append([])
    return [n for n in names if n]


def another_of_the_name(query: str, name: str) -> bool:
    """Whether ``query`` asks about another person who shares a word of ``name``'s (a
    name of two words or more): it writes a full name holding a word of ``name`` and a
    word that is no word of it, and never ``name`` itself, whole or in part. "What does Lin
    Yue do for work?" names Lin Yue, not the speaker Lin Xiao, however many family names
    the two share; "Xiao", "Lin Xiao's", "Xiao Lin" and a longer form ("Acme Labs Inc" of
    "Acme Labs") name the speaker."""
    own = words(name.lower().rsplit(":", 1)[-1].rsplit("/", 1)[-1])
    if len(own) < 2:
        return False

    def of_name(word: str) -> bool:  # a word of the name, or its short form ("Mel")
        return any(w == word or (len(word) > 2 and w.startswith(word)) for w in own)

    def writes(written: list[str]) -> bool:  # the name or a part of it, or a longer form
        return all(of_name(w) for w in written) or all(w in written for w in own)

    sharing = [n for n in _written_names(query) if any(w in own for w in n)]
    return bool(sharing) and not any(writes(n) for n in sharing)


_CAPITALISED = re.compile(r"\b([A-Z][a-z]{2,})\b")
# a name the query compares with or sets in a succession ("Who handled X before Sana?"):
# not the person the question is about
_COMPARED = re.compile(
    r"\b(?:before|after|than|instead\s+of|replac(?:ed|ing)(?:\s+by)?|succeed(?:ed|ing))\s+"
    r"[A-Z][\w\u2019'-]*(?:\s+[A-Z][\w\u2019'-]*)*",
)
# the question's subject is the speaker and the name the one spoken to ("What did we promise
# Priya?", "Did I tell Marco about the outage?", "我们答应李强什么？"): never the person whose
# own statements answer it (not "what are we paying with NorthCask", whose lease answers)
_SPOKEN_TO = re.compile(
    r"(?i:\b(?:we|i)\s+(?:\w+\s+)?(?:promis|tell|told|sen[dt]|offer|e-?mail|call|phon|text|"
    r"messag|repl|answer|giv|gave|ask|quot|owe|refund|invoic|remind|updat|notif|contact|"
    r"writ|wrote|pinged|ping)\w*)\s+[A-Z]"
    r"|(?:我们|咱们|我)(?:已经|有没有|是否|还|都|曾经|当时)?"
    r"(?:答应|承诺|告诉|通知|发给|回复|给|跟|向|对|替|帮)"
)


def not_compared(query: str) -> str:
    """``query`` without the names it compares with or sets in a succession ("before
    Sana", "than Omar", "instead of Leo", "before Tom Becker"): what is left names the
    person asked about."""
    return _COMPARED.sub(" ", query)


def speaker_asks(query: str) -> bool:
    """Whether the question's subject is the speaker and a name the one spoken to ("What did
    we promise Priya?", "我们答应李强什么？"): then no name in it is the person asked about."""
    return _SPOKEN_TO.search(query) is not None


def _phrase_in(key: str, lowered: str) -> bool:
    """Whether a key of several words ("li na", "wu di": a name whose every word is too
    short to be a key of its own) stands whole in the ``lowered`` query."""
    whole = rf"(?<![\w'\u2019]){re.escape(key)}(?![\w-])"
    return " " in key and re.search(whole, lowered) is not None


def _short_forms(query: str, candidates: set[str]) -> set[str]:
    """The candidates a query names by a short form: "Mel" for Melanie, "Sam" for Samantha.
    A capitalised word of three letters or more, no stop word, that starts one word of
    exactly one candidate's name and is no key of any candidate."""
    found: set[str] = set()
    keys = {name: name_keys(name) for name in candidates}
    every = {k for ks in keys.values() for k in ks}
    for short in {m.lower() for m in _CAPITALISED.findall(query)} - every - STOP_WORDS:
        named = [n for n, ks in keys.items() if any(k != short and k.startswith(short) for k in ks)]
        if len(named) == 1:
            found.add(named[0])
    return found


# --- time windows -------------------------------------------------------------------------------

_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTHS.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
_MONTHS["sept"] = 9
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_PATTERNS = (
    re.compile(r"\b(?P<year>(?:19|20)\d\d)-(?P<mnum>[01]\d)-(?P<day>[0-3]\d)\b"),
    re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}\b", re.I),
    re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}\b", re.I),
    re.compile(rf"\b{_MONTH},?\s+(?:of\s+)?{_YEAR}\b", re.I),
    re.compile(rf"\b(?:in|during|of|since|before|after|around)\s+{_YEAR}\b", re.I),
)


# a day named without its year, the month capitalised ("on October 20", "as of 20 March";
# never "you may 2", nor the "May 8" of "May 8, 2023", read above with its year)
_CAP_MONTH = (
    r"(?P<month>"
    + "|".join(sorted((m.capitalize() for m in _MONTHS), key=len, reverse=True))
    + r")\.?"
)
_NO_YEAR = r"(?!\d)(?!,?\s*(?:19|20)\d\d)"
_YEARLESS = (
    re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_CAP_MONTH}\b{_NO_YEAR}"),
    re.compile(rf"\b{_CAP_MONTH}\s+{_DAY}\b{_NO_YEAR}"),
)


@dataclass(frozen=True)
class Window:
    start: datetime
    end: datetime

    def contains(self, when: datetime) -> bool:
        return self.start <= when < self.end


def _window(year: int, month: int | None, day: int | None) -> Window | None:
    try:
        if month is None:
            return Window(datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC))
        if day is None:
            end = datetime(year + (month == 12), month % 12 + 1, 1, tzinfo=UTC)
            return Window(datetime(year, month, 1, tzinfo=UTC), end)
        start = datetime(year, month, day, tzinfo=UTC)
    except ValueError:
        return None
    return Window(start, start + timedelta(days=1))


def time_windows(query: str, latest: datetime | None = None) -> list[Window]:
    """Every date the query names, most specific first, overlapping mentions once. With
    ``latest`` (the newest time among what recall read), a day named without its year ("on
    October 20", "as of 20 March") is the last such day on or before it; without, it is
    none."""
    found: list[Window] = []
    taken: list[tuple[int, int]] = []
    for pattern in _PATTERNS:
        for m in pattern.finditer(query):
            if _overlaps(m, taken):
                continue
            groups = m.groupdict()
            month = groups.get("month")
            month_number = (
                int(groups["mnum"])
                if groups.get("mnum")
                else (_MONTHS[month.lower().rstrip(".")] if month else None)
            )
            day = int(groups["day"]) if groups.get("day") else None
            window = _window(int(groups["year"]), month_number, day)
            if window is not None:
                found.append(window)
                taken.append((m.start(), m.end()))
    if latest is not None:
        # "between August 11 and August 15 2023": the year the query names, else the latest
        year = found[0].start.year if found else None
        for month, day in _yearless(query, taken):
            window = _window(year or latest.year, month, day)
            if year is None and window is not None and window.start > latest:
                window = _window(latest.year - 1, month, day)
            found += [window] if window is not None else []
    return found


def _overlaps(m: re.Match[str], taken: list[tuple[int, int]]) -> bool:
    """Whether mention ``m`` overlaps one of the spans ``taken`` (each mention read once)."""
    return any(m.start() < end and start < m.end() for start, end in taken)


# a day written in Chinese, with or without its year: "3月5日", "2024年3月5号"
_ZH_DAY = re.compile(r"\d{1,2}\s*月\s*\d{1,2}\s*[日号]")


def names_a_day(query: str) -> bool:
    """The query names a day, with or without its year ("on 20 August" and "8月20日" ask
    about then)."""
    return (
        bool(time_windows(query)) or bool(_yearless(query, [])) or _ZH_DAY.search(query) is not None
    )


def _yearless(query: str, taken: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The days (month, day) ``query`` names without a year, outside the spans ``taken``
    (the dated mentions), each mention once."""
    days: list[tuple[int, int]] = []
    for pattern in _YEARLESS:
        for m in pattern.finditer(query):
            if _overlaps(m, taken):
                continue
            days.append((_MONTHS[m["month"].lower().rstrip(".")], int(m["day"])))
            taken = [*taken, (m.start(), m.end())]
    return days


# words that, right before a name, make it the one spoken to ("Thanks Carlos for the fix")
_GREETINGS = frozenset(
    {"hey", "hi", "hello", "thanks", "thank", "congrats", "dear", "yo", "bye", "ok", "okay",
     "wow", "sorry", "oh", "yes", "yeah", "great", "good", "morning", "cheers", "welcome"}
)  # fmt: skip


# a name closing a clause is spoken of when a lower-case word of the clause comes right
# before it (no comma, no greeting, no other part of a name): "to Marta.", not "Thanks,
# Carlos!", "Great job Carlos!" nor the "Chen" of "Practice test - Lucas Chen."
_OBJECT = re.compile(r"(?<![^\W\d_])[a-z]+\s+$")
_CLAUSE_END = re.compile(r"(?:\s+[A-Z][\w'\u2019-]*)*\s*(?:[,.;!?)]|$)")
# a tool's record names a person as a field's value ("Applicant: ", "Student: ", "To: "): one
# or two words of letters and a colon before the name, after a sentence's end or after the
# turn's own "speaker: " (alone, that is the speaker's label: "Mia: Zed, look!" speaks to Zed)
_FIELD = re.compile(r"(?:[.;|]\s+|^[^:\n]{1,40}:\s+)[^\W\d_]+(?:[ /][^\W\d_]+)?:\s+$")
# after a label, a name spoken to, not a field's value: "Note: Carlos, can you check it?"
_ASKED_OF = re.compile(r"\s*,\s*(?:can|could|would|will|please|pls|you|are|do|did)\b", re.I)
_VOCATIVE_AFTER = frozenset({"you", "job", "luck", "done", "night", "later", "soon", "again"})


def apart(text: str) -> str:
    """``text`` with its CJK runs set apart by spaces: Chinese writes a Latin name against its
    own words, and "我拿到了Northgate医院的工作" holds "Northgate" (a word of letters and
    ideographs, it was unheld, and the question naming Northgate `not_found`)."""
    return CJK_RUN.sub(lambda m: f" {m.group(0)} ", text)


# a key of a name standing as a word of a text ("Carlos's build", not "Carloss")
_NAME_AT = r"(?<![\w'\u2019]){}(?![\w-])"


def _written_keys(person: str) -> list[str]:
    """The keys of ``person``'s name a text spells: a name's words, and the whole name ("Li
    Na", each of whose words is too short to be a key; "guest Li Wei)", where "Wei" alone
    follows another word of the name)."""
    return [k for k in name_keys(person) if k.replace(" ", "").isalpha()]


def names_person(text: str, person: str) -> bool:
    """Whether ``text`` names ``person`` by a key of their name, as a word, however it speaks
    of them (a record's field too: "Customer: Marcus Okafor"; :func:`spoken_of` reads how)."""
    keys = [re.escape(k) for k in _written_keys(person)]
    return (
        bool(keys)
        and re.search(_NAME_AT.format("(?:" + "|".join(keys) + ")"), text, re.I) is not None
    )


def spoken_of(text: str, person: str) -> bool:
    """Whether ``text`` (another speaker's turn) speaks of ``person`` in the third person: the
    name (:func:`~graph_schema.recall.query.name_keys`: the word a speaker is named by) with a
    word after it ("Carlos is on vacation until the 22nd", "Carlos's build"), or closing a
    clause right after a word of it ("Let's go with Carlos.", "the offer letter to Carlos
    Diaz, signed"); never the one spoken to ("Thanks, Carlos!", "Hey Carlos, how was it?",
    "Carlos, can you ...")."""
    text = apart(text)  # "Jonah下个星期五..." names Jonah
    for key in _written_keys(person):
        for found in re.finditer(_NAME_AT.format(re.escape(key)), text, re.I):
            if found.group(0)[0].islower():
                continue  # a word, not a name: "report" of tool:crash-report
            if _third_person(text[: found.start()], text[found.end() :]):
                return True
    return False


def _third_person(before: str, after: str) -> bool:
    """Whether a name between ``before`` and ``after`` is spoken of, not to: a word after it
    (no greeting before it), or the name closing a clause right after a word of it ("Let's go
    with Marta.", "$165k for Marta, equity stays", "an offer letter to Marta Lindqvist.")."""
    words = re.findall(r"[^\W\d_]+", before.lower())
    if _FIELD.search(before) and not _ASKED_OF.match(after):
        return True  # a record's field: "Applicant: Jonah Harper-Lin, DOB 2007-11-02."
    if re.match(r"(?:['\u2019]s)?\s+(?:[a-z]|I\b|[\u3040-\u9fff])", after):
        return not (words and words[-1] in _GREETINGS)
    closing = _OBJECT.search(before) is not None and _CLAUSE_END.match(after) is not None
    return closing and words[-1] not in _GREETINGS | _VOCATIVE_AFTER
