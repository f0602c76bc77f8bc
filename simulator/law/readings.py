"""The readings of unclear statute text that a scenario can switch, and their defaults.

Each enum is one reading's choices; :class:`Interpretations` holds a scenario's settings.
docs/readings.md explains each reading and why its default was chosen.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any, ClassVar

import attrs

from simulator.law.labels import value_words


class EarlyRequest(StrEnum):
    """``early_request``: a runoff request filed before the canvass."""

    WAIT = "wait"  # it waits for the canvass
    REJECT = "reject"  # it is rejected as premature


class GroupRunoffBallot(StrEnum):
    """``group_runoff_ballot``: who is on a group runoff ballot."""

    REMAINING_AND_REQUESTERS = "remaining_and_requesters"
    TOP_TWO_R = "top_two_r"  # the R best remaining and the next R, requested or not
    PAIRWISE = "pairwise"  # each requester against the lowest leaders; the others seated


class ThreeWayTie(StrEnum):
    """``three_way_tie``: a tie for first among three or more."""

    RUNOFF_ALL = "runoff_all"
    LOT = "lot"


class LateNotice(StrEnum):
    """``late_notice``: a death within 30 days noticed after day 30."""

    DEATH_DATE = "death_date"  # the date of death decides
    NOTICE_DATE = "notice_date"  # the date of the notice decides


class DepartedLeaderShort(StrEnum):
    """``departed_leader_short``: a single office's leader who left, short of a majority."""

    VACANT = "vacant"  # the office is declared vacant at once, no runoff
    REQUEST = "request"  # 163-293(b)(1) runs its course: the runner-up may request a runoff


class DepartedTiedForASeat(StrEnum):
    """``departed_tied_for_a_seat``: a departed candidate tied for a seat under the plurality
    method."""

    LOT = "lot"  # 163-292(3)'s lot; the seat vacant if it falls to the departed candidate
    VACANT = "vacant"  # the seat is declared vacant without a lot


class LeftBestForGroupSeat(StrEnum):
    """``left_best_for_group_seat``: a departed candidate is among the best placed for a group seat
    left without a majority."""

    RUNS_ITS_COURSE = "runs_its_course"  # 163-293(b)(2): declared unless a runoff is requested
    VACANT = "vacant"  # the seat is declared vacant at once, with no runoff for it


class RequestPlaceTie(StrEnum):
    """``request_place_tie``: a tie for the last place that carries the right to request a group
    runoff."""

    ALL_TIED = "all_tied"  # every tied candidate may request
    LOT = "lot"  # a drawing of lots decides who holds the place


class FirstElectionTie(StrEnum):
    """``first_election_tie``: a tie in the first election of the election and runoff method that
    163-293 does not settle (among candidates over the majority, or for the best remaining
    places)."""

    LOT = "lot"  # a drawing of lots, as 163-292(3) does
    BY_SIZE = "by_size"  # 163-182.8: a new election over 5,000 voters, a lot otherwise


class LeftRunoffBallot(StrEnum):
    """``left_runoff_ballot``: a candidate on a called single-office runoff (or second primary)
    ballot dies, withdraws or is disqualified."""

    NAME_STAYS = "name_stays"  # the runoff is held, the name on its ballot
    OTHER_DECLARED = "other_declared"  # no runoff: the other candidate is declared


class RequestAfterLot(StrEnum):
    """``request_after_lot``: a drawing of lots settles who may request a runoff (or demand a second
    primary) only after the deadline counted from the declaration at the canvass has passed."""

    FROM_DRAWING = "from_drawing"  # the deadline counts from the day of the drawing
    FROM_CANVASS = "from_canvass"  # the deadline stays as counted from the canvass: it has passed


class RunnerUpLeft(StrEnum):
    """``runner_up_left``: the runner-up (or one of those tied for second) has left the race."""

    NO_RUNOFF = "no_runoff"  # the highest is declared elected at once
    RUNS_ITS_COURSE = "runs_its_course"  # 163-293(b)(1) and (d)(2) run as written


class LeftTiedForFirst(StrEnum):
    """``left_tied_for_first``: a candidate tied for first after the recount withdrew or was
    disqualified."""

    OTHER_ELECTED = "other_elected"  # the tied candidate who stands is elected
    VACANT = "vacant"  # the office is vacant (163-294.1(b))


