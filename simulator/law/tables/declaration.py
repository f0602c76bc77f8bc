"""Who is elected or nominated when a result is declared: rule tables (see
:mod:`simulator.law.rules`).

- ``votes``: whether votes reported for a name are counted (a candidate or a write-in in the
  first round, 163-291(2) and 163-294.2(c); only the runoff's candidates in a runoff,
  163-293(b)(1) and (b)(2), 163-111(b)); ``threshold-total``: whether they count in the total a
  majority (163-293(a)) or a substantial plurality (163-111(a)) divides (readings 1 and 2).
- ``result``: which provision decides a count, and how: the highest vote (163-292(1) and (2),
  163-294(c) after a nonpartisan primary, 163-291 for a partisan general election), the two
  highest per seat of a nonpartisan primary (163-294(b)), a majority (163-293(a)(1) and (a)(2)) or
  a substantial plurality (163-111(a)(1) and (a)(2), a dated value); and for a runoff or a second
  primary, the highest vote (163-293(f), 163-111(b)).
- ``round-dates``: until when a runoff may be requested (163-293(c), 163-291(6)) or a tied
  candidate may withdraw (163-293(d)(1) and (d)(2)); the day of the next round is the
  calendar's (:func:`simulator.law.calendar.rounds`, 163-279(a)(4) and (a)(2)).
- ``runoff-right``: with no majority (or no substantial plurality), who may ask for the next
  round: the runner-up (163-293(b)(1)), the next candidates as many as the seats left
  (163-293(b)(2)), or the runner-up in a party primary (163-111(b)).
- ``declared-left``: a candidate the count would declare elected or nominated has died, withdrawn
  or been disqualified: the office is vacant (163-294.4(c), 163-294.1(b), 163-294.1(c)), or in a
  primary the candidate is not nominated and the votes are disregarded (163-294.1(b)).
- ``oath``: a person takes the oath of office: is it the oath after which a departure is a
  vacancy in office (163-294.1(d)) rather than one before the oath (163-294.1(c))?
- ``nominee``: a party executive committee names a nominee: is there a nomination to make, and
  can the person named serve (163-114)? ``nominee-place``: does the nominee take the place of a
  name left on general election ballots not reprinted (08 NCAC 06B .0104)?
- ``empty-seats``: fewer candidates than places were declared: are the places left vacant
  (163-294.1(d), filled under 160A-63)?
- ``tie-withdrawal``: a candidate withdraws while a tie waits on the three days of 163-293(d)(1)
  or (d)(2): is it the tied candidate's withdrawal, and in time?
- ``repeat-notice``: a notice of death, withdrawal or disqualification for a candidate who has
  already left (outside a tie's three days): a withdrawal is refused (163-106(e),
  163-294.2(d)), a repeated death or disqualification is refused (163-294.1), and a death or
  disqualification after another departure is a gap (163-294.1(b) and (c), 163-112).

The handlers in :mod:`simulator.engine.counting` gather the facts, evaluate the table and apply its
typed
effect; what an effect means (the threshold a decision sets) sits here beside the rules.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import Any

import attrs

from simulator.law.cite import Cite, key
from simulator.law.readings import LeftRunoffBallot, RequestAfterLot, WithdrawnWinner
from simulator.law.rules import Gap, Reading, Rule, Table
from simulator.law.tables.count import LEFT, Standing
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


def _result_facts() -> Iterator[ResultFacts]:
    for count, group in itertools.product(Count, (False, True)):
        yield ResultFacts(count, group)
        if count in (Count.RUNOFF_METHOD, Count.PARTY_PRIMARY):
            yield ResultFacts(count, group, runoff=True)


def _first(count: Count, group: bool | None) -> Any:
    return lambda f: f.count is count and not f.runoff and (group is None or f.group is group)


def _second(count: Count) -> Any:
    return lambda f: f.count is count and f.runoff


D = Decision
RESULT: Table[ResultFacts, Decision] = Table(
    "result",
    "the votes are counted and the result is declared: which provision decides who takes the "
    "places, and how?",
    (
        Rule(
            "292-1-highest",
            "163-292(1)",
            "a single office under the nonpartisan plurality method: the highest vote is elected",
            _first(Count.PLURALITY, False),
            D.HIGHEST,
        ),
        Rule(
            "292-2-highest",
            "163-292(2)",
            "several seats under the nonpartisan plurality method: the highest, as many as there "
            "are seats, are elected",
            _first(Count.PLURALITY, True),
            D.HIGHEST,
        ),
        Rule(
            "294c-highest",
            "163-294(c)",
            "the election after a nonpartisan primary: the highest vote is elected",
            _first(Count.AFTER_PRIMARY, None),
            D.HIGHEST,
        ),
        Rule(
            "294b-two-per-seat",
            "163-294(b)",
            "a nonpartisan primary nominates the highest, twice as many as the seats",
            _first(Count.NONPARTISAN_PRIMARY, None),
            D.TWO_PER_SEAT,
        ),
        Rule(
            "293a1-majority",
            "163-293(a)(1)",
            "a single office under the election-and-runoff method: more than half the votes elects",
            _first(Count.RUNOFF_METHOD, False),
            D.MAJORITY,
        ),
        Rule(
            "293a2-majority",
            "163-293(a)(2)",
            "several seats under the election-and-runoff method: more than the total divided by "
            "the seats, halved, elects",
            _first(Count.RUNOFF_METHOD, True),
            D.MAJORITY,
        ),
        Rule(
            "111a1-substantial",
            "163-111(a)(1)",
            "a party primary for one place: more than the substantial-plurality share of the "
            "votes nominates",
            _first(Count.PARTY_PRIMARY, False),
            D.SUBSTANTIAL_PLURALITY,
        ),
        Rule(
            "111a2-substantial",
            "163-111(a)(2)",
            "a party primary for several places: more than the share of the total divided by the "
            "places nominates",
            _first(Count.PARTY_PRIMARY, True),
            D.SUBSTANTIAL_PLURALITY,
        ),
        Rule(
            "293f-runoff",
            "163-293(f)",
            "the runoff: the highest vote is elected",
            _second(Count.RUNOFF_METHOD),
            D.HIGHEST,
        ),
        Rule(
            "111b-second-primary",
            "163-111(b)",
            "the second primary: the highest vote is nominated",
            _second(Count.PARTY_PRIMARY),
            D.HIGHEST,
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
            D.HIGHEST,
        ),
    ),
    facts=_result_facts,
)


# --- who may ask for the next round ------------------------------------------------------------


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
            "293b1-runner-up",
            "163-293(b)(1)",
            "a single office: the highest is elected unless the runner-up requests a runoff",
            lambda f: not f.primary and not f.group,
            Right.RUNNER_UP,
        ),
        Rule(
            "293b2-next-candidates",
            "163-293(b)(2)",
            "several seats: the highest for the seats left are elected unless the next "
            "candidates, as many as those seats, request a runoff",
            lambda f: not f.primary and f.group,
            Right.NEXT_AS_MANY_AS_SEATS,
        ),
        Rule(
            "111b-runner-up",
            "163-111(b)",
            "a party primary: the runner-up may demand a second primary",
            lambda f: f.primary,
            Right.SECOND_PRIMARY,
        ),
    ),
    facts=_right_facts,
)


# --- a departed candidate the count would declare --------------------------------------------


class Preset(StrEnum):
    """The provision an earlier ruling named when it left the departed candidate's name on the
    ballot (``Cand.vacant_if_elected``), if any."""

    NONE = "none"
    DEAD_NO_REPRINT = "163-294.4(c)"
    NAME_STAYED = "163-294.1(b)"
    ELECTED_LEFT = "163-294.1(c)"

    @classmethod
    def of(cls, cite: Cite | None) -> Preset:
        return cls.NONE if cite is None else cls(key(cite))


class Seat(StrEnum):
    VACANT = "vacant"  # the office (or the seat) is declared vacant, filled under 160A-63
    NOT_NOMINATED = "not_nominated"  # a primary: the votes are disregarded, the next nominated
    ELECTED = "elected"  # the votes stand and elect the candidate (reading 15)


@attrs.frozen
class LeftFacts:
    nominating: bool  # a primary (or an election that nominates)
    what: Standing  # how the candidate left (never ACTIVE here)
    after_election_day: bool  # left on or after election day
    preset: Preset  # the provision an earlier ruling named when the name stayed on the ballot
    withdrawal_as_death: bool = True  # reading 7

    @property
    def electing(self) -> bool:
        return not self.nominating and self.preset is Preset.NONE

    @property
    def offish(self) -> bool:
        return self.what is not Standing.WITHDREW or self.withdrawal_as_death


def _left_facts() -> Iterator[LeftFacts]:
    for nom, what, after, preset, r7 in itertools.product(
        (False, True), LEFT, (False, True), Preset, (True, False)
    ):
        yield LeftFacts(nom, what, after, preset, r7)


def _preset(p: Preset) -> Any:
    return lambda f: not f.nominating and f.preset is p


DECLARED_LEFT: Table[LeftFacts, Seat] = Table(
    "declared-left",
    "a candidate the count would declare elected or nominated has died, withdrawn or been "
    "disqualified: is the office vacant, or is the next candidate nominated?",
    (
        Rule(
            "2941b-not-nominated",
            "163-294.1(b)",
            "a primary: a candidate who has left cannot be nominated; the votes are disregarded "
            "and the next highest takes the place",
            lambda f: f.nominating,
            Seat.NOT_NOMINATED,
        ),
        Rule(
            "2944c-dead-name-stayed",
            "163-294.4(c)",
            "the name of a candidate who died stayed on the ballot (no time to reprint): the "
            "office is vacant if the candidate polls enough to be elected",
            _preset(Preset.DEAD_NO_REPRINT),
            Seat.VACANT,
        ),
        Rule(
            "2941b-name-stayed",
            "163-294.1(b)",
            "the name of a deceased or disqualified candidate (withdrawn, reading 7) stayed on "
            "the ballot (no time to reprint): the office is vacant if the candidate receives "
            "enough votes to be elected",
            lambda f: _preset(Preset.NAME_STAYED)(f) and f.offish,
            Seat.VACANT,
        ),
        Rule(
            "2941c-elected-then-left",
            "163-294.1(c)",
            "a person elected who leaves between election day and the oath: the office is "
            "vacant (named when the candidate left)",
            _preset(Preset.ELECTED_LEFT),
            Seat.VACANT,
        ),
        Rule(
            "2941c-left-after-election-day",
            "163-294.1(c)",
            "a candidate who leaves on or after election day and is then declared elected: the "
            "office is vacant",
            lambda f: f.electing and f.after_election_day,
            Seat.VACANT,
        ),
        Rule(
            "2944c-dead-elected",
            "163-294.4(c)",
            "a candidate who died before the election polls enough to be elected: the office is "
            "vacant",
            lambda f: f.electing and not f.after_election_day and f.what is Standing.DIED,
            Seat.VACANT,
        ),
        Rule(
            "2941b-left-elected",
            "163-294.1(b)",
            "a disqualified candidate (withdrawn, reading 7) whose name stayed on the ballot "
            "receives enough votes to be elected: the office is vacant",
            lambda f: (
                f.electing and not f.after_election_day and f.what is not Standing.DIED and f.offish
            ),
            Seat.VACANT,
        ),
    ),
    gaps=(
        Gap(
            "withdrawn-elected",
            ("163-294.1(b)", "163-293(a)(2)"),
            "a candidate who withdrew before the election (name left on the ballot) polls enough "
            "to be elected, with reading 7 switched off: 163-294.1(b)'s vacancy speaks of "
            "deceased or disqualified candidates only",
            "the office is declared vacant, as for a disqualified candidate",
            lambda f: (
                not f.nominating
                and (
                    f.preset is Preset.NAME_STAYED
                    or (f.preset is Preset.NONE and not f.after_election_day)
                )
                and f.what is Standing.WITHDREW
                and not f.offish
            ),
            Seat.VACANT,
            readings=(
                Reading(
                    "withdrawn_winner",
                    WithdrawnWinner.ELECTED,
                    "the withdrawal does not void the votes: the candidate is declared elected; "
                    "a vacancy follows only under 163-294.1(c), if the candidate does not qualify",
                    Seat.ELECTED,
                ),
            ),
        ),
    ),
    facts=_left_facts,
)


# --- a candidate on a called runoff (second primary) ballot leaves ----------------------------


class RunoffLeft(StrEnum):
    """What becomes of a departed candidate's name on a called runoff or second-primary ballot."""

    VACANT_IF_DEAD_ELECTED = "163-294.4(c)"  # the name stays; a win leaves the office vacant
    VACANT_IF_ELECTED = "163-294.1(b)"  # the same, for a withdrawal or disqualification
    NOT_NOMINATED = "not_nominated"  # a second primary: the candidate cannot be nominated
    #: reading 21: no runoff; the other candidate on its ballot is declared elected (nominated)
    OTHER_DECLARED = "other_declared"

    @property
    def preset(self) -> Preset:
        """The provision a win by the candidate will be declared under (``declared-left``)."""
        if self in (RunoffLeft.NOT_NOMINATED, RunoffLeft.OTHER_DECLARED):
            return Preset.NONE
        return Preset(self.value)


