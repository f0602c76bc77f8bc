"""Handlers of the canvass, recounts and lots: the board declares the count, recounts it, or
draws lots between tied candidates."""

from __future__ import annotations

from datetime import datetime

import attrs

from simulator.engine.counting.consult import consult, finding_cites
from simulator.engine.counting.decide import decide_first, decide_runoff
from simulator.engine.counting.runoff import count_request_deadline
from simulator.engine.handlers.ballots import settle_deferred
from simulator.engine.handlers.registry import handles
from simulator.engine.handlers.requests import weigh_held_requests
from simulator.engine.rounds import round_start
from simulator.engine.state import Draft
from simulator.law import calendar as cal
from simulator.law.labels import label
from simulator.law.machine import RECOUNTABLE, Phase
from simulator.law.rules import Finding
from simulator.law.tables import canvass, departure_words, tie_steps
from simulator.law.vocab import DeadlineKind, Method, RulingKind, TimerTrigger
from simulator.model.events import CanvassHeld, LotDrawn, RecountHeld


@handles(CanvassHeld)
def on_canvass(d: Draft, e: CanvassHeld) -> None:
    phase = d.phase
    ctx = d.ctx
    this = cal.rounds(ctx.method, ctx.stage)[d.round]
    held = this.kind
    start = round_start(ctx, d.round)
    early = e.at < start
    fixed = this.canvass_of(start.astimezone(ctx.tz).date(), ctx.office, ctx.interp.runoff_canvass)
    fixed_day = (fixed.moved_from or fixed.due).astimezone(ctx.tz).date()
    before = not early and e.at.astimezone(ctx.tz).date() < fixed_day
    facts = canvass.CanvassFacts(ctx.method, held, early, before_its_day=before)
    # the ``canvass`` table's gap: said, with the day the law fixes, then declared anyway
    fields = {"day": fixed_day.isoformat()} if before else None
    found = consult(d, canvass.CANVASS, facts, (), fields, readings=before)
    # when the result is declared: when the canvass is held, or (`canvass_before_its_day`) as of the
    # day the law fixes, so that the deadlines counted from the declaration count from that day
    declared = (
        fixed.moved_from or fixed.due if found.effect is canvass.Canvassed.AS_OF_ITS_DAY else e.at
    )
    if found.effect is canvass.Canvassed.NOTHING:
        # the ``canvass`` table: nothing to declare; said, so that the event is not lost silently
        day = start.astimezone(ctx.tz).date().isoformat()
        d.rule(
            RulingKind.NO_EFFECT,
            finding_cites(found),
            canvass.BEFORE_THE_ELECTION.format(held=held.value.replace("_", " "), day=day),
            [],
            reason=canvass.BEFORE_THE_ELECTION_REASON,
            once=True,
        )
        return
    if phase in _AWAITING_RETURNS and not d.tallies[d.round] and _names_on_ballot(d):
        # no returns of this round at all, with names on its ballot: there is no count to
        # declare (a tie at zero among everyone on the ballot would be a result nobody voted
        # for); said, and nothing changes. (With no name on the ballot there is nobody to count,
        # and the canvass declares the seats that no candidate can fill.)
        day = start.astimezone(ctx.tz).date().isoformat()
        d.rule(
            RulingKind.NO_EFFECT,
            finding_cites(found),
            canvass.WITHOUT_RETURNS.format(held=label(held), day=day),
            [],
            reason=canvass.WITHOUT_RETURNS_REASON,
        )
        return
    _canvass_on_closed_day(d, e.at)
    if d.deferred:
        settle_deferred(d, departure_words.CANVASSED_FIRST)
    if phase in (Phase.BALLOT, Phase.COUNTING):
        d.set(declared_at=declared)
        count_request_deadline(d)
        decide_first(d)
        weigh_held_requests(d)
    elif phase in (Phase.RUNOFF_COUNTING, Phase.RUNOFF_CALLED):
        d.set(declared_at=declared, before_runoff=(d.elected, d.nominated, d.vacant))
        decide_runoff(d)
    elif phase is Phase.RUNOFF_REQUEST and d.early_requests:
        weigh_held_requests(d)
    elif d.declared_at is not None:
        # the result was declared already: a second canvass declares nothing new, and the
        # deadlines counted from the declaration stay as they are (it was silent)
        first = d.declared_at.astimezone(ctx.tz).strftime("%Y-%m-%d %H:%M")
        # (`canvass_before_its_day`: a canvass held before its day declared the result as of a later
        # time; one held on its day declared it when it was held, under either reading)
        read_as_of = any(
            r.kind is RulingKind.NO_PROVISION
            and r.get("gap") == "canvass-before-its-day"
            and r.get("reading") is not None
            for r in d.rulings
        )
        d.rule(
            RulingKind.CANVASS_REPEATED,
            finding_cites(found),
            canvass.REPEATED.format(when=canvass.DECLARED_WHEN[read_as_of].format(first=first)),
            [],
        )

    # other phases: a canvass with nothing to declare is recorded on the timeline only


#: Where a canvass declares a round's count: one with no returns of that round has none to declare
_AWAITING_RETURNS = frozenset(
    {Phase.BALLOT, Phase.COUNTING, Phase.RUNOFF_CALLED, Phase.RUNOFF_COUNTING}
)


