"""The offline distiller's structured facts (issue 16): the extended ontology, identifiers of
relatives, dates, plans, hedges, and what it refuses to write. Sentences are our own."""

from __future__ import annotations

from typing import Any

import pytest

from ingest.distill.identifiers import named, relation, relative_id
from ingest.distill.offline import OfflineDistiller, may_state

SPEAKER = "user:alice"
AT = "2026-06-10T09:00:00+02:00"  # a Wednesday


def facts(text: str, at: str = AT) -> list[tuple[str, str, Any, bool]]:
    drafts = OfflineDistiller().distill_text(text, speaker=SPEAKER, occurred_at=at)
    return [
        (d["subject"], d["predicate"], d["object"], d["polarity"])
        for d in drafts
        if d["predicate"] != "said"
    ]


def drafts(text: str, at: str = AT) -> list[dict[str, Any]]:
    found = OfflineDistiller().distill_text(text, speaker=SPEAKER, occurred_at=at)
    return [d for d in found if d["predicate"] != "said"]


A = SPEAKER


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm a nurse.", [(A, "works_as", "nurse", True)]),
        ("I'm from Portugal.", [(A, "comes_from", "Portugal", True)]),
        ("I'm studying marine biology.", [(A, "studies", "marine biology", True)]),
        ("I graduated from Leeds University.", None),
        ("I just adopted a kitten named Miso.", [(A, "has_pet", f"{A}/cat:Miso", True)]),
        ("My sister Emma lives in Porto.", None),
        ("I bought a new bike.", [(A, "owns", "new bike", True)]),
        ("I broke my wrist.", [(A, "health_condition", "broken wrist", True)]),
        ("I signed up for a ceramics class.", [(A, "activity", "ceramics class", True)]),
        ("I play the cello.", [(A, "activity", "cello", True)]),
        ("I'm working on a children's book.", [(A, "works_on", "children's book", True)]),
        ("I tried acupuncture.", [(A, "tried", "acupuncture", True)]),
        ("We dropped the mobile app.", [(A, "dropped", "mobile app", True)]),
        ("We decided to hire a designer.", [(A, "decided", "hire a designer", True)]),
        ("Priya owns the payments service.", [("payments service", "owner", "Priya", True)]),
        ("The launch checklist is done.", [("launch checklist", "status", "done", True)]),
        (
            "The latest version of the style guide is v4.1.",
            [("style guide", "current_version", "v4.1", True)],
        ),
        ("I'm a big fan of jazz.", [(A, "likes", "jazz", True)]),
        ("I hate mornings.", [(A, "likes", "mornings", False)]),
    ],
)
def test_the_ontology_beyond_preferences(
    text: str, expected: list[tuple[str, str, Any, bool]] | None
) -> None:
    found = facts(text)
    if expected is not None:
        assert found == expected
    elif text.startswith("I graduated"):
        assert sorted(found) == sorted(
            [(A, "life_event", "graduated", True), (A, "studied_at", "Leeds University", True)]
        )
    else:
        assert sorted(found) == sorted(
            [
                (A, "has_relative", f"{A}/sister:Emma", True),
                (f"{A}/sister:Emma", "lives_in", "Porto", True),
            ]
        )


def test_a_death_takes_its_resolved_date_as_valid_time_and_the_phrase_stays_in_evidence() -> None:
    text = "My dad passed away two days ago."
    found = {d["predicate"]: d for d in drafts(text)}
    assert found["deceased"]["subject"] == f"{A}/father"
    assert found["deceased"]["object"] is True
    assert found["deceased"]["valid_from"] == "2026-06-08T00:00:00+02:00"
    assert found["deceased"]["quote"] == text
    assert found["has_relative"]["object"] == f"{A}/father"
    assert "valid_from" not in found["has_relative"]


def test_a_plan_carries_its_date_and_never_a_future_valid_time() -> None:
    (plan,) = drafts("We are going to release version 4 next month.")
    assert (plan["predicate"], plan["object"]) == ("plans", "release version 4 (2026-07)")
    assert "valid_from" not in plan  # a plan is a fact from when it is stated


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # version 24 wrote `Zurich 🇭` (half a flag) from last week and `Zurich 🇨🇭` from today
        ("I moved to Zurich \U0001f1e8\U0001f1ed last week.", [("lives_in", "Zurich", "06-01")]),
        (
            "I moved to Z\u00fcrich \U0001f1e8\U0001f1ed last week.",
            [("lives_in", "Z\u00fcrich", "06-01")],
        ),
        ("I moved to Oslo \U0001f600.", [("lives_in", "Oslo", None)]),
        (
            "Just adopted a cat named Miso \U0001f431\u2764\ufe0f",
            [("has_pet", f"{A}/cat:Miso", None)],
        ),
    ],
)
def test_emoji_are_no_part_of_a_value_nor_split_a_sentence(
    text: str, expected: list[tuple[str, str, str | None]]
) -> None:
    """A new user's trial: an emoji's code points were read as words of the value."""
    found = [
        (d["predicate"], d["object"], d["valid_from"][5:10] if "valid_from" in d else None)
        for d in drafts(text)
    ]
    assert found == expected
    [said] = [
        d for d in OfflineDistiller().distill_text(text, speaker=A) if d["predicate"] == "said"
    ]
    assert said["quote"] == text  # the evidence keeps the text as written


def test_a_lead_joined_as_is_an_occupation_and_a_job_left_in_chinese_is_withdrawn() -> None:
    """Version 26, from a new user's trial: "as a test lead two weeks ago" wrote no
    works_as (a lead is no occupation of its own), and "我上个月从星河科技离职了" left the
    employer current until the next job's sentence."""
    joined = drafts("I joined Brightwave Labs as a test lead two weeks ago.")
    assert [(d["predicate"], d["object"], d["valid_from"][:10]) for d in joined] == [
        ("works_at", "Brightwave Labs", "2026-05-25"),
        ("works_as", "test lead", "2026-05-25"),
    ]
    assert [d["predicate"] for d in drafts("I'm in the lead after two laps.")] == []
    left = drafts("我上个月从星河科技离职了。")
    assert [(d["predicate"], d["object"], d["polarity"], d["valid_from"][:7]) for d in left] == [
        ("life_event", "离职", True, "2026-05"),
        ("works_at", "星河科技", False, "2026-05"),
    ]
    assert [d["predicate"] for d in drafts("我从公司辞职了。")] == ["life_event"]  # names none


def test_a_move_next_month_is_a_plan_not_a_home() -> None:
    found = facts("I'm moving to Lisbon next month.")
    assert [p for _, p, _, _ in found] == ["plans"]


def test_an_unresolvable_time_is_left_open() -> None:
    (went,) = drafts("I went to a concert recently.")
    assert (went["predicate"], went["object"]) == ("attended", "concert")
    assert "valid_from" not in went


@pytest.mark.parametrize(
    "text",
    [
        "I'm training for a half marathon in October, running three times a week.",
        "I am volunteering at the shelter in December.",
    ],
)
def test_a_present_progressive_is_not_dated_by_a_month_read_as_past(text: str) -> None:
    # said in June: "in October" is ahead (or another clause's), never the start of the
    # activity eight months before (it was dated 2025-10-01 when said on 2026-06-10); the race
    # trained for is a plan beside it (version 15)
    (doing,) = [d for d in drafts(text) if d["predicate"] != "plans"]
    assert doing["predicate"] == "activity"
    assert "valid_from" not in doing


def test_a_time_is_never_an_object() -> None:
    # "attended March" and the activity "running in March" were written before
    assert facts("I started running in March.") == [(A, "activity", "running", True)]
    assert facts("I went to a concert in March.") == [(A, "attended", "concert", True)]


def test_a_hedge_lowers_confidence_and_is_still_written() -> None:
    sure = drafts("I found a job at a bakery.")
    hedged = drafts("I may have found a job at a bakery.")
    assert [d["object"] for d in sure] == [d["object"] for d in hedged] == ["bakery"]
    assert hedged[0]["confidence"] < sure[0]["confidence"]


def test_the_same_relative_is_named_the_same_way_every_time() -> None:
    first = {
        d["object"] for d in drafts("My dad loves fishing.") if d["predicate"] == "has_relative"
    }
    second = {d["object"] for d in drafts("我爸爸喜欢钓鱼。") if d["predicate"] == "has_relative"}
    assert first == second == {f"{A}/father"}


@pytest.mark.parametrize(
    "text",
    [
        "I love making it a habit to run.",  # the old distiller wrote "likes making it a"
        "I don't mind.",
        "I'd love to see your paintings!",
        "If I get the job, I'll move to Paris.",
        "Do you like hiking?",
        "We're thinking of adopting a dog.",
        "I used to live in Rome.",
        "Anna went to a concert.",
        "You should try yoga.",
        "Your kids are lovely.",
        "I loved reading comics as a kid.",
        "Here's a pic! [image: a photo of a dog on a beach]",
    ],
)
def test_no_fragment_no_wish_no_third_person_is_written_as_structured(text: str) -> None:
    assert facts(text) == []


def test_said_stays_one_per_sentence_beside_the_facts() -> None:
    text = "I bought a new bike. It is red."
    found = OfflineDistiller().distill_text(text, speaker=SPEAKER, occurred_at=AT)
    said = [d["object"] for d in found if d["predicate"] == "said"]
    assert said == ["I bought a new bike.", "It is red."]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我们家养了一只猫，叫咪咪。", [(A, "has_pet", f"{A}/cat:咪咪", True)]),
        ("我是一名护士。", [(A, "works_as", "护士", True)]),
        ("我是广东人。", [(A, "comes_from", "广东", True)]),
        ("我上个月报了一个钢琴班。", [(A, "activity", "钢琴班", True)]),
        ("我们试用了Linear。", [(A, "tried", "Linear", True)]),
        ("我们放弃了旧的报表方案。", [(A, "dropped", "旧的报表方案", True)]),
        ("订单服务由王芳负责。", [("订单服务", "owner", "王芳", True)]),
        ("接口文档的最新版本是v2。", [("接口文档", "current_version", "v2", True)]),
        ("数据备份已经完成了。", [("数据备份", "status", "完成", True)]),
    ],
)
def test_chinese_patterns_for_the_new_predicates(
    text: str, expected: list[tuple[str, str, Any, bool]]
) -> None:
    assert facts(text) == expected


def test_a_one_holder_role_keeps_its_identifier_and_its_name_is_written() -> None:
    # "my girlfriend Ines": the partner is A/partner however named, and Ines was lost
    assert facts("We're going to a concert with my girlfriend Ines.")[-2:] == [
        (A, "has_relative", f"{A}/partner", True),
        (f"{A}/partner", "name", "Ines", True),
    ]
    assert (f"{A}/brother:Daniel", "name", "Daniel", True) not in facts(
        "I went hiking with my brother Daniel."
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We just moved to a new apartment in Porto.", [(A, "lives_in", "Porto", True)]),
        ("We moved to a bigger house.", []),
        ("I'm now leading the data team at Farfetch.", [(A, "works_at", "Farfetch", True)]),
        ("I lead the team.", []),
    ],
)
def test_a_home_in_a_city_and_a_team_at_a_company(
    text: str, expected: list[tuple[str, str, Any, bool]]
) -> None:
    assert facts(text) == expected


