"""The query's names and identifiers, and whether some texts mention them (recall's
``unmentioned``: graph_schema/recall/named.py)."""

from __future__ import annotations

import pytest

from graph_schema.recall.named import (
    Compound,
    Vocabulary,
    compounds,
    named_terms,
    thing_terms,
    truecased,
    unheld,
    unheld_compounds,
    unheld_in,
)


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        ("What was decided about Kafka?", ["Kafka"]),
        ("Kafka was dropped, why?", []),  # a sentence's first word may be any word
        ("Why? Kafka was dropped.", []),
        ("What is the p99 latency of GET /transfers?", ["p99", "GET"]),
        ("What did the Google Play review say about Trailhead 4.9.0?",
         ["Google", "Play", "Trailhead", "4.9.0"]),
        ("What was the root cause of INC-405?", ["INC-405"]),
        # an identifier's plural is the identifier: a blind trial's notes say "8x A100"
        ("How many A100s can we use at the same time?", ["A100"]),
        ("Why can't the test runs go on the H100s?", ["H100"]),
        # a numeronym keeps its "s" (a blind trial: "k8s" was read as "k8", never mentioned)
        ("which k8s version is prod-east on now", ["k8s"]),
        ("budget started at 42k right? what is it now", ["42k"]),
        ("What happened in the 1990s?", []),
        ("What time does Ben train on Wednesdays now?", ["Ben"]),  # a weekday, plural
        ("Did we move user_id to userId in v2?", ["user_id", "userId", "v2"]),
        ("What was the BigQuery bill for July?", ["BigQuery"]),
        ("Which Star Wars-related places? Answer yes or no.", ["Star", "Wars"]),
        ("Would Caroline like Dr. Seuss books?", ["Caroline", "Seuss"]),
        ("What's Maya's job?", ["Maya"]),
        ("I'm asking what I said on Monday in May", []),
        ("When is the launch planned for 2024-05-08 at 10:30, the 21st?", []),
        # a number that numbers a thing of work is an identifier (failed before: no term)
        ("When is release 5.2 planned for 2024-05-08?", ["5.2"]),
        ("Why did build 2300 fail?", ["2300"]),
        ("What was merged in PR #512?", ["PR", "512"]),
        ("What about #42?", ["42"]),
        ("Which test timed out in pipeline run 2207?", ["2207"]),
        # a name's version or model (a new user's trial: failed before, no "17")
        ("When is the Postgres 17 upgrade planned?", ["Postgres", "17"]),
        ("Did Maria see Route 66 twice?", ["Maria", "Route", "66"]),
        ("Is Python 3 used at Coachella 2023?", ["Python", "Coachella"]),  # a digit, a year
        ("Was Nate 25 years old when John 12 hours later left?", ["Nate", "John"]),  # counts
        # ... not a count, a single digit, or a number after another word
        ("I ran the job 10 times, then the build 3 hours later", []),
        ("What failed in step 3?", []),
        ("What did Tom order 2 of?", ["Tom"]),
        ("Did the 2291 build pass?", []),
        ("How many rows on 21 April 2023, 40,000 or 3rd?", []),
        ("exp-search-vec-01 扩到 20% 流量以后点击率是多少？", ["exp-search-vec-01"]),
        ("Kafka 集群有几个节点？", ["Kafka"]),  # CJK text has no capitals: always a name
        ("小李对什么过敏？", []),
        ("who owns the mobile app?", []),
        # a word of capitals naming a kind of value is no thing (blind trials: "ID" was
        # never mentioned, so "the transaction ID" was refused though its number was there)
        ("What was the transaction ID for the Wildroot retainer?", ["Wildroot"]),
        ("What's the engineering bug ID for the CSV export issue?", ["CSV"]),
        ("send me the booking URL and the PDF", []),
    ],
)  # fmt: skip
def test_named_terms(query: str, terms: list[str]) -> None:
    assert named_terms(query) == terms


VOCABULARY = Vocabulary.of(
    [
        "Caroline: I went to Europe and hiked the Himalayas.",
        "Tennessee was hot; INC-405 closed; p95 is 420 ms; user_id renamed.",
        "Mia",
    ]
)


