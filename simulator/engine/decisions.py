"""Decisions the law leaves to someone that the log has not recorded: the pending items of a
contest's result (docs/history.md).

Where the log stops is not an event. A decision nobody recorded is pending, not decided: the
replay shows it from the moment the board learned the facts that call for it, with who makes it,
the provisions, and each answer open with what it leads to, and rules nothing for it, so the
whole story and a replay cut at any moment agree on everything dated before the cut.

The one such decision today is the board's determination whether there is time to reprint
printed ballots after a candidate left (G.S. 163-294.4(b), (c); 163-294.1(b)): each answer is
worked out by asking the ``departures`` table what it does with that answer, as
:func:`simulator.engine.handlers.ballots.on_reprint_determined` and
:func:`~simulator.engine.handlers.ballots.settle_deferred` would apply it.
"""

from __future__ import annotations

import attrs

from simulator.engine.counting.consult import consult
from simulator.engine.handlers.departures import departure_facts
from simulator.engine.result import Option, PendingDecision
from simulator.engine.state import Context, State, new_draft
from simulator.law.cite import Cite
from simulator.law.tables import departure_words, departures
from simulator.law.vocab import Choice, Decider, Decision

#: the effects a finding that there is time to reprint applies (on_reprint_determined)
_ON_REPRINT = (departures.EffectKind.NAME_REMOVED, departures.EffectKind.REOPEN)


def pending_decisions(state: State, ctx: Context) -> tuple[PendingDecision, ...]:
    """The decisions the contest waits on that nobody has recorded (none when none is due)."""
    if not state.deferred:
        return ()
    d = new_draft(state, ctx, state.clock, -1, "pending")  # read only: nothing is changed
    names = tuple(name for name, _, _, _ in state.deferred)
    since = min(notice for _, _, _, notice in state.deferred)
    cites: list[Cite] = []
    for _, given, _, _ in state.deferred:
        cites += given
    texts: dict[Choice, list[str]] = {Choice.ENOUGH_TIME: [], Choice.NOT_ENOUGH_TIME: []}
    kinds: dict[Choice, list[str]] = {Choice.ENOUGH_TIME: [], Choice.NOT_ENOUGH_TIME: []}
    for name, _, _, notice in state.deferred:
        c = d.cand(name)
        if c is None:
            continue
        facts = departure_facts(d, name, c.status, c.off_at or notice, notice)
        for choice, reprint in ((Choice.ENOUGH_TIME, True), (Choice.NOT_ENOUGH_TIME, False)):
            f = attrs.evolve(facts, reprint=reprint)
            if reprint:
                f = attrs.evolve(f, remaining=len(d.active_names()))
            effects: tuple[departures.Effect, ...] = consult(d, departures.TABLE, f).effect(f)
            if reprint:
                if any(e.kind is departures.EffectKind.NAME_REMOVED for e in effects):
                    effects = tuple(e for e in effects if e.kind in _ON_REPRINT)
                else:  # the rule keeps the name whatever the board finds
                    effects = tuple(
                        e for e in effects if e.kind is departures.EffectKind.NAME_REMAINS
                    )
            for e in effects:
                cites += (e.cite, *e.also)
                if e.kind.value not in kinds[choice]:
                    kinds[choice].append(e.kind.value)
                text = departure_words.would(e, name)
                if text not in texts[choice]:
                    texts[choice].append(text)
    options = tuple(
        Option(
            choice,
            tuple(kinds[choice]),
            "; ".join(texts[choice]) or departure_words.NOTHING_CHANGES,
        )
        for choice in (Choice.ENOUGH_TIME, Choice.NOT_ENOUGH_TIME)
    )
    return (
        PendingDecision(
            Decision.REPRINT,
            Decider.COUNTY_BOARD,
            since,
            tuple(dict.fromkeys(cites)),
            names,
            options,
        ),
    )
