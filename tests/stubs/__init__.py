"""Local stand-ins for external services (only a language model endpoint may be stubbed)."""
