"""What an extractor finds in a sentence, before it becomes a draft."""

from __future__ import annotations

from dataclasses import dataclass

from ingest.distill.dates import When

HEDGE_PENALTY = 0.3

# states one holds and stops holding: a withdrawal of one is dated by the last moment of the
# period the sentence gives (version 31, from a new user's trial: "I left Helios Grid last
# month", said on 20 November of a job first told on 5 October, was dated 1 October, before
# the job began, so the ledger painted the withdrawal before the job and the job stayed
# current; "last month" says only that by its end it had ended)
ENDED_STATES = frozenset(
    {
        "works_at",
        "works_as",
        "lives_in",
        "activity",
        "has_pet",
        "has_relative",
        "has_friend",
        "owns",
        "uses",
        "studies",
        "health_condition",  # version 33: "I recovered from the flu last week"
        "tech_stack",
        "name",
    }
)


@dataclass(frozen=True)
class Fact:
    """One structured fact of a sentence.

    ``when`` is the time the sentence gives for it. For a plan (``plan``) it becomes part of
    the object (``road trip (2023-11)``); for anything else it becomes the draft's
    ``valid_from`` when it lies on or before the day the observation was made. A fact
    ``ahead_only`` is a plan written only when a time of its sentence still ahead dates it
    ("I signed up for the Berlin marathon next September"; without the time, nothing).
    A withdrawal of a state (``polarity: false`` of a predicate in ``ENDED_STATES``) dated
    by a period takes the period's last moment, not its first day (version 31; see
    ``ended_by``), unless ``since`` makes the time a start.
    """

    subject: str
    predicate: str
    object: str | bool
    polarity: bool = True
    confidence: float = 0.9
    when: When | None = None
    plan: bool = False
    ahead_only: bool = False
    since: bool = False  # the time is a start said with "since" ("since March")
    # version 33: a change of job on a day still ahead ("I start at Halden tomorrow", "My
    # last day at Lumora is April 3"), written beside its plan and valid from that day (a
    # start) or from its last second (an ending): a read as of any time before it still finds
    # what holds now
    ahead: bool = False

    def ended_by(self) -> bool:
        """Whether the time is the latest bound of an ending (see ``ENDED_STATES``)."""
        ending = not self.polarity and self.predicate in ENDED_STATES
        return ending and not self.since and not self.plan

    def key(self) -> tuple[str, str, str, bool]:
        return (self.subject, self.predicate, str(self.object), self.polarity)
