"""The new users' conversations for POST /v1/recall (a report, not a test; see README.md).

    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python bench/trials/run.py --fresh
    # --split fit|test (repeatable)   --conversation T07 (repeatable)   --label NAME
    # TRACTATUS_RECALL_DISABLE=... for ablations (passed to the server)

1. Checks the conversations (bench/trials/corpus.py); refuses a malformed set.
2. Starts the real server (``tractatus serve``) on a free loopback port with a throw-away
   principals file holding one member: the new user who writes and asks.
3. Writes every turn of each chosen conversation as the member, one POST /v1/observations
   per turn in order (``conversation_id`` = the conversation, idempotency key = the turn
   id), and keeps each answer's ``observation_id``.
4. After one unscored warm-up recall outside every conversation, asks every question as the
   member (``k=10``, ``filters.conversation_id`` = its conversation), with no admin call.
5. Scores per conversation, per split, per language and in total (``right``, Hit@1, Hit@10,
   MRR, the not_found shares; README.md) on turn identity only, and writes results/NAME.json
   and .md with the set's SHA-256 and the machine.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from statistics import mean
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT)]

from bench import harness
from bench.locomo.scoring import hit_at, percentile, reciprocal_rank
from bench.trials import corpus as trials
from server.settings import Settings, open_driver

MEMBER_KEY = "tr_bench_trials_member_000000000000"
PRINCIPALS = f'[[principal]]\nid = "new-user"\nkey = "{MEMBER_KEY}"\ngroups = []\nrole = "member"\n'
K = 10


@dataclass
class Asked:
    """One question's answer as the run saw it, with what the tables group it by."""

    id: str
    conversation: str
    split: str
    lang: str
    evidence: list[str]
    ranked: list[str]
    status: str
    relevance: float = 0.0
    latency_ms: float = 0.0
    unmentioned: list[str] = field(default_factory=list)
    missing_kinds: list[str] = field(default_factory=list)

    @property
    def answerable(self) -> bool:
        return bool(self.evidence)

    @property
    def right(self) -> bool:
        """Answered with an evidence turn ranked first, or not_found when nothing answers."""
        if self.answerable:
            return self.status == "answered" and hit_at(self.ranked, set(self.evidence), 1)
        return self.status == "not_found"


# --- writing and asking -----------------------------------------------------------------------


def observation(conversation: dict[str, Any], turn: dict[str, Any]) -> dict[str, Any]:
    return {
        "text": turn["text"],
        "speaker": turn["speaker"],
        "occurred_at": turn["occurred_at"],
        "source_kind": turn["source_kind"],
        "conversation_id": conversation["id"],
        "idempotency_key": turn["id"],
    }


def asked(
    conversation: dict[str, Any],
    q: dict[str, Any],
    answer: dict[str, Any],
    written: dict[str, str],
    latency_ms: float = 0.0,
) -> Asked:
    """A question's answer as the run scores it."""
    return Asked(
        id=q["id"],
        conversation=conversation["id"],
        split=conversation["split"],
        lang=q["lang"],
        evidence=list(q["evidence"]),
        ranked=harness.ranked_turns(answer["results"], written, conversation["id"]),
        status=answer["status"],
        relevance=float(answer.get("relevance", 0.0)),
        latency_ms=latency_ms,
        unmentioned=list(answer.get("unmentioned") or []),
        missing_kinds=list(answer.get("missing_kinds") or []),
    )


def ask(
    client: httpx.Client, conversations: list[dict[str, Any]], written: dict[str, str]
) -> list[Asked]:
    rows = []
    for conversation in conversations:
        for q in conversation["questions"]:
            answer, latency = harness.recall(client, q["question"], conversation["id"], k=K)
            rows.append(asked(conversation, q, answer, written, latency))
        print(f"{conversation['id']}: {len(conversation['questions'])} questions asked", flush=True)
    return rows


# --- scoring ----------------------------------------------------------------------------------


def _share(values: list[bool]) -> float | None:
    return mean(values) if values else None


def group(rows: list[Asked]) -> dict[str, Any]:
    """``right`` over every row; Hit@1, Hit@10, MRR and the share wrongly not_found over the
    answerable rows; the share answered not_found over the unanswerable ones (None: no row)."""
    answerable = [r for r in rows if r.answerable]
    unanswerable = [r for r in rows if not r.answerable]
    return {
        "questions": len(rows),
        "right": _share([r.right for r in rows]),
        "answerable": len(answerable),
        "hit1": _share([hit_at(r.ranked, set(r.evidence), 1) for r in answerable]),
        "hit10": _share([hit_at(r.ranked, set(r.evidence), K) for r in answerable]),
        "mrr": mean(reciprocal_rank(r.ranked, set(r.evidence)) for r in answerable)
        if answerable
        else None,
        "wrongly_not_found": _share([r.status == "not_found" for r in answerable]),
        "unanswerable": len(unanswerable),
        "not_found": _share([r.status == "not_found" for r in unanswerable]),
    }


def groups(rows: list[Asked]) -> dict[str, list[Asked]]:
    """The rows of each table line: in total, per split, per language, per conversation."""
    found: dict[str, list[Asked]] = {"all": rows}
    for split in trials.SPLITS:
        found[f"split {split}"] = [r for r in rows if r.split == split]
    for lang in trials.LANGS:
        found[f"lang {lang}"] = [r for r in rows if r.lang == lang]
    for conversation in dict.fromkeys(r.conversation for r in rows):
        found[conversation] = [r for r in rows if r.conversation == conversation]
    return {name: members for name, members in found.items() if members}