class DeadTiedForFirst(StrEnum):
    """``dead_tied_for_first``: a candidate who died before the election ties for first after the
    recount."""

    VACANT = "vacant"  # 163-294.4(c)'s second sentence: the dead candidate polled the highest
    OTHER_ELECTED = "other_elected"  # its third sentence: the dead candidate polled the second


class WithdrawnWinner(StrEnum):
    """``withdrawn_winner``: a candidate who withdrew before the election, name on the ballot, polls
    enough to be elected, with ``withdrawal_as_death`` switched off."""

    VACANT = "vacant"  # as for a disqualified candidate
    ELECTED = "elected"  # the votes stand and the candidate is declared elected


class TieAfterPrimary(StrEnum):
    """``tie_after_primary``: a tie for a seat in the election after a nonpartisan primary."""

    BY_SIZE = "by_size"  # 163-182.8: a new election over 5,000 voters, a lot otherwise
    LOT = "lot"  # a drawing of lots whatever the number of voters


class NonpartisanFee(StrEnum):
    """``nonpartisan_fee``: a nonpartisan candidate pays less than the fee the governing board
    fixed."""

    REQUIRED = "required"  # the notice is rejected
    NOT_ENFORCED = "not_enforced"  # the notice is accepted


class FilingOpening(StrEnum):
    """``filing_opening``: the first day of the filing period falls on a day the board's office is
    closed, and G.S. 103-5(a) moves the opening to the next day it is open."""

    NOON = "noon"  # at noon, the hour the statute sets for the opening
    START_OF_BUSINESS = "start_of_business"  # at the start of that day's business (8:00 a.m.)


class GroupTieVoters(StrEnum):
    """``group_tie_voters``: how many voters a group's tie had, for 163-182.8's 5,000, when the
    votes do not tell (more than 5,000 votes, but not more than 5,000 per seat)."""

    VOTES_PER_SEAT = "votes_per_seat"  # the votes divided by the seats: the fewest voters
    VOTES = "votes"  # as many voters as votes: the most voters


class DepartedInTieWindow(StrEnum):
    """``departed_in_tie_window``: the three days after the recount end, and a candidate still tied
    for first has died or been disqualified on or after election day."""

    RUNOFF = "runoff"  # (d)(1)'s runoff among the tied, the departed name on its ballot
    OTHER_ELECTED = "other_elected"  # the departure read as a withdrawal: the other elected


class TiedLeftBeforeLot(StrEnum):
    """``tied_left_before_lot``: a candidate tied for a seat under the plurality method, or for the
    place a runoff decides, leaves (the name on the ballot) before the drawing of lots."""

    LOT_AMONG_ALL = "lot_among_all"  # the lot among all the tied; vacant if it falls to them
    AMONG_STANDING = "among_standing"  # only those who stand: as many as the places take them


class GroupRunoffTie(StrEnum):
    """``group_runoff_tie``: two candidates tie for a seat in the runoff for several seats, where
    163-293(f) speaks of a tie for the top vote."""

    LOT = "lot"  # a drawing of lots between the tied, as (f) does for one office
    BY_SIZE = "by_size"  # 163-182.8: a new election over 5,000 voters, a lot otherwise


class LateNonpartisanWithdrawal(StrEnum):
    """``late_nonpartisan_withdrawal``: a nonpartisan candidate withdraws after the filing deadline,
    before the ballots are printed."""

    NAME_OFF = "name_off"  # the name is not printed
    NO_EFFECT = "no_effect"  # too late (163-294.2(d)): printed, counted, the candidacy stands


class OnlyCandidateDies(StrEnum):
    """``only_candidate_dies``: in a nonpartisan election, a candidate dies where fewer filed than
    163-294.4(b) names (the only one for a single office)."""

    NO_REOPENING = "no_reopening"  # the name off, filing not reopened
    REOPEN = "reopen"  # filing reopens as 163-294.4(b) reopens it, a fortiori


class NoCandidateLeft(StrEnum):
    """``no_candidate_left``: a death in a party primary for a single office leaves no candidate."""

    NO_NOMINEE = "no_nominee"  # no primary and no nominee
    COMMITTEE_NAMES = "committee_names"  # the party's executive committee names one (163-114)