# --- version 10: a new user's trial (sentences of our own; each failed before) ----------------


def test_a_time_ahead_in_what_a_past_clause_is_about_makes_no_plan() -> None:
    """ "…a pottery class that starts next month" wrote `plans: signed up (2026-12)`: the class's
    time made a plan of the signing, cut down to its verb. The signing is done; the class is
    the activity taken up. A plan is never the bare verb. Version 14: a class that a time
    still ahead dates is not begun, a plan of the class with its date (not of the signing)."""
    text = "I signed up for a pottery class that starts next month."
    assert facts(text) == [(A, "plans", "pottery class (2026-07)", True)]
    assert facts("I'm signing up for a pottery class that starts next month.") == [
        (A, "plans", "pottery class (2026-07)", True)
    ]
    assert facts("I signed up for a pottery class.") == [(A, "activity", "pottery class", True)]
    (plan,) = drafts("I will sign up for a pottery class next month.")
    assert (plan["predicate"], plan["object"]) == ("plans", "sign up for a pottery class (2026-07)")
    assert facts("I bought tickets for a concert that is next week.") == [
        (A, "owns", "tickets", True)
    ]


def test_a_pet_keeps_its_name_where_the_parse_hangs_it_elsewhere() -> None:
    """ "My cat Miso has been keeping me company" wrote `user:alice/cat` (the parse made Miso
    the verb's subject), "My cat Miso is so lazy" `user:alice/cat:Miso`: two entities for one
    cat. The name right after a possessed relation noun is its name."""
    long = "My cat Miso has been keeping me company while I study for the bar exam."
    assert (
        facts(long) == facts("My cat Miso is so lazy.") == [(A, "has_pet", f"{A}/cat:Miso", True)]
    )
    assert facts("My dog Monday morning walks are long.") != [
        (A, "has_pet", f"{A}/dog:Monday", True)
    ]


def test_back_from_a_named_place_is_a_visit() -> None:
    """ "I just got back from Lisbon" wrote nothing: a proper name after "got back from" is a
    place visited, as after "went to"."""
    assert facts("I just got back from Lisbon.") == [(A, "visited", "Lisbon", True)]
    (visit,) = drafts("We came back from Kyoto last week.")
    assert (visit["predicate"], visit["object"]) == ("visited", "Kyoto")
    assert visit["valid_from"].startswith("2026-06-01")


# --- version 11: a new user's trial in chat and in an agent's notes (our own sentences; each
# failed on version 10) ------------------------------------------------------------------------


def test_a_new_job_gives_the_occupation_and_the_employer_hung_on_it() -> None:
    """ "I just started a new job as a data engineer at Northwind last Monday" wrote nothing
    (the parse hangs "at Northwind" on the occupation), and "Where does Priya work?" was then
    answered `not_found`."""
    found = drafts("I just started a new job as a data engineer at Northwind last Monday.")
    assert sorted((d["predicate"], d["object"]) for d in found) == [
        ("works_as", "data engineer"),
        ("works_at", "Northwind"),
    ]
    assert all(d["valid_from"].startswith("2026-06-08") for d in found)  # the last Monday
    assert facts("I got a job as a data engineer.") == [(A, "works_as", "data engineer", True)]
    assert facts("I didn't get the job as a data engineer.") == []


def test_a_trip_planned_is_a_plan_with_where_it_goes() -> None:
    assert facts("We're planning a trip to Iceland next summer.") == [
        (A, "plans", "trip to Iceland", True)
    ]
    (plan,) = drafts("I booked a trip to Rome for next month.")
    assert (plan["predicate"], plan["object"]) == ("plans", "trip to Rome (2026-07)")
    assert facts("I'm not planning a trip this year.") == []
    assert facts("I took a trip to Lisbon.") == [(A, "visited", "Lisbon", True)]  # as before


def test_a_race_finished_was_attended_and_a_race_ahead_is_not() -> None:
    (race,) = drafts("I finally finished my first marathon in October.")
    assert (race["predicate"], race["object"]) == ("attended", "first marathon")
    assert race["valid_from"].startswith("2025-10-01")  # the last October before June 2026
    assert facts("I completed a half marathon last weekend.") == [
        (A, "attended", "half marathon", True)
    ]
    assert [f[1] for f in facts("I'm finishing the race next week.")] == ["plans"]
    assert facts("I finished the book.") == []


def test_surgery_and_recovering_are_health_of_whom_they_happen_to() -> None:
    mother = f"{A}/mother"
    assert facts("My mom had knee surgery two weeks ago.") == [
        (mother, "health_condition", "knee surgery", True),
        (A, "has_relative", mother, True),
    ]
    assert facts("I'm still recovering from the flu.") == [(A, "health_condition", "flu", True)]
    assert facts("She is recovering at home.") == []


def test_a_plan_given_up_says_which_plan() -> None:
    """ "We dropped the plan to migrate to MongoDB" wrote `dropped: plan`."""
    assert facts("We dropped the plan to migrate to MongoDB; Postgres stays.") == [
        (A, "dropped", "plan to migrate to MongoDB", True)
    ]
    assert facts("We dropped the idea of building a mobile app.") == [
        (A, "dropped", "idea of building a mobile app", True)
    ]
    assert facts("We scrapped the plan.") == []
    assert facts("We dropped the mobile app.") == [(A, "dropped", "mobile app", True)]


def test_a_version_number_is_written_one_way() -> None:
    """ "is at version 3.2" wrote `version 3.2`, "the latest version ... is 3.3" `3.3`: two
    spellings of versions of one document."""
    assert facts("The invoice spec is at version 3.2 as of Tuesday.") == [
        ("invoice spec", "current_version", "3.2", True)
    ]
    assert facts("The latest version of the invoice spec is 3.3.") == [
        ("invoice spec", "current_version", "3.3", True)
    ]
    assert facts("The latest version of the invoice spec is version 3.4.") == [
        ("invoice spec", "current_version", "3.4", True)
    ]


def test_a_numbered_thing_and_a_check_have_a_status() -> None:
    """A tool's report: "Build 1842 of ledger failed" and "The nightly build passed" wrote
    nothing; time passing is no status."""
    assert facts("Build 1842 of ledger failed: test_rounding timed out after 30s.") == [
        ("build 1842 of ledger", "status", "failed", True)
    ]
    assert facts("The nightly build passed.") == [("nightly build", "status", "passed", True)]
    assert facts("PR 512 was merged.") == [("PR 512", "status", "merged", True)]
    assert facts("The week passed quickly.") == []


def test_a_pattern_never_gives_the_speaker_what_the_parse_gives_another() -> None:
    """ "Lena moved to the payments team last week" wrote the speaker's `tech_stack: payments
    team` (a pattern of moves read it; the parse says Lena moved)."""
    text = "Lena moved to the payments team last week, so Sam now owns the invoice service."
    assert facts(text) == [("invoice service", "owner", "Sam", True)]
    assert facts("He switched to Rust last year.") == []
    assert facts("We switched from Java to Kotlin.") == [(A, "tech_stack", "Kotlin", True)]


def test_an_agent_owning_or_handing_over_a_thing_writes_its_owner() -> None:
    """ "I'm responsible for the search service" wrote nothing (only a named person owned
    things); "The on-call rotation was handed over to Priya" and "Ticket 42 was reassigned to
    Omar" wrote nothing."""
    assert facts("I'm responsible for the search service.") == [
        ("search service", "owner", A, True)
    ]
    assert facts("I'm in charge of the release.") == [("release", "owner", A, True)]
    (handed,) = drafts("The on-call rotation was handed over to Priya yesterday.")
    assert (handed["subject"], handed["predicate"], handed["object"]) == (
        "on-call rotation",
        "owner",
        "Priya",
    )
    assert handed["valid_from"].startswith("2026-06-09")
    assert facts("Ticket 42 was reassigned to Omar.") == [("ticket 42", "owner", "Omar", True)]
    assert facts("The ticket was assigned to me.") == [("ticket", "owner", A, True)]
    assert facts("She was assigned to Omar.") == []


def test_a_thing_taken_over_is_owned_by_who_took_it_over() -> None:
    """Version 18, a new user's trial of an agent's notes: "Arjun is moving to the data
    platform team; Kofi takes over the replicas from Monday" wrote nothing (the sentence was
    not even parsed), so "Arjun handles the replicas" stayed the only owner."""
    found = facts("Arjun is moving to the data platform team; Kofi takes over the replicas.")
    assert found == [("replicas", "owner", "Kofi", True)]
    (took,) = drafts("I took over the on-call rotation last week.")
    assert (took["subject"], took["predicate"], took["object"]) == ("on-call rotation", "owner", A)
    assert took["valid_from"].startswith("2026-06-01")
    assert facts("Kofi takes the replicas to the new cluster.") == []  # no "over"
    assert facts("Anxiety took over.") == []  # nothing named taken over


def test_version_19_reads_a_new_users_trial_of_two_friends() -> None:
    """Version 19, from a new user's trial (two friends over six months): each sentence
    wrote no fact, or a wrong one, on version 18."""
    # "Guess what," opens the sentence: the parser read "what" as the thing signed up for
    assert facts("Guess what, I finally signed up for a pottery class.") == [
        (A, "activity", "pottery class", True)
    ]
    # a pet named after "so" or "and", or with more said after its name
    (cat,) = facts("I adopted a cat last weekend. She's orange so I named her Mango.")
    assert cat == (A, "has_pet", f"{A}/cat:Mango", True)
    assert facts("I adopted a cat and named her Mango.") == [(A, "has_pet", f"{A}/cat:Mango", True)]
    (dog,) = facts("I got a puppy! Her name's Coco and she's adorable.")
    assert dog == (A, "has_pet", f"{A}/dog:Coco", True)
    # back from a place: visited
    assert facts("I'm back from Lisbon! Five days of pastries.") == [(A, "visited", "Lisbon", True)]
    assert facts("I returned from Lisbon.") == [(A, "visited", "Lisbon", True)]
    assert facts("I came back from a trip to Lisbon.") == [(A, "visited", "Lisbon", True)]
    assert facts("I'll be back from Lisbon on Monday.") == []
    # "had to" is done, "have to" is not yet
    assert facts("I had to quit the pottery class.") == [
        (A, "dropped", "pottery class", True),
        (A, "activity", "pottery class", False),  # version 31: the activity ended too
    ]
    assert facts("I have to quit the pottery class.") == []
    # an offer accepted names the employer; an offer got does not
    assert facts("I accepted an offer from Brightpath.") == [(A, "works_at", "Brightpath", True)]
    assert facts("I got an offer from Brightpath.") == []
    # a stuffed animal dog is no pet; "I called him Max" is not the speaker's name
    assert facts("I still have that stuffed animal dog you gave me!") == []
    assert facts("I called him Max and he was upset.") == []
    assert facts("Call me Ishmael.") == [(A, "name", "Ishmael", True)]


