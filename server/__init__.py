"""The HTTP API and the command line: FastAPI app, one router per resource, auth, settings."""
