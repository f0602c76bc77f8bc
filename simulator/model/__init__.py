"""The scenario model: events, the event log, the scenario and its errors."""
