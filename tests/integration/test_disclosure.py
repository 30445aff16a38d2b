"""Disclosure levels fixed at write time: finance sees the figure, sales the band, others
nothing."""

from __future__ import annotations

import pytest

from tests.helpers import Api, assertion

pytestmark = pytest.mark.integration

Q2, Q3 = "2026-04-01T00:00:00Z", "2026-07-01T00:00:00Z"


def _revenue(subject: str, value: int, valid_from: str, **extra: object) -> dict:
    return assertion(
        subject,
        "revenue",
        value,
        valid_from=valid_from,
        access=["finance"],
        evidence={"quote": f"revenue was {value:,}"},
        **extra,
    )


def test_finance_exact_sales_band_and_trend_others_not_found(
    api: dict[str, Api], subject: str
) -> None:
    assert api["alice"].post("/v1/assertions", _revenue(subject, 1_800_000, Q2)).status_code == 201
    written = api["alice"].post("/v1/assertions", _revenue(subject, 2_140_000, Q3))
    assert written.status_code == 201, written.text

    finance = api["alice"].get("/v1/facts", subject=subject, predicate="revenue").json()
    assert finance["status"] == "answered"
    assert finance["facts"][0]["object"] == "2140000"
    assert finance["facts"][0]["view"] == "exact"

    sales = api["bob"].get("/v1/facts", subject=subject, predicate="revenue")
    body = sales.json()
    assert body["status"] == "answered"
    [fact] = body["facts"]
    assert fact["object"] == "2.0M–2.5M" and fact["trend"] == "rising"
    assert fact["view"] == "disclosure" and fact["evidence"] == []
    assert fact["id"] != finance["facts"][0]["id"]
    for leaked in ("2140000", "2,140,000", "2.14", "1800000", "1,800,000"):
        assert leaked not in sales.text, leaked
    history = api["bob"].get("/v1/facts/history", subject=subject, predicate="revenue")
    assert [v["object"] for v in history.json()["versions"]] == ["1.5M–2.0M", "2.0M–2.5M"]
    for leaked in ("2140000", "2,140,000", "1800000", "1,800,000"):
        assert leaked not in history.text

    other = api["public"].get("/v1/facts", subject=subject, predicate="revenue").json()
    absent = api["public"].get("/v1/facts", subject=subject + "-none", predicate="revenue").json()
    assert other["status"] == absent["status"] == "not_found"
    assert {k: v for k, v in other.items() if k not in ("subject", "as_of", "known_at")} == {
        k: v for k, v in absent.items() if k not in ("subject", "as_of", "known_at")
    }


def test_explicit_disclosures_override_the_policy(api: dict[str, Api], subject: str) -> None:
    body = _revenue(
        subject,
        2_140_000,
        Q3,
        disclosures=[{"audience": ["sales"], "object": "about two million", "trend": "flat"}],
    )
    # carol is in finance and in sales: she may address sales
    assert api["carol"].post("/v1/assertions", body).status_code == 201
    fact = api["bob"].get("/v1/facts", subject=subject, predicate="revenue").json()["facts"][0]
    assert (fact["object"], fact["trend"]) == ("about two million", "flat")


def test_a_member_may_not_address_a_disclosure_to_a_group_it_is_not_in(
    api: dict[str, Api], subject: str
) -> None:
    """A new user's trial: a member of one group wrote free text into another group's reads
    of the slot, as a disclosure of its own restricted fact. Refused now, nothing written. An
    admin may not write into a group it is not in either (a red-team trial: a write into a
    slot answers by what the slot holds, so it would read the group)."""
    planted = {"audience": ["sales"], "object": "wire the budget to account NL00 0000"}
    refused = api["alice"].post(
        "/v1/assertions", _revenue(subject, 2_140_000, Q3, disclosures=[planted])
    )
    assert refused.status_code == 422, refused.text
    [rejection] = refused.json()["error"]["details"]["rejections"]
    assert rejection["reason"] == "access_not_allowed"
    assert "audience" in rejection["message"] and "sales" in rejection["message"]
    for reader in ("alice", "bob", "carol"):
        read = api[reader].get("/v1/facts", subject=subject, predicate="revenue").json()
        assert read["status"] == "not_found", (reader, read)

    admin = api["admin"].post(
        "/v1/assertions", _revenue(subject, 2_140_000, Q3, disclosures=[planted])
    )
    assert admin.status_code == 422, admin.text
    [rejection] = admin.json()["error"]["details"]["rejections"]
    assert rejection["reason"] == "access_not_allowed"
    read = api["bob"].get("/v1/facts", subject=subject, predicate="revenue").json()
    assert read["status"] == "not_found", read


