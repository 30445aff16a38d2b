"""Distillation quality: precision and recall of structured facts, date accuracy and coverage,
on the labelled sets of bench/distill-labels/ (a report, not a test).

How to run (no Neo4j, no server; the LoCoMo dev file is found as by `tractatus ingest`):

    .venv/bin/python bench/distill.py                 # offline distiller; LLM when configured
    # --llm-url URL --llm-model NAME   an OpenAI-compatible endpoint (default: TRACTATUS_LLM_URL,
    #                                  TRACTATUS_LLM_MODEL); without one the LLM part is skipped
    # --errors dev|test|sealed|sealed2|...|sealed14
    #                                  list a development set's misses and false facts
    # --sealed                         also score the fifteenth sealed LoCoMo test set (its
    #                                  errors are never listed: `--errors sealed15` is refused)
    # --out bench/results/distill.json

What it does, for each distiller, on each set (LoCoMo turns, Chinese sentences, English notes)
and each split (dev, test; LoCoMo also sealed to sealed14, and sealed15 when asked):

1. Builds each labelled turn's observation exactly as `tractatus ingest` would (LoCoMo: read
   from the dev file by conversation and dia_id; ours: the text in the label file) and distils
   it. Structured facts are the drafts whose predicate is not `said`.
2. Matches them one to one against the labels: exact on subject, predicate and polarity,
   normalised on the object (lower case, no punctuation, no leading article or possessive,
   each word's plural -s dropped; a label's alternatives count too). Precision = matched facts
   / facts written; recall = matched labels / labels.
3. Dates: for every matched fact where the label or the distiller gives a time, the time is
   right when the distiller's time, read at the label's granularity (day, ISO week, month,
   year), is the label's. A distiller's time is its draft's `valid_from` when that differs
   from the observation's time, or the `(date)` a plan carries in its object. A time given
   where the label has none is wrong, and so is a labelled time not given.
4. Coverage: the share of turns with at least one structured fact (and the labels' share).

The sets' `dev` and `test` halves and the first fourteen sealed LoCoMo sets
(`locomo-sealed-labels.jsonl`, split `sealed`, to `locomo-sealed14-labels.jsonl`, split
`sealed14`) are all development data now: each was read after it was scored once.
`ALL/development` pools them, and is what the extractor is tuned on. The headline is the
fifteenth sealed LoCoMo set (`locomo-sealed15-labels.jsonl`, split `sealed15`, labelled blind),
scored only with `--sealed`, once the extractor is frozen. Results go to --out with the machine.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.harness import LocomoMissing, locomo_file, machine
from graph_schema.core.timeutil import parse_rfc3339
from graph_schema.observations.types import ObservationIn
from ingest import bulk
from ingest.distill.base import Distiller
from ingest.distill.dates import local

LABELS = ROOT / "bench" / "distill-labels"
SETS = ("locomo", "zh", "notes")
# development data: every split scored once and read since
SPLITS = (
    "dev",
    "test",
    "sealed",
    "sealed2",
    "sealed3",
    "sealed4",
    "sealed5",
    "sealed6",
    "sealed7",
    "sealed8",
    "sealed9",
    "sealed10",
    "sealed11",
    "sealed12",
    "sealed13",
    "sealed14",
)
DEVELOPMENT = "development"
SEALED = "sealed15"  # the test set: scored with --sealed only, its errors never listed
# the development LoCoMo labels
LOCOMO_FILES = (
    "locomo",
    "locomo-sealed",
    "locomo-sealed2",
    "locomo-sealed3",
    "locomo-sealed4",
    "locomo-sealed5",
    "locomo-sealed6",
    "locomo-sealed7",
    "locomo-sealed8",
    "locomo-sealed9",
    "locomo-sealed10",
    "locomo-sealed11",
    "locomo-sealed12",
    "locomo-sealed13",
    "locomo-sealed14",
)
SAID = "said"
_PLAN_DATE = re.compile(r"\s*\((\d{4}(?:-W\d{2}|-\d{2}(?:-\d{2})?)?)\)\s*$")
_LEADING = re.compile(r"^(?:a|an|the|my|our|his|her|their|your|some)\s+")
_PUNCT = re.compile(r"[^\w\s/:-]+|(?<!\w)-|-(?!\w)")


def share(a: int, b: int) -> float | None:
    """``a / b`` to three decimals; None when ``b`` is 0."""
    return round(a / b, 3) if b else None


@dataclass(frozen=True)
class Item:
    set: str
    id: str
    split: str
    observation: ObservationIn
    facts: list[dict[str, Any]]


@dataclass
class Tally:
    predicted: int = 0
    matched: int = 0
    labelled: int = 0
    found: int = 0
    dates: int = 0
    dates_right: int = 0
    turns: int = 0
    turns_with_fact: int = 0
    turns_labelled: int = 0
    errors: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in (
            "predicted",
            "matched",
            "labelled",
            "found",
            "dates",
            "dates_right",
            "turns",
            "turns_with_fact",
            "turns_labelled",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def figures(self) -> dict[str, Any]:
        return {
            "precision": share(self.matched, self.predicted),
            "recall": share(self.found, self.labelled),
            "date_accuracy": share(self.dates_right, self.dates),
            "dates": self.dates,
            "turns_with_fact": share(self.turns_with_fact, self.turns),
            "turns_labelled_with_fact": share(self.turns_labelled, self.turns),
            "facts_written": self.predicted,
            "facts_labelled": self.labelled,
            "turns": self.turns,
        }


# --- normalisation ----------------------------------------------------------------------------


def normalise(value: Any) -> str:
    """The object as scored: lower case, no punctuation, no leading article or possessive,
    the plural -s of each word dropped, and a plan's trailing ``(date)`` removed."""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = _PLAN_DATE.sub("", str(value)).lower().replace("’", "'")
    text = text.replace("'s ", " ").replace("《", "").replace("》", "")
    text = _PUNCT.sub(" ", text)
    text = " ".join(text.split())
    previous = None
    while previous != text:
        previous, text = text, _LEADING.sub("", text)
    words = [
        w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
        for w in text.split()
    ]
    return " ".join(words)


