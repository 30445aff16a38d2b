"""The team-notes benchmark for POST /v1/recall (a report, not a test; see README.md).

    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python bench/team/run.py --fresh
    # --stream S1 (repeatable)   --max-questions N (per stream)   --label NAME (results/NAME.*)
    # TRACTATUS_RECALL_DISABLE=speaker,graph ... for ablations (passed to the server)

1. Checks the corpus and the questions (bench/team/corpus.py); refuses a malformed set.
2. Starts the real server (``tractatus serve``) on a free loopback port with a throw-away
   principals file: a member (the new user who writes and asks) and an admin (used once,
   for the index call of phase 2).
3. Writes every turn of each stream as the member, one POST /v1/observations per turn in
   time order (``conversation_id`` = the stream, idempotency key = the turn id), and keeps
   each answer's ``observation_id``.
4. Phase ``fresh``: asks every question straight after, as the member, with no admin call
   (``k=10``, ``filters.conversation_id`` = its stream), after one unscored warm-up recall
   outside every stream (the first request of a process loads what recall needs).
5. Phase ``indexed``: POST /v1/recall/index (admin) until nothing is pending, then the same
   questions again.
6. Scores both phases per category and per language with bench/locomo/scoring.py (on turn
   identity only) and writes results/NAME.json and .md with the corpus's SHA-256 and the
   machine. Nothing is fitted on these questions: the run only measures.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT)]

from bench import harness
from bench.harness import ranked_turns
from bench.locomo.scoring import (
    ADVERSARIAL,
    Outcome,
    others_relevance,
    percentile,
    score,
    threshold_curve,
)
from bench.team import corpus as team
from server.settings import Settings, open_driver

MEMBER_KEY = "tr_bench_team_member_00000000000000"
ADMIN_KEY = "tr_bench_team_admin_000000000000000"
PRINCIPALS = (
    f'[[principal]]\nid = "new-user"\nkey = "{MEMBER_KEY}"\ngroups = []\nrole = "member"\n\n'
    f'[[principal]]\nid = "operator"\nkey = "{ADMIN_KEY}"\ngroups = []\nrole = "admin"\n'
)
THRESHOLDS = [round(0.05 * i, 2) for i in range(0, 21)]
PHASES = ("fresh", "indexed")
ANSWERABLE_CATEGORY = 4  # scoring.Outcome's category for any answerable question


@dataclass
class Asked:
    """One question's answer in one phase, with what the table groups it by."""

    id: str
    phase: str
    category: str
    lang: str
    outcome: Outcome


# --- writing ----------------------------------------------------------------------------------


def source_kind(speaker: str) -> str:
    if speaker.startswith("tool:"):
        return "tool_returned"
    return "agent_inferred" if speaker == "agent" else "user_stated"


def observation(stream: dict[str, Any], turn: dict[str, Any]) -> dict[str, Any]:
    tool = turn["speaker"].startswith("tool:")
    return {
        "text": turn["text"],
        "speaker": turn["speaker"],
        "occurred_at": turn["occurred_at"],
        "source_kind": source_kind(turn["speaker"]),
        "idempotency_key": turn["id"],
        "conversation_id": stream["id"],
        "kind": "tool_result" if tool else "note",
    }


# --- asking -----------------------------------------------------------------------------------


def ask(
    client: httpx.Client, questions: list[dict[str, Any]], written: dict[str, str], phase: str
) -> list[Asked]:
    asked = []
    for q in questions:
        answer, latency = harness.recall(client, q["question"], q["stream"])
        unanswerable = q["category"] == team.UNANSWERABLE
        outcome = Outcome(
            sample_id=q["stream"],
            category=ADVERSARIAL if unanswerable else ANSWERABLE_CATEGORY,
            gold=list(q["evidence"]),
            ranked=ranked_turns(answer["results"], written, q["stream"]),
            status=answer["status"],
            relevance=float(answer.get("relevance", 0.0)),
            others=others_relevance(answer),
            unmentioned=list(answer.get("unmentioned") or []),
            missing_kinds=list(answer.get("missing_kinds") or []),
            latency_ms=latency,
        )
        asked.append(Asked(q["id"], phase, q["category"], q["lang"], outcome))
    return asked


