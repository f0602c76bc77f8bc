"""A departed candidate the count would declare, or one on a called runoff's ballot: rule
tables (see :mod:`simulator.law.rules`).

- ``declared-left``: a candidate the count would declare elected or nominated has died, withdrawn
  or been disqualified: the office is vacant (163-294.4(c), 163-294.1(b), 163-294.1(c)), or in a
  primary the candidate is not nominated and the votes are disregarded (163-294.1(b)).
- ``left-runoff``: a candidate on the ballot of a called runoff or second primary leaves.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from enum import StrEnum
from typing import Any

import attrs

from simulator.law.cite import Cite, key
from simulator.law.readings import LeftRunoffBallot, WithdrawnWinner
from simulator.law.rules import NO_PROVISION, Gap, Reading, Rule, Table
from simulator.law.tables.count import LEFT
from simulator.law.tables.vacancies import TO_BE_FILLED
from simulator.law.vocab import CandStatus


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
    ELECTED = "elected"  # the votes stand and elect the candidate (`withdrawn_winner`)


@attrs.frozen
class LeftFacts:
    nominating: bool  # a primary (or an election that nominates)
    what: CandStatus  # how the candidate left (never ACTIVE here)
    after_election_day: bool  # left on or after election day
    preset: Preset  # the provision an earlier ruling named when the name stayed on the ballot
    withdrawal_as_death: bool = True  # (the switch of that name)

    @property
    def electing(self) -> bool:
        return not self.nominating and self.preset is Preset.NONE

    @property
    def offish(self) -> bool:
        return self.what is not CandStatus.WITHDREW or self.withdrawal_as_death


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
            id="departed-not-nominated",
            cite="163-294.1(b)",
            summary="a primary: a candidate who has left cannot be nominated; the votes are "
            "disregarded and the next highest takes the place",
            applies=lambda f: f.nominating,
            effect=Seat.NOT_NOMINATED,
        ),
        Rule(
            id="dead-name-stayed",
            cite="163-294.4(c)",
            summary="the name of a candidate who died stayed on the ballot (no time to reprint): "
            "the office is vacant if the candidate polls enough to be elected",
            applies=_preset(Preset.DEAD_NO_REPRINT),
            effect=Seat.VACANT,
        ),
        Rule(
            id="departed-name-stayed",
            cite="163-294.1(b)",
            summary="the name of a deceased or disqualified candidate (or one withdrawn, a "
            "withdrawal counted as a death) stayed on the ballot (no time to reprint): the "
            "office is vacant if the candidate receives enough votes to be elected",
            applies=lambda f: _preset(Preset.NAME_STAYED)(f) and f.offish,
            effect=Seat.VACANT,
        ),
        Rule(
            id="elected-then-left",
            cite="163-294.1(c)",
            summary="a person elected who leaves between election day and the oath: the office is "
            "vacant (named when the candidate left)",
            applies=_preset(Preset.ELECTED_LEFT),
            effect=Seat.VACANT,
        ),
        Rule(
            id="left-after-election-day",
            cite="163-294.1(c)",
            summary="a candidate who leaves on or after election day and is then declared "
            "elected: the office is vacant",
            applies=lambda f: f.electing and f.after_election_day,
            effect=Seat.VACANT,
        ),
        Rule(
            id="dead-elected",
            cite="163-294.4(c)",
            summary="a candidate who died before the election polls enough to be elected: the "
            "office is vacant",
            applies=lambda f: f.electing and not f.after_election_day and f.what is CandStatus.DIED,
            effect=Seat.VACANT,
        ),
        Rule(
            id="departed-elected",
            cite="163-294.1(b)",
            summary="a disqualified candidate (or one withdrawn, a withdrawal counted as a "
            "death) whose name stayed on the ballot receives enough votes to be elected: the "
            "office is vacant",
            applies=lambda f: (
                f.electing
                and not f.after_election_day
                and f.what is not CandStatus.DIED
                and f.offish
            ),
            effect=Seat.VACANT,
        ),
    ),
    gaps=(
        Gap(
            "withdrawn-elected",
            ("163-294.1(b)", "163-293(a)(2)"),
            "a candidate who withdrew before the election (name left on the ballot) polls enough "
            "to be elected, a withdrawal not counted as a death (interpretation "
            "withdrawal_as_death: false): 163-294.1(b)'s "
            "vacancy speaks of deceased or disqualified candidates only",
            "the office is declared vacant, as for a disqualified candidate",
            lambda f: (
                not f.nominating
                and (
                    f.preset is Preset.NAME_STAYED
                    or (f.preset is Preset.NONE and not f.after_election_day)
                )
                and f.what is CandStatus.WITHDREW
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
    asked="{name} ({status}) polled enough votes to take a place",
)


class RunoffLeft(StrEnum):
    """What becomes of a departed candidate's name on a called runoff or second-primary ballot."""

    VACANT_IF_DEAD_ELECTED = "163-294.4(c)"  # the name stays; a win leaves the office vacant
    VACANT_IF_ELECTED = "163-294.1(b)"  # the same, for a withdrawal or disqualification
    NOT_NOMINATED = "not_nominated"  # a second primary: the candidate cannot be nominated
    #: `left_runoff_ballot`: no runoff; the other candidate on its ballot is declared elected
    #: (nominated)
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
    what: CandStatus  # never ACTIVE here
    group: bool = False  # the runoff decides several seats
    #: one seat, and more than one other candidate on the ballot (a runoff among three or more
    #: tied for first, `three_way_tie`): there is no one "other candidate" to declare
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
    """The gap for a single office with two on its ballot (with `left_runoff_ballot`) and for a
    group or a single office with three or more on its ballot (without: the candidates who remain
    may be more than the seats)."""
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
            lambda f: not f.nominating and f.what is CandStatus.DIED,
            RunoffLeft.VACANT_IF_DEAD_ELECTED,
        ),
        *_runoff_left_gaps(
            ("163-293(e)", "163-294.1(b)"),
            "the runoff is held under the first election's rules (163-293(e)): the name stays on "
            "the printed runoff ballot and if the candidate polls highest the office is vacant "
            "(163-294.1(b))",
            lambda f: not f.nominating and f.what is not CandStatus.DIED,
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


# --- what the rulings on a candidate who leaves a called runoff's ballot say -------------------
# ({name}, {verb}: who left and how; {round}: the runoff or second primary, in words)

#: the ``left-runoff`` gap's ruling ({fallback}: what the simulator does, in the words below or
#: the reading's; {choices}: the gap's id and its other readings)
RUNOFF_LEFT_GAP = NO_PROVISION.format(
    asked="{name} {verb} after the {round} was called",
    head="no provision speaks of a candidate leaving between the first vote and the {round}",
    fallback="{fallback}",
    choices="{choices}",
)
#: the fallback where the name stays on the ballot ({outcome}: one of the two below)
NAME_STAYS = "the name stays on the printed {round} ballot and {outcome}"
#: a win by the candidate leaves the office vacant ({rule}: the provision)
VACANT_IF_WINS = "if {name} polls highest, the office is vacant ({rule})"
#: a second primary: the candidate cannot be nominated
CANNOT_BE_NOMINATED = (
    "{name} cannot be nominated: the nomination goes by the vote to those who can be"
)
#: the ruling that the name remains on the round's ballot
REMAINS_ON_BALLOT = "{name} {verb}: the name remains on the {round} ballot"
#: why the others on the ballot are declared (`left_runoff_ballot`: other_declared)
NO_ROUND_HELD = "{name} {verb}: no {round} is held"


# --- what the rulings on a departed candidate the count places say -----------------------------
# ({name}, {status}: who, and how they stand)

#: by the ``declared-left`` table's finding ({won}: :data:`POLLED_ENOUGH` or :data:`TO_BE_DECLARED`)
SEAT_WORDS: dict[Seat, str] = {
    Seat.VACANT: "{name} ({status}) {won}: the board declares the office vacant, " + TO_BE_FILLED,
    Seat.NOT_NOMINATED: "{name} ({status}) cannot be declared nominated",
}
#: a candidate the votes alone place
POLLED_ENOUGH = "polled enough votes to be elected"
#: a candidate placed otherwise ({why}: how: a lot, the others' leaving, nobody asking)
TO_BE_DECLARED = "is the one to be declared elected ({why})"
#: a nonpartisan primary's candidates who left and whose places pass to the next ({names}; {when}:
#: :data:`LEFT_WHEN`'s, by whether all left on or after the primary day)
PASSED_OVER = (
    "{names} polled enough votes for nomination but left the race {when}: those votes are "
    "disregarded and the next highest is nominated"
)
LEFT_WHEN: dict[bool, str] = {
    True: "on or after the primary day",
    False: "after the ballots were printed",
}
