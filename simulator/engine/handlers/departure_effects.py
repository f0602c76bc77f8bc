"""What each effect of the ``departures`` table does to a contest: one small function per
:class:`~simulator.law.tables.departures.EffectKind`, registered beside it with
:func:`applies`, the way event handlers are registered with ``@handles``.

The table decides which effects follow a departure and carries their citations (and, where the
wording depends on the rule, their words); what each ruling says is the law's
(:mod:`simulator.law.tables.departure_words`). The functions here only apply the effects, and
give the words the names, the dates and the numbers the replay worked out.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import attrs

from simulator.engine.counting.consult import consult
from simulator.engine.state import ACTIVE, AtReopenedClose, Draft, Window
from simulator.law import calendar as cal
from simulator.law.machine import Phase
from simulator.law.tables import departure_words, departures
from simulator.law.tables.departure_facts import ELECTION_OR_AFTER, Facts
from simulator.law.vocab import RulingKind, Stage, TimerTrigger, WindowKind

EffectKind = departures.EffectKind
Effect = departures.Effect


@attrs.frozen
class Departure:
    """The departure an effect applies to: who left, how (``verb``: "died"), the facts the table
    read, and the moment a reopened period counts from (``notice``); ``noticed``, when the board
    learned of the departure before that (a reopening it decides later, on its reprint
    determination), is said in the ruling."""

    name: str
    verb: str
    facts: Facts
    notice: datetime
    noticed: datetime | None = None


#: What an effect of one kind does
Applier = Callable[[Draft, Effect, Departure], None]

#: The function that applies each kind of effect
APPLIERS: dict[EffectKind, Applier] = {}


def applies(kind: EffectKind) -> Callable[[Applier], Applier]:
    """Register the decorated function as what an effect of ``kind`` does (one per kind)."""

    def decorate(apply: Applier) -> Applier:
        if kind in APPLIERS:
            raise ValueError(f"{kind} already has a function that applies it")
        APPLIERS[kind] = apply
        return apply

    return decorate


def apply_effect(d: Draft, eff: Effect, left: Departure) -> None:
    """Apply one effect of the ``departures`` table."""
    APPLIERS[eff.kind](d, eff, left)


def _words(eff: Effect, left: Departure, **given: object) -> str:
    """What the ruling on ``eff`` says (the law's words, given what the replay worked out)."""
    return departure_words.ruling(eff, left.facts, left.name, left.verb, **given)


@applies(EffectKind.NAME_REMOVED)
def _name_removed(d: Draft, eff: Effect, left: Departure) -> None:
    d.update_cand(left.name, on_ballot=False, counted=False)
    d.rule(RulingKind.NAME_REMOVED, eff.cites, _words(eff, left), [left.name])


def _reprint_would_remove(d: Draft, f: Facts) -> bool:
    """Whether a determination that there is time to reprint would take the name off."""
    found = attrs.evolve(f, reprint=True)
    return any(
        e.kind is EffectKind.NAME_REMOVED for e in consult(d, departures.TABLE, found).effect(found)
    )


@applies(EffectKind.NAME_REMAINS)
def _name_remains(d: Draft, eff: Effect, left: Departure) -> None:
    f, name = left.facts, left.name
    d.update_cand(name, on_ballot=True)
    if f.reprint is None and f.printed_at_notice:
        d.set(awaiting_reprint=(*d.awaiting_reprint, name))
        if _reprint_would_remove(d, f):
            # the board must first determine whether there is time to reprint
            # (163-294.1(b), 163-294.4(b)-(c)): the ruling waits for that determination
            d.set(deferred=(*d.deferred, (name, eff.cites, left.verb, left.notice)))
            return
    deadline = None  # 163-106(e)'s, which the ruling names where the withdrawal came after it
    if d.original_close is not None:
        ctx = d.ctx
        deadline = cal.party_withdrawal_deadline(d.original_close, ctx.office).astimezone(ctx.tz)
    d.rule(RulingKind.NAME_REMAINS, eff.cites, _words(eff, left, deadline=deadline), [name])


@applies(EffectKind.NOMINATION_ENDS)
def _nomination_ends(d: Draft, eff: Effect, left: Departure) -> None:
    name = left.name
    d.set(nominated=tuple(n for n in d.nominated if n != name))
    d.rule(RulingKind.NAME_REMOVED, eff.cites, _words(eff, left), [name])


@applies(EffectKind.INEFFECTIVE)
def _ineffective(d: Draft, eff: Effect, left: Departure) -> None:
    # G.S. 163-106(e): a withdrawal after the deadline leaves the candidacy standing
    d.update_cand(left.name, status=ACTIVE, off_at=None, on_ballot=True, counted=True)


@applies(EffectKind.NOT_COUNTED)
def _not_counted(d: Draft, eff: Effect, left: Departure) -> None:
    d.update_cand(left.name, counted=False)
    d.rule(RulingKind.VOTES_DISREGARDED, eff.cites, _words(eff, left), [left.name])


@applies(EffectKind.VACANT_IF_ELECTED)
def _vacant_if_elected(d: Draft, eff: Effect, left: Departure) -> None:
    name = left.name
    if name in d.elected and left.facts.when == ELECTION_OR_AFTER:
        d.set(elected=tuple(n for n in d.elected if n != name), vacant=d.vacant + 1)
        d.rule(RulingKind.OFFICE_VACANT, eff.cites, _words(eff, left), [name])
    elif d.cand(name) is not None:
        d.update_cand(name, vacant_if_elected=eff.cite)


@applies(EffectKind.RESULT_STANDS)
def _result_stands(d: Draft, eff: Effect, left: Departure) -> None:
    d.rule(RulingKind.RESULT_STANDS, eff.cites, _words(eff, left), [left.name])


@applies(EffectKind.VACANT_NOW)
def _vacant_now(d: Draft, eff: Effect, left: Departure) -> None:
    d.rule(RulingKind.OFFICE_VACANT, eff.cites, _words(eff, left), [left.name])


@applies(EffectKind.REOPEN)
def _reopen(d: Draft, eff: Effect, left: Departure) -> None:
    ctx = d.ctx
    cite, notice, noticed = eff.cite, left.notice, left.noticed
    # the day-counting reading: the period counts from the notice of the death
    opens, close = cal.reopened_period(notice, eff.days, cite, ctx.office)
    d.set(windows=(*d.windows, Window(opens, close.due, cite, WindowKind.REOPENED)))
    d.deadline(close)
    d.timer(close.due, TimerTrigger.REOPENED_FILING_CLOSES)
    # a determination after the notice: said where counting from the notice would differ
    later = (
        noticed is not None and cal.reopened_period(noticed, eff.days, cite, ctx.office)[0] != opens
    )
    text = _words(
        eff,
        left,
        opens=opens,
        closes=close.due,
        moved_from=close.moved_from.date() if close.moved_from else None,
        why_moved=close.why_moved,
        notice=notice.astimezone(ctx.tz) if later else None,
        noticed=noticed.astimezone(ctx.tz) if later and noticed is not None else None,
    )
    d.rule(RulingKind.FILING_REOPENED, eff.cites, text, [left.name], opens=opens, closes=close.due)
    d.go(Phase.FILING_REOPENED)


@applies(EffectKind.CERTIFY_IF_NONE)
def _certify_if_none(d: Draft, eff: Effect, left: Departure) -> None:
    d.set(after_reopen=AtReopenedClose.CERTIFY_IF_NOBODY_FILED)


@applies(EffectKind.CERTIFY)
def _certify(d: Draft, eff: Effect, left: Departure) -> None:
    name, verb = left.name, left.verb
    if d.phase is Phase.FILING_REOPENED:
        # others may still file: whether a primary is needed is settled when the period closes
        d.update_cand(name, on_ballot=False, counted=False)
        text = departure_words.CERTIFY_WHILE_REOPENED.format(name=name, verb=verb)
        d.rule(RulingKind.NAME_REMOVED, eff.cites, text, [name])
        return
    remaining = d.active_names()
    if remaining:
        d.rule(RulingKind.NOMINEE_CERTIFIED, eff.cites, _words(eff, left), remaining)
    d.rule(RulingKind.PRIMARY_CANCELLED, eff.cites, departure_words.NO_PRIMARY, remaining)
    d.set(nominated=tuple(sorted(remaining)))
    d.go(Phase.DECIDED)


@applies(EffectKind.CANCEL_PRIMARY)
def _cancel_primary(d: Draft, eff: Effect, left: Departure) -> None:
    remaining = d.active_names()
    d.rule(RulingKind.PRIMARY_CANCELLED, eff.cites, _words(eff, left), remaining)
    d.rule(RulingKind.NOMINATED, eff.cites, departure_words.NOMINATED_WITHOUT_PRIMARY, remaining)
    d.set(nominated=tuple(sorted(remaining)))
    d.go(Phase.DECIDED)


@applies(EffectKind.PARTY_TO_NOMINATE)
def _party_to_nominate(d: Draft, eff: Effect, left: Departure) -> None:
    ctx, name = d.ctx, left.name
    if left.facts.nominee or ctx.stage is Stage.ELECTION:
        need = 1
        d.set(nominated=tuple(n for n in d.nominated if n != name))
    else:
        need = ctx.contest.seats - len(d.active_names())
    d.set(to_nominate=d.to_nominate + need)
    d.rule(
        RulingKind.PARTY_TO_NOMINATE, eff.cites, _words(eff, left, need=need), [name], seats=need
    )
    if d.phase in (Phase.BALLOT, Phase.DECIDED) or (
        ctx.stage is Stage.PRIMARY and d.phase in (Phase.FILING_REOPENED, Phase.COUNTING)
    ):
        d.go(Phase.AWAITING_NOMINATION)
    # in an election already under way, or a primary still settling another place (a lot,
    # a second primary), the count goes on; the nomination is made whenever it comes


@applies(EffectKind.REPLACEMENT_VOTES)
def _replacement_votes(d: Draft, eff: Effect, left: Departure) -> None:
    d.rule(RulingKind.NAME_REMAINS, eff.cites, _words(eff, left), [left.name])
    d.set(awaiting_reprint=(*d.awaiting_reprint, left.name))
