"""Procedures: the ways recurring tasks have been done, mined from their steps by a sleep
(docs/procedures.md)."""
