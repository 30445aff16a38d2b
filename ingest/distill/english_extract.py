"""Facts of one parsed English sentence: clauses through the rules, plans, noun phrases, and
the sentence's times attached to the facts they belong to.

A time phrase belongs to the fact whose verb it hangs from in the parse ("I went to a
conference *two days ago*"); when the sentence has a single time and a single fact-bearing
verb, to that verb. A past time becomes the fact's valid time; a time still ahead turns the
fact into a plan ("I'm moving to Paris next month" is a plan, not where the speaker lives).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import date

from spacy.tokens import Span, Token

from ingest.distill import lexicon as lx
from ingest.distill.dates import Phrase, When, find_times
from ingest.distill.english import (
    Clause,
    children,
    clause,
    gerund,
    in_quotes,
    phrase,
    phrases,
    pobj,
    repair_lemmas,
    repair_opening,
    resolve_subject,
    says_nothing,
    subject_token,
    told_by_another,
    unreal_frame,
    usable,
    verb_above,
    verb_phrase,
    verbs,
    whole_clause,
)
from ingest.distill.english_endings import ended
from ingest.distill.english_frames import framed, taken_back
from ingest.distill.english_nouns import be, lowered, noun_facts, one_unnamed, unowned_condition
from ingest.distill.english_practice import practice_said
from ingest.distill.english_rules import (
    ANY_VERB,
    BY_WORD,
    VERB_RULES,
    ahead,
    liked_only,
    liked_phrases,
    says_ahead,
    unnamed_liking,
)
from ingest.distill.facts import Fact
from ingest.distill.matcher import Matcher
from ingest.distill.objects import technical
from ingest.distill.patterns_en import ENGLISH
from ingest.distill.patterns_en import NOT_VALUES as EN_NOT_VALUES
from ingest.distill.patterns_en import hypothetical as en_hypothetical

NOT_PLANNED = frozenset(
    {
        "keep",
        "stay",
        "do",
        "let",
        "try",
        "make",
        "see",
        "check",
        "ask",
        "tell",
        "talk",
        "believe",
        "get",
        "be",
        "have",
        "think",
        "know",
        "help",
        "find",
        "give",
        "show",
        "update",
        "take",
        "continue",
        "reach",
        "hear",
        "miss",
        "come",
        "send",
        "figure",
        "look",
        "like",
        "love",
        "enjoy",
        "adore",
        "hate",
        "prefer",
        "need",
        "want",
        "wish",
    }
)  # "I will always love jazz" is a liking said of the future, not a plan


def question(text: str) -> bool:
    body = text.rstrip(" \t\"'”’)]）」』")
    return body.endswith(("?", "？"))


def _plan(c: Clause, cut: set[int]) -> list[Fact]:
    """A future clause of the speaker with a concrete complement: "we are going to release
    version 4", "I'm planning to write the postmortem"."""
    if c.who is None or c.who.kind not in ("speaker", "relative") or c.negated:
        return []
    if c.verb.lemma_ in NOT_PLANNED or not children(c.verb, "dobj", "prep", "dative"):
        return []
    vp = verb_phrase(c.verb, cut)
    if not vp or _verb_alone(vp, c.verb):
        return []  # "I'll start at a startup called Nimbus in January": never a bare "start"
    return [Fact(c.who.id, "plans", vp, confidence=0.8 - (0.3 if c.hedged else 0), plan=True)]


def _cannot_wait(verb: Token, speaker: str, cut: set[int]) -> list[Fact]:
    """ "Can't wait for the trip!": a plan of the speaker's own."""
    negated = any(c.dep_ == "neg" for c in verb.children)
    can = any(a.lemma_ == "can" for a in children(verb, "aux"))
    subject = [c for c in verb.children if c.dep_ == "nsubj"]
    if not (negated and can) or (subject and subject[0].lemma_.lower() != "i"):
        return []
    target = pobj(verb, "for")
    if target is not None and "event" in _event_kinds(target):
        return [Fact(speaker, "plans", p, confidence=0.75, plan=True) for p in phrases(target)]
    return []


def _event_kinds(token: Token) -> set[str]:
    return (
        {"event"} if token.lemma_.lower() in lx.EVENTS | {"trip", "vacation", "holiday"} else set()
    )


