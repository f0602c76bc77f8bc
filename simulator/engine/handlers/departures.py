"""Handlers of candidates who leave: death, withdrawal and disqualification.

The ``departures`` law table says what each departure does at its moment (a name removed from the
ballot, a period reopened, a vacancy, a held demand answered, a tie or request window settled);
this module gathers the facts, consults the table and applies its effects.
"""

from __future__ import annotations

from datetime import datetime, tzinfo

import attrs

from simulator.engine.counting.consult import consult, finding_cites
from simulator.engine.counting.decide import decide_first, decide_runoff, tie_withdrawal
from simulator.engine.counting.declare import declare_leaders
from simulator.engine.counting.majority import (
    group_best_left_in_window,
    leader_left_in_window,
    runner_up_left_in_window,
)
from simulator.engine.counting.standing import LEFT_VERB, cannot_be_nominated, round_name
from simulator.engine.counting.ties import answer_held_demands
from simulator.engine.handlers.registry import handles
from simulator.engine.handlers.requests import request_in_window
from simulator.engine.rounds import round_start
from simulator.engine.state import ACTIVE, FAR_FUTURE, Cand, Draft, Log, Pool, Window
from simulator.law import calendar as cal
from simulator.law.cite import statute
from simulator.law.machine import Phase
from simulator.law.rules import Verdict
from simulator.law.tables import departed_declared, departures, repeat_notice
from simulator.law.tables.departure_facts import (
    BEFORE_ELECTION,
    DURING_FILING,
    ELECTION_OR_AFTER,
    Facts,
)
from simulator.law.vocab import CandStatus, Method, RulingKind, Stage, TimerTrigger, WindowKind
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
        withdrawal_as_death=ctx.interp.withdrawal_as_death,
        late_notice_by_death=ctx.interp.late_notice == "death_date",
        late_np_withdrawal_void=ctx.interp.late_nonpartisan_withdrawal == "no_effect",
        reopen_after_only_death=ctx.interp.only_candidate_dies == "reopen",
        committee_when_none_left=ctx.interp.no_candidate_left == "committee_names",
        reopen_group_death=ctx.interp.group_death_within_30 == "reopen",
        disqualified_name_off=ctx.interp.disqualified_before_printing == "name_off",
        # reading 35 reads the first primary's count (not the second primary's)
        committee_fills_left_place=ctx.interp.left_after_primary_day == "committee_fills"
        and d.round == 0,
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
    finding = departed_declared.RUNOFF_LEFT.evaluate(facts, chosen=d.ctx.chosen)
    near = list(finding.cites)
    if finding.effect is departed_declared.RunoffLeft.OTHER_DECLARED:  # reading 21
        d.rule(
            RulingKind.NO_PROVISION,
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
        RulingKind.NO_PROVISION,
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
        RulingKind.NAME_REMAINS,
        near[-1],
        f"{name} {verb}: the name remains on the {round_name(d)} ballot",
        [name],
    )


