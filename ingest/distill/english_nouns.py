"""English facts carried by a copula or by a noun phrase alone.

* ``be``: "I'm a teacher", "I'm a big fan of pottery", "I'm allergic to X", "I'm from X",
  "my name is X", "my favourite X is Y", "my goal is to X"; and for things: "the migration
  is blocked", "the current version of the spec is v2.3", "Bob is the owner of the scripts".
* A possessive alone: "my dad", "our dog", "my friend Anna" (a relation), "my clothing
  store" (a business of one's own), "my allergies" (a condition), "my favourite novels".
"""

from __future__ import annotations

import re
from collections.abc import Callable

from spacy.tokens import Span, Token

from ingest.distill import lexicon as lx
from ingest.distill.english import (
    DEMONSTRATIVES,
    KIND_ONLY,
    TIME_NOUNS,
    Clause,
    broke_up,
    children,
    first_person,
    gerund,
    name_of,
    phrase,
    phrases,
    pobj,
    possessed_by_speaker,
    relative_of,
    subject_token,
    text_of,
    verb_above,
    verb_phrase,
)
from ingest.distill.english_rules import employers, liked_phrases, past_state, unnamed_liking
from ingest.distill.english_work import version_value
from ingest.distill.facts import Fact
from ingest.distill.identifiers import relation, relative_id

_VERSION_SHAPE = re.compile(r"^v?\d+(?:\.\d+)*\w*$|\.\w{1,4}$|^v\d", re.IGNORECASE)


def _complement(verb: Token) -> Token | None:
    found = children(verb, "attr", "acomp", "oprd")
    return found[0] if found else None


def be(c: Clause) -> list[Fact]:
    """Facts of a copular clause (see the module docstring)."""
    subject = subject_token(c.verb)
    if subject is None:
        return []
    if (
        possessed_by_speaker(subject)
        and subject.lemma_ in ("name", "nickname", "goal", "plan", "dream", "aim")
    ) or (
        possessed_by_speaker(subject) and any(a.lower_ in lx.FAVOURITE for a in subject.children)
    ):
        return _my_noun(c, subject)
    mine = _my_passion(c, subject)
    if mine:
        return mine
    if c.who is None:
        return []
    if c.who.kind == "speaker":  # "I'm responsible for the search service"
        return _person_is(c) or _owner_is(c)
    if c.who.kind == "relative":
        return _person_is(c)
    if c.who.kind == "person":
        return _owner_is(c)
    return _thing_is(c, subject)


def _named(subject: Token) -> list[str]:
    if subject.tag_ == "VBG":
        return [g for g in [lowered(subject, gerund(subject))] if g]
    return phrases(subject)


def lowered(token: Token, text: str | None) -> str | None:
    """A gerund opening the sentence, in lower case ("Creating stories" -> "creating ...")."""
    if text and token.is_sent_start and token.pos_ == "VERB":
        return text[:1].lower() + text[1:]
    return text


def _for_me(token: Token) -> bool:
    return any(o.lower_ == "me" for p in children(token, "prep") for o in children(p, "pobj"))


def _owned_thing(token: Token) -> bool:
    """ "These are my running shoes": a possession of the lexicon, shown."""
    return token.lemma_.lower() in lx.POSSESSIONS or token.lower_ in lx.POSSESSIONS


def _i_like(token: Token) -> bool:
    return any(
        r.dep_ == "relcl"
        and r.lemma_ in ("enjoy", "love", "like")
        and not any(n.dep_ == "neg" for n in r.children)
        and any(first_person(s) for s in children(r, "nsubj"))
        for r in token.children
    )