def _liked_subject(subject: Token | None) -> list[str]:
    if subject is None:
        return []
    if subject.tag_ == "VBG":
        found = gerund(subject) or (whole_clause(subject) if subject.dep_ == "csubj" else None)
        return [g for g in [lowered(subject, found)] if g]
    return phrases(subject)


def _joy(verb: Token, me: bool) -> bool:
    """ "X gives / brings me (so much) joy", "X makes me (so) happy"."""
    if not me or verb.lemma_ not in ("give", "bring", "make"):
        return False
    if verb.lemma_ == "make":
        return any(x.lower_ in lx.HAPPY for x in children(verb, "ccomp", "xcomp", "acomp"))
    return any(o.lemma_ in ("joy", "happiness") for o in children(verb, "dobj"))


def _part_of_me(c: Clause, subject: Token, me: bool) -> bool:
    """An activity named bare as the subject of a clause that says what it is or does to
    the speaker: "Painting has helped me", "swimming has kept me going", "Knitting is a huge
    part of my life", "Dancing is like second nature to me" (the speaker does it). Not what
    it was (a past), not a liking said as joy ("Dancing makes me happy" is a liking only)."""
    verb = c.verb
    if c.negated or verb.tag_ == "VBD" or subject.lower_ not in lx.ACTIVITIES:
        return False
    if subject.dep_ != "nsubj" or children(subject, "det", "poss", "amod", "compound"):
        return False
    if verb.lemma_ in ("make", "give", "bring"):
        return False
    before = {t.i for t in subject.subtree}
    rest = [t for t in verb.subtree if t.i not in before and t.i > subject.i]
    if verb.lemma_ == "be":  # "a part of my life", "second nature to me"
        return any(
            t.lower_ in ("me", "my") and t.head.lower_ in ("to", "life", "for") for t in rest
        ) and not any(t.lemma_ in ("hard", "tough", "difficult", "not") for t in rest)
    if not me:
        return False
    # helped me, or left me in a state: "kept me going", "keeps me sane" (not "scares me")
    return verb.lemma_ == "help" or bool(children(verb, "xcomp", "oprd", "acomp", "ccomp"))


def _special(c: Clause) -> list[Fact]:
    """Verbs whose subject is the fact's object: "Art gives me so much joy", "Dancing makes
    me so happy", "Painting has helped me", "Our backend runs on Go"."""
    verb = c.verb
    subject = c.who.token if c.who and c.who.token.i != verb.i else None
    me = any(t.lower_ == "me" for t in children(verb, "dobj", "dative")) or any(
        t.lower_ == "me" for x in children(verb, "ccomp", "xcomp") for t in children(x, "nsubj")
    )
    speaker = c.speaker
    if _joy(verb, me) and not c.negated:
        liked = _liked_subject(subject_token(verb))
        return [Fact(speaker, "likes", p, confidence=0.8) for p in liked]
    if subject is not None and _part_of_me(c, subject, me):
        return [
            Fact(speaker, "activity", t.lower_, confidence=0.8)
            for t in (subject, *subject.conjuncts)
            if t.lower_ in lx.ACTIVITIES
        ]
    if (
        verb.lemma_ in ("run", "build", "write")
        and subject is not None
        and subject.lemma_ in lx.THING_WORDS
    ):
        mine = any(p.lower_ in ("our", "my") for p in subject.children)
        stack = pobj(verb, "on", "with", "in")
        if mine and stack is not None and technical(stack.text, verb.sent.text):
            return [Fact(speaker, "tech_stack", p, confidence=0.85) for p in phrases(stack)]
    return []


