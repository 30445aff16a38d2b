"""Bulk ingest: JSONL and LoCoMo readers, and a resumable loader that posts over HTTP.

Every observation carries an idempotency key (LoCoMo: ``{sample_id}:{dia_id}``; a JSONL line
without one gets a key derived from its content), so re-sending is always safe: the server
replays instead of writing twice. A local progress file of finished keys lets a re-run skip
what is done without even asking the server.

The loader posts through the Python client (``tractatus_client``), which retries a batch on
connection errors, 429, 502, 503 and 504 with backoff. When the client gives up, the loader
keeps waiting for the server, with a longer backoff, for up to ``patience`` seconds
(``tractatus ingest --wait``), and says on its log what it waits for (the error, its request
id, the next attempt); a batch that still fails then is counted as ``failed``, nothing more
is sent (the rest is counted as ``not_sent``: each batch would wait as long again), and the
next run sends both.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tenacity import (
    RetryCallState,
    Retrying,
    retry_if_exception_type,
    stop_after_delay,
    wait_exponential,
)
from tractatus_client import Forbidden, Tractatus, Unauthenticated
from tractatus_client import TractatusError as ClientError
from tractatus_client.errors import ConnectionFailed, RateLimited, ServerError
from tractatus_client.models import ObservationAccepted, ObservationItem

from graph_schema.core.errors import TractatusError

FORMATS = ("jsonl", "locomo")
LOCOMO_TIME = "%I:%M %p on %d %B, %Y"
_SESSION = re.compile(r"^session_(\d+)$")
# observations per request: one write transaction each; 128 measured ~+0.05 of the ingest
# ratio over 64 (fewer commits), 256 no better (bench/README-ingest.md)
DEFAULT_BATCH = 128
# how long the loader keeps waiting for an unavailable server, after the client's own retries
DEFAULT_PATIENCE = 300.0
TRANSIENT = (ConnectionFailed, RateLimited, ServerError)

log = logging.getLogger("tractatus.ingest")


class BulkInputError(TractatusError):
    code = "bulk_input_invalid"


class BulkAborted(TractatusError):
    code = "bulk_aborted"


class KeyRefused(BulkAborted):
    """401 or 403: the key is wrong, revoked or may not write; running again cannot help."""

    code = "bulk_key_refused"


# --- readers --------------------------------------------------------------------------------


def detect_format(path: Path) -> str:
    return "jsonl" if path.suffix.lower() in (".jsonl", ".ndjson") else "locomo"


def content_key(item: dict[str, Any]) -> str:
    canonical = json.dumps(item, ensure_ascii=False, sort_keys=True)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:40]


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """One observation body per line; blank lines skipped; a missing key is derived."""
    items: list[dict[str, Any]] = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as error:
                raise BulkInputError(f"{path}:{number}: not JSON ({error.msg})") from error
            if not isinstance(item, dict):
                raise BulkInputError(f"{path}:{number}: not a JSON object")
            if not item.get("occurred_at"):
                # a line's key is kept across runs; a time stamped at sending would differ on
                # the run that resumes, and the server would refuse the line (409)
                raise BulkInputError(
                    f"{path}:{number}: occurred_at is required (when it was said, RFC 3339 with"
                    " an offset): a line is sent again when a run resumes, with the same time"
                )
            if not item.get("idempotency_key"):
                item["idempotency_key"] = content_key(item)
            items.append(item)
    return items


def parse_locomo_time(text: str) -> datetime:
    """``"1:56 pm on 8 May, 2023"`` -> 2023-05-08T13:56:00+00:00 (taken as UTC)."""
    try:
        parsed = datetime.strptime(text.strip(), LOCOMO_TIME)
    except ValueError as error:
        raise BulkInputError(f"not a LoCoMo session time: {text!r}") from error
    return parsed.replace(tzinfo=UTC)


def _sessions(conversation: dict[str, Any]) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    numbered = sorted((int(m.group(1)), key) for key in conversation if (m := _SESSION.match(key)))
    for _, key in numbered:
        turns = conversation[key]
        if isinstance(turns, list):
            yield conversation[f"{key}_date_time"], turns


def _turn_text(turn: dict[str, Any]) -> str:
    text = str(turn.get("text") or "").strip()
    caption = str(turn.get("blip_caption") or "").strip()
    if caption:
        text = f"{text} [image: {caption}]".strip()
    return text


def locomo_observations(
    samples: list[dict[str, Any]], *, only: Iterable[str] | None = None
) -> list[dict[str, Any]]:
    wanted = set(only) if only is not None else None
    items: list[dict[str, Any]] = []
    for sample in samples:
        sample_id = str(sample["sample_id"])
        if wanted is not None and sample_id not in wanted:
            continue
        for when, turns in _sessions(sample["conversation"]):
            start = parse_locomo_time(when)
            for index, turn in enumerate(turns):
                text = _turn_text(turn)
                if not text:
                    continue
                items.append(
                    {
                        "text": text,
                        "speaker": str(turn["speaker"]),
                        "occurred_at": (start + timedelta(seconds=index)).isoformat(),
                        "source_kind": "user_stated",
                        "idempotency_key": f"{sample_id}:{turn['dia_id']}",
                        "conversation_id": sample_id,
                        "kind": "chat_turn",
                    }
                )
    return items


def read_locomo(path: Path, *, only: Iterable[str] | None = None) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        samples = json.load(handle)
    if not isinstance(samples, list):
        raise BulkInputError(f"{path}: a LoCoMo file is a JSON list of samples")
    return locomo_observations(samples, only=only)


def read_observations(
    path: Path, fmt: str | None = None, *, only: Iterable[str] | None = None
) -> list[dict[str, Any]]:
    fmt = fmt or detect_format(path)
    if fmt == "jsonl":
        return read_jsonl(path)
    if fmt == "locomo":
        return read_locomo(path, only=only)
    raise BulkInputError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")


# --- progress ---------------------------------------------------------------------------------


def default_progress_path(source: Path, url: str, key: str, *, cache: Path) -> Path:
    """One progress file per (input file, server, caller), under the user's cache directory
    ``cache`` (the command line passes ``$XDG_CACHE_HOME``, else ``~/.cache``)."""
    digest = hashlib.sha256(
        "\x1f".join([str(source.resolve()), url.rstrip("/"), key]).encode("utf-8")
    ).hexdigest()[:16]
    return cache / "tractatus" / "ingest" / f"{source.name}.{digest}.done"


class Progress:
    """Append-only file of finished idempotency keys, one per line, flushed per batch."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.done: set[str] = set()
        if path is not None and path.exists():
            self.done = {line for line in path.read_text("utf-8").splitlines() if line}

    def record(self, keys: list[str]) -> None:
        self.done.update(keys)
        if self.path is None or not keys:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write("".join(f"{k}\n" for k in keys))
            handle.flush()
            os.fsync(handle.fileno())


