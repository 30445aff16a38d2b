"""What `tractatus redistill` writes for one observation (ingest/redistill.plan, pure)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from graph_schema.core.timeutil import parse_rfc3339
from graph_schema.ledger.types import AssertionWrite
from graph_schema.observations.types import ObservationIn
from graph_schema.schema.ontology import seed_predicates
from ingest import writer
from ingest.redistill import Old, plan

ONTOLOGY = {p.name: p for p in seed_predicates()}
AT = "2026-06-10T09:00:00+00:00"
TEXT = "I went to a concert two days ago."
OBS = ObservationIn(text=TEXT, speaker="user:a", occurred_at=AT, source_kind="user_stated")


def write(predicate: str, obj: Any, valid_from: str = AT) -> AssertionWrite:
    return AssertionWrite.model_validate(
        {
            "subject": "user:a",
            "predicate": predicate,
            "object": obj,
            "valid_from": valid_from,
            "source_kind": "user_stated",
            "asserted_by": "user:a",
            "confidence": 0.9,
            "evidence": {"quote": TEXT, "source_text": TEXT, "start": 0, "end": len(TEXT)},
        }
    )


def new(predicate: str, obj: Any, valid_from: str = AT) -> writer.Prepared:
    return writer.prepare([write(predicate, obj, valid_from)], ontology=ONTOLOGY)[0]


def old(predicate: str, obj: str, valid_from: str = AT, polarity: bool = True) -> Old:
    key = writer.slot_key(write(predicate, obj), ONTOLOGY[predicate])
    return Old(
        id=f"old-{predicate}-{obj}",
        subject="user:a",
        predicate=predicate,
        object=obj,
        polarity=polarity,
        valid_from=parse_rfc3339(valid_from),
        access=(),
        slot_key=key,
        quote=TEXT,
        start=0,
        end=len(TEXT),
    )


def described(writes: list[tuple[AssertionWrite, Any]]) -> list[tuple[str, Any, bool, datetime]]:
    return [
        (w.predicate, w.object, w.polarity, parse_rfc3339(w.valid_from or AT)) for w, _ in writes
    ]


def test_a_fact_read_as_before_is_left_alone() -> None:
    writes, unchanged, retracted = plan(
        [old("said", TEXT)], [new("said", TEXT)], ONTOLOGY, OBS, "o1"
    )
    assert (writes, unchanged, retracted) == ([], 1, 0)


def test_a_fragment_no_longer_read_is_retracted_at_its_own_valid_time() -> None:
    writes, unchanged, retracted = plan([old("likes", "making it a")], [], ONTOLOGY, OBS, "o1")
    assert retracted == 1 and unchanged == 0
    ((retraction, vector),) = writes
    assert (retraction.predicate, retraction.object, retraction.polarity) == (
        "likes",
        "making it a",
        False,
    )
    assert retraction.valid_from is not None
    assert parse_rfc3339(retraction.valid_from) == parse_rfc3339(AT)
    assert retraction.evidence.observation_id == "o1" and retraction.evidence.quote == TEXT
    assert vector is None


def test_a_redated_fact_is_corrected_at_the_old_time_and_backfilled() -> None:
    earlier = "2026-06-08T00:00:00+00:00"
    writes, unchanged, retracted = plan(
        [old("attended", "concert")], [new("attended", "concert", earlier)], ONTOLOGY, OBS, "o1"
    )
    assert (unchanged, retracted) == (0, 0)
    assert described(writes) == [
        ("attended", "concert", True, parse_rfc3339(AT)),  # supersedes the old version
        ("attended", "concert", True, parse_rfc3339(earlier)),  # reaches up to it
    ]


def test_a_new_value_of_a_single_valued_slot_supersedes_without_a_retraction() -> None:
    writes, _, retracted = plan(
        [old("lives_in", "Berl")], [new("lives_in", "Berlin")], ONTOLOGY, OBS, "o1"
    )
    assert retracted == 0
    assert described(writes) == [("lives_in", "Berlin", True, parse_rfc3339(AT))]


def test_a_retraction_of_a_single_valued_slot_names_no_value() -> None:
    writes, _, retracted = plan([old("works_at", "home")], [], ONTOLOGY, OBS, "o1")
    assert retracted == 1
    assert described(writes) == [("works_at", None, False, parse_rfc3339(AT))]


def test_an_old_retraction_is_not_retracted_again() -> None:
    writes, _, retracted = plan([old("likes", "x", polarity=False)], [], ONTOLOGY, OBS, "o1")
    assert (writes, retracted) == ([], 0)