def test_version_19_reads_an_agents_notes_on_a_refresh() -> None:
    """Version 19, from a new user's trial (an agent's notes on a model refresh): "Sana takes
    over feature engineering" (a duty without a determiner) and a document updated to a
    numbered version, as a headline or in the passive, wrote nothing on version 18."""
    found = facts("I'm moving to the fraud team next week. Sana takes over feature engineering.")
    assert ("feature engineering", "owner", "Sana", True) in found
    assert facts("I took over payroll.") == []  # one bare word: not named as a duty
    assert facts("Design doc updated to v2: added the calibration section.") == [
        ("Design doc", "current_version", "v2", True)
    ]
    assert facts("The runbook was updated to version 3.1.") == [
        ("runbook", "current_version", "3.1", True)
    ]
    assert facts("We bumped the runbook to version 3.1.") == [
        ("runbook", "current_version", "3.1", True)
    ]
    assert facts("The doc was not updated to v2.") == []
    assert facts("If the doc is updated to v2, tell me.") == []
    assert facts("The price was updated to 40 dollars.") == []


def test_version_20_reads_a_practice_named_as_the_subject() -> None:
    """Version 20, from the development labels: an activity opening the sentence, said in
    the present of the speaker, wrote nothing on version 19."""
    assert facts("Painting's great for expressing myself.") == [(A, "activity", "painting", True)]
    assert facts("Gaming has been my focus lately.") == [(A, "activity", "gaming", True)]
    assert facts("Writing has become a way to express my feelings.") == [
        (A, "activity", "writing", True)
    ]
    assert facts("Playing video games or watching movies helps me unwind.") == [
        (A, "activity", "playing video games", True),
        (A, "activity", "watching movies", True),
    ]
    assert facts("Dancing for me is like a way to express myself.") == [
        (A, "activity", "dancing", True)
    ]
    # not a practice of the speaker's: a past, a difficulty, a negation, someone else's, a
    # passion (a liking), a joy (a liking), nothing said of the speaker
    assert facts("Dancing was my escape.") == []
    assert facts("Running is hard for me.") == []
    assert facts("Writing isn't easy for me.") == []
    assert facts("Swimming is what my kids love.") == [(A, "has_relative", f"{A}/children", True)]
    assert facts("Dance is my passion.") == [(A, "likes", "dance", True)]
    assert facts("Dancing brings me joy.") == [(A, "likes", "dancing", True)]
    assert facts("Painting is fun.") == []


def test_version_20_reads_trips_favourites_plans_and_wins() -> None:
    """Version 20, from the development labels: each sentence wrote nothing on version 19."""
    # a trip named by what one does on it is that outing, an activity
    (trip,) = drafts("I went on a mountaineering trip last week with some workmates.")
    assert (trip["predicate"], trip["object"]) == ("activity", "mountaineering trip")
    assert trip["valid_from"].startswith("2026-06-01")
    assert facts("I just got back from a family road trip.") == [
        (A, "activity", "family road trip", True)
    ]
    assert facts("We went on a business trip.") == []  # no outing named
    # version 21: an adjective in -ing names no outing (version 20 wrote "amazing trip")
    assert facts("I went on an exciting trip last week.") == []
    assert facts("We had an amazing trip to Rome.") == [(A, "visited", "Rome", True)]
    assert facts("We had a great sightseeing trip.") == [(A, "activity", "sightseeing trip", True)]
    # one of my favourites, a favourite of mine: the subject is liked (named, not shown)
    assert facts("Coconut milk ice cream is one of my favorites.") == [
        (A, "likes", "Coconut milk ice cream", True)
    ]
    assert facts("Seattle is one of my favorite cities to explore.") == [
        (A, "likes", "Seattle", True)
    ]
    assert facts("This trilogy is one of my faves.") == []  # which: an image shows it
    assert facts("Spider-Man has always been a favorite of mine.") == []  # cut at the hyphen
    assert facts("That was one of my favorite days.") == []  # a past
    # an event being planned is a plan of the speaker's own
    assert facts("We already planned a gaming session together.") == [
        (A, "plans", "gaming session", True)
    ]
    assert facts("I'm not planning a party.") == []
    # a win is a life event, past only, as written
    assert (A, "life_event", "won my second tournament", True) in facts(
        "Last week I won my second tournament!"
    )
    assert facts("We won!") == [(A, "life_event", "won", True)]
    assert facts("I hope we win the final.") == []


def test_a_decision_against_keeps_its_against() -> None:
    """ "We decided against using Kafka" wrote nothing."""
    assert facts("We decided against using Kafka.") == [(A, "decided", "against using Kafka", True)]
    assert facts("We decided to use Kafka.") == [(A, "decided", "use Kafka", True)]


def test_a_thing_scheduled_keeps_its_date_in_the_status() -> None:
    """ "The migration to Postgres 16 is scheduled for next Friday" wrote nothing; a time ahead
    is part of the status, as a plan's, never a valid time still to come."""
    (status,) = drafts("The migration to Postgres 16 is scheduled for next Friday.")
    assert (status["subject"], status["object"]) == (
        "migration to Postgres 16",
        "scheduled (2026-06-12)",  # the coming Friday, as the times table reads "next Friday"
    )
    assert "valid_from" not in status
    assert facts("The launch is scheduled.") == [("launch", "status", "scheduled", True)]


def test_a_habit_on_a_weekday_is_not_dated_by_the_last_one() -> None:
    """ "I go swimming every Saturday" gave the activity a `valid_from` of last Saturday; a
    weekday after "every" / "each" is a habit, and "since January" beside it dates it."""
    (habit,) = drafts("I go swimming every Saturday.")
    assert (habit["object"], habit.get("valid_from")) == ("swimming", None)
    (since,) = drafts("I've been volunteering at the animal shelter every Saturday since January.")
    assert since["valid_from"].startswith("2026-01-01")
    (once,) = drafts("I went swimming last Saturday.")
    assert once["valid_from"].startswith("2026-06-06")


def test_a_job_quit_or_left_is_a_life_event() -> None:
    """ "I quit my job at the bank" wrote `dropped: job`, as a tool is dropped."""
    (quit,) = drafts("I quit my job at the bank two weeks ago.")
    assert (quit["predicate"], quit["object"]) == ("life_event", "quit job")
    assert facts("I left my job last year.") == [(A, "life_event", "left job", True)]
    assert facts("I left the house early.") == []
    assert facts("We quit Slack.") == [(A, "dropped", "Slack", True)]


def test_a_course_taken_is_an_activity_when_it_says_which() -> None:
    assert facts("I'm taking a photography course at the community college.") == [
        (A, "activity", "photography course", True)
    ]
    assert facts("I take Spanish classes on Tuesdays.") == [
        (A, "activity", "Spanish classes", True)
    ]
    assert facts("I'm taking a class.") == facts("I took an amazing class.") == []
    assert facts("I took a break.") == []


def test_a_chinese_job_at_a_place_gives_both_and_a_bare_company_names_none() -> None:
    """ "现在在字节跳动做产品经理" (now a product manager at ByteDance) wrote nothing;
    "我在公司上班" (I work at the company) wrote works_at "公司"."""
    assert facts("我在阿里巴巴做工程师。") == [
        (A, "works_at", "阿里巴巴", True),
        (A, "works_as", "工程师", True),
    ]
    assert facts("我在公司做设计师。") == [(A, "works_as", "设计师", True)]
    assert facts("我在公司上班。") == []
    assert facts("我在家做饭。") == []


def test_chinese_surgery_is_a_health_condition_of_whom_it_happened_to() -> None:
    # "我妈妈上个月做了膝盖手术" (my mom had knee surgery last month) wrote no health fact
    mother = f"{A}/mother"
    (surgery,) = [
        d for d in drafts("我妈妈上个月做了膝盖手术。") if d["predicate"] != "has_relative"
    ]
    assert (surgery["subject"], surgery["predicate"], surgery["object"]) == (
        mother,
        "health_condition",
        "膝盖手术",
    )
    assert surgery["valid_from"].startswith("2026-05-01")
    assert facts("我三天前去医院做了体检。") == [(A, "attended", "体检", True)]  # as before


def test_a_chinese_plan_with_its_subject_after_the_time_is_the_speakers_own() -> None:
    # "下个月我要去东京旅游" wrote the plan "我要去东京旅游" at a lowered confidence
    (plan,) = drafts("下个月我要去东京旅游。")
    assert (plan["object"], plan["confidence"]) == ("去东京旅游 (2026-07)", 0.75)


def test_a_chinese_workplace_holds_no_verb() -> None:
    # "在杭州找到了新工作" (found a new job in Hangzhou) wrote works_at "杭州找到了新"
    assert facts("我最近在杭州找到了新工作。") == []
    assert facts("我在杭州工作。") == [(A, "works_at", "杭州", True)]


def test_a_chinese_plan_carries_its_date() -> None:
    (plan,) = drafts("我下个月要去成都出差。")
    assert (plan["predicate"], plan["object"]) == ("plans", "去成都出差 (2026-07)")


def test_relation_words_and_identifiers() -> None:
    assert relation("Mum") == ("has_relative", "mother")
    assert relation("puppy") == ("has_pet", "dog")
    assert relation("闺蜜") == ("has_friend", "friend")
    assert relation("teacher") is None
    assert relative_id("Alex", "father", "Tom") == "Alex/father"  # one father
    assert relative_id("Alex", "sister", "Anna") == "Alex/sister:Anna"
    assert relative_id("Alex", "children", "Anna") == "Alex/children"  # a group
    assert not named("wife") and named("cousin")


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("I went to a concert.", True),
        ("The spec is at version 3.", True),
        ("That sounds amazing!", False),
        ("Do you like it?", False),
        ("Wow, what a view.", False),
    ],
)
def test_only_sentences_that_may_state_something_are_parsed(text: str, parsed: bool) -> None:
    assert may_state(text) is parsed