@attrs.frozen
class RunoffLeftFacts:
    nominating: bool  # a second primary (otherwise a runoff)
    what: Standing  # never ACTIVE here
    group: bool = False  # the runoff decides several seats
    #: one seat, and more than one other candidate on the ballot (a runoff among three or more
    #: tied for first, reading 6): there is no one "other candidate" to declare
    crowded: bool = False


def _runoff_left_facts() -> Iterator[RunoffLeftFacts]:
    for nominating, what in itertools.product((False, True), LEFT):
        yield RunoffLeftFacts(nominating, what, group=False)
        yield RunoffLeftFacts(nominating, what, group=False, crowded=True)
        yield RunoffLeftFacts(nominating, what, group=True)


_OTHER_DECLARED = Reading(
    "left_runoff_ballot",
    LeftRunoffBallot.OTHER_DECLARED,
    "no runoff is held: the other candidate on its ballot is declared elected (nominated), as "
    "163-293(d)(1) declares the remaining candidate when one of two tied for first withdraws",
    RunoffLeft.OTHER_DECLARED,
)


def _runoff_left_gaps(
    near: tuple[str, ...], fallback: str, applies: Any, effect: RunoffLeft
) -> tuple[Gap[RunoffLeftFacts, RunoffLeft], Gap[RunoffLeftFacts, RunoffLeft]]:
    """The gap for a single office with two on its ballot (with reading 21) and for a group or a
    single office with three or more on its ballot (without: the candidates who remain may be
    more than the seats)."""
    return (
        Gap(
            "left-runoff-ballot",
            near,
            _RUNOFF_OPEN,
            fallback,
            lambda f: applies(f) and not f.group and not f.crowded,
            effect,
            readings=(_OTHER_DECLARED,),
        ),
        Gap(
            "left-runoff-ballot",
            near,
            _RUNOFF_OPEN,
            fallback,
            lambda f: applies(f) and (f.group or f.crowded),
            effect,
        ),
    )