# --- the loader -------------------------------------------------------------------------------


@dataclass
class Summary:
    total: int = 0
    skipped: int = 0
    created: int = 0
    replayed: int = 0
    rejected: int = 0
    failed: int = 0
    not_sent: int = 0
    assertions: int = 0
    quarantined_drafts: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def observations_per_second(self) -> float:
        return (self.created + self.replayed) / self.seconds if self.seconds else 0.0


@dataclass(frozen=True)
class _BatchResult:
    done: list[str]
    results: list[ObservationItem]
    failed: int


def _say_waiting(state: RetryCallState) -> None:
    outcome = state.outcome
    error = outcome.exception() if outcome is not None else None
    pause = state.next_action.sleep if state.next_action is not None else 0.0
    log.warning("waiting for the server: %s; next try in %.0f s", error, pause)


def _post(client: Tractatus, batch: list[dict[str, Any]], patience: float) -> _BatchResult:
    """One batch through the client (which retries it), then again with a longer backoff for
    up to ``patience`` seconds; what still fails is sent by the next run."""
    retrying = Retrying(
        stop=stop_after_delay(patience),
        wait=wait_exponential(multiplier=2, min=2, max=60),
        retry=retry_if_exception_type(TRANSIENT),
        before_sleep=_say_waiting,
        reraise=True,
    )

    def send() -> list[ObservationItem]:
        return client.observe(batch)

    try:
        results = retrying(send)
    except (Unauthenticated, Forbidden) as error:
        raise KeyRefused(
            f"the server refused the key: HTTP {error.status}: give another key (--key or"
            " TRACTATUS_API_KEY); running again with this one cannot help"
        ) from error
    except TRANSIENT as error:
        log.error("gave up on a batch of %d after %.0f s: %s", len(batch), patience, error)
        return _BatchResult([], [], len(batch))
    except ClientError as error:
        raise BulkAborted(f"unexpected HTTP {error.status}: {error.message[:300]}") from error
    done = [
        item["idempotency_key"]
        for item, result in zip(batch, results, strict=True)
        if isinstance(result, ObservationAccepted)
    ]
    return _BatchResult(done, results, 0)


