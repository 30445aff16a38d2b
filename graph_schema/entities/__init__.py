"""Entities: the things assertions are about, as nodes (docs/entities.md)."""
