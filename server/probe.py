"""The store probe behind ``/healthz`` and ``/readyz``: an answer within ``probe_timeout``.

The probe runs :func:`graph_schema.schema.migrations.health` on a driver of its own, whose
connection and acquisition timeouts are the probe's bound and which never retries
(``open_driver(settings, probe=True)``). On top of that, the wait itself is bounded: a store
that accepted the connection long ago and stopped answering mid-query is reported as
``timeout`` when the bound passes, whatever the socket does. One probe runs at a time; callers
that arrive while it runs wait for the same one, so a flood of probes against a hanging store
does not pile up threads.
"""

from __future__ import annotations

import asyncio

from neo4j import Driver
from neo4j.exceptions import (
    ConnectionAcquisitionTimeoutError,
    DriverError,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
)

from graph_schema.schema.migrations import health, store_down
from graph_schema.schema.types import Health


class StoreProbe:
    def __init__(self, driver: Driver, *, database: str, timeout: float) -> None:
        self.driver, self.database, self.timeout = driver, database, timeout
        self._running: asyncio.Future[Health] | None = None

    def _ping(self) -> Health:
        try:
            return health(self.driver, database=self.database)
        except (ServiceUnavailable, SessionExpired):
            return store_down("unreachable")
        except ConnectionAcquisitionTimeoutError:  # a socket that accepts and never answers
            return store_down("timeout")
        except (DriverError, Neo4jError):
            # refused credentials, a database that is offline
            return store_down("error")

    async def check(self) -> Health:
        """The store's state, known within ``timeout`` seconds."""
        if self._running is None or self._running.done():
            self._running = asyncio.ensure_future(asyncio.to_thread(self._ping))
        try:
            return await asyncio.wait_for(asyncio.shield(self._running), self.timeout)
        except TimeoutError:
            return store_down("timeout")