class GroupDeathWithin30(StrEnum):
    """``group_death_within_30``: in a party primary for a group, a death within 30 days after the
    close leaves more candidates than seats."""

    NO_REOPENING = "no_reopening"  # as 163-112(d)(1), (2): no reopening, the primary held
    REOPEN = "reopen"  # filing reopens for three days, as 163-112(b) for a single office


class DisqualifiedBeforePrinting(StrEnum):
    """``disqualified_before_printing``: a party primary candidate is disqualified before the
    ballots are printed."""

    AS_DEATH = "as_death"  # 163-112 applied as to a death: reopening, certification
    NAME_OFF = "name_off"  # the name simply left off; 163-112 speaks of deaths only


class RecountNotOrdered(StrEnum):
    """``recount_not_ordered``: the board reports a recount of a declared result that no tie ordered
    (the only recount in these statutes is 163-293(d)(1)'s)."""

    REPLACES = "replaces"  # the recount's totals replace the round's; declared again
    RESULT_STANDS = "result_stands"  # a recount no provision orders leaves the result standing


class CanvassBeforeItsDay(StrEnum):
    """``canvass_before_its_day``: the board canvasses after the election but before the day the law
    fixes for the canvass (no provision allows an earlier one)."""

    WHEN_HELD = "when_held"  # the result is declared when the canvass is held
    AS_OF_ITS_DAY = "as_of_its_day"  # declared as of the day the law fixes; deadlines from it


class LeftAfterPrimaryDay(StrEnum):
    """``left_after_primary_day``: a party primary candidate who left on or after the primary day,
    before being declared nominated, polls enough to be nominated."""

    NEXT_NOMINATED = "next_nominated"  # the nomination passes to the next candidate
    COMMITTEE_FILLS = "committee_fills"  # the place is a vacancy the committee fills (163-114)


class RunoffCanvass(StrEnum):
    """The runoff_canvass reading: the day a runoff under G.S. 163-293 is canvassed."""

    #: the day 163-182.5(b) sets for the county board after every election: the tenth day from
    #: 2017 (S.L. 2016-109; the seventh before, as for the first election)
    COUNTY_TENTH_DAY = "county_tenth_day"
    #: the seventh day, as the first election (163-293(c)): 163-293(e) holds the runoff under
    #: the laws provided for the first election
    FIRST_ELECTION_SEVENTH_DAY = "first_election_seventh_day"


@attrs.frozen
class About:
    """What one reading is about: its question in words (what the what-if panel, the text,
    the report and the docs show beside its switch), and its row in the table of
    docs/readings.md, kept only as a cross-reference there."""

    number: int
    words: str

    def __str__(self) -> str:
        return self.words


def reading(number: int, words: str) -> dict[str, About]:
    """A switch's field metadata: what its reading is about."""
    return {"about": About(number, words)}


