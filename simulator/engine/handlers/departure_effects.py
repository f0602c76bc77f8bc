"""What each effect of the ``departures`` table does to a contest: one small function per
:class:`~simulator.law.tables.departures.EffectKind`, registered beside it with
:func:`applies`, the way event handlers are registered with ``@handles``.

The table decides which effects follow a departure and carries their citations (and, where the
wording depends on the rule, their words); the functions here only apply them and say so.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, tzinfo

import attrs

from simulator.engine.counting.consult import consult
from simulator.engine.state import ACTIVE, AtReopenedClose, Draft, Window
from simulator.law import calendar as cal
from simulator.law.machine import Phase
from simulator.law.tables import departures, vacancies
from simulator.law.tables.departure_facts import DURING_FILING, ELECTION_OR_AFTER, Facts
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


@applies(EffectKind.NAME_REMOVED)
def _name_removed(d: Draft, eff: Effect, left: Departure) -> None:
    f = left.facts
    d.update_cand(left.name, on_ballot=False, counted=False)
    if f.when == DURING_FILING:
        why = "filing is still open"
    elif f.printed_at_notice:
        why = "the ballots will be reprinted"
    else:
        why = "the ballots are not yet printed"
    d.rule(
        RulingKind.NAME_REMOVED,
        eff.cites,
        f"{left.name} {left.verb}; {why}, so the name is not on the ballot",
        [left.name],
    )


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
    when = " after the ballots were printed" if f.printed_at_notice else ""
    why = eff.text or "the ballots are not reprinted"
    due = ""
    if f.past_party_withdrawal and d.original_close is not None:
        ctx = d.ctx
        at = cal.party_withdrawal_deadline(d.original_close, ctx.office).astimezone(ctx.tz)
        due = f", here {at:%Y-%m-%d %H:%M}"
    why = why.replace("{deadline}", due)
    d.rule(
        RulingKind.NAME_REMAINS,
        eff.cites,
        f"{name} {left.verb}{when}: {why}, so the name remains on the ballot",
        [name],
    )


@applies(EffectKind.NOMINATION_ENDS)
def _nomination_ends(d: Draft, eff: Effect, left: Departure) -> None:
    name = left.name
    d.set(nominated=tuple(n for n in d.nominated if n != name))
    d.rule(
        RulingKind.NAME_REMOVED,
        eff.cites,
        f"{name} {left.verb} after being declared nominated: no longer a nominee; {eff.text}",
        [name],
    )


@applies(EffectKind.INEFFECTIVE)
def _ineffective(d: Draft, eff: Effect, left: Departure) -> None:
    # G.S. 163-106(e): a withdrawal after the deadline leaves the candidacy standing
    d.update_cand(left.name, status=ACTIVE, off_at=None, on_ballot=True, counted=True)


@applies(EffectKind.NOT_COUNTED)
def _not_counted(d: Draft, eff: Effect, left: Departure) -> None:
    d.update_cand(left.name, counted=False)
    d.rule(
        RulingKind.VOTES_DISREGARDED,
        eff.cites,
        f"votes cast for {left.name} are not counted or considered for any purpose",
        [left.name],
    )


@applies(EffectKind.VACANT_IF_ELECTED)
def _vacant_if_elected(d: Draft, eff: Effect, left: Departure) -> None:
    name = left.name
    if name in d.elected and left.facts.when == ELECTION_OR_AFTER:
        d.set(elected=tuple(n for n in d.elected if n != name), vacant=d.vacant + 1)
        d.rule(
            RulingKind.OFFICE_VACANT,
            eff.cites,
            f"{name}, declared elected, {left.verb} before taking the oath of office: the "
            f"office is vacant, {vacancies.TO_BE_FILLED}",
            [name],
        )
    elif d.cand(name) is not None:
        d.update_cand(name, vacant_if_elected=eff.cite)


@applies(EffectKind.RESULT_STANDS)
def _result_stands(d: Draft, eff: Effect, left: Departure) -> None:
    name = left.name
    d.rule(
        RulingKind.RESULT_STANDS,
        eff.cites,
        f"{name} {left.verb} after the result was declared: {name} was {eff.text}, so the "
        "result stands",
        [name],
    )


@applies(EffectKind.VACANT_NOW)
def _vacant_now(d: Draft, eff: Effect, left: Departure) -> None:
    d.rule(
        RulingKind.OFFICE_VACANT,
        eff.cites,
        f"{left.name} {left.verb} after taking the oath: a vacancy in office, "
        f"{vacancies.FILLED_BY_THE_BOARD}",
        [left.name],
    )


def _hm(moment: datetime, tz: tzinfo) -> str:
    return moment.astimezone(tz).strftime("%Y-%m-%d %H:%M")


@applies(EffectKind.REOPEN)
def _reopen(d: Draft, eff: Effect, left: Departure) -> None:
    ctx = d.ctx
    cite, notice, noticed = eff.cite, left.notice, left.noticed
    # reading 3: the period counts from the notice of the death
    opens, close = cal.reopened_period(notice, eff.days, cite, ctx.office)
    d.set(windows=(*d.windows, Window(opens, close.due, cite, WindowKind.REOPENED)))
    d.deadline(close)
    d.timer(close.due, TimerTrigger.REOPENED_FILING_CLOSES)
    moved = (
        f" (moved from {close.moved_from.date()}: {close.why_moved})" if close.moved_from else ""
    )
    later = (
        f"; counted from the board's determination at {_hm(notice, ctx.tz)}, not from "
        f"the notice at {_hm(noticed, ctx.tz)}: a decision opens no period before it was made"
        if noticed is not None
        and cal.reopened_period(noticed, eff.days, cite, ctx.office)[0] != opens
        else ""
    )
    d.rule(
        RulingKind.FILING_REOPENED,
        eff.cites,
        f"{left.name} {left.verb}; the board reopens filing for {eff.days} days, from "
        f"{opens.strftime('%Y-%m-%d %H:%M')} to {close.due.strftime('%Y-%m-%d %H:%M')}"
        + moved
        + later,
        [left.name],
        opens=opens,
        closes=close.due,
    )
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
        d.rule(
            RulingKind.NAME_REMOVED,
            eff.cites,
            f"{name} {verb} while filing is reopened: the name is not on the ballot, and "
            "who is nominated is settled when the reopened period closes",
            [name],
        )
        return
    remaining = d.active_names()
    if remaining:
        d.rule(
            RulingKind.NOMINEE_CERTIFIED,
            eff.cites,
            f"after {name} {verb}, the remaining candidate(s) are certified as the "
            "party's nominee(s)",
            remaining,
        )
    d.rule(RulingKind.PRIMARY_CANCELLED, eff.cites, "no primary is held for this office", remaining)
    d.set(nominated=tuple(sorted(remaining)))
    d.go(Phase.DECIDED)


@applies(EffectKind.CANCEL_PRIMARY)
def _cancel_primary(d: Draft, eff: Effect, left: Departure) -> None:
    remaining = d.active_names()
    d.rule(
        RulingKind.PRIMARY_CANCELLED,
        eff.cites,
        f"after {left.name} {left.verb}, at most two candidates per seat remain: the primary "
        "is not held",
        remaining,
    )
    d.rule(RulingKind.NOMINATED, eff.cites, "declared nominees without a primary", remaining)
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
        RulingKind.PARTY_TO_NOMINATE,
        eff.cites,
        f"after {name} {left.verb}, the party executive committee names {need} nominee(s) "
        f"({departures.PARTY_NOMINATES_UNDER})",
        [name],
        seats=need,
    )
    if d.phase in (Phase.BALLOT, Phase.DECIDED) or (
        ctx.stage is Stage.PRIMARY and d.phase in (Phase.FILING_REOPENED, Phase.COUNTING)
    ):
        d.go(Phase.AWAITING_NOMINATION)
    # in an election already under way, or a primary still settling another place (a lot,
    # a second primary), the count goes on; the nomination is made whenever it comes


@applies(EffectKind.REPLACEMENT_VOTES)
def _replacement_votes(d: Draft, eff: Effect, left: Departure) -> None:
    name = left.name
    d.rule(
        RulingKind.NAME_REMAINS,
        eff.cites,
        f"{name} {left.verb} after the ballots were printed "
        f"({departures.reprint_words(left.facts)}): they are not reprinted, and votes for "
        f"{name} will count for the replacement nominee",
        [name],
    )
    d.set(awaiting_reprint=(*d.awaiting_reprint, name))