# --- report -----------------------------------------------------------------------------------


def group(rows: list[Asked]) -> dict[str, Any]:
    """Hit@10, MRR, Recall@10 strict and the share wrongly not_found over the answerable
    rows; the share answered not_found over the unanswerable ones."""
    answerable = [r.outcome for r in rows if r.category != team.UNANSWERABLE]
    unanswerable = [r.outcome for r in rows if r.category == team.UNANSWERABLE]
    s = score(answerable)
    return {
        "answerable": len(answerable),
        "hit10": s.hit10,
        "mrr": s.mrr,
        "recall10_strict": s.recall10_strict,
        "wrongly_not_found": s.not_found,
        "unanswerable": len(unanswerable),
        "not_found": (
            sum(o.status == "not_found" for o in unanswerable) / len(unanswerable)
            if unanswerable
            else None
        ),
    }


def report(rows: list[Asked]) -> dict[str, Any]:
    groups: dict[str, list[Asked]] = {"all": rows}
    for category in team.CATEGORIES:
        groups[category] = [r for r in rows if r.category == category]
    for lang in team.LANGS:
        groups[f"lang {lang}"] = [r for r in rows if r.lang == lang]
    latencies = [r.outcome.latency_ms for r in rows]
    return {
        "groups": {name: group(members) for name, members in groups.items()},
        "latency_ms": {"p50": percentile(latencies, 50), "p99": percentile(latencies, 99)},
        "threshold_curve": threshold_curve([r.outcome for r in rows], THRESHOLDS),
    }


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def markdown(result: dict[str, Any]) -> str:
    m, s = result["machine"], result["seconds"]
    lines = [
        f"# Team notes retrieval: {result['label']}",
        "",
        f"corpus `{result['data']['corpus']}` sha256 `{result['data']['corpus_sha256'][:16]}…`, "
        f"questions sha256 `{result['data']['questions_sha256'][:16]}…`; streams "
        f"{', '.join(result['streams'])}; disabled: {result['disabled'] or 'nothing'}",
        f"machine: {m['cpu']}, {m['cores']} cores, {m['memory']}, 1-minute load "
        f"{m['load_avg_1m']} at the start; run {s['total']:.0f} s (write {s['write']:.0f} s, "
        f"fresh questions {s['fresh']:.0f} s, index {s['index']:.0f} s, indexed questions "
        f"{s['indexed']:.0f} s)",
        "",
        "Each cell: phase `fresh` (written, asked straight after, no admin call) / phase "
        "`indexed` (after POST /v1/recall/index).",
        "",
        "| group | answerable | Hit@10 | MRR | Recall@10 strict | wrongly not_found "
        "| unanswerable | not_found |",
        "|---|---|---|---|---|---|---|---|",
    ]
    fresh, indexed = (result["phases"][p]["groups"] for p in PHASES)
    for name, g in fresh.items():
        cells = [
            f"{_cell(g[k])} / {_cell(indexed[name][k])}" if g["answerable"] else "-"
            for k in ("hit10", "mrr", "recall10_strict", "wrongly_not_found")
        ]
        nf = f"{_cell(g['not_found'])} / {_cell(indexed[name]['not_found'])}"
        lines.append(
            f"| {name} | {g['answerable']} | {' | '.join(cells)} | {g['unanswerable']} | "
            f"{nf if g['unanswerable'] else '-'} |"
        )
    lines.append("")
    for phase in PHASES:
        lat = result["phases"][phase]["latency_ms"]
        lines.append(
            f"Recall latency over HTTP, {phase}: p50 {lat['p50']:.0f} ms, p99 {lat['p99']:.0f} ms."
        )
    lines += ["", "Nothing is fitted on these questions: the run only measures.", ""]
    return "\n".join(lines)