@pytest.mark.parametrize(
    "term", ["Caroline", "caroline", "European", "Himalayan", "Tennesee", "INC-405", "p95",
             "user_id", "Mia"],
)  # fmt: skip
def test_held_by_word_stem_or_a_near_spelling(term: str) -> None:
    assert unheld([term], VOCABULARY) == []


@pytest.mark.parametrize("term", ["Kafka", "INC-406", "p99", "user_name", "Eur", "Mio"])
def test_an_identifier_is_held_exactly_and_a_short_word_is_not_guessed(term: str) -> None:
    assert unheld([term], VOCABULARY) == [term]


def test_unheld_keeps_the_query_order() -> None:
    assert unheld(["Kafka", "Mia", "p99"], VOCABULARY) == ["Kafka", "p99"]


def test_unheld_in_texts_reads_a_verbatim_word_and_falls_back_to_the_vocabulary() -> None:
    texts = ["Caroline: I hiked the Himalayas with the INC-405 team."]
    assert unheld_in(["Caroline", "Himalayan", "INC-405"], texts) == []
    assert unheld_in(["INC-40", "Kafka"], texts) == ["INC-40", "Kafka"]
    assert unheld_in([], texts) == []


def test_a_number_with_a_word_of_scale_is_held_written_out() -> None:
    """A blind trial: "budget started at 42k right?" was not_found, the notes saying
    "$42,000"; "10k" of a race is held by "10k" only."""
    assert unheld_in(["42k"], ["raising the migration budget from $42,000 to $55,000"]) == []
    assert unheld_in(["2.5m", "1bn"], ["2500000 rows, 1,000,000,000 events"]) == []
    assert unheld_in(["10k"], ["Ben ran 10,500 steps and a 5k on Sunday"]) == ["10k"]


