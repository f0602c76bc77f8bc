"""Closed vocabularies of the public contract (docs/scenarios.md and docs/results.md).

Each enum's values are exactly the strings the documentation fixes; JSON output uses ``.value``.
"""

from __future__ import annotations

from enum import StrEnum


class Method(StrEnum):
    """The four municipal methods of G.S. 163-290(a)."""

    PARTISAN = "partisan"
    PLURALITY = "nonpartisan-plurality"
    PRIMARY = "nonpartisan-primary"
    RUNOFF = "nonpartisan-runoff"


class Stage(StrEnum):
    PRIMARY = "primary"
    ELECTION = "election"


class RulingKind(StrEnum):
    FILING_REJECTED = "filing_rejected"
    FILING_REOPENED = "filing_reopened"
    FILING_EXTENDED = "filing_extended"
    NAME_REMOVED = "name_removed"
    NAME_REMAINS = "name_remains"
    VOTES_DISREGARDED = "votes_disregarded"
    PRIMARY_CANCELLED = "primary_cancelled"
    NOMINEE_CERTIFIED = "nominee_certified"
    PARTY_TO_NOMINATE = "party_to_nominate"
    MAJORITY_THRESHOLD = "majority_threshold"
    ELECTED = "elected"
    NOMINATED = "nominated"
    RUNOFF_AVAILABLE = "runoff_available"
    RUNOFF_CALLED = "runoff_called"
    #: G.S. 163-293(d)(1): the recount confirms a tie for first; the runoff follows unless one of
    #: the tied withdraws (no request is needed)
    RUNOFF_UNLESS_WITHDRAWN = "runoff_unless_withdrawn"
    REQUEST_REJECTED = "request_rejected"  # a request or demand with no effect, and why
    NO_EFFECT = "no_effect"  # an act or notice the law gives no effect here, and why
    RESULT_STANDS = "result_stands"  # a defeated candidate leaves after the result: it stands
    CANVASS_REPEATED = "canvass_repeated"  # a canvass of a contest already declared
    VOTES_AFTER_DECISION = "votes_after_decision"  # returns for a contest already decided
    OATH_NOT_ELECTED = "oath_not_elected"  # an oath by someone not declared elected
    RECOUNT_REQUIRED = "recount_required"
    LOT_REQUIRED = "lot_required"  # a tie the board must settle by lot before the count goes on
    DECIDED_BY_LOT = "decided_by_lot"
    NO_RUNOFF = "no_runoff"
    OFFICE_VACANT = "office_vacant"
    NO_PROVISION = "no_provision"
    NEW_ELECTION_ORDERED = "new_election_ordered"  # G.S. 163-182.8(1)


class RemarkKind(StrEnum):
    """A fact of the log that does not fit the contest's statutory calendar (docs/results.md,
    ``remarks``): said at the event, never a refusal, and never a change to any ruling."""

    RETURNS_OFF_DAY = "returns_off_day"  # returns or votes outside the round's voting day
    CANVASS_OFF_DAY = "canvass_off_day"  # a canvass on another day than the law fixes
    #: a request or demand before the election, or before the requester filed
    REQUEST_EARLY = "request_early"
    REQUEST_NOT_ON_BALLOT = "request_not_on_ballot"  # by someone not on that ballot
    BALLOTS_AFTER_ELECTION = "ballots_after_election"  # ballots printed after the election day
    DEPARTURE_NOT_FILED = "departure_not_filed"  # a death, withdrawal or disqualification
    DETERMINATION_MOOT = "determination_moot"  # a reprint determination with nothing to determine


class DeadlineKind(StrEnum):
    FILING_OPENS = "filing_opens"
    FILING_CLOSES = "filing_closes"
    REOPENED_FILING_CLOSES = "reopened_filing_closes"
    EXTENDED_FILING_CLOSES = "extended_filing_closes"
    PRIMARY_DAY = "primary_day"
    SECOND_PRIMARY = "second_primary"
    ELECTION_DAY = "election_day"
    RUNOFF_ELECTION = "runoff_election"
    CANVASS = "canvass"
    RUNOFF_REQUEST = "runoff_request"
    SECOND_PRIMARY_REQUEST = "second_primary_request"
    TIE_WITHDRAWAL = "tie_withdrawal"


class DeadlineState(StrEnum):
    """Where a listed deadline stands at the replay's moment (the ``as_of``, or the end of the
    log)."""

    UPCOMING = "upcoming"
    MET = "met"
    PASSED = "passed"
    VOID = "void"


class Pending(StrEnum):
    VOTES = "votes"
    CANVASS = "canvass"
    RUNOFF_REQUEST = "runoff_request"
    RECOUNT = "recount"
    WITHDRAWAL = "withdrawal"
    LOT = "lot"
    FILING = "filing"
    NOMINATION = "nomination"
    NEW_ELECTION = "new_election"  # G.S. 163-182.8(1): a new election the State Board orders