# --- main -------------------------------------------------------------------------------------


def load_set(streams: list[str] | None) -> tuple[dict[str, Any], dict[str, Any], bytes, bytes]:
    corpus_bytes, questions_bytes = team.CORPUS.read_bytes(), team.QUESTIONS.read_bytes()
    corpus, questions = team.load(team.CORPUS), team.load(team.QUESTIONS)
    if found := team.problems(corpus, questions):
        sys.exit("the corpus or its questions are malformed:\n" + "\n".join(found))
    if streams:
        corpus["streams"] = [s for s in corpus["streams"] if s["id"] in streams]
    return corpus, questions, corpus_bytes, questions_bytes


def select(
    questions: list[dict[str, Any]], streams: set[str], limit: int | None
) -> list[dict[str, Any]]:
    """The questions of the kept streams, at most ``limit`` per stream, in file order."""
    chosen: list[dict[str, Any]] = []
    for q in questions:
        if q["stream"] in streams and (
            limit is None or sum(c["stream"] == q["stream"] for c in chosen) < limit
        ):
            chosen.append(q)
    return chosen


def run(
    corpus: dict[str, Any], questions: list[dict[str, Any]]
) -> tuple[dict[str, list[Asked]], dict[str, float], int]:
    seconds: dict[str, float] = {}
    rows: dict[str, list[Asked]] = {}
    with (
        harness.serve_as(PRINCIPALS) as url,
        harness.clients(url, MEMBER_KEY, ADMIN_KEY) as (member, admin),
    ):
        t0 = time.perf_counter()
        written = harness.write_turns(member, corpus["streams"], observation)
        seconds["write"] = time.perf_counter() - t0
        harness.warm_up(member)
        t1 = time.perf_counter()
        rows["fresh"] = ask(member, questions, written, "fresh")
        seconds["fresh"] = time.perf_counter() - t1
        t2 = time.perf_counter()
        indexed = harness.index_passages(admin)
        seconds["index"] = time.perf_counter() - t2
        print(f"{indexed} passages built by the index call", flush=True)
        t3 = time.perf_counter()
        rows["indexed"] = ask(member, questions, written, "indexed")
        seconds["indexed"] = time.perf_counter() - t3
    return rows, seconds, indexed


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--stream", action="append", default=None, help="S1..S5 (repeatable)")
    parser.add_argument("--max-questions", type=int, default=None, help="per stream")
    parser.add_argument("--fresh", action="store_true", help="wipe the (loopback) store first")
    parser.add_argument("--label", default="team")
    parser.add_argument("--out", type=Path, default=HERE / "results")
    args = parser.parse_args()

    started = time.perf_counter()
    machine = harness.machine()  # its load before this run adds its own
    corpus, qs, corpus_bytes, questions_bytes = load_set(args.stream)
    kept = {s["id"] for s in corpus["streams"]}
    questions = select(qs["questions"], kept, args.max_questions)
    settings = Settings()  # the server is started with this environment: the same settings
    with open_driver(settings) as driver:
        harness.prepare_store(driver, settings, wipe=args.fresh)
    rows, seconds, indexed = run(corpus, questions)
    seconds["total"] = time.perf_counter() - started
    result = {
        "label": args.label,
        "data": {
            "corpus": harness.shown_path(team.CORPUS),
            "corpus_sha256": hashlib.sha256(corpus_bytes).hexdigest(),
            "questions_sha256": hashlib.sha256(questions_bytes).hexdigest(),
        },
        "streams": sorted(kept),
        "disabled": ",".join(sorted(settings.recall_disable)),
        "machine": machine,
        "seconds": seconds,
        "passages_indexed": indexed,
        "phases": {phase: report(rows[phase]) for phase in PHASES},
        "outcomes": [
            vars(r.outcome) | {"id": r.id, "phase": r.phase, "category": r.category, "lang": r.lang}
            for phase in PHASES
            for r in rows[phase]
        ],
    }
    harness.save_report(args.out, args.label, result, markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
