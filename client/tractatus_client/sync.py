"""``Tractatus``: the blocking client. ``AsyncTractatus`` (aio.py) has the same methods."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any, TypeVar, overload

import httpx
from tenacity import Retrying

from tractatus_client import _calls, _http, models
from tractatus_client._calls import UNSET, Call, Time, Unset

T = TypeVar("T")


class Tractatus:
    """A client of one Tractatus server, as one principal (its bearer key).

    ``Tractatus(url, api_key)``; both default to ``$TRACTATUS_URL`` / ``$TRACTATUS_API_KEY``.
    Use it as a context manager (or call :meth:`close`). ``timeout`` is seconds per request
    (or an ``httpx.Timeout``); idempotent calls are retried ``retries`` times on connection
    errors, 429, 502, 503 and 504 (see ``_http.RetryPolicy``). Pass ``http_client`` to bring
    your own ``httpx.Client`` (proxies, certificates, event hooks); it is not closed here.
    """

    def __init__(
        self,
        url: str | None = None,
        api_key: str | None = None,
        *,
        timeout: float | httpx.Timeout = _http.DEFAULT_TIMEOUT,
        retries: int = 3,
        backoff: float = 0.5,
        http_client: httpx.Client | None = None,
    ) -> None:
        self.url, key = _http.from_env(url, api_key)
        self.retry = _http.RetryPolicy(retries=retries, backoff=backoff)
        self._owned = http_client is None
        self._http = http_client or httpx.Client(timeout=timeout)
        self._base = self.url.rstrip("/")
        self._headers = _http.headers(key)

    def __enter__(self) -> Tractatus:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        if self._owned:
            self._http.close()

    def _once(self, call: Call[T], request_id: str) -> T:
        kwargs = _http.request_kwargs(call, request_id)
        kwargs["headers"].update(self._headers)
        try:
            response = self._http.request(call.method, self._base + call.path, **kwargs)
        except httpx.TransportError as error:
            raise _http.connection_failed(error, request_id) from error
        return _http.decode(call, response, request_id)

    def run(self, call: Call[T], *, request_id: str | None = None) -> T:
        """Send one prepared call (with its retries); every method goes through here."""
        rid = request_id or _http.new_request_id()
        result: T = Retrying(**self.retry.tenacity(call))(self._once, call, rid)
        return result

    # --- the ledger ---------------------------------------------------------------------------

    def assert_fact(
        self,
        subject: str,
        predicate: str,
        object: Any,
        *,
        source_kind: str,
        asserted_by: str,
        confidence: float,
        evidence: _calls.Evidence,
        expected_current: str | Unset | None = UNSET,
        valid_from: Time | None = None,
        valid_to: Time | None = None,
        access: Sequence[str] | None = None,
        task_id: str | None = None,
        disclosures: Sequence[Mapping[str, Any]] | None = None,
        idempotency_key: str | None = None,
    ) -> models.WriteResult:
        """Write one version of a fact. ``expected_current``: the id of the version you believe
        governs now, or ``None`` for "nothing does"; a mismatch raises ``PreconditionFailed``
        (with ``.current``) and writes nothing. Left out: no precondition."""
        body = _calls.assertion_body(
            subject,
            predicate,
            object,
            source_kind=source_kind,
            asserted_by=asserted_by,
            confidence=confidence,
            evidence=evidence,
            expected_current=expected_current,
            valid_from=valid_from,
            valid_to=valid_to,
            access=access,
            task_id=task_id,
            disclosures=disclosures,
        )
        return self.run(_calls.assert_one(body, idempotency_key))

    def assert_facts(
        self, bodies: Sequence[Mapping[str, Any]], *, idempotency_key: str | None = None
    ) -> list[models.WriteResult]:
        """Several assertion bodies in one transaction (all or nothing)."""
        return self.run(_calls.assert_many(bodies, idempotency_key))

    def retract(
        self,
        subject: str,
        predicate: str,
        object: Any = None,
        *,
        source_kind: str,
        asserted_by: str,
        confidence: float,
        evidence: _calls.Evidence,
        expected_current: str | Unset | None = UNSET,
        valid_from: Time | None = None,
        valid_to: Time | None = None,
        access: Sequence[str] | None = None,
        task_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> models.WriteResult:
        """Write a retraction (``polarity: false``): from ``valid_from`` on (up to ``valid_to``
        when given, else up to the next version's start), reads of the slot answer
        ``not_found``; the history keeps every version."""
        body = _calls.assertion_body(
            subject,
            predicate,
            object,
            polarity=False,
            source_kind=source_kind,
            asserted_by=asserted_by,
            confidence=confidence,
            evidence=evidence,
            expected_current=expected_current,
            valid_from=valid_from,
            valid_to=valid_to,
            access=access,
            task_id=task_id,
        )
        return self.run(_calls.assert_one(body, idempotency_key))

    def facts(
        self,
        subject: str,
        predicate: str,
        *,
        as_of: Time | None = None,
        known_at: Time | None = None,
        min_confidence: float | None = None,
        tiers: Sequence[str] | None = None,
    ) -> models.Facts:
        """The current fact(s) of a slot, valid at ``as_of`` as known at ``known_at``."""
        return self.run(
            _calls.facts(
                subject,
                predicate,
                as_of=as_of,
                known_at=known_at,
                min_confidence=min_confidence,
                tiers=tiers,
            )
        )

    def history(
        self, subject: str, predicate: str, *, known_at: Time | None = None
    ) -> models.History:
        """Every version of a slot, with its dates, source and SUPERSEDES links."""
        return self.run(_calls.history(subject, predicate, known_at=known_at))

    # --- entities ------------------------------------------------------------------------------

    def entities(
        self,
        q: str,
        *,
        as_of: Time | None = None,
        known_at: Time | None = None,
        limit: int | None = None,
    ) -> models.Entities:
        """Entities whose visible names or aliases contain ``q`` (docs/entities.md)."""
        return self.run(_calls.entities(q, as_of=as_of, known_at=known_at, limit=limit))

    def entity(
        self, entity_id: str, *, as_of: Time | None = None, known_at: Time | None = None
    ) -> models.EntityPage:
        """An entity's page: the visible assertions about it and pointing at it, as of a time,
        merged over visible ``same_as``; :class:`NotFound` when none is visible."""
        return self.run(_calls.entity(entity_id, as_of=as_of, known_at=known_at))

    # --- procedures ----------------------------------------------------------------------------

    def procedures(
        self,
        *,
        trigger: str | None = None,
        action: str | None = None,
        min_support: int | None = None,
        min_success_rate: float | None = None,
        known_at: Time | None = None,
        limit: int | None = None,
    ) -> models.Procedures:
        """The procedures a sleep mined from recurring tasks that the caller may read, most
        supported first; ``not_found`` when none (docs/procedures.md)."""
        return self.run(
            _calls.procedures(
                trigger=trigger,
                action=action,
                min_support=min_support,
                min_success_rate=min_success_rate,
                known_at=known_at,
                limit=limit,
            )
        )

    def procedure(self, procedure_id: str, *, known_at: Time | None = None) -> models.ProcedurePage:
        """One procedure version, current or superseded; :class:`NotFound` when the caller
        may not read it."""
        return self.run(_calls.procedure(procedure_id, known_at=known_at))

    # --- observations and recall --------------------------------------------------------------

    @overload
    def observe(
        self,
        text: str,
        *,
        speaker: str,
        occurred_at: Time | None = ...,
        source_kind: str = ...,
        idempotency_key: str | None = ...,
        access: Sequence[str] | None = ...,
        conversation_id: str | None = ...,
        task_id: str | None = ...,
        kind: str | None = ...,
    ) -> models.ObservationResult: ...

    @overload
    def observe(self, text: Sequence[Mapping[str, Any]]) -> list[models.ObservationItem]: ...

    def observe(
        self,
        text: str | Sequence[Mapping[str, Any]],
        *,
        speaker: str | None = None,
        occurred_at: Time | None = None,
        source_kind: str = "user_stated",
        idempotency_key: str | None = None,
        access: Sequence[str] | None = None,
        conversation_id: str | None = None,
        task_id: str | None = None,
        kind: str | None = None,
    ) -> models.ObservationResult | list[models.ObservationItem]:
        """Raw text, distilled into assertions through the gate. One text (with ``speaker``)
        answers an ``ObservationResult`` (or raises); a list of observation bodies answers one
        ``ObservationItem`` per body, each with its own ``status``; a body left without
        ``source_kind`` or ``occurred_at`` gets the one-text form's defaults (``user_stated``,
        now). An idempotency key is generated for every observation without one, so a retry
        never writes twice; a key of your own needs your own ``occurred_at`` (else
        ``InvalidArgument``: a later call with the key would be refused, not replayed)."""
        if not isinstance(text, str):
            return self.run(_calls.observe_many(text))
        if speaker is None:
            raise TypeError("observe(text, speaker=...) needs the speaker")
        body = _calls.observation_body(
            text,
            speaker=speaker,
            occurred_at=occurred_at,
            source_kind=source_kind,
            idempotency_key=idempotency_key,
            access=access,
            conversation_id=conversation_id,
            task_id=task_id,
            kind=kind,
        )
        return self.run(_calls.observe_one(body))

    def observation(self, observation_id: str, *, context: int = 0) -> models.ObservationContext:
        """One observation and up to ``context`` visible turns either side."""
        return self.run(_calls.observation(observation_id, context=context))

    def recall(
        self,
        query: str,
        *,
        k: int = 10,
        as_of: Time | None = None,
        known_at: Time | None = None,
        filters: Mapping[str, Any] | None = None,
    ) -> models.RecallAnswer:
        """Ranked assertions with evidence, scores and ``why``; ``status`` says whether anything
        relevant was found."""
        return self.run(_calls.recall(query, k=k, as_of=as_of, known_at=known_at, filters=filters))

    def index_passages(
        self,
        *,
        conversation_id: str | None = None,
        max_batches: int = 1,
        batch_size: int | None = None,
    ) -> models.IndexReport:
        """Admin: build recall's search passages for observations that have none."""
        return self.run(
            _calls.index_passages(
                conversation_id=conversation_id, max_batches=max_batches, batch_size=batch_size
            )
        )

    # --- ordered memory -----------------------------------------------------------------------

    def record_event(
        self,
        task_id: str,
        actor: str,
        action: str,
        outcome: str,
        *,
        occurred_at: Time | None = None,
        caused_by: Sequence[str] | None = None,
        root: bool = False,
        before: Mapping[str, Any] | None = None,
        after: Mapping[str, Any] | None = None,
        access: Sequence[str] | None = None,
        goal: str | None = None,
        assertions: Sequence[Mapping[str, Any]] | None = None,
        idempotency_key: str | None = None,
    ) -> models.EventWritten:
        """One step of a task: name its causes (``caused_by``) or declare ``root=True``. An
        ``idempotency_key`` of your own needs your own ``occurred_at`` (else
        ``InvalidArgument``)."""
        body = _calls.event_body(
            task_id,
            actor,
            action,
            outcome,
            occurred_at=occurred_at,
            caused_by=caused_by,
            root=root,
            before=dict(before) if before else None,
            after=dict(after) if after else None,
            access=access,
            goal=goal,
            assertions=assertions,
            idempotency_key=idempotency_key,
        )
        return self.run(_calls.record_event(body, idempotency_key))

    def event(self, event_id: str) -> models.Event:
        return self.run(_calls.event(event_id))

    def chain(
        self, event_id: str, *, direction: str = "causes", max_depth: int | None = None
    ) -> models.ChainAnswer:
        """The causal replay of an event, the event first: its causes back to the root, newest
        first, or (``direction="effects"``) what it led to, oldest first."""
        return self.run(_calls.chain(event_id, direction=direction, max_depth=max_depth))

    def why(
        self,
        subject: str,
        predicate: str,
        *,
        as_of: Time | None = None,
        known_at: Time | None = None,
        max_depth: int | None = None,
    ) -> models.WhyAnswer:
        """The current fact, the event that wrote it and that event's chain to the root."""
        return self.run(
            _calls.why(subject, predicate, as_of=as_of, known_at=known_at, max_depth=max_depth)
        )

    def timeline(
        self, task_id: str, *, limit: int | None = None, owner: str | None = None
    ) -> models.Timeline:
        """Every visible event with this task id, in order (of ``owner``'s task only, if
        given)."""
        return self.run(_calls.timeline(task_id, limit=limit, owner=owner))

    # --- the lifecycle: tasks, pins, sleep ----------------------------------------------------

    def start_task(
        self, task_id: str, *, goal: str | None = None, access: Sequence[str] = ()
    ) -> models.TaskCard:
        """Start the caller's task with a goal and access (a write naming a new task id starts
        one too); starting it again unchanged is a no-op."""
        return self.run(_calls.start_task(task_id, goal=goal, access=access))

    def task(self, task_id: str, *, owner: str | None = None) -> models.TaskCard:
        """The caller's task (or ``owner``'s, if the caller may see it) with its counts."""
        return self.run(_calls.task(task_id, owner=owner))

    def end_task(self, task_id: str, *, owner: str | None = None) -> models.ConsolidationReport:
        """End the task and consolidate its working memory (owner or admin); ending it again
        answers the same report."""
        return self.run(_calls.end_task(task_id, owner=owner))

    def pin(self, assertion_id: str) -> models.PinAnswer:
        """Pin an assertion (its writer or an admin) so that it never falls dormant."""
        return self.run(_calls.pin(assertion_id, pinned=True))

    def unpin(self, assertion_id: str) -> models.PinAnswer:
        return self.run(_calls.pin(assertion_id, pinned=False))

    def sleep(self, *, dry_run: bool, now: Time | None = None) -> models.SleepReport:
        """Admin: consolidate ended tasks, expire, let unused facts fall dormant, wake read
        ones. ``dry_run`` is required: ``True`` previews (at any ``now``) and writes nothing,
        ``False`` runs the sleep."""
        return self.run(_calls.sleep(now=now, dry_run=dry_run))

    # --- ontology, quarantine, health ---------------------------------------------------------

    def ontology(self) -> list[models.Predicate]:
        return self.run(_calls.ontology())

    def register_predicate(self, predicate: Mapping[str, Any]) -> models.Registered:
        """Admin: add a predicate to the ontology (identical again: ``created`` false)."""
        return self.run(_calls.register_predicate(predicate))

    def quarantine(
        self, *, limit: int | None = None, origin: str | None = None
    ) -> list[models.QuarantineItem]:
        """Admin: what the gate refused, newest first."""
        return self.run(_calls.quarantine(limit=limit, origin=origin))

    def health(self) -> models.Health:
        """Liveness: 200 while the server runs; ``neo4j`` is ``up`` or ``down``."""
        return self.run(_calls.health())

    def ready(self) -> models.Health:
        """Readiness: the store answers (else :class:`Unavailable`, retried like any 503)."""
        return self.run(_calls.ready())
