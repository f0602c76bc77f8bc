"""The law of the count where provisions meet: rule tables (see :mod:`simulator.law.rules`).

Each table answers one question the count asks when a candidate who has died, withdrawn or been
disqualified is placed where G.S. 163-293 decides something, when a tie must be broken in an
election decided by the highest vote, what a tie's three days under 163-293(d) come to
(``tie-window``), whether a recount is required or has effect (``recount``), whether a drawing of
lots decides a tie (``lot``), whether a runoff request counts, and which provision sets a canvass.
The handlers in
:mod:`simulator.engine.counting` and :mod:`simulator.engine.replay` gather the facts, evaluate the
table and
apply the typed effect; the rulings they write cite the rule (or name the conflict or gap).

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
from collections.abc import Callable, Iterator
from enum import StrEnum
from typing import Any

import attrs

from simulator.law.cite import Cite, statute
from simulator.law.readings import (
    DeadTiedForFirst,
    DepartedLeaderShort,
    DepartedTiedForASeat,
    FirstElectionTie,
    LeftBestForGroupSeat,
    LeftTiedForFirst,
    RequestPlaceTie,
    RunnerUpLeft,
    ThreeWayTie,
    TieAfterPrimary,
    WithdrawnWinner,
)
from simulator.law.rules import Conflict, Gap, Reading, Rule, Table
from simulator.law.vocab import DeadlineKind, Method


class Standing(StrEnum):
    """Where a candidate stands when the count reaches them."""

    ACTIVE = "active"
    DIED = "died"
    WITHDREW = "withdrew"
    DISQUALIFIED = "disqualified"


LEFT = (Standing.DIED, Standing.WITHDREW, Standing.DISQUALIFIED)


# --- the leader of a single office under 163-293 has left the race -----------------------------


class LeaderEffect(StrEnum):
    VACANT = "vacant"  # the office is declared vacant now; no runoff
    REQUEST_WINDOW = "request_window"  # 163-293(b)(1): elected unless the runner-up requests
    ELECTED = "elected"  # the count goes on: a majority elects the candidate (reading 15)


@attrs.frozen
class LeaderFacts:
    what: Standing  # how the candidate with the highest vote left (never ACTIVE here)
    after_election_day: bool  # left on or after election day (before: the name stayed printed)
    majority: bool  # the leader's votes exceed the majority threshold
    withdrawal_as_death: bool = True  # reading 7

    @property
    def offish(self) -> bool:
        """163-294.1(b)'s "deceased or disqualified", with a withdrawal under reading 7."""
        return self.what is not Standing.WITHDREW or self.withdrawal_as_death


def _leader_facts() -> Iterator[LeaderFacts]:
    for what, after, maj, r7 in itertools.product(
        LEFT, (False, True), (False, True), (True, False)
    ):
        yield LeaderFacts(what, after, maj, r7)


L = LeaderEffect
_LEADER_REQUEST = Reading(
    "departed_leader_short",
    DepartedLeaderShort.REQUEST,
    "163-293(b)(1) runs its course: the runner-up may request a runoff; with no request the "
    "office is declared vacant, the leader being unable to take it",
    L.REQUEST_WINDOW,
)
LEADER: Table[LeaderFacts, LeaderEffect] = Table(
    "leader-left",
    "single office, election-and-runoff method: the candidate with the highest vote has died, "
    "withdrawn or been disqualified. Is the office vacant, or may the runner-up request a runoff?",
    (
        Rule(
            "2944c-dead-highest",
            "163-294.4(c)",
            "a candidate who died before the election, name left on the printed ballots, polls "
            "the highest vote: the office is vacant even short of a majority (more specific than "
            "163-293(b)(1), which it displaces by its own words, and than 163-294.1(b))",
            lambda f: f.what is Standing.DIED and not f.after_election_day,
            L.VACANT,
            exception_to=("2941b-enough-votes", "2931-leader-short"),
        ),
        Rule(
            "2941b-enough-votes",
            "163-294.1(b)",
            "a deceased or disqualified candidate (withdrawn, reading 7) whose name stayed on the "
            "ballot receives enough votes to be elected: the office is vacant",
            lambda f: not f.after_election_day and f.offish,
            L.VACANT,
        ),
        Rule(
            "2931-leader-short",
            "163-293(b)(1)",
            "no majority: the highest is declared elected unless the runner-up requests a runoff",
            lambda f: not f.majority,
            L.REQUEST_WINDOW,
        ),
        Rule(
            "2941c-person-elected",
            "163-294.1(c)",
            "someone elected leaves (death, disqualification, resignation) from election day "
            "until the oath: the office is vacant",
            lambda f: f.after_election_day,
            L.VACANT,
        ),
    ),
    gaps=(
        Gap(
            "withdrawn-winner",
            ("163-294.1(b)", "163-293(a)(1)"),
            "a candidate who withdrew before the election (name left on the ballot) wins a "
            "majority, with reading 7 switched off: 163-294.1(b)'s vacancy speaks of deceased or "
            "disqualified candidates only",
            "the office is declared vacant, as for a disqualified candidate",
            lambda f: not f.after_election_day and not f.offish and f.majority,
            L.VACANT,
            readings=(
                Reading(
                    "withdrawn_winner",
                    WithdrawnWinner.ELECTED,
                    "the withdrawal does not void the votes: the candidate's majority elects "
                    "(163-293(a)(1)); a vacancy follows only under 163-294.1(c), if the "
                    "candidate does not qualify",
                    L.ELECTED,
                ),
            ),
        ),
    ),
    conflicts=(
        Conflict(
            "left-leader-short-of-majority",
            frozenset({"2941b-enough-votes", "2931-leader-short"}),
            "a candidate who withdrew or was disqualified before the election polls the highest "
            "vote short of a majority: 163-293(b)(1) declares the highest elected unless the "
            "runner-up requests a runoff; 163-294.1(b) makes the office vacant if the candidate "
            "receives 'enough votes to be elected', which short of a majority the text leaves "
            "open; 163-294.4(c), which settles this for a dead candidate, is silent on others",
            "as 163-294.4(c) provides for a dead candidate: the office is declared vacant and no "
            "runoff is held",
            L.VACANT,
            readings=(_LEADER_REQUEST,),
        ),
        Conflict(
            "leader-left-before-declaration",
            frozenset({"2941c-person-elected", "2931-leader-short"}),
            "the candidate with the highest vote, short of a majority, leaves on or after "
            "election day before being declared elected: 163-294.1(c) vacates the office of 'a "
            "person elected'; under 163-293(b)(1) the leader is elected only if the runner-up "
            "does not request a runoff, and the runner-up's right stands on the text; "
            "163-294.4(c) (vacant even short of a majority) speaks of deaths before the election",
            "the office is declared vacant when the result is declared, or at the departure if "
            "it already was (163-294.1(c), as 163-294.4(c) would for a death before the "
            "election); a runoff request is not honored",
            L.VACANT,
            readings=(_LEADER_REQUEST,),
        ),
    ),
    facts=_leader_facts,
)


# --- the runner-up (or one of those tied for second) has left --------------------------------


class SecondEffect(StrEnum):
    NO_RUNOFF = "no_runoff"  # the leader is declared elected
    REQUEST_WINDOW = "request_window"  # 163-293(b)(1)
    TIE_WINDOW = "tie_window"  # 163-293(d)(2)


@attrs.frozen
class SecondFacts:
    left: Standing  # the departed runner-up (or the one among those tied for second)
    after_election_day: bool
    tied: bool  # several candidates tie for the second highest vote


def _second_facts() -> Iterator[SecondFacts]:
    for left, after, tied in itertools.product(LEFT, (False, True), (False, True)):
        yield SecondFacts(left, after, tied)


S = SecondEffect
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
    S.REQUEST_WINDOW,
)
_SECOND_TIE = Reading(
    "runner_up_left",
    RunnerUpLeft.RUNS_ITS_COURSE,
    _RUNS_ITS_COURSE,
    S.TIE_WINDOW,
)


def _second_gap(*, tied: bool, reading: Reading[SecondEffect]) -> Gap[SecondFacts, SecondEffect]:
    """The gap for a runner-up who left, one for a tie for second and one without: the other
    reading runs a different part of 163-293."""
    return Gap(
        "runner-up-left",
        ("163-293(b)(1)", "163-293(d)(2)", "163-294.4(c)"),
        _SECOND_OPEN,
        "no runoff: the highest is declared elected, as 163-294.4(c) provides for a dead runner-up",
        lambda f: (f.left is not Standing.DIED or f.after_election_day) and f.tied is tied,
        S.NO_RUNOFF,
        readings=(reading,),
    )


SECOND: Table[SecondFacts, SecondEffect] = Table(
    "runner-up-left",
    "single office, election-and-runoff method, no majority, the leader stands: the runner-up "
    "(or one of the candidates tied for second) has died, withdrawn or been disqualified. Is "
    "there a runoff?",
    (
        Rule(
            "2944c-dead-second",
            "163-294.4(c)",
            "the second highest vote is cast for a candidate who died before the election: no "
            "runoff, the highest is declared elected (more specific than 163-293(d)(2), which "
            "it displaces for a tie that includes the dead candidate)",
            lambda f: f.left is Standing.DIED and not f.after_election_day,
            S.NO_RUNOFF,
            exception_to=("2932-tie-for-second",),
        ),
        Rule(
            "2932-tie-for-second",
            "163-293(d)(2)",
            "a tie for second: the leader is elected unless all but one of the tied withdraw in "
            "writing within three days of the declaration and the last demands a runoff (a "
            "candidate who has died cannot withdraw)",
            lambda f: f.tied and f.left is Standing.DIED and not f.after_election_day,
            S.TIE_WINDOW,
        ),
    ),
    gaps=(
        _second_gap(tied=False, reading=_SECOND_REQUEST),
        _second_gap(tied=True, reading=_SECOND_TIE),
    ),
    facts=_second_facts,
)


# --- a tie for first after the recount, where a tied candidate has left ---------------------


