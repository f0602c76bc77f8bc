"""The count's shared vocabulary and the order of its first questions: rule tables (see
:mod:`simulator.law.rules`).

- :class:`CandStatus`: where a candidate stands when the count reaches them (the departed-candidate
  tables read it).
- ``count-order``: the first election is counted; which provision's question comes first
  (163-293, 163-111)?
- :func:`voters_over_5000`: whether more than 5,000 voters cast ballots, as the votes tell it
  (the tie tables read it).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from enum import StrEnum

import attrs

from simulator.law.rules import Rule, Table
from simulator.law.vocab import CandStatus

LEFT = (CandStatus.DIED, CandStatus.WITHDREW, CandStatus.DISQUALIFIED)
#: how a candidate who left is said to have left, by their status (a ruling's ``{verb}``)
LEFT_VERB: dict[CandStatus, str] = {
    CandStatus.DIED: "died",
    CandStatus.WITHDREW: "withdrew",
    CandStatus.DISQUALIFIED: "was disqualified",
}
#: how one is said to have left where the status does not say (one still standing, say)
LEFT_THE_RACE = "left the race"


def how_left(left: Sequence[tuple[str, CandStatus]], otherwise: str) -> str:
    """How candidates who left, each with their status, left, in words, those who left the same
    way together: "Cy and Dee died", "Cy died and Dee was disqualified" (``otherwise`` says it
    for those who neither died nor were disqualified: "withdrew", "left")."""
    ways: dict[str, list[str]] = {}
    for name, status in left:
        how = LEFT_VERB[status] if status in _SAID_BY_STATUS else otherwise
        ways.setdefault(how, []).append(name)
    return and_list([f"{and_list(who)} {how}" for how, who in ways.items()])


#: the statuses :func:`how_left` says by their own verb
_SAID_BY_STATUS = (CandStatus.DIED, CandStatus.DISQUALIFIED)


def and_list(items: Sequence[str]) -> str:
    """``items`` in words: "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


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
            id="leader-left-asked-first",
            cite="163-294.4(c)",
            summary="the highest vote went to a candidate who has left: the leader-left table says "
            "whether the office is vacant before any majority is counted (if not, the threshold "
            "is next)",
            applies=_single_runoff(Place.FIRST, lambda f: f.left),
            effect=Question.LEADER_LEFT,
        ),
        Rule(
            id="tie-for-first-asked-first",
            cite="163-293(d)(1)",
            summary="a tie for the highest vote goes to a recount and then a runoff unless one "
            "withdraws; it comes before the provisions on a leader who left, which speak of one "
            "candidate with the highest vote (the tie tables say what a departed tied candidate "
            "does)",
            applies=_single_runoff(Place.FIRST, lambda f: f.tie),
            effect=Question.TIE_FOR_FIRST,
            exception_to=("leader-left-asked-first",),
        ),
        Rule(
            id="majority-threshold",
            cite="163-293(a)",
            summary="who obtains a majority is declared elected",
            applies=lambda f: (
                f.place is Place.FIRST and not f.primary and (f.group or not (f.tie or f.left))
            ),
            effect=Question.THRESHOLD,
        ),
        Rule(
            id="substantial-plurality-threshold",
            cite="163-111(a)",
            summary="who obtains a substantial plurality is declared nominated",
            applies=lambda f: f.place is Place.FIRST and f.primary,
            effect=Question.THRESHOLD,
        ),
        Rule(
            id="tie-for-second-asked",
            cite="163-293(d)(2)",
            summary="a tie for the second highest vote: the leader is elected unless all but one "
            "of the tied withdraw within three days and the last demands a runoff",
            applies=_single_runoff(Place.SECOND, lambda f: f.tie),
            effect=Question.TIE_FOR_SECOND,
        ),
        Rule(
            id="runner-up-left-asked-first",
            cite="163-294.4(c)",
            summary="a runner-up (or one tied for second) who has left is asked about first: "
            "163-294.4(c), on the second highest vote cast for a deceased candidate, is the more "
            "specific provision (the runner-up-left table; if it leaves a runoff possible, the "
            "tie or the request is next)",
            applies=_single_runoff(Place.SECOND, lambda f: f.left),
            effect=Question.RUNNER_UP_LEFT,
            exception_to=("tie-for-second-asked",),
        ),
        Rule(
            id="runner-up-may-ask",
            cite="163-293(b)(1)",
            summary="the highest is elected unless the runner-up requests a runoff",
            applies=_single_runoff(Place.SECOND, lambda f: not (f.tie or f.left)),
            effect=Question.RUNNER_UP,
        ),
        Rule(
            id="primary-tie-for-second",
            cite="163-111(b)",
            summary="a tie for second in a party primary: a drawing of lots names the runner-up "
            "who may demand a second primary (the tie-at table)",
            applies=lambda f: f.place is Place.SECOND and f.primary and not f.alone and f.tie,
            effect=Question.SECOND_BY_LOT,
        ),
        Rule(
            id="primary-runner-up",
            cite="163-111(b)",
            summary="the runner-up may demand a second primary",
            applies=lambda f: f.place is Place.SECOND and f.primary and not (f.alone or f.tie),
            effect=Question.RUNNER_UP,
        ),
        Rule(
            id="primary-tie-for-first-lot",
            cite="163-111(b)",
            summary="a tie for first in a party primary, nobody over the substantial plurality: a "
            "drawing of lots ranks the tied before the runner-up is known (the tie-at table)",
            applies=lambda f: f.place is Place.REMAINING and f.primary and not f.group and f.tie,
            effect=Question.FIRST_BY_LOT,
        ),
        Rule(
            id="best-remaining",
            cite="163-293(b)",
            summary="the best of the rest, as many as the seats left, are declared elected unless "
            "a runoff is requested (a tie for first has been asked already)",
            applies=lambda f: f.place is Place.REMAINING and not f.primary,
            effect=Question.BEST,
        ),
        Rule(
            id="primary-best-remaining",
            cite="163-111(b)",
            summary="the best of the rest, as many as the places left, are nominated unless a "
            "second primary is demanded",
            applies=lambda f: f.place is Place.REMAINING and f.primary and (f.group or not f.tie),
            effect=Question.BEST,
        ),
        Rule(
            id="highest-alone",
            cite="163-293(b)(1)",
            summary="nobody polled below the highest: there is no runner-up to request a runoff, "
            "and the highest is declared elected",
            applies=lambda f: f.place is Place.SECOND and not f.primary and f.alone,
            effect=Question.ALONE,
        ),
        Rule(
            id="primary-highest-alone",
            cite="163-111(b)",
            summary="nobody polled below the highest: there is no runner-up to demand a second "
            "primary, and the highest is declared nominated",
            applies=lambda f: f.place is Place.SECOND and f.primary and f.alone,
            effect=Question.ALONE,
        ),
    ),
    facts=_order_facts,
)


# --- what the rulings on the best placed with nobody below them say ----------------------------

#: why they are declared (``Question.ALONE``), by whether a candidate who left cannot be nominated
NOBODY_BELOW: dict[bool, str] = {
    True: "no other candidate who can be nominated",
    False: "no other candidate",
}
#: a single office's leader so declared ({nobody}: :data:`NOBODY_BELOW`'s)
ALONE_DECLARED = "{nobody}: highest vote"