def _clause_facts(verb: Token, speaker: str, asked: bool, cut: set[int]) -> list[Fact]:
    if verb.lemma_ == "wait":
        return _cannot_wait(verb, speaker, cut)
    c = clause(verb, speaker, question=asked)
    if c.blocked:
        return []
    if c.future:  # a clause under "will": only a plan ("... coming up" is one either way)
        return [*(_plan(c, cut) if c.planned else []), *ahead(c)]
    if liked_only(verb):
        return []  # "I enjoy hiking and exploring cities": whether one does it is not said
    if verb.tag_ == "VBG" and verb.dep_ == "xcomp" and verb.head.lemma_ == "try":
        return []  # "I tried writing a story": an attempt (tried), no work on it going on
    rules = [*VERB_RULES.get(verb.lemma_, ()), *BY_WORD.get(verb.lower_, ()), *ANY_VERB]
    alone = not children(verb, "dobj", "prt") and not any(
        p.lower_ in ("for", "into", "to", "out") for p in children(verb, "prep")
    )  # "riding", "running in the park"; not "riding the waves", "running for mayor"
    if (
        verb.tag_ == "VBG"
        and verb.lower_ in lx.ACTIVITIES
        and (
            verb.lemma_ not in VERB_RULES
            or not any(a.lower_ in lx.NOT_DOING for a in verb.children)
        )
        and alone
    ):
        rules.extend(VERB_RULES["paint"])  # a gerund the lemmatizer got wrong ("blogge")
    if verb.lemma_ == "be":
        rules.append(be)
    found = [fact for rule in rules for fact in rule(c)]
    found.extend(_special(c))
    return ended(c, found, rules)  # "I stopped doing yoga", "I don't do X anymore" (version 31)


def _settled_for(speaker: str, asked: bool) -> Callable[[Token], bool]:
    """Whether the clause a noun sits in states something: not asked, wished, planned or
    conditional, and not about starting or looking for the thing ("a place to open my
    studio", "starting my own business")."""

    def settled(token: Token) -> bool:
        if asked:
            return False
        node = verb_above(token)
        if node.lemma_ in ("start", "open", "launch", "create", "search", "find", "look", "build"):
            return False
        c = clause(node, speaker, question=asked)
        return not (c.blocked or c.future) and not any(
            a.lower_ == "to" for a in children(node, "aux")
        )

    return settled


def _governor(token: Token) -> Token | None:
    """The verb a noun hangs from ("This was my Lisbon trip *last year*": the time of the
    copula is the trip's)."""
    node = token
    while node.head.i != node.i:
        node = node.head
        if node.pos_ in ("VERB", "AUX"):
            return node
    return None


def _tokens_at(sentence: Span, phrase: Phrase) -> list[Token]:
    base = sentence.start_char
    return [t for t in sentence if phrase.start <= t.idx - base < phrase.end]


def _anchor(sentence: Span, phrase: Phrase, anchors: set[int]) -> int | None:
    """The fact-bearing verb the time phrase hangs from, if any."""
    tokens = _tokens_at(sentence, phrase)
    if not tokens:
        return None
    node = tokens[0]
    while True:
        if node.i in anchors:
            return node.i
        if node.head.i == node.i:
            return None
        node = node.head


def _ongoing(verb: Token | None) -> bool:
    """A present-tense or progressive clause: "I'm working on X this week" says what holds
    now, not when it began."""
    if verb is None:
        return False
    if verb.tag_ in ("VBP", "VBZ"):
        return True
    return verb.tag_ == "VBG" and any(
        a.lemma_ == "be" and a.tag_ in ("VBP", "VBZ") for a in verb.children
    )


def _progressive(verb: Token | None) -> bool:
    """A clause in the present progressive, or a gerund hanging from one ("I'm training for
    a race in October, running three times a week"): it says what holds now, and a bare
    time read as past there is another clause's, or ahead ("in October" said in June)."""
    node = verb
    while node is not None and node.tag_ == "VBG":
        if any(a.lemma_ == "be" and a.tag_ in ("VBP", "VBZ") for a in node.children):
            return True
        node = node.head if node.dep_ in ("advcl", "xcomp", "conj") and node.head != node else None
    return False


def _habitual(verb: Token | None) -> bool:
    """A verb in the simple present ("I volunteer at X"): what it says is a habit, which a
    past time ("yesterday") cannot date; a parse that hangs one there misplaced it. Not a
    verb whose past is spelled as its present ("I hurt my back on Saturday": the tagger's
    present is the past the time says, version 14)."""
    if verb is None or verb.pos_ != "VERB" or any(a.dep_ == "aux" for a in verb.children):
        return False  # not a copula: "Here's a photo from my trip last year" is dated
    return verb.tag_ == "VBZ" or (verb.tag_ == "VBP" and verb.lower_ not in _SAME_PAST)


