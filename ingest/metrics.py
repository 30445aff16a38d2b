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
