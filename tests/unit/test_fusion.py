"""Pure parts of recall: query analysis, Lucene escaping, fusion, boosts, graph expansion."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pydantic import ValidationError

from graph_schema.recall import fusion
from graph_schema.recall.fusion import Candidate, FusionConfig, Scored
from graph_schema.recall.query import (
    content_terms,
    coverage,
    escape_lucene,
    found_terms,
    lucene_terms,
    name_keys,
    names_in_query,
    own_sentences,
    sentences_of,
    spoken_of,
    states_own,
    time_windows,
)
from server.settings import Settings


def when(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


# --- query analysis ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        'alice" OR 1=1 //',
        "name:* AND NOT x",
        "a) MATCH (n) DETACH DELETE n //",
        "foo~2 bar^10 [a TO z] {x} \\ / && || !",
        "'; CALL db.index.fulltext.drop('assertion_text') //",
    ],
)
def test_lucene_terms_are_only_plain_lowercase_words(text: str) -> None:
    terms = lucene_terms(text)
    assert terms
    for token in terms:
        assert token.isalnum() or "_" in token, token
        assert token == token.lower()


def test_lucene_terms_are_the_query_clauses_one_per_distinct_word() -> None:
    assert lucene_terms("Where does Caroline live, and does Caroline paint?") == [
        "caroline",
        "live",
        "paint",
    ]
    assert lucene_terms("what is it?") == []
    assert len(lucene_terms(" ".join(f"w{n}" for n in range(100)))) == 64


def test_lucene_terms_of_only_stop_words_and_symbols_are_none() -> None:
    assert lucene_terms("what is it?") == []
    assert lucene_terms("*** ??? :::") == []


def test_escape_lucene_escapes_every_special_character() -> None:
    assert escape_lucene('a+b-c!(d)"e:f\\g/h') == 'a\\+b\\-c\\!\\(d\\)\\"e\\:f\\\\g\\/h'


def test_content_terms_drop_question_words_and_stem() -> None:
    assert content_terms("When did Caroline go to the LGBTQ support groups?") == [
        "carolin",
        "go",
        "lgbtq",
        "support",
        "group",
    ]
    assert content_terms("she lives, he lived, living") == ["liv"]
    # the words that frame a question about the present ask when, not what: "now" matched
    # "The API spec is now at version 1.4" over the note that answers (failed before)
    assert content_terms("Who owns the Atlas API now?") == content_terms("Who owns the Atlas API?")
    assert content_terms("Is she still running? Not anymore.") == content_terms("running")
    assert content_terms("What is Jon currently reading?") == ["jon", "current", "read"]
    assert content_terms("我们项目从Vue换成React了") == [
        *("我们", "们项", "项目", "目从"),
        *("vue", "换成", "react"),
    ]


def test_coverage_counts_query_terms_found() -> None:
    terms = content_terms("Which painting did Melanie finish?")
    assert coverage(terms, "Melanie: I finished a painting of a sunrise") == 1.0
    assert coverage(terms, "Caroline: hello there") == 0.0
    assert coverage([], "anything") == 0.0


def test_found_terms_are_the_query_terms_a_text_holds() -> None:
    terms = content_terms("Which painting did Melanie finish?")
    assert found_terms(terms, "Melanie: a painting") == {"paint", "melani"}, "stemmed"
    assert found_terms(terms, "Caroline: hello there") == frozenset()
    chinese = content_terms("小王的猫叫什么名字？")
    assert found_terms(chinese, "小王: 我家的猫叫团团") == {"小王", "猫叫"}, "by substring"


def test_names_in_query_match_speakers_and_subjects() -> None:
    names = {"Caroline", "Melanie", "user:alice", "bob smith"}
    assert names_in_query("What did Caroline research?", names) == {"Caroline"}
    assert names_in_query("what does ALICE use", names) == {"user:alice"}
    assert names_in_query("did user:alice move?", names) == {"user:alice"}
    assert names_in_query("Where does Smith live?", names) == {"bob smith"}
    assert names_in_query("what happened?", names) == set()
    # a speaker written in lower case (a tool's, the agent's) is no common word of the query:
    # "billing" named the tool "billing" as the person asked about
    tools = {"billing", "tool:crash-report", "agent", "Jordan Blake"}
    asked = "Who was in charge of billing before Jordan took over?"
    assert names_in_query(asked, tools, people=True) == {"Jordan Blake"}
    assert names_in_query(asked, tools) == {"Jordan Blake", "billing"}  # a source, for ranking
    assert names_in_query("What is the latest crash-free rate?", tools, people=True) == set()
    assert names_in_query("What did Billing say?", tools, people=True) == {"billing"}


def test_names_in_query_read_a_short_form_of_one_name() -> None:
    """ "How long have Mel and her husband been married?" named no one (Melanie's turns got
    no speaker boost, and the person rule did not read them)."""
    names = {"Caroline", "Melanie", "user:alice", "Samantha", "Samuel"}
    assert names_in_query("How long have Mel and her husband been married?", names) == {"Melanie"}
    assert names_in_query("Mel's kids made what?", names) == {"Melanie"}
    assert names_in_query("What did Sam say?", names) == set()  # Samantha or Samuel
    assert names_in_query("What did mel say?", names) == set()  # a name is capitalised
    assert names_in_query("What about Melbourne?", names) == set()  # longer than the name
    assert names_in_query("Can Caroline swim?", names) == {"Caroline"}  # "Can": a stop word


def test_a_name_of_short_words_is_matched_whole() -> None:
    """ "What is Li Na's email?" named no one: each word of "Li Na" is too short to be a key
    of its own (two letters), and the whole name was never looked for; nor was she spoken of
    in "Li Na takes over the query API" (a new user's try)."""
    names = {"Li Na", "Ana Souza", "Wu Di"}
    assert names_in_query("What is Li Na's email?", names, people=True) == {"Li Na"}
    assert names_in_query("what did wu di decide", names) == {"Wu Di"}
    assert names_in_query("Is Lina here? Nadia?", names) == set()  # no word of it alone
    assert spoken_of("Ana Souza: Li Na takes over the query API from Monday.", "Li Na")
    assert not spoken_of("Ana Souza: Thanks, Li Na!", "Li Na")


def test_a_full_name_that_shares_a_family_name_names_another_person() -> None:
    """A new user's trial: the speaker Lin Xiao told of "my sister Lin Yue", and "What does
    Lin Yue do for work?" was answered (0.66) as a question about Lin Xiao, whose turns tell
    of her own job: "Lin", a key of her name, named her."""
    names = {"Lin Xiao", "Assistant", "Melanie Smith"}
    assert names_in_query("What does Lin Yue do for work?", names, people=True) == set()
    assert names_in_query("Where does Lin Yue work?", names) == set()
    assert names_in_query("Where does Lin Xiao work?", names, people=True) == {"Lin Xiao"}
    assert names_in_query("Where does Xiao Lin work?", names) == {"Lin Xiao"}  # any order
    assert names_in_query("Where does Lin work?", names) == {"Lin Xiao"}  # a part of it
    assert names_in_query("What did Lin Xiao's DJI team say?", names) == {"Lin Xiao"}
    assert names_in_query("Did Lin Xiao tell Lin Yue?", names) == {"Lin Xiao"}  # both
    assert names_in_query("What did Lin say on Monday?", names) == {"Lin Xiao"}
    assert names_in_query("Did Mel Smith call?", names) == {"Melanie Smith"}  # a short form
    assert names_in_query("Did Caroline Smith call?", {"Caroline"}) == {"Caroline"}  # one word


def test_chinese_terms_are_bigrams_without_question_words() -> None:
    assert content_terms("小王的猫叫什么名字？") == ["小王", "猫叫", "名字"]
    assert content_terms("谁是小李?") == ["是小", "小李"]
    assert coverage(content_terms("小王的猫叫什么名字？"), "小王: 我家的猫叫团团") == 2 / 3
    assert names_in_query("小王的猫叫什么名字？", {"小王", "小李"}) == {"小王"}


def test_the_status_counts_only_the_named_persons_groups() -> None:
    ranked = [fusion.Scored("g1", speaker="Mia"), fusion.Scored("g2", speaker="Zed")]
    person = fusion.named_person(ranked, "What did Zed repair?", FusionConfig())
    assert person == "Zed"
    assert [fusion.answers_for(s, person) for s in ranked] == [False, True]
    both = "Did Zed and Mia meet?"
    assert fusion.named_person(ranked, both, FusionConfig()) is None
    off = FusionConfig.disabling(["person"])
    assert fusion.named_person(ranked, "What did Zed repair?", off) is None
    assert fusion.answers_for(ranked[0], None)


def test_a_name_the_question_compares_with_is_not_the_person_asked_about() -> None:
    """A new user's trial of an agent's notes: "Who handled feature engineering before Sana?"
    read Sana as the person asked about, and her own note (0.37) was outmatched by the
    kickoff note that answers it: ``not_found``."""
    ranked = [fusion.Scored("g1", speaker="Maya"), fusion.Scored("g2", speaker="Sana")]
    config = FusionConfig()
    assert fusion.named_person(ranked, "Who handled the API before Sana?", config) is None
    assert fusion.named_person(ranked, "Who was faster than Sana?", config) is None
    assert fusion.named_person(ranked, "Who took over instead of Sana?", config) is None
    assert fusion.named_person(ranked, "What did Sana fix before Friday?", config) == "Sana"
    assert fusion.named_person(ranked, "What did Maya do after Sana left?", config) == "Maya"


def test_a_full_name_compared_with_or_spoken_to_is_not_the_person_asked_about() -> None:
    """A new user's trial of a support agent's notes: "Who was the IT manager at Acme Ltd
    before Tom Becker?" protected "Tom" only, so "Becker" named Tom Becker, whose own turns
    were outmatched by Priya's, the answer: ``not_found``; "What did we promise Priya?"
    boosted Priya's own turns, spoken to, and her own complaint came first."""
    ranked = [
        fusion.Scored("g1", speaker="Priya Nair"),
        fusion.Scored("g2", speaker="Tom Becker"),
        fusion.Scored("g3", speaker="李强"),
    ]
    config = FusionConfig()
    before = "Who was the IT manager at Acme Ltd before Tom Becker?"
    assert fusion.named_person(ranked, before, config) is None
    assert fusion.named_person(ranked, "Which contact was replaced by Tom Becker?", config) is None
    assert fusion.named_person(ranked, "What did Priya promise us?", config) == "Priya Nair"
    # spoken to: still the person the status reads (their own turns decide the contrast: a
    # trial's "What did we quote Meg for ...?", never said, is not_found by it), but the
    # speaker boost of steps 1-4 is not given
    lists = {
        "passage_vector": [
            Candidate(gid="agent", text="Promised Priya a refund by Friday.", speaker="agent",
                      similarity=0.9, turn=True),
            Candidate(gid="priya", text="We were charged twice!", speaker="Priya Nair",
                      similarity=0.8, turn=True),
        ]
    }  # fmt: skip
    spoken_to = fusion.fuse(lists, "What did we promise Priya?", config, lambda _: {})
    assert all("speaker" not in s.boosts for s in spoken_to)
    asked = fusion.fuse(lists, "What did Priya complain about?", config, lambda _: {})
    assert any("speaker" in s.boosts for s in asked if s.gid == "priya")


def test_own_sentences_drop_questions_and_what_is_said_to_the_listener() -> None:
    turn = (
        "Mia: Sorry about the crash! Glad your son is okay. I love your new bike, though. "
        "Where did you buy it? The lake was calm today."
    )
    assert own_sentences(turn) == [
        "Mia: Sorry about the crash!",
        "I love your new bike, though.",
        "The lake was calm today.",
    ]
    assert not states_own("How long did you all play together?")
    assert not states_own("Must have been hard for you guys.")
    assert states_own("We played for four years, you know.")
    assert not states_own("That slow cooker meal looks yum!")
    assert not states_own("Mentoring must be so rewarding.")
    assert not states_own("Learning an instrument is really cool.")
    assert states_own("My new bike looks great.")
    assert states_own("The concert started at eight.")
    # a wish or a cheer for the other's news: "What did Jonas give Lena for her birthday?" was
    # refused because Aiko's "Happy birthday to Lena!" outmatched Jonas's answer (failed before)
    assert not states_own("Happy birthday to Lena!")
    assert not states_own("Aiko: Congrats on the promotion, that's huge!")
    assert not states_own("Aiko said Happy birthday to Lena!")  # a said assertion's text
    assert not states_own("Mary Ann said Good luck with the race tomorrow!")
    assert not states_own("Good luck with the race tomorrow!")
    assert states_own("Happy birthday to me, I turned forty today!")
    assert states_own("Happy hour was fun.")
    # a superlative reaction to the other's news: Odile's "Bacalhau! That's the best cat name
    # I've ever heard." answered "What is the name of Odile's cat?" (a new user's trial;
    # failed before)
    assert not states_own("That's the best cat name I've ever heard.")
    assert not states_own("That is the cutest puppy I have ever seen!")
    assert not states_own("Odile said That's the best cat name I've ever heard.")
    assert states_own("This is the best pizza I've ever had.")  # the speaker had it
    assert states_own("I have seen the best movie.")
    assert own_sentences("我喜欢跑步。你的狗很可爱。你去过北京吗？") == ["我喜欢跑步。"]
    assert own_sentences("Where did you go?") == []
    assert own_sentences("I run version 3.5 now. Did you?") == ["I run version 3.5 now."]


def test_the_sentences_of_a_turn_that_speak_of_a_person() -> None:
    turn = "Quick setup: Tomás opens Mon and Fri. Our flour is $31.50 a sack. Thanks, Tomás!"
    assert sentences_of(turn, "Tomás") == ["Quick setup: Tomás opens Mon and Fri."]
    assert sentences_of(turn, "Rosa") == []
    assert sentences_of("Carlos is away. Priya covers Android.", "Carlos") == ["Carlos is away."]


def test_time_windows_month_day_year_and_iso() -> None:
    (may,) = time_windows("What did Caroline do in May 2023?")
    assert (may.start, may.end) == (when(2023, 5, 1), when(2023, 6, 1))
    (day,) = time_windows("what happened on 8 May, 2023")
    assert (day.start, day.end) == (when(2023, 5, 8), when(2023, 5, 9))
    (us,) = time_windows("and on May 8th, 2023?")
    assert us.start == when(2023, 5, 8)
    (iso,) = time_windows("logs of 2024-02-29 please")
    assert iso.start == when(2024, 2, 29)
    (dec,) = time_windows("in Dec 2022")
    assert dec.end == when(2023, 1, 1)
    (year,) = time_windows("Where did she live in 2021?")
    assert (year.start, year.end) == (when(2021, 1, 1), when(2022, 1, 1))
    assert time_windows("when did Caroline go there?") == []
    (feb,) = time_windows("on 31 February 2023")  # no such day: the month is what is left
    assert (feb.start, feb.end) == (when(2023, 2, 1), when(2023, 3, 1))
    assert day.contains(when(2023, 5, 8, 13, 56)) and not day.contains(when(2023, 5, 9))


def test_a_day_named_without_its_year_is_the_last_such_day_read() -> None:
    """A new user's "What was the replication lag on October 20?" of notes from October 2026
    named no window, and a note from the 22nd ranked first."""
    latest = when(2026, 11, 10)
    (oct20,) = time_windows("What was the replication lag on October 20?", latest)
    assert (oct20.start, oct20.end) == (when(2026, 10, 20), when(2026, 10, 21))
    (aug,) = time_windows("How much error budget was left on 20 August?", latest)
    assert aug.start == when(2026, 8, 20)
    (dec,) = time_windows("Who was on call on 12 December?", latest)  # after the latest
    assert dec.start == when(2025, 12, 12)
    both = time_windows("Where was John between August 11 and August 15 2023?", latest)
    assert [w.start for w in both] == [when(2023, 8, 15), when(2023, 8, 11)]  # the year named
    assert time_windows("What was the replication lag on October 20?") == []  # no latest
    assert time_windows("you may 2 of them", latest) == []  # a month is capitalised
    assert time_windows("shared on December 1,2023", latest) == []  # a year it has


# --- fusion -----------------------------------------------------------------------------------


def c(gid: str, **kw: object) -> Candidate:
    return Candidate(gid=gid, **kw)  # type: ignore[arg-type]


CONFIG = FusionConfig(k=10, weights={"v": 1.0, "f": 1.0}, speaker=0.5, time=0.5, neighbour=0.2)


def test_rrf_counts_a_group_once_per_list_at_its_best_rank() -> None:
    lists = {"v": [c("a"), c("b"), c("a")], "f": [c("b")]}
    scored = fusion.rrf(lists, CONFIG)
    assert scored["a"].sources == {"v": 1}
    assert scored["b"].sources == {"v": 2, "f": 1}
    assert scored["a"].score == pytest.approx(1 / 11)
    assert scored["b"].score == pytest.approx(1 / 12 + 1 / 11)
    assert [s.gid for s in fusion.ordered(scored)] == ["b", "a"]


def test_rrf_keeps_the_best_similarity_and_ignores_unweighted_lists() -> None:
    lists = {"v": [c("a", similarity=0.2), c("a", similarity=0.7)], "other": [c("b")]}
    scored = fusion.rrf(lists, CONFIG)
    assert scored["a"].similarity == 0.7
    assert scored["b"].score == 0.0


def test_score_of_a_group_depends_only_on_ranks_not_on_other_items_values() -> None:
    one = fusion.rrf({"v": [c("a", similarity=0.9), c("b", similarity=0.1)]}, CONFIG)
    two = fusion.rrf({"v": [c("a", similarity=0.3), c("b", similarity=0.29)]}, CONFIG)
    assert one["a"].score == two["a"].score and one["b"].score == two["b"].score


def test_speaker_boost_only_when_exactly_one_person_is_named() -> None:
    lists = {"v": [c("x", speaker="Mel"), c("y", speaker="Caro")]}
    scored = fusion.rrf(lists, CONFIG)
    fusion.boost_named(scored, {"Caro"}, CONFIG)
    assert [s.gid for s in fusion.ordered(scored)] == ["y", "x"]
    assert scored["y"].boosts == ["speaker"]
    again = fusion.rrf(lists, CONFIG)
    fusion.boost_named(again, {"Caro", "Mel"}, CONFIG)
    assert [s.gid for s in fusion.ordered(again)] == ["x", "y"]
    off = fusion.rrf(lists, FusionConfig(weights={"v": 1.0}, disabled=frozenset({"speaker"})))
    fusion.boost_named(off, {"Caro"}, FusionConfig(disabled=frozenset({"speaker"})))
    assert not off["y"].boosts


def test_time_boost_favours_groups_inside_the_window() -> None:
    (may,) = time_windows("in May 2023")
    lists = {"v": [c("x", occurred_at=when(2023, 7, 1)), c("y", occurred_at=when(2023, 5, 8))]}
    scored = fusion.rrf(lists, CONFIG)
    fusion.boost_time(scored, [may], CONFIG)
    assert [s.gid for s in fusion.ordered(scored)] == ["y", "x"]
    assert scored["x"].boosts == []


def test_expand_adds_neighbours_and_propagates_scores_both_ways() -> None:
    scored = fusion.rrf({"v": [c("a"), c("b")]}, CONFIG)
    base_a, base_b = scored["a"].score, scored["b"].score
    fusion.expand(scored, {"a": [c("n")], "b": [c("a")]}, CONFIG)
    assert scored["n"].score == pytest.approx(0.2 * base_a)
    assert scored["a"].score == pytest.approx(base_a + 0.2 * base_b)
    assert scored["b"].score == pytest.approx(base_b + 0.2 * base_a)
    assert "graph" in scored["n"].boosts


def test_max_score_is_a_constant_of_the_configuration() -> None:
    assert CONFIG.max_score() == pytest.approx(1.2 * 3.0 / 11)
    top = fusion.rrf({"v": [c("a")], "f": [c("a")]}, CONFIG)
    assert top["a"].score <= CONFIG.max_score()


def test_disabling_switches_off_features_and_lists() -> None:
    config = FusionConfig.disabling(["graph", "passage_vector"])
    assert not config.enabled("graph") and config.enabled("speaker")
    assert "passage_vector" not in config.weights and "context_vector" in config.weights
    with pytest.raises(ValueError, match="graf"):
        FusionConfig.disabling(["graf"])


def test_recall_disable_is_a_setting_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRACTATUS_RECALL_DISABLE", "graph, passage_vector,")
    settings = Settings()
    assert settings.recall_disable == {"graph", "passage_vector"}
    config = settings.fusion()
    assert not config.enabled("graph") and "passage_vector" not in config.weights
    monkeypatch.setenv("TRACTATUS_RECALL_DISABLE", "speaker")  # later changes change nothing
    assert not config.enabled("graph") and config.enabled("speaker")
    assert Settings(recall_disable=frozenset()).fusion() == FusionConfig()


def test_an_unknown_recall_step_is_refused_at_start_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRACTATUS_RECALL_DISABLE", "graph,rerunk")
    with pytest.raises(ValidationError, match="rerunk"):
        Settings()


def test_relevance_mixes_similarity_and_coverage() -> None:
    assert fusion.relevance(None, 0.0) == 0.0
    assert fusion.relevance(None, 0.5) == 0.5
    assert fusion.relevance(-0.5, 0.0) == 0.0
    assert fusion.relevance(1.0, 1.0) == pytest.approx(1.0)
    assert fusion.relevance(0.6, 0.5) > fusion.relevance(0.6, 0.0)


def _record(predicate: str, text: str, cosine: float) -> dict[str, object]:
    # Neo4j's similarity is (1 + cos) / 2, as the recall queries return it
    return {
        "assertion": {"predicate": predicate, "source_kind": "user_stated"},
        "text": text,
        "similarity": (1 + cosine) / 2,
    }


def test_a_persons_relevance_reads_only_their_own_sentences() -> None:
    from graph_schema.recall.pipeline import _person_relevance

    terms = ["camp"]
    turn = fusion.Scored("g1", speaker="Mia", texts=["Mia: Looks like a fun camp! I read a lot."])
    said = _record("said", "I read a lot.", 0.2)
    asked = _record("said", "Looks like a fun camp!", 0.9)
    # the appraisal's words and cosine do not count
    relevance = _person_relevance(turn, [said, asked], terms, cjk=False)
    assert relevance == pytest.approx(0.5 * 0.2)
    # a turn answering a question is read with it
    answer = fusion.Scored(
        "g2", speaker="Mia", texts=["Mia: Yes, twice."], question="Did you camp?"
    )
    yes = _record("said", "Yes, twice.", 0.2)
    assert _person_relevance(answer, [yes], terms, cjk=False) == pytest.approx(0.1 + 0.5)
    # a CJK query reads coverage alone
    assert _person_relevance(turn, [said, asked], terms, cjk=True) == 0.0


def test_a_question_about_one_person_is_not_found_when_another_states_it_better() -> None:
    on, off = FusionConfig(), FusionConfig.disabling(["contrast"])
    t, margin, person = fusion.ANSWER_THRESHOLD, fusion.PERSON_MARGIN, fusion.PERSON_THRESHOLD
    # a query naming no one: the one threshold
    assert fusion.answered(t, None, on) and not fusion.answered(t - 0.01, None, on)
    # the person's own statements are outmatched by another's: not_found, whatever their value
    assert not fusion.answered(0.6, 0.6 + margin + 0.01, on)
    assert fusion.answered(0.6, 0.6 + margin - 0.01, on)
    # nobody states anything close: not_found; the person alone does: answered
    assert not fusion.answered(person - 0.01, person - 0.01, on)
    assert fusion.answered(person, 0.0, on)
    # the contrast off: the person's relevance against the one threshold
    assert fusion.answered(0.6, 0.9, off) and not fusion.answered(t - 0.01, 0.0, off)


def test_a_relevance_read_from_coverage_alone_has_its_own_rule() -> None:
    # a CJK query (or no embedding model) reads coverage alone: the embedding model's values
    # do not apply to it (they moved from MiniLM's to e5's; coverage did not move)
    on, lexical = FusionConfig(), fusion.LEXICAL
    assert lexical.threshold < fusion.SEMANTIC.threshold
    middle = (lexical.threshold + fusion.SEMANTIC.threshold) / 2
    assert fusion.answered(middle, None, on, lexical) and not fusion.answered(middle, None, on)
    assert fusion.answered(lexical.person_threshold, 0.0, on, lexical)
    assert not fusion.answered(lexical.person_threshold - 0.01, 0.0, on, lexical)
    gap = lexical.person_margin
    assert fusion.answered(0.5, 0.5 + gap - 0.005, on, lexical)
    assert not fusion.answered(0.5, 0.5 + gap + 0.01, on, lexical)


def test_the_status_reads_the_others_statements_the_same_way_as_the_persons() -> None:
    from graph_schema.recall.pipeline import RecallQuery, _Status

    now = datetime(2026, 1, 1, tzinfo=UTC)
    query = RecallQuery(text="How does Tom feel while surfing?", k=10, as_of=now, known_at=now)
    status = _Status.of("Tom", query)
    tom = fusion.Scored("g1", speaker="Tom", texts=["Tom: I never surf. Reading calms me."])
    ana = fusion.Scored("g2", speaker="Ana", texts=["Ana: Surfing, I feel free. Do you surf?"])
    status.add(tom, [_record("said", "I never surf. Reading calms me.", 0.3)], query, 0.9)
    status.add(ana, [_record("said", "Surfing, I feel free.", 0.7)], query, 0.9)
    # the name is not counted (terms: feel, while, surf), nor Ana's question ("Do you surf?"):
    # Tom covers one term of three, Ana two
    assert status.relevance == pytest.approx(0.5 * 0.3 + 0.5 / 3)
    assert status.others == {None: pytest.approx(0.5 * 0.7 + 0.5 * 2 / 3)}
    named = status.named()
    assert named is not None and named.name == "Tom"
    assert named.others_relevance == pytest.approx(round(0.35 + 1 / 3, 6))
    assert _Status().named() is None
    # an agent's note or a tool's output is no rival statement; a named tool gets no contrast
    note = fusion.Scored("g3", speaker="agent", texts=["agent: Tom feels free surfing."])
    inferred = {
        **_record("said", "Tom feels free surfing.", 0.9),
        "assertion": {"source_kind": "agent_inferred"},
    }
    status.add(note, [inferred], query, 0.9)
    assert status.others == {None: pytest.approx(0.5 * 0.7 + 0.5 * 2 / 3)}
    tool = _Status.of("tool:ci", query)
    tool.add(fusion.Scored("g4", speaker="tool:ci"), [inferred], query, 0.9)
    named = tool.named()
    assert named is not None and named.others_relevance is None


def test_only_the_people_of_the_persons_conversations_outmatch_them() -> None:
    """A new user's trial of a store of many chats asked without a filter: another chat's
    person telling of the same thing in closer words made a right answer ``not_found``."""
    from graph_schema.recall.pipeline import RecallQuery, _Status, conversation_of

    now = datetime(2026, 1, 1, tzinfo=UTC)
    query = RecallQuery(text="How does Tom feel while surfing?", k=10, as_of=now, known_at=now)

    def turn(conversation: str | None, text: str, cosine: float) -> list[dict[str, object]]:
        return [{**_record("said", text, cosine), "conversation": conversation}]

    tom = fusion.Scored("g1", speaker="Tom", texts=["Tom: Surfing makes me calm."])
    ana = fusion.Scored("g2", speaker="Ana", texts=["Ana: Surfing, I feel free."])
    assert conversation_of(turn("c2", "x", 0.1)) == "c2"
    assert conversation_of([{"assertion": {}}]) is None
    status = _Status.of("Tom", query)
    status.add(tom, turn("c1", "Surfing makes me calm.", 0.3), query, 0.9)
    status.add(ana, turn("c2", "Surfing, I feel free.", 0.9), query, 0.9)
    named = status.named()
    assert named is not None and named.others_relevance == 0.0
    # the same statement in Tom's own chat outmatches him
    status.add(ana, turn("c1", "Surfing, I feel free.", 0.9), query, 0.9)
    named = status.named()
    assert named is not None and named.others_relevance == pytest.approx(0.45 + 1 / 3, abs=1e-6)
    assert status.places == {"c1"}


def test_a_namespace_and_the_letters_of_a_code_are_no_name() -> None:
    """A new user's trial: "Who handled INC-4437 on the payments team?" named the subject
    ``inc:INC-4411`` by its letters "INC" (and ``svc:x`` was named by "svc")."""
    assert name_keys("h3-inc:INC-4411") == {"h3-inc:inc-4411", "inc-4411", "4411"}
    assert name_keys("user:alice") == {"user:alice", "alice"}
    assert "caroline" in name_keys("Caroline/sister")
    assert names_in_query("Who handled INC-4437?", {"h3-inc:INC-4411"}) == set()
    assert names_in_query("How was INC-4411 resolved?", {"h3-inc:INC-4411"}) == {"h3-inc:INC-4411"}


def test_a_numbered_thing_is_never_the_person_asked_about() -> None:
    ranked = [Scored(gid="a", speaker="h3-inc:INC-4411"), Scored(gid="b", speaker="h3-agent")]
    config = FusionConfig()
    assert fusion.named_person(ranked, "What was the latency during INC-4411?", config) is None
    people = [Scored(gid="c", speaker="Ravi"), *ranked]
    assert fusion.named_person(people, "When is Ravi leaving INC-4411?", config) == "Ravi"
    # a ward named by its number is a thing (a new user's trial of a ward's notes: "When did
    # 7B start the discharge declarations?"); a name with digits of its own is a name (the
    # probe suite's "Tom3fa2b1")
    ward = [Scored(gid="w", speaker="7B"), *ranked]
    assert fusion.named_person(ward, "When did 7B start the declarations?", config) is None
    policy = [Scored(gid="p", speaker="Bed Management Policy v3.1"), *ranked]
    assert fusion.named_person(policy, "When was the policy meant to start?", config) is None
    tom = [Scored(gid="d", speaker="Tom3fa2b1"), *ranked]
    assert fusion.named_person(tom, "How does Tom3fa2b1 feel while surfing?", config) == "Tom3fa2b1"
    assert name_keys("Tom3fa2b1 Smith") >= {"tom3fa2b1", "smith"}
