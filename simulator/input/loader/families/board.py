"""Validation of the board's other acts and findings: the ballots printed, whether there was
time to reprint them, and the oath of office taken by a candidate, who must
have filed."""

from __future__ import annotations

from simulator.input.loader.event_checks import EventValidator, names_nobody, names_one

VALIDATORS: dict[str, EventValidator] = {
    "ballots_printed": names_nobody,
    "reprint_determined": names_nobody,
    "oath_taken": names_one("candidate"),
}
