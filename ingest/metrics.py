"""Prometheus counters of the gate, exported at ``/metrics``."""

from __future__ import annotations

from prometheus_client import Counter

GATE_ACCEPTED = Counter(
    "tractatus_gate_accepted_total", "Items accepted by the validation gate", ["origin"]
)
GATE_QUARANTINED = Counter(
    "tractatus_gate_quarantined_total",
    "Items refused by the validation gate and quarantined",
    ["origin", "reason"],
)

LIFECYCLE_TRANSITIONS = Counter(
    "tractatus_lifecycle_transitions_total",
    "Tier transitions recorded by consolidation and sleep, by rule",
    ["rule"],
)
SLEEP_RUNS = Counter(
    "tractatus_sleep_runs_total",
    "Sleeps run (dry runs included), by outcome: done, dry_run, running, failed",
    ["outcome"],
)
ACCESS_LOG_RECORDED = Counter(
    "tractatus_access_log_reads_total",
    "Assertion reads written to the access log",
)
ACCESS_LOG_DROPPED = Counter(
    "tractatus_access_log_dropped_total",
    "Assertion reads the access log dropped, by reason: queue_full, store_error",
    ["reason"],
)
DISTILL_SECONDS = Counter(
    "tractatus_distill_seconds_total",
    "Time spent distilling observations (the whole distiller call)",
    ["distiller"],
)
DISTILL_PARSE_SECONDS = Counter(
    "tractatus_distill_parse_seconds_total",
    "Time the offline distiller spent parsing and reading English sentences",
)
DISTILL_SENTENCES = Counter(
    "tractatus_distill_sentences_total",
    "Sentences the offline distiller saw, by whether the English parser read them",
    ["parsed"],
)
PASSAGE_TEXTS = Counter(
    "tractatus_passage_texts_embedded_total",
    "Recall passage texts (a turn, and the turn with its context) embedded by writes",
)
