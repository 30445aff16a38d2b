"""Property-based: random writes, retractions and back-fills against a pure-Python model."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from neo4j import Driver

from graph_schema.core.types import Principal
from graph_schema.ledger.reads import current_facts, overlapping_versions
from graph_schema.ledger.types import AssertionWrite
from graph_schema.schema.ontology import predicate_map
from ingest import writer

pytestmark = pytest.mark.integration

BASE = datetime(2026, 1, 1, tzinfo=UTC)
PRINCIPAL = Principal(id="model-test")
DB = "neo4j"


@dataclass
class Model:
    """A slot's valid-time timeline per record time, built by painting writes in order."""

    timeline: list[tuple[datetime, datetime | None, str | None]] = field(default_factory=list)
    snapshots: list[tuple[datetime, list[tuple[datetime, datetime | None, str | None]]]] = field(
        default_factory=list
    )

    def write(
        self, recorded: datetime, start: datetime, end: datetime | None, value: str | None
    ) -> None:
        if end is None:
            later = [s for s, _, _ in self.timeline if s > start]
            end = min(later) if later else None
        kept = []
        for s, e, v in self.timeline:
            if (end is None or s < end) and (e is None or e > start):
                if s < start:
                    kept.append((s, start, v))
                if end is not None and (e is None or e > end):
                    kept.append((end, e, v))
            else:
                kept.append((s, e, v))
        self.timeline = [*kept, (start, end, value)]
        self.snapshots.append((recorded, list(self.timeline)))

    def read(self, as_of: datetime, known_at: datetime) -> str | None:
        visible = [t for r, t in self.snapshots if r <= known_at]
        if not visible:
            return None
        for s, e, v in visible[-1]:
            if s <= as_of and (e is None or as_of < e):
                return v
        return None


def _stamp(day: int, offset_hours: int) -> str:
    zone = timezone(timedelta(hours=offset_hours))
    return (BASE + timedelta(days=day)).astimezone(zone).isoformat()


op = st.tuples(
    st.sampled_from(["a", "b", "c", None]),  # None = retraction
    st.integers(0, 12),  # valid_from day
    st.one_of(st.none(), st.integers(1, 6)),  # explicit length in days, or open
    st.sampled_from([0, 2, -5]),  # offset used to spell the timestamp
)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(ops=st.lists(op, min_size=1, max_size=8))
def test_reads_agree_with_the_model(driver: Driver, ops: list[tuple]) -> None:
    subject = f"model:{uuid.uuid4().hex[:10]}"
    ontology = predicate_map(driver, database=DB)
    model = Model()
    record_times = []
    for value, day, length, offset in ops:
        body = {
            "subject": subject,
            "predicate": "status",
            "object": value,
            "polarity": value is not None,
            "valid_from": _stamp(day, offset),
            "source_kind": "agent_inferred",
            "asserted_by": "test",
            "confidence": 0.5,
            "evidence": {"quote": f"status {value}"},
        }
        if length is not None:
            body["valid_to"] = _stamp(day + length, -offset)
        item = AssertionWrite.model_validate(body)
        [result] = writer.write_assertions(
            driver,
            database=DB,
            principal=PRINCIPAL,
            prepared=writer.prepare([item], ontology=ontology),
        )
        recorded = result.assertion.recorded_at
        end = BASE + timedelta(days=day + length) if length is not None else None
        model.write(recorded, BASE + timedelta(days=day), end, value)
        record_times.append(recorded)
    probes_k = [record_times[0] - timedelta(seconds=1), *record_times]
    for known_at in probes_k:
        for half_days in range(-1, 40):
            as_of = BASE + timedelta(hours=12 * half_days)
            facts = current_facts(
                driver,
                database=DB,
                principal=PRINCIPAL,
                subject=subject,
                predicate="status",
                as_of=as_of,
                known_at=known_at,
            )
            assert len(facts) <= 1
            got = facts[0].object if facts else None
            assert got == model.read(as_of, known_at), (as_of, known_at, ops)
    assert overlapping_versions(driver, database=DB) == []
