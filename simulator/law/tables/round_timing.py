"""Until when, and on which day: the next round's dates, rule tables (see
:mod:`simulator.law.rules`).

- ``round-dates``: until when a runoff may be requested (163-293(c), 163-291(6)) or a tied
  candidate may withdraw (163-293(d)(1) and (d)(2)); the day of the next round is the calendar's
  (:func:`simulator.law.calendar.rounds`, 163-279(a)(4) and (a)(2)).
- ``round-day``: a runoff or second primary is called: on what day is it held?
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from enum import StrEnum
from typing import Any

import attrs

from simulator.law.readings import RequestAfterLot
from simulator.law.rules import Gap, Reading, Rule, Table


class Step(StrEnum):
    """A date the count sets once a result is declared."""

    REQUEST = "request"  # the last moment to request a runoff or demand a second primary
    TIE_WITHDRAWAL = "tie_withdrawal"  # the last moment for a tied candidate to withdraw


class When(StrEnum):
    """How the date is found (each a function of :mod:`simulator.law.calendar`, moved by 103-5)."""

    NOON_THURSDAY_AFTER = "noon_thursday_after"  # noon, first Thursday after the declaration
    THIRD_DAY_AFTER = "third_day_after"  # the end of the third day after the declaration
    #: noon, first Thursday after the drawing of lots that settled who may ask (`request_after_lot`)
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
    """Who may ask is settled after the deadline: by a drawing (``drawn``; `request_after_lot` keeps
    the deadline instead) or by a tied candidate's departure; the deadline counts from that day."""
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
            id="request-by",
            cite="163-293(c)",
            summary="a runoff is requested by noon on the Thursday after the result is declared",
            applies=_at(Step.REQUEST, False),
            effect=When.NOON_THURSDAY_AFTER,
        ),
        Rule(
            id="demand-by",
            cite="163-291(6)",
            summary="a second primary is demanded by noon on the Thursday after the canvass",
            applies=_at(Step.REQUEST, True),
            effect=When.NOON_THURSDAY_AFTER,
        ),
        Rule(
            id="tie-for-first-withdraw-by",
            cite="163-293(d)(1)",
            summary="a candidate tied for first after the recount may withdraw within three days "
            "of the declaration",
            applies=lambda f: f.step is Step.TIE_WITHDRAWAL and f.tie_for_first,
            effect=When.THIRD_DAY_AFTER,
        ),
        Rule(
            id="tie-for-second-withdraw-by",
            cite="163-293(d)(2)",
            summary="a candidate tied for second may withdraw within three days of the declaration",
            applies=lambda f: f.step is Step.TIE_WITHDRAWAL and not f.tie_for_first,
            effect=When.THIRD_DAY_AFTER,
        ),
    ),
    gaps=tuple(_settled_late(p, drawn=lot) for lot in (True, False) for p in (False, True)),
    facts=_timing_facts,
    asked="{by} of {at} settles who may ask after the deadline of {due}",
)


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
            id="runoff-day",
            cite="163-293(e)",
            summary="a runoff is held on the day 163-279(a)(4) fixes: the Tuesday after the first "
            "Monday in November",
            applies=lambda f: not f.primary and not f.begun,
            effect=Day.FIXED,
        ),
        Rule(
            id="second-primary-day",
            cite="163-279(a)(2)",
            summary="a party's second primary is held on the day 163-279(a)(2) fixes, applied by "
            "163-291(1): the fourth Tuesday before the November election",
            applies=lambda f: f.primary and not f.begun,
            effect=Day.FIXED,
        ),
    ),
    gaps=(_day_passed(False), _day_passed(True)),
    facts=lambda: (DayFacts(p, b) for p in (False, True) for b in (False, True)),
    asked=(
        "the {what} between {ballot}, called on {called} when the day fixed for it, {day}, {gone}"
    ),
)


# --- what the ruling that calls the next round says --------------------------------------------

#: ({reason}: why it is called; {round}: its name; {when}: :data:`DAY_WORDS`'s; {ballot}: who is
#: on it; {write_ins}: :data:`WRITE_INS`'s, by whether it is a second primary)
ROUND_CALLED = "{reason}: a {round} {when} between {ballot}{write_ins}"
#: its day, by the ``round-day`` table's finding ({day}: the day the law fixes; {gone}:
#: :data:`DAY_GONE`'s, by whether the call came after that day)
DAY_WORDS: dict[Day, str] = {
    Day.FIXED: "on {day}",
    Day.NONE_FIXED: "(the day fixed for it, {day}, {gone}: no day set by law)",
}
DAY_GONE: dict[bool, str] = {True: "had passed", False: "had begun"}
#: a runoff's ballot has only the runoff candidates (the ``votes`` table); a second primary's
#: says nothing of write-ins
WRITE_INS: dict[bool, str] = {False: "; no write-ins", True: ""}
#: what a deadline counted from now (``NOON_THURSDAY_AFTER_DRAWING``) is counted from, by whether
#: a drawing of lots settled who may ask (otherwise a departure)
SINCE: dict[bool, str] = {True: "lots drawn", False: "the departure"}
#: what settled who may ask after the deadline counted from the canvass (the ``round-dates``
#: table's {by}), by whether a drawing of lots did (otherwise a departure)
SETTLED_BY: dict[bool, str] = {True: "the drawing of lots", False: "a departure"}