_RUNOFF_OPEN = (
    "a candidate on a called runoff (second primary) ballot dies, withdraws or is disqualified: "
    "the statutes speak of candidates who leave before the first election or primary"
)
RUNOFF_LEFT: Table[RunoffLeftFacts, RunoffLeft] = Table(
    "left-runoff",
    "a candidate on the ballot of a called runoff or second primary has died, withdrawn or been "
    "disqualified: what becomes of the name and of a win?",
    (),
    gaps=(
        *_runoff_left_gaps(
            ("163-293(e)", "163-294.4(c)"),
            "the runoff is held under the first election's rules (163-293(e)): the name stays on "
            "the printed runoff ballot and if the dead candidate polls highest the office is "
            "vacant (163-294.4(c))",
            lambda f: not f.nominating and f.what is Standing.DIED,
            RunoffLeft.VACANT_IF_DEAD_ELECTED,
        ),
        *_runoff_left_gaps(
            ("163-293(e)", "163-294.1(b)"),
            "the runoff is held under the first election's rules (163-293(e)): the name stays on "
            "the printed runoff ballot and if the candidate polls highest the office is vacant "
            "(163-294.1(b))",
            lambda f: not f.nominating and f.what is not Standing.DIED,
            RunoffLeft.VACANT_IF_ELECTED,
        ),
        *_runoff_left_gaps(
            ("163-111(b)", "163-294.1(b)"),
            "the name stays on the printed second-primary ballot; the candidate cannot be "
            "nominated, and the other candidate's nomination stands on the vote",
            lambda f: f.nominating,
            RunoffLeft.NOT_NOMINATED,
        ),
    ),
    facts=_runoff_left_facts,
)


# --- until when: the request, the tie-withdrawal window and the next round's day ----------------


class Step(StrEnum):
    """A date the count sets once a result is declared."""

    REQUEST = "request"  # the last moment to request a runoff or demand a second primary
    TIE_WITHDRAWAL = "tie_withdrawal"  # the last moment for a tied candidate to withdraw


