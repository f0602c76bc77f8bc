"""Validation of the votes: a ballot cast for a candidate (``votes_cast``) and the returns of
a precinct (``returns_reported``, a count per candidate); every candidate voted for must have
filed, or be a write-in."""

from __future__ import annotations

from simulator.input.loader.event_checks import EventValidator, names_counted, names_one
from simulator.model.events import ReturnsReported, VotesCast

VALIDATORS: dict[str, EventValidator] = {
    VotesCast.type: names_one("candidate"),
    ReturnsReported.type: names_counted,
}
