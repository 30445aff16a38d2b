"""What the speaker says has ended (version 31, from a new user's trial of eight months).

"I stopped doing yoga" wrote ``activity yoga`` (the gerund under *stopped* was read as the
activity done), and "I don't do pottery anymore", "I no longer do pottery", "I gave up
pottery" wrote nothing that closed the ``activity pottery`` held. An ending withdraws the
state it names: the facts the clause would state without the ending are written with
``polarity: false``, and nothing of the clause is written as holding. Only states one holds
and can stop holding are withdrawn so (an activity, a pet, a possession, a tool used, a
subject studied); what happened once (an event attended) is not undone by stopping.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from spacy.tokens import Token

from ingest.distill.english import Clause, _negated, children, of_person, phrases, pobj
from ingest.distill.english_rules import _kind_of, _take_up
from ingest.distill.facts import Fact

Rule = Callable[[Clause], list[Fact]]

# the states an ending withdraws
ENDABLE = frozenset({"activity", "has_pet", "owns", "uses", "studies"})
# verbs that end what they govern: "I stopped / quit / gave up / dropped doing X", "I quit X"
_ENDING = frozenset({"stop", "quit", "drop", "abandon", "ditch"})


def ending_verb(verb: Token) -> bool:
    """ "stopped", "quit", "gave up", "dropped": a verb that ends what it governs."""
    if verb.lemma_ == "give":
        return any(p.lower_ == "up" for p in children(verb, "prt"))
    return verb.lemma_ in _ENDING


def under_ending(verb: Token) -> bool:
    """A gerund an ending verb governs: *doing* in "I stopped doing yoga", *playing* in "I
    gave up playing the cello" (not "I never stopped painting": it goes on)."""
    head = verb.head
    return (
        verb.tag_ == "VBG"
        and head.i != verb.i
        and verb.dep_ in ("xcomp", "dobj", "ccomp")
        and ending_verb(head)
        and not _negated(head)
    )


def no_longer(c: Clause) -> bool:
    """A negation that says something held until now: "I no longer do pottery", "I don't do
    yoga anymore / any more" (a plain "I don't do yoga" says nothing ended)."""
    if not c.negated:
        return False
    for child in c.verb.children:
        if child.lower_ == "anymore":
            return True
        if child.lower_ == "more" and any(a.lower_ == "any" for a in child.children):
            return True
        if child.lower_ == "longer" and any(n.lower_ == "no" for n in child.children):
            return True
    return False


def _withdrawn(facts: Sequence[Fact]) -> list[Fact]:
    return [replace(f, polarity=False) for f in facts if f.predicate in ENDABLE and f.polarity]


def _gone_to(c: Clause) -> list[Fact]:
    """ "I stopped going to the running club", "... to yoga": the activity gone to."""
    target = pobj(c.verb, "to") if c.verb.lemma_ == "go" else None
    if target is None or "activity" not in _kind_of(target):
        return []
    return [c.fact("activity", p, confidence=0.85) for p in phrases(target)]


def ended(c: Clause, found: list[Fact], rules: Sequence[Rule]) -> list[Fact]:
    """The facts of a clause once its ending is read: under an ending verb, only the states
    it would state, withdrawn; ended by "no longer" / "anymore", those states withdrawn
    beside what the rules read of the negation; an ending verb with the activity as its
    object ("I gave up pottery", "I quit the running club") withdraws it too."""
    if not of_person(c):
        return found
    if under_ending(c.verb):
        held = replace(c, negated=False)
        return _withdrawn([*found, *_gone_to(held)])
    if no_longer(c):
        held = replace(c, negated=False)
        return [*found, *_withdrawn([f for rule in rules for f in rule(held)])]
    if ending_verb(c.verb) and not c.negated:
        return [*found, *_withdrawn(_take_up(c))]
    return found