@attrs.frozen
class Interpretations:
    """Switches for the readings of docs/readings.md; the defaults are the documented defaults.

    Each field is one named interpretation a scenario can switch under ``interpretations:``,
    described once, by its number in docs/readings.md and a few words (:func:`about`).
    A choice may be given as its enum member or its name (``"lot"``).
    """

    write_ins_in_total: bool = attrs.field(
        default=True, metadata=reading(1, "write-in votes count in the total")
    )
    dead_votes_in_total: bool = attrs.field(
        default=True, metadata=reading(2, "a dead candidate's votes count in the total")
    )
    early_request: EarlyRequest = attrs.field(
        default=EarlyRequest.WAIT,
        converter=EarlyRequest,
        metadata=reading(4, "a runoff request before the canvass"),
    )
    group_runoff_ballot: GroupRunoffBallot = attrs.field(
        default=GroupRunoffBallot.REMAINING_AND_REQUESTERS,
        converter=GroupRunoffBallot,
        metadata=reading(5, "who is on a group runoff ballot"),
    )
    three_way_tie: ThreeWayTie = attrs.field(
        default=ThreeWayTie.RUNOFF_ALL,
        converter=ThreeWayTie,
        metadata=reading(6, "a tie for first among three or more"),
    )
    withdrawal_as_death: bool = attrs.field(
        default=True, metadata=reading(7, "a withdrawal counts as a death")
    )
    late_notice: LateNotice = attrs.field(
        default=LateNotice.DEATH_DATE,
        converter=LateNotice,
        metadata=reading(8, "a death noticed after day 30: which date decides"),
    )
    harmless_ties: bool = attrs.field(
        default=True, metadata=reading(9, "only ties that decide something matter")
    )
    departed_leader_short: DepartedLeaderShort = attrs.field(
        default=DepartedLeaderShort.VACANT,
        converter=DepartedLeaderShort,
        metadata=reading(10, "a departed leader short of a majority"),
    )
    departed_tied_for_a_seat: DepartedTiedForASeat = attrs.field(
        default=DepartedTiedForASeat.LOT,
        converter=DepartedTiedForASeat,
        metadata=reading(11, "a departed candidate tied for a seat"),
    )

    runner_up_left: RunnerUpLeft = attrs.field(
        default=RunnerUpLeft.NO_RUNOFF,
        converter=RunnerUpLeft,
        metadata=reading(12, "the runner-up has left the race"),
    )
    left_tied_for_first: LeftTiedForFirst = attrs.field(
        default=LeftTiedForFirst.OTHER_ELECTED,
        converter=LeftTiedForFirst,
        metadata=reading(13, "a candidate tied for first withdrew"),
    )
    dead_tied_for_first: DeadTiedForFirst = attrs.field(
        default=DeadTiedForFirst.VACANT,
        converter=DeadTiedForFirst,
        metadata=reading(14, "a dead candidate ties for first"),
    )
    withdrawn_winner: WithdrawnWinner = attrs.field(
        default=WithdrawnWinner.VACANT,
        converter=WithdrawnWinner,
        metadata=reading(15, "a withdrawn candidate polls enough to win"),
    )
    tie_after_primary: TieAfterPrimary = attrs.field(
        default=TieAfterPrimary.BY_SIZE,
        converter=TieAfterPrimary,
        metadata=reading(16, "a tie after a nonpartisan primary"),
    )
    nonpartisan_fee: NonpartisanFee = attrs.field(
        default=NonpartisanFee.REQUIRED,
        converter=NonpartisanFee,
        metadata=reading(17, "a nonpartisan candidate pays too little"),
    )

    left_best_for_group_seat: LeftBestForGroupSeat = attrs.field(
        default=LeftBestForGroupSeat.RUNS_ITS_COURSE,
        converter=LeftBestForGroupSeat,
        metadata=reading(18, "a departed candidate best placed for a group seat"),
    )
    request_place_tie: RequestPlaceTie = attrs.field(
        default=RequestPlaceTie.ALL_TIED,
        converter=RequestPlaceTie,
        metadata=reading(19, "a tie for the last place that may request"),
    )

    first_election_tie: FirstElectionTie = attrs.field(
        default=FirstElectionTie.LOT,
        converter=FirstElectionTie,
        metadata=reading(20, "a tie the first election does not settle"),
    )

    left_runoff_ballot: LeftRunoffBallot = attrs.field(
        default=LeftRunoffBallot.NAME_STAYS,
        converter=LeftRunoffBallot,
        metadata=reading(21, "a candidate on a runoff ballot leaves"),
    )

    request_after_lot: RequestAfterLot = attrs.field(
        default=RequestAfterLot.FROM_DRAWING,
        converter=RequestAfterLot,
        metadata=reading(22, "a request after a drawing of lots"),
    )

    filing_opening: FilingOpening = attrs.field(
        default=FilingOpening.NOON,
        converter=FilingOpening,
        metadata=reading(23, "filing opens on a day the office is closed"),
    )

    group_tie_voters: GroupTieVoters = attrs.field(
        default=GroupTieVoters.VOTES_PER_SEAT,
        converter=GroupTieVoters,
        metadata=reading(24, "how many voted in a group's tie"),
    )

    departed_in_tie_window: DepartedInTieWindow = attrs.field(
        default=DepartedInTieWindow.RUNOFF,
        converter=DepartedInTieWindow,
        metadata=reading(25, "a tied candidate left before the three days end"),
    )

    tied_left_before_lot: TiedLeftBeforeLot = attrs.field(
        default=TiedLeftBeforeLot.LOT_AMONG_ALL,
        converter=TiedLeftBeforeLot,
        metadata=reading(26, "a tied candidate left before the drawing of lots"),
    )

    group_runoff_tie: GroupRunoffTie = attrs.field(
        default=GroupRunoffTie.LOT,
        converter=GroupRunoffTie,
        metadata=reading(27, "a tie for a seat in a group runoff"),
    )

    late_nonpartisan_withdrawal: LateNonpartisanWithdrawal = attrs.field(
        default=LateNonpartisanWithdrawal.NAME_OFF,
        converter=LateNonpartisanWithdrawal,
        metadata=reading(28, "a nonpartisan withdrawal after filing closes"),
    )

    only_candidate_dies: OnlyCandidateDies = attrs.field(
        default=OnlyCandidateDies.NO_REOPENING,
        converter=OnlyCandidateDies,
        metadata=reading(29, "the only candidate dies before the election"),
    )

    no_candidate_left: NoCandidateLeft = attrs.field(
        default=NoCandidateLeft.NO_NOMINEE,
        converter=NoCandidateLeft,
        metadata=reading(30, "a death leaves a party primary with no candidate"),
    )

    group_death_within_30: GroupDeathWithin30 = attrs.field(
        default=GroupDeathWithin30.NO_REOPENING,
        converter=GroupDeathWithin30,
        metadata=reading(31, "a death within 30 days leaves more than the seats"),
    )

    disqualified_before_printing: DisqualifiedBeforePrinting = attrs.field(
        default=DisqualifiedBeforePrinting.AS_DEATH,
        converter=DisqualifiedBeforePrinting,
        metadata=reading(32, "a party candidate disqualified before printing"),
    )

    recount_not_ordered: RecountNotOrdered = attrs.field(
        default=RecountNotOrdered.REPLACES,
        converter=RecountNotOrdered,
        metadata=reading(33, "a recount of a declared result no tie ordered"),
    )

    canvass_before_its_day: CanvassBeforeItsDay = attrs.field(
        default=CanvassBeforeItsDay.WHEN_HELD,
        converter=CanvassBeforeItsDay,
        metadata=reading(34, "a canvass held before the day the law fixes"),
    )

    left_after_primary_day: LeftAfterPrimaryDay = attrs.field(
        default=LeftAfterPrimaryDay.NEXT_NOMINATED,
        converter=LeftAfterPrimaryDay,
        metadata=reading(35, "a party candidate leaves after the primary day"),
    )

    runoff_canvass: RunoffCanvass = attrs.field(
        default=RunoffCanvass.COUNTY_TENTH_DAY,
        converter=RunoffCanvass,
        metadata=reading(36, "the day a runoff is canvassed"),
    )

    #: each choice's names, in the order docs/readings.md gives them (the first the default):
    #: the members of the enum of each switch that has several (filled below, from the fields)
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {}

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
        p.text(f"readings: {chosen_words(self.changed()) or 'the documented defaults'}")