def test_the_english_model_setting() -> None:
    """TRACTATUS_ENGLISH_MODEL: the installed model by default, ``none`` for said only, and a
    directory that is not a model stops the server at start rather than at an observation."""
    from graph_schema.core.errors import TractatusError
    from ingest.distill.factory import make_distiller

    settings = {"llm_url": None, "llm_model": "m", "llm_timeout": 1.0, "llm_retries": 0}
    default = make_distiller(**settings, llm_api_key=None)
    off = make_distiller(**settings, llm_api_key=None, english_model="none")
    assert (default.version, off.version) == ("33", "33-said-only")
    text = "I bought a new bike."
    obs = {"speaker": SPEAKER, "occurred_at": AT, "source_kind": "user_stated", "text": text}
    from graph_schema.observations.types import ObservationIn

    observation = ObservationIn.model_validate(obs)
    assert [d["predicate"] for d in off.distill(observation)] == ["said"]
    assert [d["predicate"] for d in default.distill(observation)] == ["owns", "said"]
    with pytest.raises(TractatusError) as refused:
        make_distiller(**settings, llm_api_key=None, english_model="/nonexistent/model")
    assert refused.value.code == "parser_unavailable"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a pattern's object the parse refuses is not written from the pattern either
        ("I've been using this app.", []),
        # "our team" is the speaker's "we"
        ("Our team uses Jira for sprints.", [(A, "uses", "Jira")]),
        # 原来 is a word, not 原 + the adjunct 来
        ("我们放弃了原来的设计。", [(A, "dropped", "原来的设计")]),
    ],
)
def test_bugs_found_on_the_test_half_after_it_was_scored(
    text: str, expected: list[tuple[str, str, str]]
) -> None:
    assert sorted((s, p, o) for s, p, o, _ in facts(text)) == sorted(expected)


# Precision rules of the sealed-set work (tuned on the development halves only): a parse the
# extractor cannot trust is left to `said`. Each case failed before its rule; the controls
# beside them keep what the rule must not take away.
DOUBTFUL = [
    # a verb conjoined with the complement of "trying to" / "want to" is an effort or a wish
    "I'm trying to stay fit and do yoga.",
    "I want to start learning the piano.",
    # a decision still being made is not one taken
    "We're still deciding on the venue.",
    "We are deciding on a name.",
    # a coordinated modifier: one thing ("rock and roll music") or two ("cooking" and
    # "board games")? The parse cannot say
    "I'm more into cooking and board games.",
    # one unnamed thing a relative clause describes: which one, the turn does not say
    "Here's another song I like.",
    "I just finished a novel that I really enjoyed.",
    # a bare or deictic event: which one, the turn does not say
    "I went to an amazing event last week.",
    "Last month at that event I felt at home.",
    # one piece of work is not a practice
    "I'm currently reading a book.",
    "I painted a portrait yesterday.",
    # a quoted title is named whole or not at all
    'I love "The Long and Winding Road of a Very Tired Little Man"!',
]
STILL_FACTS = [
    ("I tried painting.", (A, "tried", "painting")),
    ("I love hiking and I play the cello.", (A, "activity", "cello")),
    ("We decided on Postgres.", (A, "decided", "Postgres")),
    ("We've decided to hire a designer.", (A, "decided", "hire a designer")),
    ("I'm into board games.", (A, "likes", "board games")),
    ("I bought a bike that I love.", (A, "owns", "bike")),
    ("I went to a concert that we all enjoyed.", (A, "attended", "concert")),
    ("I went to a charity event last week.", (A, "attended", "charity event")),
    ("I paint landscapes.", (A, "activity", "painting")),
    ('We love "Back Home" - so funny!', (A, "likes", "Back Home")),
]


@pytest.mark.parametrize(
    ("text", "title"),
    [('We love "Lost Alone" so much!', "Lost Alone"), ('I love "Summer Inside"!', "Summer Inside")],
)
def test_a_quoted_title_is_the_whole_quote(text: str, title: str) -> None:
    # the small model splits some titles into a noun and an adverb ("likes Lost")
    assert [(s, p, o) for s, p, o, _ in facts(text)] == [(A, "likes", title)]


@pytest.mark.parametrize("text", DOUBTFUL)
def test_a_doubtful_parse_is_left_to_said(text: str) -> None:
    assert facts(text) == []


@pytest.mark.parametrize(("text", "fact"), STILL_FACTS)
def test_the_precision_rules_keep_plain_statements(text: str, fact: tuple[str, str, str]) -> None:
    assert fact in [(s, p, o) for s, p, o, _ in facts(text)]


# Recall rules of the second sealed-set work (tuned on the development data only: the old
# halves and the first sealed set): shapes of sentence the extractor read none of. Each case
# failed before its rule; the DOUBTFUL and STILL_FACTS lists above still hold.
RECALL_FACTS = [
    # chat leaves the speaker out: a past or progressive main verb with no subject
    ("Took a quick trip to Lisbon last week.", (A, "visited", "Lisbon")),
    ("Still painting every weekend.", (A, "activity", "painting")),
    ("Been practising the cello a lot.", (A, "activity", "cello")),
    ("Had an interview yesterday for a design job.", (A, "attended", "interview")),
    # a trip to a named place, or to a kind of place
    ("We went on a fishing trip in the mountains in May.", (A, "visited", "mountains")),
    ("Here's a photo from my Lisbon trip last year.", (A, "visited", "Lisbon")),
    # likings in common shapes
    ("Chess is my passion.", (A, "likes", "chess")),
    ("Swimming always makes me happy.", (A, "likes", "swimming")),
    ("Gardening brings me such joy.", (A, "likes", "gardening")),
    ("Apart from cooking, I also enjoy hiking.", (A, "likes", "cooking")),
    ("I enjoy hiking, playing chess, and visiting museums.", (A, "likes", "playing chess")),
    ("I enjoy hiking, playing chess, and visiting museums.", (A, "likes", "visiting museums")),
    # an activity the speaker calls theirs
    ("Tennis is really my thing.", (A, "activity", "Tennis")),
    ("Rowing has been really great for me.", (A, "activity", "rowing")),
    # activities, events and plans in common shapes
    ("I've been involved in some community theatre lately.", (A, "activity", "community theatre")),
    ("I started helping out with a book drive at the library.", (A, "activity", "book drive")),
    ("I've done strength training for a month.", (A, "activity", "strength training")),
    ("I made a scarf for a friend at my knitting club.", (A, "activity", "knitting club")),
    ("I'll keep going with my Spanish lessons.", (A, "studies", "Spanish")),
    ("I made a bowl in ceramics class yesterday.", (A, "attended", "ceramics class")),
    ("We just got back from a great jazz festival.", (A, "attended", "jazz festival")),
    ("I have a big race coming up next month.", (A, "plans", "race (2026-07)")),
    ("I'm busy getting ready for a concert next week.", (A, "plans", "concert (2026-W25)")),
    # possessions counted, a business named short, a life event, an emphatic liking
    ("I've got lots of guitars.", (A, "owns", "guitars")),
    ("Still growing my biz these days.", (A, "owns", "biz")),
    ("I had a car accident in March.", (A, "life_event", "car accident")),
    ("I do like jazz, honestly.", (A, "likes", "jazz")),
    # a list read as an adjunct, an activity beside a clause, an event ended up in
    ("I also enjoy knitting, baking bread, and visiting markets.", (A, "likes", "baking bread")),
    (
        "I also enjoy knitting, baking bread, and visiting markets.",
        (A, "likes", "visiting markets"),
    ),
    ("I spent a week with my cousins, kayaking every day.", (A, "activity", "kayaking")),
    ("Sam and I ended up in a chess tournament.", (A, "attended", "chess tournament")),
    (
        "Been a long week - had an exam yesterday for my driving licence.",
        (A, "attended", "exam"),
    ),
    # a love shared, a thing shown, an activity the model reads as a possessive
    ("My sister and I share a love for jazz.", (A, "likes", "jazz")),
    ("These are my new hiking boots.", (A, "owns", "new hiking boots")),
    ("Chess's totally my thing.", (A, "activity", "Chess")),
    ("Cooking for friends is something I enjoy.", (A, "likes", "cooking for friends")),
    # more instruments and events; carrying on with an activity
    ("Yeah, I play the oboe!", (A, "activity", "oboe")),
    ("We had a picnic by the river on Sunday.", (A, "activity", "picnic")),  # version 22
    ("I'm carrying on volunteering at the food bank.", (A, "activity", "volunteering")),
    # a clause a verb of telling reports holds whatever the frame's modality
    ("Quick update: wanted to tell you I joined a rowing club!", (A, "activity", "rowing club")),
    # an activity gerund alone, after an elided "I"; a favourite or top pick is a liking
    ("Been running more since the spring.", (A, "activity", "running")),
    ("Salsa is my top pick.", (A, "likes", "salsa")),
    ("Jazz is my favourite.", (A, "likes", "jazz")),
    # an event won, a place one was at, a plan being wrapped up
    ("I won my second chess tournament in May.", (A, "attended", "chess tournament")),
    ("I was at the beach all day.", (A, "visited", "beach")),
    ("I'm wrapping up the grant proposal.", (A, "works_on", "grant proposal")),
    # a love or passion of one's own, whatever the clause around it
    ("I'll keep pursuing my passion for photography.", (A, "likes", "photography")),
    ("It made me appreciate my love of cooking even more.", (A, "likes", "cooking")),
    # a place named after a preposition is worth parsing without another cue
    ("I was in Porto, it was lovely!", (A, "visited", "Porto")),
    # a named group gone to meets
    ("I went to a grief support group on Monday.", (A, "attended", "grief support group")),
    # a decision's verb phrase ends on its word
    (
        "We decided to host board game nights, which is great considering we all need a break.",
        (A, "decided", "host board game nights"),
    ),
    # trying one's hand at something
    ("I tried my hand at pottery for the first time!", (A, "tried", "pottery")),
    # "a little" is no childhood
    ("Went on a trip to Madrid last month to unwind a little.", (A, "visited", "Madrid")),
]
NOT_RECALLED = [
    # an imperative is not an elided "I"
    "Enjoy your trip to Lisbon!",
    "Sounds like a great trip.",
    # a liked gerund is not an activity the speaker does, nor a place visited
    "I enjoy playing chess.",
    "I enjoy cycling and exploring old towns.",
    # a participle alone is not "I have ..."
    "Stuck at the airport in Lisbon.",
    # a bare class: which one, the turn does not say
    "I fell asleep in class yesterday.",
    # someone else's lessons, asked about
    "Do you like my Spanish lessons?",
]
# What the recall rules first wrote on unlabelled development turns, wrongly (each failed
# before its fix): someone else's thing, a gerund subject, another's involvement, a gerund cut
# short, one piece of work, a past passion
NOT_THE_SPEAKERS = [
    "Loving your new haircut.",
    "Climbing to the summit was exhausting but worth it.",
    "I told my students to get involved in the chess club.",
    "Last night I did an oil painting.",
    "Fencing was my passion in school.",
    # a gerund beside a clause that is no activity is not the speaker's by position
    "I spent the summer writing about novels, studying characters and themes.",
    # a liking said of the future is no plan; keeping a thing somewhere is no activity
    "I will always love jazz.",
    "I keep my guitar in the closet.",
    # a reported clause keeps its own time and wishes; running late is no running
    "I'll text you once I'm done reading the manual.",
    "I wanted to tell you I'd love to join a chess club.",
    "I'm running late.",
    "I've been running for mayor.",
    # winning as a habit is no event; a band, love or home are no places
    "Nothing beats the feeling when I win a chess tournament.",
    "I was in a band in college.",
    "I was at home.",
    # an opponent played, a skill got better at, a fair share, more: none is a fact
    "We played a strong team last night.",
    "I'm getting better at my chess game.",
    "I've done my fair share of cleaning.",
    "Travel helps me learn more about myself.",
    # a love for one's own or for one thing is no liking of a kind
    "My passion for the campaign keeps me going.",
    # attracted is no drawing; "no writer" is no occupation; a need is no plan; someone
    # else's thing liked is a compliment; a deictic genre says nothing
    "I'm drawn to old lighthouses.",
    "I'm no chef, honestly.",
    "I'll just need the gluten-free version!",
    "I love his jokes and her voice.",
    "Honestly, I'm really into this genre.",
    # childhood still holds
    "When I was little, I went on a trip to Madrid.",
]


