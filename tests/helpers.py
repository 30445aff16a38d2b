"""What tests share and that needs no service to import: the test principals and their keys,
a small HTTP client bound to one principal, a valid assertion body, a node count.

The fixtures that start or use services (Neo4j, the API) are in tests/integration/conftest.py;
``tests.conftest`` re-exports these names for tests written against it.
"""

from __future__ import annotations

import importlib.util
import sys
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import httpx
from neo4j import Driver

if TYPE_CHECKING:
    from server.settings import Settings

KEYS = {
    "alice": "tr_test_alice_000000000000000000000000",
    "bob": "tr_test_bob_00000000000000000000000000",
    "carol": "tr_test_carol_000000000000000000000000",
    "admin": "tr_test_admin_000000000000000000000000",
    "public": "tr_test_public_00000000000000000000000",
    "dave": "tr_test_dave_000000000000000000000000",
    "erin": "tr_test_erin_000000000000000000000000",
    "frank": "tr_test_frank_00000000000000000000000",
    "grace": "tr_test_grace_00000000000000000000000",
}
PRINCIPALS = f"""
[[principal]]
id = "alice"
key = "{KEYS["alice"]}"
groups = ["finance"]

[[principal]]
id = "bob"
key = "{KEYS["bob"]}"
groups = ["sales"]

[[principal]]
id = "carol"
key = "{KEYS["carol"]}"
groups = ["finance", "sales"]

[[principal]]
id = "admin"
key = "{KEYS["admin"]}"
groups = []
role = "admin"

[[principal]]
id = "public"
key = "{KEYS["public"]}"
groups = []

[[principal]]
id = "dave"
key = "{KEYS["dave"]}"
groups = ["hr"]

[[principal]]
id = "erin"
key = "{KEYS["erin"]}"
groups = ["legal"]

[[principal]]
id = "frank"
key = "{KEYS["frank"]}"
groups = ["eng", "eng.platform"]

[[principal]]
id = "grace"
key = "{KEYS["grace"]}"
groups = ["ops"]
"""


class Api:
    """A small HTTP client bound to one principal."""

    def __init__(self, base_url: str, key: str | None) -> None:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        # an idle connection is dropped before the server's keep-alive (uvicorn: 5 s) ends it:
        # at the same 5 s, a request sent as the server closed got "connection reset by peer"
        # (a probe test after a slow fixture)
        limits = httpx.Limits(keepalive_expiry=2.0)
        self.client = httpx.Client(base_url=base_url, headers=headers, timeout=60, limits=limits)

    def post(self, path: str, body: Any = None, **kw: Any) -> httpx.Response:
        return self.client.post(path, json=body, **kw)

    def get(self, path: str, **params: Any) -> httpx.Response:
        return self.client.get(path, params={k: v for k, v in params.items() if v is not None})


def assertion(subject: str, predicate: str, obj: Any, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "subject": subject,
        "predicate": predicate,
        "object": obj,
        "source_kind": "user_stated",
        "asserted_by": subject,
        "confidence": 0.9,
        "evidence": {"quote": f"{predicate} is {obj}"},
    }
    body.update(extra)
    return body


def turn(
    conversation: str,
    n: int,
    speaker: str,
    text: str,
    access: list[str] | None = None,
    source_kind: str = "user_stated",
) -> dict[str, Any]:
    """The observation body of turn ``n`` of a chat (minute ``n`` of one afternoon, keyed
    ``{conversation}:{n}``)."""
    return {
        "text": text,
        "speaker": speaker,
        "source_kind": source_kind,
        "occurred_at": f"2023-05-08T13:{n:02d}:00+00:00",
        "conversation_id": conversation,
        "idempotency_key": f"{conversation}:{n}",
        "access": access or [],
    }


def write_chat(
    api: Api,
    chat: list[tuple[str, str]],
    access: dict[int, list[str]] | None = None,
    kinds: dict[int, str] | None = None,
) -> str:
    """A new conversation of ``chat``'s turns (speaker, text), each written as a new user
    writes (one POST each); ``access`` gives some turns, by number, their groups, ``kinds``
    their source kind (``user_stated`` unless said)."""
    conversation = f"conv-{uuid.uuid4().hex[:8]}"
    for n, (speaker, text) in enumerate(chat):
        kind = (kinds or {}).get(n, "user_stated")
        body = turn(conversation, n, speaker, text, (access or {}).get(n), kind)
        response = api.post("/v1/observations", body)
        assert response.status_code == 201, response.text
    return conversation


def recall_in(api: Api, query: str, conversation: str, k: int = 10) -> dict[str, Any]:
    """The recall answer to ``query`` within one conversation."""
    response = api.post(
        "/v1/recall", {"query": query, "k": k, "filters": {"conversation_id": conversation}}
    )
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def count_nodes(driver: Driver, label: str) -> int:
    records, _, _ = driver.execute_query(f"MATCH (n:{label}) RETURN count(n) AS c")
    return int(records[0]["c"])


def bench_module(name: str) -> ModuleType:
    """A benchmark script as a module (``"locomo/scoring"`` is bench/locomo/scoring.py): the
    scripts put their own folder on sys.path, so they are loaded by file, once."""
    module_name = "bench_" + name.replace("/", "_")
    if module_name in sys.modules:
        return sys.modules[module_name]
    path = Path(__file__).resolve().parents[1] / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(module_name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


@contextmanager
def serving_with(settings: Settings, changes: dict[str, Any], key: str = "bob") -> Iterator[Api]:
    """A second server on the same store with the settings ``changes`` made, and a client for
    principal ``key`` on it. The server's modules are imported here, so that importing this
    module needs no service."""
    from bench.harness import serve_app
    from server.app import create_app

    with serve_app(create_app(settings.model_copy(update=changes))) as url:
        yield Api(url, KEYS[key])


@contextmanager
def serving_without(settings: Settings, steps: Iterable[str], key: str = "bob") -> Iterator[Api]:
    """:func:`serving_with` recall's ``steps`` switched off (``TRACTATUS_RECALL_DISABLE``)."""
    with serving_with(settings, {"recall_disable": frozenset(steps)}, key) as served:
        yield served
