"""Who is elected or nominated when a result is declared: rule tables (see
:mod:`simulator.law.rules`).

- ``result``: which provision decides a count, and how: the highest vote (163-292(1) and (2),
  163-294(c) after a nonpartisan primary, 163-291 for a partisan general election), the two
  highest per seat of a nonpartisan primary (163-294(b)), a majority (163-293(a)(1) and (a)(2)) or
  a substantial plurality (163-111(a)(1) and (a)(2), a dated value); and for a runoff or a second
  primary, the highest vote (163-293(f), 163-111(b)).
- ``runoff-right``: with no majority (or no substantial plurality), who may ask for the next
  round: the runner-up (163-293(b)(1)), the next candidates as many as the seats left
  (163-293(b)(2)), or the runner-up in a party primary (163-111(b)).

The handlers in :mod:`simulator.engine.counting` gather the facts, evaluate the table and apply
its typed effect; what an effect means (the threshold a decision sets) sits here beside the
rules.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import Any

import attrs

from simulator.law.rules import Gap, Rule, Table
from simulator.law.vocab import Method, Stage


class Count(StrEnum):
    """What kind of count a contest's round is."""

    PLURALITY = "plurality"  # a nonpartisan election decided by the highest vote (163-292)
    AFTER_PRIMARY = "after_primary"  # the election after a nonpartisan primary (163-294(c))
    PARTISAN = "partisan"  # a partisan general election (163-291, the county rules)
    NONPARTISAN_PRIMARY = "nonpartisan_primary"  # 163-294(b)
    RUNOFF_METHOD = "runoff_method"  # the first election of the election-and-runoff method
    PARTY_PRIMARY = "party_primary"  # a partisan primary (163-291, 163-111)


def count_of(method: Method, stage: Stage) -> Count:
    """The kind of count of a contest (its method and stage)."""
    if stage is Stage.PRIMARY:
        return Count.PARTY_PRIMARY if method is Method.PARTISAN else Count.NONPARTISAN_PRIMARY
    return {
        Method.PLURALITY: Count.PLURALITY,
        Method.PRIMARY: Count.AFTER_PRIMARY,
        Method.PARTISAN: Count.PARTISAN,
        Method.RUNOFF: Count.RUNOFF_METHOD,
    }[method]


class Decision(StrEnum):
    """How a count decides who takes the places."""

    HIGHEST = "highest"  # the highest vote, as many as there are places
    TWO_PER_SEAT = "two_per_seat"  # the highest, twice as many as the seats
    MAJORITY = "majority"  # more than half the total (per seat: the total over twice the seats)
    SUBSTANTIAL_PLURALITY = "substantial_plurality"  # more than the dated share of the total
    #: no more names on the ballot than places: those named are elected, with no threshold
    UNOPPOSED = "unopposed"

    @property
    def threshold_based(self) -> bool:
        return self in (Decision.MAJORITY, Decision.SUBSTANTIAL_PLURALITY)


def threshold(decision: Decision, total: int, seats: int, share: Fraction) -> Fraction:
    """The vote a candidate must exceed under a threshold decision: half the total per seat
    (163-293(a)), or the substantial-plurality share of the total per seat (163-111(a); ``share``
    is the value in force)."""
    return _threshold(decision, total, seats, share.numerator, share.denominator)


@lru_cache(maxsize=4096)
def _threshold(decision: Decision, total: int, seats: int, num: int, den: int) -> Fraction:
    """:func:`threshold` with the share as its two whole numbers, worked out once for each."""
    if decision is Decision.MAJORITY:
        return Fraction(total, 2 * seats)
    assert decision is Decision.SUBSTANTIAL_PLURALITY
    return Fraction(num, den) * Fraction(total, seats)


@attrs.frozen
class ResultFacts:
    count: Count
    group: bool  # more than one seat
    runoff: bool = False  # the count of a runoff or a second primary
    #: more persons seek election (names on the ballot) than there are places
    contested: bool = True


def _result_facts() -> Iterator[ResultFacts]:
    for count, group in itertools.product(Count, (False, True)):
        yield ResultFacts(count, group)
        if count in (Count.RUNOFF_METHOD, Count.PARTY_PRIMARY):
            yield ResultFacts(count, group, runoff=True)
        if count is Count.RUNOFF_METHOD:
            yield ResultFacts(count, group, contested=False)


