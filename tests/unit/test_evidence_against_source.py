"""Evidence citing an observation is checked against the observation's stored text, or, when
raw text is not retained, against its stored SHA-256 through the source_text the write sends."""

from __future__ import annotations

import hashlib

import pytest

from graph_schema.ledger.types import EvidenceWrite
from ingest.gate import Source, against_source

TEXT = "We moved the billing service from Vue to React."
KEPT = Source(("finance",), TEXT, hashlib.sha256(TEXT.encode()).hexdigest())
HASH_ONLY = Source((), None, KEPT.sha256)


def _evidence(**fields: object) -> EvidenceWrite:
    return EvidenceWrite.model_validate({"observation_id": "01OBS", **fields})


def test_offsets_other_than_zero_are_accepted_without_source_text() -> None:
    start = TEXT.index("React")
    evidence = _evidence(quote="React", start=start, end=start + 5)
    checked = against_source(evidence, KEPT)
    assert isinstance(checked, EvidenceWrite)
    assert checked.span() == (start, start + 5)
    assert checked.source_text == TEXT


def test_a_quote_without_offsets_is_found_in_the_stored_text() -> None:
    checked = against_source(_evidence(quote="Vue"), KEPT)
    assert isinstance(checked, EvidenceWrite) and checked.span() == (34, 37)


@pytest.mark.parametrize(
    "fields",
    [
        {"quote": "Angular"},
        {"quote": "Angular", "start": 0, "end": 7},
        {"quote": "React", "start": 0, "end": 5},
        {"quote": "React", "source_text": "React"},
    ],
)
def test_what_the_stored_text_does_not_hold_is_refused(fields: dict[str, object]) -> None:
    assert isinstance(against_source(_evidence(**fields), KEPT), str)


def test_without_raw_text_the_source_text_must_hash_to_the_stored_digest() -> None:
    assert "not retained" in str(against_source(_evidence(quote="React"), HASH_ONLY))
    forged = _evidence(quote="React", source_text="we use React")
    assert "SHA-256" in str(against_source(forged, HASH_ONLY))
    honest = against_source(_evidence(quote="React", source_text=TEXT), HASH_ONLY)
    assert isinstance(honest, EvidenceWrite) and honest.span() == (41, 46)
