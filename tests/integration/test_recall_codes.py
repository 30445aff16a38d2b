"""A question naming a code or a version (docs/recall.md, *Open points*, the second round of
new users' trials): an agent's notes on an incident and a design document, over HTTP."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from server.settings import Settings
from tests.helpers import Api, recall_in, serving_without, write_chat

pytestmark = pytest.mark.integration

NOTES = [
    ("agent", "Checkout Redesign RFC updated to v2.0 by Aisha Bello; status: in review."),
    ("agent", "INC-4452 opened: search-indexer lagging 45 min behind, sev2."),
    ("confluence", '{"doc": "Checkout Redesign RFC", "version": "v2.1", "approved_by": "Lena"}'),
    ("agent", "INC-4452 resolved by fixing a stuck Kafka consumer group offset."),
    ("agent", "INC-4460 opened, still investigating: checkout timeouts, sev2."),
    ("agent", "Checkout Redesign RFC v2.2 published with the connection-pool findings."),
]


@pytest.fixture(scope="module")
def without_code(settings: Settings) -> Iterator[Api]:
    """``TRACTATUS_RECALL_DISABLE=code``: the order before the step."""
    with serving_without(settings, {"code"}) as served:
        yield served


@pytest.fixture(scope="module")
def notes(api: dict[str, Api]) -> str:
    return write_chat(api["alice"], NOTES, kinds=dict.fromkeys(range(len(NOTES)), "agent_inferred"))


def test_the_note_naming_the_version_asked_about_comes_first(
    api: dict[str, Api], without_code: Api, notes: str
) -> None:
    question = "Who approved the Checkout Redesign RFC v2.1?"
    answer = recall_in(api["alice"], question, notes)
    first = answer["results"][0]
    assert '"v2.1"' in first["turn"]["text"] and "code" in first["why"]["boosts"], first
    before = recall_in(without_code, question, notes)["results"][0]  # as the trial saw it
    assert '"v2.1"' not in before["turn"]["text"], before


def test_a_present_question_about_one_incident_is_answered_by_its_notes(
    api: dict[str, Api], notes: str
) -> None:
    answer = recall_in(api["alice"], "What is the status of INC-4452 now?", notes)
    assert answer["status"] == "answered"
    assert "INC-4452" in answer["results"][0]["turn"]["text"], answer["results"][0]
