"""The readings of unclear statute text that a scenario can switch, and their defaults.

Each enum is one reading's choices; :class:`Interpretations` holds a scenario's settings.
docs/readings.md explains each reading and why its default was chosen.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar

import attrs


class EarlyRequest(StrEnum):
    """Reading 4: a runoff request filed before the canvass."""

    WAIT = "wait"  # it waits for the canvass
    REJECT = "reject"  # it is rejected as premature


class GroupRunoffBallot(StrEnum):
    """Reading 5: who is on a group runoff ballot."""

    REMAINING_AND_REQUESTERS = "remaining_and_requesters"
    TOP_TWO_R = "top_two_r"  # the R best remaining and the next R, requested or not
    PAIRWISE = "pairwise"  # each requester against the lowest leaders; the others seated


class ThreeWayTie(StrEnum):
    """Reading 6: a tie for first among three or more."""

    RUNOFF_ALL = "runoff_all"
    LOT = "lot"


class LateNotice(StrEnum):
    """Reading 8: a death within 30 days noticed after day 30."""

    DEATH_DATE = "death_date"  # the date of death decides
    NOTICE_DATE = "notice_date"  # the date of the notice decides


class DepartedLeaderShort(StrEnum):
    """Reading 10: a single office's leader who left, short of a majority."""

    VACANT = "vacant"  # the office is declared vacant at once, no runoff
    REQUEST = "request"  # 163-293(b)(1) runs its course: the runner-up may request a runoff


class DepartedTiedForASeat(StrEnum):
    """Reading 11: a departed candidate tied for a seat under the plurality method."""

    LOT = "lot"  # 163-292(3)'s lot; the seat vacant if it falls to the departed candidate
    VACANT = "vacant"  # the seat is declared vacant without a lot


class LeftBestForGroupSeat(StrEnum):
    """Reading 18: a departed candidate is among the best placed for a group seat left without a
    majority."""

    RUNS_ITS_COURSE = "runs_its_course"  # 163-293(b)(2): declared unless a runoff is requested
    VACANT = "vacant"  # the seat is declared vacant at once, with no runoff for it


class RequestPlaceTie(StrEnum):
    """Reading 19: a tie for the last place that carries the right to request a group runoff."""

    ALL_TIED = "all_tied"  # every tied candidate may request
    LOT = "lot"  # a drawing of lots decides who holds the place


class FirstElectionTie(StrEnum):
    """Reading 20: a tie in the first election of the election and runoff method that 163-293
    does not settle (among candidates over the majority, or for the best remaining places)."""

    LOT = "lot"  # a drawing of lots, as 163-292(3) does
    BY_SIZE = "by_size"  # 163-182.8: a new election over 5,000 voters, a lot otherwise


class LeftRunoffBallot(StrEnum):
    """Reading 21: a candidate on a called single-office runoff (or second primary) ballot dies,
    withdraws or is disqualified."""

    NAME_STAYS = "name_stays"  # the runoff is held, the name on its ballot
    OTHER_DECLARED = "other_declared"  # no runoff: the other candidate is declared


class RequestAfterLot(StrEnum):
    """Reading 22: a drawing of lots settles who may request a runoff (or demand a second
    primary) only after the deadline counted from the declaration at the canvass has passed."""

    FROM_DRAWING = "from_drawing"  # the deadline counts from the day of the drawing
    FROM_CANVASS = "from_canvass"  # the deadline stays as counted from the canvass: it has passed


class RunnerUpLeft(StrEnum):
    """Reading 12: the runner-up (or one of those tied for second) has left the race."""

    NO_RUNOFF = "no_runoff"  # the highest is declared elected at once
    RUNS_ITS_COURSE = "runs_its_course"  # 163-293(b)(1) and (d)(2) run as written


class LeftTiedForFirst(StrEnum):
    """Reading 13: a candidate tied for first after the recount withdrew or was disqualified."""

    OTHER_ELECTED = "other_elected"  # the tied candidate who stands is elected
    VACANT = "vacant"  # the office is vacant (163-294.1(b))


