"""The steps of a tie under G.S. 163-293(d): rule tables (see :mod:`simulator.law.rules`).

- ``tie-window``: what a withdrawal, a demand or a deadline leaves during a tie's three days.
- ``tie-withdrawal``: a candidate withdraws while a tie waits on its three days: is it the tied
  candidate's withdrawal, and in time?
- ``recount``: a tie for first needs a recount, or the board reports one: what does it do?
- ``lot``: the board reports a drawing of lots: does it decide a tie?
- ``still-tied``: is a candidate counted in the tie still among the tied?
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from enum import StrEnum
from typing import Any

import attrs

from simulator.law.readings import DepartedInTieWindow, RecountNotOrdered
from simulator.law.rules import Gap, Reading, Rule, Table
from simulator.law.tables.count import LEFT_VERB
from simulator.law.vocab import CandStatus


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
    #: (d)(1) under `departed_in_tie_window`: a departure read as the withdrawal, the one who stands
    #: elected
    STANDING_ELECTED = "standing_elected"


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


def _tie_for_first(
    test: Callable[[TieWindowFacts], bool],
) -> Callable[[TieWindowFacts], bool]:
    """A condition on a tie for first (163-293(d)(1))."""
    return lambda f: f.first and test(f)


def _tie_for_second(
    test: Callable[[TieWindowFacts], bool],
) -> Callable[[TieWindowFacts], bool]:
    """A condition on a tie for second (163-293(d)(2))."""
    return lambda f: not f.first and test(f)


TIE_WINDOW: Table[TieWindowFacts, TieStep] = Table(
    "tie-window",
    "a tie waits on its three days (163-293(d)(1) after the recount, (d)(2) for second place): "
    "a tied candidate withdraws, a tied runner-up demands a runoff, or a deadline passes. What "
    "follows?",
    (
        Rule(
            id="tie-for-first-remaining-elected",
            cite="163-293(d)(1)",
            summary="the other tied candidate withdrew in writing within three days of the "
            "recount's declaration: the remaining candidate is declared elected (with three or "
            "more tied, once all but one have withdrawn: interpretation three_way_tie: "
            "runoff_all)",
            applies=_tie_for_first(lambda f: f.remaining == 1),
            effect=TieStep.REMAINING_ELECTED,
        ),
        Rule(
            id="tie-for-first-window-open",
            cite="163-293(d)(1)",
            summary="two or more remain tied while the three days run: they may still withdraw",
            applies=_tie_for_first(lambda f: f.remaining > 1 and f.moment is TieMoment.WITHDREW),
            effect=TieStep.WAIT,
        ),
        Rule(
            id="tie-for-first-runoff-called",
            cite="163-293(d)(1)",
            summary="the three days end with the tied candidates in the race and none withdrawn: a "
            "runoff between them (among all of them with three or more: interpretation "
            "three_way_tie: runoff_all)",
            applies=_tie_for_first(
                lambda f: (
                    f.remaining > 1 and f.moment is TieMoment.WITHDRAWAL_PASSES and not f.departed
                )
            ),
            effect=TieStep.RUNOFF_AMONG_TIED,
        ),
        Rule(
            id="tie-for-second-runoff-called",
            cite="163-293(d)(2)",
            summary="all but one of those tied for second withdrew within three days and the last "
            "demanded a runoff in time: a runoff between the highest and the last",
            applies=_tie_for_second(lambda f: f.remaining == 1 and f.demanded),
            effect=TieStep.RUNOFF_WITH_LAST,
        ),
        Rule(
            id="tie-for-second-awaits-withdrawals",
            cite="163-293(d)(2)",
            summary="two or more remain tied for second while the three days run: a runoff needs "
            "all but one of them to withdraw",
            applies=_tie_for_second(
                lambda f: (
                    f.remaining > 1
                    and f.moment is not TieMoment.WITHDRAWAL_PASSES
                    and (f.demanded or f.moment is not TieMoment.REQUEST_PASSES)
                )
            ),
            effect=TieStep.WAIT,
        ),
        Rule(
            id="tie-for-second-awaits-demand",
            cite="163-293(d)(2)",
            summary="one tied runner-up is left and has not yet demanded a runoff: the demand may "
            "come until noon on the Thursday after the declaration (163-293(c))",
            applies=_tie_for_second(
                lambda f: f.remaining == 1 and not f.demanded and not f.request_passed
            ),
            effect=TieStep.WAIT,
        ),
        Rule(
            id="tie-for-second-no-demand",
            cite="163-293(d)(2)",
            summary="noon on the Thursday passes and no tied runner-up still in the race has "
            "demanded a runoff: the highest is declared elected",
            applies=_tie_for_second(
                lambda f: (
                    f.moment is TieMoment.REQUEST_PASSES and f.remaining > 0 and not f.demanded
                )
            ),
            effect=TieStep.LEADER_NO_DEMAND,
        ),
        Rule(
            id="tie-for-second-last-silent",
            cite="163-293(d)(2)",
            summary="the others withdrew, but the last tied runner-up had not demanded a runoff "
            "by noon on the Thursday: the highest is declared elected",
            applies=_tie_for_second(
                lambda f: (
                    f.remaining == 1
                    and not f.demanded
                    and f.request_passed
                    and f.moment is not TieMoment.REQUEST_PASSES
                )
            ),
            effect=TieStep.LEADER_LAST_SILENT,
        ),
        Rule(
            id="tie-for-second-not-all-withdrew",
            cite="163-293(d)(2)",
            summary="the three days end with two or more still tied for second: the highest is "
            "declared elected",
            applies=_tie_for_second(
                lambda f: f.remaining > 1 and f.moment is TieMoment.WITHDRAWAL_PASSES
            ),
            effect=TieStep.LEADER_NOT_ALL_WITHDREW,
        ),
        Rule(
            id="tie-for-second-none-left",
            cite="163-293(d)(2)",
            summary="every candidate tied for second withdrew: nobody is left to demand a runoff, "
            "and the highest is declared elected",
            applies=_tie_for_second(lambda f: f.remaining == 0),
            effect=TieStep.LEADER_NONE_LEFT,
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
            _tie_for_first(
                lambda f: f.remaining > 1 and f.moment is TieMoment.WITHDRAWAL_PASSES and f.departed
            ),
            TieStep.RUNOFF_AMONG_TIED,
            readings=(
                Reading(
                    "departed_in_tie_window",
                    DepartedInTieWindow.OTHER_ELECTED,
                    "the departure is read as the withdrawal (d)(1) counts: the tied candidate "
                    "who still stands is declared elected, with no runoff",
                    TieStep.STANDING_ELECTED,
                ),
            ),
        ),
    ),
    facts=_tie_window_facts,
    asked="the three days end with {tied} tied",
)


def tie_step_reason(
    step: TieStep,
    moment: TieMoment,
    *,
    withdrew: str = "",
    last: str = "",
    departed: str = "",
    ended: str = "",
) -> str:
    """The reason a ruling gives for what follows (``withdrew``: who just withdrew; ``last``:
    the one tied runner-up left; ``departed``: the tied candidates who died or were
    disqualified, with how they left; ``ended``: when the three days ended, said where the
    reason is that they passed). None is false of the facts: a candidate who died is never said
    to have withdrawn or to be still standing."""
    days = f"within the three days that ended {ended}" if ended else "within three days"
    if step is TieStep.REMAINING_ELECTED:
        if moment is TieMoment.WITHDREW:
            return f"{withdrew} withdrew within three days of the recount"
        return "the other tied candidate(s) withdrew"
    if step is TieStep.RUNOFF_AMONG_TIED:
        if departed:
            return f"the recount left a tie and no tied candidate withdrew {days} ({departed})"
        return (
            f"the recount left a tie and the tied candidates still standing did not withdraw {days}"
        )
    if step is TieStep.STANDING_ELECTED:
        return (
            f"{departed} before the three days ended, which this reading counts as the "
            "withdrawal 163-293(d)(1) provides for: the tied candidate who still stands is "
            "elected"
        )
    if step is TieStep.RUNOFF_WITH_LAST:
        if moment is TieMoment.DEMANDED:
            return f"the other tied candidates withdrew and {last} demanded a runoff"
        return f"all other tied candidates withdrew and {last} demanded a runoff"
    if departed and step is TieStep.LEADER_NOT_ALL_WITHDREW:
        # one who died or was disqualified files no withdrawal: (d)(2) counts only those
        return (
            f"the tied runners-up did not all but one withdraw {days} "
            f"({departed}, which is not a withdrawal)"
        )
    if departed and step in (TieStep.LEADER_NO_DEMAND, TieStep.LEADER_LAST_SILENT):
        # a demand by one who then died or was disqualified lapsed with its maker
        return f"no tied runner-up demanded a runoff in time and stayed in the race ({departed})"
    return {
        TieStep.LEADER_NO_DEMAND: "no tied runner-up demanded a runoff in time",
        TieStep.LEADER_NOT_ALL_WITHDREW: f"the tied runners-up did not all but one withdraw {days}",
        TieStep.LEADER_LAST_SILENT: f"{last} did not demand a runoff in time",
        TieStep.LEADER_NONE_LEFT: "every tied runner-up withdrew",
    }.get(step, "")


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
    #: `recount_not_ordered`: the declared result stands; the recount changes nothing
    STANDS = "stands"


@attrs.frozen
class RecountFacts:
    moment: RecountMoment


RECOUNT: Table[RecountFacts, Recount] = Table(
    "recount",
    "a tie for first needs a recount, or the board reports one: what does it do?",
    (
        Rule(
            id="recount-required",
            cite="163-293(d)(1)",
            summary="a tie for the highest vote in a first election: the board recounts and "
            "declares the results before a runoff or a withdrawal is considered",
            applies=lambda f: f.moment is RecountMoment.TIE_FOR_FIRST,
            effect=Recount.REQUIRED,
        ),
        Rule(
            id="recount-declared",
            cite="163-293(d)(1)",
            summary="the recount the tie required: its totals replace the count and its result is "
            "declared",
            applies=lambda f: f.moment is RecountMoment.ORDERED,
            effect=Recount.REPLACES,
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
            readings=(
                Reading(
                    "recount_not_ordered",
                    RecountNotOrdered.RESULT_STANDS,
                    "a recount no provision here orders does not undo the canvass: the result "
                    "declared at the canvass stands, and the recount's totals are noted only",
                    Recount.STANDS,
                ),
            ),
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
    asked="a recount is reported",
)


class Lot(StrEnum):
    """What a drawing does (a refusal's value is the reason users see)."""

    DECIDES = "decides"  # the winner takes the place the tie left open
    NO_TIE = "no lot pending"  # no tie awaits a lot: the drawing decides nothing
    NOT_TIED = "not among the tied candidates"  # the winner is not among those tied


@attrs.frozen
class LotFacts:
    pending: bool  # a tie awaits a lot
    among_tied: bool = True  # the drawing named one of those tied for the place
    #: the election and runoff method, whose lot is 163-293(f)'s (163-292(3) is the plurality
    #: method's)
    runoff_method: bool = False


LOT: Table[LotFacts, Lot] = Table(
    "lot",
    "the board reports a drawing of lots: does it decide a tie?",
    (
        Rule(
            id="lot-decides",
            cite="163-292(3)",
            summary="the board determines the winner of a tie by lot: the drawing gives the place "
            "to the candidate it names (likewise 163-293(f), 163-294(b), 163-182.8(2))",
            applies=lambda f: f.pending and f.among_tied,
            effect=Lot.DECIDES,
        ),
        Rule(
            id="lot-without-tie",
            cite="163-292(3)",
            summary="a lot determines the winner of a tie: with no tie awaiting one, a drawing "
            "decides nothing",
            applies=lambda f: not f.pending and not f.runoff_method,
            effect=Lot.NO_TIE,
        ),
        Rule(
            id="lot-for-one-not-tied",
            cite="163-292(3)",
            summary="a lot determines the winner among the tied: a drawing that names someone else "
            "decides nothing",
            applies=lambda f: f.pending and not f.among_tied and not f.runoff_method,
            effect=Lot.NOT_TIED,
        ),
        Rule(
            id="runoff-lot-without-tie",
            cite="163-293(f)",
            summary="under the election and runoff method a lot determines the winner of a tie in "
            "the runoff: with no tie awaiting one, a drawing decides nothing",
            applies=lambda f: not f.pending and f.runoff_method,
            effect=Lot.NO_TIE,
        ),
        Rule(
            id="runoff-lot-for-one-not-tied",
            cite="163-293(f)",
            summary="under the election and runoff method a lot determines the winner between the "
            "tied: a drawing that names someone else decides nothing",
            applies=lambda f: f.pending and not f.among_tied and f.runoff_method,
            effect=Lot.NOT_TIED,
        ),
    ),
    facts=lambda: (
        LotFacts(p, a, r)
        for p in (False, True)
        for a in (False, True)
        for r in (False, True)
        if p or a
    ),
)


class Tied(StrEnum):
    """Whether a candidate counted in a tie is still among the tied."""

    STILL_TIED = "still_tied"
    OUT = "out"  # withdrew in writing


@attrs.frozen
class TiedFacts:
    tie_for_first: bool  # (d)(1), not (d)(2)
    standing: CandStatus


def _tie_is(first: bool, test: Callable[[TiedFacts], bool]) -> Callable[[TiedFacts], bool]:
    return lambda f: f.tie_for_first is first and test(f)


def _tied_rules() -> tuple[Rule[TiedFacts, Tied], ...]:
    out: list[Rule[TiedFacts, Tied]] = []
    for first, cite, tag in (
        (True, "163-293(d)(1)", "tie-for-first"),
        (False, "163-293(d)(2)", "tie-for-second"),
    ):
        out += [
            Rule(
                id=f"{tag}-written-withdrawal",
                cite=cite,
                summary="a tied candidate who filed a written notice of withdrawal is no longer "
                "among the tied",
                applies=_tie_is(first, lambda f: f.standing is CandStatus.WITHDREW),
                effect=Tied.OUT,
            ),
            Rule(
                id=f"{tag}-no-written-withdrawal",
                cite=cite,
                summary="only a written notice of withdrawal takes a candidate out of the tie: "
                "one who died or was disqualified filed none and stays among the tied (what that "
                "does to the tie is the tie-window table's question)",
                applies=_tie_is(first, lambda f: f.standing is not CandStatus.WITHDREW),
                effect=Tied.STILL_TIED,
            ),
        ]
    return tuple(out)


STILL_TIED: Table[TiedFacts, Tied] = Table(
    "still-tied",
    "a tie waits on its three days: is a candidate counted in it still among the tied?",
    _tied_rules(),
    facts=lambda: (TiedFacts(first, s) for first in (True, False) for s in CandStatus),
)


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
    for first, cite, tag in (
        (True, "163-293(d)(1)", "tie-for-first"),
        (False, "163-293(d)(2)", "tie-for-second"),
    ):

        def on(first: bool, test: Any) -> Any:
            return lambda f: f.tie_for_first is first and test(f)

        out += [
            Rule(
                id=f"{tag}-withdrawal-left",
                cite=cite,
                summary="the written notice of withdrawal is a candidate's act: one who has "
                "already died, withdrawn or been disqualified is no longer a candidate and files "
                "none",
                applies=on(first, lambda f: f.left),
                effect=TieWithdrawal.LEFT,
            ),
            Rule(
                id=f"{tag}-withdrawal-in-time",
                cite=cite,
                summary="a tied candidate may withdraw within three days after the recount (or the "
                "declaration): the withdrawal takes effect",
                applies=on(first, lambda f: not f.left and f.tied and not f.late),
                effect=TieWithdrawal.IN_TIME,
            ),
            Rule(
                id=f"{tag}-withdrawal-late",
                cite=cite,
                summary="the three days for a tied candidate to withdraw have ended: the "
                "withdrawal does not change the tie",
                applies=on(first, lambda f: not f.left and f.tied and f.late),
                effect=TieWithdrawal.LATE,
            ),
            Rule(
                id=f"{tag}-withdrawal-not-tied",
                cite=cite,
                summary="the three days are the tied candidates': another candidate's withdrawal "
                "is an ordinary one after the election",
                applies=on(first, lambda f: not f.left and not f.tied),
                effect=TieWithdrawal.NOT_TIED,
            ),
        ]
    return tuple(out)


TIE_WITHDRAWAL: Table[TieWithdrawalFacts, TieWithdrawal] = Table(
    "tie-withdrawal",
    "a candidate withdraws while a tie waits on its three days: what does the withdrawal do?",
    _tie_withdrawal_rules(),
    facts=_tie_withdrawal_facts,
)


# --- what the rulings on a recount and a lot say ------------------------------------------------

#: a recount reported that replaces nothing, by the ``recount`` table's finding
RECOUNT_WORDS: dict[Recount, str] = {
    Recount.STANDS: "a recount nobody ordered leaves the result declared at the canvass standing",
    Recount.NO_EFFECT: "a recount before any result was declared has no effect",
}
#: the reason such a ruling gives, by the finding
RECOUNT_REASON: dict[Recount, str] = {
    Recount.STANDS: "the declared result stands",
    Recount.NO_EFFECT: "no result to recount",
}
#: a drawing that decides a place ({what}: the place, in words)
LOT_WON = "{winner} won the drawing of lots for {what}"
#: a drawing that decides nothing, by the ``lot`` table's finding ({winner}: whom it named)
LOT_WORDS: dict[Lot, str] = {
    Lot.NO_TIE: "a lot was drawn for {winner}, but no tie awaits a lot",
    Lot.NOT_TIED: (
        "a lot was drawn for {winner}, who is not among the candidates tied for the place"
    ),
}


# --- what the rulings on a tie's recount and three days say ({tied}: the tied, listed) ---------

#: a tie for the highest vote in a first election (``recount``: required)
RECOUNT_REQUIRED = "a tie for the highest number of votes between {tied}: the board must recount"
#: the recount confirms the tie ({due}: when the three days end; {note}: :data:`LEFT_ON_THE_DAY`,
#: or nothing)
RUNOFF_UNLESS_WITHDRAWN = (
    "the recount confirms the tie: a runoff between {tied} is held unless one withdraws by "
    "{due:%Y-%m-%d %H:%M}{note}"
)
#: tied candidates who left on or after election day ({late}: each with how)
LEFT_ON_THE_DAY = (
    " ({late} on or after election day: if the three days end with the tie standing, no "
    "provision covers what follows; it is ruled then)"
)
#: a tie for second (163-293(d)(2)) ({withdraw}, {demand}: the two deadlines; {note}:
#: :data:`DEMAND_FIRST`, or nothing)
TIE_FOR_SECOND = (
    "{leader} leads short of a majority and {seconds} tie for second: {leader} is elected unless "
    "all but one of them withdraw by {withdraw:%Y-%m-%d %H:%M} and the last demands a runoff by "
    "{demand:%Y-%m-%d %H:%M}{note}"
)
#: 163-293(d)(2) has the demand made "in accordance with subsection (c)", whose deadline can
#: fall inside the three days: said, so that it is not taken for a slip
DEMAND_FIRST = (
    " (the demand's deadline under 163-293(c) comes before the three days end: a demand made "
    "while the tie stands waits for the others' withdrawals)"
)
#: a demand a tie for second held, answered once the contest is decided without a runoff
#: ({why}: how it was decided)
DEMAND_CALLS_NONE = "{name}'s demand for a runoff calls none: {why}"
#: how it was decided when the leader left after the declaration and the office is vacant
#: ({name}: the leader; {verb}: how the leader left, :data:`LEADER_LEFT_VERB` where the status
#: does not say)
LEADER_LEFT = "{name}, the leader, {verb} and the office is vacant"
LEADER_LEFT_VERB = "left"
#: what the ruling on a withdrawal that changes nothing says, by the ``tie-withdrawal`` table's
#: finding ({name}: who withdrew; {how}: :data:`LEFT_BEFORE`'s)
WITHDRAWAL_WORDS: dict[TieWithdrawal, str] = {
    TieWithdrawal.LEFT: (
        "{name}'s notice of withdrawal is rejected: {name} {how} and is no longer a candidate"
    ),
    TieWithdrawal.LATE: "{name}'s withdrawal came after the three days",
}
#: the reason such a ruling gives ({effect}: the finding), by the finding
WITHDRAWAL_REASON: dict[TieWithdrawal, str] = {
    TieWithdrawal.LEFT: "{name} {how}: {effect}",
    TieWithdrawal.LATE: "{effect}",
}
#: how a candidate who had left before a notice of withdrawal left, by their standing
LEFT_BEFORE: dict[CandStatus, str] = {
    **{s: LEFT_VERB[s] for s in (CandStatus.DIED, CandStatus.DISQUALIFIED)},
    CandStatus.WITHDREW: "already withdrew",
}
#: the place a drawing of lots decides in a tie the count reaches (:data:`LOT_WON`'s {what})
A_TIED_PLACE = "a tied place"
#: the tie a drawing of lots must settle before the count goes on ({tied}; {place}:
#: :func:`places` or the place named; {them}: :data:`IT_OR_THEM`'s, by whether one place is tied)
LOT_REQUIRED = "{tied} are tied for {place}: the board decides {them} by drawing lots"
IT_OR_THEM: dict[bool, str] = {True: "it", False: "them"}
_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def places(n: int) -> str:
    """``n`` places in words: "one place", "two places", "12 places"."""
    count = _NUMBERS[n] if n < len(_NUMBERS) else str(n)
    return f"{count} place{'' if n == 1 else 's'}"


#: the place a drawing of lots decides in a party primary's tie (:data:`LOT_WON`'s {what})
FIRST_PLACE = "first place"
SECOND_PLACE = "second place"