class TieFirstEffect(StrEnum):
    RUNOFF_UNLESS_WITHDRAWAL = "runoff_unless_withdrawal"  # 163-293(d)(1)
    VACANT = "vacant"
    OTHER_ELECTED = "other_elected"  # the tied candidate still standing is elected
    LOT = "lot"  # reading 6 switched: a drawing of lots among the tied


@attrs.frozen
class TieFirstFacts:
    left: Standing  # ACTIVE when every tied candidate stands
    tied: int  # how many are tied for the highest vote after the recount
    after_election_day: bool = False
    #: a tied candidate who has not left remains (False when every tied candidate has left)
    one_stands: bool = True


def _tie_first_facts() -> Iterator[TieFirstFacts]:
    for left, tied, after, stands in itertools.product(
        Standing, (2, 3), (False, True), (True, False)
    ):
        if left is Standing.ACTIVE and (after or not stands):
            continue
        yield TieFirstFacts(left, tied, after, stands)


T = TieFirstEffect
TIE_FIRST: Table[TieFirstFacts, TieFirstEffect] = Table(
    "tie-for-first",
    "single office, election-and-runoff method: the recount confirms a tie for the highest vote. "
    "A runoff, a vacancy, or the other candidate elected?",
    (
        Rule(
            "2931d1-tie",
            "163-293(d)(1)",
            "two candidates tie for the highest vote after the recount: a runoff between the two "
            "unless one withdraws in writing within three days of the declaration",
            lambda f: f.tied == 2 and f.left in (Standing.ACTIVE, Standing.DIED),
            T.RUNOFF_UNLESS_WITHDRAWAL,
        ),
        Rule(
            "2944c-dead-tied-highest",
            "163-294.4(c)",
            "a candidate who died before the election polls the highest vote (here, tied for "
            "it): the office is vacant",
            lambda f: f.left is Standing.DIED and not f.after_election_day,
            T.VACANT,
        ),
    ),
    gaps=(
        Gap(
            "three-way-tie",
            ("163-293(d)(1)",),
            "three or more candidates remain tied for the highest vote after the recount: (d)(1) "
            "provides a runoff between 'the two'",
            "reading 6: a runoff among all the tied unless all but one withdraw within three days",
            lambda f: (
                f.tied > 2
                and (
                    f.left is Standing.ACTIVE or (f.left is Standing.DIED and f.after_election_day)
                )
            ),
            T.RUNOFF_UNLESS_WITHDRAWAL,
            readings=(
                Reading(
                    "three_way_tie", ThreeWayTie.LOT, "a drawing of lots among all the tied", T.LOT
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
            lambda f: f.left in (Standing.WITHDREW, Standing.DISQUALIFIED) and f.one_stands,
            T.OTHER_ELECTED,
            readings=(
                Reading(
                    "left_tied_for_first",
                    LeftTiedForFirst.VACANT,
                    "the office is declared vacant: a share of the highest vote is enough to be "
                    "elected, and 163-294.1(b) vacates the office of a departed candidate who "
                    "receives it; no runoff",
                    T.VACANT,
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
            lambda f: f.left in (Standing.WITHDREW, Standing.DISQUALIFIED) and not f.one_stands,
            T.VACANT,
        ),
    ),
    conflicts=(
        Conflict(
            "dead-tied-for-first",
            frozenset({"2931d1-tie", "2944c-dead-tied-highest"}),
            "a candidate who died before the election ties for the highest vote after the "
            "recount: 163-293(d)(1) orders a runoff between the two unless one withdraws, which "
            "a dead candidate cannot do; 163-294.4(c) makes the office vacant when a dead "
            "candidate polls the highest vote and elects the highest when a dead candidate polls "
            "the second, and a tie is both",
            "the office is declared vacant (163-294.4(c): the dead candidate polled the highest "
            "number of votes, shared); no runoff",
            T.VACANT,
            readings=(
                Reading(
                    "dead_tied_for_first",
                    DeadTiedForFirst.OTHER_ELECTED,
                    "the tied candidate who stands is declared elected, as 163-294.4(c) provides "
                    "when the second highest vote is cast for a dead candidate; no runoff",
                    T.OTHER_ELECTED,
                ),
            ),
        ),
    ),
    facts=_tie_first_facts,
)


# --- group offices: who may request a runoff, and a departed candidate among the best ------


class PlacesEffect(StrEnum):
    NEXT_R = "next_r"  # the next R candidates may request
    ALL_TIED = "all_tied"  # everyone tied for the last of those places may request
    LOT = "lot"  # a drawing of lots decides which of the tied holds the last place (reading 19)


@attrs.frozen
class PlacesFacts:
    tied_at_boundary: bool  # a tie for the last place that carries the right to request


PLACES: Table[PlacesFacts, PlacesEffect] = Table(
    "group-request-places",
    "group offices, election-and-runoff method, seats left without a majority: who may request "
    "a runoff?",
    (
        Rule(
            "2932b2-next-r",
            "163-293(b)(2)",
            "the candidates equal in number to the seats remaining with the next highest votes "
            "may request a runoff",
            lambda f: not f.tied_at_boundary,
            PlacesEffect.NEXT_R,
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
            "the remaining leaders and every requester (reading 5)",
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
)


class GroupLeftEffect(StrEnum):
    #: the best R (the departed candidate among them) are declared elected unless a runoff is
    #: requested; a departed candidate's seat is then vacant
    DECLARED_UNLESS_REQUEST = "declared_unless_request"
    #: the departed candidate's seat is declared vacant at once, with no runoff for it; the
    #: other seats follow 163-293(b)(2) (reading 18)
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
    what: Standing
    after_election_day: bool
    withdrawal_as_death: bool = True

    @property
    def offish(self) -> bool:
        return self.what is not Standing.WITHDREW or self.withdrawal_as_death


G = GroupLeftEffect
GROUP_LEFT: Table[GroupLeftFacts, GroupLeftEffect] = Table(
    "group-left-best",
    "group offices, election-and-runoff method, seats left without a majority: a candidate who "
    "has left is among the best placed for those seats. What happens to that seat?",
    (
        Rule(
            "2932b2-declared",
            "163-293(b)(2)",
            "the candidates with the highest votes, equal in number to the seats remaining, are "
            "declared elected unless the next as many request a runoff",
            lambda f: True,
            G.DECLARED_UNLESS_REQUEST,
        ),
        Rule(
            "2941b-enough-votes-group",
            "163-294.1(b)",
            "a deceased or disqualified candidate (withdrawn, reading 7) receives enough votes to "
            "be elected: the office is vacant",
            lambda f: not f.after_election_day and f.offish,
            G.DECLARED_UNLESS_REQUEST,
        ),
        Rule(
            "2941c-person-elected-group",
            "163-294.1(c)",
            "a person elected leaves on or after election day, before the oath: vacant",
            lambda f: f.after_election_day,
            G.DECLARED_UNLESS_REQUEST,
        ),
    ),
    conflicts=(
        Conflict(
            "left-best-for-group-seat",
            frozenset({"2932b2-declared", "2941b-enough-votes-group"}),
            "a departed candidate whose name stayed on the ballot is among the best placed for a "
            "seat left without a majority: 163-294.4(c) (vacant even short of a majority, no "
            "runoff) speaks of 'the office' and 'the highest number of votes' of a single "
            "office; 163-294.1(b) vacates the seat if the votes are 'enough to be elected', "
            "which under 163-293(b)(2) they are only if no runoff is requested",
            "163-293(b)(2) runs its course: the next candidates may request a runoff (the "
            "departed candidate's name stays on its ballot); if none does, the departed "
            "candidate's seat is declared vacant (163-294.1(b)) and the others are elected",
            G.DECLARED_UNLESS_REQUEST,
            readings=(_GROUP_SEAT_VACANT,),
        ),
        Conflict(
            "left-best-for-group-seat-after-election-day",
            frozenset({"2932b2-declared", "2941c-person-elected-group"}),
            "a candidate best placed for a seat left without a majority leaves on or after "
            "election day, before being declared elected: 163-294.1(c) speaks of 'a person "
            "elected', and under 163-293(b)(2) the candidate is elected only if no runoff is "
            "requested",
            "163-293(b)(2) runs its course; if no runoff is requested the seat is declared "
            "vacant (163-294.1(c))",
            G.DECLARED_UNLESS_REQUEST,
            readings=(_GROUP_SEAT_VACANT,),
        ),
    ),
    facts=lambda: (
        GroupLeftFacts(w, a, r) for w, a, r in itertools.product(LEFT, (False, True), (True, False))
    ),
)


# --- a tie that decides a seat in an election decided by the highest vote ------------------


class TieEffect(StrEnum):
    LOT = "lot"  # the board draws lots
    NEW_ELECTION = "new_election"  # the State Board orders a new election among the tied
    VACANT = "vacant"  # the seat the tie decides is declared vacant


_TIED_VACANT = Reading(
    "departed_tied_for_a_seat",
    DepartedTiedForASeat.VACANT,
    "no lot is drawn: the departed candidate shares the highest vote for the seat, which is "
    "declared vacant",
    TieEffect.VACANT,
)


class Kind(StrEnum):
    PLURALITY = "plurality"  # nonpartisan plurality (163-292)
    PARTISAN = "partisan"  # a partisan general election (163-291 applies Chapter 163's rules)
    AFTER_PRIMARY = "after_primary"  # the election after a nonpartisan primary (163-294(c))


@attrs.frozen
class TieFacts:
    kind: Kind
    #: more than 5,000 voters cast ballots in the ballot item (163-182.8); None when the log
    #: does not say (a group's votes do not give the number of voters)
    over_5000: bool | None
    #: for None: whether the votes divided by the seats (every voter using every vote) exceed it
    estimate_over_5000: bool = False
    #: a tied candidate whose name stayed on a nonpartisan ballot after leaving the race, or
    #: (``left_after``) who left it on or after election day, before the tie was broken
    departed: Standing = Standing.ACTIVE
    withdrawal_as_death: bool = True  # reading 7
    left_after: bool = False

    @property
    def offish(self) -> bool:
        """163-294.1(b)'s "deceased or disqualified", with a withdrawal under reading 7."""
        return self.departed is not Standing.WITHDREW or self.withdrawal_as_death


def _tie_facts() -> Iterator[TieFacts]:
    for kind in Kind:
        for over in (True, False):
            yield TieFacts(kind, over)
        for est in (True, False):
            yield TieFacts(kind, None, est)
        if kind is Kind.PARTISAN:
            continue  # a party nominee who leaves is replaced (163-114), and so are the votes
        for left, r7, over in itertools.product(LEFT, (True, False), (True, False)):
            yield TieFacts(kind, over, departed=left, withdrawal_as_death=r7)
            yield TieFacts(kind, over, departed=left, withdrawal_as_death=r7, left_after=True)


def _left_after(f: TieFacts) -> bool:
    return f.left_after and f.departed is not Standing.ACTIVE


def _over(f: TieFacts) -> bool:
    return f.estimate_over_5000 if f.over_5000 is None else f.over_5000


def _by_size(
    gid: str,
    near: tuple[str, ...],
    open_: str,
    fallback: str,
    applies: Callable[[TieFacts], bool],
    readings: tuple[Reading[TieEffect], ...] = (),
) -> tuple[Gap[TieFacts, TieEffect], Gap[TieFacts, TieEffect]]:
    """One gap whose fallback is 163-182.8's: a new election over 5,000 voters, else a lot."""
    return (
        Gap(
            gid,
            near,
            open_,
            fallback,
            lambda f: applies(f) and _over(f),
            TieEffect.NEW_ELECTION,
            readings=readings,
        ),
        Gap(
            gid,
            near,
            open_,
            fallback,
            lambda f: applies(f) and not _over(f),
            TieEffect.LOT,
            readings=readings,
        ),
    )


TIE: Table[TieFacts, TieEffect] = Table(
    "general-tie",
    "an election decided by the highest vote: a tie decides who takes a seat. How is it broken?",
    (
        Rule(
            "2923-lot",
            "163-292(3)",
            "plurality method: the board determines the winner by lot",
            lambda f: f.kind is Kind.PLURALITY and not _left_after(f),
            TieEffect.LOT,
        ),
        Rule(
            "2944c-dead-tied",
            "163-294.4(c)",
            "a candidate who died before the election (name left on the ballot) polls the highest "
            "vote for the seat, here shared: the seat is vacant",
            lambda f: (
                f.departed is Standing.DIED and f.kind is not Kind.PARTISAN and not f.left_after
            ),
            TieEffect.VACANT,
        ),
        Rule(
            "2941b-departed-tied",
            "163-294.1(b)",
            "a disqualified candidate (withdrawn, reading 7) left on the ballot receives enough "
            "votes to be elected, here shared: the seat is vacant",
            lambda f: (
                f.departed in (Standing.WITHDREW, Standing.DISQUALIFIED)
                and f.offish
                and f.kind is not Kind.PARTISAN
                and not f.left_after
            ),
            TieEffect.VACANT,
        ),
        Rule(
            "1828-1-new-election",
            "163-182.8(1)",
            "a tie other than in a primary with more than 5,000 voters in the ballot item: the "
            "State Board orders a new election among the tied",
            lambda f: f.kind is Kind.PARTISAN and f.over_5000 is True,
            TieEffect.NEW_ELECTION,
        ),
        Rule(
            "1828-2-lot",
            "163-182.8(2)",
            "a tie other than in a primary with 5,000 voters or fewer: broken by random selection",
            lambda f: f.kind is Kind.PARTISAN and f.over_5000 is False,
            TieEffect.LOT,
        ),
    ),
    gaps=(
        Gap(
            "tied-candidate-left-before-lot",
            ("163-292(3)", "163-294.1(c)"),
            "plurality method: a candidate tied for a seat died, withdrew or was disqualified on "
            "or after election day, before the drawing of lots: 163-292(3) has the board draw "
            "lots among those tied, and 163-294.1(c) makes vacant the office of a person elected "
            "who dies, is disqualified or resigns before qualifying; neither says whether the "
            "drawing still counts the one who left",
            "the drawing of lots is held among all the tied; if it falls to the one who left, "
            "the office is vacant (163-294.1(c))",
            lambda f: f.kind is Kind.PLURALITY and _left_after(f),
            TieEffect.LOT,
        ),
        *_by_size(
            "tie-after-nonpartisan-primary",
            ("163-294(c)", "163-182.8"),
            "the election after a nonpartisan primary ends in a tie for a seat: the text of "
            "163-294(c) on that election is cut off in the sources",
            "the general rule of 163-182.8: a new election ordered by the State Board with more "
            "than 5,000 voters in the ballot item, a drawing of lots otherwise",
            lambda f: f.kind is Kind.AFTER_PRIMARY,
            readings=(
                Reading(
                    "tie_after_primary",
                    TieAfterPrimary.LOT,
                    "a drawing of lots whatever the number of voters, as 163-292(3) provides "
                    "for the other election decided by the highest vote, the plurality method",
                    TieEffect.LOT,
                ),
            ),
        ),
        *_by_size(
            "voters-not-in-log",
            ("163-182.8(1)", "163-182.8(2)"),
            "a group's tie: 163-182.8 counts the voters who cast ballots in the ballot item, and "
            "the log gives votes, which for a group of N seats lie between N times the voters "
            "and the voters",
            "the voters are estimated as the votes divided by the seats (every voter using "
            "every vote)",
            lambda f: f.kind is Kind.PARTISAN and f.over_5000 is None,
        ),
    ),
    conflicts=(
        Conflict(
            "departed-tied-for-a-seat",
            frozenset({"2923-lot", "2944c-dead-tied"}),
            "plurality method: a candidate who died before the election (name left on the "
            "ballot) ties for a seat: 163-292(3) breaks every tie by lot; 163-294.4(c) makes the "
            "office vacant when a dead candidate polls the highest vote, and a shared highest "
            "vote is not said to be one",
            "the drawing of lots of 163-292(3) is held among the tied; if it falls to the dead "
            "candidate the seat is declared vacant (163-294.4(c))",
            TieEffect.LOT,
            readings=(_TIED_VACANT,),
        ),
        Conflict(
            "departed-tied-for-a-seat",
            frozenset({"2923-lot", "2941b-departed-tied"}),
            "plurality method: a candidate who withdrew or was disqualified (name left on the "
            "ballot) ties for a seat: 163-292(3) breaks every tie by lot; 163-294.1(b) makes the "
            "office vacant when such a candidate receives enough votes to be elected, which a "
            "shared vote does not settle",
            "the drawing of lots of 163-292(3) is held among the tied; if it falls to the "
            "departed candidate the seat is declared vacant (163-294.1(b))",
            TieEffect.LOT,
            readings=(_TIED_VACANT,),
        ),
    ),
    facts=_tie_facts,
)


def voters_over_5000(total_votes: int, seats: int) -> tuple[bool | None, bool]:
    """(over 5,000 voters, or None when the votes cannot tell; the estimate votes / seats).

    One seat: each ballot gives one vote (the log has no undervotes). A group of N: the voters
    are at least votes / N and at most the votes."""
    estimate = total_votes > 5000 * seats
    if seats == 1:
        return total_votes > 5000, estimate
    if total_votes <= 5000:
        return False, estimate
    if total_votes > 5000 * seats:
        return True, estimate
    return None, estimate


# --- a tie at the other points of the count -------------------------------------------------


class TiePoint(StrEnum):
    RUNOFF = "runoff"  # the runoff (or second primary) ends in a tie for a seat
    NONPARTISAN_PRIMARY = "nonpartisan_primary"  # a tie for a nomination (163-294(b))
    OVER_THRESHOLD = "over_threshold"  # group: more over the threshold than seats, tied
    BEST_REMAINING = "best_remaining"  # group: a tie decides who is elected unless a runoff
    PRIMARY_PLACE = "primary_place"  # party primary: a tie for first or for second place


@attrs.frozen
class TieAtFacts:
    point: TiePoint
    primary: bool = False  # a party primary or second primary (163-111 by way of 163-291)
    #: OVER_THRESHOLD in a party primary: several places (163-111(a)(2)) rather than one
    #: (163-111(a)(1), where two can pass the substantial plurality)
    group: bool = True
    #: more than 5,000 voters cast ballots in the ballot item (163-182.8), estimated as the
    #: ``general-tie`` table does when the votes cannot tell; read only outside primaries
    over_5000: bool = False
    #: RUNOFF outside primaries: three or more tie for a place (as in a runoff among three or
    #: more tied for first, reading 6), where 163-293(f) speaks of a tie "between two candidates"
    many: bool = False
    #: RUNOFF outside primaries: a tied candidate on the runoff ballot has died, withdrawn or
    #: been disqualified (the name stays on the runoff ballot), before the drawing of lots
    left: bool = False


def _tie_at_facts() -> Iterator[TieAtFacts]:
    for point in TiePoint:
        if point is TiePoint.NONPARTISAN_PRIMARY:
            yield TieAtFacts(point)
        elif point is TiePoint.PRIMARY_PLACE:
            yield TieAtFacts(point, primary=True)
        elif point is TiePoint.OVER_THRESHOLD:
            yield TieAtFacts(point, False)
            yield TieAtFacts(point, False, over_5000=True)
            yield TieAtFacts(point, True)
            yield TieAtFacts(point, True, group=False)
        elif point is TiePoint.BEST_REMAINING:
            yield TieAtFacts(point, False)
            yield TieAtFacts(point, False, over_5000=True)
            yield TieAtFacts(point, True)
        else:
            yield TieAtFacts(point, False)
            yield TieAtFacts(point, True)
            if point is TiePoint.RUNOFF:
                yield TieAtFacts(point, False, many=True)
                yield TieAtFacts(point, False, left=True)
                yield TieAtFacts(point, False, many=True, left=True)


def _lot_gap(
    gid: str,
    near: tuple[str, ...],
    open_: str,
    fallback: str,
    applies: Any,
    readings: tuple[Reading[TieEffect], ...] = (),
) -> Gap[TieAtFacts, TieEffect]:
    return Gap(gid, near, open_, fallback, applies, TieEffect.LOT, readings=readings)


_BY_SIZE = (
    "163-182.8, the rule for a tie other than in a primary: the State Board orders a new "
    "election among the tied with more than 5,000 voters in the ballot item, and the tie is "
    "broken by random selection with 5,000 or fewer"
)


def _first_election_gaps(
    gid: str, near: tuple[str, ...], open_: str, fallback: str, point: TiePoint
) -> tuple[Gap[TieAtFacts, TieEffect], Gap[TieAtFacts, TieEffect]]:
    """A tie of the first election of the election and runoff method that 163-293 leaves open:
    a lot by default; reading 20 applies 163-182.8, which depends on the number of voters."""
    over = Reading(
        "first_election_tie",
        FirstElectionTie.BY_SIZE,
        _BY_SIZE,
        TieEffect.NEW_ELECTION,
        cite="163-182.8(1)",
    )
    under = Reading(
        "first_election_tie",
        FirstElectionTie.BY_SIZE,
        _BY_SIZE,
        TieEffect.LOT,
        cite="163-182.8(2)",
    )
    return (
        _lot_gap(
            gid,
            near,
            open_,
            fallback,
            lambda f: f.point is point and not f.primary and f.over_5000,
            readings=(over,),
        ),
        _lot_gap(
            gid,
            near,
            open_,
            fallback,
            lambda f: f.point is point and not f.primary and not f.over_5000,
            readings=(under,),
        ),
    )


TIE_AT: Table[TieAtFacts, TieEffect] = Table(
    "tie-at",
    "a tie decides a place in a runoff, a primary or a group's count: how is it broken?",
    (
        Rule(
            "2933f-runoff-lot",
            "163-293(f)",
            "a tie for the highest vote in a runoff: the board determines the winner by lot",
            lambda f: f.point is TiePoint.RUNOFF and not f.primary and not f.many and not f.left,
            TieEffect.LOT,
        ),
        Rule(
            "294b-lot",
            "163-294(b)",
            "a tie in a nonpartisan primary: the board ranks the tied by lot",
            lambda f: f.point is TiePoint.NONPARTISAN_PRIMARY,
            TieEffect.LOT,
        ),
    ),
    gaps=(
        *_first_election_gaps(
            "tie-over-threshold",
            ("163-293(a)(2)", "163-292(3)"),
            "group: more candidates over the majority than seats, tied for the last seat: (a)(2) "
            "seats the highest of them but says nothing of a tie among them",
            "a drawing of lots for the tied seat (as 163-292(3) does for plurality)",
            TiePoint.OVER_THRESHOLD,
        ),
        _lot_gap(
            "tie-over-threshold",
            ("163-111(a)(2)", "163-292(3)"),
            "party primary, group: more candidates over the substantial plurality than places, "
            "tied for the last: (a)(2) nominates the highest of them, as many as the places, and "
            "says nothing of a tie among them; the part of 163-111 on ties could not be consulted",
            "a drawing of lots for the tied place (as 163-292(3) does for plurality)",
            lambda f: f.point is TiePoint.OVER_THRESHOLD and f.primary and f.group,
        ),
        _lot_gap(
            "tie-over-threshold",
            ("163-111(a)(1)", "163-292(3)"),
            "party primary for one place: two candidates pass the substantial plurality with the "
            "same vote: (a)(1) nominates the one with the highest vote when two pass it, and a "
            "tie gives none; the part of 163-111 on ties could not be consulted",
            "a drawing of lots for the nomination (as 163-292(3) does for plurality)",
            lambda f: f.point is TiePoint.OVER_THRESHOLD and f.primary and not f.group,
        ),
        *_first_election_gaps(
            "tie-for-best-remaining",
            ("163-293(b)(2)", "163-292(3)"),
            "group without enough majorities: a tie decides which candidates are declared "
            "elected unless a runoff is requested, and 163-293(d) speaks of ties for first and "
            "second in a single-office race only",
            "a drawing of lots ranks the tied, then the request window opens",
            TiePoint.BEST_REMAINING,
        ),
        _lot_gap(
            "primary-tie",
            ("163-111(b)", "163-292(3)"),
            "party primary: a tie decides the nomination or the place of the runner-up who may "
            "demand a second primary; the part of 163-111 on ties is not in the sources",
            "a drawing of lots",
            lambda f: f.point in (TiePoint.PRIMARY_PLACE, TiePoint.BEST_REMAINING) and f.primary,
        ),
        _lot_gap(
            "runoff-tie-of-three",
            ("163-293(f)",),
            "three or more candidates tie for a place in a runoff (as in one held among three or "
            "more tied for first, reading 6): (f) determines the winner by lot in a tie between "
            "two candidates",
            "a drawing of lots among all the tied, as (f) does for two",
            lambda f: f.point is TiePoint.RUNOFF and not f.primary and f.many and not f.left,
        ),
        _lot_gap(
            "runoff-tied-candidate-left-before-lot",
            ("163-293(f)", "163-294.1(c)"),
            "a candidate tied for a place in a runoff has died, withdrawn or been "
            "disqualified, the name on the runoff ballot, before the drawing of lots: (f) has "
            "the board determine the winner by lot, and 163-294.1(c) makes vacant the office of "
            "a person elected who dies, is disqualified or resigns before qualifying; neither "
            "says whether the drawing still counts the one who left",
            "the drawing of lots is held among all the tied; if it falls to the one who left, "
            "the office is vacant (163-294.1(c))",
            lambda f: f.point is TiePoint.RUNOFF and not f.primary and f.left,
        ),
        _lot_gap(
            "second-primary-tie",
            ("163-111(b)", "163-292(3)"),
            "a party's second primary ends in a tie: the part of 163-111 on second primaries is "
            "not in the sources",
            "a drawing of lots",
            lambda f: f.point is TiePoint.RUNOFF and f.primary,
        ),
    ),
    facts=_tie_at_facts,
)


# --- a request for a runoff or a second primary: is it effective? --------------------------


class Moment(StrEnum):
    """Where the contest stands when a request comes."""

    NO_RUNOFF_METHOD = "no_runoff_method"  # the method has no runoff and no second primary
    BEFORE_RESULT = "before_result"  # the first result is not yet declared
    TIE_FOR_SECOND = "tie_for_second"  # 163-293(d)(2)'s withdrawal window is open
    TIE_FOR_FIRST = "tie_for_first"  # 163-293(d)(1)'s withdrawal window is open
    WINDOW = "window"  # the request window of 163-293(c) / 163-291(6) is open
    CLOSED = "closed"  # no window is open


class Answer(StrEnum):
    ACCEPTED = "accepted"
    HELD = "held"  # reading 4: takes effect at the canvass, if the requester is then entitled
    NO_RUNOFF_METHOD = "no runoff under this method"
    PREMATURE = "before the result was declared"
    NOT_TIED = "only the candidates tied for second may demand a runoff"
    NOT_NEEDED = (
        "a runoff between the tied candidates follows unless one withdraws; no request is needed"
    )
    ELECTED_BY_MAJORITY = "a candidate declared elected by majority may not"
    NOT_ENTITLED = "only the runner(s)-up the statute names may request one"
    LEFT_RACE = "no longer a candidate"
    LATE = "the request came after the deadline"
    ALREADY_CALLED = "already called"
    VACANT = "the office has been declared vacant: no runoff is held"
    NONE_AVAILABLE = "no runoff is available to this candidate"
    SECOND_RUNOFF = "a second runoff is not held: the runoff has been voted on"


@attrs.frozen
class RequestFacts:
    moment: Moment
    primary: bool = False  # a second primary (163-291(6)) rather than a runoff (163-293(c))
    group: bool = False
    no_runoff_under: str = ""  # NO_RUNOFF_METHOD: "plurality" | "primary" | "partisan"
    entitled: bool = True  # among the candidates the statute names
    elected_by_majority: bool = False
    left: bool = False  # the requester has left the race
    late: bool = False
    called: bool = False  # a runoff (second primary) is already called or held
    vacant: bool = False  # CLOSED: the office was declared vacant
    early_wait: bool = True  # reading 4
    #: CLOSED, a runoff (not a second primary): the runoff has been voted on (163-293(f))
    second_round: bool = False


def _request_facts() -> Iterator[RequestFacts]:
    for under in ("plurality", "primary", "partisan"):
        yield RequestFacts(Moment.NO_RUNOFF_METHOD, no_runoff_under=under)
    flags = (False, True)
    for primary, group in itertools.product(flags, flags):
        for wait, left in itertools.product(flags, flags):
            yield RequestFacts(Moment.BEFORE_RESULT, primary, group, left=left, early_wait=wait)
        if not primary and not group:
            for entitled, late, left in itertools.product(flags, flags, flags):
                yield RequestFacts(Moment.TIE_FOR_SECOND, entitled=entitled, late=late, left=left)
            for left in flags:
                yield RequestFacts(Moment.TIE_FOR_FIRST, left=left)
        for entitled, maj, left, late, called in itertools.product(*([flags] * 5)):
            if maj and entitled:
                continue
            yield RequestFacts(
                Moment.WINDOW,
                primary,
                group,
                entitled=entitled,
                elected_by_majority=maj,
                left=left,
                late=late,
                called=called,
            )
        for late, called, vacant, left in itertools.product(*([flags] * 4)):
            for second in (False, True) if not primary else (False,):
                yield RequestFacts(
                    Moment.CLOSED,
                    primary,
                    group,
                    left=left,
                    late=late,
                    called=called,
                    vacant=vacant,
                    second_round=second,
                )


def _when(
    primary: bool, moment: Moment, test: Callable[[RequestFacts], bool]
) -> Callable[[RequestFacts], bool]:
    return lambda f: f.moment is moment and f.primary is primary and test(f)


def _not_entitled(group: bool) -> Callable[[RequestFacts], bool]:
    return lambda f: f.group is group and not f.entitled


def _request_rules() -> tuple[Rule[RequestFacts, Answer], ...]:
    """Each ground once for a runoff (163-293(c)) and once for a second primary (163-291(6));
    the grounds exclude one another in the order the board would meet them."""
    out: list[Rule[RequestFacts, Answer]] = [
        Rule(
            "292-no-runoff",
            "163-292",
            "the plurality method elects the highest: there is no runoff to request",
            lambda f: f.moment is Moment.NO_RUNOFF_METHOD and f.no_runoff_under == "plurality",
            Answer.NO_RUNOFF_METHOD,
        ),
        Rule(
            "294b-no-runoff",
            "163-294(b)",
            "a nonpartisan primary nominates the highest: there is no runoff to request",
            lambda f: f.moment is Moment.NO_RUNOFF_METHOD and f.no_runoff_under == "primary",
            Answer.NO_RUNOFF_METHOD,
        ),
        Rule(
            "293a-no-runoff-partisan",
            "163-293(a)",
            "the runoff of 163-293 is for nonpartisan elections under the election and runoff "
            "method: a partisan general election has none",
            lambda f: f.moment is Moment.NO_RUNOFF_METHOD and f.no_runoff_under == "partisan",
            Answer.NO_RUNOFF_METHOD,
        ),
        Rule(
            "2933d2-left",
            "163-293(c)",
            "a candidate who has died, withdrawn or been disqualified is no longer a candidate "
            "and cannot file the written demand (163-293(c)) that 163-293(d)(2) asks of the "
            "tied runner-up who remains",
            lambda f: f.moment is Moment.TIE_FOR_SECOND and f.left,
            Answer.LEFT_RACE,
        ),
        Rule(
            "2933d2-not-tied",
            "163-293(c)",
            "while the tie for second is open only the tied candidates may demand a runoff",
            lambda f: f.moment is Moment.TIE_FOR_SECOND and not f.left and not f.entitled,
            Answer.NOT_TIED,
        ),
        Rule(
            "2933d2-late",
            "163-293(c)",
            "a tied runner-up's demand after noon on the Thursday is too late",
            lambda f: f.moment is Moment.TIE_FOR_SECOND and not f.left and f.entitled and f.late,
            Answer.LATE,
        ),
        Rule(
            "2932d2-demand",
            "163-293(d)(2)",
            "a tied runner-up demands a runoff in time: it counts once all the others withdraw",
            lambda f: (
                f.moment is Moment.TIE_FOR_SECOND and not f.left and f.entitled and not f.late
            ),
            Answer.ACCEPTED,
        ),
        Rule(
            "2933d1-left",
            "163-293(c)",
            "a candidate who has died, withdrawn or been disqualified is no longer a candidate "
            "and cannot file a request (163-293(c)); whether the tie still calls a runoff is "
            "the tie's own question",
            lambda f: f.moment is Moment.TIE_FOR_FIRST and f.left,
            Answer.LEFT_RACE,
        ),
        Rule(
            "2931d1-no-request",
            "163-293(d)(1)",
            "a tie for first after the recount calls a runoff unless one withdraws; no request",
            lambda f: f.moment is Moment.TIE_FOR_FIRST and not f.left,
            Answer.NOT_NEEDED,
        ),
    ]
    for primary in (False, True):
        when = "163-291(6)" if primary else "163-293(c)"
        tag = "2916" if primary else "2933c"

        for group in (False, True):
            who = "163-111(b)" if primary else "163-293(b)(2)" if group else "163-293(b)(1)"
            out.append(
                Rule(
                    f"{tag}-{'group-' if group else ''}not-entitled",
                    who,
                    "only the candidates the statute names (the runner-up, or the next as many "
                    "as the seats left) may request; one elected by majority may not",
                    _when(primary, Moment.WINDOW, _not_entitled(group)),
                    Answer.NOT_ENTITLED,
                )
            )
        out += [
            Rule(
                f"{tag}-early-left",
                when,
                "a candidate who has died, withdrawn or been disqualified is no longer a "
                "candidate: there is no request to hold for the canvass",
                _when(primary, Moment.BEFORE_RESULT, lambda f: f.left),
                Answer.LEFT_RACE,
            ),
            Rule(
                f"{tag}-early-held",
                when,
                "a request before the result is declared waits for the canvass and takes effect "
                "if the requester is then entitled (reading 4)",
                _when(primary, Moment.BEFORE_RESULT, lambda f: not f.left and f.early_wait),
                Answer.HELD,
            ),
            Rule(
                f"{tag}-early-rejected",
                when,
                "a request before the result is declared is premature (reading 4 switched)",
                _when(primary, Moment.BEFORE_RESULT, lambda f: not f.left and not f.early_wait),
                Answer.PREMATURE,
            ),
            Rule(
                f"{tag}-left",
                when,
                "a candidate who has left the race cannot request",
                _when(primary, Moment.WINDOW, lambda f: f.entitled and f.left),
                Answer.LEFT_RACE,
            ),
            Rule(
                f"{tag}-late",
                when,
                "a request after noon on the Thursday after the declaration is too late",
                _when(primary, Moment.WINDOW, lambda f: f.entitled and not f.left and f.late),
                Answer.LATE,
            ),
            Rule(
                f"{tag}-called",
                when,
                "a single office's runoff is already called by an earlier request",
                _when(
                    primary,
                    Moment.WINDOW,
                    lambda f: f.entitled and not (f.left or f.late) and f.called and not f.group,
                ),
                Answer.ALREADY_CALLED,
            ),
            Rule(
                f"{tag}-in-time",
                when,
                "an entitled candidate requests in time: the request counts",
                _when(
                    primary,
                    Moment.WINDOW,
                    lambda f: f.entitled and not (f.left or f.late) and (f.group or not f.called),
                ),
                Answer.ACCEPTED,
            ),
            Rule(
                f"{tag}-closed-left",
                when,
                "a candidate who has died, withdrawn or been disqualified is no longer a "
                "candidate and cannot request",
                _when(primary, Moment.CLOSED, lambda f: f.left),
                Answer.LEFT_RACE,
            ),
            Rule(
                f"{tag}-closed-late",
                when,
                "no window is open and the deadline has passed",
                _when(primary, Moment.CLOSED, lambda f: not (f.left or f.second_round) and f.late),
                Answer.LATE,
            ),
            Rule(
                f"{tag}-closed-called",
                when,
                "the runoff (second primary) is already called",
                _when(
                    primary,
                    Moment.CLOSED,
                    lambda f: not (f.left or f.late or f.second_round) and f.called,
                ),
                Answer.ALREADY_CALLED,
            ),
            Rule(
                f"{tag}-closed-vacant",
                when,
                "the office was declared vacant at the canvass: no runoff follows",
                _when(
                    primary,
                    Moment.CLOSED,
                    lambda f: not (f.left or f.late or f.called or f.second_round) and f.vacant,
                ),
                Answer.VACANT,
            ),
            Rule(
                f"{tag}-closed-none",
                when,
                "no runoff is available to this candidate",
                _when(
                    primary,
                    Moment.CLOSED,
                    lambda f: not (f.left or f.late or f.called or f.vacant or f.second_round),
                ),
                Answer.NONE_AVAILABLE,
            ),
        ]
        if not primary:
            out.append(
                Rule(
                    "2933f-closed-second",
                    "163-293(f)",
                    "a request after the runoff has been voted on asks for a second runoff, "
                    "which is not held",
                    _when(primary, Moment.CLOSED, lambda f: not f.left and f.second_round),
                    Answer.SECOND_RUNOFF,
                )
            )
    return tuple(out)


REQUEST: Table[RequestFacts, Answer] = Table(
    "request",
    "a candidate asks for a runoff (or demands a second primary): is the request effective?",
    _request_rules(),
    facts=_request_facts,
)


# --- the request window closes: G.S. 163-293(b), 163-111(b) -----------------------------------


class WindowClose(StrEnum):
    RUNOFF = "runoff"  # the requests made in time call the runoff (second primary)
    LEADERS = "leaders"  # nobody asked in time: the leaders are declared


@attrs.frozen
class WindowCloseFacts:
    primary: bool  # a party primary (a second primary, 163-111(b))
    group: bool
    requested: bool  # an entitled candidate asked in time


def _window_close(primary: bool, group: bool | None, requested: bool) -> Any:
    return lambda f: (
        f.primary is primary and (group is None or f.group is group) and f.requested is requested
    )


WINDOW_CLOSE: Table[WindowCloseFacts, WindowClose] = Table(
    "request-window-closes",
    "the deadline to request a runoff (or demand a second primary) passes: is the next round "
    "called, or are the leaders declared?",
    (
        Rule(
            "293b1-no-request",
            "163-293(b)(1)",
            "the runner-up did not request a runoff in time: the highest is declared elected",
            _window_close(False, False, False),
            WindowClose.LEADERS,
        ),
        Rule(
            "293b1-requested",
            "163-293(b)(1)",
            "the runner-up requested in time: the runoff is held (called when the request came)",
            _window_close(False, False, True),
            WindowClose.RUNOFF,
        ),
        Rule(
            "293b2-no-request",
            "163-293(b)(2)",
            "none of the next candidates requested a runoff in time: the highest for the seats "
            "left are declared elected",
            _window_close(False, True, False),
            WindowClose.LEADERS,
        ),
        Rule(
            "293b2-requested",
            "163-293(b)(2)",
            "some of the next candidates requested in time: the runoff is called when the "
            "window closes, every requester on its ballot (reading 5)",
            _window_close(False, True, True),
            WindowClose.RUNOFF,
        ),
        Rule(
            "111b-no-demand",
            "163-111(b)",
            "the runner-up did not demand a second primary in time: the leaders are nominated",
            _window_close(True, None, False),
            WindowClose.LEADERS,
        ),
        Rule(
            "111b-demanded",
            "163-111(b)",
            "the runner-up demanded a second primary in time: it is held",
            _window_close(True, None, True),
            WindowClose.RUNOFF,
        ),
    ),
    facts=lambda: (
        WindowCloseFacts(p, g, r) for p, g, r in itertools.product((False, True), repeat=3)
    ),
)


# --- the canvass of an election: G.S. 163-291(5), 163-294(b), 163-293(c), 163-182.5(b) ---------


class Canvassed(StrEnum):
    """The election a canvass declares (the provision that sets its canvass is the rule's)."""

    PARTY_PRIMARY = "party_primary"  # a party's primary or second primary
    NONPARTISAN_PRIMARY = "nonpartisan_primary"
    FIRST_ELECTION = "first_election"  # the first election of the runoff method
    ELECTION = "election"  # any other election, a runoff included
    NOTHING = "nothing"  # a canvass before the election day: nothing to declare
    BEFORE_ITS_DAY = "before_its_day"  # after the vote, before the day fixed for the canvass


@attrs.frozen
class CanvassFacts:
    method: Method
    held: DeadlineKind  # the day canvassed: primary_day, second_primary, election_day, runoff
    early: bool = False  # the canvass is dated before the day it canvasses
    #: after the day it canvasses but before the day the law fixes for the canvass
    before_its_day: bool = False


_HELD_BY = {  # the days each method holds (G.S. 163-279(a))
    Method.PLURALITY: (DeadlineKind.ELECTION_DAY,),
    Method.PARTISAN: (
        DeadlineKind.PRIMARY_DAY,
        DeadlineKind.SECOND_PRIMARY,
        DeadlineKind.ELECTION_DAY,
    ),
    Method.PRIMARY: (DeadlineKind.PRIMARY_DAY, DeadlineKind.ELECTION_DAY),
    Method.RUNOFF: (DeadlineKind.ELECTION_DAY, DeadlineKind.RUNOFF_ELECTION),
}


def _canvass_facts() -> Iterator[CanvassFacts]:
    for method, days in _HELD_BY.items():
        for held in days:
            yield CanvassFacts(method, held)
            yield CanvassFacts(method, held, early=True)
            yield CanvassFacts(method, held, before_its_day=True)


def _canvass_rules(
    *rules: tuple[str, str, str, Callable[[CanvassFacts], bool], Canvassed],
) -> tuple[Rule[CanvassFacts, Canvassed], ...]:
    """Each provision that sets a canvass, and the same provision for a canvass dated before the
    election it canvasses: the canvass declares the result of an election already held (the
    seventh day after it), so one before the day declares nothing and has no effect."""
    out: list[Rule[CanvassFacts, Canvassed]] = []
    for rid, cite, summary, applies, effect in rules:
        applies = _not_before_its_day(applies)
        out += [
            Rule(rid, cite, summary, _on_time(applies, early=False), effect),
            Rule(
                f"{rid}-before-the-day",
                cite,
                "the canvass declares the result of an election already held: one dated before "
                "the day declares nothing and has no effect (it stays on the timeline)",
                _on_time(applies, early=True),
                Canvassed.NOTHING,
            ),
        ]
    return tuple(out)


def _on_time(
    applies: Callable[[CanvassFacts], bool], *, early: bool
) -> Callable[[CanvassFacts], bool]:
    return lambda f: f.early is early and applies(f)


def _not_before_its_day(applies: Callable[[CanvassFacts], bool]) -> Callable[[CanvassFacts], bool]:
    return lambda f: not f.before_its_day and applies(f)


def _canvass_gaps() -> tuple[Gap[CanvassFacts, Canvassed], ...]:
    """A canvass after the election but before the day the law fixes for it, one gap for each
    provision that fixes a canvass day (cited with 163-182.5(b), which allows only a later
    canvass): no text provides for an earlier one."""
    return tuple(
        Gap(
            "canvass-before-its-day",
            tuple(dict.fromkeys((rule.cite, "163-182.5(b)"))),
            "the canvass is held after the election but before the day the law fixes for it "
            "(the seventh day after, or the tenth): the sections fix that day, and 163-182.5(b) "
            "allows a later canvass when the count is not done, but none provides for an "
            "earlier one",
            "the board's canvass declares the result when it is held, and the deadlines that "
            "run from the declaration (a runoff request, a tie's three days) count from it",
            _before_its_day(rule.applies),
            Canvassed.BEFORE_ITS_DAY,
        )
        for rule in CANVASS_ON_TIME
    )


def _before_its_day(applies: Callable[[CanvassFacts], bool]) -> Callable[[CanvassFacts], bool]:
    return lambda f: (
        f.before_its_day and not f.early and applies(attrs.evolve(f, before_its_day=False))
    )


_PRIMARY_DAYS = (DeadlineKind.PRIMARY_DAY, DeadlineKind.SECOND_PRIMARY)

_CANVASS_RULES = _canvass_rules(
    (
        "2915-party-primary-canvass",
        "163-291(5)",
        "a party's municipal primary or second primary is canvassed on the seventh day after",
        lambda f: f.method is Method.PARTISAN and f.held in _PRIMARY_DAYS,
        Canvassed.PARTY_PRIMARY,
    ),
    (
        "294b-primary-canvass",
        "163-294(b)",
        "a nonpartisan primary is canvassed on the seventh day after",
        lambda f: f.method is Method.PRIMARY and f.held is DeadlineKind.PRIMARY_DAY,
        Canvassed.NONPARTISAN_PRIMARY,
    ),
    (
        "293c-first-election-canvass",
        "163-293(c)",
        "the first election of the runoff method is canvassed on the seventh day after; its "
        "declaration opens the runoff request",
        lambda f: f.method is Method.RUNOFF and f.held is DeadlineKind.ELECTION_DAY,
        Canvassed.FIRST_ELECTION,
    ),
    (
        "1825b-election-canvass",
        "163-182.5(b)",
        "any other election (the November election, a runoff) is canvassed by the county "
        "board at 11:00 on the seventh day after (the tenth with an even year's general "
        "election)",
        lambda f: (
            f.held is DeadlineKind.RUNOFF_ELECTION
            or (f.held is DeadlineKind.ELECTION_DAY and f.method is not Method.RUNOFF)
        ),
        Canvassed.ELECTION,
    ),
)
#: the provisions that fix each canvass day, for a canvass on or after the election
CANVASS_ON_TIME = tuple(r for r in _CANVASS_RULES if r.effect is not Canvassed.NOTHING)

CANVASS: Table[CanvassFacts, Canvassed] = Table(
    "canvass",
    "an election was held: which provision sets its canvass (the declaration of its result)?",
    _CANVASS_RULES,
    gaps=_canvass_gaps(),
    facts=_canvass_facts,
)


def canvass_cite(method: Method, held: DeadlineKind) -> Cite:
    """The citation of the ``canvass`` table's rule for the canvass of a method's election."""
    rule = CANVASS.evaluate(CanvassFacts(method, held)).rule
    assert rule is not None  # every day a method holds has its rule (tests/test_count_rules.py)
    return statute(rule.cite)


# --- a tie's three days: what a withdrawal, a demand or a deadline leaves, 163-293(d) ----------


class TieMoment(StrEnum):
    """What happens while a tie waits on its three days (163-293(d)(1) or (d)(2))."""

    WITHDREW = "withdrew"  # a tied candidate withdrew in writing in time (``tie-withdrawal``)
    DEMANDED = "demanded"  # (d)(2): a tied runner-up's demand counted (``request``)
    WITHDRAWAL_PASSES = "withdrawal_passes"  # the three days ended
    REQUEST_PASSES = "request_passes"  # (d)(2): noon on the Thursday after the declaration passed


class TieStep(StrEnum):
    """What follows; :func:`tie_step_reason` words the reason each gives."""

    WAIT = "wait"  # nothing yet: the window stays open
    REMAINING_ELECTED = "remaining_elected"  # (d)(1): the one tied candidate left is elected
    RUNOFF_AMONG_TIED = "runoff_among_tied"  # (d)(1): a runoff among the tied
    RUNOFF_WITH_LAST = "runoff_with_last"  # (d)(2): a runoff between the leader and the last
    LEADER_NO_DEMAND = "leader_no_demand"  # (d)(2): the leader is elected; nobody demanded
    LEADER_NOT_ALL_WITHDREW = "leader_not_all_withdrew"  # (d)(2): two or more stay tied
    LEADER_LAST_SILENT = "leader_last_silent"  # (d)(2): the last did not demand in time
    LEADER_NONE_LEFT = "leader_none_left"  # (d)(2): every tied runner-up withdrew


@attrs.frozen
class TieWindowFacts:
    first: bool  # a tie for first after the recount ((d)(1)); else a tie for second ((d)(2))
    moment: TieMoment
    remaining: int  # the tied candidates who have not withdrawn: 0, 1, or 2 for two or more
    demanded: bool = False  # (d)(2): one of them has demanded a runoff in time
    request_passed: bool = False  # (d)(2): noon on the Thursday has passed
    #: (d)(1): one of them has died or been disqualified (which is not a withdrawal)
    departed: bool = False


def _tie_window_facts() -> Iterator[TieWindowFacts]:
    flags = (False, True)
    for moment, remaining, departed in itertools.product(
        (TieMoment.WITHDREW, TieMoment.WITHDRAWAL_PASSES), (1, 2), flags
    ):
        yield TieWindowFacts(True, moment, remaining, departed=departed)
    for moment, remaining, demanded, passed in itertools.product(
        TieMoment, (0, 1, 2), flags, flags
    ):
        if remaining == 0 and demanded:
            continue  # a demand is from a tied candidate who has not withdrawn
        if moment is TieMoment.DEMANDED and (remaining == 0 or not demanded or passed):
            continue  # a demand that counts names its maker, in time
        if moment is TieMoment.REQUEST_PASSES and not passed:
            continue
        yield TieWindowFacts(False, moment, remaining, demanded, passed)


def _d1(test: Callable[[TieWindowFacts], bool]) -> Callable[[TieWindowFacts], bool]:
    return lambda f: f.first and test(f)


def _d2(test: Callable[[TieWindowFacts], bool]) -> Callable[[TieWindowFacts], bool]:
    return lambda f: not f.first and test(f)


TS = TieStep
TM = TieMoment
TIE_WINDOW: Table[TieWindowFacts, TieStep] = Table(
    "tie-window",
    "a tie waits on its three days (163-293(d)(1) after the recount, (d)(2) for second place): "
    "a tied candidate withdraws, a tied runner-up demands a runoff, or a deadline passes. What "
    "follows?",
    (
        Rule(
            "2931d1-remaining-elected",
            "163-293(d)(1)",
            "the other tied candidate withdrew in writing within three days of the recount's "
            "declaration: the remaining candidate is declared elected (with three or more tied, "
            "reading 6: once all but one have withdrawn)",
            _d1(lambda f: f.remaining == 1),
            TS.REMAINING_ELECTED,
        ),
        Rule(
            "2931d1-window-open",
            "163-293(d)(1)",
            "two or more remain tied while the three days run: they may still withdraw",
            _d1(lambda f: f.remaining > 1 and f.moment is TM.WITHDREW),
            TS.WAIT,
        ),
        Rule(
            "2931d1-runoff",
            "163-293(d)(1)",
            "the three days end with the tied candidates in the race and none withdrawn: a "
            "runoff between them (among all of them with three or more, reading 6)",
            _d1(lambda f: f.remaining > 1 and f.moment is TM.WITHDRAWAL_PASSES and not f.departed),
            TS.RUNOFF_AMONG_TIED,
        ),
        Rule(
            "2932d2-runoff",
            "163-293(d)(2)",
            "all but one of those tied for second withdrew within three days and the last "
            "demanded a runoff in time: a runoff between the highest and the last",
            _d2(lambda f: f.remaining == 1 and f.demanded),
            TS.RUNOFF_WITH_LAST,
        ),
        Rule(
            "2932d2-await-withdrawals",
            "163-293(d)(2)",
            "two or more remain tied for second while the three days run: a runoff needs all "
            "but one of them to withdraw",
            _d2(
                lambda f: (
                    f.remaining > 1
                    and f.moment is not TM.WITHDRAWAL_PASSES
                    and (f.demanded or f.moment is not TM.REQUEST_PASSES)
                )
            ),
            TS.WAIT,
        ),
        Rule(
            "2932d2-await-demand",
            "163-293(d)(2)",
            "one tied runner-up is left and has not yet demanded a runoff: the demand may come "
            "until noon on the Thursday after the declaration (163-293(c))",
            _d2(lambda f: f.remaining == 1 and not f.demanded and not f.request_passed),
            TS.WAIT,
        ),
        Rule(
            "2932d2-no-demand",
            "163-293(d)(2)",
            "noon on the Thursday passes and no tied runner-up still in the race has demanded a "
            "runoff: the highest is declared elected",
            _d2(lambda f: f.moment is TM.REQUEST_PASSES and f.remaining > 0 and not f.demanded),
            TS.LEADER_NO_DEMAND,
        ),
        Rule(
            "2932d2-last-silent",
            "163-293(d)(2)",
            "the others withdrew, but the last tied runner-up had not demanded a runoff by noon "
            "on the Thursday: the highest is declared elected",
            _d2(
                lambda f: (
                    f.remaining == 1
                    and not f.demanded
                    and f.request_passed
                    and f.moment is not TM.REQUEST_PASSES
                )
            ),
            TS.LEADER_LAST_SILENT,
        ),
        Rule(
            "2932d2-not-all-withdrew",
            "163-293(d)(2)",
            "the three days end with two or more still tied for second: the highest is declared "
            "elected",
            _d2(lambda f: f.remaining > 1 and f.moment is TM.WITHDRAWAL_PASSES),
            TS.LEADER_NOT_ALL_WITHDREW,
        ),
        Rule(
            "2932d2-none-left",
            "163-293(d)(2)",
            "every candidate tied for second withdrew: nobody is left to demand a runoff, and "
            "the highest is declared elected",
            _d2(lambda f: f.remaining == 0),
            TS.LEADER_NONE_LEFT,
        ),
    ),
    gaps=(
        Gap(
            "departed-tied-for-first-window",
            ("163-293(d)(1)", "163-294.1(c)"),
            "the three days after the recount end, and a candidate still tied for first has "
            "died or been disqualified on or after election day: (d)(1) holds a runoff 'between "
            "the two' unless one withdraws in writing, which a candidate who has died cannot "
            "do; 163-294.1(c) speaks of a person elected who dies or is disqualified, and the "
            "tie has elected nobody",
            "the runoff (d)(1) provides is called with the tied names; if the departed candidate "
            "wins it, the office is vacant (163-294.1(c))",
            _d1(lambda f: f.remaining > 1 and f.moment is TM.WITHDRAWAL_PASSES and f.departed),
            TS.RUNOFF_AMONG_TIED,
        ),
    ),
    facts=_tie_window_facts,
)


def tie_step_reason(
    step: TieStep, moment: TieMoment, *, withdrew: str = "", last: str = "", departed: str = ""
) -> str:
    """The reason a ruling gives for what follows (``withdrew``: who just withdrew; ``last``:
    the one tied runner-up left; ``departed``: the tied candidates who died or were
    disqualified, with how they left). None is false of the facts: a candidate who died is
    never said to have withdrawn or to be still standing."""
    if step is TS.REMAINING_ELECTED:
        if moment is TM.WITHDREW:
            return f"{withdrew} withdrew within three days of the recount"
        return "the other tied candidate(s) withdrew"
    if step is TS.RUNOFF_AMONG_TIED:
        if departed:
            return (
                "the recount left a tie and no tied candidate withdrew within three days "
                f"({departed})"
            )
        return (
            "the recount left a tie and the tied candidates still standing did not withdraw "
            "within three days"
        )
    if step is TS.RUNOFF_WITH_LAST:
        if moment is TM.DEMANDED:
            return f"the other tied candidates withdrew and {last} demanded a runoff"
        return f"all other tied candidates withdrew and {last} demanded a runoff"
    if departed and step is TS.LEADER_NOT_ALL_WITHDREW:
        # one who died or was disqualified files no withdrawal: (d)(2) counts only those
        return (
            "the tied runners-up did not all but one withdraw within three days "
            f"({departed}, which is not a withdrawal)"
        )
    if departed and step in (TS.LEADER_NO_DEMAND, TS.LEADER_LAST_SILENT):
        # a demand by one who then died or was disqualified lapsed with its maker
        return f"no tied runner-up demanded a runoff in time and stayed in the race ({departed})"
    return {
        TS.LEADER_NO_DEMAND: "no tied runner-up demanded a runoff in time",
        TS.LEADER_NOT_ALL_WITHDREW: (
            "the tied runners-up did not all but one withdraw within three days"
        ),
        TS.LEADER_LAST_SILENT: f"{last} did not demand a runoff in time",
        TS.LEADER_NONE_LEFT: "every tied runner-up withdrew",
    }.get(step, "")


# --- a recount: G.S. 163-293(d)(1) ------------------------------------------------------------


class RecountMoment(StrEnum):
    """Where the count stands when a recount is due or reported."""

    TIE_FOR_FIRST = "tie_for_first"  # the first election's count finds a tie for the highest
    ORDERED = "ordered"  # a recount is reported while the count awaits the one (d)(1) orders
    DECLARED = "declared"  # a recount is reported of a declared result, none awaited
    BEFORE_RESULT = "before_result"  # a recount is reported before any result is declared


class Recount(StrEnum):
    REQUIRED = "required"  # the board must recount before anything else is declared
    REPLACES = "replaces"  # the recount's totals replace the round's; its result is declared
    NO_EFFECT = "no_effect"  # nothing to recount


@attrs.frozen
class RecountFacts:
    moment: RecountMoment


RECOUNT: Table[RecountFacts, Recount] = Table(
    "recount",
    "a tie for first needs a recount, or the board reports one: what does it do?",
    (
        Rule(
            "2931d1-recount-required",
            "163-293(d)(1)",
            "a tie for the highest vote in a first election: the board recounts and declares "
            "the results before a runoff or a withdrawal is considered",
            lambda f: f.moment is RecountMoment.TIE_FOR_FIRST,
            Recount.REQUIRED,
        ),
        Rule(
            "2931d1-recount-declared",
            "163-293(d)(1)",
            "the recount the tie required: its totals replace the count and its result is declared",
            lambda f: f.moment is RecountMoment.ORDERED,
            Recount.REPLACES,
        ),
    ),
    gaps=(
        Gap(
            "recount-not-ordered",
            ("163-293(d)(1)",),
            "a recount the count was not waiting for: the only recount in these statutes is "
            "(d)(1)'s, which a tie for the highest vote in a runoff-method election orders (the "
            "general recount law, 163-182.7, is not among them)",
            "the recount's totals replace the round's and the result is declared again, as for "
            "(d)(1)'s recount",
            lambda f: f.moment is RecountMoment.DECLARED,
            Recount.REPLACES,
        ),
        Gap(
            "recount-before-result",
            ("163-293(d)(1)",),
            "a recount reported before any result was declared: (d)(1)'s recount follows a "
            "declared tie",
            "the recount has no effect; the count goes on to the canvass",
            lambda f: f.moment is RecountMoment.BEFORE_RESULT,
            Recount.NO_EFFECT,
        ),
    ),
    facts=lambda: (RecountFacts(m) for m in RecountMoment),
)


# --- a drawing of lots: does it decide the tie that awaits one? -------------------------------


class Lot(StrEnum):
    """What a drawing does (a refusal's value is the reason users see)."""

    DECIDES = "decides"  # the winner takes the place the tie left open
    NO_TIE = "no lot pending"  # no tie awaits a lot: the drawing decides nothing
    NOT_TIED = "not among the tied candidates"  # the winner is not among those tied


@attrs.frozen
class LotFacts:
    pending: bool  # a tie awaits a lot
    among_tied: bool = True  # the drawing named one of those tied for the place


LOT: Table[LotFacts, Lot] = Table(
    "lot",
    "the board reports a drawing of lots: does it decide a tie?",
    (
        Rule(
            "2923-lot-decides",
            "163-292(3)",
            "the board determines the winner of a tie by lot: the drawing gives the place to "
            "the candidate it names (likewise 163-293(f), 163-294(b), 163-182.8(2))",
            lambda f: f.pending and f.among_tied,
            Lot.DECIDES,
        ),
        Rule(
            "2923-no-tie",
            "163-292(3)",
            "a lot determines the winner of a tie: with no tie awaiting one, a drawing decides "
            "nothing",
            lambda f: not f.pending,
            Lot.NO_TIE,
        ),
        Rule(
            "2923-not-tied",
            "163-292(3)",
            "a lot determines the winner among the tied: a drawing that names someone else "
            "decides nothing",
            lambda f: f.pending and not f.among_tied,
            Lot.NOT_TIED,
        ),
    ),
    facts=lambda: (LotFacts(p, a) for p in (False, True) for a in (False, True) if p or a),
)


# --- who is still among the tied: G.S. 163-293(d)(1), (d)(2) -----------------------------------


class Tied(StrEnum):
    """Whether a candidate counted in a tie is still among the tied."""

    STILL_TIED = "still_tied"
    OUT = "out"  # withdrew in writing


@attrs.frozen
class TiedFacts:
    tie_for_first: bool  # (d)(1), not (d)(2)
    standing: Standing


def _tie_is(first: bool, test: Callable[[TiedFacts], bool]) -> Callable[[TiedFacts], bool]:
    return lambda f: f.tie_for_first is first and test(f)


def _tied_rules() -> tuple[Rule[TiedFacts, Tied], ...]:
    out: list[Rule[TiedFacts, Tied]] = []
    for first, cite, tag in ((True, "163-293(d)(1)", "2931d1"), (False, "163-293(d)(2)", "2932d2")):
        out += [
            Rule(
                f"{tag}-written-withdrawal",
                cite,
                "a tied candidate who filed a written notice of withdrawal is no longer among "
                "the tied",
                _tie_is(first, lambda f: f.standing is Standing.WITHDREW),
                Tied.OUT,
            ),
            Rule(
                f"{tag}-no-written-withdrawal",
                cite,
                "only a written notice of withdrawal takes a candidate out of the tie: one who "
                "died or was disqualified filed none and stays among the tied (what that does "
                "to the tie is the tie-window table's question)",
                _tie_is(first, lambda f: f.standing is not Standing.WITHDREW),
                Tied.STILL_TIED,
            ),
        ]
    return tuple(out)


STILL_TIED: Table[TiedFacts, Tied] = Table(
    "still-tied",
    "a tie waits on its three days: is a candidate counted in it still among the tied?",
    _tied_rules(),
    facts=lambda: (TiedFacts(first, s) for first in (True, False) for s in Standing),
)


# --- the order of the first count's questions: G.S. 163-293, 163-111 --------------------------


class Place(StrEnum):
    """Where the first count stands."""

    FIRST = "first"  # the highest vote
    SECOND = "second"  # a single office without a majority: the next highest vote
    REMAINING = "remaining"  # seats left without a majority: the best of the rest


class Question(StrEnum):
    """The question the count asks next (each answered by its own table or provision)."""

    TIE_FOR_FIRST = "tie_for_first"  # 163-293(d)(1): a recount, then a runoff unless one withdraws
    LEADER_LEFT = "leader_left"  # the leader-left table: is the office vacant now?
    THRESHOLD = "threshold"  # who has a majority (a substantial plurality)
    RUNNER_UP_LEFT = "runner_up_left"  # the runner-up-left table: is a runoff still possible?
    TIE_FOR_SECOND = "tie_for_second"  # 163-293(d)(2)'s three days
    SECOND_BY_LOT = "second_by_lot"  # a party primary's tie for second: the tie-at table
    RUNNER_UP = "runner_up"  # the runner-up may request a runoff (demand a second primary)
    ALONE = "alone"  # nobody polled below the highest: declared, with nobody to request
    FIRST_BY_LOT = "first_by_lot"  # a party primary's tie for first short of the threshold
    BEST = "best"  # the best of the rest, as many as the seats left (ties: the tie-at table)


@attrs.frozen
class OrderFacts:
    place: Place
    primary: bool  # a party primary (163-111), not the runoff method (163-293)
    group: bool = False  # FIRST: two or more seats
    tie: bool = False  # the two highest (FIRST) or the next highest (SECOND) tie
    left: bool = False  # the leader (FIRST) or one at the next place (SECOND) has left the race
    alone: bool = False  # SECOND: nobody polled a vote below the highest


def _order_facts() -> Iterator[OrderFacts]:
    flags = (False, True)
    for primary, group, tie, left in itertools.product(flags, flags, flags, flags):
        yield OrderFacts(Place.FIRST, primary, group, tie, left)
    for primary, tie, left in itertools.product(flags, flags, flags):
        yield OrderFacts(Place.SECOND, primary, tie=tie, left=left)
    for primary in flags:
        yield OrderFacts(Place.SECOND, primary, alone=True)
    for primary, group, tie in itertools.product(flags, flags, flags):
        yield OrderFacts(Place.REMAINING, primary, group, tie)


def _single_runoff(
    place: Place, test: Callable[[OrderFacts], bool]
) -> Callable[[OrderFacts], bool]:
    return lambda f: f.place is place and not f.primary and not f.group and not f.alone and test(f)


ORDER: Table[OrderFacts, Question] = Table(
    "count-order",
    "the first election is counted: which provision's question comes first?",
    (
        Rule(
            "2931d1-tie-for-first",
            "163-293(d)(1)",
            "a tie for the highest vote goes to a recount and then a runoff unless one withdraws; "
            "it comes before the provisions on a leader who left, which speak of one candidate "
            "with the highest vote (the tie tables say what a departed tied candidate does)",
            _single_runoff(Place.FIRST, lambda f: f.tie),
            Question.TIE_FOR_FIRST,
            exception_to=("2944c-leader-left",),
        ),
        Rule(
            "2944c-leader-left",
            "163-294.4(c)",
            "the highest vote went to a candidate who has left: the leader-left table says "
            "whether the office is vacant before any majority is counted (if not, the threshold "
            "is next)",
            _single_runoff(Place.FIRST, lambda f: f.left),
            Question.LEADER_LEFT,
        ),
        Rule(
            "293a-threshold",
            "163-293(a)",
            "who obtains a majority is declared elected",
            lambda f: (
                f.place is Place.FIRST and not f.primary and (f.group or not (f.tie or f.left))
            ),
            Question.THRESHOLD,
        ),
        Rule(
            "111a-threshold",
            "163-111(a)",
            "who obtains a substantial plurality is declared nominated",
            lambda f: f.place is Place.FIRST and f.primary,
            Question.THRESHOLD,
        ),
        Rule(
            "2944c-runner-up-left",
            "163-294.4(c)",
            "a runner-up (or one tied for second) who has left is asked about first: "
            "163-294.4(c), on the second highest vote cast for a deceased candidate, is the more "
            "specific provision (the runner-up-left table; if it leaves a runoff possible, the "
            "tie or the request is next)",
            _single_runoff(Place.SECOND, lambda f: f.left),
            Question.RUNNER_UP_LEFT,
            exception_to=("2932d2-tie-for-second",),
        ),
        Rule(
            "2932d2-tie-for-second",
            "163-293(d)(2)",
            "a tie for the second highest vote: the leader is elected unless all but one of the "
            "tied withdraw within three days and the last demands a runoff",
            _single_runoff(Place.SECOND, lambda f: f.tie),
            Question.TIE_FOR_SECOND,
        ),
        Rule(
            "2931b1-runner-up",
            "163-293(b)(1)",
            "the highest is elected unless the runner-up requests a runoff",
            _single_runoff(Place.SECOND, lambda f: not (f.tie or f.left)),
            Question.RUNNER_UP,
        ),
        Rule(
            "111b-tie-for-second",
            "163-111(b)",
            "a tie for second in a party primary: a drawing of lots names the runner-up who may "
            "demand a second primary (the tie-at table)",
            lambda f: f.place is Place.SECOND and f.primary and not f.alone and f.tie,
            Question.SECOND_BY_LOT,
        ),
        Rule(
            "111b-runner-up",
            "163-111(b)",
            "the runner-up may demand a second primary",
            lambda f: f.place is Place.SECOND and f.primary and not (f.alone or f.tie),
            Question.RUNNER_UP,
        ),
        Rule(
            "111b-tie-for-first-lot",
            "163-111(b)",
            "a tie for first in a party primary, nobody over the substantial plurality: a "
            "drawing of lots ranks the tied before the runner-up is known (the tie-at table)",
            lambda f: f.place is Place.REMAINING and f.primary and not f.group and f.tie,
            Question.FIRST_BY_LOT,
        ),
        Rule(
            "293b-best-remaining",
            "163-293(b)",
            "the best of the rest, as many as the seats left, are declared elected unless a "
            "runoff is requested (a tie for first has been asked already)",
            lambda f: f.place is Place.REMAINING and not f.primary,
            Question.BEST,
        ),
        Rule(
            "111b-best-remaining",
            "163-111(b)",
            "the best of the rest, as many as the places left, are nominated unless a second "
            "primary is demanded",
            lambda f: f.place is Place.REMAINING and f.primary and (f.group or not f.tie),
            Question.BEST,
        ),
        Rule(
            "2931b1-alone",
            "163-293(b)(1)",
            "nobody polled below the highest: there is no runner-up to request a runoff, and the "
            "highest is declared elected",
            lambda f: f.place is Place.SECOND and not f.primary and f.alone,
            Question.ALONE,
        ),
        Rule(
            "111b-alone",
            "163-111(b)",
            "nobody polled below the highest: there is no runner-up to demand a second primary, "
            "and the highest is declared nominated",
            lambda f: f.place is Place.SECOND and f.primary and f.alone,
            Question.ALONE,
        ),
    ),
    facts=_order_facts,
)


#: Every table of the count, for ``electsim gaps`` and ``electsim cite``.
TABLES: tuple[Table[Any, Any], ...] = (
    LEADER,
    SECOND,
    TIE_FIRST,
    PLACES,
    GROUP_LEFT,
    TIE,
    TIE_AT,
    REQUEST,
    CANVASS,
    TIE_WINDOW,
    RECOUNT,
    LOT,
    WINDOW_CLOSE,
    STILL_TIED,
    ORDER,
)