def test_a_verbatim_match_is_a_whole_word() -> None:
    assert unheld_in(["HR", "Mia"], ["We walked through three rooms in Miami."]) == ["HR", "Mia"]


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        ("Who owns the mobile app?", ["mobile", "app"]),
        ("Who owns the ingestion pipeline now?", ["ingestion", "pipeline"]),
        ("Who is responsible for the payments API spec now?", ["payments", "API", "spec"]),
        ("Which version of the Heron runbook is current?", ["Heron", "runbook"]),
        ("What is the current version of the db-failover runbook?", ["db", "failover", "runbook"]),
        ("What is the status of the export job?", ["export", "job"]),
        ("Why did the email digest job fail?", ["email", "digest", "job"]),
        ("Who owns the team's on-call rota?", ["call", "rota"]),
        ("Who owns Tomasz's billing export?", ["billing", "export"]),
        ("How much did the new mixer cost?", ["mixer"]),
        ("How much does a sack of flour cost now?", ["sack", "flour"]),
        ("How much is the rent for the new flat?", ["rent", "flat"]),
        ("How much was Sam's new bike?", ["bike"]),
        # the thing ends where a clause of its own starts (all its words were read before)
        ("How much are the plane tickets costing us altogether?", ["plane", "tickets"]),
        ("How much is the hotel booking?", ["hotel", "booking"]),
        # a rate's unit is no part of the thing: "$340/night" never says "per" (failed before:
        # "per" was a word of the thing, nothing held it, and the question was not_found)
        ("How much is the hotel for the wedding per night?", ["hotel", "wedding"]),
        # a qualifier of the sum or of the time ends it too (a blind trial: "before" and
        # "VAT" were words of the thing, the invoice that held the sum said neither)
        ("how much was the walk-in repair before VAT", ["walk", "repair"]),
        ("How much was the rent after the rise?", ["rent"]),
        # a word of when or how much is no word of the thing (a blind trial: "originally"
        # was one, nothing held it, and the question was not_found)
        ("How much were the flights originally, per person?", ["flights"]),
        ("How much was the trip in total?", ["trip"]),
        # a second question starts at "and what ...": its words are no part of the thing (a
        # blind trial: "refund reference number" were words of the filing fee)
        (
            "How much was the double-charged filing fee and what's the refund reference number?",
            ["double", "charged", "filing", "fee"],
        ),
        ("How much was the rent and when is it due?", ["rent"]),
        ("How much did the salt and pepper set cost?", ["salt", "pepper", "set"]),
        # "costing" asks how much, it names nothing (a blind trial: no turn held it)
        ("how much is the grab bar install costing and who's doing it", ["grab", "bar", "install"]),
        # a clause of its own ends it (blind trials: "upgraded" and "supposed" were words of
        # the thing, the texts that held the sums said neither)
        ("How much was the prorated charge when they upgraded in May?", ["prorated", "charge"]),
        (
            "how much was the qingshan signing instalment supposed to be",
            ["qingshan", "signing", "instalment"],
        ),
        ("How much is the rent going to be?", ["rent"]),
        ("How much is the rent if we stay another year?", ["rent"]),
        # what it is asked as, and the thing itself, are no words of it (blind trials:
        # "worth" and "itself" were, no text held them, and the questions were not_found)
        (
            "How much is the Fog Harbour job worth in total at this point?",
            ["Fog", "Harbour", "job"],
        ),
        ("how much was the alternator itself, and how much was the labor on it", ["alternator"]),
        ("How much is left in the budget?", []),  # a quantity, no thing named
        # the kind of a numbered thing is no word of its name (a new user's trial: "ticket"
        # was unmentioned, and "What is the status of ticket LAN-231?" was not_found)
        ("What is the status of ticket LAN-231?", ["LAN", "231"]),
        ("Why did pipeline run 2207 fail?", []),  # the number is read by named_terms
        ("What is the status of the payments ticket?", ["payments", "ticket"]),
        ("How much did Melanie spend on the trip?", []),  # spending: the answer need not say it
        # other shapes ask for what their answer need not spell
        ("Why did Caroline move to Sweden?", []),
        ("What is Maya's hobby?", []),
        ("What was decided about the mobile app?", []),
        ("Who went to the pottery workshop?", []),
    ],
)  # fmt: skip
def test_thing_terms_are_the_words_of_a_thing_an_agents_work_question_asks_about(
    query: str, terms: list[str]
) -> None:
    """ "Who owns the mobile app?" was answered with the kickoff note about other owners
    (failed before: no such terms)."""
    assert thing_terms(query) == terms


def test_a_latin_name_written_against_chinese_words_is_held() -> None:
    """Chinese writes a Latin name against its own words: "Northgate医院" holds "Northgate"
    (a blind trial's "Wei's start date at Northgate got moved" was not_found, the name read
    as one word with the ideographs after it)."""
    text = "我拿到了Northgate医院药房技术员的工作！4月8日开始上班"
    assert unheld_in(["Northgate"], [text]) == []
    assert Vocabulary.of([text]).holds("Northgate")
    assert unheld_in(["Eastgate"], [text]) == ["Eastgate"]


HOUSE = [
    "Edinburgh is locked in: house on Dundas Street, £1,240 total. The street is quiet.",
    "Henrik signed the SOW on Monday. Mum's op is at St Aidan's Hospital.",
    "Second is Wei Zhang v. Norcastle. Reference: OCTAVIA LM16TXR. REFERENCE NUMBER below.",
]


@pytest.mark.parametrize(
    ("query", "cased"),
    [
        # a word the texts write only capitalised, inside a sentence: a name
        ("whats the booking reference for the dundas street house",
         "whats the booking reference for the Dundas street house"),
        # an acronym; "Henrik" only starts a sentence, so it is not read as written
        ("when did henrik sign the sow", "when did henrik sign the SOW"),
        # what the family calls one of its own stays a common word; "Hospital" is a name
        ("whats the reference on mum's hospital letter",
         "whats the reference on mum's Hospital letter"),
        # a sentence's first word, a field's, a heading's or a shouted one is no name
        ("what is the second reference number", "what is the second reference number"),
        # the question's own first word, and a query that writes a capital anywhere
        ("edinburgh house price", "edinburgh house price"),
        ("When did henrik sign the sow?", "When did henrik sign the sow?"),
    ],
)  # fmt: skip
def test_a_question_in_lower_case_writes_the_names_as_the_texts_do(query: str, cased: str) -> None:
    assert truecased(query, HOUSE) == cased


