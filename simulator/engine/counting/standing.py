"""Where each candidate stands when the count reaches them: their standing in the law tables, who
can still be nominated or declared, the tallies counted and the total the threshold is taken of."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

import attrs

from simulator.engine.counting.consult import consult
from simulator.engine.ranking import ranked
from simulator.engine.state import Cand, Draft
from simulator.law.tables import count as count_order
from simulator.law.tables import (
    counted_votes,
    declaration,
    departed_declared,
    party_nominees,
    tie_steps,
)
from simulator.law.vocab import CandStatus, RulingKind
from simulator.model.events import WRITE_IN_GENERIC, is_write_in


def standing(c: Cand | None) -> CandStatus:
    """Where a candidate stands when the count reaches them (nobody: as one still running)."""
    return CandStatus.ACTIVE if c is None else c.status


def still_tied(d: Draft, names: Sequence[str], *, first: bool) -> tuple[str, ...]:
    """The tied candidates the ``still-tied`` table keeps among the tied (a tie for first when
    ``first``, else for second)."""
    return tuple(
        n
        for n in names
        if consult(d, tie_steps.STILL_TIED, tie_steps.TiedFacts(first, standing(d.cand(n)))).effect
        is tie_steps.Tied.STILL_TIED
    )


def left_after_election_day(d: Draft, c: Cand | None) -> bool:
    return c is not None and c.off_at is not None and c.off_at >= d.ctx.election_start


def threshold_total(d: Draft, tally: Mapping[str, int]) -> int:
    """The total the threshold is taken of: the votes of every name the ``threshold-total``
    table counts in it. Votes an earlier ruling left uncounted for any purpose (163-112) are
    out of it."""
    ctx = d.ctx
    interp = ctx.interp
    primary = ctx.partisan_primary
    write_ins, dead_votes = interp.write_ins_in_total, interp.dead_votes_in_total
    total = 0
    for name, v in tally.items():
        c = d.cand(name)
        if c is not None and not c.counted:
            continue
        died = c is not None and c.status is CandStatus.DIED
        if _in_total(primary, is_write_in(name), c is not None, died, write_ins, dead_votes):
            total += v
    return total


@cache
def _in_total(
    primary: bool, write_in: bool, filed: bool, died: bool, write_ins: bool, dead_votes: bool
) -> bool:
    """The ``threshold-total`` table on these facts (a pure table: each answer is found once)."""
    facts = counted_votes.TotalFacts(
        primary=primary,
        write_in=write_in,
        filed=filed,
        died=died,
        write_ins_in_total=write_ins,
        dead_votes_in_total=dead_votes,
    )
    return consult(None, counted_votes.TOTAL, facts).effect is counted_votes.Total.IN


def effective_tally(d: Draft, rnd: int) -> dict[str, int]:
    tally = dict(d.tallies[rnd])
    for c in d.cands:
        if c.replaces and c.replaces in tally:
            tally[c.name] = tally.get(c.name, 0) + tally.pop(c.replaces)
    return tally


def counted_people(
    d: Draft, tally: Mapping[str, int], *, nominating: bool
) -> list[tuple[str, int]]:
    """Who can take a place: candidates on the ballot (and named write-ins), best first.

    A name that stayed on the ballot with its votes counted can still poll highest; in a primary
    the ``declared-left`` table says such a candidate is not nominated (the next highest takes
    the place), in an election what a win by them leaves (a vacancy)."""
    names: list[str] = []
    replaced = {c.replaces for c in d.cands if c.replaces}
    for c in d.cands:
        if c.name == WRITE_IN_GENERIC or c.name in replaced:
            continue
        if c.active or (
            c.on_ballot
            and c.counted
            and not (nominating and not_nominated(d, c) and not holds_place(d, c))
        ):
            names.append(c.name)
    for n in tally:
        if is_write_in(n) and n != WRITE_IN_GENERIC and n not in names:
            names.append(n)
    return ranked(tally, names)


def nobody_below(d: Draft) -> str:
    """Why the best placed are declared when nobody is below them."""
    return count_order.NOBODY_BELOW[any(cannot_be_nominated(d, c.name) for c in d.cands)]


def cannot_be_nominated(d: Draft, name: str) -> bool:
    """``name`` left the race and the ``declared-left`` table gives them no nomination (a place
    the count would give them passes to the next candidate); False for a candidate declared
    before they left (:func:`holds_place`) and in a contest that elects."""
    c = d.cand(name)
    return (
        d.ctx.nominating
        and c is not None
        and not c.active
        and not_nominated(d, c)
        and not holds_place(d, c)
    )


def holds_place(d: Draft, c: Cand) -> bool:
    """A candidate declared nominated who left only after the declaration: the place stays
    theirs, and the party's executive committee fills it (G.S. 163-114). When a lot or a recount
    decides another place later, the count ranks them where they polled, as the canvass did,
    and does not give their place to the next highest a second time."""
    return not c.active and any(
        r.kind is RulingKind.NOMINATED and c.name in r.candidates for r in d.rulings
    )


def named_by_committee(d: Draft, name: str) -> bool:
    """``name`` was nominated by the party's executive committee (G.S. 163-114), not the count."""
    named = consult(
        d, party_nominees.NOMINEE, party_nominees.NomineeFacts(to_fill=True, departed=False)
    ).cites
    return any(
        r.kind is RulingKind.NOMINATED and name in r.candidates and r.cites == named
        for r in d.rulings
    )


def ruled_twice(d: Draft, name: str) -> bool:
    """The place the count gave ``name`` a second time went to the committee already (the
    count is decided again after a lot or a recount)."""
    return any(
        r.kind is RulingKind.NO_PROVISION
        and r.get("gap") == "nominated-twice"
        and name in r.candidates
        for r in d.rulings
    )


def left_facts(d: Draft, c: Cand) -> departed_declared.LeftFacts:
    """The ``declared-left`` table's facts for a departed candidate the count reaches."""
    return departed_declared.LeftFacts(
        nominating=d.ctx.nominating,
        what=standing(c),
        after_election_day=left_after_election_day(d, c),
        preset=departed_declared.Preset.of(c.vacant_if_elected),
        withdrawal_as_death=d.ctx.interp.withdrawal_as_death,
    )


def not_nominated(d: Draft, c: Cand) -> bool:
    facts = attrs.evolve(left_facts(d, c), nominating=True)
    return (
        consult(d, departed_declared.DECLARED_LEFT, facts, readings=False).effect
        is departed_declared.Seat.NOT_NOMINATED
    )


def how_left(d: Draft, names: Sequence[str], otherwise: str) -> str:
    """How ``names``, candidates who left, left, in the law's words (:func:`count.how_left
    <simulator.law.tables.count.how_left>`)."""
    return count_order.how_left([(n, standing(d.cand(n))) for n in names], otherwise)


def round_name(d: Draft) -> str:
    return declaration.ROUND_NAME[d.ctx.partisan_primary]
