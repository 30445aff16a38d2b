"""The offline distiller: English through a dependency parse, Chinese through patterns, no
network and no language model.

Each sentence of the observation yields its structured facts (``I went to a jazz
concert two days ago`` -> ``attended jazz concert`` valid from two days before the
observation; 我爸前天去世了 -> ``<speaker>/father deceased true``), followed by one faithful
``said`` draft whose object is the sentence itself, so recall keeps the exact wording. The
evidence of every draft is its whole sentence: ``quote == text[start:end]`` always holds.

Only English sentences that may state something are parsed (:func:`may_state`: not a
question, and a first-person word, a possessive or a word of the agent-work predicates);
the parse of an observation's sentences runs as one batch.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from graph_schema.core.timeutil import to_rfc3339
from graph_schema.observations.types import ObservationIn
from graph_schema.schema.types import Predicate
from ingest.distill import chinese
from ingest.distill.base import Draft
from ingest.distill.dates import When, find_times, local
from ingest.distill.english import NOT_NAMES
from ingest.distill.english_extract import extract, question
from ingest.distill.english_rules import cues
from ingest.distill.facts import ENDED_STATES, Fact
from ingest.distill.identifiers import PETS, named
from ingest.distill.nlp import EnglishParser
from ingest.distill.sentences import Sentence, is_cjk, split_sentences
from ingest.metrics import DISTILL_PARSE_SECONDS, DISTILL_SENTENCES

SAID = "said"
SAID_CONFIDENCE = 1.0
# 3: the precision rules of the first sealed-set work; 4: the recall rules of the second
# (issue 16): an elided "I", trips, likings and activities in common shapes; 5: precision on
# shapes (a liked thing pointed at, an infinitive not said to be done, a means of one's own,
# an object that is no noun, a wish as a plan, a present "going to" as a visit); 6: recall on
# shapes that recur across development sets (a clause that brings joy, a relative clause's
# stranded preposition, a liked list's gerunds whole, an activity part of the speaker) and a
# past time said the sentence before; 7: precision on new text (one piece of work is no
# practice, a liked conjunct of someone else's, the kind in "one of my favourite Ys", a habit
# not dated by a past time, a gerund under "tried" only tried, with its article and "new", an
# unnamed or addressee's thing, an infinitive with its own subject not done, one activity
# written once, a childhood clause on a liked gerund, a loved relative, a favourite pointed at,
# the piece a relative clause names) and an emphatic "I do love X"; 8: new text, the fifth
# sealed set read (my family as a relative, a breed as the pet, a group joined, a gerund
# subject with "my" as the speaker's, "had the chance to X" done, a condition with no owner,
# a vague time left out of a plan, "last Tues") and precision (a one-time liking in the past,
# a noun with two possessors, "had a talk", a wished-for family, an approximate "about N
# years ago", "almost" / "was going to", a denied "I think", "on Tuesdays" no place or date,
# "I bought you X", "a fan of yours"); 9: from a new user's trial, a time is never an object
# ("I started running in March" wrote "attended March") and a present progressive is not dated
# by a bare month read as past ("I'm training for a race in October", said in June), a Chinese
# workplace holds no verb ("在杭州找到了新工作" wrote works_at "杭州找到了新"); and recall: a
# one-holder role's name written as its `name` ("my girlfriend Ines"), a home in a city ("moved
# to a new apartment in Porto": lives_in Porto), a team at a company ("leading the data team at
# Farfetch": works_at Farfetch); 10: from a new user's trial, a time ahead makes no plan of a
# past verb nor a plan that is a bare verb ("signed up for a class that starts next month"
# wrote plans "signed up (2026-12)"), a pet's name right after "my cat" where the parse hangs
# it elsewhere, "got back from Lisbon" a visit; 11: from a new user's trial in chat and in an
# agent's notes, a new job's occupation and employer ("started a new job as a data engineer at
# Northwind"), a trip planned, a race finished, surgery and recovering from a condition, a
# plan given up with what it was (never the bare "plan"), "version 3.2" written as "3.2", a
# numbered thing's status ("Build 1842 failed") and a check's "passed", a pattern's fact of
# the speaker refused where the parse names another subject ("Lena moved to the payments
# team" wrote the speaker's tech_stack), "every Saturday" no date, a job quit a life event, a
# course taken, the speaker responsible for a thing, a thing handed over to someone, a
# decision against, "scheduled for next Friday" dated in its status; Chinese 在X做Y, 做了手术,
# 下个月我要...; 12: from a new user's trial, what is still ahead is a plan, never a fact
# of now ("I'm retiring next year" wrote life_event retired, "we're moving to Berlin" lives_in
# Berlin; "I start as charge nurse in January" and "I signed up for the Berlin marathon next
# September" plans dated ahead), a pet named in the next sentence ("Her name is Pepper"), an
# event of a friend's ("at my friend's wedding"); 13: from a new user's trial in Chinese, an
# employer without its measure word (在一家游戏公司 -> 游戏公司), a plan's month of a year
# (明年四月 -> 2027-04) and no time in its object, 我家的狗 a pet, a relative's surgery or
# illness (白内障手术, 得了糖尿病), a mountain climbed, a place gone to (去了成都, 去过日本), a
# daily or weekly habit an activity (每天早上跑五公里) and 每周六 no date, 离职 a life event,
# 还没退休 no event; 14: from a new user's trial, a time with no direction of its own under a
# verb of what is ahead ("a class that starts on the 15th") the one to come, a class signed up
# for that a time ahead dates a plan (never `attended`: "I enrolled in an evening class"), a
# job moved for and an employer "called" its name ("for a new job at a fintech called
# Pagaqui"), a condition said by an adjective ("I'm lactose intolerant", "diabetic") or a
# diagnosis, a relative's injury ("broke her hip") and a heart attack or a stroke, an
# appositive no second object ("a used road bike, a blue Bianchi"), "on the 10th" never an
# object, "I hurt my back on Saturday" dated, a plan never a bare verb, a relative's condition
# not the speaker's ("my dad was diagnosed with diabetes"); 15: the ways a new user states
# facts: got engaged, divorced, laid off or fired ("lost job", the employer no longer held, as
# after "lost my job at X" / "as a Y"), had a baby; born or raised in X (`comes_from`); "I've
# been to X" a visit and "never been" none (polarity false); "went camping / fishing" and
# "went for a run / on a hike" activities; an event one has, is having or has got dated by a
# time ahead a plan ("I have a dentist appointment tomorrow"); a race trained for a plan; a
# torn / fractured / twisted body part; a club one is a member or part of an activity; "we
# spent a week in Greece" a visit; 16: from a new user's trial, an employer one is at, joined,
# started at, left or quit when the phrase names an organisation for certain ("I'm now at a
# fintech called Moeda as a senior data engineer", "I left Helios Grid last month": works_at
# polarity false; never "I left Paris", "I'm at the beach"), a move in dated ahead a plan to
# the place of the home ("a flat in Campo de Ourique, we move in on December 1st"), a race
# dropped out of `dropped`, lessons in a named subject studied ("Portuguese lessons") and "on
# Tuesday evenings" a habit; 17: from a new user's trial, a pet named by the kids and up to
# two sentences after it was told of ("We got a puppy on Sunday! A golden retriever. The kids
# named him Biscuit"); 18: from a new user's trial of an agent's notes, a thing taken over is
# owned by who took it over ("Kofi takes over the replicas from Monday"); 19: from two new
# users' trials, "Guess what," openers, pets named after so / and, back from a place, "had
# to" done, an offer accepted, toys no pets, a duty taken over bare, a document updated to
# a numbered version; 20: from the development labels, a practice named as the subject of
# what is said of the speaker ("Painting's great for expressing myself"), a trip named by
# its outing ("a camping trip") an activity, "X is one of my favourites" a liking, an event
# being planned a plan, a win a life event; 21: a review mend, an adjective in -ing names no
# outing ("an amazing trip" was an activity on version 20); 22: from the thirteenth sealed
# set's errors, relation nouns joined to a possessed one, a picnic had an activity, a pastime
# liked in the infinitive, a past trip to a named place a visit, "never tried" with its
# polarity, "N weekends ago"; 23: from a new user's trial, a name keeps its own "of", the
# doer of a verb with an object no status, a return still ahead no visit; 24: from the
# fourteenth sealed set's errors, a spaced hyphen read as a dash, a wedding had with a
# partner a life event, a plan without a vague time hung on its object; 25: emoji parsed as
# spaces; 26: a test lead an occupation, 从X离职了 the employer withdrawn; 27: from new users'
# trials, words in quotation marks someone's as said (no fact), a wish ("I wish I lived in
# X") and a world not this one ("in another life") no fact, a verb undone later in its
# sentence ("accepted ... but then declined it") nothing, an offer declined the employer
# withdrawn, chat's "rn" / "btw" / "atm" no part of a value, a month or day with its year
# that year ("in March 2023"), February 29 the most recent one that exists, a pet that died
# no pet now, a breakup the partner withdrawn, a person's full name, words a hyphen glues read
# whole, a thing's change in Chinese no stack of the speaker; 28: from two new users' trials,
# a hypothesis set up ("Let's say", "Pretend", "Suppose", "Just imagine:") or hoped for no
# fact, another's words passed on ("Tiago: ...", "Tiago said: ...", "According to Tiago",
# "Sara thinks I'm ...") and a joke ("just kidding", "yeah right") none, a relative lost in a
# crowd no death, a state in the simple past ("I lived in", "I worked at", "I was a teacher")
# no current fact, an in-law no blood relative, a gift no possession, a skill judged no
# occupation, "pre-diabetic" prediabetes; a written date over its weekday ("by Friday,
# November 20"), a Chinese object cut at its clause's comma and 从<time>开始 no old stack; a
# visit in a named place, an activity started dated from its start, our pet or child; 29:
# from two new users' trials, a known place visited by its bare name ("I visited Rome"), an
# employer left by its bare name at a time said ("I left Fretlog last month"), a nickname an
# alias ("everyone calls me Bobby"), a relative named after the role the subject ("My husband
# Tiago hates running") and "hates" read as the verb; 30: from two new users' trials, a
# Chinese plan or decision runs across Latin words to its clause's end and never ends on a
# function word ("计划把主库从 PostgreSQL 13 升级到 15" wrote 把主库从), a bare 周末 dates a plan
# and leaves its object, a relative time with 的 no part of a thing's name (下周的数据库迁移),
# a day spelt out ("the first of May") a time and never an object, a plan less the time
# inside it, a pet named in a phrase of its own ("A ginger one called Bacalhau"), a course
# of a kind started an activity ("a cheese-making course"), a bare "my company" no
# possession, stairs climbed no climbing; 31: from a new user's trial of eight months, an
# ending ("I stopped doing yoga", "I don't do pottery anymore", "I gave up pottery", "I quit
# the running club", "I don't have a cat anymore") withdraws the state it names (it wrote the
# activity as held, or nothing), a business's name ("Crumb Bakery") left, quit or joined
# as a company's is, and a withdrawal dated by a period takes the period's last moment; 32:
# from a new user's trial of a bilingual assistant, an employer written with its dot
# ("Trip.com") or in the possessive ("St Mary's"), or after the role ("as a barista at Blue
# Bottle"), a last day at an employer (past: withdrawn; ahead: a plan), a relative's name of
# two words ("my sister Lin Yue"), a plan cut of the time's dangling preposition; 33: from
# two new users' trials, one date for one phrase (an ending's), a start or a last day ahead
# the employer from that day beside the plan, "Work at X is keeping me busy", a healed body
# part or a recovery an ending, an owner in the passive, "tried X and dropped it", a
# thing's name the parse cut ("design doc"), roles by their initials ("SRE")
DISTILLER_VERSION = "33"
IMAGE_MARK = "[image:"
_STATES = re.compile(
    r"\b(?:i|i'm|i’m|i've|i’ve|i'd|i’d|i'll|i’ll|me|my|mine|we|we're|we’re|we've|we’ve|our|us|"
    r"owns?|owned|owner|maintains?|maintained|responsible|charge|version|revision|draft|"
    r"handed|assigned|reassigned|transferred|takes?\s+over|took\s+over|taking\s+over|"
    r"status|blocked|pending|finished|completed|complete|done|down|broken|failed|failing|"
    r"passed|passing|crashed|deployed|updated|bumped|upgraded|"
    r"released|merged|shipped|live|progress|hold|stalled|delayed|scheduled|"
    r"can['’]t\s+wait|call\s+me)\b",
    re.IGNORECASE,
)
# a sentence that may leave out its "I": it opens (after a few adverbs) with a past or
# progressive verb form ("Took a trip to Lisbon", "Still working on my thesis")
_ELIDED = re.compile(
    r"^\W*(?:(?:just|still|also|finally|recently|then|and|so|been|yesterday|today)\W+)*"
    r"(?:[a-z]+(?:ed|ing)|took|went|got|had|made|found|bought|began|ran|won|wrote|lost|saw|"
    r"met|drew|gave|been)\b",
    re.IGNORECASE,
)


# a place named after a preposition or a visit ("I was in Chicago", "went to Madrid"): a cue
# the word lists cannot hold
_PLACE_NAME = re.compile(
    r"\b(?:in|to|from|visited|visiting|at|left|quit|joined)\s+(?:the\s+)?[A-Z][a-z]{2,}"
)  # version 16: an employer named after "at", "left", "quit", "joined"


# a last day at a workplace (version 32): the speaker's, even with the "my" left out
_LAST_DAY = re.compile(r"\blast\s+day\s+at\b", re.IGNORECASE)


def chinese_text(text: str) -> bool:
    return any(is_cjk(ch) for ch in text)


def may_state(text: str) -> bool:
    """Whether an English sentence is worth parsing: not asked, a first-person word or a
    word of the agent-work predicates in it (or an opening that may leave out its "I"), and
    a word some rule reads (``cues``).
    Everything else is left to ``said``."""
    if not text.strip() or question(text):
        return False
    if _LAST_DAY.search(text) is not None:
        return True  # "Last day at Trip.com was March 14": the speaker's, "my" left out
    if _STATES.search(text) is None and _ELIDED.search(text) is None:
        return False
    return cues().search(text) is not None or _PLACE_NAME.search(text) is not None


# "Guess what, I signed up for a class": the parser reads "what" as the object of "signed"
# (version 19), so the opener is left out of what is parsed (the quote keeps it)
_GUESS_WHAT = re.compile(r"^\s*guess\s+what\s*(?:[,:;!-]|\s[\u2013\u2014-])\s*", re.IGNORECASE)


# emoji and their joiners, variation selectors, skin tones, flags' regional indicators and
# tags: decoration, never part of a fact's value (version 25)
_EMOJI = re.compile(
    "[\u200d\u20e3\u2600-\u27bf\u2b00-\u2bff\ufe0e\ufe0f\U0001f000-\U0001faff\U000e0020-\U000e007f]"
)


def plain(text: str) -> str:
    """``text`` with each emoji code point a space, so offsets into it stay those of the
    text (version 25: "I moved to Zurich 🇨🇭 last week" wrote two `lives_in`, one of them
    `Zurich 🇭`, half a flag; "Zürich 🇨🇭" wrote none; "a cat named Miso 🐱" named it 🐱)."""
    return _EMOJI.sub(" ", text)


# chat's abbreviations of manner ("i live in Manchester rn", "allergic to penicillin btw", "I
# work at Acme Corp atm"): the parser made them the head of the phrase before them, so the
# value was "Manchester rn" (version 27); never "the ATM" / "an atm" (a cash machine)
_FILLER = re.compile(
    r"(?<![\w'’-])(?:rn|btw|tbh|imo|imho|fyi|lol|lmao|ngl|tho|"
    r"BTW|TBH|IMO|IMHO|FYI|LOL|LMAO|NGL)(?![\w'’-])"
    r"|(?<!\bthe )(?<!\bThe )(?<!\ban )(?<!\bAn )(?<!\ba )(?<!\bA )(?<![\w'’-])atm"
    r"(?![\w'’-])"
)


def unfilled(text: str) -> str:
    """``text`` with chat's abbreviations of manner (:data:`_FILLER`) as spaces, so offsets
    into it stay those of the text (version 27)."""
    return _FILLER.sub(lambda m: " " * len(m.group()), text)


def _english_part(sentence: Sentence) -> str:
    """What of an English sentence is parsed: the text before an attached image caption,
    without a "Guess what," opener, a hyphen between spaces read as the dash it stands for
    (version 24: "I'm learning German now - tough but fun" hung German on "tough"), emoji
    read as spaces (version 25, :func:`plain`), and chat's "rn", "btw", "atm" too (version 27,
    :func:`unfilled`)."""
    part = (
        unfilled(plain(sentence.text)).split(IMAGE_MARK, 1)[0].rstrip().replace(" - ", " \u2014 ")
    )
    return _GUESS_WHAT.sub("", part, count=1)


def _draft(
    fact: Fact, sentence: Sentence, at: datetime | None, ends: frozenset[When] = frozenset()
) -> Draft:
    """``ends``: the times of the sentence that date a withdrawal; every fact of that time
    takes its last moment (version 33, from a new user's trial: "I quit pottery last week"
    dated ``dropped pottery`` by the week's first day and the withdrawal by its last second,
    two dates for one phrase)."""
    value: str | bool = fact.object
    draft: Draft = {
        "subject": fact.subject,
        "predicate": fact.predicate,
        "object": value,
        "polarity": fact.polarity,
        "confidence": fact.confidence,
        "quote": sentence.text,
        "start": sentence.start,
        "end": sentence.end,
    }
    if fact.when is not None and fact.plan:
        draft["object"] = f"{value} ({fact.when.label()})"
    elif fact.when is not None and at is not None and fact.ahead:
        ahead = fact.when.valid_from(at) if fact.polarity else fact.when.last_second(at)
        draft["valid_from"] = to_rfc3339(ahead)  # version 33: a change of job to come
    elif fact.when is not None and at is not None and _ends(fact, ends):
        draft["valid_from"] = to_rfc3339(fact.when.last_moment(at))  # version 31
    elif fact.when is not None and at is not None:
        draft["valid_from"] = to_rfc3339(fact.when.valid_from(at))
    return draft


def _not_held(found: list[Fact]) -> list[Fact]:
    """The facts of one sentence without a state it also withdraws: "I've fully recovered
    from my knee injury" ends the injury, which its noun phrase alone would write as held
    (version 33)."""
    ended = {f.key()[:3] for f in found if not f.polarity and f.predicate in ENDED_STATES}
    return [f for f in found if not (f.polarity and f.key()[:3] in ended)]


def _ended_periods(found: list[Fact], at: datetime | None) -> frozenset[When]:
    """The times of a sentence's withdrawals whose periods are over when it is said (one
    still going on, "this month", dates the withdrawal by the observation's own time and the
    life event beside it keeps the period's first day, the one date it can give)."""
    if at is None:
        return frozenset()
    today = at.date()
    return frozenset(f.when for f in found if f.when and f.ended_by() and f.when.end() <= today)


