"""How far two readers of the same turns agree, under the distillation bench's own matching.

How to run (no Neo4j, no server, no LoCoMo text needed: it reads two label files):

    .venv/bin/python bench/distill_agreement.py
    # --first bench/distill-labels/locomo-sealed5-labels.jsonl
    # --second bench/distill-labels/agreement/locomo-sealed5-second-reader.jsonl
    # --errors    list every fact only one reader wrote, and every date they disagree on
    # --out bench/results/distill-agreement.json

The second reading is scored as if it were a distiller's output against the first reading's
labels: a fact matches when subject, predicate and polarity are equal and the objects agree
after `bench/distill.py`'s normalisation (either reading's alternatives count). Precision and
recall swap when the readers swap; F1 does not. Dates: of the matched facts where either
reader gives a time, the share where both give the same. This is the ceiling a distiller can
be held to on these turns under this matching (bench/README-distill.md, "Agreement").
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.distill import LABELS, objects, share, show_fact
from bench.harness import machine

FIRST = LABELS / "locomo-sealed5-labels.jsonl"
SECOND = LABELS / "agreement" / "locomo-sealed5-second-reader.jsonl"
Turn = tuple[str, str]


@dataclass
class Agreement:
    first: int = 0
    second: int = 0
    matched: int = 0
    dates: int = 0
    dates_same: int = 0
    errors: list[str] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        return {
            "facts_first": self.first,
            "facts_second": self.second,
            "matched": self.matched,
            "precision_of_second": share(self.matched, self.second),
            "recall_of_second": share(self.matched, self.first),
            "f1": share(2 * self.matched, self.first + self.second),
            "dates_same": share(self.dates_same, self.dates),
            "dates": self.dates,
        }


def read(path: Path) -> dict[Turn, list[dict[str, Any]]]:
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    return {(r["conversation"], r["dia_id"]): r["facts"] for r in rows}


def same_fact(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Subject, predicate and polarity equal; objects equal after normalisation, either
    reading's alternatives counted."""
    key_a = (a["subject"], a["predicate"], bool(a.get("polarity", True)))
    key_b = (b["subject"], b["predicate"], bool(b.get("polarity", True)))
    return key_a == key_b and bool(objects(a) & objects(b))


def compare(
    first: dict[Turn, list[dict[str, Any]]], second: dict[Turn, list[dict[str, Any]]]
) -> Agreement:
    """Match the readings turn by turn, one to one. Both must read the same turns."""
    if first.keys() != second.keys():
        raise ValueError("the two readings label different turns")
    tally = Agreement()
    for turn, labels in first.items():
        free = list(second[turn])
        tally.first += len(labels)
        tally.second += len(free)
        for fact in labels:
            other = next((f for f in free if same_fact(fact, f)), None)
            if other is None:
                tally.errors.append(f"{turn[0]}:{turn[1]} ONLY FIRST {show_fact(fact)}")
                continue
            free.remove(other)
            tally.matched += 1
            if fact.get("time") or other.get("time"):
                tally.dates += 1
                tally.dates_same += int(fact.get("time") == other.get("time"))
                if fact.get("time") != other.get("time"):
                    tally.errors.append(
                        f"{turn[0]}:{turn[1]} DATE {show_fact(fact)} against {other.get('time')}"
                    )
        tally.errors.extend(f"{turn[0]}:{turn[1]} ONLY SECOND {show_fact(f)}" for f in free)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first", type=Path, default=FIRST)
    parser.add_argument("--second", type=Path, default=SECOND)
    parser.add_argument("--errors", action="store_true")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    tally = compare(read(args.first), read(args.second))
    figures = tally.figures()
    print("| facts (first / second) | matched | precision | recall | F1 | dates the same (n) |")
    print("|---|---|---|---|---|---|")
    print(
        f"| {figures['facts_first']} / {figures['facts_second']} | {figures['matched']} | "
        f"{figures['precision_of_second']} | {figures['recall_of_second']} | {figures['f1']} | "
        f"{figures['dates_same']} ({figures['dates']}) |"
    )
    if args.errors:
        print("\n".join(tally.errors))
    if args.out:
        report = {"figures": figures, "first": args.first.name, "second": args.second.name}
        args.out.write_text(json.dumps({**report, "machine": machine()}, indent=2) + "\n")
        print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()