@pytest.mark.parametrize("text", NOT_THE_SPEAKERS)
def test_the_recall_rules_write_nothing_they_cannot_trust(text: str) -> None:
    assert facts(text) == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I love meeting new people and having a great time.", None),
        ("We love baking bread and talking about what we read.", None),
        ("Baking bread gives me happiness.", (A, "likes", "baking bread")),
        ("I'm struggling with my French lit class.", (A, "studies", "French lit")),
    ],
)
def test_listed_gerunds_are_whole_and_names_keep_their_words(
    text: str, fact: tuple[str, str, str] | None
) -> None:
    found = [(s, p, o) for s, p, o, _ in facts(text)]
    if fact is None:
        assert not [f for f in found if f[2] in ("having time", "talking")]
    else:
        assert fact in found


def test_one_thing_named_twice_in_a_turn_is_written_once() -> None:
    text = "I'm growing my pottery studio. People love my studio."
    assert [(p, o) for _, p, o, _ in facts(text)] == [("owns", "pottery studio")]


@pytest.mark.parametrize(("text", "fact"), RECALL_FACTS)
def test_the_recall_rules_read_common_shapes(text: str, fact: tuple[str, str, str]) -> None:
    assert fact in [(s, p, o) for s, p, o, _ in facts(text)]


@pytest.mark.parametrize("text", NOT_RECALLED)
def test_the_recall_rules_leave_what_they_must_not_read(text: str) -> None:
    assert [f for f in facts(text) if f[1] != "likes"] == []


def test_a_trip_and_an_elided_speaker_keep_their_dates() -> None:
    trip = drafts("Took a quick trip to Lisbon last week.")
    assert [(d["object"], d["valid_from"][:10]) for d in trip] == [("Lisbon", "2026-06-01")]
    mine = drafts("Here's a photo from my Lisbon trip last year.")
    assert [(d["object"], d["valid_from"][:10]) for d in mine] == [("Lisbon", "2025-01-01")]


# --- version 12: a new user's trial in chat and in an agent's notes (our own sentences; each
# failed on version 11) ------------------------------------------------------------------------


def test_a_job_started_ahead_is_a_plan_dated_ahead_never_the_job() -> None:
    """ "I start as charge nurse in January" wrote nothing; "I start a new job at a bank in
    January" wrote works_at bank, of a job not begun. The January to come, not the last."""
    assert facts("I start as charge nurse in January.") == [
        (A, "plans", "start as charge nurse (2027-01)", True)
    ]
    assert facts("I start a new job at a bank in January.") == [
        (A, "plans", "start new job (2027-01)", True)
    ]
    assert facts("I start my new job on Monday.") == [
        (A, "plans", "start new job (2026-06-15)", True)
    ]
    assert facts("I'm starting as head chef in March.") == [
        (A, "plans", "starting as head chef (2027-03)", True)
    ]
    assert facts("I start as charge nurse.") == []  # no time: a habit or ahead, unsaid
    assert facts("I always start as goalkeeper.") == []


def test_an_event_signed_up_for_ahead_is_a_plan_with_its_date() -> None:
    """ "I signed up for the Berlin marathon next September" wrote nothing."""
    assert facts("I signed up for the Berlin marathon next September.") == [
        (A, "plans", "Berlin marathon (2026-09)", True)
    ]
    assert facts("I registered for the Chicago marathon next month.") == [
        (A, "plans", "Chicago marathon (2026-07)", True)
    ]
    assert facts("I signed up for a half marathon last year.") == []  # the race is not said
    assert facts("I signed up for the Berlin marathon.") == []
    assert facts("I signed up for a pottery class that starts next month.") == [
        (A, "plans", "pottery class (2026-07)", True)  # version 14: a class not yet begun
    ]


def test_a_life_event_or_a_move_still_ahead_is_a_plan() -> None:
    """ "I'm retiring next year" wrote life_event retired; "I'm getting married in
    September" wrote got married, dated the September before; "We're moving to Berlin"
    wrote lives_in Berlin."""
    assert facts("I'm retiring next year.") == [(A, "plans", "retiring (2027)", True)]
    assert facts("I'm getting married in September.") == [
        (A, "plans", "getting married (2026-09)", True)
    ]
    assert facts("We're moving to Berlin.") == [(A, "plans", "moving to Berlin", True)]
    assert facts("I retired last year.") == [(A, "life_event", "retired", True)]
    assert facts("We moved to Berlin.") == [(A, "lives_in", "Berlin", True)]


def test_a_pet_named_right_after_takes_its_name() -> None:
    """ "I adopted a rescue greyhound last Sunday. Her name is Pepper" wrote /dog, not
    /dog:Pepper; "a greyhound named Pepper" was already /dog:Pepper."""
    (pet,) = drafts("I adopted a rescue greyhound last Sunday. Her name is Pepper.")
    assert (pet["predicate"], pet["object"]) == ("has_pet", f"{A}/dog:Pepper")
    assert pet["valid_from"].startswith("2026-06-07")
    assert facts("I adopted a cat, her name is Mochi.") == [(A, "has_pet", f"{A}/cat:Mochi", True)]
    assert facts("We got a puppy. We named him Biscuit.") == [
        (A, "has_pet", f"{A}/dog:Biscuit", True)
    ]
    sister = f"{A}/sister"  # whose name, the sister's or the dog's: not said
    assert facts("My sister got a dog. Her name is Coco.") == [
        (sister, "has_pet", f"{sister}/dog", True),
        (A, "has_relative", sister, True),
    ]
    assert facts("I got a dog. Her name is Monday.") == [(A, "has_pet", f"{A}/dog", True)]


def test_a_pet_named_by_the_kids_two_sentences_on_takes_its_name() -> None:
    """Version 17, a new user's trial: "We got a puppy on Sunday! A golden retriever. The
    kids named him Biscuit." wrote /dog: the name was two sentences on, given by the kids."""
    (pet,) = drafts("We got a puppy on Sunday! A golden retriever. The kids named him Biscuit.")
    assert (pet["predicate"], pet["object"]) == ("has_pet", f"{A}/dog:Biscuit")
    assert facts("I adopted a kitten. The children named her Luna.") == [
        (A, "has_pet", f"{A}/cat:Luna", True)
    ]
    # a sentence between that says more of its own: whose name it is, the words do not say
    between = "We got a puppy. We moved to Berlin. The kids named him Biscuit."
    assert (A, "has_pet", f"{A}/dog", True) in facts(between)
    three_back = "We got a puppy. It was raining. It was cold. The kids named him Rex."
    assert facts(three_back) == [(A, "has_pet", f"{A}/dog", True)]


def test_an_event_of_a_friends_was_attended_and_a_translator_is_an_occupation() -> None:
    """ "I played the saxophone at my friend's wedding on Saturday" wrote no attended (the
    phrase held "my"); "I work as a freelance translator" wrote nothing."""
    found = drafts("I played the saxophone at my friend's wedding on Saturday.")
    wedding = [d for d in found if d["predicate"] == "attended"]
    assert [d["object"] for d in wedding] == ["friend's wedding"]
    assert wedding[0]["valid_from"].startswith("2026-06-06")
    assert facts("I work as a freelance translator.") == [
        (A, "works_as", "freelance translator", True)
    ]


# --- extractor version 5: precision, on shapes rather than phrases (sentences of our own) ---


@pytest.mark.parametrize(
    "text",
    [
        "I love the colour and the smell.",  # what is at hand: a reaction, not a taste
        "Loving the warmth and support.",
        "I really enjoy this puzzle I found.",  # which puzzle, the turn does not say
        "I adore his drawings.",
    ],
)
def test_a_liked_thing_pointed_at_names_no_liking(text: str) -> None:
    assert [f for f in facts(text) if f[1] == "likes"] == []


@pytest.mark.parametrize(
    ("text", "liked"),
    [
        ("I love old maps.", "old maps"),
        ("I adore these hand-painted tiles.", "hand-painted tiles"),  # described: a kind
        ("I love the Beatles.", "Beatles"),  # a name
        ("I'm a big fan of Pirates of the Caribbean.", "Pirates of the Caribbean"),
    ],
)
def test_a_liking_of_a_kind_or_a_name_is_kept_and_written_once(text: str, liked: str) -> None:
    assert [f for f in facts(text) if f[1] == "likes"] == [(A, "likes", liked, True)]


def test_a_means_of_ones_own_is_no_tool_used() -> None:
    assert facts("I used my network and my writing skills to find clients.") == []
    assert facts("I use my voice to help others.") == []
    assert facts("We use a kanban board to plan sprints.") == [(A, "uses", "kanban board", True)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My dream is to sail around Iceland.", []),  # a wish
        ("My aim was to finish the quilt by spring.", []),  # past: no plan now
        ("My plan is to repaint the kitchen.", [(A, "plans", "repaint the kitchen", True)]),
        ("My goal is to run a marathon.", [(A, "plans", "run a marathon", True)]),
    ],
)
def test_only_a_plan_or_a_goal_said_now_is_a_plan(
    text: str, expected: list[tuple[str, str, Any, bool]]
) -> None:
    assert facts(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Last week I chose to go to a jazz festival.", []),  # chosen, not said to be done
        ("Last week I agreed to host a charity quiz.", []),
        ("I started to volunteer at the library.", [(A, "activity", "volunteering", True)]),
        ("Yesterday I decided to go to a book fair.", [(A, "decided", "go to a book fair", True)]),
    ],
)
def test_an_infinitive_is_done_only_under_a_verb_that_says_so(
    text: str, expected: list[tuple[str, str, Any, bool]]
) -> None:
    assert facts(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I've been working on it for a while, so glad it's done.",  # a time, not an employer
    ],
)
def test_an_object_that_is_no_noun_is_not_written(text: str) -> None:
    assert facts(text) == []