def _ends(fact: Fact, ends: frozenset[When]) -> bool:
    """Whether the fact's time is the latest bound of an ending: its own, or one its
    sentence's withdrawal of that same time gives (the life event or ``dropped`` beside it)."""
    if fact.ended_by():
        return True
    return fact.when in ends and not fact.since and not fact.plan


def _said(speaker: str, sentence: Sentence) -> Draft:
    return {
        "subject": speaker,
        "predicate": SAID,
        "object": sentence.text,
        "polarity": True,
        "confidence": SAID_CONFIDENCE,
        "quote": sentence.text,
        "start": sentence.start,
        "end": sentence.end,
    }


def _key(draft: Draft) -> tuple[str, str, str, bool]:
    return (draft["subject"], draft["predicate"], str(draft["object"]), bool(draft["polarity"]))


def _shorter_name(draft: Draft, drafts: list[Draft]) -> bool:
    """Whether a structured draft is a shorter name of another's object in the same
    observation ("my studio" beside "my pottery studio"): one thing, written once."""
    subject, predicate, value, polarity = _key(draft)
    if predicate not in ("owns", "activity"):  # "likes music", "likes classical music": two
        return False
    longer = (" " + value.lower(), value.lower() + " ")
    return any(
        other["predicate"] == predicate
        and other["subject"] == subject
        and bool(other["polarity"]) == polarity
        and (
            str(other["object"]).lower().endswith(longer[0])
            or (predicate == "activity" and str(other["object"]).lower().startswith(longer[1]))
        )
        for other in drafts
    )


