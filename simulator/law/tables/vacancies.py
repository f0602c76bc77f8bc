"""The oath of office and places no candidate fills: rule tables (see
:mod:`simulator.law.rules`).

- ``oath``: a person takes the oath of office: is it the oath after which a departure is a
  vacancy in office (163-294.1(d)) rather than one before the oath (163-294.1(c))?
- ``empty-seats``: fewer candidates than places were declared: are the places left vacant
  (163-294.1(d), filled under 160A-63)?
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from enum import StrEnum

import attrs

from simulator.law.cite import statute
from simulator.law.rules import Rule, Table


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
            id="oath-taken",
            cite="163-294.1(d)",
            summary="a person elected takes the oath: a departure after it is a vacancy in office "
            "(163-294.1(d)), no longer a vacancy before the oath (163-294.1(c))",
            applies=lambda f: f.elected and not f.sworn,
            effect=Oath.TAKES_OFFICE,
        ),
        Rule(
            id="oath-again",
            cite="163-294.1(c)",
            summary="a person elected qualifies by taking the oath once: a second oath is refused "
            "and changes nothing",
            applies=lambda f: f.elected and f.sworn,
            effect=Oath.ALREADY_SWORN,
        ),
        Rule(
            id="oath-not-elected",
            cite="163-294.1(c)",
            summary="the oath that ends 163-294.1(c)'s time is a person elected's: an oath by "
            "anyone else is refused and changes nothing",
            applies=lambda f: not f.elected,
            effect=Oath.NOT_ELECTED,
        ),
    ),
    facts=_oath_facts,
)

#: what the ruling on an oath that changes nothing says, by the ``oath`` table's finding
#: ({name}: who took it; {first}: when that person first took it)
OATH_WORDS: dict[Oath, str] = {
    Oath.ALREADY_SWORN: (
        "{name} already took the oath of office on {first:%Y-%m-%d %H:%M}: a second oath "
        "changes nothing"
    ),
    Oath.NOT_ELECTED: (
        "{name} has not been declared elected: the oath of a person not elected changes nothing"
    ),
}


#: the statute a vacancy in office is filled under (named beside 163-294.1(d) in its rulings)
FILLED_UNDER = "160A-63"
#: how a ruling that declares a vacancy in office says how it is filled
TO_BE_FILLED = f"to be filled under {statute(FILLED_UNDER)}"
#: the same, of a vacancy in an office someone had taken (163-294.1(d))
FILLED_BY_THE_BOARD = f"filled by the governing body under {statute(FILLED_UNDER)}"


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
            id="empty-seats-vacant",
            cite="163-294.1(d)",
            summary="places of an election no candidate can fill are vacancies in office, filled "
            "as 160A-63 provides",
            applies=lambda f: not f.nominating,
            effect=Seats.VACANT,
        ),
        Rule(
            id="primary-fills-no-office",
            cite="163-294.1(d)",
            summary="a primary fills no office: fewer nominees than places leaves no vacancy in "
            "office (163-294.1(d) speaks of the office)",
            applies=lambda f: f.nominating,
            effect=Seats.UNFILLED,
        ),
    ),
    facts=_seats_facts,
)
#: what the ruling on places no candidate fills says, by the ``empty-seats`` table's finding
#: ({short}: how many)
SEATS_WORDS: dict[Seats, str] = {
    Seats.VACANT: "{short} seat(s) had no candidate to fill them: vacant, " + TO_BE_FILLED,
}