class DeadTiedForFirst(StrEnum):
    """Reading 14: a candidate who died before the election ties for first after the recount."""

    VACANT = "vacant"  # 163-294.4(c)'s second sentence: the dead candidate polled the highest
    OTHER_ELECTED = "other_elected"  # its third sentence: the dead candidate polled the second


class WithdrawnWinner(StrEnum):
    """Reading 15: a candidate who withdrew before the election, name on the ballot, polls
    enough to be elected, with reading 7 switched off."""

    VACANT = "vacant"  # as for a disqualified candidate
    ELECTED = "elected"  # the votes stand and the candidate is declared elected


class TieAfterPrimary(StrEnum):
    """Reading 16: a tie for a seat in the election after a nonpartisan primary."""

    BY_SIZE = "by_size"  # 163-182.8: a new election over 5,000 voters, a lot otherwise
    LOT = "lot"  # a drawing of lots whatever the number of voters


class NonpartisanFee(StrEnum):
    """Reading 17: a nonpartisan candidate pays less than the fee the governing board fixed."""

    REQUIRED = "required"  # the notice is rejected
    NOT_ENFORCED = "not_enforced"  # the notice is accepted


class FilingOpening(StrEnum):
    """Reading 23: the first day of the filing period falls on a day the board's office is
    closed, and G.S. 103-5(a) moves the opening to the next day it is open."""

    NOON = "noon"  # at noon, the hour the statute sets for the opening
    START_OF_BUSINESS = "start_of_business"  # at the start of that day's business (8:00 a.m.)


class GroupTieVoters(StrEnum):
    """Reading 24: how many voters a group's tie had, for 163-182.8's 5,000, when the votes do
    not tell (more than 5,000 votes, but not more than 5,000 per seat)."""

    VOTES_PER_SEAT = "votes_per_seat"  # the votes divided by the seats: the fewest voters
    VOTES = "votes"  # as many voters as votes: the most voters


class DepartedInTieWindow(StrEnum):
    """Reading 25: the three days after the recount end, and a candidate still tied for first
    has died or been disqualified on or after election day."""

    RUNOFF = "runoff"  # (d)(1)'s runoff among the tied, the departed name on its ballot
    OTHER_ELECTED = "other_elected"  # the departure read as a withdrawal: the other elected


class TiedLeftBeforeLot(StrEnum):
    """Reading 26: a candidate tied for a seat under the plurality method, or for the place a
    runoff decides, leaves (the name on the ballot) before the drawing of lots."""

    LOT_AMONG_ALL = "lot_among_all"  # the lot among all the tied; vacant if it falls to them
    AMONG_STANDING = "among_standing"  # only those who stand: as many as the places take them


class GroupRunoffTie(StrEnum):
    """Reading 27: two candidates tie for a seat in the runoff for several seats, where
    163-293(f) speaks of a tie for the top vote."""

    LOT = "lot"  # a drawing of lots between the tied, as (f) does for one office
    BY_SIZE = "by_size"  # 163-182.8: a new election over 5,000 voters, a lot otherwise


class LateNonpartisanWithdrawal(StrEnum):
    """Reading 28: a nonpartisan candidate withdraws after the filing deadline, before the
    ballots are printed."""

    NAME_OFF = "name_off"  # the name is not printed
    NO_EFFECT = "no_effect"  # too late (163-294.2(d)): printed, counted, the candidacy stands


class OnlyCandidateDies(StrEnum):
    """Reading 29: in a nonpartisan election, a candidate dies where fewer filed than
    163-294.4(b) names (the only one for a single office)."""

    NO_REOPENING = "no_reopening"  # the name off, filing not reopened
    REOPEN = "reopen"  # filing reopens as 163-294.4(b) reopens it, a fortiori


class NoCandidateLeft(StrEnum):
    """Reading 30: a death in a party primary for a single office leaves no candidate."""

    NO_NOMINEE = "no_nominee"  # no primary and no nominee
    COMMITTEE_NAMES = "committee_names"  # the party's executive committee names one (163-114)


