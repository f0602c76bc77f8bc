"""Handlers of taking office and of nominations: the oath, and a nominee named by a party committee
(G.S. 163-114) for a vacancy."""

from __future__ import annotations

from simulator.engine.counting.consult import consult, finding_cites
from simulator.engine.handlers.registry import handles
from simulator.engine.state import Cand, Draft
from simulator.law.machine import Phase
from simulator.law.tables import party_nominees, vacancies
from simulator.law.tables.count import LEFT_VERB
from simulator.law.vocab import CandStatus, RulingKind, Stage
from simulator.model.events import NomineeNamed, OathTaken


@handles(OathTaken)
def on_oath(d: Draft, e: OathTaken) -> None:
    """The ``oath`` table: the first oath of a person elected is recorded (163-294.1(d)); any
    other oath is refused with its reason."""
    name = e.candidate
    facts = vacancies.OathFacts(elected=name in d.elected, sworn=any(n == name for n, _ in d.sworn))
    found = consult(d, vacancies.OATH, facts)
    if found.effect is vacancies.Oath.TAKES_OFFICE:
        d.set(sworn=(*d.sworn, (name, e.at)))
        return
    if found.effect is vacancies.Oath.ALREADY_SWORN:
        first = next(at for n, at in d.sworn if n == name).astimezone(d.ctx.tz)
        text = vacancies.OATH_WORDS[found.effect].format(name=name, first=first)
        d.rule(
            RulingKind.NO_EFFECT,
            finding_cites(found),
            text,
            [name],
            reason=found.effect.value,
        )
        return
    d.rule(
        RulingKind.OATH_NOT_ELECTED,
        finding_cites(found),
        vacancies.OATH_WORDS[found.effect].format(name=name),
        [name],
    )


@handles(NomineeNamed)
def on_nominee_named(d: Draft, e: NomineeNamed) -> None:
    """The ``nominee`` and ``nominee-place`` tables: whether the person named is nominated, and
    in whose place on ballots not reprinted; this handler gathers the facts and applies them."""
    name = e.candidate
    existing = d.cand(name)
    departed = existing is not None and existing.status in (
        CandStatus.DIED,
        CandStatus.DISQUALIFIED,
    )
    holds = name in d.nominated or (
        d.ctx.stage is Stage.ELECTION and existing is not None and existing.active
    )
    found = consult(
        d,
        party_nominees.NOMINEE,
        party_nominees.NomineeFacts(to_fill=d.to_nominate > 0, departed=departed, holds=holds),
    )
    if found.effect is party_nominees.Nomination.NO_VACANCY:
        d.rule(
            RulingKind.NO_EFFECT,
            found.cites,
            party_nominees.NOMINEE_WORDS[found.effect].format(name=name),
            [name],
            reason=str(found.effect),
        )
        return
    if found.effect is party_nominees.Nomination.CANNOT_SERVE:
        assert existing is not None
        d.rule(
            RulingKind.NO_EFFECT,
            found.cites,
            party_nominees.NOMINEE_WORDS[found.effect].format(
                name=name, verb=LEFT_VERB[existing.status]
            ),
            [name],
            reason=party_nominees.CANNOT_SERVE_REASON.format(status=existing.status),
        )
        return
    if found.effect is party_nominees.Nomination.ALREADY_NOMINEE:
        d.rule(
            RulingKind.NO_EFFECT,
            found.cites,
            party_nominees.NOMINEE_WORDS[found.effect].format(
                name=name,
                holds=party_nominees.HOLDS[name in d.nominated],
            ),
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
    place = consult(
        d,
        party_nominees.NOMINEE_PLACE,
        party_nominees.PlaceFacts(general_election=general, name_left=bool(left)),
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
        RulingKind.NOMINATED,
        found.cites,
        party_nominees.NAMED_WORDS[place.effect].format(name=name, replaces=replaces),
        [name],
    )
    if d.to_nominate == 0 and d.phase is Phase.AWAITING_NOMINATION:
        # a primary, or an election already counted, is decided once the nominee is named; an
        # election still to come goes on with the nominee on its ballot
        counted = d.ctx.stage is Stage.PRIMARY or d.declared_at is not None
        d.go(Phase.DECIDED if counted else Phase.BALLOT)
