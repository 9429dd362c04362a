"""Security and reliability tests against the running app (issue 8): websocket, faults, attacks."""
