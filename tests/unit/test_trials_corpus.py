"""bench/trials' conversations are well formed (bench/trials/corpus.py): unique, well-formed
ids, turns numbered in order with increasing RFC 3339 times, known source kinds, evidence that
names turns of the question's own conversation, evidence exactly for the answerable questions,
a test split; each check fails on a copy broken on purpose. And bench/trials/run.py's own
parts (mapping answers back to turns, scoring) on hand-made answers."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from tests.helpers import bench_module

trials = bench_module("trials/corpus")
DATA: dict[str, Any] = trials.load(trials.CONVERSATIONS)


def test_the_shipped_set_is_well_formed() -> None:
    assert trials.problems(DATA) == []


def test_the_shipped_set_has_the_stated_shape() -> None:
    conversations = DATA["conversations"]
    assert [c["id"] for c in conversations] == [f"T{n:02d}" for n in range(7, 103)]
    test = [f"T{n}" for n in range(27, 103)]
    assert [c["id"] for c in trials.chosen(DATA, ["test"])] == test
    assert len(trials.chosen(DATA, ["fit"])) == 20
    assert all(len(c["questions"]) <= 30 for c in conversations)
    questions = [q for c in conversations for q in c["questions"]]
    assert {q["lang"] for q in questions} == {"en", "zh"}
    assert {q["answerable"] for q in questions} == {True, False}
    kinds = {t["source_kind"] for c in conversations for t in c["turns"]}
    assert kinds == {"user_stated", "tool_returned", "agent_inferred", "document"}


Edit = Callable[[dict[str, Any]], None]


def _conversation(data: dict[str, Any], cid: str) -> dict[str, Any]:
    return next(c for c in data["conversations"] if c["id"] == cid)


def _turn(data: dict[str, Any], cid: str, index: int) -> dict[str, Any]:
    turn: dict[str, Any] = _conversation(data, cid)["turns"][index]
    return turn


def _question(data: dict[str, Any], cid: str, index: int) -> dict[str, Any]:
    question: dict[str, Any] = _conversation(data, cid)["questions"][index]
    return question


def _unanswerable(data: dict[str, Any], cid: str) -> dict[str, Any]:
    return next(q for q in _conversation(data, cid)["questions"] if not q["answerable"])


def _repeat_conversation_id(d: dict[str, Any]) -> None:
    d["conversations"][1]["id"] = d["conversations"][0]["id"]


def _malformed_conversation_id(d: dict[str, Any]) -> None:
    _conversation(d, "T08")["id"] = "trial8"


def _turn_out_of_order(d: dict[str, Any]) -> None:
    turns = _conversation(d, "T07")["turns"]
    turns[2], turns[3] = turns[3], turns[2]


def _time_out_of_order(d: dict[str, Any]) -> None:
    _turn(d, "T07", 5)["occurred_at"] = "2024-01-01T00:00:00+00:00"


def _time_without_offset(d: dict[str, Any]) -> None:
    _turn(d, "T07", 5)["occurred_at"] = "2025-04-12T19:00:00"


def _time_not_rfc3339(d: dict[str, Any]) -> None:
    _turn(d, "T07", 5)["occurred_at"] = "12 April 2025"


def _unknown_source_kind(d: dict[str, Any]) -> None:
    _turn(d, "T08", 0)["source_kind"] = "overheard"


def _unknown_evidence(d: dict[str, Any]) -> None:
    _question(d, "T07", 0)["evidence"] = ["T07:99"]


def _evidence_of_another_conversation(d: dict[str, Any]) -> None:
    _question(d, "T07", 0)["evidence"] = ["T08:1"]


def _unanswerable_with_evidence(d: dict[str, Any]) -> None:
    _unanswerable(d, "T07")["evidence"] = ["T07:3"]


def _answerable_without_evidence(d: dict[str, Any]) -> None:
    _question(d, "T07", 0)["evidence"] = []


def _repeated_question_id(d: dict[str, Any]) -> None:
    _question(d, "T07", 1)["id"] = "T07:q1"


def _unknown_split(d: dict[str, Any]) -> None:
    _conversation(d, "T07")["split"] = "train"


def _no_test_split(d: dict[str, Any]) -> None:
    for conversation in d["conversations"]:
        conversation["split"] = "fit"


def _wrong_language(d: dict[str, Any]) -> None:
    next(q for c in d["conversations"] for q in c["questions"] if q["lang"] == "zh")["lang"] = "en"


BREAKS: dict[str, tuple[Edit, str]] = {
    "repeated conversation id": (_repeat_conversation_id, "conversation id T07 repeats"),
    "malformed conversation id": (_malformed_conversation_id, "is not Tnn or Tnnn"),
    "turns out of order": (_turn_out_of_order, "turn 3 has id 'T07:4'"),
    "time out of order": (_time_out_of_order, "not after the previous"),
    "time without offset": (_time_without_offset, "no offset"),
    "time not RFC 3339": (_time_not_rfc3339, "is not RFC 3339"),
    "unknown source kind": (_unknown_source_kind, "source_kind 'overheard'"),
    "unknown evidence": (_unknown_evidence, "evidence 'T07:99' is no turn of T07"),
    "evidence of another conversation": (_evidence_of_another_conversation, "no turn of T07"),
    "unanswerable with evidence": (_unanswerable_with_evidence, "answerable must be true"),
    "answerable without evidence": (_answerable_without_evidence, "answerable must be true"),
    "repeated question id": (_repeated_question_id, "question id T07:q1 repeats"),
    "unknown split": (_unknown_split, "split 'train'"),
    "no test split": (_no_test_split, "no conversation is in the test split"),
    "wrong language": (_wrong_language, "not written in en"),
}


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_a_broken_copy_is_refused(name: str) -> None:
    edit, expected = BREAKS[name]
    data = copy.deepcopy(DATA)
    edit(data)
    found = trials.problems(data)
    assert any(expected in problem for problem in found), found


# --- bench/trials/run.py's own parts, on hand-made answers --------------------------------------

run = bench_module("trials/run")


def _asked(evidence: list[str], ranked: list[str], status: str, lang: str = "en") -> Any:
    return run.Asked("T07:q1", "T07", "fit", lang, evidence, ranked, status)


def test_results_map_back_to_turns_of_the_conversation_in_order() -> None:
    written = {"o1": "T07:1", "o2": "T07:2", "o9": "T08:9"}
    answer = {
        "status": "answered",
        "relevance": 0.4,
        "results": [
            {"evidence": [{"observation_id": "o2"}, {"observation_id": "o1"}]},
            {"evidence": [{"observation_id": "o9"}, {"observation_id": None}]},
            {"evidence": [{"observation_id": "o2"}, {"observation_id": "unknown"}]},
        ],
    }
    conversation = {"id": "T07", "split": "fit"}
    question = {"id": "T07:q3", "lang": "en", "evidence": ["T07:1"]}
    row = run.asked(conversation, question, answer, written)
    assert row.ranked == ["T07:2", "T07:1"]
    assert (row.id, row.split, row.status, row.relevance) == ("T07:q3", "fit", "answered", 0.4)
    assert not row.right  # the evidence turn is second


def test_right_needs_the_evidence_first_and_the_right_status() -> None:
    assert _asked(["T07:3"], ["T07:3", "T07:1"], "answered").right
    assert not _asked(["T07:3"], ["T07:1", "T07:3"], "answered").right
    assert not _asked(["T07:3"], ["T07:3"], "not_found").right
    assert _asked([], ["T07:1"], "not_found").right
    assert not _asked([], [], "answered").right


def test_a_group_scores_answerable_and_unanswerable_questions_apart() -> None:
    rows = [
        _asked(["T07:3"], ["T07:3", "T07:1"], "answered"),
        _asked(["T07:4", "T07:5"], ["T07:1", "T07:5"], "answered"),
        _asked(["T07:6"], ["T07:1"], "not_found", "zh"),
        _asked([], ["T07:1"], "not_found"),
        _asked([], [], "answered", "zh"),
    ]
    g = run.group(rows)
    assert (g["questions"], g["answerable"], g["unanswerable"]) == (5, 3, 2)
    assert g["right"] == pytest.approx(2 / 5)
    assert g["hit1"] == pytest.approx(1 / 3)
    assert g["hit10"] == pytest.approx(2 / 3)
    assert g["mrr"] == pytest.approx((1 + 1 / 2 + 0) / 3)
    assert g["wrongly_not_found"] == pytest.approx(1 / 3)
    assert g["not_found"] == pytest.approx(1 / 2)
    only_unanswerable = run.group(rows[3:])
    assert only_unanswerable["hit1"] is None and only_unanswerable["mrr"] is None
    assert set(run.groups(rows)) == {"all", "split fit", "lang en", "lang zh", "T07"}


def test_turns_are_written_as_observations_of_their_conversation() -> None:
    turn = {
        "id": "T08:5",
        "speaker": "crm",
        "occurred_at": "2025-05-05T09:00:00+00:00",
        "source_kind": "tool_returned",
        "text": "Account: Kestrel Freight Co.",
    }
    body = run.observation({"id": "T08"}, turn)
    assert body["conversation_id"] == "T08" and body["idempotency_key"] == "T08:5"
    assert body["source_kind"] == "tool_returned"
    assert {k: body[k] for k in ("text", "speaker", "occurred_at")} == {
        k: turn[k] for k in ("text", "speaker", "occurred_at")
    }
