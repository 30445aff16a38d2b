"""What an extractor finds in a sentence, before it becomes a draft."""

from __future__ import annotations

from dataclasses import dataclass

from ingest.distill.dates import When

HEDGE_PENALTY = 0.3


@dataclass(frozen=True)
class Fact:
    """One structured fact of a sentence.

    ``when`` is the time the sentence gives for it. For a plan (``plan``) it becomes part of
    the object (``road trip (2023-11)``); for anything else it becomes the draft's
    ``valid_from`` when it lies on or before the day the observation was made. A fact
    ``ahead_only`` is a plan written only when a time of its sentence still ahead dates it
    ("I signed up for the Berlin marathon next September"; without the time, nothing).
    """

    subject: str
    predicate: str
    object: str | bool
    polarity: bool = True
    confidence: float = 0.9
    when: When | None = None
    plan: bool = False
    ahead_only: bool = False

    def key(self) -> tuple[str, str, str, bool]:
        return (self.subject, self.predicate, str(self.object), self.polarity)