class When(StrEnum):
    """How the date is found (each a function of :mod:`simulator.law.calendar`, moved by 103-5)."""

    NOON_THURSDAY_AFTER = "noon_thursday_after"  # noon, first Thursday after the declaration
    THIRD_DAY_AFTER = "third_day_after"  # the end of the third day after the declaration
    #: noon, first Thursday after the drawing of lots that settled who may ask (reading 22)
    NOON_THURSDAY_AFTER_DRAWING = "noon_thursday_after_drawing"


@attrs.frozen
class TimingFacts:
    step: Step
    primary: bool  # a party primary (otherwise the election-and-runoff method)
    tie_for_first: bool = False  # TIE_WITHDRAWAL: a tie for first (163-293(d)(1)), not second
    #: REQUEST: a drawing of lots settled who may ask only after the deadline counted from the
    #: declaration at the canvass had passed
    drawn_late: bool = False
    #: REQUEST: a candidate's departure settled who may ask (a tie for the place ended) only
    #: after that deadline had passed
    left_late: bool = False


def _timing_facts() -> Iterator[TimingFacts]:
    for primary, late in itertools.product((False, True), (False, True)):
        yield TimingFacts(Step.REQUEST, primary, drawn_late=late)
    for primary in (False, True):
        yield TimingFacts(Step.REQUEST, primary, left_late=True)
    for first in (False, True):
        yield TimingFacts(Step.TIE_WITHDRAWAL, False, first)


def _at(step: Step, primary: bool) -> Any:
    return lambda f: f.step is step and f.primary is primary and not (f.drawn_late or f.left_late)


#: How the late settling of who may ask reads, by its cause (a drawing of lots, a departure)
#: and by the method (a party primary's demand, a runoff request)
_LATE_NOTES = {
    (True, True): "a drawing of lots settled who may demand a second primary only after noon on "
    "the Thursday after the canvass, the deadline 163-291(6) sets: the text does not say "
    "whether a right the drawing gives after its deadline lapses",
    (True, False): "a drawing of lots settled who may request a runoff only after noon on the "
    "Thursday after the canvass: 163-293(c) counts the deadline from the official declaration "
    "of the result, and does not say whether a result a drawing completes is declared at the "
    "drawing or at the canvass",
    (False, True): "who may demand a second primary was settled only after noon on the Thursday "
    "after the canvass, the deadline 163-291(6) sets, by a tied candidate leaving the race "
    "while a drawing of lots was awaited: the text does not say whether a right that comes "
    "after its deadline lapses",
    (False, False): "who may request a runoff was settled only after noon on the Thursday after "
    "the canvass, by a tied candidate leaving the race while a drawing of lots was awaited: "
    "163-293(c) counts the deadline from the declaration of the result, and says nothing of a "
    "right that comes after it",
}


def _settled_late(primary: bool, *, drawn: bool) -> Gap[TimingFacts, When]:
    """Who may ask is settled after the deadline: by a drawing (``drawn``; reading 22 keeps the
    deadline instead) or by a tied candidate's departure; the deadline counts from that day."""
    cause = "lot" if drawn else "departure"
    return Gap(
        f"{'demand' if primary else 'request'}-after-late-{cause}",
        ("163-291(6)", "163-111(b)") if primary else ("163-293(c)", "163-292(3)"),
        _LATE_NOTES[(drawn, primary)],
        f"the deadline counts from the day of the {'drawing' if drawn else 'departure'}: noon "
        "on the first Thursday after it",
        lambda f: (
            f.step is Step.REQUEST
            and f.primary is primary
            and (f.drawn_late if drawn else f.left_late)
        ),
        When.NOON_THURSDAY_AFTER_DRAWING,
        readings=(
            Reading(
                "request_after_lot",
                RequestAfterLot.FROM_CANVASS,
                "the deadline stays as counted from the canvass: it has passed, so nobody may "
                "ask, and the leaders are declared",
                When.NOON_THURSDAY_AFTER,
            ),
        )
        if drawn
        else (),
    )


TIMING: Table[TimingFacts, When] = Table(
    "round-dates",
    "a result is declared without a winner for every place: until when may a runoff be "
    "requested or a tied candidate withdraw?",
    (
        Rule(
            "2933c-request-by",
            "163-293(c)",
            "a runoff is requested by noon on the Thursday after the result is declared",
            _at(Step.REQUEST, False),
            When.NOON_THURSDAY_AFTER,
        ),
        Rule(
            "2916-demand-by",
            "163-291(6)",
            "a second primary is demanded by noon on the Thursday after the canvass",
            _at(Step.REQUEST, True),
            When.NOON_THURSDAY_AFTER,
        ),
        Rule(
            "2931d1-withdraw-by",
            "163-293(d)(1)",
            "a candidate tied for first after the recount may withdraw within three days of the "
            "declaration",
            lambda f: f.step is Step.TIE_WITHDRAWAL and f.tie_for_first,
            When.THIRD_DAY_AFTER,
        ),
        Rule(
            "2932d2-withdraw-by",
            "163-293(d)(2)",
            "a candidate tied for second may withdraw within three days of the declaration",
            lambda f: f.step is Step.TIE_WITHDRAWAL and not f.tie_for_first,
            When.THIRD_DAY_AFTER,
        ),
    ),
    gaps=tuple(_settled_late(p, drawn=lot) for lot in (True, False) for p in (False, True)),
    facts=_timing_facts,
)


# --- the votes a round counts, and the total a threshold divides -------------------------------


class Vote(StrEnum):
    """What becomes of votes reported for a name (a refusal's value says why)."""

    COUNTED = "counted"
    NO_ELECTION = "no_election"  # the contest is not at a vote
    OFF_RUNOFF_BALLOT = "off_runoff_ballot"  # not a runoff candidate, or a write-in
    NOT_A_CANDIDATE = "not_a_candidate"  # no accepted notice of candidacy, not a write-in


