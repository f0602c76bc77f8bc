"""Handlers of the filing events: the period opens, closes or is extended, and notices of
candidacy are filed (G.S. 163-291, 163-294.2) or refused."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

import attrs

from simulator.engine.counting.consult import consult, finding_cites
from simulator.engine.handlers.registry import handles
from simulator.engine.state import Cand, Draft, Window
from simulator.engine.timers import on_filing_closes
from simulator.law import calendar as cal
from simulator.law.cite import Cite, statute
from simulator.law.machine import Phase
from simulator.law.rules import Finding
from simulator.law.tables import filing
from simulator.law.tables.count import LEFT_VERB
from simulator.law.vocab import (
    CandStatus,
    DeadlineKind,
    Method,
    RulingKind,
    TimerTrigger,
    WindowKind,
)
from simulator.model.events import CandidateFiled, FilingClosed, FilingExtended, FilingOpened


@handles(FilingOpened)
def on_filing_opened(d: Draft, e: FilingOpened) -> None:
    w = d.windows[0]
    if w.kind is WindowKind.ORIGINAL and d.phase is Phase.FILING:
        if e.at > w.closes:
            _no_effect(d, w, filing.OPENS_AFTER_IT_CLOSED.format(closes=w.closes))
            return
        d.set(windows=(attrs.evolve(w, opens=e.at), *d.windows[1:]))


def _no_effect(d: Draft, w: Window, why: str) -> None:
    """An opening or close of the filing period that cannot take effect at its time: said, and
    nothing changes (the period stays as it was)."""
    d.rule(
        RulingKind.NO_EFFECT,
        w.cite,
        filing.OUT_OF_ORDER.format(why=why, opens=w.opens, closes=w.closes),
        reason=filing.OUT_OF_ORDER_REASON,
    )


@handles(FilingClosed)
def on_filing_closed(d: Draft, e: FilingClosed) -> None:
    if d.phase is not Phase.FILING:
        return
    w = d.windows[0]
    if e.at < w.opens:
        _no_effect(d, w, filing.CLOSES_BEFORE_IT_OPENED.format(opens=w.opens))
        return
    d.set(windows=(attrs.evolve(w, closes=e.at), *d.windows[1:]), original_close=e.at)
    d.drop_timers(TimerTrigger.FILING_CLOSES)
    on_filing_closes(d)


def _window_for(d: Draft, at: datetime) -> Window | None:
    windows: tuple[Window, ...] = d.windows
    for w in windows:
        if w.opens <= at <= w.closes:
            return w
    return None


@handles(CandidateFiled)
def on_candidate_filed(d: Draft, e: CandidateFiled) -> None:
    """A notice of candidacy: the ``notice`` table of :mod:`simulator.law.tables.filing` (with the
    ``filing-fee`` table for the amount paid) decides whether it is accepted."""
    ctx = d.ctx
    name = e.candidate
    existing = d.cand(name)
    contest = d.contest
    fee = Decimal(e.fee) if e.fee is not None else None
    fee_facts = _fee_facts(d, fee) if fee is not None else None
    fee_finding = consult(d, filing.FEE, fee_facts) if fee_facts is not None else None
    w: Window | None
    if ctx.lists_nominees:
        # The candidates of an election after a primary are the nominees: their notices are
        # recorded, not checked against the filing period (the primary contest did that).
        later = [x for x in d.windows if x.kind is not WindowKind.ORIGINAL]
        w = d.windows[0]
        if later and e.at > later[0].opens:
            w = _window_for(d, e.at)
    else:
        w = _window_for(d, e.at)
    facts = filing.NoticeFacts(
        partisan=ctx.method is Method.PARTISAN,
        already_filed=existing is not None and existing.active,
        departed=existing is not None
        and (
            existing.status in (CandStatus.DIED, CandStatus.DISQUALIFIED)
            or existing.barred is not None
        ),
        other_office=e.index in ctx.barred,
        wrong_party=(
            ctx.partisan_primary
            and e.party is not None
            and contest.party is not None
            and e.party.strip().upper() != contest.party.strip().upper()
        ),
        fee_short=fee_finding is not None and fee_finding.effect is filing.FeeEffect.REJECTED,
        lists_nominees=ctx.lists_nominees,
        election_day=ctx.lists_nominees and e.at >= ctx.election_start,
        in_period=w is not None,
    )
    finding = consult(d, filing.NOTICE, facts)
    answer = finding.effect
    if answer.reaches_fee and fee_facts is not None and fee is not None:
        fee_finding = consult(d, filing.FEE, fee_facts, [name], {"name": name, "fee": fee})
    if answer is filing.Notice.ACCEPTED:
        assert w is not None
        cand = Cand(name, e.party, e.at, reopened=w.kind is not WindowKind.ORIGINAL)
        if existing is None:
            d.add_cand(cand)
        else:  # filing again after a withdrawal: the new notice takes the old one's place
            d.set(cands=(*(c for c in d.cands if c.name != name), cand))
        return
    _reject_notice(d, e, finding, existing, fee, fee_finding)


def _reject_notice(
    d: Draft,
    e: CandidateFiled,
    finding: Finding[filing.NoticeFacts, filing.Notice],
    existing: Cand | None,
    fee: Decimal | None,
    fee_finding: Finding[filing.FeeFacts, filing.FeeEffect] | None,
) -> None:
    """A notice the ``notice`` table refuses: the ruling says why."""
    name, contest, ctx, answer = e.candidate, d.contest, d.ctx, finding.effect
    cites = finding_cites(finding)
    reason = answer.value
    words = filing.NOTICE_WORDS[answer]
    fields: dict[str, object] = {"name": name}
    if answer is filing.Notice.DEPARTED:
        assert existing is not None
        how = existing.barred or existing.status  # (a death after a withdrawal: died)
        fields["verb"] = LEFT_VERB[how]
        reason = f"candidate {how}"
    elif answer is filing.Notice.OTHER_OFFICE and e.index in ctx.together:
        words = filing.AT_THE_SAME_MOMENT
    elif answer is filing.Notice.WRONG_PARTY:
        fields |= {"party": e.party, "primary": contest.party}
    elif answer is filing.Notice.FEE_SHORT:
        assert fee is not None and fee_finding is not None
        fixed = contest.filing_fee
        owed = fixed if fixed is not None else filing.MINIMUM_FEE
        fields |= {"fee": fee, "owed": owed, "what": filing.FEE_OWED[fixed is not None]}
        cites = finding_cites(fee_finding)
    elif answer is filing.Notice.OUTSIDE_PERIOD:
        cites, fields["windows"] = _outside_every_period(d)
    d.rule(RulingKind.FILING_REJECTED, cites, words.format_map(fields), [name], reason=reason)


def _outside_every_period(d: Draft) -> tuple[list[Cite], str]:
    """A notice outside every filing period: the period it missed, and the periods there were."""
    fmt = "%Y-%m-%d %H:%M"
    windows = "; ".join(
        f"{x.kind} {x.opens.strftime(fmt)} to {x.closes.strftime(fmt)}" for x in d.windows
    )
    last = d.windows[-1] if d.phase is not Phase.FILING else d.windows[0]
    # the period the notice missed names its own subsection (163-291(2)a in a census
    # year, 163-294.4(a) for an extension, say)
    cites = [last.cite]
    if last.kind is WindowKind.ORIGINAL:
        cites = [
            next(
                (dl.cites[0] for dl in d.deadlines if dl.kind is DeadlineKind.FILING_CLOSES),
                last.cite,
            )
        ]
    return cites, windows


def _fee_facts(d: Draft, fee: Decimal) -> filing.FeeFacts | None:
    """The facts of the ``filing-fee`` table (G.S. 163-291(3)), or None when it has nothing to
    decide."""
    fixed = d.contest.filing_fee
    facts = filing.FeeFacts(
        partisan_primary=d.ctx.method is Method.PARTISAN,
        fixed=fixed is not None,
        below_fixed=fixed is not None and fee < fixed,
        below_minimum=fee < filing.MINIMUM_FEE,
    )
    return facts if filing.fee_asked(facts) else None


@handles(FilingExtended)
def on_filing_extended(d: Draft, e: FilingExtended) -> None:
    """The board extends filing: the ``filing-extension`` table says whether it may."""
    ctx = d.ctx
    # the provision of the five days: the table's rule that extends filing
    cite = statute(
        next(r.cite for r in filing.EXTENSION.rules if r.effect is filing.Extension.EXTENDED)
    )
    close = d.original_close
    # a nonpartisan primary with too few candidates was decided at the close (163-294(a)); the
    # extension reopens that decision
    undecided_primary = ctx.nonpartisan_primary and d.phase is Phase.DECIDED and not any(d.tallies)
    ext = cal.extended_close(close or e.at, cite, ctx.office)
    facts = filing.ExtensionFacts(
        partisan=ctx.method is Method.PARTISAN,
        expired=close is not None and e.at > close,
        all_filled=(d.filed_at_close or 0) >= ctx.contest.seats,
        moved_on=d.phase is not Phase.BALLOT and not undecided_primary,
        late=e.at > ext.due,
    )
    finding = consult(d, filing.EXTENSION, facts)
    answer = finding.effect
    refused = filing.EXTENSION_REFUSED.get(answer)
    why = (
        None
        if refused is None
        else refused.format(phase=d.phase.value, ends=ext.due.strftime("%Y-%m-%d %H:%M"))
    )
    if why is not None:
        d.rule(
            RulingKind.FILING_REJECTED,
            finding_cites(finding),
            filing.CANNOT_EXTEND.format(why=why),
            reason=answer.value,
        )
        return
    assert close is not None
    if undecided_primary:
        d.set(nominated=())
    d.set(windows=(*d.windows, Window(close, ext.due, cite, WindowKind.EXTENDED)))
    d.deadline(ext)
    d.timer(ext.due, TimerTrigger.EXTENDED_FILING_CLOSES)
    d.rule(
        RulingKind.FILING_EXTENDED,
        cite,
        filing.EXTENDED.format(ends=ext.due),
        opens=close,
        closes=ext.due,
    )
    d.go(Phase.FILING_EXTENDED)
