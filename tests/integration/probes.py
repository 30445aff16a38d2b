"""Shared machinery of the adversarial probe suite: secrets, controls and leak checks."""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.helpers import Api, assertion

GROUP = {
    "alice": "finance",
    "bob": "sales",
    "dave": "hr",
    "erin": "legal",
    "frank": "eng",
    "grace": "ops",
}
# (owner, prober): the prober shares no group with the owner's secret
PAIRS = [
    ("alice", "bob"),
    ("bob", "alice"),
    ("dave", "erin"),
    ("frank", "grace"),
    ("erin", "public"),
    ("grace", "dave"),
]

# attacks made, leaks found, and what statistical probes measured (printed with the counts)
RESULTS: dict[str, list[str]] = {"attacks": [], "leaks": [], "measures": []}

_VOLATILE = re.compile(
    r'"(as_of|known_at|subject|id|task_id|recorded_at|valid_from|valid_to|superseded_at|superseded|closed|quarantine_ids|observation_id|event_id|request_id)":'
    r'\s*("[^"]*"|\[[^\]]*\])'
)


@dataclass
class Secret:
    owner: str
    prober: str
    subject: str
    control: str
    token: str
    ids: list[str] = field(default_factory=list)


def plant(api: dict[str, Api], owner: str, prober: str) -> Secret:
    token = f"SECRET{uuid.uuid4().hex[:10]}"
    secret = Secret(
        owner, prober, f"probe:{uuid.uuid4().hex[:10]}", f"probe:{uuid.uuid4().hex[:10]}", token
    )
    access = [GROUP[owner]]
    bodies = [
        assertion(
            secret.subject,
            "tech_stack",
            f"{token}-old",
            access=access,
            valid_from="2026-01-01T00:00:00Z",
            confidence=0.7,
            evidence={"quote": f"we used {token}-old"},
        ),
        assertion(
            secret.subject,
            "tech_stack",
            token,
            access=access,
            valid_from="2026-06-01T00:00:00Z",
            confidence=0.95,
            evidence={"quote": f"we use {token} now"},
        ),
        assertion(
            secret.subject, "uses", token, access=access, evidence={"quote": f"uses {token}"}
        ),
        assertion(
            secret.subject,
            "lives_in",
            token,
            access=access,
            task_id="probe-task",
            evidence={"quote": f"lives in {token}"},
        ),
    ]
    response = api[owner].post("/v1/assertions", {"assertions": bodies})
    assert response.status_code == 201, response.text
    secret.ids = [r["assertion"]["id"] for r in response.json()["results"]]
    return secret


_UNMENTIONED = re.compile(r'"unmentioned":\s*(\[[^\]]*\])')


def without_echo(text: str) -> str:
    """Recall's ``unmentioned`` echoes words of the prober's own query (the token it asked
    about, which differs from the control's): kept as the number of words, so that a hidden
    mention that made a word "mentioned" still shows, and the words themselves left out."""
    return _UNMENTIONED.sub(lambda m: f'"unmentioned": {len(json.loads(m.group(1)))}', text)


def normalise(
    response: httpx.Response, secret: Secret, volatile: tuple[str, ...] = ()
) -> tuple[int, str]:
    """The response with the probed subjects and the volatile fields (plus ``volatile``, more
    keys whose values differ between two equally empty answers) blanked out, and recall's
    echo of the query (:func:`without_echo`) counted."""
    text = without_echo(response.text)
    text = text.replace(secret.subject, "<S>").replace(secret.control, "<S>")
    text = _VOLATILE.sub(r'"\1": <v>', text)
    for key in volatile:
        text = re.sub(rf'"{key}":\s*("[^"]*"|null)', f'"{key}": <v>', text)
    return response.status_code, text