def about(switch: str) -> About:
    """What the reading a switch of :class:`Interpretations` chooses is about."""
    found: About = attrs.fields_dict(Interpretations)[switch].metadata["about"]
    return found


Interpretations.CHOICES.update(
    (f.name, tuple(m.value for m in type(f.default)))
    for f in attrs.fields(Interpretations)
    if isinstance(f.default, StrEnum)
)

#: every switch, by name, with what its reading is about (in the order of docs/readings.md)
ABOUT: dict[str, About] = {f.name: f.metadata["about"] for f in attrs.fields(Interpretations)}


def chosen_words(changed: Sequence[tuple[str, bool | str]]) -> str:
    """Readings chosen otherwise than their defaults (``Interpretations.changed()``, or what
    ``--reading`` chose), as every view shows them: what each is about and the answer chosen,
    in words, then its switch as a scenario writes it, so that it can be chosen again.

    >>> chosen_words([("withdrawal_as_death", False), ("three_way_tie", "lot")]).split("; ")[0]
    'a withdrawal counts as a death: no (interpretation withdrawal_as_death: false)'
    """
    return "; ".join(
        f"{about(name).words}: {value_words(setting)} {named(name, setting)}"
        for name, setting in changed
    )


def named(switch: str, setting: bool | str) -> str:
    """A switch and its setting as rulings and views name them, as a scenario writes them
    under ``interpretations:``.

    >>> named("three_way_tie", "lot"), named("harmless_ties", False)
    ('(interpretation three_way_tie: lot)', '(interpretation harmless_ties: false)')
    """
    return f"(interpretation {switch}: {written(setting)})"


def written(setting: bool | str) -> str:
    """A reading's setting as a scenario writes it: ``false``, ``lot``."""
    return str(setting).lower() if isinstance(setting, bool) else str(setting)