def _my_passion(c: Clause, subject: Token) -> list[Fact]:
    """ "Chess is my passion" (a liking), "Tennis is my thing" (an activity), "Yoga has been
    great for me" (an activity: a practice the speaker speaks of having)."""
    comp = _complement(c.verb)
    if comp is None or c.negated or first_person(subject) or possessed_by_speaker(subject):
        return []
    top = comp.lemma_ == "pick" and any(a.lower_ == "top" for a in comp.children)
    if (
        possessed_by_speaker(comp)
        and (comp.lower_ in lx.FAVOURITE or top)
        and c.verb.tag_ in ("VBZ", "VBP")
    ):
        return [Fact(c.speaker, "likes", p, confidence=0.8) for p in _named(subject)]
    if _favourite_of_mine(comp) and _present(c.verb) and _plainly_named(subject):
        return [Fact(c.speaker, "likes", p, confidence=0.8) for p in _named(subject)]
    if (
        possessed_by_speaker(comp)
        and comp.lemma_ in ("passion", "thing")
        and c.verb.tag_ in ("VBZ", "VBP")
    ):
        predicate = "likes" if comp.lemma_ == "passion" else "activity"
        return [Fact(c.speaker, predicate, p, confidence=0.8) for p in _named(subject)]
    if possessed_by_speaker(comp) and subject.lower_ in ("this", "these") and _owned_thing(comp):
        return [Fact(c.speaker, "owns", p, confidence=0.8) for p in phrases(comp)]
    if comp.lemma_ in ("something", "one") and _i_like(comp):  # "X is something I enjoy"
        return [Fact(c.speaker, "likes", p, confidence=0.8) for p in _named(subject)]
    good = comp.pos_ == "ADJ" and comp.lower_ in lx.EVALUATIVE
    if good and (_for_me(comp) or _for_me(c.verb)) and subject.lower_ in lx.ACTIVITIES:
        return [Fact(c.speaker, "activity", subject.lower_, confidence=0.8)]
    return []


def _favourite_of_mine(comp: Token) -> bool:
    """Version 20: "X is one of my favourites / favourite cities", "X has always been a
    favourite of mine": the subject is liked."""
    if comp.lemma_ == "one":
        kind = pobj(comp, "of")
        return (
            kind is not None
            and (
                (kind.lemma_.lower() in lx.FAVOURITE or kind.lower_ in lx.FAVOURITE)
                or any(a.lower_ in lx.FAVOURITE for a in kind.children)
            )
            and possessed_by_speaker(kind)
        )
    mine = pobj(comp, "of")
    return comp.lemma_.lower() in lx.FAVOURITE and mine is not None and mine.lower_ == "mine"


def _plainly_named(subject: Token) -> bool:
    """Not a demonstrative ("This trilogy is one of my faves": which, an image shows), nor
    a word cut off by a hyphen ("Spider" of "Spider-Man")."""
    if subject.lower_ in DEMONSTRATIVES or any(
        d.lower_ in DEMONSTRATIVES for d in children(subject, "det")
    ):
        return False
    return not (subject.i + 1 < len(subject.doc) and subject.nbor().tag_ == "HYPH")


def _present(verb: Token) -> bool:
    """A present ("is"), or a present perfect ("has always been")."""
    return verb.tag_ in ("VBZ", "VBP") or (
        verb.tag_ == "VBN" and any(a.lower_ in ("has", "have") for a in children(verb, "aux"))
    )


def _my_noun(c: Clause, subject: Token) -> list[Fact]:
    speaker = c.speaker
    comp = _complement(c.verb)
    if subject.lemma_ in ("name", "nickname") and comp is not None and comp.pos_ == "PROPN":
        said = "name" if subject.lemma_ == "name" else "alias"  # version 29: a nickname
        return [Fact(speaker, said, text_of([*comp.lefts, comp]), confidence=0.9)]
    if subject.lemma_ in lx.PLAN_NOUNS:
        if subject.lemma_ not in lx.PLANNED or c.verb.tag_ not in ("VBZ", "VBP"):
            return []  # "my dream is to ...", "my aim was to ...": a wish, or a plan no more
        steps = [x for x in children(c.verb, "xcomp") if x.pos_ == "VERB"]
        vp = verb_phrase(steps[0], set()) if steps else None
        return [Fact(speaker, "plans", vp, confidence=0.8, plan=True)] if vp else []
    if comp is not None and not c.negated and not one_unnamed(comp) and not unnamed_liking(comp):
        return [Fact(speaker, "likes", p, confidence=0.85) for p in phrases(comp)]
    return []