def check(
    name: str,
    secret: Secret,
    probe: httpx.Response,
    control: httpx.Response,
    supplied: tuple[str, ...] = (),
    volatile: tuple[str, ...] = (),
) -> None:
    """The probe must look exactly like the control and carry no byte of the secret.

    ``supplied`` are hidden ids the prober itself sent (an echo of them reveals nothing);
    ``volatile`` are more keys whose values may differ (times of two different tasks)."""
    label = f"{name}[{secret.owner}->{secret.prober}]"
    RESULTS["attacks"].append(label)
    problems = []
    if secret.token in without_echo(probe.text):
        problems.append("secret value in the response")
    if any(i in probe.text for i in secret.ids if i not in supplied):
        problems.append("hidden id in the response")
    if normalise(probe, secret, volatile) != normalise(control, secret, volatile):
        problems.append(
            f"differs from control: {probe.status_code} {probe.text[:300]!r} vs "
            f"{control.status_code} {control.text[:300]!r}"
        )
    if problems:
        RESULTS["leaks"].append(f"{label}: {'; '.join(problems)}")
    assert not problems, problems


def pair_ids() -> list[str]:
    return [f"{o}->{p}" for o, p in PAIRS]


def both(
    api: Api, secret: Secret, method: str, path: str, **kw: Any
) -> tuple[httpx.Response, httpx.Response]:
    """The same request about the secret subject and about a subject that never existed."""

    def run(subject: str) -> httpx.Response:
        def fill(value: Any) -> Any:
            if isinstance(value, str):
                return value.replace("{S}", subject)
            if isinstance(value, dict):
                return {k: fill(v) for k, v in value.items()}
            if isinstance(value, list):
                return [fill(v) for v in value]
            return value

        filled = {k: fill(v) for k, v in kw.items()}
        return api.client.request(method, fill(path), **filled)

    return run(secret.subject), run(secret.control)


def plant_derived(
    api: dict[str, Api], secret: Secret, predicate: str = "works_at", obj: str | None = None
) -> str:
    """The owner's restricted observation, and a fact derived from it written with no access
    of its own (so readable only by readers of the observation, ``access_all``); its object is
    ``obj``, else the secret token. Returns the derived fact's id, added to the secret's
    hidden ids."""
    text = f"We moved everything to {secret.token} last spring."
    observation = api[secret.owner].post(
        "/v1/observations",
        {
            "text": text,
            "speaker": secret.subject,
            "occurred_at": "2026-06-01T09:00:00Z",
            "source_kind": "user_stated",
            "access": [GROUP[secret.owner]],
            "conversation_id": f"derived-{uuid.uuid4().hex[:8]}",
        },
    )
    assert observation.status_code == 201, observation.text
    observation_id = observation.json()["observation_id"]
    derived = api[secret.owner].post(
        "/v1/assertions",
        assertion(
            secret.subject,
            predicate,
            secret.token if obj is None else obj,
            access=[],
            valid_from="2026-06-01T09:00:00Z",
            evidence={"quote": secret.token, "observation_id": observation_id},
        ),
    )
    assert derived.status_code == 201, derived.text
    fact_id = str(derived.json()["assertion"]["id"])
    secret.ids.extend([observation_id, fact_id])
    return fact_id


def plant_in_hidden_task(api: dict[str, Api], owner: str, prober: str) -> tuple[Secret, str]:
    """A public fact written by a hidden step of the owner's hidden task (its card: the owner's
    group only), about the secret's subject; the control subject gets the same fact from a
    hidden step of another hidden task of the owner. The fact is public, the tasks are not:
    their ids are the secret's hidden ids, their goal its token. Returns the secret and the
    probed task's id."""
    token = f"SECRET{uuid.uuid4().hex[:10]}"
    secret = Secret(
        owner, prober, f"probe:{uuid.uuid4().hex[:10]}", f"probe:{uuid.uuid4().hex[:10]}", token
    )
    access = [GROUP[owner]]
    tasks = [f"ptask:{uuid.uuid4().hex[:10]}" for _ in range(2)]
    for task, subject in zip(tasks, (secret.subject, secret.control), strict=True):
        started = api[owner].post("/v1/tasks", {"task_id": task, "goal": token, "access": access})
        assert started.status_code == 201, started.text
        step = {
            "task_id": task,
            "actor": "agent:probe",
            "action": "inspect",
            "outcome": "success",
            "occurred_at": "2020-06-01T09:00:00Z",
            "before": {},
            "after": {},
            "root": True,
            "access": access,
            "assertions": [
                assertion(subject, "tech_stack", "Vim", source_kind="tool_returned", access=[])
            ],
        }
        written = api[owner].post("/v1/events", step)
        assert written.status_code == 201, written.text
    secret.ids.extend(tasks)
    return secret, tasks[0]