def _unique(drafts: list[Draft]) -> list[Draft]:
    """Drop a structured draft that repeats an earlier (subject, predicate, object, polarity)
    of the same observation, or names its object shorter; ``said`` drafts are never
    dropped."""
    seen: set[tuple[str, str, str, bool]] = set()
    kept: list[Draft] = []
    for draft in drafts:
        key = _key(draft)
        if draft["predicate"] != SAID and (key in seen or _shorter_name(draft, drafts)):
            continue
        seen.add(key)
        kept.append(draft)
    return kept


# what happened once, on a day: the facts a time said just before may date
CARRIED = frozenset({"attended", "visited", "tried", "life_event", "deceased", "decided"})


def _carry_times(text: _Text) -> None:
    """A past time that opens a turn in a sentence of its own, which states no fact
    ("Something exciting happened last Friday. I went to a game fair", "Last week was
    eye-opening. I visited X"), dates the one-off facts of the next sentence, when that
    sentence gives no time of its own."""
    if text.at is None:
        return
    today = text.at.date()
    for n in range(1, len(text.sentences)):
        if text.facts[n - 1] or not text.facts[n]:
            continue
        before = find_times(_english_part(text.sentences[n - 1]))
        if len(before) != 1 or find_times(_english_part(text.sentences[n])):
            continue
        when = before[0].resolve(today)
        if when is None or not when.past(today) or when.start <= today < when.end():
            continue
        text.facts[n] = [
            replace(f, when=when) if f.predicate in CARRIED and f.when is None and not f.plan else f
            for f in text.facts[n]
        ]


