"""Employers joined, held and left, a move in still ahead, a race dropped out of (version 16).

Being *at* an employer is said with the verbs that also take places, events and people ("I'm
at the beach", "I left Paris", "I left Tom", "I joined a book club"), so a clause here writes
``works_at`` only when its phrase names an organisation for certain: a kind of organisation
with its name ("a fintech called Moeda"), a company's name (a proper name with a word such as
*Corp*, *Labs*, *Grid*: "Helios Grid"), or a proper name beside an idiom of employment (a
role, "as a data engineer"; a tenure, "for two years"; "no longer"; "started at"). The small
model's entity recogniser would not tell these apart (it reads "Helios" as a place and
"Moeda" as a person) and is not loaded.
"""

from __future__ import annotations

from spacy.tokens import Token

from ingest.distill import lexicon as lx
from ingest.distill.dates import find_times
from ingest.distill.english import (
    NOT_NAMES,
    Clause,
    broke_up,
    called_name,
    children,
    naming_clauses,
    of_person,
    of_speaker,
    phrase,
    pobj,
    possessed_by_speaker,
)
from ingest.distill.facts import Fact
from ingest.distill.identifiers import relation, relative_id

# words that make a proper name a place, an event or a school, never an employer here
_NOT_ORGS = lx.PLACES | lx.EVENTS | frozenset({"university", "college", "school", "academy"})
_HOMES = frozenset({"apartment", "flat", "house", "home", "place", "condo", "studio"})


def _called(token: Token) -> Token | None:
    """ "a fintech called Moeda": the name a kind of organisation is given."""
    return called_name(token) if token.lemma_.lower() in lx.ORG_NOUNS else None


def _name_words(token: Token) -> list[str]:
    return [t.lower_ for t in token.lefts if t.dep_ == "compound"] + [token.lower_]


def company_name(token: Token) -> bool:
    """A proper name with a company's word after its first ("Helios Grid", "Acme Corp.")."""
    words = _name_words(token)
    return token.pos_ == "PROPN" and any(w in lx.ORG_NAME_WORDS for w in words[1:])


def trade_name(token: Token) -> bool:
    """A proper name whose last word is a kind of business ("Crumb Bakery", "Luna Cafe"):
    a workplace once an idiom of employment, or leaving, quitting or joining, is said of it
    (version 31; "I'm at Luna Cafe" stays a visit)."""
    words = _name_words(token)
    named = [t for t in token.lefts if t.dep_ == "compound" and t.pos_ == "PROPN"]
    return token.pos_ == "PROPN" and bool(named) and words[-1] in lx.TRADES


def _employer(token: Token) -> str | None:
    value = phrase(token)
    if not value or value.lower() in lx.NOT_EMPLOYERS:
        return None
    return value


def organisation(token: Token | None, *, named: bool = False, trade: bool = False) -> str | None:
    """The employer a phrase names for certain (see the module); with ``named`` (an idiom of
    employment beside it), also any other proper name that is no place, event or school;
    with ``named`` or ``trade`` (a verb one leaves or joins a workplace by), a business's
    name ("Crumb Bakery", version 31)."""
    if token is None:
        return None
    name = _called(token)
    if name is not None:
        return _employer(name)
    if company_name(token) or ((named or trade) and trade_name(token)):
        return _employer(token)
    if named and token.pos_ == "PROPN" and not set(_name_words(token)) & _NOT_ORGS:
        return _employer(token)
    return None


# a role named by a head no occupation of its own, with what it leads ("a test lead", "the
# team lead", "tech lead"; version 26, from a new user's trial: "I joined Brightwave Labs as a
# test lead" wrote no works_as); bare, "the lead" is none
_LEAD_ROLES = frozenset({"lead"})


def occupation(role: Token | None) -> bool:
    """Whether a role phrase names an occupation: its head is one, or a lead of something."""
    if role is None:
        return False
    if role.lemma_.lower() in lx.OCCUPATIONS:
        return True
    return role.lemma_.lower() in _LEAD_ROLES and any(
        c.dep_ in ("compound", "amod") for c in role.children
    )


def _role(*holders: Token | None) -> str | None:
    """An occupation after "as" on any of ``holders`` ("as a senior data engineer")."""
    for holder in holders:
        role = pobj(holder, "as") if holder is not None else None
        if role is not None and occupation(role):
            return phrase(role)
    return None


def _holders(target: Token) -> list[Token]:
    """Where the parse may hang "as a Y": the phrase, its "called", the name."""
    called = naming_clauses(target)
    return [target, *called, *(n for a in called for n in children(a, "oprd", "attr", "dobj"))]