def report(rows: list[Asked]) -> dict[str, Any]:
    latencies = [r.latency_ms for r in rows]
    return {
        "groups": {name: group(members) for name, members in groups(rows).items()},
        "latency_ms": {"p50": percentile(latencies, 50), "p99": percentile(latencies, 99)},
    }


# --- the report's table -----------------------------------------------------------------------


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _line(name: str, split: str, g: dict[str, Any]) -> str:
    cells = [str(g["questions"]), _cell(g["right"]), str(g["answerable"])]
    cells += [_cell(g[k]) for k in ("hit1", "hit10", "mrr", "wrongly_not_found")]
    cells += [str(g["unanswerable"]), _cell(g["not_found"])]
    return f"| {name} | {split} | {' | '.join(cells)} |"


def markdown(result: dict[str, Any]) -> str:
    m, s, data = result["machine"], result["seconds"], result["data"]
    lines = [
        f"# New users' conversations: {result['label']}",
        "",
        f"set `{data['conversations']}` sha256 `{data['sha256'][:16]}…`; conversations "
        f"{', '.join(result['conversations'])}; disabled: {result['disabled'] or 'nothing'}",
        f"machine: {m['cpu']}, {m['cores']} cores, {m['memory']}, 1-minute load "
        f"{m['load_avg_1m']} at the start; run {s['total']:.0f} s (write {s['write']:.0f} s, "
        f"questions {s['questions']:.0f} s)",
        "",
        "`right`: answered with an evidence turn ranked first (answerable), not_found "
        "(unanswerable). Hit@1, Hit@10, MRR and wrongly not_found: over the answerable "
        "questions; not_found: over the unanswerable ones.",
        "",
        "| group | split | questions | right | answerable | Hit@1 | Hit@10 | MRR "
        "| wrongly not_found | unanswerable | not_found |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    splits = result["splits"]
    for name, g in result["report"]["groups"].items():
        split = splits.get(name) or (name.split(" ", 1)[1] if name.startswith("split ") else "")
        lines.append(_line(name, split, g))
    lat = result["report"]["latency_ms"]
    lines += [
        "",
        f"Recall latency over HTTP: p50 {lat['p50']:.0f} ms, p99 {lat['p99']:.0f} ms.",
        "",
    ]
    return "\n".join(lines)


# --- main -------------------------------------------------------------------------------------


def load_set() -> tuple[dict[str, Any], bytes]:
    raw = trials.CONVERSATIONS.read_bytes()
    data = trials.load(trials.CONVERSATIONS)
    if found := trials.problems(data):
        sys.exit("the conversations are malformed:\n" + "\n".join(found))
    return data, raw


def run(conversations: list[dict[str, Any]]) -> tuple[list[Asked], dict[str, float]]:
    seconds: dict[str, float] = {}
    with harness.serve_as(PRINCIPALS) as url, harness.clients(url, MEMBER_KEY) as (member,):
        t0 = time.perf_counter()
        written = harness.write_turns(member, conversations, observation)
        seconds["write"] = time.perf_counter() - t0
        harness.warm_up(member)
        t1 = time.perf_counter()
        rows = ask(member, conversations, written)
        seconds["questions"] = time.perf_counter() - t1
    return rows, seconds


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--split", action="append", choices=trials.SPLITS, default=None)
    parser.add_argument("--conversation", action="append", default=None, help="T07 (repeatable)")
    parser.add_argument("--fresh", action="store_true", help="wipe the (loopback) store first")
    parser.add_argument("--label", default="trials")
    parser.add_argument("--out", type=Path, default=HERE / "results")
    args = parser.parse_args()
    known = {c["id"] for c in trials.load(trials.CONVERSATIONS)["conversations"]}
    if unknown := set(args.conversation or ()) - known:
        parser.error(f"no such conversation: {', '.join(sorted(unknown))}")
    return args


def main() -> None:
    args = arguments()
    started = time.perf_counter()
    machine = harness.machine()  # its load before this run adds its own
    data, raw = load_set()
    conversations = trials.chosen(data, args.split or trials.SPLITS, args.conversation)
    if not conversations:
        sys.exit("no conversation is in the chosen splits")
    settings = Settings()  # the server is started with this environment: the same settings
    with open_driver(settings) as driver:
        harness.prepare_store(driver, settings, wipe=args.fresh)
    rows, seconds = run(conversations)
    seconds["total"] = time.perf_counter() - started
    result = {
        "label": args.label,
        "data": {
            "conversations": harness.shown_path(trials.CONVERSATIONS),
            "sha256": hashlib.sha256(raw).hexdigest(),
        },
        "conversations": [c["id"] for c in conversations],
        "splits": {c["id"]: c["split"] for c in conversations},
        "disabled": ",".join(sorted(settings.recall_disable)),
        "machine": machine,
        "seconds": seconds,
        "report": report(rows),
        "outcomes": [asdict(r) | {"answerable": r.answerable, "right": r.right} for r in rows],
    }
    harness.save_report(args.out, args.label, result, markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
