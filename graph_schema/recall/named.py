"""The things a query names, and whether memory holds any mention of them (docs/recall.md,
"Threshold", *Things memory has no record of*).

"What was decided about Kafka?" asks about a thing by its name. When nothing the caller may
see mentions Kafka, nothing can answer it, however close the best turn about other decisions
is. Pure functions, no model, unit-tested in ``tests/unit/test_named.py``:

* :func:`named_terms`: the query's names and identifiers, read from its spelling alone: a
  capitalised word that does not start a sentence ("Kafka", "Google", "Vivaldi"), an acronym
  ("GPU", "HR"), a word in camel case or with ``_`` or ``#`` ("BigQuery", "user_id"), a token
  mixing letters and digits or a dotted version ("p99", "INC-405", "v2.3", "4.9.0"; its
  plural is itself: "A100s" -> ``A100``). Not a name: a word starting a sentence, ``I``, a
  month or weekday ("Wednesdays" too), a title ("Dr."), a number, a
  year, a day or a date (time is read by the time windows, not here), a single letter. A
  hyphenated word without digits is read part by part ("Wars-related" -> "Wars"). A number
  is an identifier when it numbers a thing of work: after ``#`` ("#512") or after one of
  :data:`NUMBERED` ("build 2300", "PR 512", "run 2207", "release 5.2"): "Why did build 2300
  fail?" asks about one build, and build 2291's failure does not answer it; and so is one
  of two or three digits right after a name, its version or model ("Postgres 17").
* :func:`thing_terms`: the words of a thing an agent's work question asks about by common
  nouns ("Who owns the mobile app?", "Which version of the Heron runbook is current?", "Why
  did the email digest job fail?"): in these shapes the thing is named by all its words, so
  each is read as a name is.
* :func:`unheld`: those of the terms that none of the given texts and names holds. A token
  with a digit must be held exactly (``INC-405`` is not ``INC-406``, ``p99`` is not ``p95``);
  a word by its light stem ("Himalayan" / "Himalayas" share one) or by a common prefix of
  at least five letters that leaves at most two letters over in the shorter word ("Europe" /
  "European", "Tennesee" / "Tennessee"), so that a misspelling or another form of the word is
  not read as a new thing. Lenient on purpose: an unheld term refuses the question.
* :func:`sentences_about`: the sentences of some texts that hold given terms, for a detail
  asked of a thing a question names.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable
from dataclasses import dataclass

from graph_schema.recall.query import CJK_RUN, STOP_WORDS, apart, split_sentences, stem

# a sentence boundary, or a token: letters and digits, joined by - . / # + ' inside it
_PIECE = re.compile(r"[.?!]+(?:\s+|$)|\n+|[^\W_](?:[^\W_]|_|[-./#+'\u2019](?=[^\W_]))*")
_WORD = re.compile(r"[^\W_](?:[^\W_]|[-./#+](?=[^\W_]))*")
_TIME = frozenset(
    m.lower()
    for m in (*calendar.month_name, *calendar.month_abbr, *calendar.day_name, *calendar.day_abbr)
    if m
) | {"sept"}
_TITLES = frozenset(
    ["dr", "mr", "mrs", "ms", "mx", "st", "jr", "sr", "prof", "mt", "no", "vs", "etc"]
)
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)?(?:st|nd|rd|th|s|am|pm)?|\d{4}-\d\d(?:-\d\d)?", re.I)
_CODE = re.compile(r"[a-z][A-Z]|[_#]")
# words written in capitals that name a kind of value, not a thing: "the transaction ID",
# "the booking URL" may be spelled "Txn 4471", "the link" by the text that holds them
_KINDS_OF_VALUE = frozenset(
    ["id", "ids", "url", "urls", "pin", "pdf", "eta", "faq", "tbd", "asap", "fyi", "ok", "eod"]
)
# things of work that are told apart by a number: the number after one is an identifier
NUMBERED = frozenset((
    "build", "builds", "pr", "prs", "mr", "issue", "issues", "ticket", "tickets", "incident",
    "bug", "order", "invoice", "run", "job", "sprint", "release", "migration", "task", "story",
    "epic", "rfc", "adr", "step", "patch", "deploy", "deployment", "pipeline", "request",
    "flight"
))  # fmt: skip
_NUMBERS = re.compile(r"\d+(?:\.\d+)*")
_BEFORE_NUMBER = re.compile(r"([^\W\d_]+)\s+#?$")
_COUNTED = re.compile(
    r"\s*(?:%|x\b|times?\b|min|minutes?\b|hours?\b|h\b|days?\b|weeks?\b|months?\b|"
    r"years?\b|seconds?\b|s\b|ms\b|miles?\b|km\b|percent\b|people\b|items?\b)",
    re.I,
)
# an identifier's plural: "A100s", "p99s"; not a numeronym's "s" ("k8s" is no plural of k8)
_PLURAL = re.compile(r"(?<=\d\d)s$")
# a number with a word of scale: "42k", "2.5m", "1bn" (held by "42,000": :func:`unheld_in`)
_SCALED = re.compile(r"(\d+(?:\.\d+)?)(k|m|bn)", re.I)
_SCALES = {"k": 1_000, "m": 1_000_000, "bn": 1_000_000_000}
_CONTRACTION = re.compile(r"['\u2019](s|m|re|ve|ll|d|t)$", re.I)
MIN_PREFIX = 5  # letters a misspelling or another form must share at the start
MAX_REST = 2  # letters the shorter word may have beyond the shared start


def _name_like(part: str, starts_sentence: bool) -> bool:
    low = part.lower()
    timed = low in _TIME or low.removesuffix("s") in _TIME  # "Wednesdays", "Mondays"
    common = low in STOP_WORDS or low in _TITLES or low in _KINDS_OF_VALUE
    if len(part) < 2 or common or timed or part == "I":
        return False
    if _CODE.search(part) or (part.isupper() and part.isalpha()):
        return True
    return part[0].isupper() and not starts_sentence


def _token_terms(token: str, starts_sentence: bool) -> list[str]:
    """The names and identifiers in one token of the query."""
    token = _CONTRACTION.sub("", token).rstrip(".")
    if any(c.isdigit() for c in token):
        token = _PLURAL.sub("", token)  # "A100s" are A100s: the notes say "8x A100"
        has_letters = any(c.isalpha() for c in token)
        is_number = _NUMBER.fullmatch(token) is not None
        return [token] if not is_number and (has_letters or token.count(".") >= 2) else []
    return [p for p in token.split("-") if _name_like(p, starts_sentence)]


def named_terms(text: str) -> list[str]:
    """The names and identifiers ``text`` spells (module docstring), distinct, in order;
    CJK text is skipped (it has no capitals): its Latin words are read as in English."""
    found: dict[str, None] = {}
    latin = CJK_RUN.sub(" , ", text)
    # in CJK text a capital always marks a name, and so it does in a query of keywords
    starts_sentence = latin == text and not keywords(text)
    previous, after_name = "", False
    for match in _PIECE.finditer(latin):
        piece = match.group()
        if not piece[0].isalnum():
            starts_sentence, after_name = previous.lower() not in _TITLES, False
            continue
        terms = _token_terms(piece, starts_sentence)
        if _numbers_a_thing(match, latin) or (after_name and _versions_a_name(match, latin)):
            terms = [piece.rstrip(".")]
        for term in terms:
            found.setdefault(term, None)
        after_name = terms == [piece] and not piece[0].isdigit()
        starts_sentence, previous = False, piece
    return list(found)


MAX_KEYWORDS = 6  # words of the longest query read as keywords rather than a sentence


def keywords(text: str) -> bool:
    """Whether ``text`` is a query of keywords, not a sentence: a few words, no stop word, no
    mark ending a sentence ("Quorvantix latency"). Its first word is capitalised by its
    writer, not by the rule of writing, so :func:`named_terms` reads it as it reads any other
    ("Quorvantix latency" was no query naming a thing, while "What is Quorvantix?" was)."""
    found = _WORD.findall(text)
    return (
        CJK_RUN.search(text) is None
        and 0 < len(found) <= MAX_KEYWORDS
        and re.search(r"[.?!]", text.rstrip(".")) is None
        and not any(w.lower() in STOP_WORDS for w in found)
    )


def _versions_a_name(match: re.Match[str], text: str) -> bool:
    """The piece ``match`` found in ``text``, right after a name, is a whole number of two or
    three digits that is no count: the name's version or model ("Postgres 17", "Windows 11",
    "Boeing 737"), told apart from another by it as a dotted version is ("Trailhead 4.9.0");
    a single digit ("Python 3") or a year ("Coachella 2023") is not."""
    number = match.group()
    after = text[match.end() :]
    return number.isdigit() and len(number) in (2, 3) and _COUNTED.match(after) is None


def _numbers_a_thing(match: re.Match[str], text: str) -> bool:
    """The piece ``match`` found in ``text`` is a number that numbers a thing of work: "#512",
    "build 2300", "PR #512", "release 5.2" (:data:`NUMBERED`, then two digits at least or a
    dotted number, not a count: "the job 10 times", "run 5 miles", "order 2" are no
    identifiers). The text around it is read only for a number."""
    number = match.group().rstrip(".")
    if _NUMBERS.fullmatch(number) is None:
        return False
    before, after = text[: match.start()], text[match.end() :]
    if before.endswith("#"):
        return True
    noun = _BEFORE_NUMBER.search(before)
    counted = _COUNTED.match(after) is not None
    return (
        noun is not None
        and noun.group(1).lower() in NUMBERED
        and not counted
        and (len(number) >= 2 or "." in number)
    )


# An agent's work question about a thing named by common nouns ("Who owns the mobile app?",
# "Which version of the Heron runbook is current?", "Why did the email digest job fail?"):
# the thing is what follows the question's head, up to a verb or time of the question.
_THING_ASKED = re.compile(
    r"^\s*(?:who\s+(?:owns|owned|maintains|handles|leads|is\s+(?:responsible\s+for|the\s+owner\s+of|"
    r"in\s+charge\s+of))|(?:which|what)\s+(?:is\s+the\s+)?(?:current\s+|latest\s+)?"
    r"version\s+of|what\s+(?:is|was)\s+the\s+(?:current\s+)?status\s+of|why\s+did)\s+"
    r"(?P<thing>[^?]+?)"
    r"(?:\s+(?:now|currently|today|fail|failed|break|crash|is|was|were|are|has|had|in|on|at|"
    r"as|after|before|since|during|for|when|by)(?=[\s?]|$)[^?]*)?\s*\?*\s*$",
    re.I,
)
_WHY_FAIL = re.compile(r"^\s*why\s+did\s+.+?\s+(?:fail|break|crash)(?=[\s?]|$)", re.I)
# what a thing cost: "How much did the new mixer cost?" (the thing ends at "cost")
_COST_ASKED = re.compile(
    r"^\s*how\s+much\s+(?:did|does|do|will|would)\s+(?P<thing>[^?]+?)\s+cost(?=[\s?]|$)", re.I
)
# what a thing costs, asked as "How much is the rent for the new flat?" (the thing is what
# follows an article or a possessive; "How much is left?" names none)
_PRICE_ASKED = re.compile(
    r"^\s*how\s+much\s+(?:is|was|are|were)\s+(?P<thing>(?:the|a|an|my|your|his|her|their|our|"
    r"[^\W\d_][\w-]*(?:'s|\u2019s))\s+[^?]+?)\s*\?*\s*$",
    re.I,
)
# words of such a phrase that name no thing of their own
_NOT_THING = frozenset((
    "current", "latest", "new", "old", "now", "last", "first", "next", "this", "that", "these",
    "those", "its", "their", "our", "my", "your", "team",
    # when or how much, not what: "How much were the flights originally, per person?"
    "originally", "initially", "previously", "formerly", "currently", "nowadays", "recently",
    "eventually", "finally", "actually", "exactly", "roughly", "approximately", "altogether",
    "overall", "total",
    # the thing itself, not another: "How much was the alternator itself?"
    "itself", "themselves", "himself", "herself",
))  # fmt: skip


# words after the thing's first word that end it (the comment in :func:`thing_terms`)
_THING_ENDS = frozenset(("per", "before", "after", "since", "during", "until", "excluding",
                         "including", "costing",
                         # a clause of its own: "the prorated charge when they upgraded",
                         # "the signing instalment supposed to be", "the rent going to be"
                         "when", "while", "once", "because", "if", "supposed", "meant",
                         "going",
                         # what it is asked as: "the Fog Harbour job worth in total"
                         "worth"))  # fmt: skip


# "and" before a question word or an auxiliary starts a second question ("How much was the
# filing fee and what's the refund reference?"): the thing ends before it
_ASKS_AGAIN = re.compile(
    r"(?:what|what's|when|who|who's|whom|whose|where|which|why|how|did|does|do|is|was|are|"
    r"were|has|have|had|can|could|will|would)$",
    re.I,
)


# a verb's -ing form with a pronoun after the thing's first word starts a clause of its own
# ("How much are the plane tickets costing us altogether?"): the thing ends before it
_VERB_ING = re.compile(r"[a-z]{2,}ing (?:us|me|you|him|her|them|it)", re.I)


def thing_terms(text: str) -> list[str]:
    """The words of the thing an agent's work question asks about by common nouns: who owns
    it, which version of it, its status, why it failed, what it cost. Each must be held by something
    visible, as a name must ("Who owns the mobile app?" of notes that never say "app").
    Only these question shapes: a thing asked about this way is named by all its words,
    where "What is Maya's hobby?" asks for a word its answer need not hold."""
    found = _THING_ASKED.match(text) or _COST_ASKED.match(text) or _PRICE_ASKED.match(text)
    if found is None or (text.lower().lstrip().startswith("why") and not _WHY_FAIL.match(text)):
        return []
    return terms_of_thing(found["thing"])


def terms_of_thing(thing: str) -> list[str]:
    """The words that name ``thing``, the phrase a question asks about (:func:`thing_terms`):
    up to where a qualifier or a clause of its own starts, without the words that name no
    thing of their own."""
    words = [w.strip("'\u2019") for w in re.findall(r"[^\W\d_][\w'\u2019-]*", thing)]
    end = next(
        (
            i
            for i, w in enumerate(words[1:], 1)
            if w.lower() in _THING_ENDS
            or (i < len(words) - 1 and _VERB_ING.fullmatch(w + " " + words[i + 1]))
            or (i < len(words) - 1 and w.lower() == "and" and _ASKS_AGAIN.match(words[i + 1]))
        ),
        None,
    )
    # "the plane tickets costing us altogether": a clause starts there, as at "and what's
    # ..." (a second question); "the hotel for the
    # wedding per night": a rate's unit, which "$340/night" holds without the word "per";
    # "the walk-in repair before VAT", "the rent after the rise": a qualifier of the sum or
    # of the time, not a word of the thing
    words = words[:end]
    if re.search(r"\d", thing):
        # "the status of ticket LAN-231", "why did build 2300 fail": the kind of a numbered
        # thing is no word of its name; the identifier is (a new user's trial: no note says
        # "ticket", and the question was not_found)
        words = [w for w in words if w.lower() not in NUMBERED]
    parts = [p for w in words for p in w.split("-") if p]
    return [
        p
        for p in dict.fromkeys(parts)
        if len(p) > 1
        and p.lower() not in STOP_WORDS
        and p.lower() not in _NOT_THING
        and not p.lower().endswith(("'s", "\u2019s"))
    ]


@dataclass(frozen=True)
class Vocabulary:
    """The lower-cased words of some texts and names, as :func:`unheld` reads them."""

    words: frozenset[str]
    stems: frozenset[str]

    @classmethod
    def of(cls, texts: Iterable[str]) -> Vocabulary:
        found: set[str] = set()
        for text in texts:
            lowered = apart((text or "").lower())
            found.update(_WORD.findall(lowered))
            found.update(re.findall(r"[^\W_]+", lowered))
        return cls(frozenset(found), frozenset(stem(w) for w in found))

    def holds(self, term: str) -> bool:
        low = term.lower()
        if low in self.words:
            return True
        if any(c.isdigit() for c in low):
            return False
        parts = re.findall(r"[^\W_]+", low)
        if len(parts) > 1:  # "user_id", "Wi.Fi": every part, each its own way
            return all(self.holds(p) for p in parts)
        return stem(low) in self.stems or (len(low) >= MIN_PREFIX and self._near(low))

    def _near(self, low: str) -> bool:
        for word in self.words:
            shared = _shared_start(low, word)
            if shared >= MIN_PREFIX and shared >= min(len(low), len(word)) - MAX_REST:
                return True
        return False


def _shared_start(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def unheld(terms: Iterable[str], vocabulary: Vocabulary) -> list[str]:
    """The ``terms`` that ``vocabulary`` does not hold (:meth:`Vocabulary.holds`), in order."""
    return [t for t in terms if not vocabulary.holds(t)]


def holding(terms: list[str], texts: list[str]) -> list[str]:
    """The texts that hold every one of ``terms`` (:func:`unheld_in`), or all of ``texts``
    when none does or there are no terms: a detail asked of a thing by its name is read where
    the name is ("What's the Comcast account number?"), and anywhere when nothing names it."""
    if not terms:
        return texts
    return [t for t in texts if not unheld_in(terms, [t])] or texts


def unheld_in(terms: list[str], texts: Iterable[str]) -> list[str]:
    """:func:`unheld` over the words of ``texts``; a term found verbatim in them as a whole
    word (case aside) is held without building their vocabulary (most queries name only what
    their candidates say: a speaker, a place); ``INC-40`` is not found in ``INC-405``, nor
    ``HR`` in ``three``."""
    texts = list(texts)
    joined = apart("\n".join(texts).lower())
    rest = [t for t in terms if not any(_verbatim(f, joined) for f in _forms(t))]
    return unheld(rest, Vocabulary.of(texts)) if rest else []


def _forms(term: str) -> list[str]:
    """``term``, and a number with a word of scale written out: "42k" is held by "$42,000"
    or "42000" ("budget started at 42k right?" of "raising the budget from $42,000"); "10k"
    of a race by "10k" only."""
    found = _SCALED.fullmatch(term)
    if found is None:
        return [term]
    value = round(float(found[1]) * _SCALES[found[2].lower()])
    return [term, f"{value:,}", str(value)]


_WHOLE = r"(?<![^\W_]){}(?![^\W_])"


def _verbatim(term: str, joined: str) -> bool:
    return re.search(_WHOLE.format(re.escape(term.lower())), joined) is not None


def sentences_about(terms: list[str], texts: list[str]) -> list[str]:
    """The sentences of ``texts`` that hold every term, each with the sentence after it ("We
    land in Lisbon on the 24th. Arrival is 09:55."), and the later sentences of the same text
    that hold one of the terms again, each with the one after it ("Riverside Community
    Centre, Room B. Ref REC-0518-R. Room hire $180."); all of ``texts`` when no sentence
    holds every term, or when there are no terms (a name nothing holds is the rule of things
    memory has no record of). For a detail a question asks of a thing it names (a time of
    day, :mod:`graph_schema.recall.clock`): a note of bookings gives the time of one and not
    of the other."""
    if not terms:
        return texts
    about = []
    for text in texts:
        sentences = split_sentences(text)
        first = next((i for i, x in enumerate(sentences) if not unheld_in(terms, [x])), None)
        if first is None:
            continue
        for i in range(first, len(sentences)):
            if i == first or len(unheld_in(terms, [sentences[i]])) < len(terms):
                about.append(" ".join(sentences[i : i + 2]))
    return about or texts


# a word of letters (a name's: "Dundas", "SOW", "O'Neill")
_LETTERS = re.compile(r"[^\W\d_][^\W\d_'\u2019]*")
MAX_ACRONYM = 4  # letters of the longest word in capitals read as a name ("SOW", "ROAS")
# what the family calls one of its own, written as a name ("Mum's op", "Dad's car")
_FAMILY = frozenset(
    ["mum", "mom", "dad", "mother", "father", "nana", "nan", "gran", "granny", "grandma", "grandpa",
     "grandad", "granddad", "aunt", "auntie", "uncle"]
)  # fmt: skip


def truecased(query: str, texts: Iterable[str]) -> str:
    """``query`` with each word written in lower case that ``texts`` write only capitalised
    (never in lower case, and at least once inside a sentence) written as they write it: a new
    user asks "whats the booking reference for the dundas street house" of a note that says
    "house on Dundas Street", and the question names Dundas as "What's the booking reference
    for the Dundas Street house?" does (:func:`named_terms`). Left as they are: a word the
    texts also write in lower case ("street") or never hold, a stop word, the query's first
    word, a word the family calls its own ("mum"), a word in capitals of more than
    MAX_ACRONYM letters in the texts ("REFERENCE"), and every word of a query that writes a
    capital anywhere."""
    if query != query.lower():
        return query  # its writer capitalises names
    forms = _written_forms(texts)

    def cased(m: re.Match[str]) -> str:
        word = m.group(0)
        if m.start() == 0 or word in STOP_WORDS or word in _FAMILY:
            return word  # a question's first word; "Mum", a name only to her children
        return forms.get(word, word)

    return _LETTERS.sub(cased, query)


def _written_forms(texts: Iterable[str]) -> dict[str, str]:
    """Each word the texts write only capitalised, lower-cased, with its first form inside a
    sentence; a word they write in lower case anywhere is none of them."""
    forms: dict[str, str | None] = {}
    for text in texts:
        for m in _LETTERS.finditer(text or ""):
            word, key = m.group(0), m.group(0).lower()
            if word == key:
                forms[key] = None
            elif word.isupper() and len(word) > MAX_ACRONYM:
                continue  # a shouted word of a record ("RESCHEDULED", "REFERENCE NUMBER")
            elif key not in forms and _inside_sentence(text, m.start()):
                forms[key] = word
    return {k: v for k, v in forms.items() if v is not None}


def _inside_sentence(text: str, at: int) -> bool:
    """Whether the word at ``at`` follows a word of the sentence written in lower case, a
    number or a comma ("house on Dundas Street", "with Dan, Henrik and me"): not a sentence's
    first word, a heading's or a field's ("Second continuance:", "| Status")."""
    i = at - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    return i >= 0 and i < at - 1 and (text[i].islower() or text[i].isdigit() or text[i] == ",")


# The head nouns of things of work that the word before them tells apart: "the payments
# service" is not "the billing service", "the search deploy" not "the payments deploy", "the
# memory leak" not "the flaky test", "the error rate" not "the p95 latency" (docs/recall.md,
# *Things memory has no record of*, a thing told apart by the word before its head).
COMPOUND_HEADS = frozenset((
    "service", "api", "app", "deploy", "deployment", "rollout", "pipeline", "job", "test",
    "suite", "team", "squad", "doc", "docs", "spec", "runbook", "leak", "outage", "incident",
    "rate", "latency", "cluster", "server", "database", "queue", "endpoint", "dashboard",
    "repo", "migration",
))  # fmt: skip
# the same heads written in Chinese (a modifier of two ideographs before them: 订单服务)
ZH_HEADS = ("服务", "团队", "小组", "部署", "文档", "测试", "泄漏", "泄露", "接口", "集群",
            "数据库", "流水线", "故障", "事故")  # fmt: skip
# words before a head that say its state or its place in time, not which one it is ("the
# failing test", "the whole team", "the other service")
_NOT_MODIFIER = frozenset((
    "other", "same", "whole", "entire", "main", "previous", "recent", "own", "single", "only",
    "big", "small", "slow", "fast", "bad", "good", "broken", "major", "minor", "critical",
    "urgent", "final", "early", "late", "flaky", "weekly", "daily", "nightly", "monthly",
    "whose", "every", "each", "another", "such",
))  # fmt: skip
# a head followed by one of these is a verb ("did the team deploy the fix", "rate it")
_OBJECTS = frozenset(("the", "a", "an", "it", "them", "this", "that", "these", "those", "our",
                      "my", "your", "his", "her", "their", "its", "us", "me", "him"))  # fmt: skip
_ZH_FUNCTION = frozenset(
    "的了是在和与及把被给对从向这那哪个该此每各新旧谁什么吗呢们我你他她它有为让用上下"
)
_LATIN_WORD = re.compile(r"[^\W\d_][\w'\u2019-]*")


@dataclass(frozen=True)
class Compound:
    """A thing of work a question names by a modifier and a head noun ("search deploy")."""

    modifier: str
    head: str


def compounds(text: str) -> list[Compound]:
    """The things of work ``text`` names by a lower-case word before a head noun of
    :data:`COMPOUND_HEADS` ("Why did the search deploy fail?" -> search / deploy), or by two
    ideographs before a head of :data:`ZH_HEADS` ("订单服务的负责人是谁？" -> 订单 / 服务); a
    capitalised modifier is a name (:func:`named_terms`), a word of state is none
    (:data:`_NOT_MODIFIER`), and a head followed by an object is a verb."""
    latin = CJK_RUN.sub(" , ", text)
    words = list(_LATIN_WORD.finditer(latin))
    found: dict[Compound, None] = {}
    for i in range(1, len(words)):
        head, modifier = words[i].group(), words[i - 1].group()
        after = words[i + 1].group().lower() if i + 1 < len(words) else ""
        between = latin[words[i - 1].end() : words[i].start()]
        if (
            (head.lower().removesuffix("s") in COMPOUND_HEADS or head.lower() in COMPOUND_HEADS)
            and between.isspace()
            and _modifies(modifier)
            and after not in _OBJECTS
        ):
            found.setdefault(Compound(modifier, head.lower()), None)
    for head in ZH_HEADS:
        for m in re.finditer(re.escape(head), text):
            before = text[max(0, m.start() - 2) : m.start()]
            if len(before) == 2 and CJK_RUN.fullmatch(before) and not set(before) & _ZH_FUNCTION:
                found.setdefault(Compound(before, head), None)
    return list(found)


def _modifies(word: str) -> bool:
    """Whether ``word``, before a head noun, may tell the thing apart: a lower-case word of
    three letters or more, no stop word, no word of state or of time, no possessive (an
    identifier, "p95", is a name: :func:`named_terms`)."""
    low = word.lower()
    return (
        word == low
        and len(word) >= 3
        and not any(c.isdigit() for c in word)
        and low not in STOP_WORDS
        and low not in _NOT_THING
        and low not in _NOT_MODIFIER
        and low not in _TIME
        and not low.endswith(("ing", "ed", "'s", "\u2019s", "ly"))
    )


def _holds(term: str, texts: list[str]) -> bool:
    """Whether ``texts`` hold ``term``: a Latin word as :func:`unheld_in` reads it, an
    ideograph run as a part of a text (Chinese writes no spaces between words)."""
    if CJK_RUN.search(term):
        return any(term in (t or "") for t in texts)
    return not unheld_in([term], texts)


def unheld_compounds(found: Iterable[Compound], texts: list[str]) -> list[str]:
    """The words of ``found`` that ``texts`` do not hold: a modifier no text holds (it tells
    the thing apart as a name does: "订单" of 订单服务, "memory" of "the memory leak"), with
    its head when no text holds that either ("leak"). A modifier held anywhere is enough,
    with its head or not (a form that asked for both words in one sentence refused seven
    questions of the trials it answered right, "the spindle job" among them:
    docs/recall.md)."""
    missing: dict[str, None] = {}
    for compound in found:
        if _holds(compound.modifier, texts):
            continue
        missing.setdefault(compound.modifier, None)
        if not _holds(compound.head, texts):
            missing.setdefault(compound.head, None)
    return list(missing)