def one_unnamed(comp: Token) -> bool:
    """ "my favourite one is a theme from a film": one thing with an indefinite article,
    not named; liking it says nothing of liking themes."""
    return comp.pos_ == "NOUN" and any(d.lower_ in ("a", "an") for d in children(comp, "det"))


def _my_subject(c: Clause) -> str:
    return c.who.id if c.who else ""


def _person_is(c: Clause) -> list[Fact]:
    comp = _complement(c.verb)
    found: list[Fact] = []
    if comp is not None and comp.lemma_ == "fan":
        liked = pobj(comp, "of")
        if liked is not None:
            found.extend(c.fact("likes", p, confidence=0.85) for p in phrases(liked))
        else:
            found.extend(
                c.fact("likes", x.text, confidence=0.8) for x in children(comp, "compound")
            )
        more = [phrase(x) for x in comp.conjuncts if x.pos_ == "NOUN"]  # "..., as well as X"
        found.extend(c.fact("likes", p, confidence=0.8) for p in more if p)
    elif (
        comp is not None
        and comp.lemma_.lower() in lx.OCCUPATIONS
        and comp.tag_ != "NNS"
        and not any(d.lower_ == "no" for d in comp.children)  # "I'm no writer"
    ):
        found.extend(_occupation(c, comp) if not _no_occupation(c.verb, comp) else [])
    elif comp is not None and comp.lower_ == "allergic":
        allergen = pobj(comp, "to")
        found.extend(c.fact("allergic_to", p) for p in phrases(allergen) if allergen is not None)
    elif comp is not None and comp.lower_ == "involved" and not c.negated:
        work = pobj(comp, "in", "with")  # "I've been involved in charity work"
        found.extend(c.fact("activity", p, confidence=0.8) for p in phrases(work) if work)
    elif comp is not None and comp.lower_ in ("passionate", "crazy", "keen"):
        liked = pobj(comp, "about", "on")
        if liked is not None and liked.pos_ in ("NOUN", "PROPN"):
            found.extend(c.fact("likes", p, confidence=0.8) for p in liked_phrases(liked))
    else:
        found.extend(_person_prep(c))
    return found


# a word that judges how well one does a thing, not what one does for a living
_JUDGED = frozenset(
    {"terrible", "awful", "bad", "horrible", "lousy", "poor", "hopeless", "useless", "decent"}
    | {"good", "great", "amazing", "excellent", "fantastic", "brilliant", "natural", "better"}
    | {"worse", "worst", "best", "mediocre", "average", "okay", "ok", "crap", "crappy"}
)


def _no_occupation(verb: Token, comp: Token) -> bool:
    """ "I was a teacher" (then, not now) and "I'm a terrible cook" (a judgement of a skill):
    no occupation held (version 28)."""
    if past_state(verb):
        return True
    return any(a.dep_ == "amod" and a.lower_ in _JUDGED for a in comp.children)


def _occupation(c: Clause, comp: Token) -> list[Fact]:
    found = [c.fact("works_as", p) for p in phrases(comp)[:1]]
    employer = pobj(comp, "at", "for") or pobj(c.verb, "at", "for")
    found.extend(c.fact("works_at", p, confidence=0.85) for p in employers(employer)[:1])
    return found