class GroupDeathWithin30(StrEnum):
    """Reading 31: in a party primary for a group, a death within 30 days after the close
    leaves more candidates than seats."""

    NO_REOPENING = "no_reopening"  # as 163-112(d)(1), (2): no reopening, the primary held
    REOPEN = "reopen"  # filing reopens for three days, as 163-112(b) for a single office


class DisqualifiedBeforePrinting(StrEnum):
    """Reading 32: a party primary candidate is disqualified before the ballots are printed."""

    AS_DEATH = "as_death"  # 163-112 applied as to a death: reopening, certification
    NAME_OFF = "name_off"  # the name simply left off; 163-112 speaks of deaths only


class RecountNotOrdered(StrEnum):
    """Reading 33: the board reports a recount of a declared result that no tie ordered (the
    only recount in these statutes is 163-293(d)(1)'s)."""

    REPLACES = "replaces"  # the recount's totals replace the round's; declared again
    RESULT_STANDS = "result_stands"  # a recount no provision orders leaves the result standing


class CanvassBeforeItsDay(StrEnum):
    """Reading 34: the board canvasses after the election but before the day the law fixes for
    the canvass (no provision allows an earlier one)."""

    WHEN_HELD = "when_held"  # the result is declared when the canvass is held
    AS_OF_ITS_DAY = "as_of_its_day"  # declared as of the day the law fixes; deadlines from it


class LeftAfterPrimaryDay(StrEnum):
    """Reading 35: a party primary candidate who left on or after the primary day, before being
    declared nominated, polls enough to be nominated."""

    NEXT_NOMINATED = "next_nominated"  # the nomination passes to the next candidate
    COMMITTEE_FILLS = "committee_fills"  # the place is a vacancy the committee fills (163-114)


class RunoffCanvass(StrEnum):
    """Reading 36: the day a runoff under G.S. 163-293 is canvassed."""

    #: the day 163-182.5(b) sets for the county board after every election: the tenth day from
    #: 2017 (S.L. 2016-109; the seventh before, as for the first election)
    COUNTY_TENTH_DAY = "county_tenth_day"
    #: the seventh day, as the first election (163-293(c)): 163-293(e) holds the runoff under
    #: the laws provided for the first election
    FIRST_ELECTION_SEVENTH_DAY = "first_election_seventh_day"