# "Her name is Pepper", "We named him Biscuit", "The kids named him Biscuit": the name of a
# pet the turn just told of; version 19: after "so" or "and" ("She's orange so I named her
# Mango", "I adopted a cat and named her Mango") and before "and" ("Her name's Coco and
# she's adorable")
# version 30: "A ginger one called Bacalhau", "a tabby named Miso": the pet told of, named
# in a phrase of its own whose head is "one" or an animal (a new user's trial left the cat
# unnamed)
_PET_WORDS = "|".join(sorted((w for w in PETS if w.isascii()), key=len, reverse=True))
_PET_NAMED = re.compile(
    r"(?:^|,\s*|\s(?i:so|and)\s+)(?i:(?:her|his|its) name(?: is|'s|’s)|(?:she|he|it)"
    r"(?: is|'s|’s) called|(?:(?:we|i|the kids|the children) )?(?:named|called) (?:her|him|it)|"
    rf"an?\s+(?:[a-z-]+\s+){{0,3}}?(?:one|{_PET_WORDS})\s+(?:named|called))"
    r"\s+([A-Z][a-z]+)(?=\s*[.!]*$|,|\s+and\s)"
)
_PET_BACK = 2  # sentences back the pet may have been told of, with none between saying more


def _name_pets(text: _Text) -> None:
    """A pet the turn has just told of, named right after, after a comma or in a sentence of
    its own ("I adopted a rescue greyhound. Her name is Pepper"): ``<speaker>/dog:Pepper``,
    as "a greyhound named Pepper" is. Only when the sentence that told of it names one
    unnamed pet of the speaker's and no relative or friend ("My sister got a dog. Her name
    is Coco": whose name, the sister's or the dog's, the words do not say)."""
    for n, sentence in enumerate(text.sentences):
        found = _PET_NAMED.search(_english_part(sentence))
        if found is None:
            _name_pet_zh(text, n)
            continue
        if found.group(1).lower() in NOT_NAMES:
            continue
        here = found.start() > 0 and any(f.predicate == "has_pet" for f in text.facts[n])
        at = n if here else _pet_told(text, n)
        if at is not None:
            text.facts[at] = _pet_renamed(text.facts[at], text.speaker, found.group(1))


