"""The new users' conversations (bench/trials/README.md): loading, choosing, and the checks
that the set is well formed, shared by ``run.py`` (which refuses to run on a broken set),
``tests/unit/test_trials_corpus.py`` and whatever reads the ``fit`` split.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CONVERSATIONS = HERE / "conversations.json"

SPLITS = ("fit", "test")
LANGS = ("en", "zh")
SOURCE_KINDS = ("user_stated", "tool_returned", "agent_inferred", "document")
_CONVERSATION_ID = re.compile(r"T\d{2,3}")
_CJK = re.compile(r"[\u3400-\u9fff]")


def load(path: Path = CONVERSATIONS) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return data


def is_chinese(text: str) -> bool:
    """Written in Chinese: at least four CJK ideographs (an English question may name a
    Chinese colleague)."""
    return len(_CJK.findall(text)) >= 4


def chosen(
    data: dict[str, Any], splits: Iterable[str] = SPLITS, ids: Iterable[str] | None = None
) -> list[dict[str, Any]]:
    """The conversations of ``splits`` (and, when given, of ``ids``), in file order."""
    wanted_splits, wanted_ids = set(splits), None if ids is None else set(ids)
    return [
        c
        for c in data["conversations"]
        if c.get("split") in wanted_splits and (wanted_ids is None or c.get("id") in wanted_ids)
    ]


def _repeats(what: str, ids: Iterable[Any]) -> list[str]:
    return [f"{what} {i} repeats" for i, n in Counter(ids).items() if n > 1]


def _time_problem(tid: str, value: Any, previous: datetime | None) -> tuple[str, datetime | None]:
    """What is wrong with a turn's ``occurred_at`` ('' when nothing), and the time to compare
    the next turn's with."""
    try:
        when = datetime.fromisoformat(str(value))
    except ValueError:
        return f"{tid}: occurred_at {value!r} is not RFC 3339", previous
    if when.tzinfo is None:
        return f"{tid}: occurred_at {value!r} has no offset", previous
    if previous is not None and when <= previous:
        return f"{tid}: occurred_at is not after the previous turn's", when
    return "", when


def _turn_problems(cid: str, turns: list[dict[str, Any]]) -> list[str]:
    found: list[str] = []
    previous: datetime | None = None
    for number, turn in enumerate(turns, 1):
        tid = turn.get("id")
        if tid != f"{cid}:{number}":
            found.append(f"{cid}: turn {number} has id {tid!r}, not {cid}:{number}")
        if not str(turn.get("speaker") or "").strip() or not str(turn.get("text") or "").strip():
            found.append(f"{tid}: a speaker and a text are required")
        if turn.get("source_kind") not in SOURCE_KINDS:
            kind = turn.get("source_kind")
            found.append(f"{tid}: source_kind {kind!r} is not one of {SOURCE_KINDS}")
        problem, previous = _time_problem(str(tid), turn.get("occurred_at"), previous)
        if problem:
            found.append(problem)
    return found


def _question_problems(q: dict[str, Any], number: int, cid: str, known: set[str]) -> list[str]:
    qid, found = q.get("id"), []
    if qid != f"{cid}:q{number}":
        found.append(f"{cid}: question {number} has id {qid!r}, not {cid}:q{number}")
    text = str(q.get("question") or "")
    if not text.strip():
        found.append(f"{qid}: a question is required")
    if q.get("lang") not in LANGS:
        found.append(f"{qid}: language {q.get('lang')!r} is not one of {LANGS}")
    elif is_chinese(text) != (q["lang"] == "zh"):
        found.append(f"{qid}: the question is not written in {q['lang']}")
    evidence = q.get("evidence")
    if not isinstance(evidence, list):
        return [*found, f"{qid}: evidence must be a list of turn ids"]
    if not isinstance(q.get("answerable"), bool) or q["answerable"] != bool(evidence):
        found.append(f"{qid}: answerable must be true exactly when it has evidence")
    found += _repeats(f"{qid}: evidence", evidence)
    for tid in evidence:
        if tid not in known:
            found.append(f"{qid}: evidence {tid!r} is no turn of {cid}")
    numbers = [int(t.rsplit(":", 1)[1]) for t in evidence if t in known]
    if numbers != sorted(numbers):
        found.append(f"{qid}: evidence is not in turn order")
    return found


def _conversation_problems(c: dict[str, Any]) -> list[str]:
    cid = str(c.get("id"))
    malformed = f"conversation id {cid!r} is not Tnn or Tnnn"
    found = [] if _CONVERSATION_ID.fullmatch(cid) else [malformed]
    if c.get("split") not in SPLITS:
        found.append(f"{cid}: split {c.get('split')!r} is not one of {SPLITS}")
    if not str(c.get("domain") or "").strip():
        found.append(f"{cid}: a domain is required")
    turns, questions = c.get("turns") or [], c.get("questions") or []
    if not turns or not questions:
        found.append(f"{cid}: turns and questions are required")
    found += _turn_problems(cid, turns)
    known = {str(t.get("id")) for t in turns}
    for number, q in enumerate(questions, 1):
        found += _question_problems(q, number, cid, known)
    return found


def problems(data: dict[str, Any]) -> list[str]:
    """Everything that makes the set malformed; empty when it is well formed."""
    conversations = data.get("conversations") or []
    found = _repeats("conversation id", [c.get("id") for c in conversations])
    found += _repeats("turn id", [t.get("id") for c in conversations for t in c.get("turns", [])])
    found += _repeats(
        "question id", [q.get("id") for c in conversations for q in c.get("questions", [])]
    )
    for conversation in conversations:
        found += _conversation_problems(conversation)
    if not any(c.get("split") == "test" for c in conversations):
        found.append("no conversation is in the test split")
    return found
