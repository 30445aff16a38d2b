"""Sentence embeddings of assertions and passages: a local model, never downloaded.

model.py      loading the model offline and encoding with it; the Embedder protocol
embedder.py   the server's embedder: replicas, the cache of recent texts
processes.py  replicas in child processes (their own interpreter lock)
texts.py      what is embedded for an assertion
"""
