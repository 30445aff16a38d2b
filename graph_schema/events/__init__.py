"""Ordered memory: events, causal chains, their replay (why, timelines) and their audit."""