def _first(count: Count, group: bool | None) -> Any:
    return lambda f: f.count is count and not f.runoff and (group is None or f.group is group)


def _contested(contested: bool, group: bool) -> Any:
    """The first election of the election-and-runoff method, contested or not."""
    first = _first(Count.RUNOFF_METHOD, group)
    return lambda f: first(f) and f.contested is contested


def _second(count: Count) -> Any:
    return lambda f: f.count is count and f.runoff


RESULT: Table[ResultFacts, Decision] = Table(
    "result",
    "the votes are counted and the result is declared: which provision decides who takes the "
    "places, and how?",
    (
        Rule(
            id="single-highest-elected",
            cite="163-292(1)",
            summary="a single office under the nonpartisan plurality method: the highest vote is "
            "elected",
            applies=_first(Count.PLURALITY, False),
            effect=Decision.HIGHEST,
        ),
        Rule(
            id="group-highest-elected",
            cite="163-292(2)",
            summary="several seats under the nonpartisan plurality method: the highest, as many "
            "as there are seats, are elected",
            applies=_first(Count.PLURALITY, True),
            effect=Decision.HIGHEST,
        ),
        Rule(
            id="highest-after-primary",
            cite="163-294(c)",
            summary="the election after a nonpartisan primary: the highest vote is elected",
            applies=_first(Count.AFTER_PRIMARY, None),
            effect=Decision.HIGHEST,
        ),
        Rule(
            id="two-per-seat-nominated",
            cite="163-294(b)",
            summary="a nonpartisan primary nominates the highest, twice as many as the seats",
            applies=_first(Count.NONPARTISAN_PRIMARY, None),
            effect=Decision.TWO_PER_SEAT,
        ),
        Rule(
            id="single-majority",
            cite="163-293(a)(1)",
            summary="a single office under the election-and-runoff method: more than half the "
            "votes elects",
            applies=_contested(True, False),
            effect=Decision.MAJORITY,
        ),
        Rule(
            id="group-majority",
            cite="163-293(a)(2)",
            summary="several seats under the election-and-runoff method: more than the total "
            "divided by the seats, halved, elects",
            applies=_contested(True, True),
            effect=Decision.MAJORITY,
        ),
        Rule(
            id="single-unopposed",
            cite="163-293(a)(1)",
            summary="the majority rule of the election-and-runoff method speaks of more than one "
            "person seeking election to a single office: a candidate with no opponent on the "
            "ballot is not measured against a majority, and is elected",
            applies=_contested(False, False),
            effect=Decision.UNOPPOSED,
        ),
        Rule(
            id="group-unopposed",
            cite="163-293(a)(2)",
            summary="the majority rule for several seats speaks of more persons than there are "
            "offices seeking election: with no more names on the ballot than seats, none is "
            "measured against a majority, and those named are elected",
            applies=_contested(False, True),
            effect=Decision.UNOPPOSED,
        ),
        Rule(
            id="single-substantial-plurality",
            cite="163-111(a)(1)",
            summary="a party primary for one place: more than the substantial-plurality share of "
            "the votes nominates",
            applies=_first(Count.PARTY_PRIMARY, False),
            effect=Decision.SUBSTANTIAL_PLURALITY,
        ),
        Rule(
            id="group-substantial-plurality",
            cite="163-111(a)(2)",
            summary="a party primary for several places: more than the share of the total divided "
            "by the places nominates",
            applies=_first(Count.PARTY_PRIMARY, True),
            effect=Decision.SUBSTANTIAL_PLURALITY,
        ),
        Rule(
            id="runoff-highest",
            cite="163-293(f)",
            summary="the runoff: the highest vote is elected",
            applies=_second(Count.RUNOFF_METHOD),
            effect=Decision.HIGHEST,
        ),
        Rule(
            id="second-primary-highest",
            cite="163-111(b)",
            summary="the second primary: the highest vote is nominated",
            applies=_second(Count.PARTY_PRIMARY),
            effect=Decision.HIGHEST,
        ),
    ),
    gaps=(
        Gap(
            "partisan-general-election",
            ("163-290(a)(1)", "163-291(1)"),
            "a partisan general election: 163-290(a)(1) leaves the partisan method to 163-291, "
            "whose opening paragraph applies the rules for nominating county officers to the "
            "nominations and whose only word on the election is its date (163-291(1)); the "
            "rule that decides a general election could not be consulted",
            "the highest vote is elected, as many as there are seats, as at the November "
            "election of the other methods (163-292, 163-294(c))",
            _first(Count.PARTISAN, None),
            Decision.HIGHEST,
        ),
    ),
    facts=_result_facts,
    asked="the count of the election",
)