def test_going_somewhere_now_is_an_arrangement_not_a_visit() -> None:
    assert facts("I'm going to a jazz festival this month.") == [
        (A, "plans", "jazz festival (2026-06)", True)
    ]
    assert facts("I went to a jazz festival last week.") == [(A, "attended", "jazz festival", True)]


def test_one_fact_read_two_ways_is_written_once_as_worded() -> None:
    assert facts("I love cleaning the beach.") == [(A, "likes", "cleaning the beach", True)]


# --- extractor version 6: recall, on dependency shapes that recur across the development sets
# (sentences of our own) ---


@pytest.mark.parametrize(
    ("text", "liked"),
    [
        ("Teaching kids to swim brings me so much joy.", "teaching kids to swim"),
        ("Being able to help my neighbours gives me joy.", "being able to help my neighbours"),
        ("Seeing my pupils get better at chess brings me such joy.", None),  # and a relative
    ],
)
def test_a_clause_that_brings_the_speaker_joy_is_a_liking(text: str, liked: str | None) -> None:
    found = [f[2] for f in facts(text) if f[1] == "likes"]
    assert found == [liked or "seeing my pupils get better at chess"]


def test_a_joy_clause_naming_its_object_by_a_pronoun_is_no_liking() -> None:
    assert facts("Being with them brings me joy.") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("That photo is from a jazz concert I went to.", [(A, "attended", "jazz concert", True)]),
        ("This photo is from a dance recital I went to.", [(A, "attended", "dance recital", True)]),
    ],
)
def test_a_relative_clause_left_without_its_prepositions_object_reads_the_noun(
    text: str, expected: list[tuple[str, str, Any, bool]]
) -> None:
    assert facts(text) == expected


def test_a_stranded_preposition_keeps_the_time_after_it() -> None:
    found = drafts("The best part was a jazz concert I went to last month.")
    assert [(d["predicate"], d["object"]) for d in found] == [("attended", "jazz concert")]
    assert found[0]["valid_from"].startswith("2026-05")


def test_a_relative_clause_of_someone_else_or_with_its_own_object_reads_nothing_new() -> None:
    assert facts("That photo is from a concert she went to.") == []
    assert [f for f in facts("The concert, which I went to, was loud.") if f[1] == "attended"] in (
        [],
        [(A, "attended", "concert", True)],
    )


@pytest.mark.parametrize(
    ("text", "liked"),
    [
        ("We love cooking, swimming, and playing cards.", ["cooking", "swimming", "playing cards"]),
        (
            "We love prepping the garden and talking about what we planted.",
            ["prepping the garden", "talking about what we planted"],
        ),
    ],
)
def test_every_gerund_of_a_liked_list_is_written_whole(text: str, liked: list[str]) -> None:
    assert sorted(f[2] for f in facts(text) if f[1] == "likes") == sorted(liked)


def test_a_listed_thing_with_an_article_is_no_misread_gerund() -> None:
    assert "swimming pool" not in [f[2] for f in facts("I enjoy hiking and the swimming pool.")]


@pytest.mark.parametrize(
    ("text", "activity"),
    [
        ("Knitting is a huge part of my life.", "knitting"),
        ("Painting is like second nature to me.", "painting"),
        ("It's been hard, but swimming has kept me going.", "swimming"),
        ("Yoga has helped me a lot.", "yoga"),
    ],
)
def test_an_activity_that_is_part_of_the_speaker_is_done(text: str, activity: str) -> None:
    assert facts(text) == [(A, "activity", activity, True)]


@pytest.mark.parametrize(
    "text",
    [
        "Swimming scares me.",  # what it does to the speaker says nothing of doing it
        "Running is hard for me.",
        "Cooking was my life.",  # a past
        "The painting helped me.",  # one painting, not the practice
    ],
)
def test_an_activity_said_of_the_speaker_otherwise_is_not_done(text: str) -> None:
    assert [f for f in facts(text) if f[1] == "activity"] == []


def test_an_activity_that_brings_joy_is_a_liking_only() -> None:
    assert facts("Dancing makes me so happy.") == [(A, "likes", "dancing", True)]


@pytest.mark.parametrize(
    ("text", "predicate", "day"),
    [
        (
            "Something exciting happened last Friday. I went to a jazz festival.",
            "attended",
            "2026-06-05",
        ),
        (
            "Hey, last week was really eye-opening. I visited a children's hospital.",
            "visited",
            "2026-06-01",
        ),
    ],
)
def test_a_past_time_announced_just_before_dates_a_one_off_fact(
    text: str, predicate: str, day: str
) -> None:
    found = drafts(text)
    assert [d["predicate"] for d in found] == [predicate]
    assert found[0]["valid_from"].startswith(day)


def test_a_time_announced_before_dates_no_state_and_no_fact_with_its_own_time() -> None:
    assert "valid_from" not in drafts("Last week was hard. I love painting though.")[0]
    found = drafts("I went to a jazz festival last Friday. I visited a museum too.")
    assert [d.get("valid_from", "")[:10] for d in found] == ["2026-06-05", ""]


# --- extractor version 7: precision on new text, on shapes of the parse (sentences of our own) ---


@pytest.mark.parametrize(
    "text",
    [
        "I painted it for my mum.",  # a pronoun object: one piece the turn shows
        "I drew it last night.",
        "I've begun knitting another one for my niece.",  # one piece begun
    ],
)
def test_one_piece_of_work_is_no_practice(text: str) -> None:
    assert [f for f in facts(text) if f[1] == "activity"] == []


def test_a_practice_without_one_piece_is_still_an_activity() -> None:
    assert facts("I paint every weekend.") == [(A, "activity", "painting", True)]


@pytest.mark.parametrize(
    ("text", "liked"),
    [
        ("I'm passionate about gardening and her roses.", ["gardening"]),
        ("I love jazz and his humour.", ["jazz"]),
    ],
)
def test_a_liked_conjunct_of_someone_elses_is_refused_on_its_own(
    text: str, liked: list[str]
) -> None:
    assert [f[2] for f in facts(text) if f[1] == "likes"] == liked


def test_one_of_my_favourite_kinds_said_of_a_thing_is_not_the_kind_liked() -> None:
    # the thing is liked (version 20), never the kind it is one of
    assert facts('"Dune" is one of my favourite novels.') == [(A, "likes", "Dune", True)]
    assert facts("My favourite novels are thrillers.") == [(A, "likes", "thrillers", True)]


def test_a_habit_in_the_present_is_not_dated_by_a_past_time() -> None:
    found = drafts("I gave my old bike to a charity I volunteer at yesterday.")
    assert [(d["predicate"], d["object"]) for d in found] == [("activity", "volunteering")]
    assert "valid_from" not in found[0]
    trip = drafts("Here's a photo from my Lisbon trip last year.")  # a copula: still dated
    assert [d["valid_from"][:10] for d in trip] == ["2025-01-01"]


def test_a_gerund_under_tried_is_an_attempt_only_with_its_article() -> None:
    assert facts("I tried writing a poem, but it didn't work out.") == [
        (A, "tried", "writing a poem", True)
    ]
    assert facts("I tried baking a cake.") == [(A, "tried", "baking a cake", True)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I love exploring new cities.", (A, "likes", "exploring new cities", True)),
        ("I'm working on a new project.", (A, "works_on", "new project", True)),
    ],
)
def test_new_is_kept_as_written(text: str, expected: tuple[str, str, Any, bool]) -> None:
    assert facts(text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "I love escaping to that place.",  # which place, the turn does not say
        "My favourite one is a song from an old film.",  # one song, not named
        "I bought this scarf for you!",  # the addressee's
        "We need a bigger room for the kids to dance in.",  # still needed: not done
        "I hate not having my morning coffee.",  # a negated gerund: no reliable polarity
    ],
)
def test_unnamed_or_someone_elses_or_undone_things_are_not_written(text: str) -> None:
    assert facts(text) == []


def test_signing_someone_else_up_is_their_activity_not_mine() -> None:
    assert facts("I signed my son up for judo.") == [(A, "has_relative", f"{A}/son", True)]


def test_one_activity_is_written_once_in_its_longer_wording() -> None:
    assert facts("I just started volunteering at a local food bank.") == [
        (A, "activity", "volunteering at local food bank", True)
    ]


@pytest.mark.parametrize(
    ("text", "liked"),
    [
        ("I do love baking bread.", "baking bread"),
        ("I do like jazz, so that could be fun.", "jazz"),
    ],
)
def test_an_emphatic_do_before_love_or_like_is_a_liking(text: str, liked: str) -> None:
    assert facts(text) == [(A, "likes", liked, True)]


def test_an_emphatic_liking_under_a_condition_is_not_written() -> None:
    assert facts("If I do like cats, I will adopt one.") == []


def test_a_childhood_clause_on_the_liked_gerund_is_then_not_now() -> None:
    assert facts("I loved reading comics when I was a kid.") == []
    assert facts("I love reading comics while I travel.") == [(A, "likes", "reading comics", True)]


def test_a_loved_relative_is_a_relative_not_a_taste() -> None:
    assert facts("I love my kids so much.") == [(A, "has_relative", f"{A}/children", True)]


def test_a_favourite_the_turn_points_at_is_no_taste_but_a_named_one_is() -> None:
    assert facts("My favourite part was the fireworks.") == []
    assert facts("My favourite band is Queen.") == [(A, "likes", "Queen", True)]


def test_the_piece_a_relative_clause_names_is_no_practice_but_a_place_is_not_a_piece() -> None:
    assert facts("This is the scarf I knitted last winter.") == []
    assert facts("These are scarves I knit every winter.") == [(A, "activity", "knitting", True)]
    assert facts("I gave a talk at the shelter I volunteer at.") == [
        (A, "activity", "volunteering", True)
    ]


# --- extractor version 8: new text (the fifth sealed set read; sentences of our own) -----------


@pytest.mark.parametrize(
    "text",
    [
        "My family is always there for me.",
        "My fam's been great through all of it.",
        "I cooked dinner for my family last night.",
    ],
)
def test_my_family_is_a_relative_of_the_speaker(text: str) -> None:
    assert (A, "has_relative", f"{A}/family", True) in facts(text)


def test_a_family_wished_for_is_no_relative() -> None:
    assert facts("I want to start my own family someday.") == []


@pytest.mark.parametrize(
    ("text", "pet"),
    [
        ("I got a beagle named Pico.", f"{A}/dog:Pico"),
        ("We adopted a corgi named Biscuit.", f"{A}/dog:Biscuit"),
        ("I just got a puppy named Rolo.", f"{A}/dog:Rolo"),
    ],
)
def test_a_breed_is_the_pet_with_its_name(text: str, pet: str) -> None:
    assert facts(text) == [(A, "has_pet", pet, True)]


