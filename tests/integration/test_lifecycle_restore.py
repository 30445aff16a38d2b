"""A discarded working version gives its place back (docs/lifecycle.md "Restoration"), over
HTTP on the real Neo4j: a guess written in a task over a long-term fact, discarded at the end
of the task, must not leave the slot empty.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from neo4j import Driver

from graph_schema.core.timeutil import utcnow
from server.settings import Settings
from tests.fakes import ShiftedClock
from tests.helpers import KEYS, Api, assertion
from tests.integration.lifecycle_helpers import (
    at,
    created,
    end,
    facts,
    history,
    lifecycle_server,
    light,
    new,
    sleep,
    snapshot,
    tier_changes,
)

pytestmark = pytest.mark.integration

GUESS = {"source_kind": "agent_inferred", "asserted_by": "agent", "confidence": 0.5}


@pytest.fixture(scope="module")
def apis(settings: Settings, driver: Driver, clock: ShiftedClock) -> Iterator[dict[str, Api]]:
    with lifecycle_server(light(settings), clock) as apis:
        yield apis


@pytest.fixture
def quiet(fresh_store: None, clock: ShiftedClock) -> Iterator[None]:
    """An empty store and the clock at the present (for tests that sleep)."""
    clock.reset()
    yield
    clock.reset()


def _z(minutes: int) -> str:
    """``at(minutes)`` as answers write it."""
    return at(minutes).replace("+00:00", "Z")


def _lives(subject: str, city: str, minutes: int, **extra: Any) -> dict[str, Any]:
    return assertion(subject, "lives_in", city, valid_from=at(minutes), **extra)


def _restorations(driver: Driver, source_id: str) -> list[dict[str, Any]]:
    records, _, _ = driver.execute_query(
        "MATCH (r:Assertion {restored_from: $id}) "
        "RETURN r.id AS id, [(r)-[:SUPERSEDES]->(x) | x.id] AS supersedes",
        id=source_id,
    )
    return [dict(r) for r in records]


def _guess_over_a_long_fact(alice: Api) -> dict[str, Any]:
    task, subject = new("task"), new("user")
    long = created(alice, _lives(subject, "Berlin", 0))["assertion"]
    guess = created(alice, _lives(subject, "Paris", 10, task_id=task, **GUESS))
    assert guess["closed"] == [long["id"]]
    return {"task": task, "subject": subject, "long": long, "guess": guess["assertion"]}


def test_a_discarded_guess_gives_the_long_term_fact_its_place_back(
    apis: dict[str, Api], driver: Driver
) -> None:
    alice = apis["alice"]
    s = _guess_over_a_long_fact(alice)
    subject, long, guess = s["subject"], s["long"], s["guess"]
    working = facts(alice, subject, "lives_in")
    assert [(f["object"], f["tier"]) for f in working["facts"]] == [("Paris", "short")]
    before_end = utcnow().isoformat()

    report = end(alice, s["task"])
    assert report["discarded"] == [guess["id"]] and report["reasons"][guess["id"]] == "unverified"
    [restored] = report["restored"]

    # the default read answers the long-term fact's content again, as a restoration
    [fact] = facts(alice, subject, "lives_in")["facts"]
    assert (fact["id"], fact["object"], fact["tier"]) == (restored, "Berlin", "long")
    assert (fact["restored_from"], fact["restore_rule"]) == (long["id"], "displaced_by_discarded")
    assert fact["restore_reason"]
    assert fact["valid_from"] == guess["valid_from"] and fact["valid_to"] is None
    for copied in ("asserted_by", "source_kind", "confidence", "access", "task_id"):
        assert fact[copied] == long[copied], copied
    assert [e["quote"] for e in fact["evidence"]] == [e["quote"] for e in long["evidence"]]
    assert fact["supersedes"] == [guess["id"]]
    # before the guess, the long-term fact itself, unchanged
    [earlier] = facts(alice, subject, "lives_in", as_of=at(5))["facts"]
    assert earlier["id"] == long["id"]

    # history: L (closed by W), W (discarded, superseded by R), R with its reason
    versions = {v["id"]: v for v in history(alice, subject, "lives_in")}
    assert set(versions) == {long["id"], guess["id"], restored}
    assert versions[long["id"]]["tier"] == "long"
    assert versions[long["id"]]["valid_to"] == guess["valid_from"]
    assert versions[guess["id"]]["tier"] == "discarded"
    assert versions[guess["id"]]["superseded_by"] == [restored]
    assert [t["rule"] for t in versions[guess["id"]]["transitions"]] == ["unverified"]
    assert versions[restored]["restored_from"] == long["id"]

    # recall's default candidates find the restored fact, not the guess
    recalled = alice.post(
        "/v1/recall", {"query": "lives in Berlin Paris", "k": 10, "filters": {"subject": subject}}
    )
    assert recalled.status_code == 200, recalled.text
    assert [r["assertion"]["id"] for r in recalled.json()["results"]] == [restored]

    # a read as known before the end still sees the guess as it was
    [then] = facts(alice, subject, "lives_in", known_at=before_end)["facts"]
    assert (then["id"], then["tier"], then["superseded_at"]) == (guess["id"], "short", None)
    assert {v["id"] for v in history(alice, subject, "lives_in", known_at=before_end)} == {
        long["id"],
        guess["id"],
    }


def test_only_the_time_the_guess_still_holds_is_restored(
    apis: dict[str, Api], driver: Driver
) -> None:
    """A later write that closed the guess keeps its part; only the part the guess still
    held comes back, and the guess is superseded there (no remnant of it is left)."""
    alice = apis["alice"]
    s = _guess_over_a_long_fact(alice)
    later = created(alice, _lives(s["subject"], "Rome", 20))["assertion"]
    [restored] = end(alice, s["task"])["restored"]
    [fact] = facts(alice, s["subject"], "lives_in")["facts"]
    assert fact["id"] == later["id"]
    [between] = facts(alice, s["subject"], "lives_in", as_of=at(15))["facts"]
    assert (between["id"], between["object"]) == (restored, "Berlin")
    assert (between["valid_from"], between["valid_to"]) == (_z(10), _z(20))
    assert len(_restorations(driver, s["long"]["id"])) == 1
    remnants, _, _ = driver.execute_query(
        "MATCH (r:Assertion {remnant_of: $id}) RETURN count(r) AS n", id=s["guess"]["id"]
    )
    assert remnants[0]["n"] == 0


def test_a_remnant_of_the_guess_gives_its_part_back_too(apis: dict[str, Api]) -> None:
    """A later write inside the guess's time cuts it: the guess keeps the time before, a
    remnant of it (working memory of the same task) the time after. Both are discarded at the
    end; each gives its part back to what the guess displaced."""
    alice = apis["alice"]
    s = _guess_over_a_long_fact(alice)
    created(alice, _lives(s["subject"], "Rome", 20, valid_to=at(30)))
    report = end(alice, s["task"])
    assert len(report["discarded"]) == 2 and len(report["restored"]) == 2
    objects = {
        minutes: facts(alice, s["subject"], "lives_in", as_of=at(minutes))["facts"][0]["object"]
        for minutes in (5, 15, 25, 35)
    }
    assert objects == {5: "Berlin", 15: "Berlin", 25: "Rome", 35: "Berlin"}
    [now] = facts(alice, s["subject"], "lives_in")["facts"]
    assert (now["object"], now["restored_from"], now["valid_to"]) == (
        "Berlin",
        s["long"]["id"],
        None,
    )


def test_a_guess_over_a_guess_restores_the_long_term_fact_and_a_kept_one_restores_nothing(
    apis: dict[str, Api], driver: Driver
) -> None:
    alice = apis["alice"]
    s = _guess_over_a_long_fact(alice)
    second = created(alice, _lives(s["subject"], "Lyon", 30, task_id=s["task"], **GUESS))
    report = end(alice, s["task"])
    assert set(report["discarded"]) == {s["guess"]["id"], second["assertion"]["id"]}
    [fact] = facts(alice, s["subject"], "lives_in")["facts"]
    assert (fact["object"], fact["restored_from"]) == ("Berlin", s["long"]["id"])
    [middle] = facts(alice, s["subject"], "lives_in", as_of=at(20))["facts"]
    assert (middle["object"], middle["restored_from"]) == ("Berlin", s["long"]["id"])
    assert len(report["restored"]) == 2

    # a promoted working version keeps its place: nothing to restore
    task, subject = new("task"), new("user")
    created(alice, _lives(subject, "Berlin", 0))
    kept = created(alice, _lives(subject, "Oslo", 10, task_id=task))["assertion"]
    report = end(alice, task)
    assert report["promoted"] == [kept["id"]] and report["restored"] == []
    assert facts(alice, subject, "lives_in")["facts"][0]["id"] == kept["id"]


def test_ending_twice_or_twenty_times_at_once_restores_once(
    apis: dict[str, Api], driver: Driver
) -> None:
    alice = apis["alice"]
    s = _guess_over_a_long_fact(alice)
    url = str(alice.client.base_url)
    clients = [Api(url, KEYS["alice"]) for _ in range(20)]
    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(lambda api: api.client.post(f"/v1/tasks/{s['task']}/end"), clients))
    assert {a.status_code for a in answers} == {200}
    assert len({a.text for a in answers}) == 1
    again = end(alice, s["task"])
    assert again == answers[0].json() and len(again["restored"]) == 1
    [restoration] = _restorations(driver, s["long"]["id"])
    assert restoration["id"] == again["restored"][0]
    assert restoration["supersedes"] == [s["guess"]["id"]]
    assert tier_changes(driver, [s["guess"]["id"]])[s["guess"]["id"]] == ["unverified"]


def test_the_same_store_consolidates_to_the_same_restorations(
    apis: dict[str, Api], driver: Driver
) -> None:
    """Two tasks built alike end alike: the same pieces, intervals and sources."""
    alice = apis["alice"]

    def story() -> list[tuple[str, str, str | None]]:
        task, subject = new("task"), new("user")
        created(alice, _lives(subject, "Berlin", 0, valid_to=at(40)))
        created(alice, _lives(subject, "Madrid", 40))
        guess = _lives(subject, "Paris", 10, task_id=task, valid_to=at(60), **GUESS)
        created(alice, guess)
        restored = end(alice, task)["restored"]
        versions = {v["id"]: v for v in history(alice, subject, "lives_in")}
        return sorted(
            (versions[r]["object"], versions[r]["valid_from"], versions[r]["valid_to"])
            for r in restored
        )

    first = story()
    assert first == [("Berlin", _z(10), _z(40)), ("Madrid", _z(40), _z(60))]
    assert story() == first


def test_a_dormant_fact_comes_back_dormant(
    apis: dict[str, Api], quiet: None, clock: ShiftedClock
) -> None:
    """A restoration has the tier its source has when it is written: a silent fact stays
    silent (no read woke it), and a read of the restoration wakes it at the next sleep."""
    alice, admin = apis["alice"], apis["admin"]
    task, subject = new("task"), new("user")
    long = created(alice, _lives(subject, "Berlin", 0))["assertion"]
    clock.shift(days=200)
    assert sleep(admin)["dormant"] == [long["id"]]
    created(alice, _lives(subject, "Paris", 10, task_id=task, **GUESS))
    [restored] = end(alice, task)["restored"]
    assert facts(alice, subject, "lives_in")["status"] == "not_found"
    [silent] = facts(alice, subject, "lives_in", tier="dormant")["facts"]
    assert (silent["id"], silent["object"]) == (restored, "Berlin")
    assert sleep(admin)["woken"] == [restored]
    assert facts(alice, subject, "lives_in")["facts"][0]["id"] == restored


def test_a_sleep_restores_what_an_expired_ephemeral_fact_displaced(
    apis: dict[str, Api], quiet: None, clock: ShiftedClock, driver: Driver
) -> None:
    """An ephemeral fact written outside a task displaces what came before it like a guess
    in a task; when it expires at a sleep, a kept version it displaced is restored. (A
    long-term stock level exists only in stores older than tiers: one is made so here.)"""
    alice, admin = apis["alice"], apis["admin"]
    store = new("store")
    older = created(alice, assertion(store, "stock_level", 80, valid_from=at(0)))["assertion"]
    driver.execute_query("MATCH (a:Assertion {id: $id}) SET a.tier = 'long'", id=older["id"])
    latest = created(alice, assertion(store, "stock_level", 42, valid_from=at(10)))["assertion"]
    assert latest["tier"] == "short"
    clock.shift(hours=25)
    dry = sleep(admin, dry_run=True)
    assert dry["counts"]["restored"] == 1 and dry["restored"] == []
    report = sleep(admin)
    assert report["discarded"] == [latest["id"]]
    [restored] = report["restored"]
    assert report["counts"]["restored"] == 1
    [fact] = facts(alice, store, "stock_level")["facts"]
    assert (fact["id"], fact["object"], fact["tier"]) == (restored, "80", "long")
    assert fact["restored_from"] == older["id"]
    assert sleep(admin)["restored"] == []  # once


def test_a_restoration_only_adds_versions(
    apis: dict[str, Api], quiet: None, driver: Driver
) -> None:
    """Append-only: the end adds the transition and the restoration (a new version, its
    links to the evidence it copies, to its entities and to the version it supersedes); of
    what existed, only the discarded version changes, and only by gaining its
    ``superseded_at`` (and the display label ``Superseded``)."""
    s = _guess_over_a_long_fact(apis["alice"])
    before = snapshot(driver)
    end(apis["alice"], s["task"])
    after = snapshot(driver)
    for node_id, (labels, props) in before["nodes"].items():
        if {"Task", "Slot"} & set(labels):
            continue
        now_labels, now_props = after["nodes"][node_id]
        if props.get("id") == s["guess"]["id"]:
            assert now_labels == sorted([*labels, "Superseded"])
            assert props.get("superseded_at") is None
            assert {k: v for k, v in now_props.items() if k != "superseded_at"} == props
        else:
            assert (now_labels, now_props) == (labels, props), labels
    added = [labels for i, (labels, _) in after["nodes"].items() if i not in before["nodes"]]
    assert sorted(tuple(labels) for labels in added) == [("Assertion",), ("TierChange",)]
    assert set(before["edges"]) <= set(after["edges"])
    new_edges = set(after["edges"]) - set(before["edges"])
    # the restoration's links to its entities too (docs/entities.md): its subject, and its
    # object, a thing (lives_in)
    assert sorted(t for _, t, _ in new_edges) == [
        "ABOUT",
        "CHANGES",
        "EVIDENCED_BY",
        "OBJECT",
        "SUPERSEDES",
    ]


def _step(alice: Api, task: str, action: str, minutes: int, **extra: Any) -> dict[str, Any]:
    response = alice.post(
        "/v1/events",
        {"task_id": task, "actor": "agent", "action": action, "outcome": "success",
         "occurred_at": at(minutes), **extra},
    )  # fmt: skip
    assert response.status_code == 201, response.text
    event: dict[str, Any] = response.json()["event"]
    return event


def test_a_restored_fact_answers_why_with_the_chain_of_the_step_that_wrote_it(
    apis: dict[str, Api],
) -> None:
    """A new user's trial: a fact a step wrote, guessed over in a later task and restored when
    the guess was discarded, answered *why* with no event and recall with ``chain: null``,
    while a remnant keeps the chain of the version it was cut from. A restoration now answers
    with the chain of the version it restores, in why and in recall alike."""
    alice, subject = apis["alice"], new("order")
    first, second = new("task"), new("task")
    captured = {**assertion(subject, "payment_status", "captured"), "confidence": 1.0}
    captured["source_kind"] = "tool_returned"
    root = _step(alice, first, "open_order", 0, root=True)
    capture = _step(alice, first, "capture", 1, caused_by=[root["id"]], assertions=[captured])
    assert end(alice, first)["promoted"]
    guessed = {**assertion(subject, "payment_status", "probably refunded"), **GUESS}
    _step(alice, second, "guess", 5, root=True, assertions=[guessed])
    report = end(alice, second)
    assert report["discarded"] and report["restored"]
    answer = alice.get("/v1/facts/why", subject=subject, predicate="payment_status").json()
    [explanation] = answer["explanations"]
    assert explanation["fact"]["id"] in report["restored"]
    assert explanation["fact"]["restored_from"] is not None
    assert explanation["event"]["id"] == capture["id"]
    assert [e["id"] for e in explanation["chain"]["events"]] == [capture["id"], root["id"]]
    recalled = alice.post(
        "/v1/recall", {"query": f"payment status of {subject}", "filters": {"subject": subject}}
    )
    assert recalled.status_code == 200, recalled.text
    [result] = [
        r for r in recalled.json()["results"] if r["assertion"]["id"] == explanation["fact"]["id"]
    ]
    assert [e["id"] for e in result["chain"]["events"]] == [capture["id"], root["id"]]


def test_a_fact_a_guess_of_a_task_that_ended_first_closed_comes_back_when_its_task_keeps_it(
    apis: dict[str, Api],
) -> None:
    """A new agent builder's trial: a verified fact written in task T1, a guess over it in
    task T2, T2 ended first (the fact was working memory then: nothing to restore), then T1
    (the fact promoted, but still closed by the discarded guess): the slot stayed empty for
    good. The end that promotes the fact restores it now; the other order did already."""
    alice = apis["alice"]
    first, second, subject = new("task"), new("task"), new("svc")
    fact = created(alice, _lives(subject, "Berlin", 0, task_id=first))["assertion"]
    guess = created(alice, _lives(subject, "Paris", 10, task_id=second, **GUESS))
    assert guess["closed"] == [fact["id"]]
    guess_id = guess["assertion"]["id"]

    early = end(alice, second)
    assert (early["discarded"], early["restored"]) == ([guess_id], [])
    assert facts(alice, subject, "lives_in")["status"] == "not_found"  # fact short, closed

    late = end(alice, first)
    assert late["promoted"] == [fact["id"]]
    [restored] = late["restored"]
    [current] = facts(alice, subject, "lives_in")["facts"]
    assert (current["id"], current["object"], current["tier"]) == (restored, "Berlin", "long")
    assert (current["restored_from"], current["valid_from"]) == (
        fact["id"],
        guess["assertion"]["valid_from"],
    )
    assert current["supersedes"] == [guess_id]
    # the guess the first end discarded is still found as discarded
    [gone] = facts(alice, subject, "lives_in", tier="discarded")["facts"]
    assert (gone["id"], gone["tier"]) == (guess_id, "discarded")
    # ending again writes nothing more
    assert end(alice, first)["restored"] == [restored]
    assert len(_restorations_of(alice, subject)) == 1


def _restorations_of(api: Api, subject: str) -> list[str]:
    return [v["id"] for v in history(api, subject, "lives_in") if v.get("restored_from")]


def test_what_an_end_discarded_is_found_with_tier_discarded_after_a_restoration(
    apis: dict[str, Api],
) -> None:
    """A new agent builder's trial: the end's report listed the guess as discarded, but
    ``tier=discarded`` did not find it once a restoration had taken its place. It finds it
    over the valid time it held when discarded, once (not again as the remnant the
    restoration cut), and the default read answers the restored fact."""
    alice = apis["alice"]
    task, subject = new("task"), new("user")
    long = created(alice, _lives(subject, "Berlin", 0, valid_to=at(30)))["assertion"]
    guess = created(alice, _lives(subject, "Paris", 10, task_id=task, **GUESS))["assertion"]
    report = end(alice, task)
    assert report["discarded"] == [guess["id"]] and len(report["restored"]) == 1
    for minutes in (15, 40, None):
        as_of = at(minutes) if minutes is not None else None
        found = facts(alice, subject, "lives_in", tier="discarded", as_of=as_of)["facts"]
        assert [(f["id"], f["tier"]) for f in found] == [(guess["id"], "discarded")], minutes
    [between] = facts(alice, subject, "lives_in", as_of=at(15))["facts"]
    assert (between["object"], between["restored_from"]) == ("Berlin", long["id"])
    assert facts(alice, subject, "lives_in")["status"] == "not_found"  # Berlin ended at 30
    # both tiers asked: the restored fact and the guess it replaced
    both = facts(alice, subject, "lives_in", tier=["long", "discarded"], as_of=at(15))["facts"]
    assert sorted(f["tier"] for f in both) == ["discarded", "long"]


# What the end wrote that an end before the fix above did not: its restorations of the slot
# (each superseded the discarded guess, which gained ``superseded_at`` and the display label),
# and their ids in its stored report. Removing exactly that leaves the store as that version
# left it; the old code cannot be run any more, and its ordering is the one built here.
_UNDO_RESTORATIONS = """
MATCH (r:Assertion {restored_from: $fact})-[:SUPERSEDES]->(w:Assertion)
REMOVE w.superseded_at, w:Superseded
WITH DISTINCT r
DETACH DELETE r
"""
_UNDO_REPORT = """
MATCH (t:Task {id: $task})
SET t.report = $report
"""


def _as_an_older_store_left_it(driver: Driver, task: str, fact_id: str) -> None:
    records, _, _ = driver.execute_query(
        "MATCH (t:Task {id: $task}) RETURN t.report AS r", task=task
    )
    report = json.loads(records[0]["r"])
    driver.execute_query(_UNDO_RESTORATIONS, fact=fact_id)
    driver.execute_query(_UNDO_REPORT, task=task, report=json.dumps({**report, "restored": []}))


def test_a_sleep_repairs_a_fact_an_older_store_left_closed_by_a_discarded_guess(
    apis: dict[str, Api], quiet: None, driver: Driver
) -> None:
    """A store written before the fix above can hold a verified fact closed by the guess of a
    task that ended first, promoted and never restored: no end will look at that slot again
    unless a task writes in it. The sleep finds every discarded version still in effect and
    restores what it hides, as an end does; a preview counts it and writes nothing; a second
    sleep finds nothing to do."""
    alice, admin = apis["alice"], apis["admin"]
    first, second, subject = new("task"), new("task"), new("svc")
    fact = created(alice, _lives(subject, "Berlin", 0, task_id=first))["assertion"]
    guess = created(alice, _lives(subject, "Paris", 10, task_id=second, **GUESS))["assertion"]
    assert end(alice, second)["restored"] == []
    assert end(alice, first)["promoted"] == [fact["id"]]
    _as_an_older_store_left_it(driver, first, fact["id"])
    assert _restorations_of(alice, subject) == []
    assert facts(alice, subject, "lives_in")["status"] == "not_found"

    before = snapshot(driver)
    dry = sleep(admin, dry_run=True)
    assert (dry["counts"]["restored"], dry["restored"]) == (1, [])
    assert snapshot(driver) == before  # a preview writes nothing

    report = sleep(admin)
    [restored] = report["restored"]
    assert report["counts"]["restored"] == 1
    [current] = facts(alice, subject, "lives_in")["facts"]
    assert (current["id"], current["object"], current["tier"]) == (restored, "Berlin", "long")
    assert (current["restored_from"], current["valid_from"]) == (fact["id"], guess["valid_from"])
    assert current["supersedes"] == [guess["id"]]
    [gone] = facts(alice, subject, "lives_in", tier="discarded")["facts"]
    assert (gone["id"], gone["tier"]) == (guess["id"], "discarded")

    again = sleep(admin)
    assert (again["restored"], again["counts"]["restored"]) == ([], 0)
    assert _restorations_of(alice, subject) == [restored]
