"""One router per resource: each parses the request, calls one service, shapes the answer."""