@attrs.frozen
class VoteFacts:
    voting: bool  # the contest is at a vote (the first round's ballot or a called runoff)
    runoff: bool  # the votes are for the runoff or second primary
    on_runoff_ballot: bool  # RUNOFF: the name is on its ballot
    write_in: bool  # a write-in (named or not)
    filed: bool  # the name has a notice of candidacy in this contest
    primary: bool = False  # a party primary (its next round is a second primary)
    group: bool = False
    partisan: bool = False  # a party contest (its filing is 163-291(2)'s)


def _vote_facts() -> Iterator[VoteFacts]:
    flags = (False, True)
    for partisan in flags:
        yield VoteFacts(False, False, False, False, False, partisan=partisan)
        for write_in, filed in itertools.product(flags, flags):
            if not (write_in and filed):
                yield VoteFacts(True, False, False, write_in, filed, partisan=partisan)
    for primary, group, on, write_in, filed in itertools.product(*([flags] * 5)):
        if (on and (write_in or not filed)) or (write_in and filed):
            continue
        yield VoteFacts(True, True, on, write_in, filed, primary, group, primary)


def _first_round(partisan: bool, test: Any) -> Any:
    return lambda f: f.voting and not f.runoff and f.partisan is partisan and test(f)


def _next_round(primary: bool, group: bool) -> Any:
    return lambda f: (
        f.voting
        and f.runoff
        and not f.on_runoff_ballot
        and f.primary is primary
        and f.group is group
    )


VOTES: Table[VoteFacts, Vote] = Table(
    "votes",
    "votes are reported for a name: are they counted?",
    (
        Rule(
            "279a-no-election",
            "163-279(a)",
            "votes reported while the contest is not at a vote have no election to count in",
            lambda f: not f.voting,
            Vote.NO_ELECTION,
        ),
        Rule(
            "2912-not-filed",
            "163-291(2)",
            "votes for a person whose notice of candidacy was not accepted (and not a write-in)",
            _first_round(True, lambda f: not f.filed and not f.write_in),
            Vote.NOT_A_CANDIDATE,
        ),
        Rule(
            "29422c-not-filed",
            "163-294.2(c)",
            "votes for a person whose notice of candidacy was not accepted (and not a write-in)",
            _first_round(False, lambda f: not f.filed and not f.write_in),
            Vote.NOT_A_CANDIDATE,
        ),
        Rule(
            "2912-counted",
            "163-291(2)",
            "votes for a candidate or a write-in are counted",
            _first_round(True, lambda f: f.filed or f.write_in),
            Vote.COUNTED,
        ),
        Rule(
            "29422c-counted",
            "163-294.2(c)",
            "votes for a candidate or a write-in are counted",
            _first_round(False, lambda f: f.filed or f.write_in),
            Vote.COUNTED,
        ),
        Rule(
            "293b1-runoff-ballot",
            "163-293(b)(1)",
            "only the two runoff candidates are on the runoff ballot, with no space for write-ins",
            _next_round(False, False),
            Vote.OFF_RUNOFF_BALLOT,
        ),
        Rule(
            "293b2-runoff-ballot",
            "163-293(b)(2)",
            "only the group's runoff candidates are on its ballot, with no space for write-ins",
            _next_round(False, True),
            Vote.OFF_RUNOFF_BALLOT,
        ),
        Rule(
            "111b-second-primary-ballot",
            "163-111(b)",
            "only the candidates of the second primary are on its ballot (two for one place; "
            "for a group, reading 5, the best remaining and those who demanded)",
            lambda f: f.voting and f.runoff and not f.on_runoff_ballot and f.primary,
            Vote.OFF_RUNOFF_BALLOT,
        ),
        Rule(
            "293f-counted",
            "163-293(f)",
            "votes for a candidate on the runoff ballot are counted",
            lambda f: f.voting and f.runoff and f.on_runoff_ballot and not f.primary,
            Vote.COUNTED,
        ),
        Rule(
            "111b-counted",
            "163-111(b)",
            "votes for a candidate on the second primary's ballot are counted",
            lambda f: f.voting and f.runoff and f.on_runoff_ballot and f.primary,
            Vote.COUNTED,
        ),
    ),
    facts=_vote_facts,
)


class Total(StrEnum):
    IN = "in"  # the votes count in the total the threshold divides
    OUT = "out"


@attrs.frozen
class TotalFacts:
    primary: bool  # a party primary (163-111(a)); otherwise 163-293(a)
    write_in: bool
    filed: bool  # a candidate of the contest (with votes counted for any purpose)
    died: bool  # a candidate who died, the name left on the ballot
    write_ins_in_total: bool = True  # reading 1
    dead_votes_in_total: bool = True  # reading 2


def _total_facts() -> Iterator[TotalFacts]:
    flags = (False, True)
    for primary, write_in, filed, died, r1, r2 in itertools.product(*([flags] * 6)):
        if (write_in and (filed or died)) or (died and not filed):
            continue
        yield TotalFacts(primary, write_in, filed, died, r1, r2)


def _total_rules() -> tuple[Rule[TotalFacts, Total], ...]:
    out: list[Rule[TotalFacts, Total]] = []
    for primary, cite, tag in ((False, "163-293(a)", "293a"), (True, "163-111(a)", "111a")):

        def of(test: Any, p: bool = primary) -> Any:
            return lambda f: f.primary is p and test(f)

        out += [
            Rule(
                f"{tag}-candidate",
                cite,
                "the total vote cast for all candidates includes each candidate's votes (a dead "
                "candidate's whose name stayed on the ballot too, reading 2)",
                of(lambda f: f.filed and (not f.died or f.dead_votes_in_total)),
                Total.IN,
            ),
            Rule(
                f"{tag}-dead-left-out",
                cite,
                "reading 2 switched: a dead candidate's votes are left out of the total",
                of(lambda f: f.filed and f.died and not f.dead_votes_in_total),
                Total.OUT,
            ),
            Rule(
                f"{tag}-write-ins",
                cite,
                "write-in votes count in the total (reading 1)",
                of(lambda f: f.write_in and f.write_ins_in_total),
                Total.IN,
            ),
            Rule(
                f"{tag}-write-ins-left-out",
                cite,
                "reading 1 switched: write-in votes are left out of the total",
                of(lambda f: f.write_in and not f.write_ins_in_total),
                Total.OUT,
            ),
            Rule(
                f"{tag}-not-a-candidate",
                cite,
                "votes for a name that is neither a candidate nor a write-in are not cast for a "
                "candidate",
                of(lambda f: not f.filed and not f.write_in),
                Total.OUT,
            ),
        ]
    return tuple(out)


