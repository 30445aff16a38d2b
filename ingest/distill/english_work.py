"""Agent work to facts: what was tried, dropped or decided; who owns a thing (named, the
speaker, or whom it was handed over to); a thing's state and its current version.

The rules of :data:`ingest.distill.english_rules.VERB_RULES` for the agent-work predicates
(``tried``, ``dropped``, ``decided``, ``owner``, ``status``, ``current_version``; a job quit
is a ``life_event``). A thing is named as one ("the migration", "our app", "Build 1842"): a
clause about anything else writes none of them.
"""

from __future__ import annotations

import re

from spacy.tokens import Token

from ingest.distill import lexicon as lx
from ingest.distill.english import (
    Clause,
    children,
    gerund,
    of_person,
    phrase,
    phrases,
    pobj,
    relative_of,
    speakers_own,
    verb_phrase,
)
from ingest.distill.english_jobs import organisation
from ingest.distill.facts import Fact


def tried_rule(c: Clause) -> list[Fact]:
    """I tried X, tried my hand at X (not "try to": an attempt is not a thing tried); "I've
    never tried mountain climbing" (version 22): a thing not tried, with its polarity."""
    if not of_person(c) or c.future or (c.negated and c.verb.tag_ not in ("VBD", "VBN")):
        return []
    found: list[str] = []
    for obj in children(c.verb, "dobj", "xcomp"):
        tried = (pobj(obj, "at") or pobj(c.verb, "at")) if obj.lemma_ == "hand" else None
        if tried is not None:  # "I tried my hand at pottery"
            found.extend([gerund(tried) or ""] if tried.tag_ == "VBG" else phrases(tried))
        elif obj.lemma_ == "hand":
            continue
        elif obj.tag_ == "VBG":
            found.append(gerund(obj) or "")
        elif obj.dep_ == "dobj":
            found.extend(phrases(obj))
    return [c.fact("tried", f, polarity=not c.negated) for f in found if f]


def dropped_rule(c: Clause) -> list[Fact]:
    """We dropped / gave up on / abandoned / quit X (a job quit is a life event)."""
    lemma = c.verb.lemma_
    particle = any(p.lower_ == "up" for p in children(c.verb, "prt"))
    if not of_person(c) or c.negated or (lemma == "give" and not particle):
        return []
    target = children(c.verb, "dobj") or [t for t in [pobj(c.verb, "on")] if t is not None]
    target = [_referent(c.verb, t) for t in target]
    if lemma == "give" and (not target or target[0].lower_ in ("hope", "up")):
        return []
    if lemma == "quit" and target and target[0].lemma_ in _JOBS:
        return left_job_rule(c)
    if lemma == "quit" and target and organisation(target[0], trade=True):
        return []  # "I quit Acme Corp": an employer left (version 16), not a tool given up
    return [c.fact("dropped", p) for t in target for p in _dropped(t)]


_JOBS = frozenset({"job", "position", "role"})


def _referent(verb: Token, target: Token) -> Token:
    """ "it" / "them" given up in a verb joined to one whose object it stands for: "We tried
    pytest-rerunfailures and dropped it" dropped what was tried (version 33, from a new
    user's trial: the ``dropped`` was lost)."""
    if target.lower_ not in ("it", "them") or verb.dep_ != "conj":
        return target
    before = children(verb.head, "dobj")
    return before[0] if len(before) == 1 and before[0].pos_ != "PRON" else target


def left_job_rule(c: Clause) -> list[Fact]:
    """ "I quit my job at the bank", "I left my job": a life event (as "lost my job" is), not
    a job given up as one gives up a tool."""
    if not of_person(c) or c.negated or c.verb.tag_ not in ("VBD", "VBN"):
        return []
    if not any(o.lemma_ in _JOBS and speakers_own(o) for o in children(c.verb, "dobj")):
        return []
    return [c.fact("life_event", "quit job" if c.verb.lemma_ == "quit" else "left job")]


def _dropped(target: Token) -> list[str]:
    """What was given up; a plan or idea with what it was ("We dropped the plan to migrate
    to MongoDB", "the idea of building an app"), never the bare word `plan`."""
    if target.lemma_.lower() not in lx.PLAN_NOUNS | {"idea"}:
        return phrases(target)
    for acl in children(target, "acl", "relcl"):
        vp = verb_phrase(acl, set()) if children(acl, "aux") else None
        if vp:
            return [f"{target.lower_} to {vp}"]
    doing = pobj(target, "of")
    what = gerund(doing) if doing is not None and doing.tag_ == "VBG" else None
    return [f"{target.lower_} of {what}"] if what else []


def decided_rule(c: Clause) -> list[Fact]:
    """we decided to X / on X; "we're still deciding on X" is a decision not yet taken."""
    if not of_person(c) or c.negated or c.verb.tag_ not in ("VBD", "VBN"):
        return []
    for comp in children(c.verb, "xcomp"):
        vp = verb_phrase(comp, set())
        return [c.fact("decided", vp)] if vp else []
    target = pobj(c.verb, "on")
    if target is None:
        return _decided_against(c)
    return [c.fact("decided", p) for p in phrases(target)]


def _decided_against(c: Clause) -> list[Fact]:
    """ "We decided against using Kafka": the decision with its "against"."""
    target = pobj(c.verb, "against")
    if target is None:
        return []
    what = gerund(target) if target.tag_ == "VBG" else phrase(target)
    return [c.fact("decided", f"against {what}")] if what else []


