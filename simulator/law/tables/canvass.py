"""The canvass of an election: which provision sets it (163-291(5), 163-294(b), 163-293(c),
163-182.5(b)), a rule table (see :mod:`simulator.law.rules`); :func:`canvass_cite` gives the
calendar its citation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from enum import StrEnum

import attrs

from simulator.law.cite import Cite, statute
from simulator.law.readings import CanvassBeforeItsDay
from simulator.law.rules import Gap, Reading, Rule, Table
from simulator.law.vocab import DeadlineKind, Method


class Canvassed(StrEnum):
    """The election a canvass declares (the provision that sets its canvass is the rule's)."""

    PARTY_PRIMARY = "party_primary"  # a party's primary or second primary
    NONPARTISAN_PRIMARY = "nonpartisan_primary"
    FIRST_ELECTION = "first_election"  # the first election of the runoff method
    ELECTION = "election"  # any other election, a runoff included
    NOTHING = "nothing"  # a canvass before the election day: nothing to declare
    BEFORE_ITS_DAY = "before_its_day"  # after the vote, before the day fixed for the canvass
    #: `canvass_before_its_day`: as BEFORE_ITS_DAY, the result declared as of the day fixed for the
    #: canvass
    AS_OF_ITS_DAY = "as_of_its_day"


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
    seventh or the tenth day after it), so one before the day declares nothing and has no
    effect."""
    out: list[Rule[CanvassFacts, Canvassed]] = []
    for rid, cite, summary, applies, effect in rules:
        applies = _not_before_its_day(applies)
        out += [
            Rule(
                id=rid,
                cite=cite,
                summary=summary,
                applies=_on_time(applies, early=False),
                effect=effect,
            ),
            Rule(
                id=f"{rid}-before-the-day",
                cite=cite,
                summary="the canvass declares the result of an election already held: one dated "
                "before the day declares nothing and has no effect (it stays on the timeline)",
                applies=_on_time(applies, early=True),
                effect=Canvassed.NOTHING,
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
            readings=(
                Reading(
                    "canvass_before_its_day",
                    CanvassBeforeItsDay.AS_OF_ITS_DAY,
                    "the board may not canvass before the day the law fixes: the early canvass's "
                    "result is declared as of that day, and the deadlines that run from the "
                    "declaration (a runoff request, a tie's three days) count from it; a request "
                    "made before that day is made before the declaration",
                    Canvassed.AS_OF_ITS_DAY,
                ),
            ),
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
        "party-primary-canvass",
        "163-291(5)",
        "a party's municipal primary or second primary is canvassed on the seventh day after",
        lambda f: f.method is Method.PARTISAN and f.held in _PRIMARY_DAYS,
        Canvassed.PARTY_PRIMARY,
    ),
    (
        "nonpartisan-primary-canvass",
        "163-294(b)",
        "a nonpartisan primary is canvassed on the seventh day after",
        lambda f: f.method is Method.PRIMARY and f.held is DeadlineKind.PRIMARY_DAY,
        Canvassed.NONPARTISAN_PRIMARY,
    ),
    (
        "first-election-canvass",
        "163-293(c)",
        "the first election of the runoff method is canvassed on the seventh day after; its "
        "declaration opens the runoff request",
        lambda f: f.method is Method.RUNOFF and f.held is DeadlineKind.ELECTION_DAY,
        Canvassed.FIRST_ELECTION,
    ),
    (
        "election-canvass",
        "163-182.5(b)",
        "any other election (the November election, a runoff) is canvassed by the county "
        "board at 11:00 on the day this subsection sets in the text in force on the election "
        "day: the tenth day after from 2017 (S.L. 2016-109); the seventh before, the tenth "
        "with an even year's general election (the runoff's other reading, the seventh day "
        "by 163-293(e): interpretation runoff_canvass)",
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
    asked="a canvass held before its day, {day}",
)


def canvass_cite(method: Method, held: DeadlineKind) -> Cite:
    """The citation of the ``canvass`` table's rule for the canvass of a method's election."""
    rule = CANVASS.evaluate(CanvassFacts(method, held)).rule
    assert rule is not None  # every day a method holds has its rule (tests/law/test_count_rules.py)
    return statute(rule.cite)


def held_on_closed_day(day: str) -> str:
    """What a canvass deadline adds when the board held the canvass on the day its statute
    fixes (or a later closed day), though the office was closed and G.S. 103-5(a) had moved the
    deadline to the next open day: 103-5(a) allows the wait and does not require it, so the
    canvass stands (it is not one held before its day, which the ``canvass`` table reads)."""
    return (
        f"; the board held it on {day}, with the office closed: G.S. 103-5(a) allows the wait "
        "for the next open day and does not require it, so the canvass stands"
    )


# --- what the rulings on a canvass say ({held}: the election, in words; {day}: its day) --------

#: a canvass dated before the election (``Canvassed.NOTHING``)
BEFORE_THE_ELECTION = (
    "a canvass dated before the {held} of {day} declares nothing: the canvass declares the "
    "result of an election already held"
)
#: the reason that ruling gives
BEFORE_THE_ELECTION_REASON = "canvass before the election"
#: a canvass of a round none of whose returns were reported, with names on its ballot
WITHOUT_RETURNS = (
    "a canvass of the {held} of {day} with no returns of it declares nothing: the canvass "
    "declares the count of the returns, and none were reported; the contest still waits for them"
)
#: the reason that ruling gives
WITHOUT_RETURNS_REASON = "canvass without returns"
#: a canvass after the result was declared ({when}: :data:`DECLARED_WHEN`'s)
REPEATED = (
    "the result was declared {when}: a second canvass declares nothing new, and the deadlines "
    "counted from that declaration stand"
)
#: when the result was declared ({first}: the moment), by whether the declaration was made as of
#: the canvass's day (`canvass_before_its_day`) or at the canvass, when it was held
DECLARED_WHEN: dict[bool, str] = {True: "as of {first}", False: "at the canvass of {first}"}
