"""What `tractatus redistill` writes for one observation (ingest/redistill.plan, pure)."""

from __future__ import annotations

from dataclasses import replace
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


def _heard(predicate: str, obj: str, observation: str | None) -> AssertionWrite:
    body = write(predicate, obj).model_dump(mode="json", exclude_none=True)
    body["evidence"] = {"quote": obj, **({"observation_id": observation} if observation else {})}
    return AssertionWrite.model_validate(body)


def test_an_utterance_read_from_an_observation_is_a_slot_of_its_own() -> None:
    said = ONTOLOGY["said"]
    first, second = (writer.slot_key(_heard("said", TEXT, o), said) for o in ("o1", "o2"))
    plain = writer.slot_key(_heard("said", TEXT, None), said)
    assert first != second and (first, second) == (f"{plain}@o1", f"{plain}@o2")
    likes = ONTOLOGY["likes"]
    assert writer.slot_key(_heard("likes", "tea", "o1"), likes) == writer.slot_key(
        _heard("likes", "tea", "o2"), likes
    ), "a fact other than an utterance keeps one slot whatever it was read from"
    derived = writer.slot_key(_heard("said", TEXT, "o1"), said, ["finance"])
    assert derived == f"{plain}@o1+finance"  # what migration 15 computes in Cypher


def test_an_utterance_the_old_slot_rule_ended_is_written_again() -> None:
    ended = replace(old("said", TEXT), valid_to=parse_rfc3339("2026-06-10T10:00:00+00:00"))
    writes, unchanged, retracted = plan([ended], [new("said", TEXT)], ONTOLOGY, OBS, "o1")
    assert (described(writes), unchanged, retracted) == (
        [("said", TEXT, True, parse_rfc3339(AT))],
        0,
        0,
    )
    closed = replace(old("lives_in", "Berlin"), valid_to=parse_rfc3339("2026-07-01T00:00:00Z"))
    writes, unchanged, _ = plan([closed], [new("lives_in", "Berlin")], ONTOLOGY, OBS, "o1")
    assert (writes, unchanged) == ([], 1), "another fact's end is a later state: left alone"
