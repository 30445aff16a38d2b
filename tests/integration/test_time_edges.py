"""Edges of valid time a new user's trial found (time travel over the ledger).

- A back-dated retraction naming the value that held then was refused when a later value of
  another spelling existed: the check read it as open-ended, though the write ends it at the
  next version's start (docs/semantics.md, *Slots and versions*).
- A future-dated version reported the version still governing now as ``superseded``.
- A retraction of a many-valued value in another case ("not Jazz" after "jazz") answered 201,
  closed nothing and withdrew nothing.
- "Jazz", "jazz", "jazz" at one valid time left two current "jazz", and four writers of four
  spellings at once up to four: one current version per value, in any case and spacing.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.helpers import Api, assertion

pytestmark = pytest.mark.integration

Y23, JUL23, Y24, Y30 = (
    "2023-01-01T00:00:00Z",
    "2023-07-01T00:00:00Z",
    "2024-01-01T00:00:00Z",
    "2030-01-01T00:00:00Z",
)


def _objects(api: Api, subject: str, predicate: str, **params: str) -> list[str | None]:
    body = api.get("/v1/facts", subject=subject, predicate=predicate, **params).json()
    return [f["object"] for f in body["facts"]]


def test_a_back_dated_retraction_of_the_value_then_is_written_up_to_the_next_value(
    api: dict[str, Api], subject: str
) -> None:
    alice = api["alice"]
    for city, start in (("Berlin", Y23), ("Munich", Y24)):
        body = assertion(subject, "lives_in", city, valid_from=start)
        assert alice.post("/v1/assertions", body).status_code == 201
    left = assertion(subject, "lives_in", "Berlin", polarity=False, valid_from=JUL23)
    written = alice.post("/v1/assertions", left)
    assert written.status_code == 201, written.text
    assert written.json()["assertion"]["valid_to"].startswith("2024-01-01")
    assert _objects(alice, subject, "lives_in", as_of="2023-03-01T00:00:00Z") == ["Berlin"]
    assert _objects(alice, subject, "lives_in", as_of="2023-08-01T00:00:00Z") == []
    assert _objects(alice, subject, "lives_in") == ["Munich"]
    # over Munich's time it still names another value than the one holding: refused
    over = assertion(
        subject, "lives_in", "Berlin", polarity=False, valid_from="2024-06-01T00:00:00Z"
    )
    assert alice.post("/v1/assertions", over).status_code == 409


def test_a_future_version_supersedes_nothing_now(api: dict[str, Api], subject: str) -> None:
    alice = api["alice"]
    rome = alice.post("/v1/assertions", assertion(subject, "lives_in", "Rome", valid_from=Y24))
    rome_id = rome.json()["assertion"]["id"]
    milan = alice.post("/v1/assertions", assertion(subject, "lives_in", "Milan", valid_from=Y30))
    assert milan.status_code == 201, milan.text
    assert milan.json()["superseded"] is None
    assert milan.json()["closed"] == [rome_id]
    assert _objects(alice, subject, "lives_in") == ["Rome"]
    # a version that governs now in Rome's place reports it
    oslo = alice.post("/v1/assertions", assertion(subject, "lives_in", "Oslo"))
    assert oslo.json()["superseded"] == rome_id


@pytest.mark.parametrize("spelling", ["Jazz", "JAZZ", " jazz "])
def test_a_many_valued_retraction_in_another_spelling_withdraws_the_value(
    api: dict[str, Api], subject: str, spelling: str
) -> None:
    alice = api["alice"]
    liked = alice.post("/v1/assertions", assertion(subject, "likes", "jazz", valid_from=Y23))
    liked_id = liked.json()["assertion"]["id"]
    body = assertion(subject, "likes", spelling, polarity=False, valid_from=JUL23)
    withdrawn = alice.post("/v1/assertions", body)
    assert withdrawn.status_code == 201, withdrawn.text
    assert withdrawn.json()["closed"] == [liked_id]
    assert _objects(alice, subject, "likes") == []
    assert _objects(alice, subject, "likes", as_of="2023-03-01T00:00:00Z") == ["jazz"]
    # another value is another slot still
    other = alice.post("/v1/assertions", assertion(subject, "likes", "jazz funk"))
    assert other.json()["closed"] == []


@pytest.mark.parametrize(
    "spellings",
    [["Jazz", "jazz", "jazz"], ["Jazz", "jazz", "JAZZ"], ["jazz", "Jazz", "JAZZ", " jazz"]],
)
def test_a_value_restated_in_any_spelling_keeps_one_current_version(
    api: dict[str, Api], subject: str, spellings: list[str]
) -> None:
    alice = api["alice"]
    for spelling in spellings:
        written = alice.post(
            "/v1/assertions", assertion(subject, "likes", spelling, valid_from=Y23)
        )
        assert written.status_code == 201, written.text
    assert _objects(alice, subject, "likes") == [spellings[-1]]
    assert _objects(alice, subject, "likes", known_at=Y30) == [spellings[-1]]
    withdrawn = alice.post(
        "/v1/assertions", assertion(subject, "likes", "JAZZ", polarity=False, valid_from=JUL23)
    )
    assert withdrawn.status_code == 201, withdrawn.text
    assert _objects(alice, subject, "likes") == []


def test_one_value_in_two_spellings_in_one_batch_is_one_slot(
    api: dict[str, Api], subject: str
) -> None:
    alice = api["alice"]
    batch = [assertion(subject, "likes", v, valid_from=Y23) for v in ("Jazz", "jazz ")]
    written = alice.post("/v1/assertions", {"assertions": batch})
    assert written.status_code == 201, written.text
    assert _objects(alice, subject, "likes") == ["jazz "]


def test_writers_of_one_value_in_several_spellings_at_once_leave_one_current_version(
    api: dict[str, Api], subject: str
) -> None:
    alice = api["alice"]
    spellings = ["Jazz", "jazz", "JAZZ", "jAzz", " jazz", "JaZz"]
    for round_ in range(4):
        about = f"{subject}-{round_}"

        def write(spelling: str, about: str = about) -> int:
            body = assertion(about, "likes", spelling, valid_from=Y23)
            return alice.post("/v1/assertions", body).status_code

        with ThreadPoolExecutor(max_workers=len(spellings)) as pool:
            assert set(pool.map(write, spellings)) == {201}
        current = _objects(alice, about, "likes")
        assert len(current) == 1, (round_, current)


def test_an_admin_cannot_probe_a_group_it_cannot_read_by_writing_into_it(
    api: dict[str, Api], subject: str
) -> None:
    """A red-team trial: an admin wrote into a group's slot (admins could write into any group)
    with a guessed value and a precondition; which item of the refused batch was named told
    whether the hidden value was the guess. An admin writes into its own groups only now: the
    guess is refused before any slot is read, the same for the right and the wrong value."""
    alice, admin = api["alice"], api["admin"]
    hidden = assertion(subject, "allergic_to", "penicillin", access=["finance"])
    assert alice.post("/v1/assertions", hidden).status_code == 201
    answers = []
    for guess in ("penicillin", "peanuts"):
        probe = assertion(subject, "allergic_to", guess, access=["finance"], expected_current=None)
        refused = admin.post("/v1/assertions", probe)
        assert refused.status_code == 422, refused.text
        error = refused.json()["error"]
        answers.append((error["code"], error["details"]["rejections"][0]["reason"]))
    assert answers[0] == answers[1] == ("rejected", "access_not_allowed")
    history = alice.get("/v1/facts/history", subject=subject, predicate="allergic_to").json()
    assert [v["object"] for v in history["versions"]] == ["penicillin"]
