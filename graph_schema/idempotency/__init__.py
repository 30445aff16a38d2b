"""Idempotency keys of the writes that are not observations: the stored first answer of each
(caller, key), so a retried write is answered again and writes nothing."""
