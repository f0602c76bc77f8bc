"""Which provision breaks a tie: rule tables (see :mod:`simulator.law.rules`).

- ``general-tie``: a tie decides who takes a seat in an election decided by the highest vote
  (163-292, 163-294.4(c); the 5,000 voters of 163-292 are :func:`voters_over_5000`'s).
- ``tie-at``: a tie decides a place in a runoff, a primary or a group's count (163-293(d),
  163-111).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from enum import StrEnum
from typing import Any

import attrs

from simulator.law.readings import (
    DepartedTiedForASeat,
    FirstElectionTie,
    GroupRunoffTie,
    GroupTieVoters,
    TieAfterPrimary,
    TiedLeftBeforeLot,
)
from simulator.law.rules import Conflict, Finding, Gap, Reading, Rule, Table
from simulator.law.tables.count import LEFT
from simulator.law.tables.vacancies import TO_BE_FILLED
from simulator.law.vocab import CandStatus


class TieEffect(StrEnum):
    LOT = "lot"  # the board draws lots
    NEW_ELECTION = "new_election"  # the State Board orders a new election among the tied
    VACANT = "vacant"  # the seat the tie decides is declared vacant
    #: `tied_left_before_lot`: the tied candidates who still stand, as many as the places, take them
    STANDING = "standing"


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
    departed: CandStatus = CandStatus.ACTIVE
    withdrawal_as_death: bool = True  # (the switch of that name)
    left_after: bool = False

    @property
    def offish(self) -> bool:
        """163-294.1(b)'s "deceased or disqualified", with a withdrawal under
        `withdrawal_as_death`."""
        return self.departed is not CandStatus.WITHDREW or self.withdrawal_as_death


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
    return f.left_after and f.departed is not CandStatus.ACTIVE


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


#: ``tied_left_before_lot: among_standing``, wherever a drawing of lots would
#: count a tied candidate who has left
_AMONG_STANDING = Reading(
    "tied_left_before_lot",
    TiedLeftBeforeLot.AMONG_STANDING,
    "the drawing is held only among the tied candidates who still stand; as many stand as there "
    "are places, so they take them without a lot, as 163-293(d)(1) elects the one who remains "
    "when the other leaves a tie",
    TieEffect.STANDING,
)


TIE: Table[TieFacts, TieEffect] = Table(
    "general-tie",
    "an election decided by the highest vote: a tie decides who takes a seat. How is it broken?",
    (
        Rule(
            id="plurality-tie-by-lot",
            cite="163-292(3)",
            summary="plurality method: the board determines the winner by lot",
            applies=lambda f: f.kind is Kind.PLURALITY and not _left_after(f),
            effect=TieEffect.LOT,
        ),
        Rule(
            id="dead-tied-for-seat",
            cite="163-294.4(c)",
            summary="a candidate who died before the election (name left on the ballot) polls the "
            "highest vote for the seat, here shared: the seat is vacant",
            applies=lambda f: (
                f.departed is CandStatus.DIED and f.kind is not Kind.PARTISAN and not f.left_after
            ),
            effect=TieEffect.VACANT,
        ),
        Rule(
            id="departed-tied-for-seat",
            cite="163-294.1(b)",
            summary="a disqualified candidate (or one withdrawn, a withdrawal counted as a "
            "death) left on the ballot receives enough votes to be elected, here shared: the "
            "seat is vacant",
            applies=lambda f: (
                f.departed in (CandStatus.WITHDREW, CandStatus.DISQUALIFIED)
                and f.offish
                and f.kind is not Kind.PARTISAN
                and not f.left_after
            ),
            effect=TieEffect.VACANT,
        ),
        Rule(
            id="new-election-over-5000-voters",
            cite="163-182.8(1)",
            summary="a tie other than in a primary with more than 5,000 voters in the ballot "
            "item: the State Board orders a new election among the tied",
            applies=lambda f: f.kind is Kind.PARTISAN and f.over_5000 is True,
            effect=TieEffect.NEW_ELECTION,
        ),
        Rule(
            id="lot-5000-voters-or-fewer",
            cite="163-182.8(2)",
            summary="a tie other than in a primary with 5,000 voters or fewer: broken by random "
            "selection",
            applies=lambda f: f.kind is Kind.PARTISAN and f.over_5000 is False,
            effect=TieEffect.LOT,
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
            readings=(_AMONG_STANDING,),
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
            readings=(
                Reading(
                    "group_tie_voters",
                    GroupTieVoters.VOTES,
                    "the voters are taken to be as many as the votes (every voter casting one "
                    "vote, the most the votes allow): more than 5,000, so the State Board orders "
                    "a new election among the tied (163-182.8(1))",
                    TieEffect.NEW_ELECTION,
                ),
            ),
        ),
    ),
    conflicts=(
        Conflict(
            "departed-tied-for-a-seat",
            frozenset({"plurality-tie-by-lot", "dead-tied-for-seat"}),
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
            frozenset({"plurality-tie-by-lot", "departed-tied-for-seat"}),
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
    asked="{who} tie for a seat",
)


def voters_question(over_5000: bool | None, estimate_over_5000: bool) -> TieFacts:
    """163-182.8's question alone (did more than 5,000 vote in the ballot item?), for a tie a
    reading sends to 163-182.8 (`first_election_tie`): the facts of a partisan general election's
    tie, to which 163-182.8 applies directly, so that the ``voters-not-in-log`` gap and
    `group_tie_voters` answer it the same way for both."""
    return TieFacts(Kind.PARTISAN, over_5000, estimate_over_5000)


def counts_voters(finding: Finding[Any, TieEffect]) -> bool:
    """Whether a ``tie-at`` finding breaks the tie as 163-182.8 does (`first_election_tie`), so that
    the number of voters decides between a new election and a lot."""
    return finding.reading is not None and finding.reading.cite.startswith("163-182.8")


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
    #: RUNOFF outside primaries: three or more tie for a place (as in a runoff among three or more
    #: tied for first, `three_way_tie`), where 163-293(f) speaks of a tie "between two candidates"
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
                # `group_runoff_tie` reads the voters
                yield TieAtFacts(point, False, over_5000=True)
                for group in (True, False):
                    if not group:
                        yield TieAtFacts(point, False, group=False)
                    yield TieAtFacts(point, False, group=group, many=True)
                    yield TieAtFacts(point, False, group=group, left=True)
                    yield TieAtFacts(point, False, group=group, many=True, left=True)


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
    """A tie of the first election of the election and runoff method that 163-293 leaves open: a lot
    by default; `first_election_tie` applies 163-182.8, which depends on the number of voters."""
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
            id="runoff-tie-by-lot",
            cite="163-293(f)",
            summary="a tie for the highest vote in a runoff: the board determines the winner by "
            "lot",
            applies=lambda f: (
                f.point is TiePoint.RUNOFF
                and not f.primary
                and not f.group
                and not f.many
                and not f.left
            ),
            effect=TieEffect.LOT,
        ),
        Rule(
            id="primary-tie-by-lot",
            cite="163-294(b)",
            summary="a tie in a nonpartisan primary: the board ranks the tied by lot",
            applies=lambda f: f.point is TiePoint.NONPARTISAN_PRIMARY,
            effect=TieEffect.LOT,
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
        *(
            _lot_gap(
                "group-runoff-tie",
                ("163-293(f)",),
                "two candidates tie for a seat in the runoff for several seats: (f) elects the "
                "candidates with the most votes and has the board draw lots when two tie for the "
                "top vote, words written for a runoff for one office; a tie for a group runoff's "
                "last seat is not a tie for the top vote",
                "a drawing of lots between the tied for the seat, as (f) does for one office",
                lambda f, over=over: (
                    f.point is TiePoint.RUNOFF
                    and not f.primary
                    and f.group
                    and not f.many
                    and not f.left
                    and f.over_5000 is over
                ),
                readings=(
                    Reading(
                        "group_runoff_tie",
                        GroupRunoffTie.BY_SIZE,
                        "the tie for the seat is broken as 163-182.8 breaks a tie other than in a "
                        "primary: a new election among the tied ordered by the State Board with "
                        "more than 5,000 voters in the runoff, a drawing of lots with 5,000 or "
                        "fewer",
                        TieEffect.NEW_ELECTION if over else TieEffect.LOT,
                        cite="163-182.8(1)" if over else "163-182.8(2)",
                    ),
                ),
            )
            for over in (True, False)
        ),
        _lot_gap(
            "runoff-tie-of-three",
            ("163-293(f)",),
            "three or more candidates tie for a place in a runoff (as in one held among three or "
            "more tied for first): (f) determines the winner by lot in "
            "a tie between two candidates",
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
            readings=(_AMONG_STANDING,),
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
    asked="{tied} tie for a place",
)


# --- what the rulings on a tie say ({tied}: the tied candidates, listed) -----------------------

#: a tie with more than 5,000 voters in the ballot item (163-182.8(1)) ({places}: the seats it
#: is for; {reading}: the reading chosen, as :func:`~simulator.law.readings.named` names it, or
#: nothing)
NEW_ELECTION = (
    "{tied} tie for {places} seat(s) with more than 5,000 voters in the ballot item: no lot; the "
    "State Board of Elections orders a new election with only the tied candidates on the "
    "ballot{reading}"
)
#: a tie the ``tie`` table leaves to a vacancy ({places}: the seats it is for; {who}: the tied,
#: each who left with how)
SEATS_VACANT = (
    "the highest vote for {places} seat(s) is shared by {who}: the board declares the seat(s) "
    "vacant, " + TO_BE_FILLED
)
#: those tied who still stand take the places without a drawing (`tied_left_before_lot`)
#: ({stand}; {places}: :data:`THE_LAST`'s; {left}: those who left, and how)
STANDING_ELECTED = (
    "{stand} elected without a drawing of lots: of those tied for the last {places}, {left} "
    "before the drawing, and the others are as many as the places"
)
#: the places a tie is for, by whether it is one ({n}: how many)
THE_LAST: dict[bool, str] = {True: "place", False: "{n} places"}
#: what a tie asks of the number of voters in the ballot item (``tie``: {tied})
VOTERS_ASKED = "{tied} tie for a place, broken as 163-182.8 breaks ties"
#: what a tie for a place in a primary asks of the ``tie-at`` table ({what}: the place)
PRIMARY_PLACE_ASKED = "a tie for {what} in the primary among {tied}"
