"""Shared foundations: types, errors, RFC 3339 time, Neo4j records, vectors, Cypher builders."""