@attrs.frozen
class Interpretations:
    """Switches for the readings of docs/readings.md; the defaults are the documented defaults.

    Each field is one named interpretation a scenario can switch under ``interpretations:``.
    A choice may be given as its enum member or its name (``"lot"``).
    """

    #: Reading 1: write-in votes count in the majority / substantial-plurality total.
    write_ins_in_total: bool = True
    #: Reading 2: votes for a dead candidate whose name stays on a nonpartisan ballot count in the
    #: total (163-294.4(c), 163-294.1(b)).
    dead_votes_in_total: bool = True
    #: Reading 4: a runoff request filed before the canvass waits for it or is rejected.
    early_request: EarlyRequest = attrs.field(default=EarlyRequest.WAIT, converter=EarlyRequest)
    #: Reading 5: the group runoff ballot.
    group_runoff_ballot: GroupRunoffBallot = attrs.field(
        default=GroupRunoffBallot.REMAINING_AND_REQUESTERS, converter=GroupRunoffBallot
    )
    #: Reading 6: a tie for first among three or more: a runoff of all of them, or lots.
    three_way_tie: ThreeWayTie = attrs.field(default=ThreeWayTie.RUNOFF_ALL, converter=ThreeWayTie)
    #: Reading 7: 163-294.1(b)'s "death or disqualification" also covers withdrawal.
    withdrawal_as_death: bool = True
    #: Reading 8: a late-noticed death within 30 days: the death's date or the notice's decides.
    late_notice: LateNotice = attrs.field(default=LateNotice.DEATH_DATE, converter=LateNotice)
    #: Reading 9: only ties that decide a seat, a nomination or a runoff place matter.
    harmless_ties: bool = True
    #: Reading 10: a single office's leader who left (withdrawn or disqualified before the
    #: election, or gone after election day before the declaration), short of a majority:
    #: "vacant" (default) or "request" (the runner-up may still request a runoff, 163-293(b)(1)).
    departed_leader_short: DepartedLeaderShort = attrs.field(
        default=DepartedLeaderShort.VACANT, converter=DepartedLeaderShort
    )
    #: Reading 11: a departed candidate tied for a seat under the plurality method: "lot"
    #: (default, 163-292(3)) or "vacant" (the seat is vacant without a lot).
    departed_tied_for_a_seat: DepartedTiedForASeat = attrs.field(
        default=DepartedTiedForASeat.LOT, converter=DepartedTiedForASeat
    )

    #: Reading 12: a departed runner-up: no runoff at once, or 163-293(b)(1) and (d)(2) as
    #: written (a withdrawal before the election counts as a tied candidate's withdrawal).
    runner_up_left: RunnerUpLeft = attrs.field(
        default=RunnerUpLeft.NO_RUNOFF, converter=RunnerUpLeft
    )
    #: Reading 13: a tied-for-first candidate who withdrew or was disqualified: the other is
    #: elected, or the office is vacant.
    left_tied_for_first: LeftTiedForFirst = attrs.field(
        default=LeftTiedForFirst.OTHER_ELECTED, converter=LeftTiedForFirst
    )
    #: Reading 14: a dead candidate tied for first: the office is vacant, or the other elected.
    dead_tied_for_first: DeadTiedForFirst = attrs.field(
        default=DeadTiedForFirst.VACANT, converter=DeadTiedForFirst
    )
    #: Reading 15: a withdrawn candidate (reading 7 off) polls enough to be elected: the office
    #: is vacant, or the candidate is elected.
    withdrawn_winner: WithdrawnWinner = attrs.field(
        default=WithdrawnWinner.VACANT, converter=WithdrawnWinner
    )
    #: Reading 16: a tie for a seat after a nonpartisan primary: 163-182.8 by the number of
    #: voters, or a lot.
    tie_after_primary: TieAfterPrimary = attrs.field(
        default=TieAfterPrimary.BY_SIZE, converter=TieAfterPrimary
    )
    #: Reading 17: a nonpartisan candidate paying less than the fixed fee: rejected or accepted.
    nonpartisan_fee: NonpartisanFee = attrs.field(
        default=NonpartisanFee.REQUIRED, converter=NonpartisanFee
    )

    #: Reading 18: a departed candidate best placed for a group seat without a majority:
    #: 163-293(b)(2) runs its course, or the seat is vacant at once.
    left_best_for_group_seat: LeftBestForGroupSeat = attrs.field(
        default=LeftBestForGroupSeat.RUNS_ITS_COURSE, converter=LeftBestForGroupSeat
    )
    #: Reading 19: a tie for the last place carrying the right to request a group runoff: all
    #: the tied may request, or a lot decides.
    request_place_tie: RequestPlaceTie = attrs.field(
        default=RequestPlaceTie.ALL_TIED, converter=RequestPlaceTie
    )

    #: Reading 20: a tie 163-293 does not settle in the first election: a lot, or 163-182.8.
    first_election_tie: FirstElectionTie = attrs.field(
        default=FirstElectionTie.LOT, converter=FirstElectionTie
    )

    #: Reading 21: a candidate leaves a called single-office runoff: it is held with the name on
    #: the ballot, or the other candidate is declared without it.
    left_runoff_ballot: LeftRunoffBallot = attrs.field(
        default=LeftRunoffBallot.NAME_STAYS, converter=LeftRunoffBallot
    )

    #: Reading 22: the places carrying the right to a next round are settled by lot only after
    #: the request deadline counted from the canvass: it counts from the drawing, or has passed.
    request_after_lot: RequestAfterLot = attrs.field(
        default=RequestAfterLot.FROM_DRAWING, converter=RequestAfterLot
    )

    #: Reading 23: the filing period's first day falls on a closed day: the opening moves to
    #: noon of the next open day, or to the start of that day's business (8:00 a.m.).
    filing_opening: FilingOpening = attrs.field(default=FilingOpening.NOON, converter=FilingOpening)

    #: Reading 24: the voters of a group's tie the votes do not settle: the votes divided by
    #: the seats (the fewest the votes allow), or as many as the votes (the most).
    group_tie_voters: GroupTieVoters = attrs.field(
        default=GroupTieVoters.VOTES_PER_SEAT, converter=GroupTieVoters
    )

    #: Reading 25: a candidate tied for first after the recount died or was disqualified on or
    #: after election day, and the three days end: the runoff, or the other tied candidate
    #: elected.
    departed_in_tie_window: DepartedInTieWindow = attrs.field(
        default=DepartedInTieWindow.RUNOFF, converter=DepartedInTieWindow
    )

    #: Reading 26: a candidate tied for a seat (plurality method, or a runoff's place) leaves
    #: before the drawing of lots: the lot among all the tied, or only those who stand.
    tied_left_before_lot: TiedLeftBeforeLot = attrs.field(
        default=TiedLeftBeforeLot.LOT_AMONG_ALL, converter=TiedLeftBeforeLot
    )

    #: Reading 27: two tie for a seat in a group runoff: a drawing of lots, or 163-182.8's rule
    #: (a new election with more than 5,000 voters in the ballot item, a lot otherwise).
    group_runoff_tie: GroupRunoffTie = attrs.field(
        default=GroupRunoffTie.LOT, converter=GroupRunoffTie
    )

    #: Reading 28: a nonpartisan candidate withdraws after the filing deadline, before the
    #: ballots are printed: the name is not printed, or the withdrawal has no effect.
    late_nonpartisan_withdrawal: LateNonpartisanWithdrawal = attrs.field(
        default=LateNonpartisanWithdrawal.NAME_OFF, converter=LateNonpartisanWithdrawal
    )

    #: Reading 29: a nonpartisan candidate dies where fewer filed than 163-294.4(b) names:
    #: filing is not reopened, or it is reopened as (b) reopens it.
    only_candidate_dies: OnlyCandidateDies = attrs.field(
        default=OnlyCandidateDies.NO_REOPENING, converter=OnlyCandidateDies
    )

    #: Reading 30: a death leaves no candidate in a party primary for a single office: no
    #: nominee, or the party's executive committee names one.
    no_candidate_left: NoCandidateLeft = attrs.field(
        default=NoCandidateLeft.NO_NOMINEE, converter=NoCandidateLeft
    )

    #: Reading 31: a death within 30 days after the close leaves more candidates than seats in a
    #: party primary for a group: no reopening, or filing reopens for three days.
    group_death_within_30: GroupDeathWithin30 = attrs.field(
        default=GroupDeathWithin30.NO_REOPENING, converter=GroupDeathWithin30
    )

    #: Reading 32: a party primary candidate disqualified before printing: 163-112 applied as
    #: to a death, or the name simply left off.
    disqualified_before_printing: DisqualifiedBeforePrinting = attrs.field(
        default=DisqualifiedBeforePrinting.AS_DEATH, converter=DisqualifiedBeforePrinting
    )

    #: Reading 33: a recount of a declared result that no tie ordered: its totals replace the
    #: round's, or the result declared at the canvass stands.
    recount_not_ordered: RecountNotOrdered = attrs.field(
        default=RecountNotOrdered.REPLACES, converter=RecountNotOrdered
    )

    #: Reading 34: a canvass held before the day the law fixes for it declares the result when
    #: it is held, or as of that day (the deadlines that run from the declaration count from it).
    canvass_before_its_day: CanvassBeforeItsDay = attrs.field(
        default=CanvassBeforeItsDay.WHEN_HELD, converter=CanvassBeforeItsDay
    )

    #: Reading 35: a party primary candidate who left on or after the primary day polls over the
    #: substantial plurality: the next candidate takes the place, or the party's executive
    #: committee fills it as a vacancy in the nomination (163-114).
    left_after_primary_day: LeftAfterPrimaryDay = attrs.field(
        default=LeftAfterPrimaryDay.NEXT_NOMINATED, converter=LeftAfterPrimaryDay
    )

    #: Reading 36: a 163-293 runoff is canvassed on the day 163-182.5(b) sets for every
    #: election (the tenth day from 2017), or on the seventh day as the first election
    #: (163-293(c), applied to the runoff by 163-293(e)).
    runoff_canvass: RunoffCanvass = attrs.field(
        default=RunoffCanvass.COUNTY_TENTH_DAY, converter=RunoffCanvass
    )

    #: each choice's names, in the order docs/readings.md gives them (the first the default)
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {
        "early_request": tuple(m.value for m in EarlyRequest),
        "group_runoff_ballot": tuple(m.value for m in GroupRunoffBallot),
        "three_way_tie": tuple(m.value for m in ThreeWayTie),
        "late_notice": tuple(m.value for m in LateNotice),
        "departed_leader_short": tuple(m.value for m in DepartedLeaderShort),
        "departed_tied_for_a_seat": tuple(m.value for m in DepartedTiedForASeat),
        "runner_up_left": tuple(m.value for m in RunnerUpLeft),
        "left_tied_for_first": tuple(m.value for m in LeftTiedForFirst),
        "dead_tied_for_first": tuple(m.value for m in DeadTiedForFirst),
        "withdrawn_winner": tuple(m.value for m in WithdrawnWinner),
        "tie_after_primary": tuple(m.value for m in TieAfterPrimary),
        "nonpartisan_fee": tuple(m.value for m in NonpartisanFee),
        "left_best_for_group_seat": tuple(m.value for m in LeftBestForGroupSeat),
        "request_place_tie": tuple(m.value for m in RequestPlaceTie),
        "first_election_tie": tuple(m.value for m in FirstElectionTie),
        "left_runoff_ballot": tuple(m.value for m in LeftRunoffBallot),
        "request_after_lot": tuple(m.value for m in RequestAfterLot),
        "filing_opening": tuple(m.value for m in FilingOpening),
        "group_tie_voters": tuple(m.value for m in GroupTieVoters),
        "departed_in_tie_window": tuple(m.value for m in DepartedInTieWindow),
        "tied_left_before_lot": tuple(m.value for m in TiedLeftBeforeLot),
        "group_runoff_tie": tuple(m.value for m in GroupRunoffTie),
        "late_nonpartisan_withdrawal": tuple(m.value for m in LateNonpartisanWithdrawal),
        "only_candidate_dies": tuple(m.value for m in OnlyCandidateDies),
        "no_candidate_left": tuple(m.value for m in NoCandidateLeft),
        "group_death_within_30": tuple(m.value for m in GroupDeathWithin30),
        "disqualified_before_printing": tuple(m.value for m in DisqualifiedBeforePrinting),
        "recount_not_ordered": tuple(m.value for m in RecountNotOrdered),
        "canvass_before_its_day": tuple(m.value for m in CanvassBeforeItsDay),
        "left_after_primary_day": tuple(m.value for m in LeftAfterPrimaryDay),
        "runoff_canvass": tuple(m.value for m in RunoffCanvass),
    }

    def setting(self, name: str) -> bool | str:
        """A reading's value as a scenario writes it: ``True`` or a choice's name."""
        value: bool | str = getattr(self, name)
        return value.value if isinstance(value, StrEnum) else value

    def changed(self) -> tuple[tuple[str, bool | str], ...]:
        """The switches set otherwise than their defaults, as (name, setting), in the order of
        docs/readings.md."""
        default = Interpretations()
        return tuple(
            (f.name, self.setting(f.name))
            for f in attrs.fields(Interpretations)
            if getattr(self, f.name) != getattr(default, f.name)
        )

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython's plain-text display (Jupyter): the switches set otherwise than their
        defaults, in words, not every field."""
        changed = "; ".join(
            f"{k.replace('_', ' ')}: {_setting_words(v)}" for k, v in self.changed()
        )
        p.text(f"readings: {changed or 'the documented defaults'}")


def _setting_words(value: bool | str) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value.replace("_", " ")