def _name_pet_zh(text: _Text, n: int) -> None:
    """A Chinese sentence naming a pet it calls 它 (打算叫它“汤圆”) after the sentence that
    told of it (我领养了一只橘猫！): as in English. A pet told of in the same sentence is
    named by the Chinese rules themselves."""
    sentence = text.sentences[n]
    name = chinese.pet_name(sentence.text) if chinese_text(sentence.text) else None
    if name is None or any(f.predicate == "has_pet" for f in text.facts[n]):
        return
    at = _pet_told(text, n)
    if at is not None:
        text.facts[at] = _pet_renamed(text.facts[at], text.speaker, name)


def _pet_told(text: _Text, n: int) -> int | None:
    """The sentence before sentence ``n`` that told of a pet ("We got a puppy on Sunday! A
    golden retriever. The kids named him Biscuit"): the nearest of the two before it, when
    no sentence from there on has a fact of its own."""
    for at in range(n - 1, max(n - 1 - _PET_BACK, -1), -1):
        if any(text.facts[i] for i in range(at + 1, n + 1)):
            return None
        if any(f.predicate == "has_pet" for f in text.facts[at]):
            return at
    return None


def _pet_renamed(facts: list[Fact], speaker: str, name: str) -> list[Fact]:
    pets = [f for f in facts if f.predicate == "has_pet"]
    if len(pets) != 1 or any(f.predicate in ("has_relative", "has_friend") for f in facts):
        return facts
    pet, prefix = str(pets[0].object), f"{speaker}/"
    role = pet[len(prefix) :]
    if pets[0].subject != speaker or not pet.startswith(prefix) or not role.isalpha():
        return facts  # another's pet, a named one already ("dog:Max"), a nested identifier
    if not named(role):
        return facts  # "my turtles": a group takes no name
    new = f"{pet}:{name}"
    return [
        replace(
            f,
            subject=new if f.subject == pet else f.subject,
            object=new if f.object == pet else f.object,
        )
        for f in facts
    ]