# verbs whose simple past is spelled as their present (the tagger may read either)
_SAME_PAST = frozenset({"hurt", "cut", "put", "hit", "quit", "set", "shut", "split", "cost"})


def _dated(
    fact: Fact, when: When | None, today: date, verb: Token | None, cut: set[int], since: bool
) -> Fact | None:
    """The fact with its time: a plan keeps a future time; a past time dates any other fact
    (not the current period of an ongoing clause, unless "since" makes it a start); a time
    still ahead makes a plan of the fact's verb phrase (or drops the time)."""
    if when is None:
        return fact
    if fact.plan:
        keep = when.end() > today
        return replace(fact, when=when if keep else None)
    if when.past(today):
        current = when.start <= today < when.end()
        if _habitual(verb) and not current and not since:
            return fact  # "a shelter I volunteer at": a habit, the past time is another clause's
        if _progressive(verb) and not current and not since:
            return fact  # "I'm training for a race in October": what holds now, not since when
        return fact if current and _ongoing(verb) and not since else replace(fact, when=when)
    if fact.predicate == "status" and fact.object in _AHEAD:
        return replace(fact, when=when, plan=True)  # "scheduled for next Friday": its date
    if verb is None or verb.tag_ == "VBD":
        return fact  # "I signed up for a class that starts next month": the class's time
    vp = verb_phrase(verb, cut)
    if vp and _verb_alone(vp, verb):
        return fact  # "signing up" alone: the time sits in what it is for, cut from the plan
    if vp and fact.subject and fact.predicate not in ("status", "current_version", "owner"):
        return Fact(fact.subject, "plans", vp, confidence=0.75, when=when, plan=True)
    return fact


# statuses that say when something is to happen: a time ahead is part of the status, in
# brackets as a plan's ("scheduled (2026-11-27)"), never a valid time still to come
_AHEAD = frozenset({"scheduled", "delayed", "pending"})


def _verb_alone(vp: str, verb: Token) -> bool:
    """A verb phrase that is the verb and its particles alone ("signing up"): no plan."""
    return len(vp.split()) <= 1 + len(children(verb, "prt"))


def _attach(
    sentence: Span, found: list[tuple[Fact, Token | None]], today: date | None
) -> list[Fact]:
    times = find_times(sentence.text)
    cut = {t.i for p in times for t in _tokens_at(sentence, p)}
    anchors = {verb.i for _, verb in found if verb is not None}
    timed: dict[int, Phrase] = {}
    for time in times:
        at = _anchor(sentence, time, anchors)
        if at is None and len(times) == 1 and len(anchors) == 1:
            at = next(iter(anchors))
        if at is not None:
            timed.setdefault(at, time)
    result: list[tuple[Fact, Token | None]] = []
    for fact, verb in found:
        given = timed.get(verb.i) if verb is not None else None
        forward = given is not None and _said_ahead(sentence, given)
        if fact.ahead_only:
            result.extend((f, verb) for f in _ahead(fact, given, today, verb, forward))
            continue
        if given is None or today is None:
            result.append((fact, verb))
            continue
        since = sentence.text[: given.start].rstrip().lower().endswith("since")
        when = given.resolve(today, future=fact.plan or forward)
        dated = _dated(fact, when, today, verb, cut, since)
        if dated is not None:
            result.append((replace(dated, since=since), verb))
    return _not_yet(result)


def _said_ahead(sentence: Span, time: Phrase) -> bool:
    """Whether the verb a time phrase hangs from tells of what is still ahead ("a class
    that *starts* on the 15th", "I'll call on Tuesday"): a time with no direction of its own
    is then the one to come (version 14); under a past verb ("on the 15th I went") the last."""
    tokens = _tokens_at(sentence, time)
    node = tokens[0] if tokens else None
    while node is not None and node.pos_ not in ("VERB", "AUX"):
        node = node.head if node.head.i != node.i else None
    return node is not None and says_ahead(node)


def _not_yet(found: list[tuple[Fact, Token | None]]) -> list[Fact]:
    """A thing signed up for that a time still ahead makes a plan ("a pottery class that
    starts next month") is no activity taken up, event attended or plan of the signing up
    as well: it has not begun (version 14)."""
    planned = [
        (verb.i, str(f.object).lower()) for f, verb in found if f.ahead_only and verb is not None
    ]
    return [
        f
        for f, verb in found
        if f.ahead_only
        or verb is None
        or not any(at == verb.i and what in str(f.object).lower() for at, what in planned)
    ]