def _tally(summary: Summary, outcome: _BatchResult) -> None:
    summary.failed += outcome.failed
    for result in outcome.results:
        if not isinstance(result, ObservationAccepted):
            summary.rejected += 1
            continue
        if result.replayed:
            summary.replayed += 1
        else:
            summary.created += 1
        summary.assertions += len(result.assertions)
        summary.quarantined_drafts += len(result.quarantined)


def _batches(items: list[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def load(
    items: list[dict[str, Any]],
    *,
    url: str,
    key: str,
    progress: Progress,
    batch_size: int = DEFAULT_BATCH,
    workers: int = 2,
    retries: int = 4,
    timeout: float = 300.0,
    patience: float = DEFAULT_PATIENCE,
    show_progress: bool = True,
) -> Summary:
    """Post ``items`` in batches with ``workers`` concurrent requests; skip finished keys."""
    from tqdm import tqdm

    todo = [item for item in items if item["idempotency_key"] not in progress.done]
    summary = Summary(total=len(items), skipped=len(items) - len(todo))
    started = time.perf_counter()
    bar = tqdm(total=len(items), initial=summary.skipped, unit="obs", disable=not show_progress)
    with (
        Tractatus(url, key, timeout=timeout, retries=retries) as client,
        ThreadPoolExecutor(max_workers=workers) as pool,
    ):
        pending: set[Future[_BatchResult]] = set()
        try:
            for batch in _batches(todo, batch_size):
                if summary.failed:  # the server stayed away for `patience`: stop sending
                    break
                pending.add(pool.submit(_post, client, batch, patience))
                if len(pending) >= workers * 2:
                    _settle(pending, summary, progress, bar)
            while pending:
                _settle(pending, summary, progress, bar)
        finally:
            for future in pending:
                future.cancel()
            bar.close()
    # every item of a settled batch is counted once: answered (created, replayed, rejected)
    # or given up (failed); the rest was never sent
    settled = summary.created + summary.replayed + summary.rejected + summary.failed
    summary.not_sent = len(todo) - settled
    if summary.not_sent:
        log.error(
            "stopped after a batch was given up: %d observations not sent; run the same"
            " command again to resume (what is done is skipped)",
            summary.not_sent,
        )
    summary.seconds = time.perf_counter() - started
    return summary


def _settle(
    pending: set[Future[_BatchResult]], summary: Summary, progress: Progress, bar: Any
) -> None:
    """Wait for the first batch in flight to finish and count it; once one was given up,
    the batches not started yet are cancelled (they count as not sent)."""
    finished, _ = wait(pending, return_when=FIRST_COMPLETED)
    for future in finished:
        pending.discard(future)
        outcome = future.result()
        progress.record(outcome.done)
        _tally(summary, outcome)
        bar.update(len(outcome.results) + outcome.failed)
    if summary.failed:
        pending.difference_update([f for f in pending if f.cancel()])