def _past(verb: Token) -> bool:
    """A past form; "quit", spelt as its present, which the tagger often reads so ("I quit
    Crumb Bakery": a habit of quitting is no reading, version 31)."""
    plain = verb.lower_ == "quit" and verb.tag_ == "VBP" and not children(verb, "aux")
    return verb.tag_ in ("VBD", "VBN") or plain


def _tenure(verb: Token) -> bool:
    """ "for two years", "since 2019": a time there, as one is at an employer."""
    span = pobj(verb, "for")
    since = pobj(verb, "since")
    return (span is not None and span.lemma_.lower() in lx.TENURES) or (
        since is not None and since.like_num and len(since.text) == 4
    )


def _held(c: Clause, target: Token, *, named: bool, trade: bool = False) -> list[Fact]:
    """works_at the organisation (and works_as the role said with it), polarity as said."""
    role = _role(c.verb, *_holders(target))
    employer = organisation(target, named=named or role is not None, trade=trade)
    if employer is None:
        return []
    found = [c.fact("works_at", employer, confidence=0.85)]
    if role and not c.negated:
        found.append(c.fact("works_as", role, confidence=0.85))
    return found


def at_employer_rule(c: Clause) -> list[Fact]:
    """ "I'm now at a fintech called Moeda as a senior data engineer", "I've been at Stripe
    for two years", "I'm no longer at Acme Corp" (``polarity: false``). Now or up to now
    only ("I was at Google" says nothing of now); a bare place, event or home is no
    employer ("I'm at the beach", "I'm at home")."""
    target = pobj(c.verb, "at")
    if target is None or not of_speaker(c) or c.future or c.verb.tag_ == "VBD":
        return []
    if any(a.tag_ == "VBD" for a in children(c.verb, "aux")):
        return []  # "I had been at X": before some past time
    gone = any(a.lower_ in ("longer", "anymore") for a in c.verb.children)
    if c.negated and not gone:
        return []  # "I'm not at work": no employer left
    return _held(c, target, named=gone or _tenure(c.verb))


def left_employer_rule(c: Clause) -> list[Fact]:
    """ "I left Helios Grid last month", "I quit Acme Corp": the employer no longer held; a
    name that is no company's is not taken ("I left Paris", "I left the party")."""
    if not of_speaker(c) or c.negated or c.future or not _past(c.verb):
        return []
    found = []
    for obj in children(c.verb, "dobj"):
        employer = organisation(obj, trade=c.verb.lemma_ == "quit")  # "I quit Crumb Bakery"
        if employer:
            found.append(c.fact("works_at", employer, polarity=False, confidence=0.85))
        elif c.verb.lemma_ == "leave" and _left_dated(c.verb, obj):
            left = phrase(obj)
            found.extend([c.fact("works_at", left, polarity=False, confidence=0.7)] if left else [])
    return found


_DATING = ("npadvmod", "prep", "advmod")


def _left_dated(verb: Token, name: Token) -> bool:
    """ "I left Fretlog last month" (version 29, a new user's trial: it wrote nothing): a bare
    proper name left at a time the sentence gives is taken for the employer, withdrawn; the
    ledger writes the withdrawal only where that employer is the one held, or none is
    (docs/semantics.md). Never a known place ("I left Paris last month"), a relative ("I left
    Mom at the station") or a name left at no time ("I left Tom")."""
    if name.pos_ != "PROPN" or not name.text[:1].isupper() or children(name, "det", "poss"):
        return False
    value = (phrase(name) or "").lower()
    if not value or value in lx.PLACE_NAMES:
        return False
    if set(_name_words(name)) & _NOT_ORGS and not trade_name(name):
        return False  # "I left Central Park last month"; "Crumb Bakery" is left (version 31)
    if name.lower_ in NOT_NAMES or relation(name.lower_) is not None:
        return False
    dated = [t for t in verb.children if t.dep_ in _DATING and t.i > name.i]
    return any(_timed(x) for t in dated for x in t.subtree)


def offer_declined_rule(c: Clause) -> list[Fact]:
    """ "I declined the Stripe offer", "I turned down an offer from Stripe" (version 27, from a
    new user's trial: an offer accepted, then declined, left ``works_at Stripe`` current for
    good): the employer of the offer not held, as "I left Stripe" says it."""
    verb = c.verb
    if verb.lemma_ == "turn" and not any(p.lower_ == "down" for p in children(verb, "prt")):
        return []
    if not of_speaker(c) or c.negated or c.future or not _past(verb):
        return []
    found: list[Fact] = []
    for offer in children(verb, "dobj"):
        if offer.lemma_ != "offer":
            continue
        named = [t for t in offer.lefts if t.dep_ == "compound" and t.pos_ == "PROPN"]
        employer = pobj(offer, "from") or (named[-1] if named else None)
        name = organisation(employer, named=True)
        if name:
            found.append(c.fact("works_at", name, polarity=False, confidence=0.85))
    return found