class Right(StrEnum):
    """Who may ask for a runoff (or demand a second primary) when no one reached the threshold."""

    RUNNER_UP = "runner_up"  # the candidate with the second highest vote
    NEXT_AS_MANY_AS_SEATS = "next_as_many_as_seats"  # the next highest, as many as seats left
    SECOND_PRIMARY = "second_primary"  # the runner-up of a party primary


@attrs.frozen
class RightFacts:
    primary: bool  # a party primary (otherwise the election-and-runoff method)
    group: bool


def _right_facts() -> Iterator[RightFacts]:
    for primary, group in itertools.product((False, True), (False, True)):
        yield RightFacts(primary, group)


RUNOFF_RIGHT: Table[RightFacts, Right] = Table(
    "runoff-right",
    "no candidate reached the threshold for a place: who may ask for a runoff or a second "
    "primary, and under which provision?",
    (
        Rule(
            id="runner-up-may-request",
            cite="163-293(b)(1)",
            summary="a single office: the highest is elected unless the runner-up requests a "
            "runoff",
            applies=lambda f: not f.primary and not f.group,
            effect=Right.RUNNER_UP,
        ),
        Rule(
            id="next-candidates-may-request",
            cite="163-293(b)(2)",
            summary="several seats: the highest for the seats left are elected unless the next "
            "candidates, as many as those seats, request a runoff",
            applies=lambda f: not f.primary and f.group,
            effect=Right.NEXT_AS_MANY_AS_SEATS,
        ),
        Rule(
            id="primary-runner-up",
            cite="163-111(b)",
            summary="a party primary: the runner-up may demand a second primary",
            applies=lambda f: f.primary,
            effect=Right.SECOND_PRIMARY,
        ),
    ),
    facts=_right_facts,
)


# --- what the rulings that declare a count's result say ----------------------------------------

#: what a count declares those it places, by whether it nominates (a primary) or elects
DECLARED: dict[bool, str] = {False: "elected", True: "nominated"}
#: the round after the first, by whether it is a party's second primary (otherwise a runoff)
ROUND_NAME: dict[bool, str] = {False: "runoff", True: "second primary"}
#: the ruling that names a threshold ({what}: :data:`THRESHOLD_NAMED`'s; {total}: the total it is
#: taken of; {threshold}: the vote a candidate must exceed)
THRESHOLD_RULING = "{what}: total {total}, so a candidate needs more than {threshold} votes"
#: the threshold a decision sets, by the decision and whether the count is for several seats
#: ({percent}, {source}: the substantial plurality's value in force, and where it comes from)
THRESHOLD_NAMED: dict[tuple[Decision, bool], str] = {
    (Decision.MAJORITY, False): "majority (more than half)",
    (Decision.MAJORITY, True): "majority (more than half of the total per seat)",
    (Decision.SUBSTANTIAL_PLURALITY, False): (
        "substantial plurality (more than {percent} of the total, the value in force: {source})"
    ),
    (Decision.SUBSTANTIAL_PLURALITY, True): (
        "substantial plurality (more than {percent} of the total per seat, the value in force: "
        "{source})"
    ),
}
#: why a declaration by the highest votes places those it names: several of them; the one with
#: the highest vote; one declared below another who polled more (whose place is vacant, or who
#: was declared before), who did not poll "the highest vote"
HIGHEST_VOTES = "the highest votes"
HIGHEST_VOTE = "the highest vote"
ONE_OF_THE_HIGHEST = "one of the highest votes"
#: a declaration by the highest votes ({names}: those declared; {verb}: :data:`DECLARED`'s;
#: {why}: one of the three above; {of}: :data:`IN_THE_ROUND`, or nothing; {tally}: every name with
#: its votes, set apart so that it does not read as the list of those declared; {lot}:
#: :data:`LOTS_SETTLED`, or nothing)
BY_HIGHEST = "{names} {verb} with {why}{of}; the votes: {tally}{lot}"
#: the round a declaration's votes were cast in ({round}: :data:`ROUND_NAME`'s; {among}:
#: :data:`WHO_CAN_BE_NOMINATED` where others on its ballot cannot be, or nothing)
IN_THE_ROUND = " in the {round}{among}"
WHO_CAN_BE_NOMINATED = " of the candidates who can be nominated"
#: what a declaration adds when drawings of lots settled part of it ({winners}: those drawn)
LOTS_SETTLED = "; the tie settled by the drawing of lots ({winners})"