def _ahead(
    fact: Fact, given: Phrase | None, today: date | None, verb: Token | None, forward: bool
) -> list[Fact]:
    """A plan written only when a time still ahead dates it: read as the verb reads it
    ("I signed up for a race in May", said in October, is May past; "next May" is ahead;
    "I start as charge nurse in January" is the January to come), or as the verb the time
    hangs from reads it (``forward``: "a class that starts on the 15th")."""
    if given is None or today is None or verb is None:
        return []
    when = given.resolve(today, future=verb.tag_ != "VBD" or forward)
    return [replace(fact, when=when)] if when is not None and when.start > today else []


_CORE = frozenset(
    {
        "dobj",
        "pobj",
        "compound",
        "amod",
        "nummod",
        "poss",
        "oprd",
        "xcomp",
        "ccomp",
        "acomp",
        "attr",
        "dative",
        "prt",
        "case",
    }
)


def _verb(token: Token) -> bool:
    return token.pos_ in ("VERB", "AUX") and token.tag_ != "VBG"


def _misread_name(token: Token) -> bool:
    """ "React", "Go": a capitalised name inside the sentence the tagger read as a verb."""
    return token.text[:1].isupper() and not token.is_sent_start and token.text.lower() != "i"


def _confirmed(sentence: Span, value: str, after: int) -> str | None:
    """A pattern's object as the parse reads it: the phrase of the span's head, cleaned like
    every object (``the amazing banana split sundae`` -> ``banana split sundae``); None when
    the parse does not confirm the span (see ``_trusted``)."""
    at = sentence.text.find(value, after)
    if at < 0:
        return None
    base = sentence.start_char
    tokens = [t for t in sentence if at <= t.idx - base < at + len(value)]
    if not _trusted(tokens, base + at + len(value)):
        return None
    inside = {t.i for t in tokens}
    heads = [t for t in tokens if t.head.i not in inside or t.head.i == t.i]
    if len(heads) != 1 or (_verb(heads[0]) and _misread_name(heads[0])):
        return value if len(heads) == 1 else None
    if any(t.dep_ == "conj" for t in tokens):
        return None  # a list is the parse's to split
    if heads[0].pos_ not in ("NOUN", "PROPN", "NUM"):
        return value
    if says_nothing(heads[0]):
        return None  # refused as an object ("this app"): not written from a pattern either
    cleaned = phrase(heads[0])
    return cleaned if cleaned is not None and cleaned in value else value


def _head_at(sentence: Span, value: str, after: int) -> Token | None:
    """The one token of the parse that heads a pattern's object, if there is one."""
    at = sentence.text.find(value, after)
    base = sentence.start_char
    tokens = [t for t in sentence if at <= t.idx - base < at + len(value)] if at >= 0 else []
    inside = {t.i for t in tokens}
    heads = [t for t in tokens if t.head.i not in inside or t.head.i == t.i]
    return heads[0] if len(heads) == 1 else None


def _trusted(tokens: list[Token], end: int) -> bool:
    """Whether the parse agrees that a pattern's object (ending at character ``end`` of the
    document) is a clean phrase of the sentence: whole tokens, no pronoun, no verb unless a
    gerund or a misread name, nothing cut off on its right, not ending on a function word."""
    if not tokens or tokens[-1].idx + len(tokens[-1].text) != end:
        return False
    if any(t.pos_ == "PRON" or (_verb(t) and not _misread_name(t)) for t in tokens):
        return False
    inside = {t.i for t in tokens}
    if any(c.dep_ in _CORE and c.i not in inside for t in tokens for c in t.rights):
        return False  # cut inside a phrase: "making" of "making it a habit"
    return usable(tokens) and tokens[0].pos_ not in ("ADP", "CCONJ", "SCONJ", "PART")


