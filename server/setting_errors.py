"""Settings problems said in the operator's terms: the environment variable, not the field.

A new user's trial started ``tractatus serve`` with wrong settings and read pydantic's
tracebacks naming fields (``max_batch``), and a misspelt variable (``TRACTATUS_RATE_LIMT``)
was ignored without a word, leaving rate limiting off.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable, Mapping

from pydantic import AliasChoices, ValidationError

from server.settings import Settings

# TRACTATUS_* variables read by other parts than the server's settings: the client and the MCP
# server, the local runtime and compose, the benchmarks and the tests
OTHER_VARIABLES = frozenset({
    "TRACTATUS_URL", "TRACTATUS_API_KEY", "TRACTATUS_API_PORT", "TRACTATUS_MCP_ACTOR",
    "TRACTATUS_MCP_TOKEN", "TRACTATUS_NEO4J_HOME", "TRACTATUS_NEO4J_BOLT_PORT",
    "TRACTATUS_NEO4J_HTTP_PORT", "TRACTATUS_NEO4J_GUIDE_PORT", "TRACTATUS_NEO4J_HEAP",
    "TRACTATUS_NEO4J_PAGECACHE", "TRACTATUS_NEO4J_START_TIMEOUT", "TRACTATUS_PRINCIPALS_FILE",
    "TRACTATUS_UID", "TRACTATUS_GID", "TRACTATUS_LOCOMO", "TRACTATUS_TEST_WIPE",
})  # fmt: skip
SECRET_FIELDS = frozenset({"neo4j_password", "llm_api_key"})


def variable(field: str) -> str:
    """The environment variable that sets a field of :class:`Settings`."""
    info = Settings.model_fields.get(field)
    alias = info.validation_alias if info is not None else None
    if isinstance(alias, str):
        return alias
    if isinstance(alias, AliasChoices):
        return str(alias.choices[0])
    return f"TRACTATUS_{field.upper()}"


def settings_variables() -> set[str]:
    names: set[str] = set()
    for field, info in Settings.model_fields.items():
        alias = info.validation_alias
        if isinstance(alias, AliasChoices):
            names.update(str(c) for c in alias.choices)
        else:
            names.add(variable(field))
    return names


def describe(error: ValidationError) -> list[str]:
    """One line per problem: the variable, pydantic's message, the value sent (never a
    secret's)."""
    lines = []
    for problem in error.errors():
        field = str(problem["loc"][0]) if problem["loc"] else ""
        message = str(problem["msg"]).removeprefix("Value error, ")
        if not field:
            lines.append(message)  # a rule across settings names its variables itself
            continue
        sent = "" if field in SECRET_FIELDS else f" (set to {problem.get('input')!r})"
        lines.append(f"{variable(field)}: {message}{sent}")
    return lines


def unknown(environ: Mapping[str, str] | None = None) -> Iterable[str]:
    """A warning for each TRACTATUS_* variable nothing reads, with the nearest known name."""
    known = settings_variables() | OTHER_VARIABLES
    for name in sorted(environ if environ is not None else os.environ):
        if name.startswith("TRACTATUS_") and name not in known:
            near = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.8)
            hint = f" (did you mean {near[0]}?)" if near else ""
            yield f"{name} is no setting and is ignored{hint}"
