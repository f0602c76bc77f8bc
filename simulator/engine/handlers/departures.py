"""Handlers of candidates who leave: death, withdrawal and disqualification.

The ``departures`` law table says what each departure does at its moment (a name removed from the
ballot, a period reopened, a vacancy, a held demand answered, a tie or request window settled);
this module gathers the facts, consults the table and applies its effects.
"""

from __future__ import annotations

from datetime import datetime

import attrs

from simulator.engine.counting.consult import consult, finding_cites
from simulator.engine.counting.decide import decide_first, decide_runoff, tie_withdrawal
from simulator.engine.counting.declare import declare_leaders
from simulator.engine.counting.majority import (
    group_best_left_in_window,
    leader_left_in_window,
    runner_up_left_in_window,
)
from simulator.engine.counting.standing import cannot_be_nominated, round_name
from simulator.engine.counting.ties import answer_held_demands
from simulator.engine.handlers.departure_effects import Departure, apply_effect
from simulator.engine.handlers.registry import handles
from simulator.engine.handlers.requests import request_in_window
from simulator.engine.rounds import round_start
from simulator.engine.state import FAR_FUTURE, Cand, Draft, Log, Pool
from simulator.law import calendar as cal
from simulator.law.cite import statute
from simulator.law.machine import Phase
from simulator.law.tables import choices, departed_declared, departures, repeat_notice, tie_steps
from simulator.law.tables.count import LEFT_VERB
from simulator.law.tables.departure_facts import (
    BEFORE_ELECTION,
    DURING_FILING,
    ELECTION_OR_AFTER,
    Facts,
    switch_facts,
)
from simulator.law.vocab import CandStatus, Method, PoolKind, RulingKind, TimerTrigger
from simulator.model.events import (
    CandidateDied,
    CandidateDisqualified,
    CandidateWithdrew,
    is_write_in,
)


def departure_facts(d: Draft, name: str, what: str, death: datetime, notice: datetime) -> Facts:
    ctx = d.ctx
    c = d.contest
    phase = d.phase
    if phase in (Phase.FILING,) and notice <= (d.original_close or FAR_FUTURE):
        when = DURING_FILING
    elif notice >= ctx.election_start or death >= ctx.election_start:
        when = ELECTION_OR_AFTER
    else:
        when = BEFORE_ELECTION
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
    return Facts(
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
        # `left_after_primary_day` reads the first primary's count (not the second primary's)
        **switch_facts(ctx.interp, first_count=d.round == 0),
        defeated=when == ELECTION_OR_AFTER
        and phase is Phase.DECIDED
        and name not in d.elected
        and name not in d.nominated,
        past_party_withdrawal=when == DURING_FILING
        and d.original_close is not None
        and notice > cal.party_withdrawal_deadline(d.original_close, ctx.office),
    )


def _left_runoff_ballot(d: Draft, name: str, what: CandStatus, death: datetime) -> None:
    """A candidate on a called runoff (or second primary) ballot dies, withdraws or is
    disqualified: the ``left-runoff`` table (a gap: the statutes speak of candidates who leave
    before the first election)."""
    verb = LEFT_VERB[what]
    group = d.ctx.contest.is_group
    facts = departed_declared.RunoffLeftFacts(
        nominating=d.ctx.nominating,
        what=what,
        group=group,
        crowded=not group and sum(1 for n in d.runoff_ballot if n != name) > 1,
    )
    finding = consult(d, departed_declared.RUNOFF_LEFT, facts)  # its gap is said below
    near = list(finding.cites)
    said = {"name": name, "verb": verb, "round": round_name(d), "choices": choices(finding)}
    if finding.effect is departed_declared.RunoffLeft.OTHER_DECLARED:  # `left_runoff_ballot`
        text = departed_declared.RUNOFF_LEFT_GAP.format(fallback=finding.fallback, **said)
        d.rule(RulingKind.NO_PROVISION, near, text, [name], **finding.extra())
        d.update_cand(name, status=what, off_at=death)
        others = tuple(n for n in d.runoff_ballot if n != name)
        declare_leaders(d, others, near[0], departed_declared.NO_ROUND_HELD.format(**said))
        return
    preset = finding.effect.preset
    rule = statute(preset.value) if preset is not departed_declared.Preset.NONE else None
    outcome = (
        departed_declared.VACANT_IF_WINS.format(name=name, rule=rule)
        if rule is not None
        else departed_declared.CANNOT_BE_NOMINATED.format(name=name)
    )
    fallback = departed_declared.NAME_STAYS.format(outcome=outcome, **said)
    text = departed_declared.RUNOFF_LEFT_GAP.format(fallback=fallback, **said)
    d.rule(RulingKind.NO_PROVISION, near, text, [name], gap=finding.id)
    d.update_cand(name, status=what, off_at=death, vacant_if_elected=rule)
    text = departed_declared.REMAINS_ON_BALLOT.format(**said)
    d.rule(RulingKind.NAME_REMAINS, near[-1], text, [name])


def _repeat_notice(d: Draft, cand: Cand, what: CandStatus) -> None:
    """A notice of death, withdrawal or disqualification for a candidate who has already left
    (outside a tie's three days): the ``repeat-notice`` table."""
    name = cand.name
    facts = repeat_notice.RepeatNoticeFacts(
        notice=what,
        before=cand.status,
        partisan=d.ctx.method is Method.PARTISAN,
    )
    how = LEFT_VERB[cand.status]
    if cand.off_at is not None:
        day = cand.off_at.astimezone(d.ctx.tz).date().isoformat()
        how = repeat_notice.LEFT_ON.format(verb=how, day=day)
    notice = repeat_notice.NOTICE_OF[what].format(name=name)
    said = {"notice": notice, "name": name, "how": how}
    found = consult(d, repeat_notice.REPEAT_NOTICE, facts, [name], said)
    if (
        what is not CandStatus.WITHDREW
        and cand.status is CandStatus.WITHDREW
        and cand.barred is None
    ):
        d.update_cand(name, barred=what)  # whatever the table says of the ballot: see Cand
    if found.effect is repeat_notice.RepeatNotice.REJECTED:
        d.rule(
            RulingKind.NO_EFFECT,
            finding_cites(found),
            repeat_notice.REJECTED_WORDS.format_map(said),
            [name],
            reason=repeat_notice.REJECTED_REASON.format(effect=found.effect, **said),
        )