TOTAL: Table[TotalFacts, Total] = Table(
    "threshold-total",
    "a majority or a substantial plurality divides the total vote: do these votes count in it?",
    _total_rules(),
    facts=_total_facts,
)


# --- the oath of office: G.S. 163-294.1(c), (d) -------------------------------------------------


class Oath(StrEnum):
    """What an oath does (a refusal's value is the reason users see)."""

    TAKES_OFFICE = "takes_office"  # the first oath of a person elected: recorded
    ALREADY_SWORN = "already took the oath of office"  # a second oath changes nothing
    NOT_ELECTED = "not declared elected"  # only a person elected qualifies by the oath


@attrs.frozen
class OathFacts:
    elected: bool  # the person is among those the count declared elected
    sworn: bool  # the person has already taken the oath


def _oath_facts() -> Iterator[OathFacts]:
    for elected, sworn in itertools.product((False, True), (False, True)):
        yield OathFacts(elected, sworn)


OATH: Table[OathFacts, Oath] = Table(
    "oath",
    "a person takes the oath of office: from when is a departure a vacancy in office?",
    (
        Rule(
            "2941d-oath-taken",
            "163-294.1(d)",
            "a person elected takes the oath: a departure after it is a vacancy in office "
            "(163-294.1(d)), no longer a vacancy before the oath (163-294.1(c))",
            lambda f: f.elected and not f.sworn,
            Oath.TAKES_OFFICE,
        ),
        Rule(
            "2941c-oath-again",
            "163-294.1(c)",
            "a person elected qualifies by taking the oath once: a second oath is refused and "
            "changes nothing",
            lambda f: f.elected and f.sworn,
            Oath.ALREADY_SWORN,
        ),
        Rule(
            "2941c-oath-not-elected",
            "163-294.1(c)",
            "the oath that ends 163-294.1(c)'s time is a person elected's: an oath by anyone "
            "else is refused and changes nothing",
            lambda f: not f.elected,
            Oath.NOT_ELECTED,
        ),
    ),
    facts=_oath_facts,
)


# --- a nominee named by a party: G.S. 163-114, 08 NCAC 06B .0104 -------------------------------


class Nomination(StrEnum):
    """What becomes of a nominee a party names (a refusal's value is the reason users see)."""

    NOMINATED = "nominated"
    NO_VACANCY = "no vacancy to fill"
    CANNOT_SERVE = "cannot serve"  # the reason names how: "candidate died", "... disqualified"
    ALREADY_NOMINEE = "already a nominee"  # the person holds a nomination for the office already


@attrs.frozen
class NomineeFacts:
    to_fill: bool  # a nomination is left for the party to make
    departed: bool  # the person named died or was disqualified earlier in this contest
    #: the person named is already nominated for this office, or stands on the election's
    #: ballot already
    holds: bool = False


def _nominee_facts() -> Iterator[NomineeFacts]:
    for to_fill, departed, holds in itertools.product((False, True), repeat=3):
        if not (departed and holds):
            yield NomineeFacts(to_fill, departed, holds)


NOMINEE: Table[NomineeFacts, Nomination] = Table(
    "nominee",
    "a party executive committee names a nominee: is the person nominated?",
    (
        Rule(
            "114-no-vacancy",
            "163-114",
            "the committee fills a vacancy in a nomination: with none left, naming changes nothing",
            lambda f: not f.to_fill,
            Nomination.NO_VACANCY,
        ),
        Rule(
            "114-cannot-serve",
            "163-114",
            "the vacancy is filled with a person who can serve: one who died or was disqualified "
            "cannot be the nominee, and the vacancy stays open",
            lambda f: f.to_fill and f.departed,
            Nomination.CANNOT_SERVE,
        ),
        Rule(
            "114-already-nominee",
            "163-114",
            "the vacancy is filled with another person: one who already holds a nomination for "
            "the office (or stands on its ballot) cannot fill a second place, and the vacancy "
            "stays open",
            lambda f: f.to_fill and not f.departed and f.holds,
            Nomination.ALREADY_NOMINEE,
        ),
        Rule(
            "114-nominee-named",
            "163-114",
            "the committee names a nominee for the vacancy in the nomination",
            lambda f: f.to_fill and not f.departed and not f.holds,
            Nomination.NOMINATED,
        ),
    ),
    facts=_nominee_facts,
)


class Twice(StrEnum):
    """A place the count gives to a person the party's executive committee already named."""

    COMMITTEE_FILLS = "committee_fills"  # the count's place goes to the committee to fill


@attrs.frozen
class TwiceFacts:
    #: the person the count nominates was named by the committee for another place first
    by_committee: bool = True


TWICE: Table[TwiceFacts, Twice] = Table(
    "nominated-twice",
    "the count nominates a person the party's executive committee already named for another "
    "place: who takes the count's place?",
    (),
    gaps=(
        Gap(
            "nominated-twice",
            ("163-114", "163-111(b)"),
            "the executive committee filled a vacancy in the nomination with a candidate whose "
            "own place in the primary was still undecided, and the count then gives them that "
            "place too: one person cannot hold two of the party's nominations for the office, "
            "and neither section says which place they keep",
            "they keep the committee's nomination, and the place the count gives them is a "
            "vacancy in the nomination for the committee to fill",
            lambda f: f.by_committee,
            Twice.COMMITTEE_FILLS,
        ),
    ),
    facts=lambda: (TwiceFacts(True),),
)