_NOTICE_OF = {
    CandStatus.DIED: "the notice of {name}'s death",
    CandStatus.WITHDREW: "{name}'s notice of withdrawal",
    CandStatus.DISQUALIFIED: "the disqualification of {name}",
}


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
        how += f" on {cand.off_at.astimezone(d.ctx.tz).date().isoformat()}"
    notice = _NOTICE_OF[what].format(name=name)
    found = consult(d, repeat_notice.REPEAT_NOTICE, facts, [name], f"{notice}, after {name} {how}")
    if (
        what is not CandStatus.WITHDREW
        and cand.status is CandStatus.WITHDREW
        and cand.barred is None
    ):
        d.update_cand(name, barred=what)  # whatever the table says of the ballot: see Cand
    if found.effect is repeat_notice.RepeatNotice.REJECTED:
        d.rule(
            RulingKind.REQUEST_REJECTED,
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
    finding = departures.TABLE.evaluate(facts)
    verb = LEFT_VERB[what]
    effects = finding.effect(facts)
    if finding.gap is not None:
        # a gap of the statutes: cite the nearest sections and say which fallback is used
        g = finding.gap
        d.rule(
            RulingKind.NO_PROVISION,
            g.cites,
            f"{name} {verb}: no provision covers these facts ({g.open}); the simulator "
            f"falls back to this: {g.fallback_for(facts)}",
            [name],
            gap=g.id,
            **departures.chosen_reading(g, facts),
        )
        rule_id = g.id
    elif finding.verdict is Verdict.CONFLICT:
        # no rule of the table says which colliding provision is the more specific
        lead = finding.rules[0]
        d.rule(
            RulingKind.NO_PROVISION,
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
        apply_effect(d, eff, name, verb, facts, notice, rule_id)
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
        # reading 18 switched: the departed candidate's seat is vacant now; the count is decided
        # again for the seats left, and requests already made are weighed again against it
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
    vacant = next((r for r in reversed(d.rulings) if r.kind is RulingKind.OFFICE_VACANT), None)
    gone = d.cand(left)
    if d.phase is not Phase.DECIDED or pool.kind != "tie_second" or vacant is None or gone is None:
        return
    why = f"{left}, the leader, {LEFT_VERB.get(gone.status, 'left')} and the office is vacant"
    answer_held_demands(d, pool, vacant.cites, why)


def _lot_pool(d: Draft) -> tuple[str, ...]:
    """Who the drawing the count waits for is among: the candidates of its last
    ``lot_required`` ruling."""
    for r in reversed(d.rulings):
        if r.kind is RulingKind.LOT_REQUIRED:
            return r.candidates
    return ()


def _reprint_would_remove(f: Facts) -> bool:
    """Whether a determination that there is time to reprint would take the name off."""
    found = attrs.evolve(f, reprint=True)
    return any(
        e.kind is departures.EffectKind.NAME_REMOVED
        for e in departures.TABLE.evaluate(found).effect(found)
    )


def apply_effect(
    d: Draft,
    eff: departures.Effect,
    name: str,
    verb: str,
    f: Facts,
    notice: datetime,
    rule_id: str,
    noticed: datetime | None = None,
) -> None:
    """Apply one effect of the ``departures`` table. A reopened period counts from ``notice``;
    ``noticed``, when the board learned of the departure before that (a reopening the board
    decides later, on its reprint determination), is said in the ruling."""
    ctx = d.ctx
    k = eff.kind
    if k is departures.EffectKind.NAME_REMOVED:
        d.update_cand(name, on_ballot=False, counted=False)
        why = (
            "the ballots are not yet printed"
            if not f.printed_at_notice
            else "the ballots will be reprinted"
        )
        if f.when == DURING_FILING:
            why = "filing is still open"
        d.rule(
            RulingKind.NAME_REMOVED,
            eff.cites,
            f"{name} {verb}; {why}, so the name is not on the ballot",
            [name],
        )
    elif k is departures.EffectKind.NAME_REMAINS:
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
        due = ""
        if f.past_party_withdrawal and d.original_close is not None:
            at = cal.party_withdrawal_deadline(d.original_close, ctx.office).astimezone(ctx.tz)
            due = f", here {at:%Y-%m-%d %H:%M}"
        why = why.replace("{deadline}", due)
        d.rule(
            RulingKind.NAME_REMAINS,
            eff.cites,
            f"{name} {verb}{when}: {why}, so the name remains on the ballot",
            [name],
        )
    elif k is departures.EffectKind.NOMINATION_ENDS:
        d.set(nominated=tuple(n for n in d.nominated if n != name))
        d.rule(
            RulingKind.NAME_REMOVED,
            eff.cites,
            f"{name} {verb} after being declared nominated: no longer a nominee; {eff.text}",
            [name],
        )
    elif k is departures.EffectKind.INEFFECTIVE:
        # G.S. 163-106(e): a withdrawal after the deadline leaves the candidacy standing
        d.update_cand(name, status=ACTIVE, off_at=None, on_ballot=True, counted=True)
    elif k is departures.EffectKind.NOT_COUNTED:
        d.update_cand(name, counted=False)
        d.rule(
            RulingKind.VOTES_DISREGARDED,
            eff.cites,
            f"votes cast for {name} are not counted or considered for any purpose",
            [name],
        )
    elif k is departures.EffectKind.VACANT_IF_ELECTED:
        c = d.cand(name)
        if name in d.elected and f.when == ELECTION_OR_AFTER:
            d.set(elected=tuple(n for n in d.elected if n != name), vacant=d.vacant + 1)
            d.rule(
                RulingKind.OFFICE_VACANT,
                eff.cites,
                f"{name}, declared elected, {verb} before taking the oath of office: the "
                "office is vacant, to be filled under G.S. 160A-63",
                [name],
            )
        elif c is not None:
            d.update_cand(name, vacant_if_elected=eff.cite)
    elif k is departures.EffectKind.RESULT_STANDS:
        d.rule(
            RulingKind.REQUEST_REJECTED,
            eff.cites,
            f"{name} {verb} after the result was declared: {name} was {eff.text}, so the "
            "result stands",
            [name],
            reason="the result stands",
        )
    elif k is departures.EffectKind.VACANT_NOW:
        d.rule(
            RulingKind.OFFICE_VACANT,
            eff.cites,
            f"{name} {verb} after taking the oath: a vacancy in office, filled by the "
            "governing body under G.S. 160A-63",
            [name],
        )
    elif k is departures.EffectKind.REOPEN:
        cite = eff.cite
        # reading 3: the period counts from the notice of the death
        opens, close = cal.reopened_period(notice, eff.days, cite, ctx.office)
        d.set(windows=(*d.windows, Window(opens, close.due, cite, WindowKind.REOPENED)))
        d.deadline(close)
        d.timer(close.due, TimerTrigger.REOPENED_FILING_CLOSES)
        d.rule(
            RulingKind.FILING_REOPENED,
            eff.cites,
            f"{name} {verb}; the board reopens filing for {eff.days} days, from "
            f"{opens.strftime('%Y-%m-%d %H:%M')} to {close.due.strftime('%Y-%m-%d %H:%M')}"
            + (
                f" (moved from {close.moved_from.date()}: {close.why_moved})"
                if close.moved_from
                else ""
            )
            + (
                f"; counted from the board's determination at {_hm(notice, ctx.tz)}, not from "
                f"the notice at {_hm(noticed, ctx.tz)}: a decision opens no period before it "
                "was made"
                if noticed is not None
                and cal.reopened_period(noticed, eff.days, cite, ctx.office)[0] != opens
                else ""
            ),
            [name],
            opens=opens,
            closes=close.due,
        )
        d.go(Phase.FILING_REOPENED)
    elif k is departures.EffectKind.CERTIFY_IF_NONE:
        d.set(after_reopen="certify")
    elif k is departures.EffectKind.CERTIFY and d.phase is Phase.FILING_REOPENED:
        # others may still file: whether a primary is needed is settled when the period closes
        d.update_cand(name, on_ballot=False, counted=False)
        d.rule(
            RulingKind.NAME_REMOVED,
            eff.cites,
            f"{name} {verb} while filing is reopened: the name is not on the ballot, and "
            "who is nominated is settled when the reopened period closes",
            [name],
        )
    elif k is departures.EffectKind.CERTIFY or k is departures.EffectKind.CANCEL_PRIMARY:
        remaining = d.active_names()
        if k is departures.EffectKind.CERTIFY:
            if remaining:
                d.rule(
                    RulingKind.NOMINEE_CERTIFIED,
                    eff.cites,
                    f"after {name} {verb}, the remaining candidate(s) are certified as the "
                    "party's nominee(s)",
                    remaining,
                )
            d.rule(
                RulingKind.PRIMARY_CANCELLED,
                eff.cites,
                "no primary is held for this office",
                remaining,
            )
        else:
            d.rule(
                RulingKind.PRIMARY_CANCELLED,
                eff.cites,
                f"after {name} {verb}, at most two candidates per seat remain: the primary "
                "is not held",
                remaining,
            )
            d.rule(
                RulingKind.NOMINATED, eff.cites, "declared nominees without a primary", remaining
            )
        d.set(nominated=tuple(sorted(remaining)))
        d.go(Phase.DECIDED)
    elif k is departures.EffectKind.PARTY_TO_NOMINATE:
        if f.nominee or ctx.stage is Stage.ELECTION:
            need = 1
            d.set(nominated=tuple(n for n in d.nominated if n != name))
        else:
            need = ctx.contest.seats - len(d.active_names())
        d.set(to_nominate=d.to_nominate + need)
        d.rule(
            RulingKind.PARTY_TO_NOMINATE,
            eff.cites,
            f"after {name} {verb}, the party executive committee names {need} nominee(s) "
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
    elif k is departures.EffectKind.REPLACEMENT_VOTES:
        d.rule(
            RulingKind.NAME_REMAINS,
            eff.cites,
            f"{name} {verb} after the ballots were printed ({departures.reprint_words(f)}): they "
            f"are not reprinted, and votes for {name} will count for the replacement "
            "nominee",
            [name],
        )
        d.set(awaiting_reprint=(*d.awaiting_reprint, name))


def _hm(moment: datetime, tz: tzinfo) -> str:
    return moment.astimezone(tz).strftime("%Y-%m-%d %H:%M")


@handles(CandidateDied)
def on_died(d: Draft, e: CandidateDied) -> None:
    on_candidate_off(d, e.candidate, CandStatus.DIED, e.at, e.notice)


@handles(CandidateWithdrew)
def on_withdrew(d: Draft, e: CandidateWithdrew) -> None:
    on_candidate_off(d, e.candidate, CandStatus.WITHDREW, e.at, e.at)


@handles(CandidateDisqualified)
def on_disqualified(d: Draft, e: CandidateDisqualified) -> None:
    on_candidate_off(d, e.candidate, CandStatus.DISQUALIFIED, e.at, e.at)
