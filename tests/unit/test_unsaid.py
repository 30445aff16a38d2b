"""Names the person asked about never says (graph_schema/recall/unsaid.py): which names of a
question are read, and which of those another person states."""

from __future__ import annotations

from typing import Any

from graph_schema.recall import unsaid
from graph_schema.recall.fusion import Scored


def group(gid: str, speaker: str, text: str) -> Scored:
    return Scored(gid, speaker=speaker, texts=[f"{speaker}: {text}"], turn=f"{speaker}: {text}")


def records(*groups: tuple[Scored, str]) -> dict[str, list[Any]]:
    return {s.gid: [{"assertion": {"source_kind": kind}}] for s, kind in groups}


def test_the_names_read_are_the_questions_own_less_the_people_and_the_unmentioned() -> None:
    speakers = {"Dev", "Priya"}
    assert unsaid.asked_names("When did Dev go to Lisbon?", "Dev", speakers, []) == ["Lisbon"]
    # the other speaker is no place: "Did Dev meet Priya in Porto?" reads Porto only
    assert unsaid.asked_names("Did Dev meet Priya in Porto?", "Dev", speakers, []) == ["Porto"]
    # a name nothing mentions is refused by its own rule already
    assert unsaid.asked_names("When did Dev go to Oslo?", "Dev", speakers, ["Oslo"]) == []
    assert unsaid.asked_names("What did Dev buy?", "Dev", speakers, []) == []
    # the person named by a short form: Melanie's own turns never say "Mel" (LoCoMo: four
    # answerable questions were refused before this was read)
    pair = {"Melanie", "Caroline"}
    assert unsaid.asked_names("What did Mel and her kids paint?", "Melanie", pair, []) == []


def test_a_name_counts_only_when_another_person_states_it() -> None:
    """A new user's trial: "When did Dev go to Lisbon?" when only Priya was there. A name
    in an agent's note about the person is no one else's statement ("Maya decided to drop
    Kafka" says nothing of whom Kafka concerns)."""
    priya = group("g1", "Priya", "I'm back from Lisbon! Five days of pastries.")
    note = group("g2", "agent", "Maya decided to drop Kafka.")
    dev = group("g3", "Dev", "I bought a used Subaru Outback.")
    window = [dev, priya, note]
    read = records((priya, "user_stated"), (note, "agent_inferred"), (dev, "user_stated"))
    others = unsaid.stated_by_others(window, read, "Dev")
    assert unsaid.unsaid(["Lisbon"], others) == ["Lisbon"]
    assert unsaid.unsaid(["Kafka"], unsaid.stated_by_others(window, read, "Maya")) == []
    assert unsaid.unsaid(["Porto"], others) == []  # nobody states it: not this rule's
    # the person's own turns are never the other side
    assert unsaid.stated_by_others(window, read, "Priya") == [
        "Dev: I bought a used Subaru Outback."
    ]


def test_only_a_person_who_states_things_is_read() -> None:
    """The team corpus: "What was the Android cold start before the analytics SDK change?"
    names the speaker ``tool:analytics`` by "analytics"; a tool states nothing of its own,
    so the rule does not read the question as one about it."""
    tool = group("g1", "tool:analytics", "Cold start, median: Android 3.4 s.")
    ama = group("g2", "Ama", "Moved the analytics SDK start to a background thread.")
    read = records((tool, "tool_returned"), (ama, "user_stated"))
    assert not unsaid.states([tool, ama], read, "tool:analytics")
    assert unsaid.states([tool, ama], read, "Ama")
