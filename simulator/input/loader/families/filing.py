"""Validation of the filing family: the filing period's events and the
filings themselves, a notice of candidacy (``candidate_filed``) or a party's nominee
(``nominee_named``): a filing puts its candidate on the contest's list of those
who filed, whom every other event may name."""

from __future__ import annotations

from simulator.input.loader.event_checks import EventValidator, files_candidate, names_nobody
from simulator.model.events import (
    CandidateFiled,
    FilingClosed,
    FilingExtended,
    FilingOpened,
    NomineeNamed,
)

#: the event types that file a candidate
FILERS = frozenset({CandidateFiled.type, NomineeNamed.type})

VALIDATORS: dict[str, EventValidator] = {
    FilingOpened.type: names_nobody,
    FilingClosed.type: names_nobody,
    FilingExtended.type: names_nobody,
    CandidateFiled.type: files_candidate,
    NomineeNamed.type: files_candidate,
}
