"""bench/team's corpus and questions are well formed (bench/team/corpus.py): unique ids,
evidence that names turns of the question's own stream, evidence exactly for the answerable
questions, turns in time order, the stated Chinese and unanswerable shares, known categories;
and each check fails on a copy broken on purpose."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from tests.helpers import bench_module

team = bench_module("team/corpus")
CORPUS: dict[str, Any] = team.load(team.CORPUS)
QUESTIONS: dict[str, Any] = team.load(team.QUESTIONS)


def test_the_shipped_set_is_well_formed() -> None:
    assert team.problems(CORPUS, QUESTIONS) == []


def test_the_shipped_set_has_the_stated_shape() -> None:
    streams = CORPUS["streams"]
    assert 5 <= len(streams) <= 6
    assert any(s["lang"] == "zh" for s in streams)
    questions = QUESTIONS["questions"]
    assert 140 <= len(questions) <= 170
    assert {q["category"] for q in questions} == set(team.CATEGORIES)
    assert {q["lang"] for q in questions if q["category"] == "unanswerable"} == {"en", "zh"}
    shares = team.shares(CORPUS, QUESTIONS)
    assert shares["zh_turns"] >= 0.18
    assert 0.18 <= shares["zh_questions"] <= 0.30
    assert 0.20 <= shares["unanswerable"] <= 0.30
    multi = [q for q in questions if q["category"] == "multi-hop"]
    assert all(len(q["evidence"]) >= 2 for q in multi)


Edit = Callable[[dict[str, Any], dict[str, Any]], None]


def _turn(corpus: dict[str, Any], stream: int, index: int) -> dict[str, Any]:
    turn: dict[str, Any] = corpus["streams"][stream]["turns"][index]
    return turn


def _question(questions: dict[str, Any], qid: str) -> dict[str, Any]:
    return next(q for q in questions["questions"] if q["id"] == qid)


def _repeat_turn_id(c: dict[str, Any], q: dict[str, Any]) -> None:
    _turn(c, 0, 1)["id"] = _turn(c, 0, 0)["id"]


def _repeat_question_id(c: dict[str, Any], q: dict[str, Any]) -> None:
    q["questions"][1]["id"] = q["questions"][0]["id"]


def _unknown_evidence(c: dict[str, Any], q: dict[str, Any]) -> None:
    _question(q, "S1-01")["evidence"] = ["S1:999"]


def _evidence_of_another_stream(c: dict[str, Any], q: dict[str, Any]) -> None:
    _question(q, "S1-01")["evidence"] = ["S2:3"]


def _unanswerable_with_evidence(c: dict[str, Any], q: dict[str, Any]) -> None:
    _question(q, "S1-25")["evidence"] = ["S1:36"]


def _answerable_without_evidence(c: dict[str, Any], q: dict[str, Any]) -> None:
    _question(q, "S1-01")["evidence"] = []


def _time_out_of_order(c: dict[str, Any], q: dict[str, Any]) -> None:
    _turn(c, 0, 5)["occurred_at"] = "2025-01-01T00:00:00+00:00"


def _time_without_offset(c: dict[str, Any], q: dict[str, Any]) -> None:
    _turn(c, 0, 5)["occurred_at"] = "2026-02-03T09:10:00"


def _unknown_category(c: dict[str, Any], q: dict[str, Any]) -> None:
    _question(q, "S1-01")["category"] = "open-domain"


def _wrong_language(c: dict[str, Any], q: dict[str, Any]) -> None:
    _question(q, "S5-01")["lang"] = "en"


def _too_few_chinese_questions(c: dict[str, Any], q: dict[str, Any]) -> None:
    for question in q["questions"]:
        if question["lang"] == "zh" and question["stream"] != "S5":
            question["lang"] = "en"
            question["question"] = "What was said about this?"
    for question in [x for x in q["questions"] if x["lang"] == "zh"][:12]:
        question["lang"] = "en"
        question["question"] = "What was said about this?"


def _chinese_stream_in_english(c: dict[str, Any], q: dict[str, Any]) -> None:
    c["streams"] = [s for s in c["streams"] if s["lang"] != "zh"]
    q["questions"] = [x for x in q["questions"] if x["stream"] != "S5"]


BREAKS: dict[str, tuple[Edit, str]] = {
    "repeated turn id": (_repeat_turn_id, "repeats"),
    "repeated question id": (_repeat_question_id, "question id"),
    "unknown evidence": (_unknown_evidence, "no turn of the corpus"),
    "evidence of another stream": (_evidence_of_another_stream, "not in its stream"),
    "unanswerable with evidence": (_unanswerable_with_evidence, "unanswerable question has"),
    "answerable without evidence": (_answerable_without_evidence, "has no evidence"),
    "time out of order": (_time_out_of_order, "not after the previous"),
    "time without offset": (_time_without_offset, "no offset"),
    "unknown category": (_unknown_category, "unknown category"),
    "wrong language": (_wrong_language, "not written in en"),
    "too few Chinese questions": (_too_few_chinese_questions, "share of Chinese questions"),
    "no Chinese stream": (_chinese_stream_in_english, "share of Chinese turns"),
}


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_a_broken_copy_is_refused(name: str) -> None:
    edit, expected = BREAKS[name]
    corpus, questions = copy.deepcopy(CORPUS), copy.deepcopy(QUESTIONS)
    edit(corpus, questions)
    found = team.problems(corpus, questions)
    assert any(expected in problem for problem in found), found


# --- bench/team/run.py's own parts, on hand-made answers ----------------------------------------

run = bench_module("team/run")


def _asked(qid: str, category: str, gold: list[str], ranked: list[str], status: str) -> Any:
    unanswerable = category == "unanswerable"
    outcome = run.Outcome("S1", 5 if unanswerable else 4, gold, ranked, status)
    return run.Asked(qid, "fresh", category, "en", outcome)


def test_results_map_back_to_turns_of_the_stream_in_order() -> None:
    written = {"o1": "S1:1", "o2": "S1:2", "o9": "S2:9"}
    results = [
        {"evidence": [{"observation_id": "o2"}, {"observation_id": "o1"}]},
        {"evidence": [{"observation_id": "o9"}, {"observation_id": None}]},
        {"evidence": [{"observation_id": "o2"}, {"observation_id": "unknown"}]},
    ]
    assert run.ranked_turns(results, written, "S1") == ["S1:2", "S1:1"]


def test_a_group_scores_answerable_and_unanswerable_questions_apart() -> None:
    rows = [
        _asked("a", "current", ["S1:3"], ["S1:1", "S1:3"], "answered"),
        _asked("b", "current", ["S1:4", "S1:5"], ["S1:4"], "not_found"),
        _asked("c", "unanswerable", [], ["S1:1"], "not_found"),
        _asked("d", "unanswerable", [], ["S1:2"], "answered"),
        _asked("e", "unanswerable", [], [], "answered"),
    ]
    g = run.group(rows)
    assert (g["answerable"], g["unanswerable"]) == (2, 3)
    assert g["hit10"] == pytest.approx(1.0)
    assert g["mrr"] == pytest.approx((1 / 2 + 1) / 2)
    assert g["recall10_strict"] == pytest.approx(0.5)
    assert g["wrongly_not_found"] == pytest.approx(0.5)
    assert g["not_found"] == pytest.approx(1 / 3)
    assert run.group(rows[:2])["not_found"] is None


def test_turns_are_written_as_observations_of_their_stream() -> None:
    stream = {"id": "S4"}
    tool = {"id": "S4:5", "speaker": "tool:pager", "occurred_at": "2026-08-05T14:10:00-04:00"}
    body = run.observation(stream, {**tool, "text": "ALERT"})
    assert body["conversation_id"] == "S4" and body["idempotency_key"] == "S4:5"
    assert (body["source_kind"], body["kind"]) == ("tool_returned", "tool_result")
    assert run.source_kind("agent") == "agent_inferred"
    assert run.source_kind("Kwame") == "user_stated"


def test_questions_are_chosen_per_stream() -> None:
    qs = [{"id": f"{s}-{i}", "stream": s} for s in ("S1", "S2") for i in range(3)]
    assert [q["id"] for q in run.select(qs, {"S2"}, 2)] == ["S2-0", "S2-1"]
    assert len(run.select(qs, {"S1", "S2"}, None)) == 6