def _emphatic_liking(sentence: Span, speaker: str) -> list[Fact]:
    """ "I do love watching X", "I do like X": the small model reads the emphatic *do* as the
    verb and *love* / *like* as its noun or an interjection; the liking is the speaker's."""
    found: list[Fact] = []
    for token in sentence[2:]:
        do, me = token.doc[token.i - 1], token.doc[token.i - 2]
        if token.lower_ not in ("like", "love") or token.pos_ in ("VERB", "ADP"):
            continue
        if do.lower_ not in ("do", "does", "did") or me.lower_ not in ("i", "we"):
            continue
        if any(t.lower_ in ("if", "unless", "whether") for t in sentence if t.i < token.i):
            continue  # "If I do like it, ...": a condition
        gerunds = [g for g in children(token, "xcomp", "dobj", "acl") if g.tag_ == "VBG"]
        liked = [gerund(g) for g in gerunds[:1]]
        nouns = [o for o in children(token, "dobj") if o.tag_ != "VBG"]
        liked.extend(p for o in nouns for p in liked_phrases(o))
        found.extend(Fact(speaker, "likes", p, confidence=0.8) for p in liked if p)
    return found


def _refused(head: Token) -> bool:
    """A liked noun the parse refuses, or a gerund whose object it refuses ("escaping to
    that world" is not "escaping")."""
    if head.tag_ == "VBG" and children(head, "dobj", "prep"):
        return gerund(head) is None
    if head.dep_ == "attr" and head.head.lemma_ == "be" and one_unnamed(head):
        return True  # "My favourite one is a song from a film": which song, it does not say
    return unnamed_liking(head)


def _doubted(sentence: Span, at: int) -> bool:
    """Whether the character ``at`` (of the sentence's text) lies in what a negated "think"
    or "believe" governs: "I don't think I like sushi" states no liking."""
    start = sentence.start_char
    for token in sentence:
        if token.lemma_ not in lx.HEDGE_VERBS or not children(token, "neg"):
            continue
        last = token.right_edge
        if token.idx - start < at <= last.idx + len(last) - start:
            return True
    return False


def _someone_else(head: Token, speaker: str) -> bool:
    """Whether the parse names another subject for the verb a pattern's object hangs from:
    "Lena moved to the payments team" is no move of the speaker's, whatever the pattern
    read."""
    verb = _governor(head)
    subjects = children(verb, "nsubj", "nsubjpass") if verb is not None else []
    if not subjects:
        return False
    who = resolve_subject(subjects[0], speaker)
    return who is None or who.kind != "speaker"


def _quoted_at(sentence: Span, at: int) -> bool:
    """Whether the pattern matched at ``at`` (a character of the sentence) matched words in
    quotation marks: someone's words as said (version 27)."""
    words = sentence.char_span(at, at + 1, alignment_mode="expand")
    return words is not None and any(in_quotes(t) for t in words)


def _pattern_facts(sentence: Span, speaker: str, found: list[Fact]) -> list[Fact]:
    """The English patterns' facts the parse did not give but does confirm."""
    if unreal_frame(sentence):
        return []
    matcher = Matcher(
        sentence.text,
        speaker,
        None,
        rules=ENGLISH,
        hypothetical=en_hypothetical,
        not_values=EN_NOT_VALUES,
    )
    have = {(f.subject, f.predicate, str(f.object).lower()) for f in found}
    kept: list[Fact] = []
    firsts: dict[int, Fact] = {}
    for at, fact in matcher.run():
        firsts.setdefault(at, fact)  # a list is the parse's to split, not a pattern's
    for at, fact in firsts.items():
        value = _confirmed(sentence, str(fact.object), at)
        if value is None or _doubted(sentence, at) or _quoted_at(sentence, at):
            continue
        head = _head_at(sentence, str(fact.object), at)
        if fact.predicate == "likes" and head is not None and _refused(head):
            continue  # what the parse refuses as a liking, no pattern writes either
        if head is not None and (told_by_another(head) or taken_back(head)):
            continue  # "She said I live in a bubble", "... a Benfica fan, just kidding"
        mine = fact.subject == speaker and fact.predicate != "likes"
        if mine and head is not None and _someone_else(head, speaker):
            continue  # (a liking's patterns hold their "I" or "my favourite" themselves)
        fact = replace(fact, object=value)
        key = (fact.subject, fact.predicate, value.lower())
        if key in have:
            continue
        if any(k[:2] == key[:2] and (k[2] in key[2] or key[2] in k[2]) for k in have):
            continue
        have.add(key)
        kept.append(fact)
    return kept


