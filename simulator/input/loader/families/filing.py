"""Validation of the filing family: the filing period's events and the
filings themselves, a notice of candidacy (``candidate_filed``) or a party's nominee
(``nominee_named``): a filing puts its candidate on the contest's list of those
who filed, whom every other event may name."""

from __future__ import annotations

from simulator.input.loader.event_checks import EventValidator, files_candidate, names_nobody

#: the event types that file a candidate
FILERS = frozenset({"candidate_filed", "nominee_named"})

VALIDATORS: dict[str, EventValidator] = {
    "filing_opened": names_nobody,
    "filing_closed": names_nobody,
    "filing_extended": names_nobody,
    "candidate_filed": files_candidate,
    "nominee_named": files_candidate,
}
