"""Validation of the board's other acts and findings: the ballots printed, whether there was
time to reprint them, and the oath of office taken by a candidate, who must
have filed."""

from __future__ import annotations

from simulator.input.loader.event_checks import EventValidator, names_nobody, names_one
from simulator.model.events import BallotsPrinted, OathTaken, ReprintDetermined

VALIDATORS: dict[str, EventValidator] = {
    BallotsPrinted.type: names_nobody,
    ReprintDetermined.type: names_nobody,
    OathTaken.type: names_one("candidate"),
}
