"""The lifecycle's write paths: entering and starting tasks, ending them (consolidation),
pins, the sleep and the access log (docs/lifecycle.md)."""