class Place(StrEnum):
    IN_PLACE = "in_place"  # votes for the name left on the ballots are the nominee's
    OWN_NAME = "own_name"  # the nominee stands under their own name


@attrs.frozen
class PlaceFacts:
    general_election: bool  # the contest's stage is the general election
    name_left: bool  # a departed candidate's name waits on ballots not reprinted, not yet replaced


def _place_facts() -> Iterator[PlaceFacts]:
    for general, left in itertools.product((False, True), (False, True)):
        yield PlaceFacts(general, left)


NOMINEE_PLACE: Table[PlaceFacts, Place] = Table(
    "nominee-place",
    "a nominee is named: does the nominee take the place of a name left on the ballots?",
    (
        Rule(
            "ncac-0104-in-place",
            "08 NCAC 06B .0104",
            "general election ballots not reprinted keep a departed candidate's name: the votes "
            "cast for it count for the nominee named in that candidate's place",
            lambda f: f.general_election and f.name_left,
            Place.IN_PLACE,
        ),
        Rule(
            "114-own-name",
            "163-114",
            "no ballot left unreprinted carries a departed candidate's name in this stage: the "
            "nominee stands under their own name",
            lambda f: not (f.general_election and f.name_left),
            Place.OWN_NAME,
        ),
    ),
    facts=_place_facts,
)


# --- places no candidate fills: G.S. 163-294.1(d) ----------------------------------------------

#: the statute a vacancy in office is filled under (named beside 163-294.1(d) in its rulings)
FILLED_UNDER = "160A-63"


class Seats(StrEnum):
    VACANT = "vacant"  # the places left are vacant in office
    UNFILLED = "unfilled"  # a primary: fewer nominees, no office is vacant


@attrs.frozen
class SeatsFacts:
    nominating: bool  # a primary (it nominates; it fills no office)


def _seats_facts() -> Iterator[SeatsFacts]:
    """Asked only when fewer candidates than places were declared."""
    yield SeatsFacts(False)
    yield SeatsFacts(True)


EMPTY_SEATS: Table[SeatsFacts, Seats] = Table(
    "empty-seats",
    "fewer candidates than places were declared: are the places left vacant?",
    (
        Rule(
            "2941d-empty-seats-vacant",
            "163-294.1(d)",
            "places of an election no candidate can fill are vacancies in office, filled as "
            "160A-63 provides",
            lambda f: not f.nominating,
            Seats.VACANT,
        ),
        Rule(
            "2941d-primary-fills-no-office",
            "163-294.1(d)",
            "a primary fills no office: fewer nominees than places leaves no vacancy in office "
            "(163-294.1(d) speaks of the office)",
            lambda f: f.nominating,
            Seats.UNFILLED,
        ),
    ),
    facts=_seats_facts,
)


# --- a withdrawal during a tie's three days: G.S. 163-293(d)(1), (d)(2) ------------------------


class TieWithdrawal(StrEnum):
    """What a withdrawal does while a tie waits (a refusal's value is the reason users see)."""

    IN_TIME = "in_time"  # a tied candidate withdraws within the three days
    LATE = "late"  # a tied candidate's withdrawal after the three days
    NOT_TIED = "not_tied"  # another candidate's withdrawal: an ordinary one after the election
    LEFT = "no longer a candidate"  # one who already died, withdrew or was disqualified


@attrs.frozen
class TieWithdrawalFacts:
    tie_for_first: bool  # a tie for first (163-293(d)(1)), not for second ((d)(2))
    tied: bool  # the candidate is among those still tied
    late: bool  # the three days have ended
    left: bool = False  # the candidate already died, withdrew or was disqualified


def _tie_withdrawal_facts() -> Iterator[TieWithdrawalFacts]:
    for combo in itertools.product((False, True), repeat=4):
        yield TieWithdrawalFacts(*combo)


def _tie_withdrawal_rules() -> tuple[Rule[TieWithdrawalFacts, TieWithdrawal], ...]:
    out: list[Rule[TieWithdrawalFacts, TieWithdrawal]] = []
    for first, cite, tag in ((True, "163-293(d)(1)", "293d1"), (False, "163-293(d)(2)", "293d2")):

        def on(first: bool, test: Any) -> Any:
            return lambda f: f.tie_for_first is first and test(f)

        out += [
            Rule(
                f"{tag}-withdrawal-left",
                cite,
                "the written notice of withdrawal is a candidate's act: one who has already "
                "died, withdrawn or been disqualified is no longer a candidate and files none",
                on(first, lambda f: f.left),
                TieWithdrawal.LEFT,
            ),
            Rule(
                f"{tag}-withdrawal-in-time",
                cite,
                "a tied candidate may withdraw within three days after the recount (or the "
                "declaration): the withdrawal takes effect",
                on(first, lambda f: not f.left and f.tied and not f.late),
                TieWithdrawal.IN_TIME,
            ),
            Rule(
                f"{tag}-withdrawal-late",
                cite,
                "the three days for a tied candidate to withdraw have ended: the withdrawal "
                "does not change the tie",
                on(first, lambda f: not f.left and f.tied and f.late),
                TieWithdrawal.LATE,
            ),
            Rule(
                f"{tag}-withdrawal-not-tied",
                cite,
                "the three days are the tied candidates': another candidate's withdrawal is an "
                "ordinary one after the election",
                on(first, lambda f: not f.left and not f.tied),
                TieWithdrawal.NOT_TIED,
            ),
        ]
    return tuple(out)