def handed_rule(c: Clause) -> list[Fact]:
    """ "The on-call rotation was handed over to Priya", "I assigned the ticket to Sam": who
    owns the thing now (a named person, or "me": the speaker)."""
    if c.negated or c.verb.tag_ not in ("VBD", "VBN", "VBZ"):
        return []
    to = pobj(c.verb, "to")
    if to is None or not (to.pos_ == "PROPN" or to.lower_ == "me"):
        return []
    owner = c.speaker if to.lower_ == "me" else phrase(to)
    passive = children(c.verb, "auxpass")
    things = children(c.verb, "nsubjpass") if passive else children(c.verb, "dobj")
    return [
        c.fact("owner", owner, subject=thing, confidence=0.8)
        for t in things
        if owner and named_thing(t)
        for thing in [phrase(t)]
        if thing
    ]


def took_over_rule(c: Clause) -> list[Fact]:
    """ "Kofi takes over the replicas from Monday", "I took over the on-call rotation": who
    owns the thing now (as a hand-over says it from the other side)."""
    if not any(p.lower_ == "over" for p in children(c.verb, "prt")):
        return []
    return owner_rule(c, bare=True)


def owner_rule(c: Clause, bare: bool = False) -> list[Fact]:
    """Alice owns / maintains / is responsible for the billing service. ``bare``: a thing
    taken over may be a compound without a determiner ("Sana takes over feature engineering",
    version 19: a duty, never a generic thing as "Alice owns cars" would read)."""
    if children(c.verb, "auxpass"):
        return owned_by_rule(c)
    if c.who is None or c.who.kind not in ("person", "speaker") or c.negated:
        return []
    owner = c.who.id
    targets = children(c.verb, "dobj") or [t for t in [pobj(c.verb, "for", "of")] if t is not None]
    found = []
    for target in targets:
        thing = phrase(target)
        if thing and (named_thing(target) or (bare and _compound(target))):
            found.append(c.fact("owner", owner, subject=thing, confidence=0.85))
    return found


def owned_by_rule(c: Clause) -> list[Fact]:
    """ "The billing service is owned by Frank", "... maintained by me": the passive says
    who owns the thing as the active does (version 33, from a new user's trial: only "Frank
    owns the billing service" wrote the owner)."""
    by = pobj(c.verb, "by")
    if c.negated or c.future or by is None or not (by.pos_ == "PROPN" or by.lower_ == "me"):
        return []
    owner = c.speaker if by.lower_ == "me" else phrase(by)
    return [
        c.fact("owner", owner, subject=thing, confidence=0.85)
        for t in children(c.verb, "nsubjpass")
        if owner and named_thing(t)
        for thing in [phrase(t)]
        if thing
    ]


def _compound(token: Token) -> bool:
    """A noun with a noun before it and no determiner: "feature engineering", "on-call
    rotation"."""
    return (
        token.pos_ == "NOUN"
        and any(n.dep_ == "compound" for n in token.children)
        and not any(n.dep_ in ("det", "poss") for n in token.children)
    )


def named_thing(token: Token) -> bool:
    """A thing named as one: "the migration", "our app", or numbered ("Build 1842", "PR
    512", "ticket 88": a tool's report names its things so)."""
    if token.pos_ != "NOUN" or relative_of(token, "") is not None:
        return False
    return any(det.lower_ in ("the", "our", "this", "that") for det in token.children) or any(
        n.dep_ == "nummod" and n.i == token.i + 1 for n in token.children
    )


def status_verb_rule(c: Clause) -> list[Fact]:
    """The migration finished last Friday; Build 1842 failed; the nightly build passed."""
    if c.who is None or c.who.kind != "thing" or c.negated or not named_thing(c.who.token):
        return []
    if c.verb.tag_ not in ("VBD", "VBN", "VBZ"):
        return []
    lemma = c.verb.lemma_.lower()
    if lemma == "pass" and c.who.token.lemma_.lower() not in lx.CHECKS:
        return []  # "the week passed": time goes by, no check passed
    return [c.fact("status", lx.STATUS_VERBS[lemma], confidence=0.85)]


def status_word_rule(c: Clause) -> list[Fact]:
    """The contract renewal is still pending; the payment migration is blocked; never the
    doer of a verb with an object (version 22: "the campsite cancelled our booking" says
    what became of the booking, not of the campsite)."""
    if c.who is None or c.who.kind != "thing" or c.negated or not named_thing(c.who.token):
        return []
    if c.verb.tag_ in ("VBD", "VBZ", "VBP") and children(c.verb, "dobj"):
        return []
    return [c.fact("status", c.verb.lower_, confidence=0.85)]


_VERSION_NUMBER = re.compile(r"^v?\d+(?:\.\d+)*[a-z]?$", re.IGNORECASE)


def version_value(text: str | None) -> str | None:
    """ "version 3.2" -> "3.2", as "v3.2" and "3.3" are written: one spelling per version, so
    that a later version is told from an earlier one by its value alone; "third revision"
    stays."""
    if text is None:
        return None
    word, _, rest = text.partition(" ")
    if word.lower() in lx.VERSION_WORDS and rest and _VERSION_NUMBER.match(rest):
        return rest
    return text


def update_rule(c: Clause) -> list[Fact]:
    """I updated the API doc to v4."""
    if not of_person(c):
        return []
    version = pobj(c.verb, "to")
    value = version_value(phrase(version)) if version is not None else None
    found = []
    for obj in children(c.verb, "dobj"):
        thing = phrase(obj)
        if thing and value:
            found.append(c.fact("current_version", value, subject=thing, confidence=0.85))
    return found
