"""The team-notes corpus and its questions (bench/team/README.md): loading, and the checks
that both are well formed, shared by ``run.py`` (which refuses to run on a broken set) and
``tests/unit/test_team_corpus.py``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus.json"
QUESTIONS = HERE / "questions.json"

CATEGORIES = ("single-hop", "multi-hop", "temporal", "current", "unanswerable")
UNANSWERABLE = "unanswerable"
LANGS = ("en", "zh")
TURNS_PER_STREAM = (40, 70)
# the shares the README states, as bounds a change to the set must keep
ZH_TURNS = (0.18, 0.30)  # at least one stream in Chinese, about a fifth of the turns
ZH_QUESTIONS = (0.18, 0.30)  # about 20% of the questions
UNANSWERABLE_SHARE = (0.20, 0.30)  # about 25%
_CJK = re.compile(r"[\u3400-\u9fff]")


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return data


def is_chinese(text: str) -> bool:
    """Written in Chinese: at least four CJK ideographs (a tool's output in a Chinese stream
    is mostly ASCII; an English question may name a Chinese colleague)."""
    return len(_CJK.findall(text)) >= 4


def turns(corpus: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every turn by its id, with its stream's id and language added."""
    return {
        t["id"]: {**t, "stream": s["id"], "lang": s["lang"]}
        for s in corpus["streams"]
        for t in s["turns"]
    }


def _stream_problems(stream: dict[str, Any]) -> list[str]:
    sid, found = stream.get("id", "?"), []
    if stream.get("lang") not in LANGS:
        found.append(f"{sid}: language {stream.get('lang')!r} is not one of {LANGS}")
    low, high = TURNS_PER_STREAM
    if not low <= len(stream["turns"]) <= high:
        found.append(f"{sid}: {len(stream['turns'])} turns, not {low}-{high}")
    previous: datetime | None = None
    for number, turn in enumerate(stream["turns"], 1):
        tid = turn.get("id")
        if tid != f"{sid}:{number}":
            found.append(f"{sid}: turn {number} has id {tid!r}, not {sid}:{number}")
        if not str(turn.get("speaker") or "").strip() or not str(turn.get("text") or "").strip():
            found.append(f"{tid}: a speaker and a text are required")
        try:
            when = datetime.fromisoformat(str(turn.get("occurred_at")))
        except ValueError:
            found.append(f"{tid}: occurred_at {turn.get('occurred_at')!r} is not RFC 3339")
            continue
        if when.tzinfo is None:
            found.append(f"{tid}: occurred_at has no offset")
            continue
        if previous is not None and when <= previous:
            found.append(f"{tid}: occurred_at is not after the previous turn's")
        previous = when
        if is_chinese(str(turn.get("text") or "")) != (stream.get("lang") == "zh"):
            found.append(f"{tid}: the text is not in the stream's language")
    return found


def _question_problems(q: dict[str, Any], known: dict[str, dict[str, Any]]) -> list[str]:
    qid, found = q.get("id"), []
    if q.get("category") not in CATEGORIES:
        found.append(f"{qid}: unknown category {q.get('category')!r}")
    if q.get("lang") not in LANGS:
        found.append(f"{qid}: language {q.get('lang')!r} is not one of {LANGS}")
    elif is_chinese(str(q.get("question") or "")) != (q["lang"] == "zh"):
        found.append(f"{qid}: the question is not written in {q['lang']}")
    evidence = q.get("evidence")
    if not isinstance(evidence, list):
        return [*found, f"{qid}: evidence must be a list of turn ids"]
    if q.get("category") == UNANSWERABLE and evidence:
        found.append(f"{qid}: an unanswerable question has evidence")
    if q.get("category") != UNANSWERABLE and not evidence:
        found.append(f"{qid}: an answerable question has no evidence")
    if len(set(evidence)) != len(evidence):
        found.append(f"{qid}: evidence repeats a turn")
    for tid in evidence:
        if tid not in known:
            found.append(f"{qid}: evidence {tid!r} is no turn of the corpus")
        elif known[tid]["stream"] != q.get("stream"):
            found.append(f"{qid}: evidence {tid} is not in its stream {q.get('stream')}")
    return found


def _repeats(what: str, ids: list[Any]) -> list[str]:
    return [f"{what} {i} repeats" for i, n in Counter(ids).items() if n > 1]


def _share_problem(name: str, value: float, bounds: tuple[float, float]) -> list[str]:
    low, high = bounds
    return [] if low <= value <= high else [f"{name} {value:.3f} is outside {low}-{high}"]


def shares(corpus: dict[str, Any], questions: dict[str, Any]) -> dict[str, float]:
    """The shares the README states: Chinese turns, Chinese and unanswerable questions."""
    known = turns(corpus)
    qs = questions["questions"]
    return {
        "zh_turns": sum(t["lang"] == "zh" for t in known.values()) / max(len(known), 1),
        "zh_questions": sum(q.get("lang") == "zh" for q in qs) / max(len(qs), 1),
        "unanswerable": sum(q.get("category") == UNANSWERABLE for q in qs) / max(len(qs), 1),
    }


def problems(corpus: dict[str, Any], questions: dict[str, Any]) -> list[str]:
    """Everything that makes the set malformed; empty when it is well formed."""
    streams = corpus["streams"]
    found = _repeats("stream id", [s["id"] for s in streams])
    found += _repeats("turn id", [t.get("id") for s in streams for t in s["turns"]])
    for stream in streams:
        found += _stream_problems(stream)
    known = turns(corpus)
    qs = questions["questions"]
    found += _repeats("question id", [q.get("id") for q in qs])
    stream_ids = {s["id"] for s in streams}
    for q in qs:
        if q.get("stream") not in stream_ids:
            found.append(f"{q.get('id')}: unknown stream {q.get('stream')!r}")
        found += _question_problems(q, known)
    measured = shares(corpus, questions)
    found += _share_problem("share of Chinese turns", measured["zh_turns"], ZH_TURNS)
    found += _share_problem("share of Chinese questions", measured["zh_questions"], ZH_QUESTIONS)
    found += _share_problem(
        "share of unanswerable questions", measured["unanswerable"], UNANSWERABLE_SHARE
    )
    return found