def test_the_names_of_a_question_in_lower_case_are_read() -> None:
    """A new user's blind trial asked "whats the booking reference for the dundas street
    house" of a stag weekend's notes: the question named nothing, so the rule of references
    read every note, and another booking's reference answered it."""
    query = "whats the booking reference for the dundas street house"
    assert named_terms(query) == []
    assert named_terms(truecased(query, HOUSE)) == ["Dundas"]


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("Who owns the payments service?", [("payments", "service")]),
        ("Why did the search deploy fail?", [("search", "deploy")]),
        ("What was the error rate of search-api on 3 March?", [("error", "rate")]),
        ("What did we try for the memory leak?", [("memory", "leak")]),
        ("Which tests does the checkout suite skip?", [("checkout", "suite")]),
        ("订单服务的负责人是谁？", [("订单", "服务")]),
        ("谁负责搜索服务？", [("搜索", "服务")]),
        # a name is read by named_terms; an identifier too; a word of state tells nothing apart
        ("Who owns the Quorvantix service?", []),
        ("Quorvantix服务的负责人是谁？", []),
        ("What was the p95 latency of search-api?", []),
        ("What did we try for the failing test?", []),
        ("Who else is on the whole team?", []),
        ("What did the new service replace?", []),
        # a head followed by its object is a verb; a possessive is no modifier
        ("When did the ops people deploy the fix?", []),
        ("What did Maria's team decide?", []),
        ("新的服务是谁负责的？", []),
    ],
)  # fmt: skip
def test_compounds_are_a_thing_of_work_told_apart_by_the_word_before_its_head(
    query: str, found: list[tuple[str, str]]
) -> None:
    assert compounds(query) == [Compound(m, h) for m, h in found]


NOTES = [
    "Correction from Alice: the billing service is owned by Frank, not Erin.",
    "Grafana: p95 latency of search-api on 2026-03-03 was 412 ms.",
    "The billing deploy of v2.4.1 failed: connection pool exhausted; rolled back.",
    "Tried pytest-rerunfailures on test_checkout_timeout to work around the flaky test.",
    "搜索服务的负责人是王芳。支付服务的负责人是李雷。",
]


@pytest.mark.parametrize(
    ("modifier", "head", "missing"),
    [
        # the modifier is held nowhere: nothing is about that thing
        ("payments", "service", ["payments"]),
        ("订单", "服务", ["订单"]),
        # neither word is held anywhere
        ("memory", "leak", ["memory", "leak"]),
        # held, with its head or not (another form, a plural, a Chinese part of a run)
        ("billing", "deploys", []),
        ("搜索", "服务", []),
        ("checkout", "job", []),
        # held, though never with its head: not read (the trials' "spindle job" of notes
        # saying "the spindle bearing"); so "the search deploy" passes too
        ("search", "deploy", []),
    ],
)  # fmt: skip
def test_the_modifier_of_a_thing_of_work_is_held_as_a_name_is(
    modifier: str, head: str, missing: list[str]
) -> None:
    """A new user's ops notes about the billing and search services answered "What did we try
    for the memory leak?" with the flaky test's tries, and "订单服务的负责人是谁？" with
    another service's owner: the question named nothing (failed before: no compounds read)."""
    assert unheld_compounds([Compound(modifier, head)], NOTES) == missing


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        ("Quorvantix latency", ["Quorvantix"]),  # a query of keywords: its first word too
        ("Kafka", ["Kafka"]),
        ("What is Quorvantix?", ["Quorvantix"]),
        # a sentence's first word is capitalised by the rule of writing
        ("Latency of search-api", []),
        ("Billing owner?", []),
    ],
)
def test_the_first_word_of_a_query_of_keywords_is_read_as_a_name(
    query: str, terms: list[str]
) -> None:
    """A new user's "Quorvantix latency" was checked for no name, while "What is Quorvantix?"
    was (failed before: the first word was a sentence's)."""
    assert named_terms(query) == terms
