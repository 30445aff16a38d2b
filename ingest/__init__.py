"""Every write path: the gate, the single writer, and one module per resource written.

gate.py          the one door: checks every write, quarantines what it refuses
writer.py        the single writer: validated assertions into the ledger, slot by slot
assertions.py    structured assertions (POST /v1/assertions)
observations.py  raw text -> distiller -> gate -> embeddings -> writer
events.py        one step of a task with its causes and the assertions it wrote
passages.py      derived search passages of observations, for recall
distill/         distillers: offline patterns, or an OpenAI-compatible model
embeddings/      the local embedding model, its replicas and cache
bulk.py          the resumable bulk loader behind ``tractatus ingest``
"""
