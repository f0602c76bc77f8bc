"""Values of the law that the legislature has changed, each a dated table.

A number written into a statute (a percentage, a count of days) is not one number: it is the
value enacted by one session law, in force from one day until a later act replaces it. Each
:class:`Parameter` here is the table of those values, (in force from, value, source), the way
OpenFisca keeps its parameters; :func:`in_force` looks one up by the election day of the contest
it decides, so a 2015 primary is counted under the law of 2015 and a 2027 primary under the law
of today. The latest value stays in force for every later day: the current law is the default
for future years.

A scenario can pin a value for all its contests (its ``parameters:`` field, e.g.
``parameters: {substantial_plurality: 40%}``), to ask what a contest would have come to under
another version of the law; the ruling then names the scenario as the source.

>>> p = in_force("substantial_plurality", date(2015, 9, 15))
>>> p.value, p.percent, p.source.split(";")[0]
(Fraction(2, 5), '40%', 'G.S. 163-111(a) as it read before S.L. 2017-214')
>>> in_force("substantial_plurality", date(2019, 9, 10)).percent
'30%'
>>> in_force("substantial_plurality", date(2019, 9, 10), pinned={"substantial_plurality":
...     Fraction(2, 5)}).source
'pinned by the scenario (parameters: substantial_plurality)'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import cache
from typing import TypeVar

import attrs

__all__ = [
    "COUNTY_CANVASS_DAY",
    "MOST_PLACES",
    "PARAMETERS",
    "DatedDays",
    "DatedValue",
    "DayCount",
    "Parameter",
    "in_force",
    "parse_value",
]


@attrs.frozen
class DatedValue:
    """One value of a parameter: in force from ``since`` (inclusive) until the next one."""

    since: date
    value: Fraction
    source: str

    @property
    def percent(self) -> str:
        """The value as a percentage, exact: ``'30%'``, ``'33 1/3%'``."""
        return _percent(self.value)


@attrs.frozen
class Parameter:
    """A value of the law, with its history: ``values`` ordered by ``since``."""

    name: str
    cite: str
    description: str
    values: tuple[DatedValue, ...]

    def at(self, day: date) -> DatedValue:
        """The value in force on ``day``: the last one whose ``since`` is on or before it."""
        return _at(self.values, day)


def _at(values: tuple[_Dated, ...], day: date) -> _Dated:
    """Of ``values`` ordered by ``since``, the last one in force on or before ``day``."""
    found = values[0]
    for v in values:
        if v.since <= day:
            found = v
    return found


_Dated = TypeVar("_Dated", "DatedValue", "DatedDays")


def _percent(value: Fraction) -> str:
    return _percent_of(value.numerator, value.denominator)


@cache
def _percent_of(numerator: int, denominator: int) -> str:
    """:func:`_percent` of ``numerator / denominator``, written once for each."""
    pct = Fraction(numerator, denominator) * 100
    if pct.denominator == 1:
        return f"{pct.numerator}%"
    whole, rest = divmod(pct.numerator, pct.denominator)
    return f"{whole} {rest}/{pct.denominator}%" if whole else f"{rest}/{pct.denominator}%"


#: Every dated parameter, by name. Add a value when the General Assembly changes one; never edit
#: a past value's date (contests already decided under it would change).
PARAMETERS: dict[str, Parameter] = {
    "substantial_plurality": Parameter(
        name="substantial_plurality",
        cite="163-111(a)",
        description=(
            "the share of the vote (per position, for a group) a primary candidate must exceed "
            "to be nominated without a second primary"
        ),
        values=(
            DatedValue(
                date.min,
                Fraction(2, 5),
                "G.S. 163-111(a) as it read before S.L. 2017-214; the day this value took effect "
                "is not in the project's sources, so it stands for every earlier day",
            ),
            DatedValue(
                date(2018, 1, 1),
                Fraction(3, 10),
                "G.S. 163-111(a) as amended by S.L. 2017-214, in force from 1 January 2018",
            ),
        ),
    ),
}


@attrs.frozen
class DatedDays:
    """One value of a count of days: in force from ``since`` (inclusive) until the next one."""

    since: date
    days: int
    source: str


@attrs.frozen
class DayCount:
    """A count of days the law has changed, with its history: ``values`` ordered by ``since``.
    Unlike a :class:`Parameter`, a scenario does not pin it (a day of the calendar, not a share
    of the vote).

    >>> [COUNTY_CANVASS_DAY.at(date(y, 11, 7)).days for y in (2015, 2016, 2017)]
    [7, 7, 10]
    """

    name: str
    cite: str
    description: str
    values: tuple[DatedDays, ...]

    def at(self, day: date) -> DatedDays:
        """The value in force on ``day``: the last one whose ``since`` is on or before it."""
        return _at(self.values, day)


#: G.S. 163-182.5(b): the day after an election on which the county board meets, at 11:00, to
#: complete its canvass (:func:`simulator.law.calendar.canvass` reads it for every election whose
#: canvass that subsection sets). S.L. 2016-109 made it the tenth day after every election; the
#: text before it set the tenth day only after an election held with the November general
#: election of an even year (a case the calendar keeps apart) and the seventh after every other.
#: The project's sources date the act to 2016 and apply it to every municipal election from 2017
#: on; no municipal election of 2016 outside that even-year case is known to
#: them, so 1 January 2017 is the day it takes effect here.
COUNTY_CANVASS_DAY = DayCount(
    name="county_canvass_day",
    cite="163-182.5(b)",
    description="the day after an election on which the county board completes its canvass",
    values=(
        DatedDays(date.min, 7, "G.S. 163-182.5(b) as it read before S.L. 2016-109"),
        DatedDays(date(2017, 1, 1), 10, "G.S. 163-182.5(b) as rewritten by S.L. 2016-109"),
    ),
)


def in_force(name: str, day: date, *, pinned: Mapping[str, Fraction] | None = None) -> DatedValue:
    """The value of parameter ``name`` in force on ``day``, or the one a scenario pinned."""
    if pinned and name in pinned:
        return DatedValue(day, pinned[name], f"pinned by the scenario (parameters: {name})")
    return PARAMETERS[name].at(day)


_PERCENT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*%\s*$")
_FRACTION = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


#: The most decimal places a value may have: ``1e-999999999`` is strictly between 0 and 1, but
#: as a fraction its denominator has a billion digits (and ``1e999999999`` as many to compare).
MOST_PLACES = 100


def _decimal(number: Decimal) -> Fraction:
    """A decimal value exactly, read without writing out its exponent's zeros."""
    exponent = number.as_tuple().exponent  # (a letter for an infinity or a NaN)
    if not isinstance(exponent, int) or exponent < -MOST_PLACES or not 0 < number < 1:
        raise ValueError(number)
    return Fraction(number)


def parse_value(raw: object) -> Fraction:
    """A parameter value as a scenario writes it: ``40%``, ``"2/5"`` or ``0.4``; strictly
    between 0 and 1. Raises ValueError otherwise."""
    value: Fraction
    if isinstance(raw, bool):
        raise ValueError(raw)
    if isinstance(raw, int | float | Decimal):
        value = _decimal(Decimal(str(raw)))
    elif isinstance(raw, str) and (m := _PERCENT.match(raw)):
        value = Fraction(m.group(1)) / 100
    elif isinstance(raw, str) and (m := _FRACTION.match(raw)) and int(m.group(2)):
        value = Fraction(int(m.group(1)), int(m.group(2)))
    elif isinstance(raw, str) and "/" in raw:
        value = Fraction(raw.strip())  # (a fraction's two integers have no exponent)
    elif isinstance(raw, str):
        try:
            value = _decimal(Decimal(raw.strip()))
        except InvalidOperation:
            raise ValueError(raw) from None
    else:
        raise ValueError(raw)
    if not 0 < value < 1:
        raise ValueError(raw)
    return value