def broke_up_rule(c: Clause) -> list[Fact]:
    """ "Tom and I broke up", "I broke up with my boyfriend Tom", "we split up" (version 27,
    from a new user's trial: a breakup wrote nothing, or a current partner named in it): a
    life event, and the partner no longer held (``has_relative <speaker>/partner`` and its
    name, when the sentence gives it, with ``polarity: false``)."""
    verb = c.verb
    if not broke_up(verb) or c.negated or c.future or not _past(verb):
        return []
    subjects = [s for t in children(verb, "nsubj") for s in (t, *t.conjuncts)]
    if not any(s.lower_ in ("i", "we") for s in subjects):
        return []
    partner = relative_id(c.speaker, "partner")
    found = [
        c.fact("life_event", "broke up", subject=c.speaker),
        c.fact("has_relative", partner, subject=c.speaker, polarity=False, confidence=0.85),
    ]
    people = [*subjects, *[p for p in [pobj(verb, "with")] if p is not None]]
    for person in people:
        named = (
            person
            if person.pos_ == "PROPN"
            else next((a for a in children(person, "appos") if a.pos_ == "PROPN"), None)
        )
        if named is not None:
            found.append(
                c.fact("name", named.text, subject=partner, polarity=False, confidence=0.85)
            )
    return found


def last_day_rule(c: Clause) -> list[Fact]:
    """ "My last day at Trip.com was March 14", "Last day at Trip.com was Friday", "Friday
    was my last day at Acme Corp" (version 32, a new user's trial: they wrote nothing and the
    job stayed current): the employer no longer held, ``polarity: false``, dated by the day
    as "I left X last month" is, when the clause names the day. Said in the present ("My last
    day at Trip.com is March 14") the day is still ahead: the job holds until then, so it is
    the plan ``last day at Trip.com (<day>)``, written only when a time ahead dates it, and
    (version 33, from a new user's trial: the job stayed current after the day) beside it the
    employer withdrawn from that day's last second: a read as of any time before finds it."""
    day = _last_day(c.verb)
    if day is None or c.negated:
        return []
    workplace = pobj(day, "at") or pobj(c.verb, "at")  # "Friday was my last day at Acme Corp"
    employer = organisation(workplace, named=True, trade=True)
    if employer is None or not any(_timed(t) for t in c.verb.subtree if t.i not in _span(day)):
        return []  # "my last day at Trip.com was emotional": which day, it does not say
    if c.verb.tag_ == "VBD":
        return [Fact(c.speaker, "works_at", employer, polarity=False, confidence=0.8)]
    if c.verb.tag_ != "VBZ":
        return []
    said = f"last day at {employer}"
    left = Fact(c.speaker, "works_at", employer, False, 0.75, ahead_only=True, ahead=True)
    return [Fact(c.speaker, "plans", said, confidence=0.75, plan=True, ahead_only=True), left]


def _last_day(verb: Token) -> Token | None:
    """The speaker's last day a copula speaks of: "my last day", or "last day" opening the
    sentence with no determiner (chat leaves the "my" out)."""
    if verb.lemma_ != "be":
        return None
    for day in children(verb, "nsubj", "npadvmod", "attr"):
        if day.lemma_ != "day" or not any(
            a.dep_ == "amod" and a.lower_ == "last" for a in day.children
        ):
            continue
        bare = not children(day, "det", "poss") and day.left_edge.is_sent_start
        if possessed_by_speaker(day) or bare:
            return day
    return None


def _span(token: Token) -> set[int]:
    return {t.i for t in token.subtree}


def joined_rule(c: Clause) -> list[Fact]:
    """ "I joined Stripe as a product manager in May", "I joined a startup called Kite": the
    employer joined (the proper name alone with a role: "I joined Parkrun" may be a club);
    past only ("I'm joining Stripe" has not begun, "I'd love to join Google" is a wish)."""
    if not of_speaker(c) or c.negated or c.future or not _past(c.verb):
        return []
    return [
        f for obj in children(c.verb, "dobj") for f in _held(c, obj, named=False, trade=True)
    ]  # "I joined Crumb Bakery in May 2025" (version 31); "I joined Parkrun" is none