def test_a_plan_with_a_vague_time_is_written_with_the_time_left_open() -> None:
    for text in ("I will visit Lisbon in the spring.", "We'll visit Lisbon over the holidays."):
        found = drafts(text)
        assert [(d["predicate"], d["object"]) for d in found] == [("plans", "visit Lisbon")]
        assert "valid_from" not in found[0] or found[0]["valid_from"] == AT


def test_a_plan_keeps_a_month_it_cannot_resolve() -> None:
    assert facts("I will visit Lisbon in May.") == [(A, "plans", "visit Lisbon in May", True)]


def test_signing_up_for_a_class_is_an_activity_taken_up() -> None:
    assert facts("I signed up for a pottery class.") == [(A, "activity", "pottery class", True)]


@pytest.mark.parametrize(
    ("text", "group"),
    [
        ("I joined a poetry group.", "poetry group"),
        ("Last month I joined an online chess forum.", "online chess forum"),
        ("I wanted to tell you I joined a hiking community.", "hiking community"),
    ],
)
def test_a_group_joined_is_an_activity(text: str, group: str) -> None:
    assert (A, "activity", group, True) in facts(text)


def test_a_group_that_says_no_kind_is_not_written() -> None:
    assert facts("I joined a group.") == []


def test_a_gerund_subject_with_my_object_is_the_speakers() -> None:
    assert facts("Losing my job hurt a lot.") == [(A, "life_event", "lost job", True)]
    assert facts("Climbing the hill was hard.") == []


def test_a_chance_taken_is_done_and_a_chance_missed_is_not() -> None:
    assert facts("I finally had the opportunity to volunteer at the animal rescue.") == [
        (A, "activity", "volunteering", True)
    ]
    assert facts("I never had the chance to volunteer.") == []
    assert facts("I hope I get the chance to volunteer.") == []


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        ("Anxiety has been hard, but I'm coping.", "anxiety"),
        ("It's been a slow month for me with this flu.", "flu"),
    ],
)
def test_a_condition_with_no_owner_in_a_sentence_about_me_is_mine(
    text: str, condition: str
) -> None:
    assert facts(text) == [(A, "health_condition", condition, True)]


@pytest.mark.parametrize(
    "text",
    ["How's your injury?", "I'm helping kids with anxiety.", "She told me her injury is bad."],
)
def test_a_condition_of_someone_else_is_not_mine(text: str) -> None:
    assert not [f for f in facts(text) if f[1] == "health_condition"]


def test_a_one_time_liking_in_the_past_is_no_taste() -> None:
    assert facts("I loved just relaxing and watching the waves.") == []
    assert facts("I've always loved hiking.") == [(A, "likes", "hiking", True)]
    assert facts("I love hiking.") == [(A, "likes", "hiking", True)]


def test_a_noun_with_two_possessors_is_a_misparse_and_not_written() -> None:
    assert facts("Runnin' my shop has been tough.") == []


def test_a_talk_had_is_a_conversation_but_a_talk_gone_to_is_attended() -> None:
    assert facts("Yesterday I had a long talk about books with a friend.") == []
    assert (A, "attended", "talk", True) in facts("I went to a talk about bees yesterday.")


def test_a_weekday_written_short_dates_the_fact() -> None:
    found = drafts("I joined a photography club last Tues.")  # the 10th is a Wednesday
    assert [(d["object"], d["valid_from"][:10]) for d in found] == [
        ("photography club", "2026-06-09")
    ]


def test_an_approximate_time_ago_is_left_open() -> None:
    found = drafts("I took up the cello about six years ago.")
    assert [d["object"] for d in found] == ["cello"]
    assert found[0].get("valid_from", AT) == AT


@pytest.mark.parametrize(
    "text",
    [
        "I almost bought a house.",
        "I nearly adopted a cat.",
        "I was going to buy a bike.",
        "We were going to visit Rome but cancelled.",
    ],
)
def test_what_almost_happened_or_was_once_meant_is_neither_done_nor_planned(text: str) -> None:
    assert facts(text) == []


def test_a_plan_in_the_present_is_still_a_plan() -> None:
    assert facts("I'm going to buy a bike.") == [(A, "plans", "buy a bike", True)]


def test_a_weekday_in_the_plural_is_a_habit_neither_dated_nor_a_place() -> None:
    found = drafts("I go swimming on Tuesdays.")
    assert [(d["predicate"], d["object"]) for d in found] == [("activity", "swimming")]
    assert found[0].get("valid_from", AT) == AT


def test_a_doubt_denied_before_a_liking_states_no_liking() -> None:
    assert facts("I don't think I like sushi.") == []
    assert facts("I don't think I'll go to the concert.") == []


def test_a_gift_for_the_addressee_and_a_fan_of_yours_are_not_the_speakers() -> None:
    assert facts("I bought you a gift.") == []
    assert facts("I'm a huge fan of yours!") == []
    assert facts("I bought myself a new bike.") == [(A, "owns", "new bike", True)]


# --- version 13: a new user's trial in Chinese (our own sentences; each failed on version 12) ---

ZH_AT = "2026-11-20T12:00:00+00:00"  # a Friday


def zh_facts(text: str) -> list[tuple[str, str, Any, bool]]:
    return sorted(facts(text, ZH_AT), key=repr)


def test_a_measure_word_is_no_part_of_the_employer() -> None:
    """ "现在在一家游戏公司做产品经理" wrote works_at 一家游戏公司."""
    assert zh_facts("小陈，好久不见！我上周换了工作，现在在一家游戏公司做产品经理。") == [
        (A, "works_as", "产品经理", True),
        (A, "works_at", "游戏公司", True),
    ]
    sister = f"{A}/sister"
    assert (sister, "works_at", "医院", True) in zh_facts("我姐姐在一家医院工作，是一名护士。")
    assert zh_facts("我在一所中学当数学老师。") == [
        (A, "works_as", "数学老师", True),
        (A, "works_at", "中学", True),
    ]
    assert zh_facts("我在一家咖啡店等你。") == []


def test_a_plan_keeps_the_month_and_day_it_is_dated_by_out_of_its_object() -> None:
    """ "打算明年四月去京都看樱花" wrote plans "四月去京都看樱花 (2027)"."""
    assert zh_facts("恭喜啊！我最近在学日语，打算明年四月去京都看樱花。") == [
        (A, "plans", "去京都看樱花 (2027-04)", True),
        (A, "studies", "日语", True),
    ]
    assert zh_facts("我打算下个月五号去上海出差。") == [
        (A, "plans", "去上海出差 (2026-12-05)", True)
    ]
    assert zh_facts("我准备参加十二月的广州马拉松。") == [
        (A, "plans", "参加广州马拉松 (2026-12)", True)
    ]


def test_a_pet_of_my_home_is_my_pet_with_its_name() -> None:
    """ "我家的狗叫豆豆" wrote nothing (only 我的狗 was read)."""
    assert zh_facts("太棒了。我家的狗叫豆豆，是一只柯基，今年两岁了。") == [
        (A, "has_pet", f"{A}/dog:豆豆", True)
    ]
    assert zh_facts("我们家的猫叫团子，特别黏人。") == [(A, "has_pet", f"{A}/cat:团子", True)]
    assert zh_facts("我家的事你别管。") == []


def test_a_relatives_surgery_or_illness_is_their_health_condition() -> None:
    """ "我妈妈上个月做了白内障手术" wrote only has_relative."""
    mother = f"{A}/mother"
    (surgery,) = [
        d
        for d in drafts("好可爱！我妈妈上个月做了白内障手术，现在恢复得不错。", ZH_AT)
        if d["predicate"] == "health_condition"
    ]
    assert (surgery["subject"], surgery["object"]) == (mother, "白内障手术")
    assert surgery["valid_from"].startswith("2026-10-01")
    grandmother = f"{A}/grandmother"
    assert (grandmother, "health_condition", "糖尿病", True) in zh_facts("我奶奶去年得了糖尿病。")
    assert zh_facts("我弟弟得了第一名。") == [(A, "has_relative", f"{A}/brother", True)]


def test_a_mountain_climbed_and_a_place_gone_to_are_visits_but_an_errand_is_not() -> None:
    """ "我周末去爬了黄山" wrote nothing; a bare 周末 is no date."""
    found = drafts("我周末去爬了黄山，风景特别美。", ZH_AT)
    assert sorted((d["predicate"], d["object"]) for d in found) == [
        ("activity", "爬山"),
        ("visited", "黄山"),
    ]
    assert all(d.get("valid_from", ZH_AT) == ZH_AT for d in found)
    (trip,) = drafts("我上个月去了成都，吃了很多火锅。", ZH_AT)
    assert (trip["predicate"], trip["object"]) == ("visited", "成都")
    assert trip["valid_from"].startswith("2026-10-01")
    assert zh_facts("我去过日本三次。") == [(A, "visited", "日本", True)]
    assert zh_facts("我还没去过西藏。") == [(A, "visited", "西藏", False)]
    for errand in ("我去了趟超市。", "我昨天去了医院。", "我去了朋友家吃饭。", "我去过三次了。"):
        assert zh_facts(errand) == [], errand
    assert zh_facts("我去了解一下情况。") == []


def test_a_daily_or_weekly_habit_is_an_activity_and_every_saturday_no_date() -> None:
    """ "我每天早上跑五公里" wrote no activity."""
    assert zh_facts("我每天早上跑五公里，准备参加十二月的广州马拉松。") == [
        (A, "activity", "跑步", True),
        (A, "plans", "参加广州马拉松 (2026-12)", True),
    ]
    (swim,) = drafts("我每周六都去游泳。", ZH_AT)
    assert (swim["predicate"], swim["object"]) == ("activity", "游泳")
    assert swim.get("valid_from", ZH_AT) == ZH_AT  # not last Saturday
    assert (f"{A}/wife", "activity", "跑步", True) in zh_facts("我老婆每天早上都跑步。")
    assert zh_facts("我每天晚上练一个小时瑜伽。") == [(A, "activity", "瑜伽", True)]
    for text in ("我以前每天跑步，现在不跑了。", "如果我每天跑步就好了。", "我每天都要做饭。"):
        assert zh_facts(text) == [], text


def test_leaving_a_job_is_a_life_event_and_not_yet_retired_is_none() -> None:
    """ "我去年十二月从腾讯离职了" wrote nothing; "我爸还没退休" wrote life_event 退休."""
    left, employer = drafts("我去年十二月从腾讯离职了。", ZH_AT)
    assert (left["predicate"], left["object"]) == ("life_event", "离职")
    assert left["valid_from"].startswith("2025-12-31T23:59:59")  # version 33: the withdrawal's
    # version 26: the employer is withdrawn from then
    assert (employer["predicate"], employer["object"], employer["polarity"]) == (
        "works_at",
        "腾讯",
        False,
    )
    # version 31: by the end of the month at the latest (the life event keeps its month)
    assert employer["valid_from"].startswith("2025-12-31T23:59:59")
    assert zh_facts("我同事离职了。") == []
    assert zh_facts("我爸还没退休。") == [(A, "has_relative", f"{A}/father", True)]


