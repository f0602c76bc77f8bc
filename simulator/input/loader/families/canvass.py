"""Validation of the canvass and what may follow it: the canvass itself, a recount (its counts,
each candidate once, each of whom must have filed) and the lot drawn to break a tie (its
winner, who must have filed)."""

from __future__ import annotations

from simulator.input.loader.event_checks import (
    EventValidator,
    names_counted,
    names_nobody,
    names_one,
)
from simulator.model.events import CanvassHeld, LotDrawn, RecountHeld

VALIDATORS: dict[str, EventValidator] = {
    CanvassHeld.type: names_nobody,
    RecountHeld.type: names_counted,
    LotDrawn.type: names_one("winner"),
}
