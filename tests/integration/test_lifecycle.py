"""The life of a memory over HTTP on the real Neo4j: a task's working memory, its end
(consolidation), 200 days of silence, waking, pins, and ephemeral facts outside any task.

Tests that sleep start from an empty store (a sleep works on the whole store) with the
lifecycle clock at the present; the clock is then moved, record times stay real.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from neo4j import Driver

from graph_schema.core.timeutil import utcnow
from graph_schema.observations.types import ObservationIn
from server.settings import Settings
from tests.conftest import Api, assertion
from tests.fakes import ScriptedDistiller, ShiftedClock, SwitchDistiller
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


@pytest.fixture(scope="module")
def switch() -> SwitchDistiller:
    return SwitchDistiller(ScriptedDistiller(lambda obs: []))


@pytest.fixture(scope="module")
def apis(
    settings: Settings, driver: Driver, clock: ShiftedClock, switch: SwitchDistiller
) -> Iterator[dict[str, Api]]:
    with lifecycle_server(light(settings), clock, switch) as apis:
        yield apis


@pytest.fixture
def quiet(fresh_store: None, clock: ShiftedClock) -> Iterator[None]:
    """An empty store and the clock at the present."""
    clock.reset()
    yield
    clock.reset()


def _ids(report: dict[str, Any], key: str) -> set[str]:
    return set(report[key])


def _whole_text(obs: ObservationIn, subject: str, obj: str) -> list[Any]:
    return [
        {
            "subject": subject,
            "predicate": "status",
            "object": obj,
            "confidence": 0.6,
            "quote": obs.text,
            "start": 0,
            "end": len(obs.text),
        }
    ]


def _observe(api: Api, text: str, speaker: str, minutes: int, task: str) -> list[str]:
    body = {
        "text": text,
        "speaker": speaker,
        "occurred_at": at(minutes),
        "source_kind": "agent_inferred",
        "task_id": task,
    }
    response = api.post("/v1/observations", body)
    assert response.status_code == 201, response.text
    assert response.json()["working_memory"]["task_id"] == task
    return [a["assertion"]["id"] for a in response.json()["assertions"]]


def _restock(apis: dict[str, Api], switch: SwitchDistiller) -> dict[str, Any]:
    """The seed's restock task: a stock level (ephemeral), a stated preference (0.95), a
    guess (0.5), and a fact two independent observations support."""
    alice = apis["alice"]
    task, store, user, supplier = new("restock"), new("store"), new("user"), new("supplier")
    stock = created(
        alice,
        assertion(
            store,
            "stock_level",
            80,
            source_kind="tool_returned",
            asserted_by="tool:inventory",
            confidence=0.99,
            task_id=task,
            evidence={"quote": "stock level 80"},
        ),
    )
    preference = created(
        alice,
        assertion(
            user,
            "prefers",
            "morning deliveries",
            confidence=0.95,
            task_id=task,
            evidence={"quote": "I prefer morning deliveries"},
        ),
    )
    guess = created(
        alice,
        assertion(
            store,
            "needs_restock",
            True,
            source_kind="agent_inferred",
            asserted_by="agent",
            confidence=0.5,
            task_id=task,
            evidence={"quote": "probably needs a restock"},
        ),
    )
    script = ScriptedDistiller(lambda obs: _whole_text(obs, supplier, "delivers on Tuesdays"))
    with switch.use(script):
        supported = _observe(alice, "Acme delivers on Tuesdays.", "agent:scout", 10, task)
        supported += _observe(alice, "Their trucks come every Tuesday.", "agent:clerk", 20, task)
    return {
        "task": task,
        "store": store,
        "user": user,
        "supplier": supplier,
        "stock": stock,
        "preference": preference,
        "guess": guess,
        "supported": supported,
    }


def test_the_restock_story(
    apis: dict[str, Api], quiet: None, switch: SwitchDistiller, driver: Driver
) -> None:
    alice = apis["alice"]
    s = _restock(apis, switch)
    for written in (s["stock"], s["preference"], s["guess"]):
        assert written["assertion"]["tier"] == "short"
        assert written["working_memory"]["task_id"] == s["task"]
    assert s["guess"]["working_memory"] == {
        "task_id": s["task"],
        "count": 3,
        "bound": 1000,
        "over_bound": False,
    }
    working = facts(alice, s["store"], "stock_level")
    assert [f["object"] for f in working["facts"]] == ["80"]
    assert working["facts"][0]["tier"] == "short"
    before_end = utcnow().isoformat()

    report = end(alice, s["task"])
    ids = {k: s[k]["assertion"]["id"] for k in ("stock", "preference", "guess")}
    assert _ids(report, "promoted") == {ids["preference"], *s["supported"]}
    assert _ids(report, "discarded") == {ids["stock"], ids["guess"]}
    assert report["reasons"] == {
        ids["stock"]: "ephemeral",
        ids["preference"]: "verified",
        ids["guess"]: "unverified",
        **dict.fromkeys(s["supported"], "corroborated"),
    }

    # default reads: exactly the promoted two facts
    assert facts(alice, s["store"], "stock_level")["status"] == "not_found"
    assert facts(alice, s["store"], "needs_restock")["status"] == "not_found"
    preferred = facts(alice, s["user"], "prefers")
    assert [(f["id"], f["tier"]) for f in preferred["facts"]] == [(ids["preference"], "long")]
    supplier = facts(alice, s["supplier"], "status")
    assert [f["id"] for f in supplier["facts"]] == [s["supported"][1]]
    assert supplier["facts"][0]["tier"] == "long"
    discarded = facts(alice, s["store"], "stock_level", tier="discarded")
    assert [f["id"] for f in discarded["facts"]] == [ids["stock"]]

    # recall about the task finds the promoted facts and nothing discarded
    recalled = alice.post(
        "/v1/recall",
        {
            "query": "morning deliveries Tuesdays restock stock",
            "k": 20,
            "filters": {"task_id": s["task"]},
        },
    )
    assert recalled.status_code == 200, recalled.text
    found = {r["assertion"]["id"] for r in recalled.json()["results"]}
    assert found == {ids["preference"], s["supported"][1]}

    # history shows every transition and its rule; a read as known before the end, the
    # working tier
    [stock_version] = history(alice, s["store"], "stock_level")
    [change] = stock_version["transitions"]
    assert (change["change"], change["from"], change["to"], change["rule"]) == (
        "tier",
        "short",
        "discarded",
        "ephemeral",
    )
    assert history(alice, s["store"], "stock_level", known_at=before_end)[0]["transitions"] == []
    then = facts(alice, s["store"], "stock_level", known_at=before_end)
    assert [(f["object"], f["tier"]) for f in then["facts"]] == [("80", "short")]
    assert facts(alice, s["user"], "prefers", known_at=before_end)["facts"][0]["tier"] == "short"

    card = alice.get(f"/v1/tasks/{s['task']}").json()
    assert card["status"] == "ended" and card["consolidated"] is True
    assert card["counts"] == {"short": 0, "long": 3, "discarded": 2, "dormant": 0}
    assert card["ended_at"] == report["ended_at"]
    # the access log is not the record: ending wrote one transition per working assertion
    assert all(len(rules) == 1 for rules in tier_changes(driver, [*ids.values()]).values())


def test_said_sentences_stay_only_beside_a_kept_fact(
    apis: dict[str, Api], switch: SwitchDistiller
) -> None:
    """A task's ``said`` sentences are promoted only when a fact promoted from the same task
    cites the same observation span; recall still finds the sentence that stated a kept
    fact, and not the others."""
    alice = apis["alice"]
    task, speaker = new("trip"), new("user")
    text = "I prefer window seats zqxpilot. The weather looks grim zqxstorm."
    first, second = text.split(". ")
    first += "."

    def script(obs: ObservationIn) -> list[Any]:
        at2 = len(first) + 1
        return [
            {
                "subject": speaker,
                "predicate": "prefers",
                "object": "window seats",
                "confidence": 0.95,
                "quote": first,
                "start": 0,
                "end": len(first),
            },
            {
                "subject": speaker,
                "predicate": "said",
                "object": first,
                "confidence": 1.0,
                "quote": first,
                "start": 0,
                "end": len(first),
            },
            {
                "subject": speaker,
                "predicate": "said",
                "object": second,
                "confidence": 1.0,
                "quote": second,
                "start": at2,
                "end": at2 + len(second),
            },
        ]

    with switch.use(ScriptedDistiller(script)):
        body = {
            "text": text,
            "speaker": speaker,
            "occurred_at": at(30),
            "source_kind": "user_stated",
            "task_id": task,
        }
        response = alice.post("/v1/observations", body)
    assert response.status_code == 201, response.text
    fact, kept_said, lone_said = (a["assertion"]["id"] for a in response.json()["assertions"])

    def recalled(query: str) -> set[str]:
        answer = alice.post("/v1/recall", {"query": query, "filters": {"task_id": task}})
        assert answer.status_code == 200, answer.text
        return {r["assertion"]["id"] for r in answer.json()["results"]}

    assert lone_said in recalled("zqxstorm weather grim")  # working memory: found
    report = end(alice, task)
    assert report["reasons"] == {
        fact: "verified",
        kept_said: "said_supported",
        lone_said: "said_unsupported",
    }
    # recall answers one assertion per turn: now always one the task kept
    for query in ("zqxstorm weather grim", "zqxpilot window seats"):
        found = recalled(query)
        assert len(found) == 1 and found <= {fact, kept_said}, query


def test_two_hundred_days_of_silence_then_a_read_wakes_it(
    apis: dict[str, Api], quiet: None, clock: ShiftedClock, driver: Driver
) -> None:
    alice, admin = apis["alice"], apis["admin"]
    task = new("task")
    kept_subject, plain_subject, pinned_subject = new("user"), new("user"), new("user")
    kept = created(alice, assertion(kept_subject, "prefers", "tea", task_id=task))
    plain = created(alice, assertion(plain_subject, "lives_in", "Berlin"))
    pinned = created(alice, assertion(pinned_subject, "works_at", "Acme"))
    kept_id, plain_id, pinned_id = (x["assertion"]["id"] for x in (kept, plain, pinned))
    assert end(alice, task)["promoted"] == [kept_id]
    pin = alice.post(f"/v1/assertions/{pinned_id}/pin")
    assert pin.status_code == 200 and pin.json()["changed"] is True
    assert facts(alice, plain_subject, "lives_in")["status"] == "answered"

    today = sleep(admin)
    assert today["counts"] == dict.fromkeys(
        ("tasks", "promoted", "discarded", "dormant", "woken", "restored", "procedures"), 0
    )

    clock.shift(days=200)
    later = sleep(admin)
    assert set(later["dormant"]) == {kept_id, plain_id}  # the pinned fact never sleeps
    assert later["counts"]["dormant"] == 2 and later["woken"] == []
    assert facts(alice, kept_subject, "prefers")["status"] == "not_found"
    assert facts(alice, plain_subject, "lives_in")["status"] == "not_found"
    assert facts(alice, pinned_subject, "works_at")["status"] == "answered"
    recall = alice.post("/v1/recall", {"query": "tea", "filters": {"subject": kept_subject}})
    assert recall.json()["results"] == []
    # reachable explicitly, and that read is counted: it wakes the fact at the next sleep
    asleep = facts(alice, kept_subject, "prefers", tier="dormant")
    assert [(f["id"], f["tier"]) for f in asleep["facts"]] == [(kept_id, "dormant")]
    woken = sleep(admin)
    assert woken["woken"] == [kept_id] and woken["dormant"] == []
    assert facts(alice, kept_subject, "prefers")["facts"][0]["tier"] == "long"
    assert facts(alice, plain_subject, "lives_in")["status"] == "not_found"
    [version] = history(alice, kept_subject, "prefers")
    assert [(t["from"], t["to"], t["rule"]) for t in version["transitions"]] == [
        ("short", "long", "verified"),
        ("long", "dormant", "dormant"),
        ("dormant", "long", "woken"),
    ]
    [pinned_version] = history(alice, pinned_subject, "works_at")
    assert [(t["change"], t["to"]) for t in pinned_version["transitions"]] == [("pin", "pinned")]

    # it was just read (after the 200 days), so unpinned it stays awake until 180 days more
    # pass without a read
    assert alice.post(f"/v1/assertions/{pinned_id}/unpin").json()["changed"] is True
    assert sleep(admin)["dormant"] == []
    clock.shift(days=181)
    assert set(sleep(admin)["dormant"]) == {pinned_id, kept_id}
    assert tier_changes(driver, [plain_id])[plain_id] == ["dormant"]


def test_ephemeral_outside_a_task_expires_at_the_first_sleep_after_a_day(
    apis: dict[str, Api], quiet: None, clock: ShiftedClock
) -> None:
    alice, admin = apis["alice"], apis["admin"]
    store = new("store")
    written = created(
        alice,
        assertion(store, "stock_level", 42, source_kind="tool_returned", confidence=0.99),
    )
    stock_id = written["assertion"]["id"]
    assert written["assertion"]["tier"] == "short" and written["working_memory"] is None
    assert facts(alice, store, "stock_level")["facts"][0]["tier"] == "short"
    assert sleep(admin)["discarded"] == []
    clock.shift(hours=23)
    assert sleep(admin)["discarded"] == []
    clock.shift(hours=2)
    assert sleep(admin)["discarded"] == [stock_id]
    assert facts(alice, store, "stock_level")["status"] == "not_found"
    [version] = history(alice, store, "stock_level")
    assert version["tier"] == "discarded"
    assert [t["rule"] for t in version["transitions"]] == ["ephemeral_expired"]


def test_a_dry_run_previews_any_now_and_writes_nothing(
    apis: dict[str, Api], quiet: None, driver: Driver
) -> None:
    alice, admin = apis["alice"], apis["admin"]
    subject = new("user")
    fact_id = created(alice, assertion(subject, "lives_in", "Oslo"))["assertion"]["id"]
    future = (utcnow().replace(microsecond=0)).replace(year=utcnow().year + 1).isoformat()
    preview = sleep(admin, now=future, dry_run=True)
    assert preview["dry_run"] is True and preview["run_id"] is None
    assert preview["dormant"] == [fact_id]
    assert tier_changes(driver, [fact_id])[fact_id] == []
    assert facts(alice, subject, "lives_in")["status"] == "answered"
    records, _, _ = driver.execute_query("MATCH (l:SleepLock) RETURN count(l) AS n")
    assert records[0]["n"] == 0  # a dry run takes no lock


def test_ending_and_sleeping_only_add_transitions(
    apis: dict[str, Api], quiet: None, clock: ShiftedClock, driver: Driver
) -> None:
    """Append-only: consolidation and sleep change no assertion, evidence or event; they add
    TierChange nodes and their CHANGES relationships (the Task and the sleep lock are
    bookkeeping, docs/semantics.md)."""
    alice = apis["alice"]
    task = new("task")
    subject = new("user")
    created(alice, assertion(subject, "likes", "tea", task_id=task))
    created(alice, assertion(subject, "likes", "guess", task_id=task, confidence=0.3))
    created(alice, assertion(new("user"), "lives_in", "Lima"))
    before = snapshot(driver)
    end(alice, task)
    clock.shift(days=200)
    sleep(apis["admin"])
    after = snapshot(driver)
    bookkeeping = {"Task", "SleepLock", "Slot"}
    for node_id, (labels, props) in before["nodes"].items():
        if not bookkeeping & set(labels):
            assert after["nodes"][node_id] == (labels, props), labels
    added = {i: n for i, n in after["nodes"].items() if i not in before["nodes"]}
    assert {tuple(labels) for labels, _ in added.values()} <= {("TierChange",), ("SleepLock",)}
    assert sum(labels == ["TierChange"] for labels, _ in added.values()) == 4
    new_edges = set(after["edges"]) - set(before["edges"])
    assert set(before["edges"]) <= set(after["edges"])
    assert {t for _, t, _ in new_edges} == {"CHANGES"}


def test_a_remnant_keeps_the_tier_and_pin_its_source_has_when_it_is_cut(
    apis: dict[str, Api], driver: Driver
) -> None:
    """A later write that cuts into a promoted working version leaves remnants: they are
    long-term like their source (not working memory of the ended task), and pinned if it is."""
    alice = apis["alice"]
    task, subject = new("task"), new("user")

    def lives(city: str, start: str, **extra: Any) -> dict[str, Any]:
        return assertion(subject, "lives_in", city, valid_from=start, **extra)

    source = created(alice, lives("Oslo", "2025-01-01T00:00:00Z", task_id=task))["assertion"]
    created(alice, lives("Rome", "2025-06-01T00:00:00Z"))  # closes Oslo at June
    assert end(alice, task)["promoted"] == [source["id"]]
    assert alice.post(f"/v1/assertions/{source['id']}/pin").json()["changed"] is True
    # March to April in Bergen: Oslo is superseded, its parts outside are remnants
    created(alice, lives("Bergen", "2025-03-01T00:00:00Z", valid_to="2025-04-01T00:00:00Z"))
    versions = history(alice, subject, "lives_in")
    remnants = [v for v in versions if v["remnant_of"] == source["id"]]
    assert len(remnants) == 2
    assert {v["tier"] for v in remnants} == {"long"}
    assert all(
        [(t["change"], t["to"]) for t in v["transitions"]] == [("pin", "pinned")] for v in remnants
    )
    card = alice.get(f"/v1/tasks/{task}").json()
    assert card["counts"] == {"short": 0, "long": 3, "discarded": 0, "dormant": 0}
    march = facts(alice, subject, "lives_in", as_of="2025-02-01T00:00:00Z")
    assert [(f["object"], f["tier"]) for f in march["facts"]] == [("Oslo", "long")]