def started_at_rule(c: Clause) -> list[Fact]:
    """ "I started at Google last week", "I started as a nurse at St Luke's": a job begun
    (past; "I start at Google in January" is a plan, version 12)."""
    if not of_speaker(c) or c.negated or c.future or not _past(c.verb):
        return []
    role = pobj(c.verb, "as")
    target = pobj(c.verb, "at") or (pobj(role, "at") if role is not None else None)
    if target is not None:
        return _held(c, target, named=True)
    said = _role(c.verb)
    return [c.fact("works_as", said, confidence=0.8)] if said else []


def _timed(token: Token) -> bool:
    """Whether a token lies in a time phrase of its sentence ("in March", "next month")."""
    sent = token.sent
    at = token.idx - sent.start_char
    return any(p.start <= at < p.end for p in find_times(sent.text))


def _home_place(verb: Token) -> str | None:
    """The one named place a home of the sentence is in ("a flat in Campo de Ourique", "we
    bought a house in Alfama": the parse may hang the place on the verb of the home)."""
    places = {
        p.i: p
        for t in verb.sent
        if t.lemma_.lower() in _HOMES
        for p in [pobj(t, "in") or (pobj(t.head, "in") if t.dep_ == "dobj" else None)]
        if p is not None and p.pos_ == "PROPN" and not _timed(p)
    }
    return phrase(next(iter(places.values()))) if len(places) == 1 else None


def _in(verb: Token) -> bool:
    """ "move in", "moving in next month" (the small model may read the time as its object)."""
    return any(
        t.lower_ == "in"
        and (t.dep_ in ("advmod", "prt") or (t.dep_ == "prep" and all(map(_timed, t.children))))
        for t in verb.children
    )


def moving_in_rule(c: Clause) -> list[Fact]:
    """ "We signed the lease for a flat in Campo de Ourique, we move in on December 1st", "we're
    moving in next month": a move still ahead to the place the sentence names, a plan written
    only when a time still ahead dates it (as "we're moving to Berlin", version 12)."""
    if not of_person(c) or c.negated or c.who is None or pobj(c.verb, "to", "into"):
        return []
    inside = _in(c.verb)
    aux = children(c.verb, "aux")
    present = c.verb.tag_ in ("VBP", "VBZ") and not aux
    progressive = c.verb.tag_ == "VBG" and any(a.lemma_ == "be" for a in aux)
    place = _home_place(c.verb) if inside and (present or progressive) else None
    if not place:
        return []
    return [
        Fact(c.who.id, "plans", f"moving to {place}", confidence=0.7, plan=True, ahead_only=True)
    ]


def dropped_out_rule(c: Clause) -> list[Fact]:
    """ "I dropped out of the half marathon": something given up (``dropped``), an event or
    a course; not another's ("my son dropped out" is his)."""
    if not of_speaker(c) or c.negated or c.future or not _past(c.verb):
        return []
    out = next((t for t in c.verb.children if t.lower_ == "out"), None)
    target = (pobj(out, "of") if out is not None else None) or pobj(c.verb, "of")
    value = phrase(target) if target is not None else None
    return [c.fact("dropped", value, confidence=0.85)] if value else []


_WORK_NOUNS = frozenset({"work", "job"})


def work_at_rule(c: Clause) -> list[Fact]:
    """ "Work at Lumora is keeping me busy", "My job at Lumora is stressful": the speaker's
    work at a named employer, as the subject of what the present says of it (version 33,
    from a new user's trial: no ``works_at`` was written). The work is the speaker's by
    "my", or by "me" / "I" in the clause when it has no determiner; never a past ("Work at
    Lumora was hard") or another's ("Her job at Lumora ...")."""
    if c.negated or c.future or c.blocked or c.verb.tag_ in ("VBD", "VBN"):
        return []
    if any(a.tag_ == "VBD" for a in children(c.verb, "aux")):
        return []
    found: list[Fact] = []
    for work in children(c.verb, "nsubj"):
        if work.lemma_.lower() not in _WORK_NOUNS or not _speakers_work(c.verb, work):
            continue
        employer = organisation(pobj(work, "at", "for"), named=True)
        found.extend([Fact(c.speaker, "works_at", employer, confidence=0.8)] if employer else [])
    return found


def _speakers_work(verb: Token, work: Token) -> bool:
    if possessed_by_speaker(work):
        return True
    if children(work, "det", "poss"):
        return False
    return any(t.lower_ in ("me", "i") for t in children(verb, "dobj", "nsubj", "dative"))
