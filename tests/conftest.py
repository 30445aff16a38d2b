"""Root of the test tree: only what needs no service (no Neo4j, no Java, no server).

The fixtures that need Neo4j or the API live in tests/integration/conftest.py; the shared
helpers in tests/helpers.py. The helper names are re-exported here because tests import them
as ``from tests.conftest import Api, assertion, KEYS, count_nodes``; new tests import them
from ``tests.helpers``.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from bench.harness import LocomoMissing, locomo_file
from tests.helpers import KEYS, PRINCIPALS, Api, assertion, count_nodes

__all__ = ["KEYS", "PRINCIPALS", "Api", "assertion", "count_nodes"]


@pytest.fixture
def subject() -> str:
    """A subject no other test uses."""
    return f"test:{uuid.uuid4().hex[:12]}"


@pytest.fixture(scope="session")
def locomo() -> Path:
    """The LoCoMo dev file (outside the repository: ``TRACTATUS_LOCOMO``, else
    ``../shared/data/locomo-dev.json``); the test is skipped, with the reason, without it."""
    try:
        return locomo_file()
    except LocomoMissing as missing:
        pytest.skip(str(missing))
