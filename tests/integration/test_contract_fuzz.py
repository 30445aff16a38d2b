"""The HTTP contract, fuzzed: Schemathesis with all its checks against the real server over
HTTP and the real Neo4j, once as an admin and once as a member (docs/api.md, "Fuzzing").

Every operation of the committed OpenAPI document (docs/openapi.json, the one the server
serves: tests/unit/test_openapi.py) gets its examples, coverage and fuzzing phases,
``generation.max-examples`` cases each (``schemathesis.toml``), positive and negative. On top
of Schemathesis's checks (no 5xx, every status and body as declared, schema-valid input
accepted and schema-invalid input refused, 401 without a key, 405 with ``Allow``, ...):

* a refused request (any 4xx) writes nothing to the record: the record's node counts are the
  same before and after it (the quarantine, which the gate writes by design, is not counted);
* a schema-valid write that the gate refuses is ``rejected`` (quarantined with its reason),
  never ``invalid_request``: what the schema allows, the request parser accepts;
* a schema-invalid batch of observations that is answered 200 refuses an item in its result.

The per-operation configuration is in ``schemathesis.toml`` next to this file.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from neo4j import Driver
from schemathesis import Case
from schemathesis.config import SchemathesisConfig
from schemathesis.core.parameters import ParameterLocation
from schemathesis.core.transport import Response

from tests.conftest import KEYS
from tests.integration.probes import RESULTS

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
CONFIG = Path(__file__).with_name("schemathesis.toml")
# the committed document (tests/unit/test_openapi.py: the served one is the same)
DOCUMENT = ROOT / "docs" / "openapi.json"
# the record: what a refused request must not change (Quarantine nodes are not in it)
RECORD = ("Assertion", "Evidence", "Observation", "Event", "Slot", "Task", "Disclosure", "Passage")
COUNT_RECORD = "RETURN " + ", ".join(f"COUNT {{ (:{label}) }} AS {label}" for label in RECORD)
GATE_WRITES = {("POST", "/v1/assertions"), ("POST", "/v1/observations"), ("POST", "/v1/events")}


@pytest.fixture(scope="module", params=["admin", "alice"])
def principal(request: pytest.FixtureRequest) -> str:
    """The caller of one fuzz run: an admin, then a member (alice, of group finance)."""
    return str(request.param)


# requests made per caller, and by status class: the count printed with the probe summary
FUZZED: Counter[str] = Counter()


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    if FUZZED:
        counts = ", ".join(f"{key} {n}" for key, n in sorted(FUZZED.items()))
        RESULTS["measures"].append(f"contract fuzz: {counts}")


schema = schemathesis.openapi.from_path(DOCUMENT, config=SchemathesisConfig.from_path(CONFIG))


def _record(driver: Driver) -> dict[str, int]:
    records, _, _ = driver.execute_query(COUNT_RECORD, routing_="r")
    return dict(records[0])


def _refusal_of_valid_input(case: Case, response: Response) -> None:
    """Schema-valid input may be refused by the gate (422 ``rejected``), never as invalid."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 422:
        return
    if case.method.upper() == "POST" and not isinstance(case.body, dict):
        # the coverage phase varies a header of a write and fills the body with 0, which no
        # write's schema allows (every body is an object), yet labels the case positive
        return
    code = response.json()["error"]["code"]
    assert code == "rejected", f"schema-valid input refused as {code}: {response.text[:500]}"
    assert (case.method.upper(), case.path) in GATE_WRITES


def _batch_refuses_an_item(case: Case, response: Response) -> None:
    """A malformed batch of observations is answered per item: some item must be refused.
    Only a case whose *body* is malformed: a negative case may mutate a header alone (the
    Authorization header, which the fuzz replaces with a valid key), leaving a valid batch."""
    meta = case.meta
    if meta is None or not meta.is_negative_at(ParameterLocation.BODY):
        return
    if response.status_code != 200:
        return
    if (case.method.upper(), case.path) == ("POST", "/v1/observations"):
        statuses = [item["status"] for item in response.json()["results"]]
        assert any(s >= 400 for s in statuses), f"a malformed batch was accepted: {statuses}"


@schema.parametrize()
@settings(
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
def test_the_api_keeps_its_contract(
    case: Case, principal: str, base_url: str, driver: Driver
) -> None:
    auth = {"Authorization": f"Bearer {KEYS[principal]}"}
    before = _record(driver)
    response = case.call(base_url=base_url, headers=auth)
    FUZZED[f"{principal} requests"] += 1
    FUZZED[f"{principal} {response.status_code // 100}xx"] += 1
    if 400 <= response.status_code < 500:
        assert _record(driver) == before, f"a refused request wrote: {response.text[:500]}"
    _refusal_of_valid_input(case, response)
    _batch_refuses_an_item(case, response)
    case.validate_response(response, headers=auth)