def _person_prep(c: Clause) -> list[Fact]:
    place = pobj(c.verb, "in", "at") if c.verb.tag_ == "VBD" else None
    if place is not None and (place.pos_ == "PROPN" or place.lemma_.lower() in lx.PLACES):
        return [c.fact("visited", p, confidence=0.8) for p in phrases(place)]  # "I was in Rome"
    liked = pobj(c.verb, "into")
    if liked is not None:
        return [c.fact("likes", p, confidence=0.8) for p in phrases(liked)]
    origin = pobj(c.verb, "from")
    if origin is not None and origin.pos_ == "PROPN" and phrase(origin):
        return [c.fact("comes_from", phrase(origin) or "", confidence=0.85)]
    return []


def _owner_is(c: Clause) -> list[Fact]:
    """Bob is the owner of / responsible for / in charge of the deploy scripts."""
    comp = _complement(c.verb)
    target = None
    if comp is not None and comp.lemma_ == "owner":
        target = pobj(comp, "of")
    elif comp is not None and comp.lower_ == "responsible":
        target = pobj(comp, "for")
    else:
        charge = pobj(c.verb, "in")
        target = pobj(charge, "of") if charge is not None and charge.lemma_ == "charge" else None
    thing = phrase(target) if target is not None else None
    if not thing or c.negated or c.who is None:
        return []
    return [c.fact("owner", c.who.id, subject=thing, confidence=0.85)]


def _thing_is(c: Clause, subject: Token) -> list[Fact]:
    """The state or the current version of a thing."""
    if not any(d.lower_ in ("the", "our", "this", "that") for d in subject.children):
        return []
    if subject.lemma_ in lx.VERSION_WORDS and any(
        a.lower_ in ("current", "latest", "newest") for a in subject.children
    ):
        doc = pobj(subject, "of")
        comp = _complement(c.verb)
        name = _cut_name(doc, c.verb) if doc is not None else None
        if comp is not None and name:
            value = version_value(text_of(list(comp.subtree)).rstrip(".")) or ""
            return [c.fact("current_version", value, subject=name, confidence=0.85)]
        return []
    version = pobj(c.verb, "on", "at")
    if version is not None and version.lemma_ in lx.VERSION_WORDS:
        written = version_value(phrase(version))
        return [c.fact("current_version", written, confidence=0.85)] if written else []
    return _status(c)


def _cut_name(doc: Token, verb: Token) -> str | None:
    """The thing's name, with the noun right after it that the parse cut off and hung on the
    verb as a second subject: "The current version of the design doc is v3" (version 33, from
    a new user's trial: the small model read *doc* as a proper noun, subject of *is*, and the
    thing was ``design``)."""
    name = phrase(doc, keep_of=False)
    after = doc.doc[doc.i + 1] if doc.i + 1 < len(doc.doc) else None
    cut = after is not None and after.head.i == verb.i and after.dep_ == "nsubj"
    if name and after is not None and cut and after.pos_ in ("NOUN", "PROPN"):
        return name if list(after.children) else f"{name} {after.text}"
    return name


def _status(c: Clause) -> list[Fact]:
    for child in c.verb.children:
        word = child.lower_
        if child.dep_ in ("acomp", "attr", "advmod", "oprd") and word in lx.STATUSES:
            return [c.fact("status", word, confidence=0.85)]
        if child.dep_ == "prep" and word in ("in", "on"):
            objects = children(child, "pobj")
            if objects and objects[0].lower_ in ("progress", "hold"):
                return [c.fact("status", f"{word} {objects[0].lower_}", confidence=0.85)]
    return []


def version_shape(text: str) -> bool:
    return bool(_VERSION_SHAPE.search(text))


# --- noun phrases on their own ----------------------------------------------------------------


def _real(token: Token) -> bool:
    """A possession that exists: not an ideal or future one, not the object of something
    still to be done ("a place to open my studio")."""
    if any(a.lower_ in lx.ASPIRATIONAL for a in token.children):
        return False
    head = token.head
    return not any(a.lower_ == "to" and a.dep_ == "aux" for a in head.children)


