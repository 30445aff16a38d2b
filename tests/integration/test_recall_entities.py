"""Multi-hop recall through the entity graph: a fact that points at a thing brings the facts
about that thing, inside the same permission and validity filters."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.helpers import Api, assertion

pytestmark = pytest.mark.integration


def write(api: Api, *items: dict[str, Any]) -> list[str]:
    response = api.post("/v1/assertions", {"assertions": list(items)})
    assert response.status_code == 201, response.text
    return [r["assertion"]["id"] for r in response.json()["results"]]


def ranked(api: Api, query: str) -> list[dict[str, Any]]:
    response = api.post("/v1/recall", {"query": query, "k": 20})
    assert response.status_code == 200, response.text
    results: list[dict[str, Any]] = response.json()["results"]
    return results


def test_a_two_hop_question_is_answered_through_an_entity_link(api: dict[str, Api]) -> None:
    """The answer shares no word with the question: the link from the employer fact
    (OBJECT) to the facts about the employer (ABOUT) is what raises it (``graph``)."""
    tag = uuid.uuid4().hex[:6]
    person, company = f"user:zq{tag}", f"Zqacme{tag}"
    cities = ["Paris", "Madrid", "Oslo", "Lisbon", "Vienna", "Prague"]
    write(
        api["alice"],
        *(assertion(f"Zqother{tag}{n}", "located_in", city) for n, city in enumerate(cities)),
    )
    works, located = write(
        api["alice"],
        assertion(person, "works_at", company),
        assertion(company, "located_in", "Berlin"),
    )
    results = ranked(api["bob"], f"where is zq{tag}'s employer?")
    by_id = {r["assertion"]["id"]: r for r in results[:10]}
    assert works in by_id
    assert located in by_id, [r["assertion"]["object"] for r in results]
    assert "graph" in by_id[located]["why"]["boosts"]
    assert "fulltext" not in by_id[located]["why"]["sources"], "no word of it was asked"


def test_the_hop_never_brings_what_the_caller_may_not_read(api: dict[str, Api]) -> None:
    tag = uuid.uuid4().hex[:6]
    person, company = f"user:zq{tag}", f"Zqacme{tag}"
    (works,) = write(api["alice"], assertion(person, "works_at", company))
    (hidden,) = write(api["alice"], assertion(company, "located_in", "Berlin", access=["finance"]))
    query = f"In which city is the company zq{tag} works at located?"
    assert hidden not in [r["assertion"]["id"] for r in ranked(api["bob"], query)]
    assert hidden in [r["assertion"]["id"] for r in ranked(api["alice"], query)]
    assert works in [r["assertion"]["id"] for r in ranked(api["bob"], query)]