TIE_WITHDRAWAL: Table[TieWithdrawalFacts, TieWithdrawal] = Table(
    "tie-withdrawal",
    "a candidate withdraws while a tie waits on its three days: what does the withdrawal do?",
    _tie_withdrawal_rules(),
    facts=_tie_withdrawal_facts,
)


# --- a second notice for a candidate who has already left: G.S. 163-106(e), 163-294.2(d) -------


class RepeatNotice(StrEnum):
    """What a notice of death, withdrawal or disqualification does for one already gone."""

    REJECTED = "no longer a candidate"  # the notice is refused (the reason users see)
    EARLIER_STANDS = "earlier_stands"  # a gap: the earlier departure's effects stand


@attrs.frozen
class RepeatNoticeFacts:
    notice: Standing  # what the new notice says (died, withdrew or disqualified)
    before: Standing  # how the candidate had already left
    partisan: bool  # a party contest (163-106(e)), not a nonpartisan one (163-294.2(d))


def _repeat_notice_facts() -> Iterator[RepeatNoticeFacts]:
    for notice, before, partisan in itertools.product(LEFT, LEFT, (False, True)):
        yield RepeatNoticeFacts(notice, before, partisan)


REPEAT_NOTICE: Table[RepeatNoticeFacts, RepeatNotice] = Table(
    "repeat-notice",
    "a candidate who has already died, withdrawn or been disqualified is the subject of a new "
    "notice (outside a tie's three days): what does it do?",
    (
        Rule(
            "106e-withdrawal-after-leaving",
            "163-106(e)",
            "a party candidate's withdrawal is the candidate's own written act: one who has "
            "already died, withdrawn or been disqualified is no longer a candidate and files none",
            lambda f: f.notice is Standing.WITHDREW and f.partisan,
            RepeatNotice.REJECTED,
        ),
        Rule(
            "2942d-withdrawal-after-leaving",
            "163-294.2(d)",
            "a nonpartisan candidate's withdrawal is the candidate's own written act: one who has "
            "already died, withdrawn or been disqualified is no longer a candidate and files none",
            lambda f: f.notice is Standing.WITHDREW and not f.partisan,
            RepeatNotice.REJECTED,
        ),
        Rule(
            "2941-same-departure-again",
            "163-294.1",
            "a death or disqualification is ruled on once, when it is first noticed: a second "
            "notice of the same departure changes nothing",
            lambda f: f.notice is not Standing.WITHDREW and f.notice is f.before,
            RepeatNotice.REJECTED,
        ),
    ),
    gaps=(
        Gap(
            "second-departure",
            ("163-294.1(b)", "163-294.1(c)", "163-112"),
            "they speak of a candidate who dies or becomes disqualified, not of one who had "
            "already withdrawn, died or been disqualified: whether the later departure changes "
            "what the earlier one did to the name, the votes or the office is not said",
            "the earlier departure's effects stand (the name, the votes and any vacancy as "
            "ruled then); the later one changes nothing of them, but a person who has died or "
            "been disqualified cannot file again",
            lambda f: f.notice is not Standing.WITHDREW and f.notice is not f.before,
            RepeatNotice.EARLIER_STANDS,
        ),
    ),
    facts=_repeat_notice_facts,
)


#: The tables of the result, for ``electsim gaps`` and ``electsim cite``.
# --- the day of the second round --------------------------------------------------------------


class Day(StrEnum):
    """On what day a runoff or second primary that is called is held."""

    FIXED = "fixed"  # the day G.S. 163-279(a) fixes
    NONE_FIXED = "none_fixed"  # the day the law fixes had begun: none that the law sets


@attrs.frozen
class DayFacts:
    primary: bool  # a party's second primary (163-279(a)(2)); else a runoff (163-293(e))
    begun: bool  # the day the law fixes for it had begun when it was called


def _day_passed(primary: bool) -> Gap[DayFacts, Day]:
    what = "second primary" if primary else "runoff"
    return Gap(
        f"{what.replace(' ', '-')}-called-after-its-day",
        ("163-279(a)(2)", "163-291(1)") if primary else ("163-293(e)", "163-279(a)(4)"),
        f"the {what} was called only once the day the law fixes for it had begun or passed, the "
        "result having been declared (or the request made) that late; the sections fix that one "
        "day and set no other",
        f"the {what} is called with the names it has, on no day the law fixes (the board must "
        f"set one); votes reported after the call are counted as the {what}'s",
        lambda f: f.primary is primary and f.begun,
        Day.NONE_FIXED,
    )


ROUND_DAY: Table[DayFacts, Day] = Table(
    "round-day",
    "a runoff or second primary is called: on what day is it held?",
    (
        Rule(
            "2933e-runoff-day",
            "163-293(e)",
            "a runoff is held on the day 163-279(a)(4) fixes: the Tuesday after the first Monday "
            "in November",
            lambda f: not f.primary and not f.begun,
            Day.FIXED,
        ),
        Rule(
            "2792-second-primary-day",
            "163-279(a)(2)",
            "a party's second primary is held on the day 163-279(a)(2) fixes, applied by "
            "163-291(1): the fourth Tuesday before the November election",
            lambda f: f.primary and not f.begun,
            Day.FIXED,
        ),
    ),
    gaps=(_day_passed(False), _day_passed(True)),
    facts=lambda: (DayFacts(p, b) for p in (False, True) for b in (False, True)),
)


TABLES: tuple[Table[Any, Any], ...] = (
    VOTES,
    TOTAL,
    RESULT,
    RUNOFF_RIGHT,
    TIMING,
    ROUND_DAY,
    DECLARED_LEFT,
    RUNOFF_LEFT,
    OATH,
    NOMINEE,
    NOMINEE_PLACE,
    TWICE,
    EMPTY_SEATS,
    TIE_WITHDRAWAL,
    REPEAT_NOTICE,
)