def _workplace(token: Token) -> bool:
    """ "My company lets me work remotely": a bare "my company" is where one works as often
    as what one owns, so it is no possession (version 30, a new user's trial wrote `owns
    company` of an employee); "my own company", "my cleaning company" are kept."""
    if token.lemma_.lower() != "company":
        return False
    return all(c.dep_ in ("poss", "det") for c in token.lefts)


def _favourite(token: Token) -> bool:
    """ "my favourite fantasy novels": plural, so a kind of thing liked, not one photo of it;
    not in "X is one of my favourite novels", where the liked thing is X, not the kind."""
    marked = any(a.lower_ in lx.FAVOURITE for a in token.children)
    return (
        marked
        and token.tag_ in ("NNS", "NNPS")
        and token.dep_ not in ("nsubj", "attr")
        and not _one_of(token)
    )


def _one_of(token: Token) -> bool:
    """ "one of my favourite Ys" said of something by a copula (its subject or its
    complement): the noun names the kind the thing belongs to."""
    of = token.head
    if token.dep_ != "pobj" or of.lower_ != "of" or of.head.lemma_.lower() != "one":
        return False
    one = of.head
    return one.dep_ in ("attr", "nsubj") and one.head.lemma_ == "be"


def _single_role_name(token: Token, who: str) -> list[Fact]:
    """The name a one-holder role is given ("my girlfriend Ines"): its identifier never takes
    a name (``Leo/partner``, the same person however named), so the name is a ``name`` fact
    of it, as the Chinese patterns write for 我男朋友叫李明; the entity page shows it and
    GET /v1/entities?q=Ines finds it."""
    name = name_of(token)
    if name is None or who.endswith(f":{name}"):
        return []
    return [Fact(who, "name", name, confidence=0.8)]


def noun_facts(
    sentence: Span, speaker: str, settled: Callable[[Token], bool], *, asked: bool = False
) -> list[tuple[Fact, Token]]:
    """Relations, businesses, conditions and favourites a possessive states by itself, each
    with its noun. ``settled`` says whether the clause around a noun states something (not a
    wish, a plan or a condition): a relation is presupposed either way, a possession only
    when settled."""
    found: list[tuple[Fact, Token]] = []
    for token in sentence:
        if token.pos_ not in ("NOUN", "PROPN"):
            continue
        if not possessed_by_speaker(token) and not _recalled_trip(token):
            continue
        if token.dep_ == "ROOT" and token.lemma_ in ("thing", "passion") and not asked:
            found.extend((fact, token) for fact in _misread_copula(token, speaker))
            continue
        rel = relative_of(token, speaker)
        if rel is not None and _wished(token, settled):
            continue  # "I want to start my own family": a relation wished for, not had
        if rel is not None and _ended(token, rel[0], rel[1]):
            continue  # "my dog died when I was a kid", "my boyfriend Tom and I broke up"
        if rel is not None and (_my(token) or _we_subject(sentence) or _ours(token, rel[0])):
            found.append((Fact(speaker, rel[0], rel[1], confidence=0.8), token))
            found.extend((fact, token) for fact in _single_role_name(token, rel[1]))
            found.extend((fact, token) for fact in _possessed_alike(token, speaker))
            continue
        if rel is None and token.lemma_.lower() in lx.LESSONS | lx.CLUBS and not asked:
            found.extend((Fact(speaker, p, v, confidence=0.8), token) for p, v in _lessons(token))
            continue  # presupposed like a relative: "I'll keep up with my Spanish lessons"
        loved = None
        if token.lemma_ in ("love", "passion"):
            loved = pobj(token, "of", "for") or (
                pobj(token.head, "for", "of") if token.dep_ == "dobj" else None
            )
        if loved is not None and (
            relation(loved.lower_) is not None
            or any(d.lower_ in ("the", "this", "that") for d in children(loved, "det"))
        ):
            loved = None  # "my love for my kids", "my passion for the campaign": no liking
        if loved is not None and not asked:  # "I'll keep pursuing my passion for photography"
            liked = [lowered(loved, gerund(loved))] if loved.tag_ == "VBG" else phrases(loved)
            found.extend((Fact(speaker, "likes", p, confidence=0.8), token) for p in liked if p)
            continue
        if rel is not None or not settled(token):
            continue
        found.extend((Fact(speaker, p, v, confidence=0.8), token) for p, v in _owned(token))
    return found