def on_candidate_off(
    d: Draft, name: str, what: CandStatus, death: datetime, notice: datetime
) -> None:
    """A death, withdrawal or disqualification: evaluate the contingency table."""
    cand = d.cand(name)
    if cand is None and what != CandStatus.WITHDREW:
        # not (or no longer) a candidate here: remember it, so a later notice is refused
        d.set(
            cands=(*d.cands, Cand(name, status=what, off_at=death, on_ballot=False, counted=False))
        )
        return
    if cand is None:
        return
    if d.phase is Phase.TIE_WITHDRAWAL and what == CandStatus.WITHDREW:
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
    facts = departure_facts(d, name, what, death, notice)
    verb = LEFT_VERB[what]
    finding = consult(d, departures.TABLE, facts, [name], {"name": name, "verb": verb}, once=False)
    d.update_cand(name, status=what, off_at=death)
    first = len(d.rulings)
    left = Departure(name, verb, facts, notice)
    for eff in finding.effect(facts):
        apply_effect(d, eff, left)
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
        d.drop_timers(TimerTrigger.RUNOFF_REQUEST_PASSES)
        decide_first(d)
    elif d.phase in (Phase.RUNOFF_REQUEST, Phase.TIE_WITHDRAWAL) and leader_left_in_window(d, name):
        # the leader, short of a majority, left after the declaration with the request (or the
        # three days of a tie for second) still open: decided again now, as the canvass decides
        # a departure before it (the ``leader-left`` table), not left to call a runoff with them
        d.drop_timers(TimerTrigger.RUNOFF_REQUEST_PASSES, TimerTrigger.TIE_WITHDRAWAL_PASSES)
        decide_first(d)
        assert pool is not None
        _answer_held(d, pool, name)
    elif d.phase is Phase.RUNOFF_REQUEST and runner_up_left_in_window(d, name):
        pass  # the runner-up left in the request period: decided at once, with no runoff
    elif d.phase is Phase.RUNOFF_REQUEST and group_best_left_in_window(d, name):
        # `left_best_for_group_seat` switched: the departed candidate's seat is vacant now; the
        # count is decided again for the seats left, and requests already made are weighed again
        # against it
        assert pool is not None
        d.drop_timers(TimerTrigger.RUNOFF_REQUEST_PASSES)
        decide_first(d)
        for asked in pool.requests:
            again = d.pool
            if d.phase is Phase.RUNOFF_REQUEST and again is not None:
                request_in_window(d, asked, d.at, again)
    elif d.phase is Phase.AWAITING_LOT and name in _lot_pool(d):
        # a tied candidate left before the drawing: the count is decided again now, as the
        # drawing would decide it, so the tie tables read who left (a survivor may be the only
        # one left tied, or the departure meets another provision) before any lot is drawn
        if d.round == 0:
            decide_first(d)
        else:
            decide_runoff(d)
    if len(d.rulings) > first:
        # a rule that prevailed over others: they are shown in the first ruling it produced
        _add_note(d, first, finding.note())


def _add_note(d: Draft, at: int, note: str) -> None:
    """Add ``note`` to the text of the ruling at position ``at``."""
    if not note:
        return
    rulings = d.rulings
    r = rulings[at]
    d.set(ruling_log=Log([*rulings[:at], attrs.evolve(r, text=r.text + note), *rulings[at + 1 :]]))


def _answer_held(d: Draft, pool: Pool, left: str) -> None:
    """The demands a tie for second held, answered once the leader's departure has made the
    office vacant (:func:`answer_held_demands`)."""
    vacant = next((r for r in reversed(d.rulings) if r.kind is RulingKind.OFFICE_VACANT), None)
    gone = d.cand(left)
    if (
        d.phase is not Phase.DECIDED
        or pool.kind is not PoolKind.TIE_SECOND
        or vacant is None
        or gone is None
    ):
        return
    why = tie_steps.LEADER_LEFT.format(
        name=left, verb=LEFT_VERB.get(gone.status, tie_steps.LEADER_LEFT_VERB)
    )
    answer_held_demands(d, pool, vacant.cites, why)


def _lot_pool(d: Draft) -> tuple[str, ...]:
    """Who the drawing the count waits for is among: the candidates of its last
    ``lot_required`` ruling."""
    for r in reversed(d.rulings):
        if r.kind is RulingKind.LOT_REQUIRED:
            return r.candidates
    return ()


@handles(CandidateDied)
def on_died(d: Draft, e: CandidateDied) -> None:
    on_candidate_off(d, e.candidate, CandStatus.DIED, e.at, e.notice)


@handles(CandidateWithdrew)
def on_withdrew(d: Draft, e: CandidateWithdrew) -> None:
    on_candidate_off(d, e.candidate, CandStatus.WITHDREW, e.at, e.at)


@handles(CandidateDisqualified)
def on_disqualified(d: Draft, e: CandidateDisqualified) -> None:
    on_candidate_off(d, e.candidate, CandStatus.DISQUALIFIED, e.at, e.at)
