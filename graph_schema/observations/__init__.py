"""Observations: raw text as stored, and one turn read with its neighbours."""
