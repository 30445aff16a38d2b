"""`tractatus check` on shapes an older version could write and the API now refuses or avoids: a
valid time that runs backwards or is empty (`backwards_interval`), and one value current in
two slots in two spellings (`two_spellings_current`); and what a write that starts earlier
than the current version does (docs/semantics.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from neo4j import Driver

from graph_schema.ledger import check
from server import cli
from server.settings import Settings
from tests.helpers import Api, assertion

pytestmark = pytest.mark.integration

JAN, FEB, MAR, JUN = (f"2026-{m}-01T00:00:00+00:00" for m in ("01", "02", "03", "06"))
RECORDED = "2026-06-15T00:00:00Z"

# Versions as a store written before could hold them, complete otherwise (a closing stamp for
# each valid_to, an entity for each subject), so that no other kind of the audit fires.
OLD_VERSIONS = """
UNWIND $rows AS row
CREATE (a:Assertion)
SET a = row.props, a.recorded_at = datetime($recorded), a.valid_from = datetime(row.valid_from),
    a.valid_to = CASE WHEN row.valid_to IS NULL THEN null ELSE datetime(row.valid_to) END,
    a.closed_at = CASE WHEN row.valid_to IS NULL THEN null ELSE datetime($recorded) END
MERGE (e:Entity {key: row.props.subject})
ON CREATE SET e.id = row.props.subject
CREATE (a)-[:ABOUT]->(e)
"""


def _version(
    name: str,
    subject: str,
    predicate: str,
    obj: str,
    valid_from: str,
    valid_to: str | None = None,
    *,
    slot: str | None = None,
    access: list[str] | None = None,
) -> dict[str, Any]:
    props = {
        "id": name,
        "slot_key": slot or f"slot-{name}",
        "subject": subject,
        "predicate": predicate,
        "object": obj,
        "polarity": True,
        "access": access or [],
        "access_all": [],
        "source_kind": "user_stated",
        "asserted_by": subject,
        "confidence": 0.9,
        "tier": "long",
    }
    return {"props": props, "valid_from": valid_from, "valid_to": valid_to}


def _report(capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = cli.main(["check", "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_backwards_intervals_and_spellings_in_two_slots_are_reported(
    driver: Driver,
    settings: Settings,
    fresh_store: None,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    s, t = "user:old-store", "user:other"
    rows = [
        # "Rome until 2021" written at a start of now: [March 2026, 2021)
        _version("back", s, "lives_in", "Rome", MAR, "2021-01-01T00:00:00+00:00"),
        _version("empty", t, "lives_in", "Oslo", FEB, FEB),
        _version("fine", s, "works_at", "Initech", JAN, MAR),
        # one value in two slots, both current from February
        _version("acme-1", s, "likes", "Acme", JAN),
        _version("acme-2", s, "likes", "acme ", FEB),
        # the same value for another scope: another fact, not a second spelling
        _version("acme-3", s, "likes", "ACME", JAN, access=["finance"]),
        # casefold, as the writer compares spellings: STRASSE is Straße
        _version("street-1", t, "likes", "Straße", JAN),
        _version("street-2", t, "likes", "STRASSE", JUN),
        # two spellings one after the other in valid time: never current at once
        _version("jazz-1", s, "likes", "Jazz", JAN, MAR),
        _version("jazz-2", s, "likes", "jazz", JUN),
        # a sentence said in two turns is two utterances
        _version("said-1", s, "said", "Hello there", JAN, slot="said@obs-1"),
        _version("said-2", s, "said", "hello there", JAN, slot="said@obs-2"),
    ]
    driver.execute_query(OLD_VERSIONS, rows=rows, recorded=RECORDED)
    code, report = _report(capsys)
    assert code == 1 and report["ok"] is False
    findings = {f["kind"]: f for f in report["findings"]}
    assert set(findings) == {"backwards_interval", "two_spellings_current"}, findings

    backwards = findings["backwards_interval"]
    assert backwards["total"] == 2
    assert sorted(backwards["sample"], key=lambda p: p["assertion"]) == [
        {
            "assertion": "back",
            "slot": "slot-back",
            "valid_from": "2026-03-01T00:00:00Z",
            "valid_to": "2021-01-01T00:00:00Z",
            "superseded_at": None,
        },
        {
            "assertion": "empty",
            "slot": "slot-empty",
            "valid_from": "2026-02-01T00:00:00Z",
            "valid_to": "2026-02-01T00:00:00Z",
            "superseded_at": None,
        },
    ]

    spellings = findings["two_spellings_current"]
    assert spellings["total"] == 2
    assert sorted(spellings["sample"], key=lambda p: p["first"]) == [
        {
            "subject": s,
            "predicate": "likes",
            "value": "acme",
            "first": "acme-1",
            "second": "acme-2",
            "objects": ["Acme", "acme "],
            "slots": ["slot-acme-1", "slot-acme-2"],
        },
        {
            "subject": t,
            "predicate": "likes",
            "value": "strasse",
            "first": "street-1",
            "second": "street-2",
            "objects": ["Straße", "STRASSE"],
            "slots": ["slot-street-1", "slot-street-2"],
        },
    ]
    # a page of one subject at a time finds the same (two subjects, on two pages)
    monkeypatch.setattr(check, "SUBJECT_PAGE", 1)
    paged = check.check_ledger(driver, database=settings.neo4j_database)
    assert {p.kind: p.total for p in paged} == {"backwards_interval": 2, "two_spellings_current": 2}
    # --sample bounds the examples, never the count
    assert cli.main(["check", "--json", "--sample", "1"]) == 1
    small = {f["kind"]: f for f in json.loads(capsys.readouterr().out)["findings"]}
    assert [(small[k]["total"], len(small[k]["sample"])) for k in sorted(small)] == [
        (2, 1),
        (2, 1),
    ]


def test_a_store_the_api_wrote_in_many_spellings_reports_neither(
    api: dict[str, Api], subject: str, fresh_store: None, capsys: pytest.CaptureFixture[str]
) -> None:
    alice = api["alice"]
    writes = [
        assertion(subject, "likes", "Jazz", valid_from=JAN),
        assertion(subject, "likes", "jazz ", valid_from=FEB),
        assertion(subject, "likes", "JAZZ", valid_from=JAN),
        assertion(subject, "likes", "jazz", valid_from=MAR, access=["finance"]),
        assertion(subject, "lives_in", "Rome", valid_from=JAN, valid_to=MAR),
        assertion(subject, "lives_in", "Oslo", valid_from=FEB),
    ]
    for body in writes:
        response = alice.post("/v1/assertions", body)
        assert response.status_code == 201, response.text
    # a valid time that would run backwards is refused, so it is never stored
    refused = alice.post(
        "/v1/assertions",
        assertion(subject, "lives_in", "Rome", valid_from=JUN, valid_to=MAR),
    )
    assert refused.status_code == 422, refused.text
    code, report = _report(capsys)
    assert (code, report["findings"]) == (0, []), report


def _history(api: Api, subject: str, **params: Any) -> list[dict[str, Any]]:
    body = api.get("/v1/facts/history", subject=subject, predicate="works_at", **params).json()
    return list(body["versions"])


def test_a_write_that_starts_earlier_back_fills_and_keeps_the_current_start(
    api: dict[str, Api], subject: str
) -> None:
    """ "Acme since March", then "Acme since January": the second is written over [January,
    March) and the March version stays current with its own start (nothing is moved, nothing
    closed); the fact's "since" is read from history. The answers carry no ``closed_at``."""
    pub = api["public"]
    march = pub.post("/v1/assertions", assertion(subject, "works_at", "Acme", valid_from=MAR))
    assert march.status_code == 201, march.text
    march_id = march.json()["assertion"]["id"]
    earlier = pub.post(
        "/v1/assertions",
        assertion(subject, "works_at", "Acme", valid_from=JAN, expected_current=march_id),
    )
    assert earlier.status_code == 201, earlier.text
    written = earlier.json()
    assert (written["superseded"], written["closed"]) == (None, [])
    assert written["assertion"]["valid_to"].startswith("2026-03-01")
    now = pub.get("/v1/facts", subject=subject, predicate="works_at").json()["facts"]
    assert [(f["id"], f["valid_from"][:10]) for f in now] == [(march_id, "2026-03-01")]
    feb = pub.get("/v1/facts", subject=subject, predicate="works_at", as_of=FEB).json()
    assert [f["id"] for f in feb["facts"]] == [written["assertion"]["id"]]
    versions = _history(pub, subject)
    assert [(v["object"], v["valid_from"][:10], (v["valid_to"] or "")[:10]) for v in versions] == [
        ("Acme", "2026-01-01", "2026-03-01"),
        ("Acme", "2026-03-01", ""),
    ]
    assert all("closed_at" not in v for v in versions)


def test_a_closing_shows_as_valid_to_from_the_closers_record_time(
    api: dict[str, Api], subject: str
) -> None:
    """A closed version's ``valid_to`` counts from its ``closed_at``, the record time of the
    version that closed it (named in ``superseded_by``); ``closed_at`` itself is in no answer."""
    pub = api["public"]
    vue = pub.post("/v1/assertions", assertion(subject, "works_at", "Vue", valid_from=JAN)).json()
    react = pub.post(
        "/v1/assertions", assertion(subject, "works_at", "React", valid_from=JUN)
    ).json()
    closed_at = react["assertion"]["recorded_at"]
    assert react["closed"] == [vue["assertion"]["id"]]
    before = _history(pub, subject, known_at=vue["assertion"]["recorded_at"])
    assert [(v["object"], v["valid_to"]) for v in before] == [("Vue", None)]
    after = _history(pub, subject, known_at=closed_at)
    assert [(v["object"], (v["valid_to"] or "")[:10]) for v in after] == [
        ("Vue", "2026-06-01"),
        ("React", ""),
    ]
    assert after[0]["superseded_by"] == [react["assertion"]["id"]]
    assert all("closed_at" not in v for v in after)
