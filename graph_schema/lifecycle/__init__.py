"""The life of a memory: tasks and their working memory, consolidation, sleep, dormancy, pins
and the access log (docs/lifecycle.md)."""