def at_granularity(day: date, like: str) -> str:
    """``day`` written the way a label writes its time (day, ISO week, month or year)."""
    if re.fullmatch(r"\d{4}-W\d{2}", like):
        year, week, _ = day.isocalendar()
        return f"{year}-W{week:02d}"
    if re.fullmatch(r"\d{4}-\d{2}", like):
        return f"{day.year}-{day.month:02d}"
    if re.fullmatch(r"\d{4}", like):
        return str(day.year)
    return day.isoformat()


def draft_time(draft: dict[str, Any], observation: ObservationIn) -> str | date | None:
    """The time a draft gives: a plan's ``(date)``, else a ``valid_from`` that is not the
    observation's own time (as a date in the observation's offset)."""
    match = _PLAN_DATE.search(str(draft.get("object", "")))
    if match:
        return match.group(1)
    valid_from = draft.get("valid_from")
    if not valid_from:
        return None
    at = local(observation.occurred_at)
    try:
        when = parse_rfc3339(str(valid_from))
    except ValueError:
        return "unreadable"
    if when == at:
        return None
    return when.astimezone(at.tzinfo).date()


def time_right(label: str | None, given: str | date | None) -> bool | None:
    """None when neither has a time (not counted); else whether they agree."""
    if label is None and given is None:
        return None
    if label is None or given is None:
        return False
    if isinstance(given, date):
        return at_granularity(given, label) == label
    return given == label


# --- matching ---------------------------------------------------------------------------------


def objects(label: dict[str, Any]) -> set[str]:
    """A label's object and its alternatives, normalised: what a fact's object may be."""
    return {normalise(label["object"])} | {normalise(a) for a in label.get("alternatives", [])}