class Decision(StrEnum):
    """A decision the law leaves to someone that the log has not recorded yet: a pending item of
    a contest's result, from the moment the facts that call for it are known."""

    REPRINT = "reprint"  # whether there is time to reprint printed ballots (163-294.4(b), (c))


class Decider(StrEnum):
    """Who makes a pending decision."""

    COUNTY_BOARD = "county_board"


class Choice(StrEnum):
    """An answer open to a pending decision (named as the event that would record it)."""

    ENOUGH_TIME = "enough_time"  # reprint_determined with enough_time: true
    NOT_ENOUGH_TIME = "not_enough_time"  # reprint_determined with enough_time: false


class PeriodKind(StrEnum):
    """A stretch of time in a contest's life: when notices, requests or withdrawals are taken."""

    FILING = "filing"
    FILING_REOPENED = "filing_reopened"
    FILING_EXTENDED = "filing_extended"
    RUNOFF_REQUEST = "runoff_request"
    TIE_WITHDRAWAL = "tie_withdrawal"


class RunoffStatus(StrEnum):
    NONE = "none"
    AVAILABLE = "available"
    CALLED = "called"
    HELD = "held"


class CandStatus(StrEnum):
    """Where a candidate stands in a contest: running, or off it and why."""

    ACTIVE = "active"
    DIED = "died"
    WITHDREW = "withdrew"
    DISQUALIFIED = "disqualified"


class WindowKind(StrEnum):
    """A period in which notices of candidacy are accepted: the statute's own, one reopened
    after a vacancy (G.S. 163-112, 163-294.4) or one extended (G.S. 163-294.2(c))."""

    ORIGINAL = "original"
    REOPENED = "reopened"
    EXTENDED = "extended"


class PoolKind(StrEnum):
    """What an open post-election window is about."""

    REQUEST = "request"  # runoff requests (G.S. 163-293(b)/(c))
    TIE_FIRST = "tie_first"  # withdrawals of those tied for first (G.S. 163-293(d)(1))
    TIE_SECOND = "tie_second"  # withdrawals of those tied for second (G.S. 163-293(d)(2))
    RUNOFF = "runoff"  # a runoff called, the places it decides


class EventType(StrEnum):
    """The event types, by the name a scenario writes: each is defined in
    :mod:`simulator.model.events`, which names it from here, and each triggers the transitions
    of :mod:`simulator.law.machine` it leads to."""

    FILING_OPENED = "filing_opened"
    FILING_CLOSED = "filing_closed"
    CANDIDATE_FILED = "candidate_filed"
    CANDIDATE_WITHDREW = "candidate_withdrew"
    CANDIDATE_DIED = "candidate_died"
    CANDIDATE_DISQUALIFIED = "candidate_disqualified"
    FILING_EXTENDED = "filing_extended"
    BALLOTS_PRINTED = "ballots_printed"
    REPRINT_DETERMINED = "reprint_determined"
    VOTES_CAST = "votes_cast"
    RETURNS_REPORTED = "returns_reported"
    CANVASS_HELD = "canvass_held"
    RECOUNT_HELD = "recount_held"
    RUNOFF_REQUESTED = "runoff_requested"
    LOT_DRAWN = "lot_drawn"
    OATH_TAKEN = "oath_taken"
    NOMINEE_NAMED = "nominee_named"


class TimerTrigger(StrEnum):
    """A moment the law attaches a consequence to that no event records: a period that ends,
    or the time for an optional act passing unused (also a trigger of the transition table)."""

    FILING_CLOSES = "filing_closes"
    REOPENED_FILING_CLOSES = "reopened_filing_closes"
    EXTENDED_FILING_CLOSES = "extended_filing_closes"
    RUNOFF_REQUEST_PASSES = "runoff_request_passes"
    TIE_WITHDRAWAL_PASSES = "tie_withdrawal_passes"


def is_partisan_primary(method: Method, stage: Stage) -> bool:
    """A party primary (G.S. 163-291), where 163-112 and 163-111 apply."""
    return method is Method.PARTISAN and stage is Stage.PRIMARY


def is_nonpartisan_primary(method: Method, stage: Stage) -> bool:
    """A nonpartisan primary (G.S. 163-294)."""
    return method is Method.PRIMARY and stage is Stage.PRIMARY


class Staged:
    """The primary predicates of anything that has a ``method`` and a ``stage`` (a contest's
    replay context, the facts a contingency rule reads): each is defined here once."""

    __slots__ = ()

    @property
    def method(self) -> Method:
        raise NotImplementedError

    @property
    def stage(self) -> Stage:
        raise NotImplementedError

    @property
    def partisan_primary(self) -> bool:
        return is_partisan_primary(self.method, self.stage)

    @property
    def nonpartisan_primary(self) -> bool:
        return is_nonpartisan_primary(self.method, self.stage)
