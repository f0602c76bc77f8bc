"""Declaring the result: the best placed elected or nominated, a candidate who left declared or
passed over, lots awaited, vacancies left short, and when each step of a declaration is due."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from simulator.engine.counting.consult import consult, finding_cites
from simulator.engine.counting.standing import (
    holds_place,
    left_facts,
    named_by_committee,
    ruled_twice,
)
from simulator.engine.ranking import Selection
from simulator.engine.state import Cand, Draft
from simulator.law import calendar as cal
from simulator.law.calendar import Deadline
from simulator.law.cite import Cite, statute
from simulator.law.machine import Phase
from simulator.law.rules import Finding
from simulator.law.tables import (
    declaration,
    departed_declared,
    party_nominees,
    round_timing,
    tie_steps,
    vacancies,
)
from simulator.law.vocab import DeadlineKind, RulingKind, RunoffStatus, TimerTrigger


def lot_ruling(d: Draft, sel: Selection, cite: Sequence[Cite]) -> None:
    for winner in sel.lot_winners:  # one ruling for each drawing
        d.rule(
            RulingKind.DECIDED_BY_LOT,
            list(cite),
            tie_steps.LOT_WON.format(winner=winner, what=tie_steps.A_TIED_PLACE),
            [winner],
            once=True,
        )
    if sel.tied:  # (those drawn already hold their places: the rest is still tied)
        left = [n for n in sel.tie_pool if n not in sel.lot_winners]
        lot_awaited(d, left, sel.tie_places, cite)


def lot_awaited(
    d: Draft, tied: Sequence[str], places: int, cite: Sequence[Cite], what: str = ""
) -> None:
    """The tie that a drawing of lots must settle before the count goes on, ruled when the count
    reaches it (and again for what is still tied after a drawing): who is tied, for how many
    places, and the provision that sends it to a lot. The result waits for the drawing."""
    d.rule(
        RulingKind.LOT_REQUIRED,
        list(cite),
        tie_steps.LOT_REQUIRED.format(
            tied=", ".join(tied),
            place=what or tie_steps.places(places),
            them=tie_steps.IT_OR_THEM[places == 1],
        ),
        tied,
        once=True,
        seats=places,
    )


def declare(
    d: Draft,
    names: Sequence[str],
    cite: Cite | Sequence[Cite],
    text: str | Callable[[Sequence[str]], str],
    *,
    why: str | None = None,
) -> None:
    """Declare names elected (or nominated in a primary), making seats vacant where a winner
    could not take office; ``why``: the reason they are declared, when it is not the votes they
    polled alone (a lot, the others' leaving, nobody asking for a runoff). ``text`` is the
    ruling's text, or makes it from the names it declares (those who take their places)."""
    ctx = d.ctx
    winners: list[str] = []
    for n in names:
        c = d.cand(n)
        if c is None or c.active:
            winners.append(n)
            continue
        if ctx.nominating and holds_place(d, c):
            continue  # declared before they left: the committee fills the place
        if declare_departed(d, c, why):
            winners.append(n)
    # a ruling names only those it declares (a lot or a runoff completes a partial result)
    already = d.nominated if ctx.nominating else d.elected
    if ctx.nominating:
        for w in winners:
            if w in already and named_by_committee(d, w) and not ruled_twice(d, w):
                consult(
                    d,
                    party_nominees.TWICE,
                    party_nominees.TwiceFacts(by_committee=True),
                    [w],
                    {"name": w},
                )
                d.set(to_nominate=d.to_nominate + 1)
    winners = [w for w in winners if w not in already]
    if not winners:
        return
    if not isinstance(text, str):
        text = text(winners)
    if ctx.nominating:
        d.set(nominated=(*d.nominated, *winners))
        d.rule(RulingKind.NOMINATED, cite, text, winners, once=True)
    else:
        d.set(elected=(*d.elected, *winners))
        d.rule(RulingKind.ELECTED, cite, text, winners, once=True)


def declare_departed(d: Draft, c: Cand, why: str | None) -> bool:
    """The ``declared-left`` table for a departed candidate the count places: True when they
    take the place; else the ruling on it (the office vacant, or the votes disregarded)."""
    n = c.name
    finding = consult(
        d,
        departed_declared.DECLARED_LEFT,
        left_facts(d, c),
        [n],
        {"name": n, "status": c.status},
    )
    if finding.effect is departed_declared.Seat.ELECTED:
        return True
    vacant = finding.effect is departed_declared.Seat.VACANT
    # A seat already declared vacant for this person (a winner who left before the oath,
    # declared again when a lot reopens the decision) is counted once.
    if vacant and not any(
        r.kind is RulingKind.OFFICE_VACANT and n in r.candidates for r in d.rulings
    ):
        d.set(vacant=d.vacant + 1)
    won = (
        departed_declared.POLLED_ENOUGH
        if why is None
        else departed_declared.TO_BE_DECLARED.format(why=why)
    )
    d.rule(
        RulingKind.OFFICE_VACANT if vacant else RulingKind.VOTES_DISREGARDED,
        finding_cites(finding),
        departed_declared.SEAT_WORDS[finding.effect].format(name=n, status=c.status, won=won),
        [n],
        once=True,
    )
    return False


def declare_leaders(
    d: Draft, names: Sequence[str], cite: Cite | Sequence[Cite], reason: str
) -> None:
    d.set(runoff_status=RunoffStatus.NONE, pool=None)
    d.drop_timers(TimerTrigger.RUNOFF_REQUEST_PASSES, TimerTrigger.TIE_WITHDRAWAL_PASSES)
    what = declaration.DECLARED[d.ctx.nominating]
    text = declaration.LEADERS_DECLARED.format(reason=reason, names=", ".join(names), verb=what)
    declare(d, names, cite, text, why=reason)
    d.go(Phase.DECIDED)


def fill_vacancies_if_short(d: Draft, places: int, chosen: Sequence[str]) -> None:
    """The ``empty-seats`` table: places no candidate fills (163-294.1(d))."""
    short = places - len(chosen)
    if short <= 0:
        return
    found = consult(d, vacancies.EMPTY_SEATS, vacancies.SeatsFacts(nominating=d.ctx.nominating))
    if found.effect is vacancies.Seats.VACANT:
        d.set(vacant=d.vacant + short)
        d.rule(
            RulingKind.OFFICE_VACANT,
            [*found.cites, statute(vacancies.FILLED_UNDER)],
            vacancies.SEATS_WORDS[found.effect].format(short=short),
            (),
            once=True,
        )


def ruled_cite(finding: Finding[Any, Any]) -> Cite:
    """The one provision a table's ruling rests on."""
    rule = finding.rule
    assert rule is not None, f"{finding.id}: a ruling of the result tables is always a rule"
    return statute(rule.cite)


def declaration_timing(
    d: Draft, step: round_timing.Step, *, tie_for_first: bool = False
) -> tuple[round_timing.When, Cite]:
    """The ``round-dates`` table: how a date after the declaration is found, and its provision."""
    facts = round_timing.TimingFacts(step, d.ctx.partisan_primary, tie_for_first)
    finding = consult(d, round_timing.TIMING, facts, readings=False)
    return finding.effect, ruled_cite(finding)


def after_declaration(
    d: Draft,
    kind: DeadlineKind,
    when: round_timing.When,
    cite: Cite,
    since: str = round_timing.SINCE[True],
) -> Deadline:
    """A deadline counted from the day the result was declared (G.S. 103-5 moves it); with
    ``NOON_THURSDAY_AFTER_DRAWING``, from now (``since``: what happens now)."""
    declared = (d.declared_at or d.at).astimezone(d.ctx.tz).date()
    # `request_after_lot`: the drawing is now
    if when is round_timing.When.NOON_THURSDAY_AFTER_DRAWING:
        drawn = d.at.astimezone(d.ctx.tz).date()
        return cal.noon_thursday_after(kind, drawn, cite, d.ctx.office, since=since)
    if when is round_timing.When.THIRD_DAY_AFTER:
        return cal.end_of_nth_day_after(kind, declared, 3, cite, d.ctx.office)
    assert when is round_timing.When.NOON_THURSDAY_AFTER
    return cal.noon_thursday_after(kind, declared, cite, d.ctx.office)


def runoff_cite(d: Draft) -> Cite:
    """The ``runoff-right`` table: the provision that gives the next round to those it names."""
    facts = declaration.RightFacts(primary=d.ctx.partisan_primary, group=d.contest.is_group)
    return ruled_cite(consult(d, declaration.RUNOFF_RIGHT, facts))