def _names_on_ballot(d: Draft) -> bool:
    """Whether the round being canvassed has a name on its ballot."""
    if d.round > 0:
        return bool(d.runoff_ballot)
    return any(c.on_ballot for c in d.cands)


def _canvass_on_closed_day(d: Draft, at: datetime) -> None:
    """A canvass held on the day its statute fixes (or a later closed day) though the office is
    closed then, before the open day the deadline was moved to: it stands (the ``canvass``
    table reads it as held on its day); the canvass deadline says that it was held then
    (:func:`simulator.law.tables.canvass.held_on_closed_day`), so that the timeline does not
    seem to put the canvass before its day."""
    tz = d.ctx.tz
    day = at.astimezone(tz).date()
    deadlines = list(d.deadlines)
    for i, dl in enumerate(deadlines):
        if (
            dl.kind is DeadlineKind.CANVASS
            and dl.moved_from is not None
            and dl.moved_from.astimezone(tz).date() <= day < dl.due.astimezone(tz).date()
        ):
            note = canvass.held_on_closed_day(day.isoformat())
            if not dl.how.endswith(note):
                deadlines[i] = attrs.evolve(dl, how=dl.how + note)
                d.set(deadlines=tuple(deadlines))
            return


@handles(RecountHeld)
def on_recount(d: Draft, e: RecountHeld) -> None:
    """The ``recount`` table: whether the recount replaces the round's totals."""
    # a recount replaces the totals of a round whose result was declared and declares it again
    if d.phase not in RECOUNTABLE or d.declared_at is None:
        moment = tie_steps.RecountMoment.BEFORE_RESULT
    elif d.phase is Phase.AWAITING_RECOUNT:
        moment = tie_steps.RecountMoment.ORDERED
    else:
        moment = tie_steps.RecountMoment.DECLARED
    finding = consult(d, tie_steps.RECOUNT, tie_steps.RecountFacts(moment), (), {})
    if finding.effect is not tie_steps.Recount.REPLACES:
        d.rule(
            RulingKind.NO_EFFECT,
            finding_cites(finding),
            tie_steps.RECOUNT_WORDS[finding.effect],
            reason=tie_steps.RECOUNT_REASON[finding.effect],
        )
        return
    rnd = d.round
    tallies = list(d.tallies)
    tallies[rnd] = tuple(e.counts)
    # declared again now; not before a declaration made as of a later day (`canvass_before_its_day`:
    # a canvass held before its day declares as of that day, and so does its recount)
    again = max(e.at, d.declared_at or e.at)
    d.set(tallies=tuple(tallies), recounted=True, declared_at=again, lots=())
    d.drop_timers(TimerTrigger.RUNOFF_REQUEST_PASSES, TimerTrigger.TIE_WITHDRAWAL_PASSES)
    if rnd == 0:
        d.set(elected=(), nominated=(), vacant=0, pool=None)
        decide_first(d)
        weigh_held_requests(d)  # the requests held while the recount was awaited
    elif d.before_runoff is not None:
        # the recount replaces the runoff's declaration: who was elected or nominated, and any
        # seat declared vacant, by it (not only those elected from its ballot)
        elected, nominated, vacant = d.before_runoff
        d.set(elected=elected, nominated=nominated, vacant=vacant)
        decide_runoff(d)
    else:
        d.set(elected=tuple(n for n in d.elected if n not in d.runoff_ballot))
        decide_runoff(d)


@handles(LotDrawn)
def on_lot(d: Draft, e: LotDrawn) -> None:
    """The ``lot`` table: whether the drawing decides the tie that awaits one."""
    if d.phase is not Phase.AWAITING_LOT:
        found = consult(
            d,
            tie_steps.LOT,
            tie_steps.LotFacts(pending=False, runoff_method=d.ctx.method is Method.RUNOFF),
        )
        _lot_decides_nothing(d, found, e.winner)
        return
    before = len(d.rulings)
    d.set(lots=(*d.lots, e.winner))
    if d.round == 0:
        decide_first(d)
        weigh_held_requests(d)  # the requests held while the drawing was awaited
    else:
        decide_runoff(d)
    # the drawing named nobody the pending tie could give a place to
    among = d.phase is not Phase.AWAITING_LOT or any(
        e.winner in r.candidates for r in d.rulings[before:]
    )
    found = consult(
        d,
        tie_steps.LOT,
        tie_steps.LotFacts(
            pending=True, among_tied=among, runoff_method=d.ctx.method is Method.RUNOFF
        ),
    )
    if found.effect is tie_steps.Lot.NOT_TIED:
        d.set(lots=d.lots[:-1])
        _lot_decides_nothing(d, found, e.winner)


def _lot_decides_nothing(
    d: Draft, found: Finding[tie_steps.LotFacts, tie_steps.Lot], winner: str
) -> None:
    """A drawing the ``lot`` table finds decides nothing: said, with the reason."""
    d.rule(
        RulingKind.NO_EFFECT,
        finding_cites(found),
        tie_steps.LOT_WORDS[found.effect].format(winner=winner),
        [winner],
        reason=found.effect.value,
    )
