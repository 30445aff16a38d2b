"""Recall: query analysis, candidate lists filtered before ranking, fusion, the rerank."""