class _Text:
    """One text being distilled: its sentences and, per sentence, the facts found."""

    def __init__(self, text: str, speaker: str, occurred_at: str | None) -> None:
        self.speaker = speaker
        self.at = local(occurred_at) if occurred_at else None
        self.sentences = split_sentences(text)
        self.facts: list[list[Fact]] = [[] for _ in self.sentences]

    def drafts(self) -> list[Draft]:
        drafts: list[Draft] = []
        for sentence, found in zip(self.sentences, self.facts, strict=True):
            found = _not_held(found)
            ends = _ended_periods(found, self.at)
            drafts.extend(_draft(fact, sentence, self.at, ends) for fact in found)
            drafts.append(_said(self.speaker, sentence))
        return _unique(drafts)


class OfflineDistiller:
    """The default distiller when no language model is configured."""

    name = "offline"
    version = DISTILLER_VERSION

    def __init__(self, parser: EnglishParser | None = None, *, english: bool = True) -> None:
        """``english=False``: no parser; English sentences yield their ``said`` only (another
        version, so that ``tractatus redistill`` re-reads them when the parser comes back)."""
        self.parser = (parser or EnglishParser()) if english else None
        if not english:
            self.version = f"{DISTILLER_VERSION}-said-only"

    def distill(
        self, observation: ObservationIn, *, predicates: Sequence[Predicate] | None = None
    ) -> list[Draft]:
        """Drafts for one observation; ``predicates`` is not needed (every draft passes the
        gate, which refuses a predicate the store does not have)."""
        return self.distill_text(
            observation.text, speaker=observation.speaker, occurred_at=observation.occurred_at
        )

    def distill_many(self, observations: Sequence[ObservationIn]) -> list[list[Draft]]:
        """The drafts of each observation; the English sentences of all of them are parsed
        in one pass (a third less time than one pass per observation)."""
        texts = [_Text(o.text, o.speaker, o.occurred_at) for o in observations]
        return [t.drafts() for t in self._read(texts)]

    def distill_text(
        self, text: str, *, speaker: str, occurred_at: str | None = None
    ) -> list[Draft]:
        """Drafts for ``text``; deterministic, never raises on text."""
        return self._read([_Text(text, speaker, occurred_at)])[0].drafts()

    def _read(self, texts: list[_Text]) -> list[_Text]:
        english: list[tuple[_Text, int, str]] = []
        for text in texts:
            today = text.at.date() if text.at is not None else None
            for n, sentence in enumerate(text.sentences):
                if chinese_text(sentence.text):
                    text.facts[n] = chinese.extract(plain(sentence.text), text.speaker, today)
                elif self.parser is not None and may_state(_english_part(sentence)):
                    english.append((text, n, _english_part(sentence)))
        if english and self.parser is not None:
            started = time.perf_counter()
            docs = self.parser.parse(part for _, _, part in english)
            for (text, n, _), doc in zip(english, docs, strict=True):
                today = text.at.date() if text.at is not None else None
                text.facts[n] = [f for s in doc.sents for f in extract(s, text.speaker, today)]
            DISTILL_PARSE_SECONDS.inc(time.perf_counter() - started)
        for text in texts:
            _carry_times(text)
            _name_pets(text)
        total = sum(len(t.sentences) for t in texts)
        DISTILL_SENTENCES.labels(parsed="true").inc(len(english))
        DISTILL_SENTENCES.labels(parsed="false").inc(total - len(english))
        return texts


def distill_text(text: str, *, speaker: str, occurred_at: str | None = None) -> list[Draft]:
    """Drafts for ``text`` spoken by ``speaker`` (a distiller made for the call)."""
    return OfflineDistiller().distill_text(text, speaker=speaker, occurred_at=occurred_at)
