"""A departed candidate placed where G.S. 163-293 decides something: rule tables (see
:mod:`simulator.law.rules`).

Each table answers one question the count asks when a candidate who has died, withdrawn or been
disqualified holds a place it decides: the leader of a single office (``leader-left``), the
runner-up (``runner-up-left``), one of those tied for first (``tie-for-first``), and in a group
who may request a runoff (``group-request-places``) and a departed candidate among the best
(``group-left-best``). The handlers in :mod:`simulator.engine.counting` gather the facts,
evaluate the table and apply the typed effect; the rulings they write cite the rule (or name the
conflict or gap).

Where a departed candidate's name stays on the ballot, three provisions speak:

- G.S. 163-294.4(c): a *dead* candidate (ballots printed at the notice, no time to reprint) who
  polls the highest vote leaves the office vacant "even though short of a majority"; a dead
  runner-up means no runoff. This is the more specific provision against 163-293(b) and (d)(2),
  and the tables give it priority over them. Its facts are a death before the election; a death
  on or after election day is left to 163-294.1(c) and named where the two could meet.
- G.S. 163-294.1(b), fourth paragraph: a "deceased or disqualified" candidate (with reading
  7, a withdrawn one) who receives "enough votes to be elected" leaves the office vacant. Read
  here as: polls the place the count would declare elected.
- G.S. 163-294.1(c): "a person elected" who dies, is disqualified or resigns between election
  day and the oath: the office is vacant.

The fallbacks of the conflicts and gaps follow 163-294.4(c), the one provision that speaks of a
departed candidate's votes short of a majority, wherever the facts allow; each says so.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from enum import StrEnum

import attrs

from simulator.law.readings import (
    DeadTiedForFirst,
    DepartedLeaderShort,
    LeftBestForGroupSeat,
    LeftTiedForFirst,
    RequestPlaceTie,
    RunnerUpLeft,
    ThreeWayTie,
    TiedLeftBeforeLot,
    WithdrawnWinner,
)
from simulator.law.rules import Conflict, Gap, Reading, Rule, Table
from simulator.law.tables.count import LEFT
from simulator.law.tables.vacancies import TO_BE_FILLED
from simulator.law.vocab import CandStatus


class LeaderEffect(StrEnum):
    VACANT = "vacant"  # the office is declared vacant now; no runoff
    REQUEST_WINDOW = "request_window"  # 163-293(b)(1): elected unless the runner-up requests
    ELECTED = "elected"  # the count goes on: a majority elects the candidate (`withdrawn_winner`)


@attrs.frozen
class LeaderFacts:
    what: CandStatus  # how the candidate with the highest vote left (never ACTIVE here)
    after_election_day: bool  # left on or after election day (before: the name stayed printed)
    majority: bool  # the leader's votes exceed the majority threshold
    withdrawal_as_death: bool = True  # (the switch of that name)
    #: short of a majority, with two or more tied for second: 163-293(d)(2), not (b)(1), says
    #: what follows the count
    tie_for_second: bool = False

    @property
    def offish(self) -> bool:
        """163-294.1(b)'s "deceased or disqualified", with a withdrawal under
        `withdrawal_as_death`."""
        return self.what is not CandStatus.WITHDREW or self.withdrawal_as_death


def _leader_facts() -> Iterator[LeaderFacts]:
    for what, after, maj, r7 in itertools.product(
        LEFT, (False, True), (False, True), (True, False)
    ):
        yield LeaderFacts(what, after, maj, r7)
        if not maj:
            yield LeaderFacts(what, after, maj, r7, tie_for_second=True)


_LEADER_REQUEST = Reading(
    "departed_leader_short",
    DepartedLeaderShort.REQUEST,
    "163-293(b)(1) runs its course: the runner-up may request a runoff; with no request the "
    "office is declared vacant, the leader being unable to take it",
    LeaderEffect.REQUEST_WINDOW,
)


_LEADER_REQUEST_TIE = Reading(
    "departed_leader_short",
    DepartedLeaderShort.REQUEST,
    "163-293(d)(2) runs its course: those tied for second may withdraw and the last may demand a "
    "runoff; if none is called the office is declared vacant, the leader being unable to take it",
    LeaderEffect.REQUEST_WINDOW,
)


LEADER: Table[LeaderFacts, LeaderEffect] = Table(
    "leader-left",
    "single office, election-and-runoff method: the candidate with the highest vote has died, "
    "withdrawn or been disqualified. Is the office vacant, or may the runner-up request a runoff?",
    (
        Rule(
            id="departed-polls-enough-to-win",
            cite="163-294.1(b)",
            summary="a deceased or disqualified candidate (or one withdrawn, a withdrawal "
            "counted as a death) whose name stayed on the ballot receives enough votes to be "
            "elected: the office is vacant",
            applies=lambda f: not f.after_election_day and f.offish,
            effect=LeaderEffect.VACANT,
        ),
        Rule(
            id="leader-short-of-majority",
            cite="163-293(b)(1)",
            summary="no majority: the highest is declared elected unless the runner-up requests a "
            "runoff",
            applies=lambda f: not f.majority and not f.tie_for_second,
            effect=LeaderEffect.REQUEST_WINDOW,
        ),
        Rule(
            id="leader-short-tied-for-second",
            cite="163-293(d)(2)",
            summary="no majority, and two or more tie for second: the highest is declared elected "
            "unless all but one of those tied withdraw and the last demands a runoff",
            applies=lambda f: not f.majority and f.tie_for_second,
            effect=LeaderEffect.REQUEST_WINDOW,
        ),
        Rule(
            id="dead-candidate-polls-highest",
            cite="163-294.4(c)",
            summary="a candidate who died before the election, name left on the printed ballots, "
            "polls the highest vote: the office is vacant even short of a majority (more specific "
            "than 163-293(b)(1) and (d)(2), which it displaces by its own words, and than "
            "163-294.1(b))",
            applies=lambda f: f.what is CandStatus.DIED and not f.after_election_day,
            effect=LeaderEffect.VACANT,
            exception_to=(
                "departed-polls-enough-to-win",
                "leader-short-of-majority",
                "leader-short-tied-for-second",
            ),
        ),
        Rule(
            id="elected-leader-left",
            cite="163-294.1(c)",
            summary="someone elected leaves (death, disqualification, resignation) from election "
            "day until the oath: the office is vacant",
            applies=lambda f: f.after_election_day,
            effect=LeaderEffect.VACANT,
        ),
    ),
    gaps=(
        Gap(
            "withdrawn-winner",
            ("163-294.1(b)", "163-293(a)(1)"),
            "a candidate who withdrew before the election (name left on the ballot) wins a "
            "majority, a withdrawal not counted as a death (interpretation withdrawal_as_death: "
            "false): 163-294.1(b)'s vacancy "
            "speaks of deceased or disqualified candidates only",
            "the office is declared vacant, as for a disqualified candidate",
            lambda f: not f.after_election_day and not f.offish and f.majority,
            LeaderEffect.VACANT,
            readings=(
                Reading(
                    "withdrawn_winner",
                    WithdrawnWinner.ELECTED,
                    "the withdrawal does not void the votes: the candidate's majority elects "
                    "(163-293(a)(1)); a vacancy follows only under 163-294.1(c), if the "
                    "candidate does not qualify",
                    LeaderEffect.ELECTED,
                ),
            ),
        ),
    ),
    conflicts=(
        Conflict(
            "left-leader-short-of-majority",
            frozenset({"departed-polls-enough-to-win", "leader-short-of-majority"}),
            "a candidate who withdrew or was disqualified before the election polls the highest "
            "vote short of a majority: 163-293(b)(1) declares the highest elected unless the "
            "runner-up requests a runoff; 163-294.1(b) makes the office vacant if the candidate "
            "receives 'enough votes to be elected', which short of a majority the text leaves "
            "open; 163-294.4(c), which settles this for a dead candidate, is silent on others",
            "as 163-294.4(c) provides for a dead candidate: the office is declared vacant and no "
            "runoff is held",
            LeaderEffect.VACANT,
            readings=(_LEADER_REQUEST,),
        ),
        Conflict(
            "leader-left-before-declaration",
            frozenset({"elected-leader-left", "leader-short-of-majority"}),
            "the candidate with the highest vote, short of a majority, leaves on or after "
            "election day before being declared elected: 163-294.1(c) vacates the office of 'a "
            "person elected'; under 163-293(b)(1) the leader is elected only if the runner-up "
            "does not request a runoff, and the runner-up's right stands on the text; "
            "163-294.4(c) (vacant even short of a majority) speaks of deaths before the election",
            "the office is declared vacant when the result is declared, or at the departure if "
            "it already was (163-294.1(c), as 163-294.4(c) would for a death before the "
            "election); a runoff request is not honored",
            LeaderEffect.VACANT,
            readings=(_LEADER_REQUEST,),
        ),
        Conflict(
            "left-leader-short-of-majority",
            frozenset({"departed-polls-enough-to-win", "leader-short-tied-for-second"}),
            "a candidate who withdrew or was disqualified before the election polls the highest "
            "vote short of a majority, with two or more tied for second: 163-293(d)(2) declares "
            "the highest elected unless all but one of those tied withdraw and the last demands a "
            "runoff; 163-294.1(b) makes the office vacant if the candidate receives 'enough votes "
            "to be elected', which short of a majority the text leaves open; 163-294.4(c), which "
            "settles this for a dead candidate, is silent on others",
            "as 163-294.4(c) provides for a dead candidate: the office is declared vacant and no "
            "runoff is held",
            LeaderEffect.VACANT,
            readings=(_LEADER_REQUEST_TIE,),
        ),
        Conflict(
            "leader-left-before-declaration",
            frozenset({"elected-leader-left", "leader-short-tied-for-second"}),
            "the candidate with the highest vote, short of a majority and with two or more tied "
            "for second, leaves on or after election day before being declared elected: "
            "163-294.1(c) vacates the office of 'a person elected'; under 163-293(d)(2) the "
            "leader is elected unless all but one of those tied withdraw and the last demands a "
            "runoff, and their right stands on the text; 163-294.4(c) (vacant even short of a "
            "majority) speaks of deaths before the election",
            "the office is declared vacant when the result is declared, or at the departure if "
            "it already was (163-294.1(c), as 163-294.4(c) would for a death before the "
            "election); a demand for a runoff is not honored",
            LeaderEffect.VACANT,
            readings=(_LEADER_REQUEST_TIE,),
        ),
    ),
    facts=_leader_facts,
    asked="{name} ({status}) polled the highest vote",
)


class SecondEffect(StrEnum):
    NO_RUNOFF = "no_runoff"  # the leader is declared elected
    REQUEST_WINDOW = "request_window"  # 163-293(b)(1)
    TIE_WINDOW = "tie_window"  # 163-293(d)(2)


@attrs.frozen
class SecondFacts:
    left: CandStatus  # the departed runner-up (or the one among those tied for second)
    after_election_day: bool
    tied: bool  # several candidates tie for the second highest vote


def _second_facts() -> Iterator[SecondFacts]:
    for left, after, tied in itertools.product(LEFT, (False, True), (False, True)):
        yield SecondFacts(left, after, tied)


_SECOND_OPEN = (
    "the runner-up (or one of those tied for second) withdrew or was disqualified with the name "
    "left on the ballot, or died on or after election day: 163-293(b)(1) and (d)(2) speak of "
    "candidates who can still request or withdraw (a withdrawal before the election is not the "
    "notice within three days of the result that (d)(2) counts), and 163-294.4(c) cancels the "
    "runoff only for a candidate who died before the election"
)


_RUNS_ITS_COURSE = (
    "163-293(b)(1) and (d)(2) run as written: without a tie the request period opens, a "
    "runner-up who has left cannot request, and the highest is declared elected when it ends; "
    "with a tie for second a tied candidate who withdrew before the election counts as "
    "withdrawn (one who died or was disqualified does not), and if one tied candidate remains "
    "that candidate may demand a runoff"
)


_SECOND_REQUEST = Reading(
    "runner_up_left",
    RunnerUpLeft.RUNS_ITS_COURSE,
    _RUNS_ITS_COURSE,
    SecondEffect.REQUEST_WINDOW,
)


_SECOND_TIE = Reading(
    "runner_up_left",
    RunnerUpLeft.RUNS_ITS_COURSE,
    _RUNS_ITS_COURSE,
    SecondEffect.TIE_WINDOW,
)


def _second_gap(*, tied: bool, reading: Reading[SecondEffect]) -> Gap[SecondFacts, SecondEffect]:
    """The gap for a runner-up who left, one for a tie for second and one without: the other
    reading runs a different part of 163-293."""
    return Gap(
        "runner-up-left",
        ("163-293(b)(1)", "163-293(d)(2)", "163-294.4(c)"),
        _SECOND_OPEN,
        "no runoff: the highest is declared elected, as 163-294.4(c) provides for a dead runner-up",
        lambda f: (f.left is not CandStatus.DIED or f.after_election_day) and f.tied is tied,
        SecondEffect.NO_RUNOFF,
        readings=(reading,),
    )


SECOND: Table[SecondFacts, SecondEffect] = Table(
    "runner-up-left",
    "single office, election-and-runoff method, no majority, the leader stands: the runner-up "
    "(or one of the candidates tied for second) has died, withdrawn or been disqualified. Is "
    "there a runoff?",
    (
        Rule(
            id="tie-for-second-runs-its-course",
            cite="163-293(d)(2)",
            summary="a tie for second: the leader is elected unless all but one of the tied "
            "withdraw in writing within three days of the declaration and the last demands a "
            "runoff (a candidate who has died cannot withdraw)",
            applies=lambda f: f.tied and f.left is CandStatus.DIED and not f.after_election_day,
            effect=SecondEffect.TIE_WINDOW,
        ),
        Rule(
            id="dead-candidate-polls-second",
            cite="163-294.4(c)",
            summary="the second highest vote is cast for a candidate who died before the "
            "election: no runoff, the highest is declared elected (more specific than "
            "163-293(d)(2), which it displaces for a tie that includes the dead candidate)",
            applies=lambda f: f.left is CandStatus.DIED and not f.after_election_day,
            effect=SecondEffect.NO_RUNOFF,
            exception_to=("tie-for-second-runs-its-course",),
        ),
    ),
    gaps=(
        _second_gap(tied=False, reading=_SECOND_REQUEST),
        _second_gap(tied=True, reading=_SECOND_TIE),
    ),
    facts=_second_facts,
    asked="the second highest vote went to {who}",
)


class TieFirstEffect(StrEnum):
    RUNOFF_UNLESS_WITHDRAWAL = "runoff_unless_withdrawal"  # 163-293(d)(1)
    VACANT = "vacant"
    OTHER_ELECTED = "other_elected"  # the tied candidate still standing is elected
    LOT = "lot"  # `three_way_tie` switched: a drawing of lots among the tied


@attrs.frozen
class TieFirstFacts:
    left: CandStatus  # ACTIVE when every tied candidate stands
    tied: int  # how many are tied for the highest vote after the recount
    after_election_day: bool = False
    #: a tied candidate who has not left remains (False when every tied candidate has left)
    one_stands: bool = True


def _tie_first_facts() -> Iterator[TieFirstFacts]:
    for left, tied, after, stands in itertools.product(
        CandStatus, (2, 3), (False, True), (True, False)
    ):
        if left is CandStatus.ACTIVE and (after or not stands):
            continue
        yield TieFirstFacts(left, tied, after, stands)


TIE_FIRST: Table[TieFirstFacts, TieFirstEffect] = Table(
    "tie-for-first",
    "single office, election-and-runoff method: the recount confirms a tie for the highest vote. "
    "A runoff, a vacancy, or the other candidate elected?",
    (
        Rule(
            id="tie-for-first-runoff",
            cite="163-293(d)(1)",
            summary="two candidates tie for the highest vote after the recount: a runoff between "
            "the two unless one withdraws in writing within three days of the declaration",
            applies=lambda f: f.tied == 2 and f.left in (CandStatus.ACTIVE, CandStatus.DIED),
            effect=TieFirstEffect.RUNOFF_UNLESS_WITHDRAWAL,
        ),
        Rule(
            id="dead-tied-highest",
            cite="163-294.4(c)",
            summary="a candidate who died before the election polls the highest vote (here, tied "
            "for it): the office is vacant",
            applies=lambda f: f.left is CandStatus.DIED and not f.after_election_day,
            effect=TieFirstEffect.VACANT,
        ),
    ),
    gaps=(
        Gap(
            "three-way-tie",
            ("163-293(d)(1)",),
            "three or more candidates remain tied for the highest vote after the recount: (d)(1) "
            "provides a runoff between 'the two'",
            "a runoff among all the tied unless all but one withdraw within three days",
            lambda f: (
                f.tied > 2
                and (
                    f.left is CandStatus.ACTIVE
                    or (f.left is CandStatus.DIED and f.after_election_day)
                )
            ),
            TieFirstEffect.RUNOFF_UNLESS_WITHDRAWAL,
            readings=(
                Reading(
                    "three_way_tie",
                    ThreeWayTie.LOT,
                    "a drawing of lots among all the tied",
                    TieFirstEffect.LOT,
                ),
            ),
        ),
        Gap(
            "left-tied-for-first",
            ("163-293(d)(1)", "163-294.1(b)", "163-294.1(c)"),
            "a candidate tied for the highest vote withdrew or was disqualified (name left on "
            "the ballot): (d)(1) counts a withdrawal filed "
            "within three days of the recount's result and gives a runoff otherwise; "
            "163-294.1(b) and (c) speak of a departed candidate who polls enough to be elected, "
            "which a tie does not settle",
            "the tied candidate who still stands is declared elected, as (d)(1) provides when "
            "the other tied candidate leaves the race",
            lambda f: f.left in (CandStatus.WITHDREW, CandStatus.DISQUALIFIED) and f.one_stands,
            TieFirstEffect.OTHER_ELECTED,
            readings=(
                Reading(
                    "left_tied_for_first",
                    LeftTiedForFirst.VACANT,
                    "the office is declared vacant: a share of the highest vote is enough to be "
                    "elected, and 163-294.1(b) vacates the office of a departed candidate who "
                    "receives it; no runoff",
                    TieFirstEffect.VACANT,
                ),
            ),
        ),
        Gap(
            "every-tied-candidate-left",
            ("163-293(d)(1)", "163-294.1(b)"),
            "every candidate tied for the highest vote withdrew or was disqualified, names left "
            "on the ballot: (d)(1) elects the one who remains when the other withdraws, and here "
            "none remains",
            "the office is declared vacant, as 163-294.1(b) provides when a departed candidate "
            "receives enough votes to be elected",
            lambda f: f.left in (CandStatus.WITHDREW, CandStatus.DISQUALIFIED) and not f.one_stands,
            TieFirstEffect.VACANT,
        ),
    ),
    conflicts=(
        Conflict(
            "dead-tied-for-first",
            frozenset({"tie-for-first-runoff", "dead-tied-highest"}),
            "a candidate who died before the election ties for the highest vote after the "
            "recount: 163-293(d)(1) orders a runoff between the two unless one withdraws, which "
            "a dead candidate cannot do; 163-294.4(c) makes the office vacant when a dead "
            "candidate polls the highest vote and elects the highest when a dead candidate polls "
            "the second, and a tie is both",
            "the office is declared vacant (163-294.4(c): the dead candidate polled the highest "
            "number of votes, shared); no runoff",
            TieFirstEffect.VACANT,
            readings=(
                Reading(
                    "dead_tied_for_first",
                    DeadTiedForFirst.OTHER_ELECTED,
                    "the tied candidate who stands is declared elected, as 163-294.4(c) provides "
                    "when the second highest vote is cast for a dead candidate; no runoff",
                    TieFirstEffect.OTHER_ELECTED,
                ),
            ),
        ),
    ),
    facts=_tie_first_facts,
    asked="the recount leaves {who} tied for first",
)


class PlacesEffect(StrEnum):
    NEXT_R = "next_r"  # the next R candidates may request
    ALL_TIED = "all_tied"  # everyone tied for the last of those places may request
    #: a drawing of lots decides which of the tied holds the last place (`request_place_tie`)
    LOT = "lot"


@attrs.frozen
class PlacesFacts:
    tied_at_boundary: bool  # a tie for the last place that carries the right to request


PLACES: Table[PlacesFacts, PlacesEffect] = Table(
    "group-request-places",
    "group offices, election-and-runoff method, seats left without a majority: who may request "
    "a runoff?",
    (
        Rule(
            id="next-candidates-request",
            cite="163-293(b)(2)",
            summary="the candidates equal in number to the seats remaining with the next highest "
            "votes may request a runoff",
            applies=lambda f: not f.tied_at_boundary,
            effect=PlacesEffect.NEXT_R,
        ),
    ),
    gaps=(
        Gap(
            "group-tie-for-request-place",
            ("163-293(b)(2)", "163-293(d)(2)"),
            "two or more candidates tie for the last place that carries the right to request a "
            "runoff: (b)(2) counts 'candidates equal in number to the positions remaining', and "
            "(d)(2)'s rule for a tie for second is written for a single office",
            "every candidate tied for that place may request a runoff; the runoff ballot holds "
            "the remaining leaders and every requester (interpretation group_runoff_ballot: "
            "remaining_and_requesters)",
            lambda f: f.tied_at_boundary,
            PlacesEffect.ALL_TIED,
            readings=(
                Reading(
                    "request_place_tie",
                    RequestPlaceTie.LOT,
                    "a drawing of lots decides which of the tied candidates hold the places that "
                    "carry the right to request a runoff, so that as many may request as there "
                    "are seats left, as 163-292(3) breaks ties by lot",
                    PlacesEffect.LOT,
                ),
            ),
        ),
    ),
    facts=lambda: (PlacesFacts(True), PlacesFacts(False)),
    asked="{tied} tie for the last place that carries the right to request a runoff",
)


class PlaceLeftEffect(StrEnum):
    LOT_AMONG_ALL = "lot_among_all"  # the drawing counts every tied candidate (the default)
    #: those who still stand take the places without a drawing (`tied_left_before_lot`)
    STANDING = "standing"


@attrs.frozen
class PlaceLeftFacts:
    #: a candidate tied for the last place that carries the right to request, the tie to be
    #: settled by lot (`request_place_tie`), has left the race before the drawing
    left: bool = True


PLACE_LEFT: Table[PlaceLeftFacts, PlaceLeftEffect] = Table(
    "group-request-place-left",
    "group offices, election-and-runoff method, a drawing of lots to settle who may request a "
    "runoff (interpretation request_place_tie: lot): does the drawing count a tied "
    "candidate who has left?",
    (),
    gaps=(
        Gap(
            "request-place-tied-candidate-left-before-lot",
            ("163-293(b)(2)", "163-292(3)"),
            "a candidate tied for the last place that carries the right to request a runoff has "
            "died, withdrawn or been disqualified, the name on the ballot, before the drawing of "
            "lots that settles the place: (b)(2) gives the right to the candidates with the next "
            "highest votes, and the drawing borrows 163-292(3)'s lot; neither says whether the "
            "drawing still counts the one who left",
            "the drawing of lots is held among all the tied; a place it gives to the one who "
            "left carries nobody's right to request",
            lambda f: f.left,
            PlaceLeftEffect.LOT_AMONG_ALL,
            readings=(
                Reading(
                    "tied_left_before_lot",
                    TiedLeftBeforeLot.AMONG_STANDING,
                    "the drawing is held only among the tied candidates who still stand; as many "
                    "stand as there are places, so they hold them without a lot, as "
                    "163-293(d)(1) settles a tie for first in favour of the one who remains when "
                    "the other withdraws",
                    PlaceLeftEffect.STANDING,
                ),
            ),
        ),
    ),
    facts=lambda: (PlaceLeftFacts(),),
    asked=(
        "{tied} tie for the last place that carries the right to request a runoff, and {gone} "
        "before the drawing of lots"
    ),
)


class GroupLeftEffect(StrEnum):
    #: the best R (the departed candidate among them) are declared elected unless a runoff is
    #: requested; a departed candidate's seat is then vacant
    DECLARED_UNLESS_REQUEST = "declared_unless_request"
    #: the departed candidate's seat is declared vacant at once, with no runoff for it; the
    #: other seats follow 163-293(b)(2) (`left_best_for_group_seat`)
    VACANT = "vacant"


_GROUP_SEAT_VACANT = Reading(
    "left_best_for_group_seat",
    LeftBestForGroupSeat.VACANT,
    "the departed candidate's seat is declared vacant at once, as 163-294.4(c) does for a single "
    "office even short of a majority; no runoff is held for it, and the other seats left follow "
    "163-293(b)(2)",
    GroupLeftEffect.VACANT,
)


@attrs.frozen
class GroupLeftFacts:
    what: CandStatus
    after_election_day: bool
    withdrawal_as_death: bool = True

    @property
    def offish(self) -> bool:
        return self.what is not CandStatus.WITHDREW or self.withdrawal_as_death


GROUP_LEFT: Table[GroupLeftFacts, GroupLeftEffect] = Table(
    "group-left-best",
    "group offices, election-and-runoff method, seats left without a majority: a candidate who "
    "has left is among the best placed for those seats. What happens to that seat?",
    (
        Rule(
            id="best-declared",
            cite="163-293(b)(2)",
            summary="the candidates with the highest votes, equal in number to the seats "
            "remaining, are declared elected unless the next as many request a runoff",
            applies=lambda f: True,
            effect=GroupLeftEffect.DECLARED_UNLESS_REQUEST,
        ),
        Rule(
            id="departed-best-enough-votes",
            cite="163-294.1(b)",
            summary="a deceased or disqualified candidate (or one withdrawn, a withdrawal "
            "counted as a death) receives enough votes to be elected: the office is vacant",
            applies=lambda f: not f.after_election_day and f.offish,
            effect=GroupLeftEffect.DECLARED_UNLESS_REQUEST,
        ),
        Rule(
            id="elected-best-left",
            cite="163-294.1(c)",
            summary="a person elected leaves on or after election day, before the oath: vacant",
            applies=lambda f: f.after_election_day,
            effect=GroupLeftEffect.DECLARED_UNLESS_REQUEST,
        ),
    ),
    conflicts=(
        Conflict(
            "left-best-for-group-seat",
            frozenset({"best-declared", "departed-best-enough-votes"}),
            "a departed candidate whose name stayed on the ballot is among the best placed for a "
            "seat left without a majority: 163-294.4(c) (vacant even short of a majority, no "
            "runoff) speaks of 'the office' and 'the highest number of votes' of a single "
            "office; 163-294.1(b) vacates the seat if the votes are 'enough to be elected', "
            "which under 163-293(b)(2) they are only if no runoff is requested",
            "163-293(b)(2) runs its course: the next candidates may request a runoff (the "
            "departed candidate's name stays on its ballot); if none does, the departed "
            "candidate's seat is declared vacant (163-294.1(b)) and the others are elected",
            GroupLeftEffect.DECLARED_UNLESS_REQUEST,
            readings=(_GROUP_SEAT_VACANT,),
        ),
        Conflict(
            "left-best-for-group-seat-after-election-day",
            frozenset({"best-declared", "elected-best-left"}),
            "a candidate best placed for a seat left without a majority leaves on or after "
            "election day, before being declared elected: 163-294.1(c) speaks of 'a person "
            "elected', and under 163-293(b)(2) the candidate is elected only if no runoff is "
            "requested",
            "163-293(b)(2) runs its course; if no runoff is requested the seat is declared "
            "vacant (163-294.1(c))",
            GroupLeftEffect.DECLARED_UNLESS_REQUEST,
            readings=(_GROUP_SEAT_VACANT,),
        ),
    ),
    facts=lambda: (
        GroupLeftFacts(w, a, r) for w, a, r in itertools.product(LEFT, (False, True), (True, False))
    ),
    asked="{name} ({status}) is best placed for a seat",
)


# --- what the rulings on a tie for first a departure reaches say -------------------------------

#: what the tie asks of the ``tie-for-first`` table among those still standing, once the others
#: have left
STILL_TIED_ASKED = "{tied} remain tied for first"
#: the office is declared vacant ({who}: the tied, each who left with how)
TIED_VACANT = "the highest vote is shared by {who}: the board declares the office vacant, " + (
    TO_BE_FILLED
)
#: and so no runoff is held
VACANT_NO_RUNOFF = "the office is vacant: no runoff is held"
#: the one still standing is declared ({gone}: those who left, each with how)
OTHER_HAD_LEFT = "the other tied candidate had left the race ({gone})"
OTHERS_HAD_LEFT = "the other tied candidates had left the race ({gone})"


# --- what the rulings on a departed leader or runner-up say ({status}: how one stands) ---------

#: the ``leader-left`` table vacates the office ({leader}; {votes}: the leader's; {short}:
#: :data:`SHORT`'s, by whether the leader polled a majority)
LEADER_VACANT = (
    "{leader} ({status}) polled the highest vote ({votes}{short}): the board declares the office "
    "vacant, " + TO_BE_FILLED
)
SHORT: dict[bool, str] = {True: "", False: ", short of a majority"}
#: the ``runner-up-left`` table leaves no runoff ({who}: those who left, each with how)
SECOND_LEFT_NO_RUNOFF = "the second highest vote went to {who}: no runoff"
#: the ``group-left-best`` table vacates a seat ({name})
GROUP_SEAT_VACANT = (
    "{name} ({status}) is best placed for a seat left without a majority: the board declares the "
    "seat vacant, " + TO_BE_FILLED + "; no runoff is held for it"
)
#: the ``runner-up-left`` table leaves no runoff: the leaders are declared ({names})
NO_RUNOFF_ELECTED = "no runoff: {names} elected"
#: why the best placed are declared when no runner-up the ``group-request-places`` table gives
#: the request to still stands
NO_ELIGIBLE_RUNNER_UP = "no eligible runner-up"
#: why the one a drawing of lots among those tied for first names is declared
#: (`three_way_tie`)
DECIDED_BY_LOT = "decided by lot"
