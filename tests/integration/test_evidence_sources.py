"""Evidence that cites a stored observation is checked against that observation's stored text,
exactly like evidence that sends ``source_text``; a mismatch is quarantined with its reason and
nothing is written. A cited observation the writer may not read is unknown to it."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from neo4j import Driver

from tests.helpers import Api, assertion, count_nodes

pytestmark = pytest.mark.integration

TEXT = "Last week the team moved the billing service from Vue to React."
RECORD_LABELS = ("Assertion", "Evidence", "Slot", "Event")


def _observation(api: Api, *, access: list[str] | None = None, text: str = TEXT) -> str:
    response = api.post(
        "/v1/observations",
        {
            "text": text,
            "speaker": "user:carol",
            "occurred_at": "2026-06-01T09:00:00Z",
            "source_kind": "user_stated",
            "access": access or [],
        },
    )
    assert response.status_code == 201, response.text
    return str(response.json()["observation_id"])


def _cite(subject: str, observation_id: str, **evidence: Any) -> dict[str, Any]:
    return assertion(
        subject,
        "tech_stack",
        "React",
        evidence={"observation_id": observation_id, **evidence},
    )


def _counts(driver: Driver) -> dict[str, int]:
    return {label: count_nodes(driver, label) for label in RECORD_LABELS}


def _refused(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code == 422, response.text
    error: dict[str, Any] = response.json()["error"]
    assert error["code"] == "rejected"
    return dict(error["details"]["rejections"][0])


def test_right_offsets_into_the_stored_text_are_accepted(api: dict[str, Api], subject: str) -> None:
    oid = _observation(api["public"])
    start = TEXT.index("React")
    body = _cite(subject, oid, quote="React", start=start, end=start + 5)
    response = api["public"].post("/v1/assertions", body)
    assert response.status_code == 201, response.text
    evidence = response.json()["assertion"]["evidence"][0]
    assert (evidence["start"], evidence["end"], evidence["observation_id"]) == (
        start,
        start + 5,
        oid,
    )


def test_a_quote_without_offsets_gets_its_place_in_the_stored_text(
    api: dict[str, Api], subject: str
) -> None:
    oid = _observation(api["public"])
    response = api["public"].post("/v1/assertions", _cite(subject, oid, quote="React"))
    assert response.status_code == 201, response.text
    evidence = response.json()["assertion"]["evidence"][0]
    assert (evidence["start"], evidence["end"]) == (TEXT.index("React"), TEXT.index("React") + 5)


@pytest.mark.parametrize(
    "evidence",
    [
        {"quote": "Angular"},  # never in the observation
        {"quote": "Angular", "start": 0, "end": 7},  # offsets (0, len(quote)) once passed
        {"quote": "React", "start": 0, "end": 5},  # wrong offsets
        {"quote": "React", "source_text": "we use React"},  # not the observation's text
    ],
    ids=["absent", "absent-zero-offsets", "wrong-offsets", "other-source-text"],
)
def test_a_mismatch_is_quarantined_and_nothing_is_written(
    api: dict[str, Api], subject: str, driver: Driver, evidence: dict[str, Any]
) -> None:
    oid = _observation(api["public"])
    before = _counts(driver)
    rejection = _refused(api["public"].post("/v1/assertions", _cite(subject, oid, **evidence)))
    assert rejection["reason"] == "evidence_mismatch", rejection
    assert _counts(driver) == before
    kept = api["admin"].get("/v1/quarantine", origin="assertions", limit=50).json()
    assert any(
        q["reason"] == "evidence_mismatch" and subject in q["payload"] for q in kept["items"]
    ), kept


def test_citing_an_observation_the_writer_may_not_read_is_an_unknown_source(
    api: dict[str, Api], subject: str, driver: Driver
) -> None:
    hidden = _observation(api["alice"], access=["finance"])
    before = _counts(driver)
    right = _refused(api["bob"].post("/v1/assertions", _cite(subject, hidden, quote="React")))
    wrong = _refused(api["bob"].post("/v1/assertions", _cite(subject, hidden, quote="Angular")))
    missing = _refused(
        api["bob"].post("/v1/assertions", _cite(subject, "01HZZZZZZZZZZZZZZZZZZZZZZZ", quote="x"))
    )
    assert right["reason"] == wrong["reason"] == missing["reason"] == "unknown_source"
    assert right["message"] == wrong["message"] == missing["message"]
    assert _counts(driver) == before


def _event(subject: str, evidence: dict[str, Any]) -> dict[str, Any]:
    return {
        "task_id": f"cite-{subject}",
        "actor": "agent:x",
        "action": "note",
        "outcome": "success",
        "occurred_at": "2026-06-02T09:00:00Z",
        "before": {},
        "after": {},
        "root": True,
        "assertions": [assertion(subject, "tech_stack", "React", evidence=evidence)],
    }


def test_an_event_citing_an_observation_is_checked_and_inherits_its_access(
    api: dict[str, Api], subject: str, driver: Driver
) -> None:
    hidden = _observation(api["alice"], access=["finance"])
    before = _counts(driver)
    foreign = api["bob"].post(
        "/v1/events", _event(subject, {"quote": "React", "observation_id": hidden})
    )
    assert _refused(foreign)["reason"] == "unknown_source"
    absent = api["alice"].post(
        "/v1/events", _event(subject, {"quote": "Angular", "observation_id": hidden})
    )
    assert _refused(absent)["reason"] == "evidence_mismatch"
    assert _counts(driver) == before
    good = api["alice"].post(
        "/v1/events", _event(subject, {"quote": "React", "observation_id": hidden})
    )
    assert good.status_code == 201, good.text
    # the fact has no access of its own, but only readers of its source may read it
    assert (
        api["bob"].get("/v1/facts", subject=subject, predicate="tech_stack").json()["facts"] == []
    )
    mine = api["alice"].get("/v1/facts", subject=subject, predicate="tech_stack").json()
    assert [f["object"] for f in mine["facts"]] == ["React"]


def _span(observation_id: str, quote: str) -> dict[str, Any]:
    return {"quote": quote, "observation_id": observation_id}


def test_several_spans_each_checked_readable_only_by_readers_of_every_source(
    api: dict[str, Api], subject: str
) -> None:
    finance = _observation(api["alice"], access=["finance"])
    sales = _observation(api["bob"], access=["sales"], text="Sales heard React is in use now.")
    spans = [_span(finance, "React"), _span(sales, "React"), {"quote": "React, said carol"}]
    body = assertion(subject, "tech_stack", "React", evidence=spans)
    written = api["carol"].post("/v1/assertions", body)
    assert written.status_code == 201, written.text
    evidence = written.json()["assertion"]["evidence"]
    assert [(e["observation_id"], e["start"]) for e in evidence] == [
        (finance, TEXT.index("React")),
        (sales, 12),
        (None, 0),
    ]
    assert _objects(api["carol"], subject) == ["React"]
    # readers of one source only, or of none, see nothing: the intersection, never public
    for reader in ("alice", "bob", "public", "dave"):
        assert _objects(api[reader], subject) == [], reader


def _objects(api: Api, subject: str) -> list[str]:
    facts = api.get("/v1/facts", subject=subject, predicate="tech_stack").json()["facts"]
    return [f["object"] for f in facts]


def test_one_bad_span_refuses_the_write(api: dict[str, Api], subject: str, driver: Driver) -> None:
    oid = _observation(api["public"])
    hidden = _observation(api["alice"], access=["finance"])
    before = _counts(driver)
    spans = [_span(oid, "React"), _span(oid, "Angular")]
    rejection = _refused(
        api["public"].post("/v1/assertions", assertion(subject, "uses", "x", evidence=spans))
    )
    assert rejection["reason"] == "evidence_mismatch"
    assert rejection["message"].startswith("evidence[1]")
    spans = [_span(oid, "React"), _span(hidden, "React")]
    unknown = _refused(
        api["bob"].post("/v1/assertions", assertion(subject, "uses", "x", evidence=spans))
    )
    assert unknown["reason"] == "unknown_source"
    assert _counts(driver) == before


@pytest.mark.parametrize("n", [0, 9])
def test_the_number_of_spans_is_bounded(
    api: dict[str, Api], subject: str, driver: Driver, n: int
) -> None:
    before = _counts(driver)
    spans = [{"quote": f"span {i}"} for i in range(n)]
    body = assertion(subject, "uses", "x", evidence=spans)
    assert _refused(api["public"].post("/v1/assertions", body))["reason"] == "invalid"
    assert _counts(driver) == before


def _ending(subject: str, end: int, **source: Any) -> dict[str, Any]:
    text = "I like green tea"
    evidence = {"quote": "green tea", "start": text.index("green"), "end": end, **source}
    return assertion(subject, "likes", "green tea", evidence=evidence)


@pytest.mark.parametrize("end", [17, 100, 100_001, 2**63 - 1, 2**63, 2**64, 10**30])
def test_an_end_past_the_source_text_is_refused_on_every_route(
    api: dict[str, Api], subject: str, driver: Driver, end: int
) -> None:
    """A new user's trial: a quote that runs to the end of its source was accepted with any
    end at or past the text's length, and that end stored; an end of 2^63 or more answered
    500. Each is refused (422, the one error shape) and nothing is written."""
    alice = api["alice"]
    oid = _observation(alice, text="I like green tea")
    before = _counts(driver)
    single = _ending(subject, end, source_text="I like green tea")
    cited = _ending(subject, end, observation_id=oid)
    good = _ending(subject, 16, source_text="I like green tea")
    event = {**_event(subject, {"quote": "x"}), "assertions": [single]}
    for path, body in [
        ("/v1/assertions", single),
        ("/v1/assertions", cited),
        ("/v1/assertions", {"assertions": [good, single]}),
        ("/v1/events", event),
    ]:
        refused = _refused(alice.post(path, body))
        assert refused["reason"] in {"evidence_mismatch", "invalid"}, refused
        assert "end" in refused["message"] or "offsets" in refused["message"], refused
    assert _counts(driver) == before
    written = alice.post("/v1/assertions", good)  # the exact span is kept as sent
    assert written.status_code == 201, written.text
    assert [(e["start"], e["end"]) for e in written.json()["assertion"]["evidence"]] == [(7, 16)]