def votes_of(people: Sequence[tuple[str, int]]) -> str:
    """Each name with its votes, as a ruling lists them: "Ann 500, Bob 300"."""
    return ", ".join(f"{n} {v}" for n, v in people)


def by_highest(
    people: Sequence[tuple[str, int]],
    *,
    nominating: bool,
    of: str = "",
    lot: Sequence[str] = (),
) -> Callable[[Sequence[str]], str]:
    """The text of a declaration by the highest votes (:data:`BY_HIGHEST`), from the names
    declared, like "Ann elected with the highest vote; the votes: Ann 500, Bob 300";
    ``people``: every name with its votes, best first; ``of``: the vote's round and pool
    (:data:`IN_THE_ROUND`), ``lot``: those drawings of lots placed."""
    tally = votes_of(people)
    votes = dict(people)
    top = people[0][1] if people else None
    settled = LOTS_SETTLED.format(winners=", ".join(lot)) if lot else ""

    def text(names: Sequence[str]) -> str:
        if len(names) > 1:
            why = HIGHEST_VOTES
        elif votes.get(names[0]) == top:
            why = HIGHEST_VOTE
        else:
            why = ONE_OF_THE_HIGHEST
        return BY_HIGHEST.format(
            names=", ".join(names),
            verb=DECLARED[nominating],
            why=why,
            of=of,
            tally=tally,
            lot=settled,
        )

    return text


#: the ``result`` table's unopposed count ({names}: those elected; {votes}: each with its votes)
UNOPPOSED_ELECTED = (
    "{names} elected: no other candidate sought election, and a majority is measured only when "
    "more persons seek election than there are places; the votes: {votes}"
)
#: those over the threshold, declared ({threshold}; {votes}: each with its votes)
OVER_THRESHOLD = "over the threshold of {threshold}: {votes}"
#: why leaders are declared, and who ({reason}: why; {names}; {verb}: :data:`DECLARED`'s)
LEADERS_DECLARED = "{reason}: {names} {verb}"


# --- what the ruling that opens the next round to a request says (``runoff-right``) ------------

#: a party primary's runner-up may demand a second primary ({eligible}; {due}: until when)
MAY_DEMAND = (
    "no substantial plurality: {eligible} may demand a second primary by {due:%Y-%m-%d %H:%M}"
)
#: the leaders are elected unless those next request a runoff ({be}, {request}: the verbs, by
#: how many leaders and how many may request)
MAY_REQUEST = (
    "no majority: {leaders} {be} elected unless {eligible} {request} a runoff by "
    "{due:%Y-%m-%d %H:%M}"
)


def request_open(
    primary: bool, leaders: Sequence[str], eligible: Sequence[str], due: datetime
) -> str:
    """The ruling that the next round may be asked for: by a party primary's runner-up
    (``primary``: :data:`MAY_DEMAND`) or by the runners-up of the election-and-runoff method
    (:data:`MAY_REQUEST`), ``eligible``, until ``due``."""
    if primary:
        return MAY_DEMAND.format(eligible=", ".join(eligible), due=due)
    return MAY_REQUEST.format(
        leaders=", ".join(leaders),
        be="is" if len(leaders) == 1 else "are",
        eligible=", ".join(eligible),
        request="requests" if len(eligible) == 1 else "request",
        due=due,
    )
