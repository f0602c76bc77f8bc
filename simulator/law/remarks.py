"""Remarks: the acts of a log checked against the contest's statutory calendar, one rule a kind.

A remark says that a fact does not fit the calendar the law fixes (returns on another day than
the election's, a canvass on another day than its own, a request before the election...). It is
never a refusal: the replay goes on as the log says (a board can err, and a scenario may mean
it), and no ruling changes. docs/results.md (``remarks``) lists the kinds; the engine gathers
the facts each rule reads (:mod:`simulator.engine.remarks`) from the days it computes itself,
so that a rule follows the calendar wherever the calendar changes.

Each rule names its provision. Where the provision of a particular contest is known (the
subsection that fixes its election day, its canvass, its request deadline), the remark cites
that one; ``cite`` here is the provision when no other is at hand.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import attrs

from simulator.law.vocab import RemarkKind

#: Returns reported on the night after the voting day count as that day's: the polls close at
#: 7:30 P.M. (G.S. 163-166.01) and the precinct counts and county results run into the early
#: hours, so returns are the day's until 6:00 A.M. the next morning.
RETURNS_NIGHT = timedelta(hours=30)


@attrs.frozen
class RemarkRule:
    """One check of a fact against the calendar: its kind, its provision (one string), what
    the law fixes, in our own words, and what the remark says (a template whose named fields
    the engine fills with names and days)."""

    kind: RemarkKind
    cite: str
    summary: str
    says: str
    #: the interpretation switch a fact of this kind may rely on (named by the remark when it
    #: does: :func:`request_reading`, :func:`canvass_reading`)
    reading: str | None = None


RULES: dict[RemarkKind, RemarkRule] = {
    r.kind: r
    for r in (
        RemarkRule(
            RemarkKind.RETURNS_OFF_DAY,
            "163-279(a)",
            "returns are of the day the election (runoff, primary, second primary) is held: "
            "reported from its start until 6:00 the next morning",
            says=(
                "returns dated {at}, but the {election} the contest is in was held {day}: "
                "returns are that day's, reported by 6:00 the next morning; they are counted as "
                "the log says"
            ),
        ),
        RemarkRule(
            RemarkKind.CANVASS_OFF_DAY,
            "163-182.5(b)",
            "the canvass is held on the day the law fixes for it (or, the office being closed "
            "then, by G.S. 103-5, on any day up to the next open day)",
            says=(
                "a canvass held {held}, {when} the day the law fixes for the canvass of the "
                "{election} of {day}: {fixed}; the replay follows the log"
            ),
            reading="canvass_before_its_day",
        ),
        RemarkRule(
            RemarkKind.REQUEST_EARLY,
            "163-293(c)",
            "a runoff is requested, or a second primary demanded (163-291(6)), by a candidate of "
            "the election, after it is held",
            says=(
                "{name} {asked} on {at}, {why}; the request is held and weighed at the canvass, "
                "as one made before it is"
            ),
            reading="early_request",
        ),
        RemarkRule(
            RemarkKind.REQUEST_NOT_ON_BALLOT,
            "163-293(c)",
            "a runoff or second primary is asked for by a candidate on that election's ballot",
            says="{name} {asked} but is not a candidate on the ballot of the {election} of {day}",
        ),
        RemarkRule(
            RemarkKind.BALLOTS_AFTER_ELECTION,
            "163-294.4(b)",
            "ballots are printed for the election, before its day",
            says="ballots printed {at}, after the {election} of {day} they are for",
        ),
        RemarkRule(
            RemarkKind.DEPARTURE_NOT_FILED,
            "163-294.2",
            "a death, withdrawal or disqualification is a candidate's: one who filed notice of "
            "candidacy",
            says=(
                "{name} {verb}, but has no notice of candidacy in this contest before it: only a "
                "candidate can leave the race"
            ),
        ),
        RemarkRule(
            RemarkKind.DETERMINATION_MOOT,
            "163-294.4(b)",
            "the board determines whether there is time to reprint when a candidate leaves after "
            "the ballots are printed",
            says="a reprint determination with nothing to determine: {why}",
        ),
    )
}

#: how a request is said to have been made (``{asked}``), by whether it demands a second
#: primary (otherwise it asks for a runoff)
ASKED: dict[bool, str] = {True: "demanded a second primary", False: "asked for a runoff"}
#: why a request is early (``{why}``, each that holds, listed): made before the election of
#: {day}, or before the candidate ({name}) filed
BEFORE_THE_ELECTION = "before the {election} of {day}"
BEFORE_FILING = "before {name} filed notice of candidacy"
#: where a canvass falls (``{when}``), by whether it is before the day the law fixes
BEFORE_OR_AFTER: dict[bool, str] = {True: "before", False: "after"}
#: why a reprint determination has nothing to determine (``{why}``): no ballots printed, or
#: nobody left after they were ({day}: when they were)
NOTHING_PRINTED = "no ballots were printed"
NOBODY_LEFT_AFTER_PRINTING = "no candidate left the race after the ballots were printed ({day})"


def returns_fit(at: datetime, day_start: datetime) -> bool:
    """Whether returns reported at ``at`` are of the voting day that starts at ``day_start``
    (:data:`RETURNS_NIGHT`)."""
    return day_start <= at < day_start + RETURNS_NIGHT


def request_reading(at: datetime, declared_at: datetime | None) -> str | None:
    """A request made before the result was declared relies on the ``early_request`` reading
    (held and weighed at the canvass); one made after relies on none."""
    return (
        RULES[RemarkKind.REQUEST_EARLY].reading if declared_at is None or at < declared_at else None
    )


def canvass_reading(
    held: datetime, election_start: datetime, fixed_day_start: datetime
) -> str | None:
    """A canvass after the election and before its day is read by the ``canvass_before_its_day``
    switch (its gap ruling says so); one before the election or after its day by none."""
    if election_start <= held < fixed_day_start:
        return RULES[RemarkKind.CANVASS_OFF_DAY].reading
    return None
