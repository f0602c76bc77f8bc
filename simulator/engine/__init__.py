"""The engine: a contest's state, the fold of the event log, the count and the result."""
