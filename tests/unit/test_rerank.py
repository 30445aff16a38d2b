"""Step 5 of recall, the learned rerank: its values, its order, and what it may not read."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from graph_schema.recall import fusion, kinds, rerank
from graph_schema.recall.fusion import Candidate, FusionConfig, Scored
from graph_schema.recall.query import (
    asks_past,
    asks_present,
    asks_when,
    content_terms,
    mentions_time,
)

CONFIG = FusionConfig()


def when(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def turn(gid: str, text: str, similarity: float = 0.5, **kw: object) -> Candidate:
    return Candidate(gid=gid, text=text, similarity=similarity, turn=True, **kw)  # type: ignore[arg-type]


def values(s: Scored, position: int = 1, query: str = "paint lake") -> dict[str, float]:
    found = rerank.features(s, position, content_terms(query), CONFIG)
    return dict(zip(rerank.FEATURES, found, strict=True))


def test_features_are_the_groups_own_values() -> None:
    scored = fusion.rrf({"context_fulltext": [turn("a", "Mel: I paint a lake?", 0.6)]}, CONFIG)
    a = scored["a"]
    a.boosts.append("speaker")
    v = values(a, position=2)
    assert v["fused"] == pytest.approx(a.score / CONFIG.max_score())
    assert v["rank"] == 0.5
    assert v["similarity"] == 0.6
    assert v["coverage"] == 1.0
    assert (v["speaker"], v["time"]) == (1.0, 0.0)
    assert v["near"] == 0.6, "no neighbours looked up: its own cosine"
    assert v["length"] == pytest.approx(math.log1p(20) / math.log1p(rerank.LONG_TEXT))
    assert v["question"] == 1.0
    assert v["list:context_fulltext"] == pytest.approx(1 / (CONFIG.k + 1))
    assert v["list:passage_vector"] == 0.0


def test_near_is_the_best_cosine_of_the_graph_neighbours() -> None:
    scored = fusion.rrf({"context_vector": [turn("a", "Mel: hi", 0.2)]}, CONFIG)
    fusion.expand(scored, {"a": [turn("b", "Mel: yes", 0.7), turn("c", "Jo: no", 0.4)]}, CONFIG)
    assert values(scored["a"])["near"] == 0.7
    assert values(scored["b"])["near"] == 0.2


def test_a_group_that_is_no_turn_counts_as_a_typical_turn_whatever_its_length() -> None:
    short = Scored("f1", texts=["Alice uses zq9"], similarity=0.5)
    long = Scored("f2", texts=["Alice " + "uses a rather long description " * 20], similarity=0.5)
    typical = math.log1p(rerank.TYPICAL_TURN) / math.log1p(rerank.LONG_TEXT)
    assert values(short)["length"] == values(long)["length"] == pytest.approx(typical)
    assert values(Scored("t", turn="x" * 5_000))["length"] == 1.0


def test_rerank_orders_by_the_logistic_of_the_weighted_sum() -> None:
    weights = dict.fromkeys(rerank.FEATURES, 0.0) | {"similarity": 4.0}
    fused = [Scored("a", score=0.9, similarity=0.1), Scored("b", score=0.1, similarity=0.8)]
    ranked = rerank.rerank(fused, "q", CONFIG, weights)
    assert [s.gid for s in ranked] == ["b", "a"]
    assert ranked[0].rerank == pytest.approx(1 / (1 + math.exp(-3.2)))
    assert all(0.0 < (s.rerank or 0.0) < 1.0 for s in ranked)


def test_a_score_does_not_move_when_other_groups_change_their_values() -> None:
    a = turn("a", "Mel: I paint", 0.4)
    one = fusion.rrf({"context_vector": [a, turn("b", "Jo: hello", 0.1)]}, CONFIG)
    two = fusion.rrf({"context_vector": [a, turn("b", "Jo: I paint the lake?", 0.99)]}, CONFIG)
    first = rerank.rerank(fusion.ordered(one), "paint", CONFIG)
    second = rerank.rerank(fusion.ordered(two), "paint", CONFIG)
    assert {s.gid: s.rerank for s in first}["a"] == {s.gid: s.rerank for s in second}["a"]


def test_switched_off_the_rank_is_the_fused_order() -> None:
    lists = {"context_vector": [turn("a", "Mel: ok", 0.1), turn("b", "Mel: " + "x" * 900, 0.9)]}
    off = replace(CONFIG, disabled=frozenset({"rerank"}))
    fused = rerank.rank(lists, "q", off, lambda gids: {})
    assert [s.gid for s in fused] == ["a", "b"] and fused[0].rerank is None
    on = rerank.rank(lists, "q", CONFIG, lambda gids: {})
    assert [s.gid for s in on] == ["b", "a"], "longer and more similar"


def test_logistic_is_stable_at_the_extremes() -> None:
    assert rerank.logistic(1_000.0) == 1.0
    assert rerank.logistic(-1_000.0) == 0.0
    assert rerank.logistic(0.0) == 0.5


def test_the_query_asks_when_and_the_turn_places_something_in_time() -> None:
    assert asks_when("When did Mel paint the lake?")
    assert asks_when("How long has Jo been married?") and asks_when("what year was it?")
    assert not asks_when("What did Mel paint?") and not asks_when("Where is the lake, when?")
    assert mentions_time("I painted it last week") and mentions_time("back in 2019")
    assert not mentions_time("I painted a lake")
    dated = Scored("a", turn="Mel: I painted it yesterday!")
    assert values(dated)["when_time"] == 0.0, "the query does not ask when"
    found = rerank.features(dated, 1, [], CONFIG, when=True)
    assert dict(zip(rerank.FEATURES, found, strict=True))["when_time"] == 1.0


def test_the_turn_after_a_question_is_marked_as_a_possible_answer() -> None:
    ask = turn("q", "Jo: where did you go?", occurred_at=when(2023, 5, 8, 13, 0))
    reply = turn("r", "Mel: to the lake", occurred_at=when(2023, 5, 8, 13, 1))
    later = turn("s", "Jo: nice", occurred_at=when(2023, 5, 8, 13, 2))
    scored = fusion.rrf({"context_vector": [reply]}, CONFIG)
    fusion.expand(scored, {"r": [ask, later]}, CONFIG)
    assert scored["r"].after_question and values(scored["r"])["after_question"] == 1.0
    assert not scored["q"].after_question and not scored["s"].after_question


def _score(groups: list[Scored], n: int, weights: Mapping[str, float], query: str) -> float:
    pairs = zip(rerank.FEATURES, rerank.table(groups, query, CONFIG)[n], strict=True)
    z = sum(weights.get(name, 0.0) * v for name, v in pairs)
    return rerank.logistic(weights[rerank.SCALE] * z + weights[rerank.OFFSET])


def test_the_score_is_the_calibrated_logistic_of_the_sum() -> None:
    """The pairwise fit gives the sum no level: uncalibrated, every first result of LoCoMo
    scored 1.0 (sums of 20-28). Calibrated, a score is the chance that a result is evidence."""
    weights = dict.fromkeys(rerank.FEATURES, 0.0) | {"similarity": 4.0}
    fused = [Scored("a", similarity=0.5)]
    rerank.rerank(fused, "q", CONFIG, weights | {rerank.SCALE: 2.0, rerank.OFFSET: -3.0})
    assert fused[0].rerank == pytest.approx(1 / (1 + math.exp(-(2.0 * 2.0 - 3.0))))
    for shipped in (
        rerank.WEIGHTS,
        rerank.WORK_WEIGHTS,
        rerank.FACT_WEIGHTS,
        rerank.LEXICAL_WEIGHTS,
    ):
        assert shipped[rerank.SCALE] > 0 and shipped[rerank.OFFSET] < -5


def test_the_fact_weights_score_a_query_whose_groups_are_all_facts() -> None:
    query = "zq0 zq1 zq2 quarterly pipeline review"
    fact = Scored("f", texts=["zq0 zq1 pipeline figures"], similarity=0.8)
    talk = Scored("t", texts=["zq0 zq1 pipeline figures"], similarity=0.8, turn="Mel: zq0 zq1")
    rerank.rerank(
        [fact], query, CONFIG, rerank.WeightSets(rerank.WEIGHTS, facts=rerank.FACT_WEIGHTS)
    )
    assert fact.rerank == pytest.approx(_score([fact], 0, rerank.FACT_WEIGHTS, query))
    # one turn among the groups: one common scale, the turns' weights for all
    rerank.rerank(
        [fact, talk], query, CONFIG, rerank.WeightSets(rerank.WEIGHTS, facts=rerank.FACT_WEIGHTS)
    )
    assert fact.rerank == pytest.approx(_score([fact, talk], 0, rerank.WEIGHTS, query))
    assert talk.rerank == pytest.approx(_score([fact, talk], 1, rerank.WEIGHTS, query))
    rerank.rerank([fact], query, CONFIG, rerank.LEXICAL_WEIGHTS)  # no fact weights: one set
    assert fact.rerank == pytest.approx(_score([fact], 0, rerank.LEXICAL_WEIGHTS, query))


def test_among_facts_rare_exact_words_beat_a_closer_cosine() -> None:
    """Facts written without a turn: the one holding more of the query's rare words first,
    though its cosine is a little lower (e5's cosines lie close together). With the weights of
    turns, which a fact was scored with before, the cosine decided."""
    query = "zq0 zq1 zq2 quarterly pipeline review"
    notes = Candidate("notes", 0.80, "user:x said zq0 zq1 zq2 review notes")
    figures = Candidate("figures", 0.83, "user:x said zq0 zq1 pipeline figures")
    lists = {"assertion_vector": [figures, notes], "assertion_fulltext": [notes, figures]}
    sets = rerank.WeightSets(rerank.WEIGHTS, facts=rerank.FACT_WEIGHTS)
    ranked = rerank.rank(lists, query, CONFIG, lambda gids: {}, sets)
    assert [s.gid for s in ranked] == ["notes", "figures"]
    before = rerank.rank(lists, query, CONFIG, lambda gids: {}, rerank.WEIGHTS)
    assert [s.gid for s in before] == ["figures", "notes"]


def test_the_exchange_reads_the_question_before_the_turn_with_it() -> None:
    ask = turn("q", "Jo: did you go to the festival?", occurred_at=when(2023, 5, 8, 13, 0))
    reply = turn("r", "Mel: yes, with my sister", occurred_at=when(2023, 5, 8, 13, 1))
    scored = fusion.rrf({"context_vector": [reply]}, CONFIG)
    fusion.expand(scored, {"r": [ask]}, CONFIG)
    v = values(scored["r"], query="Who was at the festival with Mel's sister?")
    assert v["coverage"] == pytest.approx(2 / 3), "mel, sister; not festival"
    assert v["exchange"] == 1.0, "the question names the festival"
    alone = values(Scored("a", turn="Mel: my sister", texts=["Mel: my sister"]), query="mel sister")
    assert alone["exchange"] == alone["coverage"] == 1.0, "no question before it: its coverage"


def test_a_rare_query_word_weighs_more_than_one_most_candidates_hold() -> None:
    groups = [Scored(f"l{i}", texts=["Mel: the lake"]) for i in range(3)]
    groups.append(Scored("k", texts=["Mel: kayaks"]))
    terms = content_terms("kayak on the lake")
    kayak, lake = terms
    idf = rerank.term_weights(terms, groups)
    assert idf[kayak] == pytest.approx(math.log(5 / 1.5)), "1 of 4 groups holds it"
    assert idf[lake] == pytest.approx(math.log(5 / 3.5)) and idf[lake] > 0, "3 of 4"
    rare = rerank.idf_coverage(terms, frozenset({kayak}), idf)
    common = rerank.idf_coverage(terms, frozenset({lake}), idf)
    assert rare > 0.5 > common and rare + common == pytest.approx(1.0)
    assert rerank.idf_coverage(terms, frozenset({kayak}), None) == 0.5, "unweighted"
    assert rerank.idf_coverage([], frozenset(), idf) == 0.0


def test_the_idf_coverage_reads_all_the_groups_texts_together() -> None:
    s = Scored("a", texts=["Mel: a kayak", "Mel went to the lake"])
    v = values(s, query="kayak on the lake")
    assert v["coverage"] == 0.5, "each text holds one of the two words"
    assert v["idf_coverage"] == 1.0, "together they hold both"


def test_the_word_weights_come_from_the_groups_being_ranked() -> None:
    weights = dict.fromkeys(rerank.FEATURES, 0.0) | {"idf_coverage": 4.0}
    fused = [Scored(g, texts=[f"Mel: {t}"]) for g, t in (("a", "lake"), ("b", "lake"), ("c", "x"))]
    fused.append(Scored("k", texts=["Mel: kayak"]))
    at = rerank.FEATURES.index("idf_coverage")
    lake, _, x, kayak = (row[at] for row in rerank.table(fused, "kayak on the lake", CONFIG))
    assert kayak > 0.5 > lake > x == 0.0, "kayak: 1 of 4 groups; lake: 2 of 4"
    ranked = rerank.rerank(fused, "kayak on the lake", CONFIG, weights)
    assert [s.gid for s in ranked] == ["k", "a", "b", "c"]
    assert all(0.0 < (s.rerank or 0.0) < 1.0 for s in ranked)


@pytest.mark.parametrize(
    ("query", "present"),
    [
        ("Where does Nadia live now?", True),
        ("What shifts does Nadia currently work?", True),
        ("What is the latest crash-free session rate?", True),
        ("Which version of the runbook is current?", True),
        ("Which version of the runbook was current in late August?", False),  # a time of its own
        ("Which version of the runbook was the latest?", False),  # a past frame
        ("Where did Nadia live in March 2026?", False),
        ("What is the replication lag now, and what was it on October 20?", False),  # a day
        ("Where did Nadia live?", False),
        ("Is Priya still running the half marathon?", True),
        ("Does Sam still teach at the school in Cascais?", True),
        ("Does Sam not teach there anymore?", True),
        ("Is Meera no longer engaged?", True),
        ("How long did the job take while it still scanned every transfer?", False),
        ("Would Caroline still want to pursue counseling as a career?", False),
        ("Has Ngozi's visa been approved yet?", True),
        ("Is automatic cert renewal working again?", True),
        ("Why did John decide to run for office again?", False),  # no yes/no question
        ("Did Priya tell you yet whether she got the job?", False),  # "yet" mid-question
        ("PLAT-201 现在的负责人是谁？", True),  # now
        ("计费服务目前用的是哪个版本？", True),  # currently
        ("王磊还在负责计费服务吗？", True),  # still
        ("签证已经批下来了吗？", True),  # yet
        ("3月5日 PLAT-201 的负责人现在是谁？", False),  # a day of its own
        ("PLAT-201 的负责人是谁？", False),
    ],
)
def test_a_question_about_the_present(query: str, present: bool) -> None:
    assert asks_present(query) is present


def _scored(gid: str, score: float, at: datetime | None) -> Scored:
    return Scored(gid=gid, rerank=score, occurred_at=at)


def test_a_present_question_puts_the_newest_of_the_near_ties_first() -> None:
    old = _scored("kreuzberg", 0.211, when(2026, 3, 2))
    new = _scored("neukoelln", 0.208, when(2026, 7, 1))
    far = _scored("phone", 0.15, when(2026, 9, 9))  # newer, but no near tie of the best
    mid = _scored("shifts", 0.2, when(2026, 8, 22))
    ranked = rerank.present_first([old, new, far, mid])
    assert [s.gid for s in ranked] == ["shifts", "neukoelln", "kreuzberg", "phone"]
    assert "present" in mid.boosts  # moved up
    assert "present" not in new.boosts and "present" not in old.boosts  # not moved up
    assert [s.rerank for s in ranked] == [0.2, 0.208, 0.211, 0.15]  # scores as they were


def _said(gid: str, score: float, at: datetime, text: str) -> Scored:
    return Scored(gid=gid, rerank=score, occurred_at=at, turn=text, texts=[text])


def test_a_present_question_puts_a_newer_answer_about_the_same_thing_first() -> None:
    """A blind trial of a personal assistant's memory: "Which blood pressure tablet is Lena
    taking at the moment?" ranked the first prescription (0.463) over the switch two months
    later (0.185): no near tie, but about the same thing (amlodipine, Okafor)."""
    first = _said("first", 0.463, when(2025, 1, 20), "Saw Dr Okafor, she put me on amlodipine.")
    other = _said("other", 0.3, when(2025, 6, 2), "I'm allergic to penicillin, flag it please.")
    switch = _said(
        "switch",
        0.185,
        when(2025, 3, 4),
        "Dr Okafor says the amlodipine swells my ankles, so she switched me to losartan.",
    )
    faint = _said("faint", 0.1, when(2025, 5, 1), "Dr Okafor retired, amlodipine is cheap.")
    terms = content_terms("Which blood pressure tablet is Lena taking at the moment?")
    ranked = rerank.present_first([first, other, switch, faint], terms)
    # the switch: 0.4 of the best and shares its words; the penicillin note: newer, no such
    # word; the faint one: the same thing, under 0.3 of the best
    assert [s.gid for s in ranked] == ["switch", "first", "other", "faint"]
    assert "present" in switch.boosts
    alone = rerank.present_first([first, other, switch, faint])  # without the question's
    assert alone[0].gid == "switch"
    # the words the question holds are no sign of the same thing: every candidate shares them
    asked = content_terms("Is Dr Okafor still prescribing amlodipine?")
    reworded = _said("reworded", 0.185, when(2025, 3, 4), "Dr Okafor: amlodipine, in March.")
    assert rerank.present_first([first, reworded], asked)[0].gid == "first"


def test_a_speakers_name_or_a_short_word_is_no_sign_of_the_same_thing() -> None:
    """Blind trials: "When is Mochi getting her FVRCP booster now?" put a later turn about
    another dog first because both say "Dr."; "Who's on call right now?" a later turn by
    Marcus because the rota names him. Numbers still link ("4 to 6 replicas")."""
    best = _said("best", 0.312, when(2025, 2, 18), "Dr. Sharma moved the FVRCP booster, Marcus.")
    best.speaker = "Jess Morales"
    other = _said("other", 0.136, when(2025, 3, 19), "Dr. Becker: leash rest first, Marcus.")
    other.speaker = "Marcus Webb"
    terms = content_terms("When is Mochi getting her FVRCP booster now?")
    assert [s.gid for s in rerank.present_first([best, other], terms)] == ["best", "other"]
    bumped = _said("bumped", 0.3, when(2025, 1, 28), "bumping payments-api from 4 to 6 replicas")
    down = _said("down", 0.12, when(2025, 2, 10), "payments-api back down from 6, autoscaler on")
    asked = content_terms("How many payments-api replicas are we running these days?")
    assert rerank.present_first([bumped, down], asked)[0].gid == "down"


def test_the_order_stays_when_the_best_is_newest_or_has_no_time() -> None:
    newest = [_scored("a", 0.3, when(2026, 9, 1)), _scored("b", 0.29, when(2026, 3, 1))]
    assert [s.gid for s in rerank.present_first(newest)] == ["a", "b"]
    untimed = [_scored("a", 0.3, None), _scored("b", 0.29, when(2026, 3, 1))]
    assert [s.gid for s in rerank.present_first(untimed)] == ["a", "b"]
    assert not any("present" in s.boosts for s in newest + untimed)


def on_and_off(step: str, query: str, lists: dict[str, list[Candidate]]) -> list[list[str]]:
    """The ranking of ``query`` on fused scores alone (the rerank off), with ``step`` on and
    with it switched off."""
    steps = ({"rerank"}, {"rerank", step})
    ranked = (rerank.rank(lists, query, FusionConfig.disabling(x), lambda _: {}) for x in steps)
    return [[s.gid for s in r] for r in ranked]


def test_switched_off_a_present_question_keeps_the_ranks_order() -> None:
    lists = {
        "passage_vector": [
            turn("old", "I live in Kreuzberg", 0.9, occurred_at=when(2026, 3, 2)),
            turn("new", "We moved to Neukölln", 0.89, occurred_at=when(2026, 7, 1)),
        ]
    }
    # fused scores: rank 1 and 2, a near tie
    on, off = on_and_off("present", "Where does Nadia live now?", lists)
    fused = FusionConfig.disabling({"rerank"})
    past = rerank.rank(lists, "Where did Nadia live in March 2026?", fused, lambda _: {})
    assert on == ["new", "old"]
    assert off == [s.gid for s in past] == ["old", "new"]


@pytest.mark.parametrize(
    ("query", "past"),
    [
        ("what was the rent per person before the landlord put it up", True),
        ("Who was originally going to water Nana's greenhouse?", True),
        ("What plot did Wei get at the start of the season?", True),
        ("Which competitor were they comparing us to at the beginning?", True),
        ("Who used to host book club before it started rotating?", True),
        ("Why did Delta turn down Linda's root canal claim at first?", True),
        ("What changed in the previous release?", False),  # a thing named, no state before
        ("How many replicas were we on right before the autoscaler got turned on?", False),
        ("What learning rate were we on just before Daniel reverted it?", False),
        ("Who owned it before Omar, and who owns it now?", False),  # the present decides
        ("What plot is Wei on?", False),
        ("Which tournament did Nate win in the beginning of November 2022?", False),  # a time
        ("Where was Tim in the week before 16 November 2023?", False),
        ("PLAT-201 最开始是谁负责的？", True),  # at first
        ("搬家之前她住在哪里？", True),  # before
        ("她原来在哪家公司工作？", True),  # originally
        ("之前是谁负责，现在是谁负责？", False),  # the present decides
        ("2024年3月5日之前的价格是多少？", False),  # a day of its own
        ("她在哪家公司工作？", False),
    ],
)
def test_a_question_about_how_things_stood_before_a_change(query: str, past: bool) -> None:
    assert asks_past(query) is past


def test_a_past_question_puts_the_oldest_of_the_near_ties_first() -> None:
    """A blind trial of a family chat: "what was the rent per person before the landlord put
    it up" ranked the rise (£545 from January) over the flat taken in September (£520)."""
    rise = _said("rise", 0.42, when(2024, 11, 20), "He's putting the rent up to £545 each.")
    taken = _said("taken", 0.4, when(2024, 9, 10), "Flat 3, 9 Albany Road, £520 each a month.")
    far = _said("far", 0.2, when(2024, 8, 1), "Lin and I met through the buddy scheme.")
    ranked = rerank.past_first([rise, taken, far])
    assert [s.gid for s in ranked] == ["taken", "rise", "far"]  # "far" is no near tie
    assert "past" in taken.boosts and "past" not in rise.boosts
    assert [s.rerank for s in ranked] == [0.4, 0.42, 0.2]  # scores as they were
    assert [s.gid for s in rerank.present_first([rise, taken, far])] == ["rise", "taken", "far"]


def test_a_past_question_is_reordered_only_with_the_step_on() -> None:
    lists = {
        "passage_vector": [
            turn("new", "The U12s are coached by Marcus now", 0.9, occurred_at=when(2024, 5, 29)),
            turn("old", "U12 coached by Priya, Marcus assists", 0.89, occurred_at=when(2024, 3, 1)),
        ]
    }
    # fused scores: rank 1 and 2, a near tie
    on, off = on_and_off("past", "who was running the U12 team before Marcus took over", lists)
    assert on == ["old", "new"]
    assert off == ["new", "old"]


def _turn(gid: str, score: float, text: str) -> Scored:
    return Scored(gid=gid, rerank=score, turn=text, texts=[f"Priya: {text}"])


def test_a_question_asking_for_a_kind_puts_the_near_ties_naming_one_first() -> None:
    """ "What language is Priya learning?" ranked her job turn (0.068) over her Portuguese
    lessons (0.056): a near tie, and only the second names a language (failed before: no
    such step)."""
    job = _turn("job", 0.068, "I'm a data engineer there. My first day was yesterday.")
    lessons = _turn("lessons", 0.056, "I started Portuguese lessons on Tuesday evenings.")
    far = _turn("far", 0.03, "I speak some French.")  # names one, but no near tie
    asked = kinds.table().asked_in("What language is Priya learning?")
    assert asked == ["language"]
    ranked = rerank.kind_first([job, lessons, far], asked)
    assert [s.gid for s in ranked] == ["lessons", "job", "far"]
    assert lessons.boosts == ["kind"] and job.boosts == [] and far.boosts == []
    # nothing asked, or the best already names it: the order stands
    assert rerank.kind_first([job, lessons], []) == [job, lessons]
    assert [s.gid for s in rerank.kind_first([lessons, job], asked)] == ["lessons", "job"]


def test_turns_among_tools_results_or_agents_notes_choose_the_work_weights() -> None:
    said = Scored("s", turn="Sofia: I signed up for the half!!", source_kind="user_stated")
    email = Scored("e", turn="email: Registration confirmed", source_kind="tool_returned")
    note = Scored("n", turn="agent: Sofia races on May 11", source_kind="agent_inferred")
    older = Scored("o", turn="Mel: a turn written before kinds were read")
    fact = Scored("f", texts=["Sofia races on May 11"], source_kind="tool_returned")
    fused = fusion.rrf({"passage_vector": [turn("t", "x", source_kind="tool_returned")]}, CONFIG)
    assert fused["t"].source_kind == "tool_returned"  # a group keeps its rows' kind
    sets = rerank.WITH_VECTOR
    assert sets.choose([said, older]) is rerank.WEIGHTS
    assert sets.choose([said, email]) is rerank.WORK_WEIGHTS
    assert sets.choose([note, said]) is rerank.WORK_WEIGHTS
    assert sets.choose([fact]) is rerank.FACT_WEIGHTS  # no turn: the facts' weights
    assert rerank.WITHOUT_VECTOR.choose([said, email]) is rerank.LEXICAL_WEIGHTS
    rerank.rerank([said, email], "When is the half marathon?", CONFIG, sets)
    assert email.rerank == pytest.approx(
        _score([said, email], 1, rerank.WORK_WEIGHTS, "When is the half marathon?")
    )


def test_the_work_weights_can_be_switched_off() -> None:
    """``TRACTATUS_RECALL_DISABLE=work``: the chat's weights for every conversation."""
    assert rerank.sets_for(CONFIG, vector=True) is rerank.WITH_VECTOR
    off = rerank.sets_for(FusionConfig.disabling(["work"]), vector=True)
    email = Scored("e", turn="email: Registration confirmed", source_kind="tool_returned")
    assert off.choose([email]) is rerank.WEIGHTS
    assert rerank.sets_for(CONFIG, vector=False) is rerank.WITHOUT_VECTOR


def test_a_statement_is_a_persons_or_an_older_groups_of_no_kind() -> None:
    # the status reads a named speaker none of whose groups is a statement as a tool or a
    # document: its own records, no contrast between people (pipeline._Status.reading)
    assert not rerank.at_work(Scored("g1", speaker="Maggie", source_kind="user_stated"))
    assert not rerank.at_work(Scored("g2", speaker="Maggie"))
    for kind in ("document", "tool_returned", "agent_inferred"):
        assert rerank.at_work(Scored("g3", speaker="NorthCask", source_kind=kind))


def test_a_present_question_naming_a_code_moves_no_group_about_another() -> None:
    """A new user's trial of an agent's incident notes: "What is the status of INC-4452 now?"
    put INC-4460's newer status (a near tie) above "INC-4452 resolved ..."."""
    question = "What is the status of INC-4452 now?"
    resolved = _said("resolved", 0.0606, when(2026, 11, 24), "INC-4452 resolved by a fix.")
    other = _said("other", 0.0550, when(2026, 11, 26), "h3-inc:INC-4460 status investigating")
    opened = _said("opened", 0.0500, when(2026, 11, 23), "INC-4452 opened: lagging.")
    codes = rerank.codes_in(question)
    assert codes == ("inc-4452",)
    ranked = rerank.present_first([resolved, other, opened], content_terms(question), codes)
    assert [s.gid for s in ranked] == ["resolved", "opened", "other"]
    assert "present" not in other.boosts
    without = rerank.present_first([resolved, other, opened], content_terms(question))
    assert without[0].gid == "other"  # what it did before


def test_a_question_naming_a_version_puts_the_group_naming_it_first() -> None:
    """A new user's trial of an agent's notes: "Who approved the Checkout Redesign RFC v2.1?"
    ranked the note of v2.0 first and the one tool result naming v2.1 second."""
    question = "Who approved the Checkout Redesign RFC v2.1?"
    v20 = _said("v20", 0.211, when(2026, 11, 13), "Checkout Redesign RFC updated to v2.0.")
    v21 = _said("v21", 0.134, when(2026, 11, 19), '{"version": "v2.1", "approved_by": "Lena"}')
    v22 = _said("v22", 0.123, when(2026, 11, 27), "Checkout Redesign RFC v2.2 published.")
    assert rerank.codes_in(question) == ("v2.1",)
    ranked = rerank.code_first([v20, v21, v22], rerank.codes_in(question))
    assert [s.gid for s in ranked] == ["v21", "v20", "v22"]
    assert v21.boosts == ["code"]
    assert rerank.code_first([v20, v21], ()) == [v20, v21]  # no code: as it was