def extract(sentence: Span, speaker: str, today: date | None) -> list[Fact]:
    """The facts of one sentence (a parsed span), said by ``speaker`` on ``today`` (None:
    times are not resolved)."""
    asked = question(sentence.text)
    if framed(sentence, speaker):
        return []  # a hypothesis, another's words passed on, a joke (version 28)
    repair_opening(sentence)
    repair_lemmas(sentence)
    times = find_times(sentence.text)
    cut = {t.i for p in times for t in _tokens_at(sentence, p)}
    found: list[tuple[Fact, Token | None]] = []
    for verb in verbs(sentence):
        found.extend((fact, verb) for fact in _clause_facts(verb, speaker, asked, cut))
    for fact, noun in noun_facts(sentence, speaker, _settled_for(speaker, asked), asked=asked):
        found.append((fact, _governor(noun) if fact.predicate == "visited" else None))
    if not asked:
        found.extend((fact, None) for fact in _emphatic_liking(sentence, speaker))
        found.extend((fact, None) for fact in practice_said(sentence, speaker))
        found.extend((fact, None) for fact, _ in unowned_condition(sentence, speaker))
    facts = _attach(sentence, found, today)
    if not asked:
        facts.extend(_pattern_facts(sentence, speaker, facts))
    unique: dict[tuple[str, str, str, bool], Fact] = {}
    for fact in (_without_time(f, times) for f in facts):
        if not fact.subject or fact.object == "":
            continue
        key = (fact.subject, fact.predicate, _bare(str(fact.object)), fact.polarity)
        kept = unique.get(key)
        worded = str(fact.object) in sentence.text
        if kept is None or (worded and str(kept.object) not in sentence.text):
            unique[key] = fact  # one fact written once, as the sentence words it
        elif kept.when is None and fact.when is not None and not (fact.plan or kept.plan):
            unique[key] = replace(kept, when=fact.when)  # "started running in September"
    return list(unique.values())


_ARTICLES = frozenset({"a", "an", "the"})
_TIME_PREPOSITIONS = ("in ", "on ", "at ", "since ", "by ", "during ", "until ")


def _without_time(fact: Fact, times: list[Phrase]) -> Fact:
    """A fact's object less a time phrase of its sentence: the time is the fact's time,
    never its object ("I started running in March": the activity is ``running``, and no
    event ``March`` was attended); an object that is only the time is no object."""
    if not isinstance(fact.object, str) or not times:
        return fact
    value = fact.object
    for time in times:
        spoken = time.text.lower()
        bare = next((spoken[len(p) :] for p in _TIME_PREPOSITIONS if spoken.startswith(p)), spoken)
        lowered = value.lower()
        if lowered in (spoken, bare, bare.removeprefix("the ")):
            return replace(fact, object="")  # "on the 10th": never the object "10th"
        for tail in (spoken, bare):
            if lowered.endswith(" " + tail):
                value = _DANGLING.sub("", value[: -len(tail) - 1].rstrip(" ,"))
                break
        if fact.plan:
            value = _inner_time(value, bare)
    return fact if value == fact.object else replace(fact, object=value)


# a preposition the time was cut from ("start at DJI on" of "start at DJI on March 24": the
# date phrase is "March 24"; version 32, a new user's trial wrote that plan and "start at DJI"
# beside it, one plan twice)
_DANGLING = re.compile(r"\s+(?:on|in|at|by|from|since|until|during)$", re.IGNORECASE)


def _inner_time(value: str, bare: str) -> str:
    """A plan's object less the time inside it, with its preposition: "start on the first of
    May as a senior product designer" is ``start as a senior product designer`` (the time
    goes in brackets; version 30)."""
    inner = re.compile(
        rf"\s+(?:(?:on|in|at|by|from|since|until)\s+)?{re.escape(bare)}(?=\s+\w)", re.I
    )
    return inner.sub("", value, count=1)


def _bare(value: str) -> str:
    """An object without its articles, in lower case: "helping the community" and
    "helping community" are one fact."""
    return " ".join(w for w in value.lower().split() if w not in _ARTICLES)