def _accepts(label: dict[str, Any], draft: dict[str, Any]) -> bool:
    if (label["subject"], label["predicate"]) != (draft.get("subject"), draft.get("predicate")):
        return False
    if bool(label.get("polarity", True)) != bool(draft.get("polarity", True)):
        return False
    return normalise(draft.get("object")) in objects(label)


def _unique(drafts: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: set[tuple[Any, ...]] = set()
    kept = []
    for d in drafts:
        key = (d.get("subject"), d.get("predicate"), normalise(d.get("object")), d.get("polarity"))
        if key not in seen:
            seen.add(key)
            kept.append(d)
    return kept


def score_item(item: Item, drafts: list[dict[str, Any]]) -> Tally:
    """One turn: match its structured drafts to its labels, one to one."""
    predicted = _unique(d for d in drafts if d.get("predicate") != SAID)
    tally = Tally(predicted=len(predicted), labelled=len(item.facts), turns=1)
    tally.turns_with_fact = int(bool(predicted))
    tally.turns_labelled = int(bool(item.facts))
    free = list(predicted)
    for label in item.facts:
        hit = next((d for d in free if _accepts(label, d)), None)
        if hit is None:
            tally.errors.append(f"{item.id} MISSED {show_fact(label)}")
            continue
        free.remove(hit)
        tally.found += 1
        tally.matched += 1
        right = time_right(label.get("time"), draft_time(hit, item.observation))
        if right is not None:
            tally.dates += 1
            tally.dates_right += int(right)
            if not right:
                given = draft_time(hit, item.observation)
                tally.errors.append(f"{item.id} DATE {show_fact(label)} given {given}")
    tally.errors.extend(f"{item.id} FALSE {show_fact(d)}" for d in free)
    return tally


def show_fact(fact: dict[str, Any]) -> str:
    polarity = "" if fact.get("polarity", True) else " (not)"
    when = f" @{fact['time']}" if fact.get("time") else ""
    return f"({fact.get('subject')}, {fact.get('predicate')}, {fact.get('object')}){polarity}{when}"


# --- the sets ---------------------------------------------------------------------------------


def label_path(name: str) -> Path:
    """The label file of a set: ``locomo``, ``locomo-sealed15``, ``zh``, ..."""
    return LABELS / f"{name}-labels.jsonl"


def _rows(name: str) -> list[dict[str, Any]]:
    path = label_path(name)
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def load_items(locomo: Path | None, *, sealed: bool = False) -> list[Item]:
    """Every labelled turn with its observation; LoCoMo only when its file is available, and
    the (fifteenth) sealed LoCoMo set only when asked for."""
    items: list[Item] = []
    if locomo is not None:
        turns = {t["idempotency_key"]: t for t in bulk.read_locomo(locomo)}
        names = (*LOCOMO_FILES, f"locomo-{SEALED}") if sealed else LOCOMO_FILES
        rows = [row for name in names for row in _rows(name)]
        for row in rows:
            key = f"{row['conversation']}:{row['dia_id']}"
            obs = ObservationIn.model_validate(turns[key])
            items.append(Item("locomo", key, row["split"], obs, row["facts"]))
    for name in ("zh", "notes"):
        for row in _rows(name):
            obs = ObservationIn(
                text=row["text"],
                speaker=row["speaker"],
                occurred_at=row["occurred_at"],
                source_kind="user_stated",
            )
            items.append(Item(name, row["id"], row["split"], obs, row["facts"]))
    return items


def evaluate(
    distill: Callable[[ObservationIn], list[dict[str, Any]]], items: list[Item]
) -> dict[str, Any]:
    tallies: dict[tuple[str, str], Tally] = {}
    started = time.perf_counter()
    for item in items:
        tally = score_item(item, distill(item.observation))
        tallies.setdefault((item.set, item.split), Tally()).add(tally)
        tallies[(item.set, item.split)].errors.extend(tally.errors)
    seconds = time.perf_counter() - started
    pooled = {split: Tally() for split in (*SPLITS, DEVELOPMENT)}
    for (_, split), tally in tallies.items():
        pooled.setdefault(split, Tally()).add(tally)
        if split in SPLITS:
            pooled[DEVELOPMENT].add(tally)
    return {
        "seconds": round(seconds, 2),
        "ms_per_turn": round(1000 * seconds / max(len(items), 1), 2),
        "by_set": {f"{s}/{p}": t.figures() for (s, p), t in sorted(tallies.items())},
        "pooled": {split: t.figures() for split, t in pooled.items()},
        "_errors": {f"{s}/{p}": t.errors for (s, p), t in tallies.items()},
    }


# --- report -----------------------------------------------------------------------------------


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def print_table(name: str, result: dict[str, Any]) -> None:
    print(f"\n{name}: {result['seconds']} s, {result['ms_per_turn']} ms per turn")
    header = "| set / half | precision | recall | dates right (n) | turns with a fact (labels) |"
    print(header)
    print("|---|---|---|---|---|")
    rows = [*result["by_set"].items(), *((f"ALL/{k}", v) for k, v in result["pooled"].items())]
    for key, f in rows:
        print(
            f"| {key} | {_fmt(f['precision'])} ({f['facts_written']}) | {_fmt(f['recall'])} "
            f"({f['facts_labelled']}) | {_fmt(f['date_accuracy'])} ({f['dates']}) | "
            f"{_fmt(f['turns_with_fact'])} ({_fmt(f['turns_labelled_with_fact'])}) |"
        )


def _distillers(args: argparse.Namespace) -> list[tuple[str, Distiller | None, str]]:
    from ingest.distill.llm import LlmDistiller
    from ingest.distill.offline import OfflineDistiller

    found: list[tuple[str, Distiller | None, str]] = [("offline", OfflineDistiller(), "")]
    if args.llm_url:
        llm = LlmDistiller(url=args.llm_url, model=args.llm_model, timeout=args.llm_timeout)
        found.append((f"llm ({args.llm_model})", llm, ""))
    else:
        found.append(("llm", None, "skipped: no endpoint (set TRACTATUS_LLM_URL or --llm-url)"))
    return found


def main() -> None:
    from server.settings import Settings

    settings = Settings()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--llm-url", default=settings.llm_url)
    parser.add_argument("--llm-model", default=settings.llm_model)
    parser.add_argument("--llm-timeout", type=float, default=settings.llm_timeout)
    parser.add_argument("--errors", choices=(*SPLITS, SEALED), default=None)
    parser.add_argument("--sealed", action="store_true", help=f"also score the {SEALED} set")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "distill.json"))
    args = parser.parse_args()
    if args.errors == SEALED:
        parser.error("the sealed set's errors are never listed: it stays a test set")
    if args.sealed and not label_path(f"locomo-{SEALED}").exists():
        parser.error(f"--sealed needs the {SEALED} labels, which are not written yet")
    try:
        locomo: Path | None = locomo_file()
    except LocomoMissing as missing:
        if args.sealed:
            parser.error(f"--sealed needs it: {missing}")
        print(f"{missing}: scoring our own sets only")
        locomo = None
    items = load_items(locomo, sealed=args.sealed)
    results: dict[str, Any] = {}
    for name, distiller, skipped in _distillers(args):
        if distiller is None:
            print(f"\n{name}: {skipped}")
            results[name] = {"skipped": skipped}
            continue
        result = evaluate(distiller.distill, items)
        errors = result.pop("_errors")
        print_table(name, result)
        if args.errors:
            for key in sorted(k for k in errors if k.endswith(f"/{args.errors}")):
                print("\n".join(errors[key]))
        results[name] = result
    report = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "locomo_file": locomo.name if locomo else None,
        "labels": {
            f"{s}/{p}": sum(1 for i in items if (i.set, i.split) == (s, p))
            for s in SETS
            for p in (*SPLITS, SEALED)
            if any((i.set, i.split) == (s, p) for i in items)
        },
        "sealed": bool(args.sealed),
        "results": results,
        "machine": machine(),
    }
    Path(args.out).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", "utf-8")
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()
