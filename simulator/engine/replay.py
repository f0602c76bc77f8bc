"""The replay engine: a pure fold of the event log into one state machine per contest.

``step(state, event) -> state`` is dispatched on the event's type; ``replay`` folds it over the
log, contest by contest. Time comes only from the events and from an explicit ``as_of``: before
each event the contest's timers (statutory deadlines for optional acts) that fell due are fired,
and at the end of the log either every remaining timer passes unused (the whole story, docs/cli.md)
or only those due before ``as_of`` do.

Each step works on a private mutable draft of the contest's frozen state and returns a new frozen
state; the old state is never changed, so any intermediate state can be kept, compared or forked.
Every phase change is checked against the transition table in :mod:`simulator.law.machine`.

This module holds the fold, the timers, and the event handlers for filing and for candidates who
leave; :mod:`simulator.engine.state` holds the state types and :mod:`simulator.engine.counting`
what each
method declares once the votes are counted.

Hot path: runs of ``votes_cast`` and ``returns_reported`` events that only add to the current
round's tally are summed in a plain dict and merged into the state in one step. A run ends before
any other event, before the contest's next timer, before the vote that starts the count on the
round's day, and before any vote that needs a ruling, so it is the same fold, done in bulk
(``replay(..., batched=False)`` is the reference it is tested against).
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import gc
import itertools
import operator
from collections import Counter
from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import attrs

from simulator.engine.counting import (
    answer_held_demands,
    ballot_final,
    call_runoff,
    cannot_be_nominated,
    consult,
    decide_first,
    decide_runoff,
    declare_leaders,
    finding_cites,
    group_best_left_in_window,
    leader_left_in_window,
    round_name,
    settle_tie,
    tie_withdrawal,
)
from simulator.engine.ranking import ranked
from simulator.engine.result import (
    ContestResult,
    Made,
    Outcome,
    Period,
    Result,
    Ruling,
    TimelineEntry,
    periods_of,
)
from simulator.engine.state import (
    ACTIVE,
    FAR_FUTURE,
    Cand,
    Context,
    Draft,
    Log,
    Pool,
    State,
    Window,
    WouldChange,
    blind_draft,
    initial_state,
    new_draft,
    stage_day,
)
from simulator.law import calendar as cal
from simulator.law.calendar import OfficeCalendar
from simulator.law.cite import Cite, statute
from simulator.law.machine import Phase
from simulator.law.rules import Finding, Verdict
from simulator.law.tables import (
    canvass,
    counted_votes,
    departed_declared,
    party_nominees,
    repeat_notice,
    runoff_requests,
    tie_steps,
    vacancies,
)
from simulator.law.tables import count as count_order
from simulator.law.tables import departures as cg
from simulator.law.tables import filing as fr
from simulator.law.tables.departures import EffectKind as EK
from simulator.law.vocab import (
    CandStatus,
    DeadlineKind,
    Method,
    Pending,
    RulingKind,
    RunoffStatus,
    Stage,
    TimerTrigger,
    WindowKind,
)
from simulator.model.eventlog import EventLog, VoteColumns
from simulator.model.events import (
    WRITE_IN_GENERIC,
    BallotsPrinted,
    CandidateDied,
    CandidateDisqualified,
    CandidateFiled,
    CandidateWithdrew,
    CanvassHeld,
    Event,
    FilingClosed,
    FilingExtended,
    FilingOpened,
    LotDrawn,
    NomineeNamed,
    OathTaken,
    RecountHeld,
    ReprintDetermined,
    ReturnsReported,
    RunoffRequested,
    VotesCast,
    is_write_in,
)
from simulator.model.scenario import Contest, Scenario

K = RulingKind
DK = DeadlineKind
TT = TimerTrigger


# ----------------------------------------------------------------------------------------
# Timers
# ----------------------------------------------------------------------------------------


def fire_timers(state: State, ctx: Context, until: datetime, seq: int) -> State:
    """Fire every timer due strictly before ``until`` (an act at the deadline is in time)."""
    while state.timers and state.timers[0].due < until:
        t = state.timers[0]
        d = new_draft(state, ctx, t.due, seq, t.trigger.value)  # the path keeps plain names
        d.set(timers=state.timers[1:])
        _TIMER_HANDLERS[t.trigger](d)
        state = d.freeze()
    return state


def on_filing_closes(d: Draft) -> None:
    """The original filing period ends (or the board closes it)."""
    ctx = d.ctx
    active = d.active_names()
    d.set(filed_at_close=len(active))
    n = d.contest.seats
    if not (ctx.partisan_primary or ctx.nonpartisan_primary):
        d.go(Phase.BALLOT)
        return
    facts = fr.CloseFacts(
        party=ctx.partisan_primary,
        few=len(active) <= (n if ctx.partisan_primary else 2 * n),
    )
    finding = fr.CLOSE.evaluate(facts)
    cites = finding_cites(finding)
    if finding.effect is fr.Primary.PARTY_NOMINEES:
        d.rule(
            K.PRIMARY_CANCELLED,
            cites,
            f"{len(active)} candidate(s) for {n} place(s): no primary is held",
            active,
        )
        if active:
            d.rule(
                K.NOMINEE_CERTIFIED,
                cites,
                "declared the party's nominee(s) when filing closed",
                active,
            )
    elif finding.effect is fr.Primary.NOMINATED:
        d.rule(
            K.PRIMARY_CANCELLED,
            cites,
            f"{len(active)} candidate(s) for {n} seat(s): at most two per seat, "
            "so no primary is held",
            active,
        )
        if active:
            d.rule(K.NOMINATED, cites, "declared nominated without a primary", active)
    else:
        d.go(Phase.BALLOT)
        return
    d.set(nominated=tuple(sorted(active)))
    d.go(Phase.DECIDED)


def on_reopened_closes(d: Draft) -> None:
    """A reopened filing period ends. In a party primary, as many candidates as places or fewer
    are certified without a primary: 163-112(a) and (c) say so when nobody filed, and G.S. 163-110
    does at the end of any filing period."""
    if d.phase is not Phase.FILING_REOPENED:
        return  # the contest moved on while filing was reopened (a certification, a nomination)
    if any(w.kind == "reopened" and w.closes > d.at for w in d.windows):
        return  # a later death reopened filing again; its own close decides
    ctx = d.ctx
    active = d.active_names()
    new = [c.name for c in d.cands if c.active and c.reopened]
    cite = next(w.cite for w in reversed(d.windows) if w.kind == "reopened")
    close = (
        fr.CLOSE.evaluate(fr.CloseFacts(party=True, few=len(active) <= ctx.contest.seats))
        if ctx.partisan_primary
        else None
    )
    if close is not None and close.effect is fr.Primary.PARTY_NOMINEES:
        if d.after_reopen == "certify" and not new:
            # the contingency rule that reopened filing certifies if nobody files
            cites = [cite]
            why = (
                "nobody filed while filing was reopened: the remaining candidate(s) are "
                "certified as the party's nominee(s)"
            )
        else:
            cites = [cite, *finding_cites(close)]
            why = (
                f"{len(active)} candidate(s) for {ctx.contest.seats} place(s) when the "
                "reopened period closed: declared the party's nominee(s)"
            )
        if active:
            d.rule(K.NOMINEE_CERTIFIED, cites, why, active)
        d.rule(K.PRIMARY_CANCELLED, cites, "no primary is held for this office", active)
        d.set(nominated=tuple(sorted(active)), after_reopen="")
        d.go(Phase.DECIDED)
        return
    d.set(after_reopen="")
    d.go(Phase.BALLOT)


def on_extended_closes(d: Draft) -> None:
    """The five days of G.S. 163-294.4(a) end: the contest goes on as at the close of filing (a
    nonpartisan primary is held only with more than two candidates per seat, 163-294(a))."""
    if d.phase is not Phase.FILING_EXTENDED:
        return
    on_filing_closes(d)


def on_request_passes(d: Draft) -> None:
    pool = d.pool
    assert pool is not None
    if d.phase is Phase.TIE_WITHDRAWAL:
        if pool.kind == "tie_second":  # (d)(1) sets no request deadline
            # the ``tie-window`` table: a tie for second at noon on the Thursday
            settle_tie(d, tie_steps.TieMoment.REQUEST_PASSES)
        return
    if d.phase is not Phase.RUNOFF_REQUEST:
        return  # the contest moved on while the window was open (a contingency rule)
    ctx = d.ctx
    facts = runoff_requests.WindowCloseFacts(
        ctx.partisan_primary, ctx.contest.is_group, bool(pool.requests)
    )
    found = runoff_requests.WINDOW_CLOSE.evaluate(facts)
    if found.effect is runoff_requests.WindowClose.RUNOFF:
        call_runoff(d, pool)
        return
    reason = (
        "the runner-up did not demand a second primary in time"
        if ctx.nominating
        else "no runoff was requested in time"
    )
    declare_leaders(d, pool.leaders, finding_cites(found), reason)


def on_tie_withdrawal_passes(d: Draft) -> None:
    """The three days of a tie end: the ``tie-window`` table says what follows."""
    pool = d.pool
    assert pool is not None
    if pool.kind == "tie_first" or d.phase is Phase.TIE_WITHDRAWAL:
        settle_tie(d, tie_steps.TieMoment.WITHDRAWAL_PASSES)


_TIMER_HANDLERS = {
    TT.FILING_CLOSES: on_filing_closes,
    TT.REOPENED_FILING_CLOSES: on_reopened_closes,
    TT.EXTENDED_FILING_CLOSES: on_extended_closes,
    TT.RUNOFF_REQUEST_PASSES: on_request_passes,
    TT.TIE_WITHDRAWAL_PASSES: on_tie_withdrawal_passes,
}


# ----------------------------------------------------------------------------------------
# Event handlers
# ----------------------------------------------------------------------------------------


def on_filing_opened(d: Draft, e: Event) -> None:
    w = d.windows[0]
    if w.kind == "original" and d.phase is Phase.FILING:
        d.set(windows=(attrs.evolve(w, opens=e.at), *d.windows[1:]))


def on_filing_closed(d: Draft, e: Event) -> None:
    if d.phase is not Phase.FILING:
        return
    w = d.windows[0]
    d.set(windows=(attrs.evolve(w, closes=e.at), *d.windows[1:]), original_close=e.at)
    d.drop_timers(TT.FILING_CLOSES)
    on_filing_closes(d)


def _window_for(d: Draft, at: datetime) -> Window | None:
    windows: tuple[Window, ...] = d.windows
    for w in windows:
        if w.opens <= at <= w.closes:
            return w
    return None


def on_candidate_filed(d: Draft, e: CandidateFiled) -> None:
    """A notice of candidacy: the ``notice`` table of :mod:`simulator.law.tables.filing` (with the
    ``filing-fee`` table for the amount paid) decides whether it is accepted."""
    ctx = d.ctx
    name = e.candidate
    existing = d.cand(name)
    contest = d.contest
    fee = Decimal(e.fee) if e.fee is not None else None
    fee_facts = _fee_facts(d, fee) if fee is not None else None
    fee_finding = fr.FEE.evaluate(fee_facts, chosen=ctx.chosen) if fee_facts is not None else None
    w: Window | None
    if ctx.lists_nominees:
        # The candidates of an election after a primary are the nominees: their notices are
        # recorded, not checked against the filing period (the primary contest did that).
        later = [x for x in d.windows if x.kind != "original"]
        w = d.windows[0]
        if later and e.at > later[0].opens:
            w = _window_for(d, e.at)
    else:
        w = _window_for(d, e.at)
    facts = fr.NoticeFacts(
        partisan=ctx.method is Method.PARTISAN,
        already_filed=existing is not None and existing.active,
        departed=existing is not None
        and (existing.status in (cg.DIED, cg.DISQUALIFIED) or existing.barred is not None),
        other_office=e.index in ctx.barred,
        wrong_party=(
            ctx.partisan_primary
            and e.party is not None
            and contest.party is not None
            and e.party.strip().upper() != contest.party.strip().upper()
        ),
        fee_short=fee_finding is not None and fee_finding.effect is fr.FeeEffect.REJECTED,
        lists_nominees=ctx.lists_nominees,
        election_day=ctx.lists_nominees and e.at >= ctx.election_start,
        in_period=w is not None,
    )
    finding = fr.NOTICE.evaluate(facts)
    answer = finding.effect
    if answer.reaches_fee and fee_facts is not None and fee is not None:
        fee_finding = consult(d, fr.FEE, fee_facts, [name], f"{name} paid ${fee}")
    if answer is fr.Notice.ACCEPTED:
        assert w is not None
        cand = Cand(name, e.party, e.at, reopened=w.kind != "original")
        if existing is None:
            d.add_cand(cand)
        else:  # filing again after a withdrawal: the new notice takes the old one's place
            d.set(cands=(*(c for c in d.cands if c.name != name), cand))
        return
    cites = finding_cites(finding)
    reason = answer.value
    if answer is fr.Notice.DUPLICATE:
        text = f"{name} has already filed for this office"
    elif answer is fr.Notice.DEPARTED:
        assert existing is not None
        how = existing.barred or existing.status  # (a death after a withdrawal: died)
        text = f"{name} {_VERB[how]} and cannot file again"
        reason = f"candidate {how}"
    elif answer is fr.Notice.OTHER_OFFICE:
        text = (
            f"{name} has a notice of candidacy for another office at this election that was "
            "not withdrawn first"
        )
    elif answer is fr.Notice.WRONG_PARTY:
        text = f"{name} filed as {e.party} in the {contest.party} primary"
    elif answer is fr.Notice.FEE_SHORT:
        assert fee is not None and fee_finding is not None
        fixed = contest.filing_fee
        owed = fixed if fixed is not None else fr.MINIMUM_FEE
        what = "the filing fee" if fixed is not None else "the minimum filing fee"
        cites = finding_cites(fee_finding)
        text = f"{name} paid ${fee}, less than {what} of ${owed}"
    elif answer is fr.Notice.ELECTION_DAY:
        text = f"{name} was listed on or after election day"
    else:
        fmt = "%Y-%m-%d %H:%M"
        windows = "; ".join(
            f"{x.kind} {x.opens.strftime(fmt)} to {x.closes.strftime(fmt)}" for x in d.windows
        )
        last = d.windows[-1] if d.phase is not Phase.FILING else d.windows[0]
        # the period the notice missed names its own subsection (163-291(2)a in a census
        # year, 163-294.4(a) for an extension, say)
        cites = [last.cite]
        if last.kind == "original":
            cites = [
                next((dl.cites[0] for dl in d.deadlines if dl.kind is DK.FILING_CLOSES), last.cite)
            ]
        text = f"{name}'s notice came outside every filing period ({windows})"
    d.rule(K.FILING_REJECTED, cites, text, [name], reason=reason)


def _fee_facts(d: Draft, fee: Decimal) -> fr.FeeFacts | None:
    """The facts of the ``filing-fee`` table (G.S. 163-291(3)), or None when it has nothing to
    decide."""
    fixed = d.contest.filing_fee
    facts = fr.FeeFacts(
        partisan_primary=d.ctx.method is Method.PARTISAN,
        fixed=fixed is not None,
        below_fixed=fixed is not None and fee < fixed,
        below_minimum=fee < fr.MINIMUM_FEE,
    )
    return facts if fr.fee_asked(facts) else None


def _facts(d: Draft, name: str, what: str, death: datetime, notice: datetime) -> cg.Facts:
    ctx = d.ctx
    c = d.contest
    phase = d.phase
    if phase in (Phase.FILING,) and notice <= (d.original_close or FAR_FUTURE):
        when = cg.DURING_FILING
    elif notice >= ctx.election_start or death >= ctx.election_start:
        when = cg.ELECTION_OR_AFTER
    else:
        when = cg.BEFORE_ELECTION
    close = d.original_close or FAR_FUTURE
    last_day = cal.thirty_days_after(close, ctx.tz)
    printed = d.printed_at
    if printed is None and d.first_vote_at is not None:
        printed = d.first_vote_at  # votes were cast, so ballots had been printed
    remaining = len([n for n in d.active_names() if n != name])
    filed = d.filed_at_close if d.filed_at_close is not None else remaining + 1
    if ctx.lists_nominees:
        # README: 163-294.4(b)'s "only two filed" is read as "only two nominees on the ballot"
        filed = len([x for x in d.cands if not is_write_in(x.name) and x.replaces is None])
    return cg.Facts(
        method=c.method,
        stage=c.stage,
        what=what,
        when=when,
        seats=c.seats,
        filed_at_close=filed,
        remaining=remaining,
        within_30_by_death=death.astimezone(ctx.tz).date() <= last_day,
        within_30_by_notice=notice.astimezone(ctx.tz).date() <= last_day,
        printed_at_death=printed is not None and printed <= death,
        printed_at_notice=printed is not None and printed <= notice,
        # once votes have been cast on the printed ballots they can no longer be reprinted
        reprint=False if d.first_vote_at is not None else d.reprint,
        nominee=ctx.nominating and name in d.nominated,
        elected=name in d.elected,
        # an oath counts only if it came before the departure: the board may learn of a death
        # after an oath that the dead person can never have taken
        sworn=any(n == name and at <= death for n, at in d.sworn),
        withdrawal_as_death=ctx.interp.withdrawal_as_death,
        late_notice_by_death=ctx.interp.late_notice == "death_date",
    )


_VERB = {cg.DIED: "died", cg.WITHDREW: "withdrew", cg.DISQUALIFIED: "was disqualified"}


def _left_runoff_ballot(d: Draft, name: str, what: CandStatus, death: datetime) -> None:
    """A candidate on a called runoff (or second primary) ballot dies, withdraws or is
    disqualified: the ``left-runoff`` table (a gap: the statutes speak of candidates who leave
    before the first election)."""
    verb = _VERB[what]
    group = d.ctx.contest.is_group
    facts = departed_declared.RunoffLeftFacts(
        nominating=d.ctx.nominating,
        what=count_order.Standing(what),
        group=group,
        crowded=not group and sum(1 for n in d.runoff_ballot if n != name) > 1,
    )
    finding = departed_declared.RUNOFF_LEFT.evaluate(facts, chosen=d.ctx.chosen)
    near = list(finding.cites)
    if finding.effect is departed_declared.RunoffLeft.OTHER_DECLARED:  # reading 21
        d.rule(
            K.NO_PROVISION,
            near,
            f"{name} {verb} after the {round_name(d)} was called: no provision speaks of a "
            f"candidate leaving between the first vote and the {round_name(d)}; the simulator "
            f"falls back to this: {finding.fallback}",
            [name],
            **finding.extra(),
        )
        d.update_cand(name, status=what, off_at=death)
        others = tuple(n for n in d.runoff_ballot if n != name)
        declare_leaders(d, others, near[0], f"{name} {verb}: no {round_name(d)} is held")
        return
    preset = finding.effect.preset
    rule = statute(preset.value) if preset is not departed_declared.Preset.NONE else None
    outcome = (
        f"if {name} polls highest, the office is vacant ({rule})"
        if rule is not None
        else f"{name} cannot be nominated: the nomination goes by the vote to those who can be"
    )
    d.rule(
        K.NO_PROVISION,
        near,
        f"{name} {verb} after the {round_name(d)} was called: no provision speaks of a candidate "
        f"leaving between the first vote and the {round_name(d)}; the simulator falls back to "
        "this: "
        f"the name stays on the printed {round_name(d)} ballot and {outcome}",
        [name],
        gap=finding.id,
    )
    d.update_cand(name, status=what, off_at=death, vacant_if_elected=rule)
    d.rule(
        K.NAME_REMAINS,
        near[-1],
        f"{name} {verb}: the name remains on the {round_name(d)} ballot",
        [name],
    )


_NOTICE_OF = {
    cg.DIED: "the notice of {name}'s death",
    cg.WITHDREW: "{name}'s notice of withdrawal",
    cg.DISQUALIFIED: "the disqualification of {name}",
}


def _repeat_notice(d: Draft, cand: Cand, what: CandStatus) -> None:
    """A notice of death, withdrawal or disqualification for a candidate who has already left
    (outside a tie's three days): the ``repeat-notice`` table."""
    name = cand.name
    facts = repeat_notice.RepeatNoticeFacts(
        notice=count_order.Standing(what),
        before=count_order.Standing(cand.status),
        partisan=d.ctx.method is Method.PARTISAN,
    )
    how = _VERB[cand.status]
    if cand.off_at is not None:
        how += f" on {cand.off_at.astimezone(d.ctx.tz).date().isoformat()}"
    notice = _NOTICE_OF[what].format(name=name)
    found = consult(d, repeat_notice.REPEAT_NOTICE, facts, [name], f"{notice}, after {name} {how}")
    if what is not cg.WITHDREW and cand.status is cg.WITHDREW and cand.barred is None:
        d.update_cand(name, barred=what)  # whatever the table says of the ballot: see Cand
    if found.effect is repeat_notice.RepeatNotice.REJECTED:
        d.rule(
            K.REQUEST_REJECTED,
            finding_cites(found),
            f"{notice} is rejected: {name} {how} and is no longer a candidate",
            [name],
            reason=f"{name} {how}; {found.effect}",
        )


def on_candidate_off(
    d: Draft, name: str, what: CandStatus, death: datetime, notice: datetime
) -> None:
    """A death, withdrawal or disqualification: evaluate the contingency table."""
    cand = d.cand(name)
    if cand is None and what != cg.WITHDREW:
        # not (or no longer) a candidate here: remember it, so a later notice is refused
        d.set(
            cands=(*d.cands, Cand(name, status=what, off_at=death, on_ballot=False, counted=False))
        )
        return
    if cand is None:
        return
    if d.phase is Phase.TIE_WITHDRAWAL and what == cg.WITHDREW:
        tie_withdrawal(d, name)
        return
    if not cand.active:
        _repeat_notice(d, cand, what)
        return
    if (
        d.phase in (Phase.RUNOFF_CALLED, Phase.RUNOFF_COUNTING)
        and name in d.runoff_ballot
        and death < round_start(d.ctx, d.round)
    ):
        # between the first vote and the runoff's day: a gap (see _left_runoff_ballot); on or
        # after the runoff's own day the votes are cast, and the departure is read as one on
        # or after a first election's day (163-294.1(c) for an office; for a second primary,
        # the gap of a candidate who leaves after the primary day)
        _left_runoff_ballot(d, name, what, death)
        return
    facts = _facts(d, name, what, death, notice)
    finding = cg.TABLE.evaluate(facts)
    verb = _VERB[what]
    effects = finding.effect(facts)
    if finding.gap is not None:
        # a gap of the statutes: cite the nearest sections and say which fallback is used
        g = finding.gap
        d.rule(
            K.NO_PROVISION,
            g.cites,
            f"{name} {verb}: no provision covers these facts ({g.open}); the simulator "
            f"falls back to this: {g.fallback_for(facts)}",
            [name],
            gap=g.id,
        )
        rule_id = g.id
    elif finding.verdict is Verdict.CONFLICT:
        # no rule of the table says which colliding provision is the more specific
        lead = finding.rules[0]
        d.rule(
            K.NO_PROVISION,
            [r.cites[0] for r in finding.rules],
            f"{name} {verb}: the provisions that reach these facts collide ("
            + ", ".join(f"{r.cites[0]} ({r.id})" for r in finding.rules)
            + f"); the simulator falls back to the first in the table, {lead.cites[0]}",
            [name],
            gap=" vs ".join(r.id for r in finding.rules),
            conflict=True,
        )
        rule_id = lead.id
    else:
        assert finding.rule is not None
        rule_id = finding.rule.id
    d.update_cand(name, status=what, off_at=death)
    first = len(d.rulings)
    for eff in effects:
        _apply_effect(d, eff, name, verb, facts, notice, rule_id)
    pool = d.pool
    if (
        d.phase is Phase.RUNOFF_REQUEST
        and d.round == 0
        and pool is not None
        and name in pool.leaders
        and cannot_be_nominated(d, name)
    ):
        # a leader of the primary who left before being declared nominated: the place passes
        # to the next candidate now, and the request window is the next candidates' (the
        # deadline is the same, counted from the canvass)
        d.drop_timers(TT.RUNOFF_REQUEST_PASSES)
        decide_first(d)
    elif d.phase in (Phase.RUNOFF_REQUEST, Phase.TIE_WITHDRAWAL) and leader_left_in_window(d, name):
        # the leader, short of a majority, left after the declaration with the request (or the
        # three days of a tie for second) still open: decided again now, as the canvass decides
        # a departure before it (the ``leader-left`` table), not left to call a runoff with them
        d.drop_timers(TT.RUNOFF_REQUEST_PASSES, TT.TIE_WITHDRAWAL_PASSES)
        decide_first(d)
        assert pool is not None
        _answer_held(d, pool, name)
    elif d.phase is Phase.RUNOFF_REQUEST and group_best_left_in_window(d, name):
        # reading 18 switched: the departed candidate's seat is vacant now; the count is decided
        # again for the seats left, and requests already made are weighed again against it
        assert pool is not None
        d.drop_timers(TT.RUNOFF_REQUEST_PASSES)
        decide_first(d)
        for asked in pool.requests:
            again = d.pool
            if d.phase is Phase.RUNOFF_REQUEST and again is not None:
                _request_in_window(d, asked, d.at, again)
    elif d.phase is Phase.AWAITING_LOT and name in _lot_pool(d):
        # a tied candidate left before the drawing: the count is decided again now, as the
        # drawing would decide it, so the tie tables read who left (a survivor may be the only
        # one left tied, or the departure meets another provision) before any lot is drawn
        if d.round == 0:
            decide_first(d)
        else:
            decide_runoff(d)
    if finding.verdict is Verdict.PRIORITY and len(d.rulings) > first:
        # a conflict settled by the table's priority: shown in the first ruling it produced
        assert finding.rule is not None
        others = ", ".join(f"{r.cites[0]} ({r.id})" for r in finding.others)
        r0 = d.rulings[first]
        note = (
            f" [{others} also reach{'es' if len(finding.others) == 1 else ''} these "
            f"facts; the more specific {finding.rule.cites[0]} ({finding.rule.id}) governs]"
        )
        rulings = d.rulings
        d.set(
            ruling_log=Log(
                [*rulings[:first], attrs.evolve(r0, text=r0.text + note), *rulings[first + 1 :]]
            )
        )


def _answer_held(d: Draft, pool: Pool, left: str) -> None:
    """The demands a tie for second held, answered once the leader's departure has made the
    office vacant (:func:`answer_held_demands`)."""
    vacant = next((r for r in reversed(d.rulings) if r.kind is K.OFFICE_VACANT), None)
    gone = d.cand(left)
    if d.phase is not Phase.DECIDED or pool.kind != "tie_second" or vacant is None or gone is None:
        return
    why = f"{left}, the leader, {_VERB.get(gone.status, 'left')} and the office is vacant"
    answer_held_demands(d, pool, vacant.cites, why)


def _lot_pool(d: Draft) -> tuple[str, ...]:
    """Who the drawing the count waits for is among: the candidates of its last
    ``lot_required`` ruling."""
    for r in reversed(d.rulings):
        if r.kind is K.LOT_REQUIRED:
            return r.candidates
    return ()


def _apply_effect(
    d: Draft, eff: cg.Effect, name: str, verb: str, f: cg.Facts, notice: datetime, rule_id: str
) -> None:
    ctx = d.ctx
    k = eff.kind
    if k is EK.NAME_REMOVED:
        d.update_cand(name, on_ballot=False, counted=False)
        why = (
            "the ballots are not yet printed"
            if not f.printed_at_notice
            else "the ballots will be reprinted"
        )
        if f.when == cg.DURING_FILING:
            why = "filing is still open"
        d.rule(
            K.NAME_REMOVED,
            eff.cites,
            f"{name} {verb}; {why}, so the name is not on the ballot",
            [name],
        )
    elif k is EK.NAME_REMAINS:
        d.update_cand(name, on_ballot=True)
        if f.reprint is None and f.printed_at_notice:
            d.set(awaiting_reprint=(*d.awaiting_reprint, name))
            if _reprint_would_remove(f):
                # the board must first determine whether there is time to reprint
                # (163-294.1(b), 163-294.4(b)-(c)): the ruling waits for that determination
                d.set(deferred=(*d.deferred, (name, eff.cites, verb, notice)))
                return
        when = " after the ballots were printed" if f.printed_at_notice else ""
        why = eff.text or "the ballots are not reprinted"
        d.rule(
            K.NAME_REMAINS,
            eff.cites,
            f"{name} {verb}{when}: {why}, so the name remains on the ballot",
            [name],
        )
    elif k is EK.NOMINATION_ENDS:
        d.set(nominated=tuple(n for n in d.nominated if n != name))
        d.rule(
            K.NAME_REMOVED,
            eff.cites,
            f"{name} {verb} after being declared nominated: no longer a nominee; the "
            "election's ballot is governed by G.S. 163-294.4 and 163-294.1(b)",
            [name],
        )
    elif k is EK.INEFFECTIVE:
        # G.S. 163-106(e): a withdrawal after the deadline leaves the candidacy standing
        d.update_cand(name, status=ACTIVE, off_at=None, on_ballot=True, counted=True)
    elif k is EK.NOT_COUNTED:
        d.update_cand(name, counted=False)
        d.rule(
            K.VOTES_DISREGARDED,
            eff.cites,
            f"votes cast for {name} are not counted or considered for any purpose",
            [name],
        )
    elif k is EK.VACANT_IF_ELECTED:
        c = d.cand(name)
        if name in d.elected and f.when == cg.ELECTION_OR_AFTER:
            d.set(elected=tuple(n for n in d.elected if n != name), vacant=d.vacant + 1)
            d.rule(
                K.OFFICE_VACANT,
                eff.cites,
                f"{name}, declared elected, {verb} before taking the oath of office: the "
                "office is vacant, to be filled under G.S. 160A-63",
                [name],
            )
        elif c is not None:
            d.update_cand(name, vacant_if_elected=eff.cite)
    elif k is EK.VACANT_NOW:
        d.rule(
            K.OFFICE_VACANT,
            eff.cites,
            f"{name} {verb} after taking the oath: a vacancy in office, filled by the "
            "governing body under G.S. 160A-63",
            [name],
        )
    elif k is EK.REOPEN:
        cite = eff.cite
        # reading 3: the period counts from the notice of the death
        opens, close = cal.reopened_period(notice, eff.days, cite, ctx.office)
        d.set(windows=(*d.windows, Window(opens, close.due, cite, WindowKind.REOPENED)))
        d.deadline(close)
        d.timer(close.due, TT.REOPENED_FILING_CLOSES)
        d.rule(
            K.FILING_REOPENED,
            eff.cites,
            f"{name} {verb}; the board reopens filing for {eff.days} days, from "
            f"{opens.strftime('%Y-%m-%d %H:%M')} to {close.due.strftime('%Y-%m-%d %H:%M')}"
            + (
                f" (moved from {close.moved_from.date()}: {close.why_moved})"
                if close.moved_from
                else ""
            ),
            [name],
            opens=opens,
            closes=close.due,
        )
        d.go(Phase.FILING_REOPENED)
    elif k is EK.CERTIFY_IF_NONE:
        d.set(after_reopen="certify")
    elif k is EK.CERTIFY and d.phase is Phase.FILING_REOPENED:
        # others may still file: whether a primary is needed is settled when the period closes
        d.update_cand(name, on_ballot=False, counted=False)
        d.rule(
            K.NAME_REMOVED,
            eff.cites,
            f"{name} {verb} while filing is reopened: the name is not on the ballot, and "
            "who is nominated is settled when the reopened period closes",
            [name],
        )
    elif k is EK.CERTIFY or k is EK.CANCEL_PRIMARY:
        remaining = d.active_names()
        if k is EK.CERTIFY:
            if remaining:
                d.rule(
                    K.NOMINEE_CERTIFIED,
                    eff.cites,
                    f"after {name} {verb}, the remaining candidate(s) are certified as the "
                    "party's nominee(s)",
                    remaining,
                )
            d.rule(K.PRIMARY_CANCELLED, eff.cites, "no primary is held for this office", remaining)
        else:
            d.rule(
                K.PRIMARY_CANCELLED,
                eff.cites,
                f"after {name} {verb}, at most two candidates per seat remain: the primary "
                "is not held",
                remaining,
            )
            d.rule(K.NOMINATED, eff.cites, "declared nominees without a primary", remaining)
        d.set(nominated=tuple(sorted(remaining)))
        d.go(Phase.DECIDED)
    elif k is EK.PARTY_TO_NOMINATE:
        if f.nominee or ctx.stage is Stage.ELECTION:
            need = 1
            d.set(nominated=tuple(n for n in d.nominated if n != name))
        else:
            need = ctx.contest.seats - len(d.active_names())
        d.set(to_nominate=d.to_nominate + need)
        d.rule(
            K.PARTY_TO_NOMINATE,
            eff.cites,
            f"after {name} {verb}, the party executive committee names {need} nominee(s) "
            "(G.S. 163-114; the municipal row of its table is not in our sources)",
            [name],
            seats=need,
        )
        if d.phase in (Phase.BALLOT, Phase.DECIDED) or (
            ctx.stage is Stage.PRIMARY and d.phase in (Phase.FILING_REOPENED, Phase.COUNTING)
        ):
            d.go(Phase.AWAITING_NOMINATION)
        # in an election already under way, or a primary still settling another place (a lot,
        # a second primary), the count goes on; the nomination is made whenever it comes
    elif k is EK.REPLACEMENT_VOTES:
        d.rule(
            K.NAME_REMAINS,
            eff.cites,
            f"{name} {verb} after the ballots were printed ({cg.reprint_words(f)}): they "
            f"are not reprinted, and votes for {name} will count for the replacement "
            "nominee",
            [name],
        )
        d.set(awaiting_reprint=(*d.awaiting_reprint, name))


def on_died(d: Draft, e: CandidateDied) -> None:
    on_candidate_off(d, e.candidate, cg.DIED, e.at, e.notice)


def on_withdrew(d: Draft, e: CandidateWithdrew) -> None:
    on_candidate_off(d, e.candidate, cg.WITHDREW, e.at, e.at)


def on_disqualified(d: Draft, e: CandidateDisqualified) -> None:
    on_candidate_off(d, e.candidate, cg.DISQUALIFIED, e.at, e.at)


def on_filing_extended(d: Draft, e: FilingExtended) -> None:
    """The board extends filing: the ``filing-extension`` table (G.S. 163-294.4(a))."""
    ctx = d.ctx
    # the provision of the five days: the table's rule that extends filing
    cite = statute(next(r.cite for r in fr.EXTENSION.rules if r.effect is fr.Extension.EXTENDED))
    close = d.original_close
    # a nonpartisan primary with too few candidates was decided at the close (163-294(a)); the
    # extension reopens that decision
    undecided_primary = ctx.nonpartisan_primary and d.phase is Phase.DECIDED and not any(d.tallies)
    ext = cal.extended_close(close or e.at, cite, ctx.office)
    facts = fr.ExtensionFacts(
        partisan=ctx.method is Method.PARTISAN,
        expired=close is not None and e.at > close,
        all_filled=(d.filed_at_close or 0) >= ctx.contest.seats,
        moved_on=d.phase is not Phase.BALLOT and not undecided_primary,
        late=e.at > ext.due,
    )
    finding = fr.EXTENSION.evaluate(facts)
    answer = finding.effect
    why = {
        fr.Extension.PARTISAN: "163-294.4(a) applies only to nonpartisan elections",
        fr.Extension.NOT_EXPIRED: "the filing period has not yet expired",
        fr.Extension.ALL_FILLED: "candidates filed for all offices to be filled",
        fr.Extension.MOVED_ON: f"the contest has moved on ({d.phase.value})",
        fr.Extension.FIVE_DAYS_PASSED: (
            f"the five days after the close ended {ext.due.strftime('%Y-%m-%d %H:%M')}"
        ),
    }.get(answer)
    if why is not None:
        d.rule(
            K.FILING_REJECTED,
            finding_cites(finding),
            f"the board cannot extend filing: {why}",
            reason=answer.value,
        )
        return
    assert close is not None
    if undecided_primary:
        d.set(nominated=())
    d.set(windows=(*d.windows, Window(close, ext.due, cite, WindowKind.EXTENDED)))
    d.deadline(ext)
    d.timer(ext.due, TT.EXTENDED_FILING_CLOSES)
    d.rule(
        K.FILING_EXTENDED,
        cite,
        f"candidates have not filed for every office: filing is extended to "
        f"{ext.due.strftime('%Y-%m-%d %H:%M')}",
        opens=close,
        closes=ext.due,
    )
    d.go(Phase.FILING_EXTENDED)


def on_ballots_printed(d: Draft, e: BallotsPrinted) -> None:
    if d.printed_at is None:
        d.set(printed_at=e.at)


def _reprint_would_remove(f: cg.Facts) -> bool:
    """Whether a determination that there is time to reprint would take the name off."""
    found = attrs.evolve(f, reprint=True)
    return any(e.kind is EK.NAME_REMOVED for e in cg.TABLE.evaluate(found).effect(found))


def _settle_deferred(d: Draft, why: str) -> None:
    """Names still waiting for a reprint determination stay on the printed ballots."""
    for name, cites, verb, _ in d.deferred:
        d.rule(
            K.NAME_REMAINS,
            cites,
            f"{name} {verb} after the ballots were printed: {why}, so the ballots are not "
            "reprinted and the name remains",
            [name],
        )
    d.set(deferred=())


#: Where a contest still waits for its first election's (or primary's) ballots: a finding that
#: there is time to reprint them can change them only here
_BEFORE_THE_VOTE = frozenset(
    {
        Phase.FILING,
        Phase.FILING_REOPENED,
        Phase.FILING_EXTENDED,
        Phase.AWAITING_NOMINATION,
        Phase.BALLOT,
    }
)


def on_reprint_determined(d: Draft, e: ReprintDetermined) -> None:
    d.set(reprint=e.enough_time)
    if not e.enough_time:
        _settle_deferred(d, "the board finds there is not enough time to reprint")
        return
    if not d.awaiting_reprint:
        return
    if d.first_vote_at is not None or d.phase not in _BEFORE_THE_VOTE:
        # too late to change a ballot: the votes are cast on the printed ones, or no vote is
        # held any more (a primary cancelled by a later departure, 163-112(d)(3) or
        # 163-294.1(b)); those still waiting keep their names on the printed ballots
        why = (
            "votes were cast on the printed ballots before the board found time to reprint"
            if d.first_vote_at is not None
            else f"the contest was {d.phase.value} before the board found time to reprint"
        )
        _settle_deferred(d, why)
        d.set(awaiting_reprint=())
        return
    names = d.awaiting_reprint
    notices = {name: notice for name, _, _, notice in d.deferred}
    d.set(awaiting_reprint=(), deferred=())
    for name in names:
        c = d.cand(name)
        if c is None or c.active:
            continue
        notice = notices.get(name, e.at)
        facts = _facts(d, name, c.status, c.off_at or e.at, notice)
        facts = attrs.evolve(facts, reprint=True, remaining=len(d.active_names()))
        finding = cg.TABLE.evaluate(facts)
        effects = finding.effect(facts)
        if not any(eff.kind is EK.NAME_REMOVED for eff in effects):
            continue  # the rule keeps the name whatever the board finds (163-112(b), (d)(2))
        d.update_cand(name, vacant_if_elected=None)
        rule_id = finding.rule.id if finding.rule is not None else "fallback"
        for eff in effects:
            if eff.kind in (EK.NAME_REMOVED, EK.REOPEN):
                # reading 3: a reopened period counts from the notice of the death
                _apply_effect(d, eff, name, _VERB[c.status], facts, notice, rule_id)


def on_votes(d: Draft, counts: Mapping[str, int]) -> None:
    """Votes (a batch): add to the current round's tally, or rule them out."""
    if d.deferred:
        _settle_deferred(d, "votes are being cast and no time to reprint was found")
    phase = d.phase
    ctx = d.ctx
    rnd = _TALLYING.get(phase)
    if rnd is None:
        facts = counted_votes.VoteFacts(
            False, False, False, False, False, partisan=ctx.method is Method.PARTISAN
        )
        names = sorted(n for n, v in counts.items() if v)
        d.rule(
            K.VOTES_DISREGARDED,
            finding_cites(counted_votes.VOTES.evaluate(facts)),
            f"votes reported while the contest is {phase.value}: there is no election to "
            "count them in",
            names,
            once=True,
        )
        return
    if d.first_vote_at is None:
        d.set(first_vote_at=d.at)
    ballot = frozenset(d.runoff_ballot) if rnd == 1 else frozenset()
    tally = dict(d.tallies[rnd])
    stray: list[str] = []
    refused: Finding[counted_votes.VoteFacts, counted_votes.Vote] | None = None
    primary, group, partisan = (
        ctx.partisan_primary,
        ctx.contest.is_group,
        ctx.method is Method.PARTISAN,
    )
    for name, n in counts.items():
        finding = _votes_finding(
            primary,
            group,
            partisan,
            rnd == 1,
            name in ballot,
            is_write_in(name),
            d.cand(name) is not None,
        )
        if finding.effect is not counted_votes.Vote.COUNTED:
            if n:
                stray.append(name)
                refused = finding
            continue
        tally[name] = tally.get(name, 0) + n
    tallies = list(d.tallies)
    tallies[rnd] = tuple(tally.items())
    d.set(tallies=tuple(tallies))
    if stray:
        assert refused is not None
        d.rule(
            K.VOTES_DISREGARDED,
            finding_cites(refused),
            "the runoff ballot has only the runoff candidates and no space for write-ins"
            if refused.effect is counted_votes.Vote.OFF_RUNOFF_BALLOT
            else "votes for a person whose notice of candidacy was not accepted",
            sorted(stray),
            once=True,
        )
    # votes before the day (absentee, one-stop) are banked; the count starts on the day
    if d.at >= round_start(d.ctx, d.round):
        d.go(Phase.COUNTING if rnd == 0 else Phase.RUNOFF_COUNTING)


def on_canvass(d: Draft, e: CanvassHeld) -> None:
    phase = d.phase
    ctx = d.ctx
    held = cal.rounds(ctx.method, ctx.stage)[d.round].kind
    start = round_start(ctx, d.round)
    early = e.at < start
    fixed = cal.canvass(
        start.astimezone(ctx.tz).date(), canvass.canvass_cite(ctx.method, held), ctx.office
    )
    fixed_day = (fixed.moved_from or fixed.due).astimezone(ctx.tz).date()
    before = not early and e.at.astimezone(ctx.tz).date() < fixed_day
    facts = canvass.CanvassFacts(ctx.method, held, early, before_its_day=before)
    if before:
        # the ``canvass`` table's gap: said, with the day the law fixes, then declared anyway
        found = consult(
            d, canvass.CANVASS, facts, [], f"a canvass held before its day, {fixed_day.isoformat()}"
        )
    else:
        found = canvass.CANVASS.evaluate(facts)
    if found.effect is canvass.Canvassed.NOTHING:
        # the ``canvass`` table: nothing to declare; said, so that the event is not lost silently
        day = start.astimezone(ctx.tz).date().isoformat()
        d.rule(
            K.REQUEST_REJECTED,
            finding_cites(found),
            f"a canvass dated before the {held.value.replace('_', ' ')} of {day} declares "
            "nothing: the canvass declares the result of an election already held",
            [],
            reason="canvass before the election",
            once=True,
        )
        return
    _canvass_on_closed_day(d, e.at)
    if d.deferred:
        _settle_deferred(d, "no time to reprint was found before the election")
    if phase in (Phase.BALLOT, Phase.COUNTING):
        d.set(declared_at=e.at)
        decide_first(d)
        _apply_early_requests(d)
    elif phase in (Phase.RUNOFF_COUNTING, Phase.RUNOFF_CALLED):
        d.set(declared_at=e.at)
        decide_runoff(d)
    elif phase is Phase.RUNOFF_REQUEST and d.early_requests:
        _apply_early_requests(d)
    elif d.declared_at is not None:
        # the result was declared already: a second canvass declares nothing new, and the
        # deadlines counted from the declaration stay as they are (it was silent)
        first = d.declared_at.astimezone(ctx.tz).strftime("%Y-%m-%d %H:%M")
        d.rule(
            K.REQUEST_REJECTED,
            finding_cites(found),
            f"the result was declared at the canvass of {first}: a second canvass declares "
            "nothing new, and the deadlines counted from that declaration stand",
            [],
            reason="canvass repeated",
        )
    # other phases: a canvass with nothing to declare is recorded on the timeline only


def _canvass_on_closed_day(d: Draft, at: datetime) -> None:
    """A canvass held on the day its statute fixes (or a later closed day) though the office is
    closed then, before the open day G.S. 103-5(a) moved the canvass to: 103-5(a) lets an act
    due on a closed day be done on the next open day, and does not make one done on the day
    itself untimely. The canvass stands; the canvass deadline says that it was held then, so
    that the timeline does not seem to put the canvass before its day."""
    tz = d.ctx.tz
    day = at.astimezone(tz).date()
    deadlines = list(d.deadlines)
    for i, dl in enumerate(deadlines):
        if (
            dl.kind is DK.CANVASS
            and dl.moved_from is not None
            and dl.moved_from.astimezone(tz).date() <= day < dl.due.astimezone(tz).date()
        ):
            note = (
                f"; the board held it on {day.isoformat()}, with the office closed: G.S. "
                f"103-5(a) allows the wait for the next open day and does not require it, so "
                f"the canvass stands"
            )
            if not dl.how.endswith(note):
                deadlines[i] = attrs.evolve(dl, how=dl.how + note)
                d.set(deadlines=tuple(deadlines))
            return


# A recount replaces the totals of a round whose result was declared and declares it again.
RECOUNTABLE = (
    Phase.AWAITING_RECOUNT,
    Phase.RUNOFF_REQUEST,
    Phase.TIE_WITHDRAWAL,
    Phase.AWAITING_LOT,
    Phase.AWAITING_NEW_ELECTION,
    Phase.DECIDED,
)


def on_recount(d: Draft, e: RecountHeld) -> None:
    """The ``recount`` table: whether the recount replaces the round's totals."""
    if d.phase not in RECOUNTABLE or d.declared_at is None:
        moment = tie_steps.RecountMoment.BEFORE_RESULT
    elif d.phase is Phase.AWAITING_RECOUNT:
        moment = tie_steps.RecountMoment.ORDERED
    else:
        moment = tie_steps.RecountMoment.DECLARED
    finding = consult(
        d, tie_steps.RECOUNT, tie_steps.RecountFacts(moment), (), "a recount is reported"
    )
    if finding.effect is not tie_steps.Recount.REPLACES:
        d.rule(
            K.REQUEST_REJECTED,
            finding_cites(finding),
            "a recount before any result was declared has no effect",
            reason="no result to recount",
        )
        return
    rnd = d.round
    tallies = list(d.tallies)
    tallies[rnd] = tuple(e.counts)
    d.set(tallies=tuple(tallies), recounted=True, declared_at=e.at, lots=())
    d.drop_timers(TT.RUNOFF_REQUEST_PASSES, TT.TIE_WITHDRAWAL_PASSES)
    if rnd == 0:
        d.set(elected=(), nominated=(), vacant=0, pool=None)
        decide_first(d)
    else:
        d.set(elected=tuple(n for n in d.elected if n not in d.runoff_ballot))
        decide_runoff(d)


def on_runoff_requested(d: Draft, e: RunoffRequested) -> None:
    """A request for a runoff (a demand for a second primary): the ``request`` table says
    whether it counts; this handler gathers the facts and applies the answer."""
    ctx = d.ctx
    name = e.candidate
    phase = d.phase
    pool = d.pool
    if not ctx.has_runoff:
        under = {Method.PLURALITY: "plurality", Method.PRIMARY: "primary"}.get(
            ctx.method, "partisan"
        )
        _ask(
            d,
            name,
            runoff_requests.RequestFacts(
                runoff_requests.Moment.NO_RUNOFF_METHOD, no_runoff_under=under
            ),
        )
        return
    if phase in (
        Phase.BALLOT,
        Phase.COUNTING,
        Phase.FILING,
        Phase.FILING_REOPENED,
        Phase.FILING_EXTENDED,
    ):
        facts = _request_base(d, runoff_requests.Moment.BEFORE_RESULT, name)
        if _ask(d, name, facts) is runoff_requests.Answer.HELD:
            d.set(early_requests=(*d.early_requests, (name, e.at, e.index)))
        return
    if phase is Phase.AWAITING_LOT and d.round == 0:
        # the count waits for a drawing of lots (for a place, or for who may request): a request
        # made meanwhile is held, as one made before the canvass is, and weighed, at the time it
        # was made, once the drawing has said who may request (it was rejected as if its maker
        # had no right to one, and the leader then declared because nobody had asked)
        d.set(early_requests=(*d.early_requests, (name, e.at, e.index)))
        return
    if phase is Phase.TIE_WITHDRAWAL and pool is not None and pool.kind == "tie_second":
        late = pool.request_due is not None and e.at > pool.request_due
        facts = attrs.evolve(
            _request_base(d, runoff_requests.Moment.TIE_FOR_SECOND, name),
            entitled=name in pool.eligible,
            late=late,
        )
        if _ask(d, name, facts) is not runoff_requests.Answer.ACCEPTED:
            return
        d.set(pool=attrs.evolve(pool, requests=(*pool.requests, name)))
        settle_tie(d, tie_steps.TieMoment.DEMANDED, name)
        return
    if phase is Phase.TIE_WITHDRAWAL and pool is not None:
        _ask(d, name, _request_base(d, runoff_requests.Moment.TIE_FOR_FIRST, name))
        return
    if (
        phase in (Phase.RUNOFF_REQUEST, Phase.RUNOFF_CALLED)
        and pool is not None
        and (pool.kind == "request")
    ):
        _request_in_window(d, name, e.at, pool)
        return
    # The window may be gone (the leader declared when it closed): the deadline still says late.
    dues = [
        dl.due for dl in d.deadlines if dl.kind in (DK.RUNOFF_REQUEST, DK.SECOND_PRIMARY_REQUEST)
    ]
    if pool is not None and pool.request_due is not None:
        dues.append(pool.request_due)
    facts = attrs.evolve(
        _request_base(d, runoff_requests.Moment.CLOSED, name),
        late=bool(dues) and e.at > max(dues),
        called=d.runoff_status in (RunoffStatus.CALLED, RunoffStatus.HELD),
        vacant=d.vacant > 0 and not d.elected,
        # (the first election's deadline was said to have passed: 163-293(f) is what refuses it)
        second_round=not ctx.partisan_primary and d.round >= 1 and phase is not Phase.RUNOFF_CALLED,
    )
    _ask(d, name, facts)


def _request_base(
    d: Draft, moment: runoff_requests.Moment, name: str
) -> runoff_requests.RequestFacts:
    ctx = d.ctx
    c = d.cand(name)
    return runoff_requests.RequestFacts(
        moment,
        primary=ctx.partisan_primary,
        group=ctx.contest.is_group,
        left=c is not None and not c.active,
        early_wait=ctx.interp.early_request != "reject",
    )


def _left_verb(d: Draft, name: str) -> str:
    c = d.cand(name)
    return _VERB.get(c.status, "left the race") if c is not None else "left the race"


def _ask(d: Draft, name: str, facts: runoff_requests.RequestFacts) -> runoff_requests.Answer:
    """Evaluate the ``request`` table; a rejection is ruled with the rule's citation."""
    finding = consult(d, runoff_requests.REQUEST, facts, [name], f"{name}'s request for a runoff")
    answer = finding.effect
    if answer in (runoff_requests.Answer.ACCEPTED, runoff_requests.Answer.HELD):
        return answer
    cites = finding_cites(finding)
    if answer is runoff_requests.Answer.NO_RUNOFF_METHOD:
        text = f"{name} asked for a runoff, but this method has none"
    elif answer is runoff_requests.Answer.PREMATURE:
        text = f"{name}'s request came before the canvass"
    else:
        why = {
            runoff_requests.Answer.LEFT_RACE: (
                f"{name} {_left_verb(d, name)} and is no longer a candidate"
            ),
            runoff_requests.Answer.ALREADY_CALLED: f"the {round_name(d)} is already called"
            if facts.moment is runoff_requests.Moment.CLOSED
            else "a runoff is already called",
        }.get(answer, answer.value)
        text = f"{name}'s request is rejected: {why}"
        reason = "late" if answer is runoff_requests.Answer.LATE else why
        d.rule(K.REQUEST_REJECTED, cites, text, [name], reason=reason)
        return answer
    d.rule(K.REQUEST_REJECTED, cites, text, [name], reason=answer.value)
    return answer


def _request_in_window(d: Draft, name: str, at: datetime, pool: Pool) -> None:
    facts = attrs.evolve(
        _request_base(d, runoff_requests.Moment.WINDOW, name),
        entitled=name in pool.eligible,
        elected_by_majority=name in pool.elected_first,
        late=pool.request_due is not None and at > pool.request_due,
        called=d.phase is Phase.RUNOFF_CALLED,
    )
    if facts.entitled and name in pool.requests and not facts.late:
        return  # the same request again
    if _ask(d, name, facts) is not runoff_requests.Answer.ACCEPTED:
        return
    pool = attrs.evolve(pool, requests=(*pool.requests, name))
    d.set(pool=pool)
    if ballot_final(d, pool):
        call_runoff(d, pool)
    # else (a group, reading 5): other runners-up may still join the ballot until the
    # deadline; the runoff is called with every requester when the window closes.


def _apply_early_requests(d: Draft) -> None:
    """Reading 4: a request filed before the canvass takes effect at it, if entitled."""
    early = d.early_requests
    if not early:
        return
    d.set(early_requests=())
    for name, at, _ in early:
        pool = d.pool
        if d.phase in (Phase.RUNOFF_REQUEST, Phase.RUNOFF_CALLED) and pool is not None:
            # (in time or late as made: one made before the canvass is in time, one held while
            # a drawing of lots was awaited is weighed at its own time)
            _request_in_window(d, name, max(at, d.declared_at or at), pool)
        elif d.phase is Phase.TIE_WITHDRAWAL and pool is not None and pool.kind == "tie_second":
            facts = attrs.evolve(
                _request_base(d, runoff_requests.Moment.TIE_FOR_SECOND, name),
                entitled=name in pool.eligible,
            )
            if _ask(d, name, facts) is runoff_requests.Answer.ACCEPTED:
                # as a demand made now would: it calls the runoff if only its maker is left
                d.set(pool=attrs.evolve(pool, requests=(*pool.requests, name)))
                settle_tie(d, tie_steps.TieMoment.DEMANDED, name)
        elif d.phase is Phase.TIE_WITHDRAWAL and pool is not None:
            _ask(d, name, _request_base(d, runoff_requests.Moment.TIE_FOR_FIRST, name))
        else:
            facts = attrs.evolve(
                _request_base(d, runoff_requests.Moment.CLOSED, name),
                called=d.runoff_status in (RunoffStatus.CALLED, RunoffStatus.HELD),
                vacant=d.vacant > 0 and not d.elected,
            )
            _ask(d, name, facts)


def on_lot(d: Draft, e: LotDrawn) -> None:
    """The ``lot`` table: whether the drawing decides the tie that awaits one."""
    if d.phase is not Phase.AWAITING_LOT:
        found = tie_steps.LOT.evaluate(tie_steps.LotFacts(pending=False))
        d.rule(
            K.REQUEST_REJECTED,
            finding_cites(found),
            f"a lot was drawn for {e.winner}, but no tie awaits a lot",
            [e.winner],
            reason=found.effect.value,
        )
        return
    before = len(d.rulings)
    d.set(lots=(*d.lots, e.winner))
    if d.round == 0:
        decide_first(d)
        if d.early_requests and d.phase is not Phase.AWAITING_LOT:
            _apply_early_requests(d)  # the requests held while the drawing was awaited
    else:
        decide_runoff(d)
    # the drawing named nobody the pending tie could give a place to
    among = d.phase is not Phase.AWAITING_LOT or any(
        e.winner in r.candidates for r in d.rulings[before:]
    )
    found = tie_steps.LOT.evaluate(tie_steps.LotFacts(pending=True, among_tied=among))
    if found.effect is tie_steps.Lot.NOT_TIED:
        d.set(lots=d.lots[:-1])
        d.rule(
            K.REQUEST_REJECTED,
            finding_cites(found),
            f"a lot was drawn for {e.winner}, who is not among the candidates tied for the place",
            [e.winner],
            reason=found.effect.value,
        )


def on_oath(d: Draft, e: OathTaken) -> None:
    """The ``oath`` table: the first oath of a person elected is recorded (163-294.1(d)); any
    other oath is refused with its reason."""
    name = e.candidate
    facts = vacancies.OathFacts(elected=name in d.elected, sworn=any(n == name for n, _ in d.sworn))
    found = vacancies.OATH.evaluate(facts)
    if found.effect is vacancies.Oath.TAKES_OFFICE:
        d.set(sworn=(*d.sworn, (name, e.at)))
        return
    if found.effect is vacancies.Oath.ALREADY_SWORN:
        first = next(at for n, at in d.sworn if n == name)
        text = (
            f"{name} already took the oath of office on "
            f"{first.astimezone(d.ctx.tz).strftime('%Y-%m-%d %H:%M')}: a second oath changes "
            "nothing"
        )
    else:
        text = (
            f"{name} has not been declared elected: the oath of a person not elected changes "
            "nothing"
        )
    d.rule(K.REQUEST_REJECTED, finding_cites(found), text, [name], reason=found.effect.value)


def on_nominee_named(d: Draft, e: NomineeNamed) -> None:
    """The ``nominee`` and ``nominee-place`` tables: whether the person named is nominated, and
    in whose place on ballots not reprinted; this handler gathers the facts and applies them."""
    name = e.candidate
    existing = d.cand(name)
    departed = existing is not None and existing.status in (cg.DIED, cg.DISQUALIFIED)
    holds = name in d.nominated or (
        d.ctx.stage is Stage.ELECTION and existing is not None and existing.active
    )
    found = party_nominees.NOMINEE.evaluate(
        party_nominees.NomineeFacts(to_fill=d.to_nominate > 0, departed=departed, holds=holds)
    )
    if found.effect is party_nominees.Nomination.NO_VACANCY:
        d.rule(
            K.REQUEST_REJECTED,
            found.cites,
            f"{name} was named, but no nomination is for the party to make",
            [name],
            reason=str(found.effect),
        )
        return
    if found.effect is party_nominees.Nomination.CANNOT_SERVE:
        assert existing is not None
        d.rule(
            K.REQUEST_REJECTED,
            found.cites,
            f"{name} was named nominee but {_VERB[existing.status]} before being named",
            [name],
            reason=f"candidate {existing.status}",
        )
        return
    if found.effect is party_nominees.Nomination.ALREADY_NOMINEE:
        d.rule(
            K.REQUEST_REJECTED,
            found.cites,
            f"{name} was named nominee but already "
            + ("holds a nomination" if name in d.nominated else "stands on the ballot")
            + " for this office: the vacancy stays open",
            [name],
            reason=str(found.effect),
        )
        return
    left = [  # names kept on ballots not reprinted, not yet replaced
        c.name
        for c in d.cands
        if not c.active
        and c.name in d.awaiting_reprint
        and not any(x.replaces == c.name for x in d.cands)
    ]
    general = d.ctx.stage is Stage.ELECTION
    place = party_nominees.NOMINEE_PLACE.evaluate(
        party_nominees.PlaceFacts(general_election=general, name_left=bool(left))
    )
    replaces = left[-1] if place.effect is party_nominees.Place.IN_PLACE else None
    d.set(
        cands=(
            *(c for c in d.cands if c.name != name),
            Cand(name, e.party, e.at, replaces=replaces),
        ),
        to_nominate=d.to_nominate - 1,
    )
    if d.ctx.stage is Stage.PRIMARY:
        d.set(nominated=(*d.nominated, name))
    d.rule(
        K.NOMINATED,
        found.cites,
        f"the party executive committee names {name} as nominee"
        + (f" in place of {replaces}" if replaces else ""),
        [name],
    )
    if d.to_nominate == 0 and d.phase is Phase.AWAITING_NOMINATION:
        d.go(Phase.DECIDED if d.ctx.stage is Stage.PRIMARY else Phase.BALLOT)


_HANDLERS: dict[type[Event], Any] = {
    FilingOpened: on_filing_opened,
    FilingClosed: on_filing_closed,
    CandidateFiled: on_candidate_filed,
    CandidateWithdrew: on_withdrew,
    CandidateDied: on_died,
    CandidateDisqualified: on_disqualified,
    FilingExtended: on_filing_extended,
    BallotsPrinted: on_ballots_printed,
    ReprintDetermined: on_reprint_determined,
    CanvassHeld: on_canvass,
    RecountHeld: on_recount,
    RunoffRequested: on_runoff_requested,
    LotDrawn: on_lot,
    OathTaken: on_oath,
    NomineeNamed: on_nominee_named,
}


# ----------------------------------------------------------------------------------------
# The fold
# ----------------------------------------------------------------------------------------


def step(state: State, event: Event, ctx: Context) -> State:
    """One event: fire the timers due before it, then apply it."""
    at = event.known_at
    timers = state.timers
    if timers and timers[0].due < at:
        state = fire_timers(state, ctx, at, event.index)
    d = new_draft(state, ctx, at, event.index, event.type)
    kind = type(event)
    if kind is VotesCast:
        assert isinstance(event, VotesCast)
        on_votes(d, {event.candidate: event.count})
    elif kind is ReturnsReported:
        assert isinstance(event, ReturnsReported)
        on_votes(d, dict(event.counts))
    else:
        _HANDLERS[kind](d, event)
    return d.freeze()


@functools.lru_cache(maxsize=256)
def _day_start(day: date, tz: ZoneInfo) -> datetime:
    return cal.local(day, time(0, 0), tz)


def round_start(ctx: Context, round_: int) -> datetime:
    """The start of the day round ``round_`` is voted on (G.S. 163-279)."""
    start = ctx.round_starts.get(round_)
    if start is not None:
        return start
    if round_ == 0:
        start = _day_start(ctx.election_day, ctx.tz)
    else:
        day = cal.rounds(ctx.method, ctx.stage)[round_].day_of(ctx.contest.year)
        start = _day_start(day, ctx.tz)
    ctx.round_starts[round_] = start
    return start


_TALLYING = {Phase.BALLOT: 0, Phase.COUNTING: 0, Phase.RUNOFF_CALLED: 1, Phase.RUNOFF_COUNTING: 1}
_COUNTING = (Phase.COUNTING, Phase.RUNOFF_COUNTING)
_RUN_FIELDS = frozenset({"tallies", "clock", "first_vote_at"})  # what a run of votes changes


class _Run:
    """An open run of votes that only add to the current round's tally.

    A run is opened at a vote only when that vote, applied as a step, would do nothing but add
    to the tally: no timer falls due before it, the contest is taking votes in the round it is
    on, no name needs a ruling, nothing waits for a reprint decision, and it does not cross the
    start of the round's day (the step that moves the contest to counting is applied on its
    own). Each later vote joins the run under the same conditions, so merging the run is the
    same fold as one step per vote (:func:`on_votes` for each): the tally gets every vote, the
    clock the latest time, the first vote its time; nothing else changes.

    Another event need not end the run when its step changes nothing but the rulings and reads
    none of what the run changes (the tally, the clock, the first vote's time): such a step
    does the same before the votes as after them, and the votes of the run read no ruling, so
    the run goes on past it and keeps its rulings for the merge (see :meth:`passes`).
    """

    __slots__ = (
        "allowed",
        "batch",
        "first",
        "horizon",
        "latest",
        "probe",
        "rnd",
        "start",
        "stop",
        "write_ins",
    )

    def __init__(self, state: State, ctx: Context, rnd: int, ev: Event) -> None:
        # compared with the votes' own times: both are in the contest's zone
        self.horizon: datetime | None = state.timers[0].due if state.timers else None
        self.start: datetime | None = None if state.phase in _COUNTING else round_start(ctx, rnd)
        # the ``votes`` table, once for the run: whether the round's candidates (anyone who
        # filed, in round 0; the runoff ballot's names in a runoff) and write-ins are counted;
        # a vote for any other name is a step of its own (on_votes); names are looked up only
        candidates, write_ins = counted_kinds(ctx, rnd)
        names: Container[str] = frozenset(state.runoff_ballot) if rnd else state.index()
        self.allowed: Container[str] = names if candidates else frozenset()
        self.write_ins = write_ins
        self.rnd = rnd
        self.batch: dict[str, int] = {}
        self.first = ev.at
        self.latest = ev.at
        self.probe: Draft | None = None
        self.stop = _stop(self.horizon, self.start, ev.at)

    def passes(self, ev: Event, state: State, ctx: Context) -> bool:
        """Whether ``ev``'s step, after the run, changes nothing but the rulings and reads
        nothing the run changes: then it does the same whatever the votes, and besides its
        rulings only its time counts (the clock is the latest time the board heard of
        anything). ``state`` is the state the run started from; the step is tried on a draft
        that cannot see the run's fields and keeps the rulings of the steps that passed."""
        at = ev.known_at
        if self.horizon is not None and self.horizon < at:
            return False  # a timer falls due first
        handler = _HANDLERS.get(type(ev))
        if handler is None:
            return False
        d = self.probe
        if d is None:
            probe = dict(state.__dict__)
            for name in _RUN_FIELDS:
                del probe[name]
            d = self.probe = blind_draft(probe, state, ctx, at, ev.index, ev.type)
        else:  # one blind draft serves the run: it never changes, only what it is told of
            d.at, d.seq, d.trigger = at, ev.index, ev.type
        log = d.ruling_log
        stored = log.stored
        try:
            handler(d, ev)
        except (AttributeError, WouldChange):
            # it reads the tally, the clock or the first vote's time, or it would change more
            # than the rulings: the rulings it made so far are forgotten
            d.__dict__["ruling_log"] = log
            log.drop_after(stored)
            return False
        if self.latest < at:
            self.latest = at
        return True

    def take(self, ev: Event) -> bool:
        """Add a vote (``votes_cast`` or ``returns_reported``) to the run if it may join it:
        no timer falls due first, it does not start the count, and every name is one the
        round counts (anything else is a step of its own)."""
        at = ev.at
        horizon = self.horizon
        if horizon is not None and horizon < at:
            return False  # a timer falls due first
        start = self.start
        if start is not None and not at < start:
            return False  # this vote starts the count: a step of its own
        allowed, batch = self.allowed, self.batch
        if type(ev) is VotesCast:
            name = ev.candidate
            if name not in allowed and not (self.write_ins and is_write_in(name)):
                return False
            batch[name] = batch.get(name, 0) + ev.count
        else:
            assert isinstance(ev, ReturnsReported)
            counts = ev.counts
            for name, _ in counts:
                if name not in allowed and not (self.write_ins and is_write_in(name)):
                    return False
            for name, n in dict(counts).items():  # as a step reads them
                batch[name] = batch.get(name, 0) + n
        if self.latest < at:
            self.latest = at
        return True

    def drain(self, events: Iterator[Event]) -> Event | None:
        """Take votes from ``events`` while they join the run (:meth:`take`); return the first
        event that does not, or None at the end of the log.

        The common vote (``votes_cast`` before :attr:`stop` for a name the run already took,
        so one the round counts) is summed here with no more work than a bare counting loop
        does; any other event, and a name's first vote in the run, goes through :meth:`take`,
        which decides as before."""
        stop = self.stop
        if stop is None:
            for ev in events:
                kind = type(ev)
                if not ((kind is VotesCast or kind is ReturnsReported) and self.take(ev)):
                    return ev
            return None
        batch, latest = self.batch, self.latest
        count = batch.get
        votes = VotesCast
        for ev in events:
            if type(ev) is votes:
                at = ev.at
                if at < stop:
                    name = ev.candidate
                    n = count(name)
                    if n is not None:  # a name already in the run: one the round counts
                        batch[name] = n + ev.count
                        if latest < at:
                            latest = at
                        continue
            elif type(ev) is not ReturnsReported:
                self.latest = latest
                return ev
            self.latest = latest
            if not self.take(ev):
                return ev
            latest = self.latest
        self.latest = latest
        return None

    def merge(self, state: State) -> State:
        """The state after the run: what :func:`on_votes` does with these votes, in bulk,
        with the rulings of the steps that passed (:meth:`passes`)."""
        rnd = self.rnd
        tallies = list(state.tallies)
        tally = dict(tallies[rnd])
        for name, n in self.batch.items():
            tally[name] = tally.get(name, 0) + n
        tallies[rnd] = tuple(tally.items())
        clock = state.clock if state.clock >= self.latest else self.latest
        probe = self.probe
        log = state.ruling_log if probe is None else probe.ruling_log  # rulings of passed steps
        first = self.first if state.first_vote_at is None else state.first_vote_at
        return state.evolved(
            tallies=tuple(tallies), clock=clock, first_vote_at=first, ruling_log=log
        )


@functools.cache
def _votes_finding(
    primary: bool,
    group: bool,
    partisan: bool,
    runoff: bool,
    on_ballot: bool,
    write_in: bool,
    filed: bool,
) -> Finding[counted_votes.VoteFacts, counted_votes.Vote]:
    """The ``votes`` table's finding for a vote (in a runoff or not) for a name on the runoff
    ballot or not, a write-in or not, who filed or not: found once for each (the table is pure,
    and a count asks it for every name it reads)."""
    facts = counted_votes.VoteFacts(
        True, runoff, on_ballot, write_in, filed, primary=primary, group=group, partisan=partisan
    )
    return counted_votes.VOTES.evaluate(facts)


def counted_kinds(ctx: Context, rnd: int) -> tuple[bool, bool]:
    """The ``votes`` table's answers for the names a run of votes may take: (a candidate of the
    round is counted, a write-in who did not file is counted). A candidate of the round is one
    who filed, in round 0, or one on the runoff ballot, in a runoff."""
    runoff = rnd == 1
    flags = (ctx.partisan_primary, ctx.contest.is_group, ctx.method is Method.PARTISAN, runoff)
    candidate = _votes_finding(*flags, runoff, False, True)
    write_in = _votes_finding(*flags, False, is_write_in(WRITE_IN_GENERIC), False)
    counted = counted_votes.Vote.COUNTED
    return candidate.effect is counted, write_in.effect is counted


_MICROSECOND = timedelta(microseconds=1)
_NEVER = datetime(9000, 1, 1)


def _stop(horizon: datetime | None, start: datetime | None, first: datetime) -> datetime | None:
    """The earliest time a vote may not join a run (votes strictly before it may, as far as
    time goes): the run's timer (a vote at the timer's moment is still before it) and the start
    of the round's day (a vote then starts the count). In the votes' own zone the comparison
    reads no offsets; None when that cannot be said exactly with one comparison (the run then
    takes each vote through :meth:`_Run.take`)."""
    stop = start
    if horizon is not None:
        after = horizon + _MICROSECOND  # at <= horizon is at < after, to the microsecond ...
        if after.utcoffset() != horizon.utcoffset():
            return None  # ... unless the zone's offset changes in that microsecond
        if stop is None or after < stop:
            stop = after
    if stop is None:
        stop = _NEVER.replace(tzinfo=first.tzinfo)
    return stop


def _open_run(state: State, ctx: Context, ev: Event) -> _Run | None:
    rnd = _TALLYING.get(state.phase)
    if rnd is None or rnd != state.round or state.deferred:
        return None
    run = _Run(state, ctx, rnd, ev)
    return run if run.take(ev) else None


def fold(state: State, ctx: Context, events: Iterable[Event], *, batched: bool = True) -> State:
    """Fold events into a contest's state, one :func:`step` each. With ``batched``, runs of
    ``votes_cast`` and ``returns_reported`` that only add to the tally are summed in a plain
    dict and merged in one step (see :class:`_Run`): the same fold, done in bulk. Each event
    goes to a :class:`_Folder`; while a run is open, :meth:`_Run.drain` takes the votes that
    join it, and the first event that does not goes to the folder."""
    if not batched:
        for ev in events:
            state = step(state, ev, ctx)
        return state
    folder = _Folder(state, ctx)
    push = folder.push
    it = iter(events)
    for ev in it:
        push(ev)
        while folder.run is not None:
            nxt = folder.run.drain(it)
            if nxt is None:
                break
            push(nxt)
    return folder.close()


class _Folder:
    """The batched fold of one contest, one event at a time (:func:`fold` drives it, and so does
    the single pass over a log of several contests, :func:`fold_together`). Each event joins
    the open run of votes, passes it, or ends it and is folded (a vote the run does
    not take, handed back by :meth:`_Run.drain`, is tried once more: :meth:`_Run.take` changes
    nothing when it refuses)."""

    __slots__ = ("ctx", "filing", "filing_horizon", "run", "state")

    def __init__(self, state: State, ctx: Context) -> None:
        self.state = state
        self.ctx = ctx
        self.run: _Run | None = None
        self.filing: Draft | None = None  # a run of notices of candidacy folded in one draft
        self.filing_horizon: datetime | None = None

    def push(self, ev: Event) -> None:
        kind = type(ev)
        state, ctx = self.state, self.ctx
        run = self.run
        if run is not None:
            if kind is VotesCast or kind is ReturnsReported:
                if run.take(ev):
                    return
            elif kind is not CandidateFiled and run.passes(ev, state, ctx):
                return
            state = self.state = run.merge(state)
            self.run = None
        filing = self.filing
        if kind is CandidateFiled:
            assert isinstance(ev, CandidateFiled)
            horizon = self.filing_horizon
            if filing is not None and horizon is not None and ev.known_at > horizon:
                state = self.state = filing.freeze()
                filing = None
            if filing is None:
                state = self.state = fire_timers(state, ctx, ev.known_at, ev.index)
                self.filing_horizon = state.timers[0].due if state.timers else None
                filing = new_draft(state, ctx, ev.known_at, ev.index, ev.type)
                filing.open_cands()
            else:  # what new_draft does for each event
                filing.at, filing.seq = ev.known_at, ev.index
                if ev.known_at > filing.clock:
                    filing.set(clock=ev.known_at)
            on_candidate_filed(filing, ev)
            self.filing = filing
            return
        if filing is not None:
            state = filing.freeze()
            self.filing = None
        if kind is VotesCast or kind is ReturnsReported:
            timers = state.timers
            if timers and timers[0].due < ev.at:
                state = fire_timers(state, ctx, ev.at, ev.index)
            run = _open_run(state, ctx, ev)
            if run is not None:
                self.run = run
                self.state = state
                return
        self.state = step(state, ev, ctx)

    def close(self) -> State:
        """The state after every event pushed."""
        if self.run is not None:
            self.state = self.run.merge(self.state)
            self.run = None
        if self.filing is not None:
            self.state = self.filing.freeze()
            self.filing = None
        return self.state


def fold_together(
    events: Sequence[Event], contexts: Mapping[str, Context]
) -> dict[str, tuple[State, int]]:
    """Fold a log of several contests in one pass (the same as :func:`fold` of each contest's
    events): each contest's state, and the index of its last event (-1: none).

    A vote that joins its contest's open run (before the run's stop, for a name the run has
    taken) is summed here, as :meth:`_Run.drain` sums it; every other event goes to its
    contest's :class:`_Folder`. So the log is not first dealt out to its contests."""
    folders = {cid: _Folder(initial_state(ctx), ctx) for cid, ctx in contexts.items()}
    votes = VotesCast
    parts = events.parts() if type(events) is EventLog else events
    for ev in parts:
        if isinstance(ev, VoteColumns):
            _fold_columns(ev, folders)
            continue
        f = folders[ev.contest]
        if type(ev) is votes:
            run = f.run
            if run is not None:
                at = ev.at
                stop = run.stop
                if stop is not None and at < stop:
                    batch = run.batch
                    name = ev.candidate
                    n = batch.get(name)
                    if n is not None:  # a name already in the run: one the round counts
                        batch[name] = n + ev.count
                        if run.latest < at:
                            run.latest = at
                        continue
        f.push(ev)
    last: dict[str, int] = {}
    for ev in reversed(parts):
        if isinstance(ev, VoteColumns):
            contests = ev.contest
            backwards = contests[::-1] if len(contests) > 1 else contests
            for c in set(contests) - last.keys():
                last[c] = ev.start + len(contests) - 1 - backwards.index(c)
        elif ev.contest not in last:
            last[ev.contest] = ev.index
        if len(last) == len(folders):
            break
    return {cid: (f.close(), last.get(cid, -1)) for cid, f in folders.items()}


#: Votes of a run held as columns that are summed at once, at the least (a shorter stretch is
#: folded vote by vote), and at the most (the stretch looked at in one go)
_AT_ONCE = 64
_WINDOW = 1 << 16


def _fold_columns(run: VoteColumns, folders: Mapping[str, _Folder]) -> None:
    """:func:`fold_together` of a run of votes held as columns: a vote that joins its contest's
    open run is summed from the columns; any other is made an event and pushed.

    Where the times are in order and each vote is one vote, a stretch whose every vote joins
    its contest's open run is summed at once (:func:`_summable`): the same sums and latest
    times as vote by vote, since such votes change nothing else, and the contests' folders
    never read one another. After a stretch that could not be summed, the next one is folded
    vote by vote, for twice as many votes each time (so a run that never joins costs at most
    one more pass over its votes)."""
    n = len(run)
    if run.count is not None or n < _AT_ONCE or not run.in_order():
        _fold_votes(run, folders, 0, n)
        return
    k, step = 0, _AT_ONCE
    while k < n:
        end, pairs = _summable(run, folders, k, min(n, k + _WINDOW))
        if end - k >= _AT_ONCE:
            _sum_votes(run, folders, k, end, pairs)
            k, step = end, _AT_ONCE
        else:
            k = _fold_votes(run, folders, k, min(n, k + step))
            step = min(2 * step, _WINDOW)


def _fold_votes(run: VoteColumns, folders: Mapping[str, _Folder], start: int, end: int) -> int:
    """Votes ``start`` to ``end`` of a run held as columns, one by one; gives ``end``."""
    for k, at, c, name, n in zip(
        itertools.count(start),
        itertools.islice(run.at, start, end),
        itertools.islice(run.contest, start, end),
        itertools.islice(run.candidate, start, end),
        itertools.islice(run.counts(), start, end),
    ):
        f = folders[c]
        open_run = f.run
        if open_run is not None:
            stop = open_run.stop
            if stop is not None and at < stop:
                batch = open_run.batch
                m = batch.get(name)
                if m is not None:  # a name already in the run: one the round counts
                    batch[name] = m + n
                    if open_run.latest < at:
                        open_run.latest = at
                    continue
        f.push(run.event(k))
    return end


def _summable(
    run: VoteColumns, folders: Mapping[str, _Folder], start: int, limit: int
) -> tuple[int, Counter[tuple[str, str]]]:
    """The end of the longest stretch of votes from ``start`` (up to ``limit``) in which every
    vote joins its contest's open run, vote by vote (its time before the run's stop, its name
    one the run took already), and the votes of each contest and name in it. The times are
    in order, so each contest's votes before its stop are those before one index."""
    at, contest = run.at, run.contest
    end = limit
    for c in set(itertools.islice(contest, start, end)):
        open_run = folders[c].run
        stop = None if open_run is None else open_run.stop
        if stop is None:  # (its first vote is a step of its own)
            with contextlib.suppress(ValueError):  # (not before the end found so far)
                end = contest.index(c, start, end)
        else:
            end = bisect.bisect_left(at, stop, start, end)
    pairs = _pairs(run, start, end)
    wrong = {(c, name) for c, name in pairs if name not in folders[c].run.batch}  # type: ignore[union-attr]
    if wrong:  # (a name's first vote in its run: the stretch ends before it)
        end = next(
            k
            for k, pair in enumerate(
                zip(contest[start:end], run.candidate[start:end], strict=True), start
            )
            if pair in wrong
        )
        pairs = _pairs(run, start, end)
    return end, pairs


def _pairs(run: VoteColumns, start: int, end: int) -> Counter[tuple[str, str]]:
    """The votes ``start`` to ``end`` of a run held as columns, by contest and name."""
    owners = run.owners
    if owners is None:
        return Counter(zip(run.contest[start:end], run.candidate[start:end], strict=True))
    names = Counter(run.candidate[start:end])
    return Counter({(owners[name], name): m for name, m in names.items()})


def _sum_votes(
    run: VoteColumns,
    folders: Mapping[str, _Folder],
    start: int,
    end: int,
    pairs: Counter[tuple[str, str]],
) -> None:
    """Add the votes ``start`` to ``end`` (:func:`_summable`'s stretch) to their runs."""
    for (c, name), m in pairs.items():
        batch = folders[c].run.batch  # type: ignore[union-attr]
        batch[name] += m
    backwards = run.contest[start:end][::-1]
    for c in {c for c, _ in pairs}:
        open_run = folders[c].run
        assert open_run is not None
        latest = run.at[end - 1 - backwards.index(c)]  # (the times are in order)
        if open_run.latest < latest:
            open_run.latest = latest


def finish(state: State, ctx: Context, as_of: datetime | None, seq: int) -> State:
    """End of the log: every optional act's deadline passes (whole story) or those before
    ``as_of`` do."""
    state = fire_timers(state, ctx, as_of if as_of is not None else FAR_FUTURE, seq)
    if as_of is None and state.deferred:
        # the whole story: no determination of time to reprint ever came
        d = new_draft(state, ctx, state.clock, seq, "end_of_log")
        _settle_deferred(d, "no determination that there is time to reprint was recorded")
        state = d.freeze()
    if as_of is not None and as_of > state.clock:
        state = attrs.evolve(state, clock=as_of)
    return state


def replay_contest(
    ctx: Context,
    events: Sequence[Event],
    as_of: datetime | None = None,
    *,
    batched: bool = True,
) -> State:
    """Fold one contest's events (in the order the board learned them) into its state."""
    state = fold(initial_state(ctx), ctx, events, batched=batched)
    return finish(state, ctx, as_of, events[-1].index if events else -1)


def one_office_bars(
    scenario: Scenario, events: Iterable[Event] | None = None
) -> dict[str, frozenset[int]]:
    """G.S. 163-291(2): a person with a standing notice for one office may not file for
    another at the same election. Returns, per contest, the filing events it bars. ``events``
    are the scenario's events in order, or any in-order part of them that holds every notice of
    candidacy and withdrawal (the rule reads no other)."""
    if events is None:
        events = scenario.events
    offices = {
        c.id: (c.year, c.municipality.strip().lower(), c.office.strip().lower() or c.id)
        for c in scenario.contests
    }
    contexts = {c.id: make_context(scenario, c) for c in scenario.contests}
    periods = {cid: initial_state(ctx).windows[0] for cid, ctx in contexts.items()}
    standing: dict[tuple[int, str, str], tuple[str, str]] = {}  # (year, muni, person) -> office
    barred: dict[str, set[int]] = {c.id: set() for c in scenario.contests}
    for ev in events:
        kind = type(ev)
        if kind is not CandidateFiled and kind is not CandidateWithdrew:
            continue
        year, muni, office = offices[ev.contest]
        if isinstance(ev, CandidateFiled):
            key = (year, muni, ev.candidate)
            held = standing.get(key)
            window = periods[ev.contest]
            in_period = contexts[ev.contest].lists_nominees or (
                window.opens <= ev.at <= window.closes
            )
            if held is not None and held[0] != office:
                barred[ev.contest].add(ev.index)
            elif held is None and in_period:
                # only a notice the board could accept stands in the way of another office
                standing[key] = (office, ev.contest)
        elif isinstance(ev, CandidateWithdrew):
            key = (year, muni, ev.candidate)
            if standing.get(key, ("", ""))[0] == office:
                del standing[key]
    return {k: frozenset(v) for k, v in barred.items()}


def make_context(
    scenario: Scenario, contest: Contest, barred: frozenset[int] = frozenset()
) -> Context:
    office = OfficeCalendar(scenario.timezone, scenario.office_closed)
    return Context(
        contest,
        office,
        scenario.interpretations,
        stage_day(contest),
        barred,
        scenario.parameters,
    )


#: What each phase waits for (but those :func:`pending_of` reads more of the state for)
_PENDING: dict[Phase, Pending] = {
    Phase.FILING: Pending.FILING,
    Phase.FILING_REOPENED: Pending.FILING,
    Phase.FILING_EXTENDED: Pending.FILING,
    Phase.AWAITING_NOMINATION: Pending.NOMINATION,
    Phase.BALLOT: Pending.VOTES,
    Phase.COUNTING: Pending.CANVASS,
    Phase.AWAITING_RECOUNT: Pending.RECOUNT,
    Phase.RUNOFF_REQUEST: Pending.RUNOFF_REQUEST,
    Phase.AWAITING_LOT: Pending.LOT,
    Phase.AWAITING_NEW_ELECTION: Pending.NEW_ELECTION,
    Phase.RUNOFF_CALLED: Pending.VOTES,
    Phase.RUNOFF_COUNTING: Pending.CANVASS,
}


def pending_of(state: State, ctx: Context) -> Pending | None:
    p = state.phase
    if state.to_nominate > 0 and p in (Phase.BALLOT, Phase.COUNTING, Phase.DECIDED):
        return Pending.NOMINATION
    if p is Phase.TIE_WITHDRAWAL and state.pool is not None:
        pool = state.pool
        dues = [(pool.withdraw_due, Pending.WITHDRAWAL), (pool.request_due, Pending.RUNOFF_REQUEST)]
        open_ = [(due, k) for due, k in dues if due is not None and due >= state.clock]
        if pool.kind == "tie_first":
            return Pending.WITHDRAWAL
        return min(open_)[1] if open_ else Pending.WITHDRAWAL
    return _PENDING.get(p)


def _event_label(ev: Event) -> str:
    label = _KIND_WORDS.get(ev.type)
    if label is None:
        label = _KIND_WORDS[ev.type] = ev.type.replace("_", " ")
    for f in ev.fields:
        v = getattr(ev, f, None)
        if v is None:
            continue
        if f == "counts":
            v = ", ".join(f"{n} {c}" for n, c in v)
        label = f"{label} {f}={v}"
    return label


_KIND_WORDS: dict[str, str] = {}  # an event type's words ("candidate_filed": "candidate filed")


def outcome_of(state: State, ctx: Context) -> Outcome:
    return Outcome(
        elected=state.elected,
        nominated=state.nominated,
        vacant_seats=state.vacant,
        runoff_status=state.runoff_status,
        runoff_candidates=state.runoff_ballot,
        pending=pending_of(state, ctx),
    )


@attrs.frozen
class ContestSummary:
    """A contest's outcome and rulings, without the timeline (what a sweep's row reads)."""

    outcome: Outcome
    rulings: tuple[Ruling, ...]


def event_entry(ev: Event) -> TimelineEntry | None:
    """The event's line on the timeline (votes are many: they show in the tallies)."""
    kind = type(ev)
    if kind is VotesCast:
        return None
    # the people it is about: a nominee named is new to the log, so not among names()
    who = (ev.candidate,) if kind is NomineeNamed else ev.names()  # type: ignore[attr-defined]
    return TimelineEntry(ev.known_at, "event", _event_label(ev), "", ev.type, ev.index, who)


_AT = operator.attrgetter("at")


def result_of(
    state: State,
    ctx: Context,
    events: Sequence[Event],
    *,
    entries: Sequence[TimelineEntry | None] | None = None,
    timeline: bool = True,
) -> ContestResult:
    """The contest's result; ``entries`` are the events' timeline lines when already made.
    ``timeline=False`` leaves out the timeline and the periods drawn from it (the explorer,
    which reads neither)."""
    outcome = outcome_of(state, ctx)
    if not timeline:
        return _contest_result(state, ctx, outcome, (), ())
    # built once, when a view first reads either (text, charts, JSON), not for every replay
    both = functools.cache(functools.partial(_timeline, state, events, entries))
    return _contest_result(state, ctx, outcome, Made(lambda: both()[0]), Made(lambda: both()[1]))


def _timeline(
    state: State, events: Sequence[Event], entries: Sequence[TimelineEntry | None] | None
) -> tuple[tuple[TimelineEntry, ...], tuple[Period, ...]]:
    """The contest's timeline (its deadlines, events and rulings in order of time) and the
    periods drawn from it; ``entries`` are the events' lines when already made."""
    if entries is None:
        entries = [event_entry(ev) for ev in events]
    # deadlines, events, rulings: a stable sort by time keeps that order at the same moment
    lines = [
        TimelineEntry(dl.due, "deadline", f"{dl.kind.value}: {dl.how}", dl.cite, dl.kind.value)
        for dl in state.deadlines
    ]
    lines += [entry for entry in entries if entry is not None]
    # a story may hold thousands of rulings of a few kinds citing a few provisions: each
    # kind's words and each citation's text are read once
    kinds: dict[RulingKind, str] = {}
    cites: dict[tuple[Cite, ...], str] = {}
    for r in state.ruling_log:
        kind = kinds.get(r.kind)
        if kind is None:
            kind = kinds[r.kind] = r.kind.value
        cite = cites.get(r.cites)
        if cite is None:
            cite = cites[r.cites] = r.cite
        lines.append(
            TimelineEntry(r.at, "ruling", f"{kind}: {r.text}", cite, kind, r.seq, r.candidates)
        )
    lines.sort(key=_AT)
    periods = periods_of(
        ((w.kind, w.opens, w.closes, w.cite) for w in state.windows),
        state.rulings,
        state.deadlines,
        lines,
    )
    return tuple(lines), periods


def _contest_result(
    state: State,
    ctx: Context,
    outcome: Outcome,
    timeline: Sequence[TimelineEntry],
    periods: Sequence[Period],
) -> ContestResult:
    contest = ctx.contest
    return ContestResult(
        id=contest.id,
        title=contest.label,
        method=contest.method.value,
        stage=contest.stage.value,
        seats=contest.seats,
        state=state.phase.value,
        outcome=outcome,
        rulings=state.rulings,
        deadlines=tuple(sorted(state.deadlines, key=lambda x: x.due)),
        timeline=timeline,
        tallies=tuple(_ranked_round(t) for t in state.tallies if t),
        path=state.path,
        periods=periods,
    )


@functools.lru_cache(maxsize=4096)
def _ranked_round(tally: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    """A round's votes best first (states share their tallies: each is ranked once)."""
    return tuple(ranked(dict(tally), [n for n, _ in tally]))


def replay(scenario: Scenario, *, as_of: datetime | None = None, batched: bool = True) -> Result:
    """Replay a scenario's log: one result per contest.

    With ``as_of``, only what the board knew by then counts and later deadlines stay open.
    ``batched=False`` applies every vote as a step of its own (the bulk fold gives the same
    result; this is the reference it is tested against).

    The cyclic garbage collector is paused meanwhile (:func:`collector_paused`).
    """
    with collector_paused():
        return _replay(scenario, as_of, batched)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while folding: the fold's values refer to older
    values, never back, so it would find nothing, yet a long story (a ruling and two timeline
    lines for every refused request, say) would have it walk all that is kept again and again.
    It runs again as before afterwards."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _noted(scenario: Scenario, others: Iterable[Event]) -> dict[str, list[Event]]:
    """The events other than votes_cast, dealt out to their contests in one pass: votes have no
    line on the timeline (event_entry), these do (made when the timeline is read)."""
    noted: dict[str, list[Event]] = {c.id: [] for c in scenario.contests}
    for ev in others:
        lines = noted.get(ev.contest)
        if lines is not None:
            lines.append(ev)
    return noted


def _replay(scenario: Scenario, as_of: datetime | None, batched: bool) -> Result:
    if as_of is not None and as_of.tzinfo is None:
        as_of = as_of.replace(tzinfo=scenario.tz)
    if batched and (
        len(scenario.contests) > 1 or len(scenario.events.parts()) < len(scenario.events)
    ):
        return _replay_together(scenario, as_of)  # (one contest too, where votes are columns)
    per, others = _split(scenario, as_of)
    # the one-office rule reads the whole log's notices (as it always has), not only those
    # known by ``as_of``: without ``as_of`` those are among ``others``
    bars = one_office_bars(scenario, others if as_of is None else None)
    noted = _noted(scenario, others)
    results = []
    for c in scenario.contests:
        ctx = make_context(scenario, c, bars.get(c.id, frozenset()))
        state = replay_contest(ctx, per[c.id], as_of, batched=batched)
        results.append(result_of(state, ctx, noted[c.id]))
    return Result(scenario.title, tuple(results), as_of, scenario.interpretations.changed())


def _replay_together(scenario: Scenario, as_of: datetime | None) -> Result:
    """:func:`_replay` of a log of several contests, batched: the same result, the log folded
    in one pass (:func:`fold_together`) instead of dealt out to its contests first."""
    events: Sequence[Event] = scenario.events
    if as_of is not None:
        events = [ev for ev in events if not ev.known_at > as_of]
    votes, columns = VotesCast, VoteColumns
    parts = events.parts() if type(events) is EventLog else events
    others = [ev for ev in parts if type(ev) is not votes and not isinstance(ev, columns)]
    bars = one_office_bars(scenario, others if as_of is None else None)
    noted = _noted(scenario, others)
    contexts = {
        c.id: make_context(scenario, c, bars.get(c.id, frozenset())) for c in scenario.contests
    }
    folded = fold_together(events, contexts)
    results = []
    for c in scenario.contests:
        ctx = contexts[c.id]
        state, last = folded[c.id]
        state = finish(state, ctx, as_of, last)
        results.append(result_of(state, ctx, noted[c.id]))
    return Result(scenario.title, tuple(results), as_of, scenario.interpretations.changed())


def _split(
    scenario: Scenario, as_of: datetime | None
) -> tuple[dict[str, list[Event]], list[Event]]:
    """The events known by ``as_of`` (all without it), per contest, and those of them that are
    not ``votes_cast``, in the log's order: one pass over the log."""
    events: Sequence[Event] = scenario.events
    if as_of is not None:
        events = [ev for ev in events if not ev.known_at > as_of]
    votes = VotesCast
    if len(scenario.contests) == 1:
        return {scenario.contests[0].id: list(events)}, [
            ev for ev in events if type(ev) is not votes
        ]
    per: dict[str, list[Event]] = {c.id: [] for c in scenario.contests}
    add = {cid: got.append for cid, got in per.items()}
    others: list[Event] = []
    other = others.append
    for ev in events:
        add[ev.contest](ev)
        if type(ev) is not votes:
            other(ev)
    return per, others


#: what a scenario holds besides its events, compared to find a variant with the same facts
_FACTS = tuple(f.name for f in attrs.fields(Scenario) if f.eq and f.name != "events")


class PrefixReplay:
    """Replays variants of one scenario for one contest, folding the events they share once.

    The base scenario's events for ``contest_id`` (those known by ``as_of``) are folded once,
    keeping the state after each of them (after every ``stride``-th for long logs). A variant is
    then replayed from the state after the longest prefix of its own events that is the same as
    the base's (same events at the same positions of the log), so only its suffix is folded. A
    variant whose contests, time zone, office closures or readings differ is replayed whole, and
    so is any part of a prefix where G.S. 163-291(2)'s one-office rule bars a different set of
    notices (the rule looks at the other contests' filings). The state after a prefix is the
    same whatever follows it (the fold is pure and the states are values), so the result is
    exactly ``replay(variant, as_of=as_of).contest(contest_id)``.
    """

    def __init__(
        self, base: Scenario, contest_id: str, *, as_of: datetime | None = None, stride: int = 0
    ) -> None:
        self.base = base
        self.contest_id = contest_id
        self.as_of = as_of
        self.contest = base.contest(contest_id)
        self.events = self._events(base)
        self.bars = self._bars(base)
        ctx = make_context(base, self.contest, self.bars)
        self.ctx = ctx
        step_ = stride or max(1, len(self.events) // 256)
        # checkpoints[j] is the state after the first j * step_ events
        states = [initial_state(ctx)]
        for j in range(step_, len(self.events) + 1, step_):
            states.append(fold(states[-1], ctx, self.events[j - step_ : j]))
        self.stride = step_
        self.checkpoints = states
        self.entries = [event_entry(ev) for ev in self.events]

    def _events(self, scenario: Scenario) -> list[Event]:
        as_of, cid = self.as_of, self.contest_id
        if as_of is None:
            return [ev for ev in scenario.events if ev.contest == cid]
        return [ev for ev in scenario.events if ev.contest == cid and not ev.known_at > as_of]

    def _bars(self, scenario: Scenario) -> frozenset[int]:
        if len(scenario.contests) == 1:
            return frozenset()  # the rule compares offices: one contest has nothing to compare
        return one_office_bars(scenario).get(self.contest_id, frozenset())

    def _same_facts(self, variant: Scenario) -> bool:
        base = self.base
        return all(getattr(base, name) == getattr(variant, name) for name in _FACTS)

    def _state(self, variant: Scenario) -> tuple[State, Context, list[Event]]:
        events = self._events(variant)
        bars = self._bars(variant)
        base_events, base_bars = self.events, self.bars
        # the same facts (see _same_facts) and the same bars: the same context
        ctx = self.ctx if bars == base_bars else make_context(variant, self.contest, bars)
        shared = 0
        for a, b in zip(events, base_events, strict=False):
            if a is not b and a != b:
                break
            if type(a) is CandidateFiled and (a.index in bars) != (a.index in base_bars):
                break  # the one-office rule bars a different set of notices from here
            shared += 1
        j = shared // self.stride
        state = fold(self.checkpoints[j], ctx, events[j * self.stride :])
        state = finish(state, ctx, self.as_of, events[-1].index if events else -1)
        return state, ctx, events

    def contest_result(self, variant: Scenario) -> ContestResult:
        """``replay(variant, as_of=as_of).contest(contest_id)``, from the shared prefix."""
        if not self._same_facts(variant):
            return replay(variant, as_of=self.as_of).contest(self.contest_id)
        state, ctx, events = self._state(variant)
        known, base_events = self.entries, self.events
        # the events' lines, made when the timeline is read (those of the base are reused)
        entries = Made(
            lambda: tuple(
                known[i] if i < len(known) and ev is base_events[i] else event_entry(ev)
                for i, ev in enumerate(events)
            )
        )
        return result_of(state, ctx, events, entries=entries)

    def summary(self, variant: Scenario) -> ContestResult | ContestSummary:
        """The variant's outcome and rulings for ``contest_id`` (no timeline to build)."""
        if not self._same_facts(variant):
            return replay(variant, as_of=self.as_of).contest(self.contest_id)
        state, ctx, _ = self._state(variant)
        return ContestSummary(outcome_of(state, ctx), state.rulings)
