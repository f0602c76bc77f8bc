"""Handlers of runoff requests and demands (G.S. 163-293(e), 163-111): a request in its window,
one made early, and what the ``request`` table answers."""

from __future__ import annotations

from datetime import datetime

import attrs

from simulator.engine.counting.consult import consult, finding_cites
from simulator.engine.counting.runoff import ballot_final, call_runoff
from simulator.engine.counting.standing import round_name
from simulator.engine.counting.ties import settle_tie
from simulator.engine.handlers.registry import handles
from simulator.engine.state import Draft, Pool
from simulator.law.machine import Phase
from simulator.law.readings import EarlyRequest
from simulator.law.tables import runoff_requests, tie_steps
from simulator.law.tables.count import LEFT_THE_RACE, LEFT_VERB
from simulator.law.vocab import DeadlineKind, Method, PoolKind, RulingKind, RunoffStatus
from simulator.model.events import RunoffRequested


@handles(RunoffRequested)
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
    awaiting = runoff_requests.unsettled(phase, d.round)
    if awaiting is not None:
        # the count has not yet said who may request: the request is held and weighed, as of
        # the time it was made, once the canvass, recount or lot says it (weigh_held_requests)
        facts = attrs.evolve(
            _request_base(d, runoff_requests.Moment.BEFORE_RESULT, name), awaiting=awaiting
        )
        if _ask(d, name, facts) is runoff_requests.Answer.HELD:
            d.set(early_requests=(*d.early_requests, (name, e.at, e.index)))
        return
    if d.round == 0 and d.declared_at is not None and e.at < d.declared_at:
        # `canvass_before_its_day`: a canvass held before its day declared the result as of that
        # day, and this request comes before it: a request made before the declaration (held, or
        # premature under ``early_request: reject``); the count has said who may request, so a held
        # one is weighed at once, as made at the declaration
        facts = _request_base(d, runoff_requests.Moment.BEFORE_RESULT, name)
        if _ask(d, name, facts) is runoff_requests.Answer.HELD:
            d.set(early_requests=(*d.early_requests, (name, e.at, e.index)))
            weigh_held_requests(d)
        return
    if phase is Phase.TIE_WITHDRAWAL and pool is not None and pool.kind is PoolKind.TIE_SECOND:
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
        and (pool.kind is PoolKind.REQUEST)
    ):
        request_in_window(d, name, e.at, pool)
        return
    # The window may be gone (the leader declared when it closed): the deadline still says late.
    dues = [
        dl.due
        for dl in d.deadlines
        if dl.kind in (DeadlineKind.RUNOFF_REQUEST, DeadlineKind.SECOND_PRIMARY_REQUEST)
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
        early_wait=ctx.interp.early_request is not EarlyRequest.REJECT,
    )


def _left_verb(d: Draft, name: str) -> str:
    c = d.cand(name)
    return LEFT_VERB.get(c.status, LEFT_THE_RACE) if c is not None else LEFT_THE_RACE


def _ask(d: Draft, name: str, facts: runoff_requests.RequestFacts) -> runoff_requests.Answer:
    """Evaluate the ``request`` table; a rejection is ruled with the rule's citation."""
    finding = consult(d, runoff_requests.REQUEST, facts, [name], {"name": name})
    answer = finding.effect
    if answer in (runoff_requests.Answer.ACCEPTED, runoff_requests.Answer.HELD):
        return answer
    cites = finding_cites(finding)
    if answer is runoff_requests.Answer.NO_RUNOFF_METHOD:
        text = runoff_requests.REQUEST_WORDS[answer].format(name=name)
    elif answer is runoff_requests.Answer.PREMATURE:
        before = facts.awaiting.value
        if d.round == 0 and d.declared_at is not None and d.at < d.declared_at:
            # `canvass_before_its_day`: the early canvass's result is declared as of the day the law
            # fixes
            day = d.declared_at.astimezone(d.ctx.tz).date().isoformat()
            before = runoff_requests.BEFORE_THE_DECLARATION.format(day=day)
        text = runoff_requests.REQUEST_WORDS[answer].format(name=name, before=before)
    else:
        why = {
            runoff_requests.Answer.LEFT_RACE: runoff_requests.LEFT_THE_RACE.format(
                name=name, verb=_left_verb(d, name)
            ),
            runoff_requests.Answer.ALREADY_CALLED: runoff_requests.ROUND_CALLED.format(
                round=round_name(d)
            )
            if facts.moment is runoff_requests.Moment.CLOSED
            else runoff_requests.RUNOFF_CALLED,
        }.get(answer, answer.value)
        text = runoff_requests.REQUEST_REJECTED.format(name=name, why=why)
        reason = "late" if answer is runoff_requests.Answer.LATE else why
        d.rule(RulingKind.REQUEST_REJECTED, cites, text, [name], reason=reason)
        return answer
    d.rule(RulingKind.REQUEST_REJECTED, cites, text, [name], reason=answer.value)
    return answer


def request_in_window(d: Draft, name: str, at: datetime, pool: Pool) -> None:
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

    # else (a group, `group_runoff_ballot`): other runners-up may still join the ballot until the
    # deadline; the runoff is called with every requester when the window closes.


def weigh_held_requests(d: Draft) -> None:
    """`early_request`: the requests held because they came before the count said who may request
    (before the canvass, or while a recount or a drawing of lots was awaited) are weighed once
    it has said it (the canvass, recount or lot that settles the places), each as of the time it
    was made: in time if it was made before the deadline, and counted if its maker is then
    entitled. While the count still waits (a canvass that leads to a recount or a lot), they
    stay held."""
    early = d.early_requests
    if not early or runoff_requests.unsettled(d.phase, d.round) is not None:
        return
    d.set(early_requests=())
    for name, at, _ in early:
        pool = d.pool
        if d.phase in (Phase.RUNOFF_REQUEST, Phase.RUNOFF_CALLED) and pool is not None:
            # (in time or late as made: one made before the declaration is in time)
            request_in_window(d, name, max(at, d.declared_at or at), pool)
        elif (
            d.phase is Phase.TIE_WITHDRAWAL
            and pool is not None
            and pool.kind is PoolKind.TIE_SECOND
        ):
            facts = attrs.evolve(
                _request_base(d, runoff_requests.Moment.TIE_FOR_SECOND, name),
                entitled=name in pool.eligible,
                late=pool.request_due is not None and at > pool.request_due,
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