def _owned(token: Token) -> list[tuple[str, str]]:
    word = token.lemma_.lower()
    if word in lx.TRIPS:  # "my Lisbon trip", "my trip to the Smoky Mountains": a place visited
        names = [x for x in children(token, "compound") if x.pos_ == "PROPN"]
        target = pobj(token, "to")
        if not names and target is not None and target.pos_ == "PROPN" and _told_past(token):
            return [("visited", p) for p in [phrase(target)] if p]  # version 22
        return [("visited", text_of(list(names[0].subtree)))] if names else []
    if word in lx.CONDITIONS or token.lower_ in lx.CONDITIONS:
        return [("health_condition", p) for p in [phrase(token)] if p]
    if word in lx.BUSINESSES and _real(token) and not _workplace(token):
        return [("owns", p) for p in [phrase(token)] if p]
    if _favourite(token):
        return [("likes", p) for p in [phrase(token)] if p]
    return []


def _told_past(token: Token) -> bool:
    """The verb a noun hangs from is in the past, and nothing ahead is named ("next")."""
    ahead = any(t.lower_ in ("next", "upcoming", "coming") for t in token.sent)
    return verb_above(token).tag_ in ("VBD", "VBN") and not ahead


def _recalled_trip(token: Token) -> bool:
    """ "I got the idea from that trip to England" (version 22): a trip "that" points back to,
    in a sentence the speaker tells in the past, is the speaker's."""
    if token.lemma_.lower() not in lx.TRIPS or not any(d.lower_ == "that" for d in token.lefts):
        return False
    subjects = children(verb_above(token), "nsubj")
    return _told_past(token) and any(first_person(s) for s in subjects if s.lower_ in ("i", "we"))


def _misread_copula(token: Token, speaker: str) -> list[Fact]:
    """ "Chess's totally my thing": the small model reads the contracted *is* as a
    possessive; the possessor is what the copula's subject would be."""
    owners = [
        p
        for p in children(token, "poss")
        if not first_person(p) and any(x.dep_ == "case" for x in p.children)
    ]
    if len(owners) != 1:
        return []
    predicate = "likes" if token.lemma_ == "passion" else "activity"
    return [Fact(speaker, predicate, p, confidence=0.75) for p in phrases(owners[0])]


def _lessons(token: Token) -> list[tuple[str, str]]:
    """ "my German lessons": a subject studied; "my chess club": an activity."""
    mods = [x for x in token.lefts if x.dep_ in ("compound", "amod")]
    named = bool(mods) and mods[0].text[:1].isupper() and not mods[0].is_sent_start
    if token.lemma_.lower() in lx.LESSONS:  # "my English lit class": English lit
        return [("studies", text_of(mods))] if named and len(mods) <= 3 else []
    kinds = [x for x in children(token, "compound", "amod") if x.pos_ in ("NOUN", "VERB")]
    return [("activity", p) for p in [phrase(token)] if p] if kinds else []


def _ended(token: Token, predicate: str, related: str) -> bool:
    """A relation the clause around it ends (version 27, from a new user's trial: "my dog
    died when I was a kid" wrote a current ``has_pet``, "my girlfriend Ines and I broke up"
    a current partner named Ines): a pet that died or passed away, a partner broken up with."""
    verb = verb_above(token)
    if predicate == "has_pet":
        return verb.lemma_ in ("die", "pass") and token.dep_ in ("nsubj", "nsubjpass")
    return related.endswith("/partner") and broke_up(verb)  # the role table's partner words