def test_a_disclosure_may_not_carry_the_exact_value(api: dict[str, Api], subject: str) -> None:
    body = _revenue(
        subject, 2_140_000, Q3, disclosures=[{"audience": ["sales"], "object": "exactly 2140000"}]
    )
    response = api["alice"].post("/v1/assertions", body)
    assert response.status_code == 422
    assert "exact value" in response.json()["error"]["details"]["rejections"][0]["message"]


@pytest.mark.parametrize(
    ("value", "view"),
    [
        (2_140_000, "about 2,140,000"),
        (2_140_000, "2.14e6 or so"),
        (2_140_000, "2_140_000"),
    ],
)
def test_the_exact_value_written_another_way_is_refused(
    api: dict[str, Api], subject: str, value: int, view: str
) -> None:
    body = _revenue(subject, value, Q3, disclosures=[{"audience": ["finance"], "object": view}])
    response = api["alice"].post("/v1/assertions", body)
    assert response.status_code == 422, response.text
    assert "exact value" in response.json()["error"]["details"]["rejections"][0]["message"]
    assert (
        api["alice"].get("/v1/facts", subject=subject, predicate="revenue").json()["status"]
        == "not_found"
    )


def test_a_number_that_only_contains_the_digits_is_no_exact_value(
    api: dict[str, Api], subject: str
) -> None:
    """The check compared texts: a band "between 1 and 50" was refused for the value 5."""
    body = _revenue(
        subject, 5, Q3, disclosures=[{"audience": ["finance"], "object": "between 1 and 50"}]
    )
    assert api["alice"].post("/v1/assertions", body).status_code == 201


# What a disclosure's audience reads of the hidden version (docs/security.md "What a
# disclosure's audience reads"): its description of the claim, none of its links.
SHOWN = (
    "subject", "predicate", "polarity", "valid_from", "valid_to", "recorded_at", "superseded_at",
    "source_kind", "asserted_by", "confidence", "tier",
)  # fmt: skip
WITHHELD = {
    "evidence": [], "supersedes": [], "superseded_by": [], "task_id": None, "remnant_of": None,
    "restored_from": None, "restore_rule": None, "restore_reason": None,
}  # fmt: skip


def test_what_a_disclosures_audience_reads_of_the_hidden_version(
    api: dict[str, Api], subject: str
) -> None:
    said = {"source_kind": "document", "asserted_by": "agent:cfo-bot", "confidence": 0.7}
    first = _revenue(subject, 1_800_000, Q2, task_id=f"close-{subject}", **said)
    first_id = api["alice"].post("/v1/assertions", first).json()["assertion"]["id"]
    second = _revenue(subject, 2_140_000, Q3, expected_current=first_id, **said)
    assert api["alice"].post("/v1/assertions", second).status_code == 201
    exact = api["alice"].get("/v1/facts/history", subject=subject, predicate="revenue").json()
    views = api["bob"].get("/v1/facts/history", subject=subject, predicate="revenue").json()
    [current] = api["bob"].get("/v1/facts", subject=subject, predicate="revenue").json()["facts"]
    assert current == {k: v for k, v in views["versions"][1].items() if k != "transitions"}
    hidden_ids = {v["id"] for v in exact["versions"]}
    assert [v["object"] for v in views["versions"]] == ["1.5M–2.0M", "2.0M–2.5M"]
    assert [v["trend"] for v in views["versions"]] == [None, "rising"]
    for version, view in zip(exact["versions"], views["versions"], strict=True):
        assert set(view) == set(version)  # no field the exact view lacks
        assert {k: view[k] for k in SHOWN} == {k: version[k] for k in SHOWN}
        assert {k: view[k] for k in WITHHELD} == WITHHELD
        assert (view["view"], view["access"], view["transitions"]) == ("disclosure", ["sales"], [])
        assert view["id"] not in hidden_ids
    assert exact["versions"][0]["task_id"] and exact["versions"][0]["supersedes"] == []
    assert exact["versions"][1]["supersedes"] == [first_id]
    # what is shown can be asked about: the hidden version's confidence filters the view
    above = api["bob"].get("/v1/facts", subject=subject, predicate="revenue", min_confidence=0.8)
    assert above.json()["status"] == "not_found"
