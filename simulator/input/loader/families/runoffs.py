"""Validation of the runoff requests: a second-place candidate's request for a second primary
or runoff, who must have filed."""

from __future__ import annotations

from simulator.input.loader.event_checks import EventValidator, names_one
from simulator.model.events import RunoffRequested

VALIDATORS: dict[str, EventValidator] = {
    RunoffRequested.type: names_one("candidate"),
}