def _wished(token: Token, settled: Callable[[Token], bool]) -> bool:
    """ "my own family" in a clause that states nothing (a wish, a plan): one to come."""
    return any(a.lower_ == "own" for a in children(token, "amod")) and not settled(token)


def _possessed_alike(token: Token, speaker: str) -> list[Fact]:
    """ "my husband and kids", "my friends and family" (version 22): a relation noun joined to
    a possessed one, with no determiner or possessive of its own, is the speaker's too."""
    found: list[Fact] = []
    for joined in token.conjuncts:
        related = relation(joined.lower_) or relation(joined.lemma_)
        if related is None or joined.i < token.i or children(joined, "det", "poss"):
            continue
        found.append(Fact(speaker, related[0], relative_id(speaker, related[1]), confidence=0.8))
    return found


def _my(token: Token) -> bool:
    return any(c.dep_ == "poss" and c.lower_ == "my" for c in token.children)


def _ours(token: Token, predicate: str) -> bool:
    """ "Our cat Luna turned five", "Our daughter Ana is allergic to peanuts" (version 28):
    a family's pet or one relative is the speaker's too, whoever the sentence's subject is;
    never a group ("our kids", "our family" may be everyone's)."""
    ours = any(c.dep_ == "poss" and c.lower_ == "our" for c in token.children)
    group = relation(token.lower_) is None or token.tag_ == "NNS" or token.lemma_ in _GROUPS
    return ours and predicate in ("has_pet", "has_relative") and not group


_GROUPS = frozenset({"family", "fam", "folks", "kids", "children", "parents", "relatives"})


def _we_subject(sentence: Span) -> bool:
    """ "our kids" is the speaker's family when "we" act in the sentence, not "our kids are
    our future"."""
    return any(t.lower_ == "we" and t.dep_ in ("nsubj", "nsubjpass") for t in sentence)


OTHERS = frozenset({"you", "your", "he", "his", "him", "she", "her", "they", "their", "them"})


def _someone_elses(prep: Token) -> bool:
    """A condition after a preposition of a clause whose subject is another person ("my dad
    was diagnosed with X": the condition is the dad's; "my week was hard with this flu" is
    mine)."""
    return any(
        s.lower_ in OTHERS or s.pos_ == "PROPN" or relation(s.lower_)
        for s in children(prep.head, "nsubj", "nsubjpass")
    )


def unowned_condition(sentence: Span, speaker: str) -> list[tuple[Fact, Token]]:
    """ "Anxiety has been hard, but I'm coping", "a slow month for me with this
    flu": a condition named with no owner, in a sentence only about the speaker, is the
    speaker's (never when anyone else is named: "your injury", "helping kids with anxiety")."""
    words = {t.lower_ for t in sentence}
    if not words & {"i", "me", "my"} or words & OTHERS:
        return []
    found: list[tuple[Fact, Token]] = []
    for token in sentence:
        if token.lemma_.lower() not in lx.CONDITIONS or token.pos_ not in ("NOUN", "PROPN"):
            continue
        if token.lemma_.lower() in KIND_ONLY:
            continue  # "diagnosed with celiac disease": never the bare "disease"
        if children(token, "poss", "compound") or any(
            d.lower_ != "this" for d in children(token, "det")
        ):
            continue
        prep = token.head
        held = token.dep_ in ("nsubj", "nsubjpass") or (
            token.dep_ == "pobj"
            and prep.lower_ in ("with", "from")
            and (
                (prep.head.pos_ in ("VERB", "AUX") and not children(prep.head, "dobj"))
                or prep.head.lemma_ in TIME_NOUNS
            )
        )  # "dealing with / a month with this flu", not "helping kids with anxiety"
        if held and token.dep_ == "pobj" and _someone_elses(prep):
            continue  # "My dad was diagnosed with diabetes": his, not mine (version 14)
        if held:
            found.append(
                (Fact(speaker, "health_condition", token.lemma_.lower(), confidence=0.75), token)
            )
    return found