def test_version_22_reads_joined_relatives_picnics_trips_and_pastimes() -> None:
    """Version 22, from the thirteenth sealed set's errors (development data now): each
    sentence wrote a wrong fact, or missed one, on version 21."""
    # a relation noun joined to a possessed one is the speaker's too
    assert facts("I'm lucky to have my husband and kids.") == [
        (A, "has_relative", f"{A}/husband", True),
        (A, "has_relative", f"{A}/children", True),
    ]
    assert facts("I love my husband and the kids.") == [(A, "has_relative", f"{A}/husband", True)]
    assert facts("I met my sister and her husband.") == [(A, "has_relative", f"{A}/sister", True)]
    # a picnic one had is an activity (version 21: attended)
    (picnic,) = drafts("Last weekend I had a picnic with some friends from church.")
    assert (picnic["predicate"], picnic["object"]) == ("activity", "picnic")
    assert picnic["valid_from"].startswith("2026-06-01")
    assert facts("I had a party last week.") == [(A, "attended", "party", True)]
    # a liked pastime in the infinitive, said of a habit
    assert facts("I like to collect jerseys.") == [(A, "likes", "collecting jerseys", True)]
    assert facts("I love to go hiking on weekends.") == [(A, "likes", "hiking", True)]
    for text in ("I'd love to try it!", "I like to think that I am kind.", "I liked to read."):
        assert facts(text) == [], text
    # the listener's recommendation, and "the thought" with a name called out, are no tastes
    assert facts("I really like your coconut reccomendation you gave a while back!") == []
    assert facts("I love the thought Nate!") == []
    # a trip to a named place, told in the past, is a visit; a trip ahead is none
    assert facts("I got the idea from that trip to England a few years ago.") == [
        (A, "visited", "England", True)
    ]
    assert facts("My trip to Paris was great.") == [(A, "visited", "Paris", True)]
    assert facts("I'm thinking about my trip to Japan next month.") == []
    # a liking held since childhood, in the perfect, holds now; in the past it does not
    assert facts("I've always liked turtles since I was a boy.") == [(A, "likes", "turtles", True)]
    assert facts("I loved turtles when I was a boy.") == []
    # a thing never tried, with its polarity
    assert facts("I've never really tried publishing a book.") == [
        (A, "tried", "publishing a book", False)
    ]
    assert facts("I never tried to call him.") == []


def test_weekends_ago_date_the_week_of_that_weekend() -> None:
    """ "two weekends ago" was left open on version 21."""
    (hiking,) = drafts("I went hiking two weekends ago.")  # said on Wednesday 2026-06-10
    assert hiking["valid_from"].startswith("2026-05-25")  # the week of May 30-31


def test_version_23_mends_from_a_new_users_trial() -> None:
    """Version 23, from a new user's trial of two friends' chat (each wrote a wrong fact or a
    cut object on version 22)."""
    # a name keeps its own "of" (version 22: "camping trip to the Isle")
    assert facts("We've booked a camping trip to the Isle of Skye for August.") == [
        (A, "plans", "camping trip to the Isle of Skye", True)
    ]
    # the doer of a verb with an object has no status (version 22: campsite status cancelled)
    assert facts("Skye is off, the campsite flooded and cancelled our booking.") == []
    assert facts("The airline cancelled our flight.") == []
    assert facts("Build 1842 failed.") == [("build 1842", "status", "failed", True)]
    # a return still ahead is no visit (version 22: visited Brighton)
    assert facts("Drinks are on me once I'm back from Brighton after the weekend.") == []
    assert facts("I'm back from Lisbon!") == [(A, "visited", "Lisbon", True)]


def test_version_24_reads_dashes_own_weddings_and_plans_without_their_time() -> None:
    """Version 24, from the fourteenth sealed set's errors (development data now): each
    sentence wrote a wrong fact, or missed one, on version 23."""
    # a hyphen between spaces is the dash it stands for (German was hung on "tough")
    assert facts("I'm learning German now - tough but fun.") == [(A, "studies", "German", True)]
    # a wedding had with a partner is one's own, a life event (version 23: attended)
    (wedding, partner) = drafts("My girlfriend and I had an amazing wedding ceremony last week.")
    assert (wedding["predicate"], wedding["object"]) == ("life_event", "wedding")
    assert wedding["valid_from"].startswith("2026-06-01")
    assert (partner["predicate"], partner["object"]) == ("has_relative", f"{A}/partner")
    assert facts("We had our wedding in June.")[0][1:3] == ("life_event", "wedding")
    assert facts("We had a wedding last weekend.") == [(A, "attended", "wedding", True)]
    # with the dash read, "working on - super excited" is no object cut at a predicate any
    # more (version 5 refused it): the podcast is what is worked on
    assert facts("Been discussing ideas for a podcast I am working on - super excited!") == [
        (A, "works_on", "podcast", True)
    ]
    # a plan keeps no vague time hung on its object ("in the future")
    assert facts("There's a chance I'll be visiting more HP spots in the future.") == [
        (A, "plans", "visiting more HP spots", True)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "I accepted a job at Acme but then declined it.",
        "I accepted the offer from Acme, then turned it down.",
        "I signed up for pottery but cancelled a week later.",
        "I signed up for pottery but changed my mind.",
    ],
)
def test_version_27_a_verb_undone_in_its_sentence_states_nothing(text: str) -> None:
    """Version 27, from a new user's trial: "I accepted a job at Acme but then declined it"
    wrote ``works_at Acme`` (0.9) on version 26."""
    assert facts(text) == []


def test_version_27_a_verb_followed_by_another_still_states() -> None:
    assert facts("I accepted an offer from Brightpath and started on Monday.")[0][1:3] == (
        "works_at",
        "Brightpath",
    )


@pytest.mark.parametrize(
    "text",
    [
        'Tom said "I live in Paris now"',
        'my friend Priya: "I just moved to Madrid!"',
        '"I work at Google" - my brother, every time he opens his mouth',
        "my boss said 'I'm moving to Berlin next year' so that's fun",
        "my sister texted 'I love Oslo but the prices are insane'",
        "I wish I lived in Lisbon",
        "in another life I live in Lisbon and own a boat",
        "In a perfect world I'd work at Google.",
        "In my dreams I own a boat.",
    ],
)
def test_version_27_quoted_words_wishes_and_other_worlds_are_no_facts_of_the_speaker(
    text: str,
) -> None:
    """Version 27, from a new user's trial of a year of chat: each wrote a fact of the
    speaker on version 26 (``lives_in "I live in Paris now"``, ``plans moving to Berlin``,
    ``likes Oslo``, ``lives_in Lisbon``, ``owns boat``, ...). Relatives named around the
    quote are still the speaker's relatives."""
    found = facts(text)
    assert all(p in ("has_relative", "has_friend") for _, p, _, _ in found), found


def test_version_27_titles_in_quotes_are_still_liked() -> None:
    assert facts('I love "Home Alone".') == [(A, "likes", "Home Alone", True)]
    assert (A, "likes", "Dune", True) in facts("the kids' toys are everywhere and I love 'Dune'")


@pytest.mark.parametrize(
    ("text", "predicate", "value"),
    [
        ("i live in Manchester rn, been here 3 yrs", "lives_in", "Manchester"),
        ("I'm allergic to penicillin btw, found out the hard way", "allergic_to", "penicillin"),
        ("I work at Acme Corp atm", "works_at", "Acme Corp"),
    ],
)
def test_version_27_chat_abbreviations_are_no_part_of_a_value(
    text: str, predicate: str, value: str
) -> None:
    """Version 27: "Manchester rn", "penicillin btw", "Acme Corp atm" on version 26."""
    assert facts(text) == [(A, predicate, value, True)]


@pytest.mark.parametrize(
    "text",
    [
        "I declined the Stripe offer.",
        "I turned down the Stripe offer in the end, staying at Acme Corp.",
        "I turned down an offer from Stripe.",
    ],
)
def test_version_27_an_offer_declined_withdraws_its_employer(text: str) -> None:
    """Version 27: an offer accepted wrote ``works_at Stripe``, and nothing the user could say
    withdrew it ("I declined the Stripe offer" wrote no fact on version 26)."""
    assert facts(text) == [(A, "works_at", "Stripe", False)]
    assert facts("I turned the music down.") == []


def test_version_27_a_pet_that_died_is_no_pet_now() -> None:
    """Version 27, from a new user's trial: "my dog died when I was a kid" wrote a current
    ``has_pet`` from the day it was said; a death still writes ``deceased``."""
    assert facts("my dog died when I was a kid, his name was Rex") == []
    died = facts("My cat Biscuit passed away yesterday.")
    assert died == [(f"{A}/cat:Biscuit", "deceased", True, True)]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Tom and I broke up.", "Tom"),
        ("my girlfriend Ines and I broke up last week", "Ines"),
        ("I broke up with my boyfriend Tom.", "Tom"),
        ("We broke up in March.", None),
    ],
)
def test_version_27_a_breakup_ends_the_partner(text: str, name: str | None) -> None:
    """Version 27: "Tom and I broke up" wrote nothing, "my girlfriend Ines and I broke up" a
    current partner named Ines."""
    found = facts(text)
    partner = f"{A}/partner"
    expected = [(A, "life_event", "broke up", True), (A, "has_relative", partner, False)]
    if name:
        expected.append((partner, "name", name, False))
    assert found == expected
    assert facts("The band split up in 2010.") == []


def test_version_27_names_and_things_are_read_whole() -> None:
    """Version 27, from a new user's trial of an agent's notes: "Marek Zielinski takes over"
    was owner "Zielinski", "the payments-api" the thing "payments", "Winston-Salem" was read
    twice ("Winston Salem" and "Winston-Salem")."""
    assert facts("Marek Zielinski takes over the payments API from Monday.") == [
        ("payments API", "owner", "Marek Zielinski", True)
    ]
    assert facts("Marek takes over the payments-api from Monday.") == [
        ("payments-api", "owner", "Marek", True)
    ]
    assert facts("I moved to Winston-Salem last year.") == [(A, "lives_in", "Winston-Salem", True)]


def test_version_27_a_things_change_in_chinese_is_no_stack_of_the_speaker() -> None:
    """Version 27: "通知服务负责人从 Aisha Bello 换成王磊" wrote the speaker's tech_stack 王磊."""
    changed = "通知服务（notification-service）负责人从 Aisha Bello 换成王磊，从11月24日生效。"
    assert facts(changed) == []
    assert facts("我们从 MySQL 迁移到了 Postgres。") == [(A, "tech_stack", "Postgres", True)]
