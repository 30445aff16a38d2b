"""The schema: constraints, indexes and versioned migrations; the ontology of predicates."""
