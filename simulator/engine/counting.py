"""Counting the vote: the results each method declares and what follows them.

Plurality (G.S. 163-292), majority and runoff (163-293), nonpartisan primaries (163-294), partisan
primaries and second primaries (163-111(a), 163-291(5)-(6)), ties, recounts, lots, vacancies of
seats won by candidates who cannot serve (163-294.1, 163-294.4(c)). Each function works on a
:class:`simulator.engine.state.Draft` and records rulings with their citations.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import time
from fractions import Fraction
from functools import cache
from typing import Any, TypeVar

import attrs

from simulator.engine.ranking import Selection, ranked, select
from simulator.engine.result import exact
from simulator.engine.state import Cand, Draft, Pool
from simulator.law import calendar as cal
from simulator.law.calendar import Deadline
from simulator.law.cite import Cite, statute
from simulator.law.machine import Phase
from simulator.law.parameters import in_force
from simulator.law.rules import Finding, Table, Verdict
from simulator.law.tables import count as count_order
from simulator.law.tables import (
    counted_votes,
    declaration,
    departed_declared,
    departed_in_count,
    party_nominees,
    round_timing,
    runoff_requests,
    tie_steps,
    ties,
    vacancies,
)
from simulator.law.tables import departures as cg
from simulator.law.vocab import (
    CandStatus,
    DeadlineKind,
    Method,
    PoolKind,
    RulingKind,
    RunoffStatus,
    TimerTrigger,
)
from simulator.model.events import (
    WRITE_IN_GENERIC,
    is_write_in,
)

K = RulingKind
DK = DeadlineKind
TT = TimerTrigger


# ----------------------------------------------------------------------------------------
# Consulting a rule table (simulator.count_rules)
# ----------------------------------------------------------------------------------------


F = TypeVar("F")
E = TypeVar("E")


def consult(
    d: Draft,
    table: Table[F, E],
    facts: F,
    who: Sequence[str],
    context: str,
    *,
    say: bool = True,
    readings: bool = True,
) -> Finding[F, E]:
    """Evaluate a table; a conflict or a gap is said in a ``no_provision`` ruling naming the
    provisions, what the text leaves open and the fallback used (a conflict marked in extra).
    ``say=False`` only looks the answer up (a lot already drawn completes a ruled tie);
    ``readings=False`` keeps the default fallbacks whatever the interpretation switches choose
    (where the facts leave nobody for another reading's ruling to name)."""
    finding = table.evaluate(facts, chosen=d.ctx.chosen if readings else None)
    if finding.no_provision and say:
        if finding.verdict is Verdict.CONFLICT:
            head = "the provisions that reach these facts collide"
        else:
            head = "no provision covers these facts"
        d.rule(
            K.NO_PROVISION,
            finding.cites,
            f"{context}: {head} ({finding.open}); the simulator falls back to this: "
            f"{finding.fallback}",
            who,
            once=True,
            **finding.extra(),
        )
    return finding


#: Where a candidate of each status stands when the count reaches them
_STANDING = {status: count_order.Standing(status.value) for status in CandStatus}


def standing(c: Cand | None) -> count_order.Standing:
    return count_order.Standing.ACTIVE if c is None else _STANDING[c.status]


def still_tied(d: Draft, names: Sequence[str], *, first: bool) -> tuple[str, ...]:
    """The tied candidates the ``still-tied`` table keeps among the tied (a tie for first when
    ``first``, else for second)."""
    return tuple(
        n
        for n in names
        if tie_steps.STILL_TIED.evaluate(tie_steps.TiedFacts(first, standing(d.cand(n)))).effect
        is tie_steps.Tied.STILL_TIED
    )


def left_after_election_day(d: Draft, c: Cand | None) -> bool:
    return c is not None and c.off_at is not None and c.off_at >= d.ctx.election_start


def finding_cites(finding: Finding[F, E]) -> list[Cite]:
    """What a ruling made on a finding cites: the winning rule, or the provisions named."""
    rule = finding.rule
    return [statute(rule.cite)] if rule is not None else list(finding.cites)


# ----------------------------------------------------------------------------------------
# Deciding results
# ----------------------------------------------------------------------------------------


def _threshold_total(d: Draft, tally: Mapping[str, int]) -> int:
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
    return counted_votes.TOTAL.evaluate(facts).effect is counted_votes.Total.IN


def _effective_tally(d: Draft, rnd: int) -> dict[str, int]:
    tally = dict(d.tallies[rnd])
    for c in d.cands:
        if c.replaces and c.replaces in tally:
            tally[c.name] = tally.get(c.name, 0) + tally.pop(c.replaces)
    return tally


def _people(d: Draft, tally: Mapping[str, int], *, nominating: bool) -> list[tuple[str, int]]:
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
            and not (nominating and _not_nominated(d, c) and not _holds_place(d, c))
        ):
            names.append(c.name)
    for n in tally:
        if is_write_in(n) and n != WRITE_IN_GENERIC and n not in names:
            names.append(n)
    return ranked(tally, names)


def _no_other(d: Draft) -> str:
    """Why the best placed are declared when nobody is below them."""
    if any(cannot_be_nominated(d, c.name) for c in d.cands):
        return "no other candidate who can be nominated"
    return "no other candidate"


def cannot_be_nominated(d: Draft, name: str) -> bool:
    """``name`` left the race and the ``declared-left`` table gives them no nomination (a place
    the count would give them passes to the next candidate); False for a candidate declared
    before they left (:func:`_holds_place`) and in a contest that elects."""
    c = d.cand(name)
    return (
        d.ctx.nominating
        and c is not None
        and not c.active
        and _not_nominated(d, c)
        and not _holds_place(d, c)
    )


def _holds_place(d: Draft, c: Cand) -> bool:
    """A candidate declared nominated who left only after the declaration: the place stays
    theirs, and the party's executive committee fills it (G.S. 163-114). When a lot or a recount
    decides another place later, the count ranks them where they polled, as the canvass did,
    and does not give their place to the next highest a second time."""
    return not c.active and any(r.kind is K.NOMINATED and c.name in r.candidates for r in d.rulings)


def _named_by_committee(d: Draft, name: str) -> bool:
    """``name`` was nominated by the party's executive committee (G.S. 163-114), not the count."""
    named = party_nominees.NOMINEE.evaluate(
        party_nominees.NomineeFacts(to_fill=True, departed=False)
    ).cites
    return any(
        r.kind is K.NOMINATED and name in r.candidates and r.cites == named for r in d.rulings
    )


def _ruled_twice(d: Draft, name: str) -> bool:
    """The place the count gave ``name`` a second time went to the committee already (the
    count is decided again after a lot or a recount)."""
    return any(
        r.kind is K.NO_PROVISION and r.get("gap") == "nominated-twice" and name in r.candidates
        for r in d.rulings
    )


def _fmt_tally(people: Sequence[tuple[str, int]]) -> str:
    return ", ".join(f"{n} {v}" for n, v in people)


def _by_highest(
    verb: str, people: Sequence[tuple[str, int]], *, of: str = "", lot: str = ""
) -> Callable[[Sequence[str]], str]:
    """The text of a declaration by the highest votes, from the names declared: who, why, then
    the whole tally set apart (so that it does not read as the list of those declared), like
    "Ann elected with the highest vote; the votes: Ann 500, Bob 300"; ``of``: the vote's
    round and pool ("in the runoff"), ``lot``: what drawings of lots settled."""
    tally = _fmt_tally(people)
    votes = dict(people)
    top = people[0][1] if people else None

    def text(names: Sequence[str]) -> str:
        # one declared below another who polled more (whose place is vacant, or who was
        # declared before) did not poll "the highest vote": one of the highest
        if len(names) > 1:
            why = "the highest votes"
        elif votes.get(names[0]) == top:
            why = "the highest vote"
        else:
            why = "one of the highest votes"
        return f"{', '.join(names)} {verb} with {why}{of}; the votes: {tally}{lot}"

    return text


def _lot_ruling(d: Draft, sel: Selection, cite: Sequence[Cite]) -> None:
    for winner in sel.lot_winners:  # one ruling for each drawing
        d.rule(
            K.DECIDED_BY_LOT,
            list(cite),
            f"{winner} won the drawing of lots for a tied place",
            [winner],
            once=True,
        )
    if sel.tied:  # (those drawn already hold their places: the rest is still tied)
        left = [n for n in sel.tie_pool if n not in sel.lot_winners]
        _lot_awaited(d, left, sel.tie_places, cite)


_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _lot_awaited(
    d: Draft, tied: Sequence[str], places: int, cite: Sequence[Cite], what: str = ""
) -> None:
    """The tie that a drawing of lots must settle before the count goes on, ruled when the count
    reaches it (and again for what is still tied after a drawing): who is tied, for how many
    places, and the provision that sends it to a lot. The result waits for the drawing."""
    count = _WORDS[places] if places < len(_WORDS) else str(places)
    place = what or f"{count} place{'' if places == 1 else 's'}"
    d.rule(
        K.LOT_REQUIRED,
        list(cite),
        f"{', '.join(tied)} are tied for {place}: the board decides "
        + ("it" if places == 1 else "them")
        + " by drawing lots",
        tied,
        once=True,
        seats=places,
    )


def _declare(
    d: Draft,
    names: Sequence[str],
    cite: Cite | Sequence[Cite],
    text: str | Callable[[Sequence[str]], str],
    *,
    why: str | None = None,
) -> None:
    """Declare names elected (or nominated in a primary), making seats vacant where a winner
    could not take office; ``why``: the reason they are declared, when it is not the votes they
    polled alone (a lot, the others' leaving, nobody asking for a runoff). ``text`` is the
    ruling's text, or makes it from the names it declares (those who take their places)."""
    ctx = d.ctx
    winners: list[str] = []
    for n in names:
        c = d.cand(n)
        if c is None or c.active:
            winners.append(n)
            continue
        if ctx.nominating and _holds_place(d, c):
            continue  # declared before they left: the committee fills the place
        if _declare_departed(d, c, why):
            winners.append(n)
    # a ruling names only those it declares (a lot or a runoff completes a partial result)
    already = d.nominated if ctx.nominating else d.elected
    if ctx.nominating:
        for w in winners:
            if w in already and _named_by_committee(d, w) and not _ruled_twice(d, w):
                consult(
                    d,
                    party_nominees.TWICE,
                    party_nominees.TwiceFacts(by_committee=True),
                    [w],
                    f"{w}, named nominee by the party's executive committee, also takes a "
                    "place in the count",
                )
                d.set(to_nominate=d.to_nominate + 1)
    winners = [w for w in winners if w not in already]
    if not winners:
        return
    if not isinstance(text, str):
        text = text(winners)
    if ctx.nominating:
        d.set(nominated=(*d.nominated, *winners))
        d.rule(K.NOMINATED, cite, text, winners, once=True)
    else:
        d.set(elected=(*d.elected, *winners))
        d.rule(K.ELECTED, cite, text, winners, once=True)


def _declare_departed(d: Draft, c: Cand, why: str | None) -> bool:
    """The ``declared-left`` table for a departed candidate the count places: True when they
    take the place; else the ruling on it (the office vacant, or the votes disregarded)."""
    n = c.name
    finding = consult(
        d,
        departed_declared.DECLARED_LEFT,
        _left_facts(d, c),
        [n],
        f"{n} ({c.status}) polled enough votes to take a place",
    )
    if finding.effect is departed_declared.Seat.ELECTED:
        return True
    if finding.effect is departed_declared.Seat.VACANT:
        # A seat already declared vacant for this person (a winner who left before the oath,
        # declared again when a lot reopens the decision) is counted once.
        if not any(r.kind is K.OFFICE_VACANT and n in r.candidates for r in d.rulings):
            d.set(vacant=d.vacant + 1)
        won = (
            "polled enough votes to be elected"
            if why is None
            else f"is the one to be declared elected ({why})"
        )
        d.rule(
            K.OFFICE_VACANT,
            finding_cites(finding),
            f"{n} ({c.status}) {won}: the board declares the office vacant, to be filled "
            "under G.S. 160A-63",
            [n],
            once=True,
        )
    else:
        d.rule(
            K.VOTES_DISREGARDED,
            finding_cites(finding),
            f"{n} ({c.status}) cannot be declared nominated",
            [n],
            once=True,
        )
    return False


def _by_lot(sel: Selection) -> str:
    """What a declaration adds when drawings of lots settled part of it."""
    if not sel.lot_winners:
        return ""
    return f"; the tie settled by the drawing of lots ({', '.join(sel.lot_winners)})"


def _left_facts(d: Draft, c: Cand) -> departed_declared.LeftFacts:
    """The ``declared-left`` table's facts for a departed candidate the count reaches."""
    return departed_declared.LeftFacts(
        nominating=d.ctx.nominating,
        what=standing(c),
        after_election_day=left_after_election_day(d, c),
        preset=departed_declared.Preset.of(c.vacant_if_elected),
        withdrawal_as_death=d.ctx.interp.withdrawal_as_death,
    )


def _not_nominated(d: Draft, c: Cand) -> bool:
    facts = attrs.evolve(_left_facts(d, c), nominating=True)
    return (
        departed_declared.DECLARED_LEFT.evaluate(facts).effect
        is departed_declared.Seat.NOT_NOMINATED
    )


def declare_leaders(
    d: Draft, names: Sequence[str], cite: Cite | Sequence[Cite], reason: str
) -> None:
    d.set(runoff_status=RunoffStatus.NONE, pool=None)
    d.drop_timers(TT.RUNOFF_REQUEST_PASSES, TT.TIE_WITHDRAWAL_PASSES)
    what = "nominated" if d.ctx.nominating else "elected"
    _declare(d, names, cite, f"{reason}: {', '.join(names)} {what}", why=reason)
    d.go(Phase.DECIDED)


def _fill_vacancies_if_short(d: Draft, places: int, chosen: Sequence[str]) -> None:
    """The ``empty-seats`` table: places no candidate fills (163-294.1(d))."""
    short = places - len(chosen)
    if short <= 0:
        return
    found = vacancies.EMPTY_SEATS.evaluate(vacancies.SeatsFacts(nominating=d.ctx.nominating))
    if found.effect is vacancies.Seats.VACANT:
        d.set(vacant=d.vacant + short)
        d.rule(
            K.OFFICE_VACANT,
            [*found.cites, statute(vacancies.FILLED_UNDER)],
            f"{short} seat(s) had no candidate to fill them: vacant, to be filled under "
            "G.S. 160A-63",
            (),
            once=True,
        )


def decide_first(d: Draft) -> None:
    """The result of the first election or primary, declared at the canvass (or recount)."""
    _votes_for_names_left_off(d)
    finding = _result(d)
    if finding.effect.threshold_based:
        _decide_majority(d, finding)
    elif finding.effect is declaration.Decision.TWO_PER_SEAT:
        _decide_nonpartisan_primary(d, finding)
    else:
        _decide_plurality(d, finding)


def _votes_for_names_left_off(d: Draft) -> None:
    """Votes the returns give a candidate whose name an earlier ruling left off the ballot (a
    death or a departure before the ballots were printed, or with a reprint): no ballot offered
    the name, so they are not counted and are out of the total. Said once, with the provision
    that left the name off, rather than dropped without a word."""
    tally = _effective_tally(d, 0)
    for c in d.cands:
        votes = tally.get(c.name, 0)
        if c.on_ballot or c.counted or not votes or is_write_in(c.name):
            continue
        off = [r for r in d.rulings if r.kind is K.NAME_REMOVED and c.name in r.candidates]
        if not off or any(
            r.kind is K.VOTES_DISREGARDED and c.name in r.candidates for r in d.rulings
        ):
            continue
        day = off[-1].at.astimezone(d.ctx.tz).date().isoformat()
        d.rule(
            K.VOTES_DISREGARDED,
            list(off[-1].cites),
            f"{votes} votes are reported for {c.name}, whose name was left off the ballot on "
            f"{day}: no ballot offered the name, so they are not counted",
            [c.name],
            once=True,
        )


def _result(
    d: Draft, *, runoff: bool = False
) -> Finding[declaration.ResultFacts, declaration.Decision]:
    """The ``result`` table: which provision decides this count, and how."""
    ctx = d.ctx
    facts = declaration.ResultFacts(
        declaration.count_of(ctx.method, ctx.stage), ctx.contest.is_group, runoff
    )
    return declaration.RESULT.evaluate(facts)


def _ruled_cite(finding: Finding[Any, Any]) -> Cite:
    """The one provision a table's ruling rests on."""
    rule = finding.rule
    assert rule is not None, f"{finding.id}: a ruling of the result tables is always a rule"
    return statute(rule.cite)


def _tie_kind(d: Draft) -> ties.Kind:
    if d.ctx.method is Method.PLURALITY:
        return ties.Kind.PLURALITY
    return ties.Kind.AFTER_PRIMARY if d.ctx.method is Method.PRIMARY else ties.Kind.PARTISAN


def _decide_plurality(
    d: Draft, result: Finding[declaration.ResultFacts, declaration.Decision]
) -> None:
    n = d.contest.seats
    tally = _effective_tally(d, 0)
    people = _people(d, tally, nominating=False)
    if result.no_provision:  # a partisan general election: the rule is not in the sources
        count = declaration.ResultFacts(
            declaration.count_of(d.ctx.method, d.ctx.stage), d.ctx.contest.is_group
        )
        consult(d, declaration.RESULT, count, (), "the count of the election")
        elected_cite: Cite | list[Cite] = list(result.cites)
    else:
        elected_cite = _ruled_cite(result)
    sel = select(people, n, d.lots, harmless_ties=d.ctx.interp.harmless_ties)
    if sel.tied or sel.lot_winners:
        over, estimate = count_order.voters_over_5000(sum(tally.values()), n)
        pool = sel.tie_pool or sel.lot_winners
        gone = [x for x in pool if standing(d.cand(x)) is not count_order.Standing.ACTIVE]
        # (one who left with the name on the ballot, before the vote, is read first; one who
        # left on or after election day, before the tie was broken, is another question)
        gone.sort(key=lambda x: left_after_election_day(d, d.cand(x)))
        facts = ties.TieFacts(
            _tie_kind(d),
            over,
            estimate,
            departed=standing(d.cand(gone[0])) if gone else count_order.Standing.ACTIVE,
            withdrawal_as_death=d.ctx.interp.withdrawal_as_death,
            left_after=bool(gone) and left_after_election_day(d, d.cand(gone[0])),
        )
        who = ", ".join(f"{x} ({standing(d.cand(x)).value})" if x in gone else x for x in pool)
        finding = consult(d, ties.TIE, facts, pool, f"{who} tie for a seat", say=sel.tied)
        tie_cites = finding_cites(finding)
        if finding.effect is ties.TieEffect.VACANT and sel.tied:
            if sel.chosen:
                _declare(d, sel.chosen, elected_cite, _by_highest("elected", people))
            d.set(vacant=d.vacant + sel.tie_places)
            d.rule(
                K.OFFICE_VACANT,
                tie_cites,
                f"the highest vote for {sel.tie_places} seat(s) is shared by {who}: the board "
                "declares the seat(s) vacant, to be filled under G.S. 160A-63" + finding.note(),
                gone,
                once=True,
            )
            d.go(Phase.DECIDED)
            return
        if finding.effect is ties.TieEffect.NEW_ELECTION and not sel.lot_winners:
            if sel.chosen:
                _declare(d, sel.chosen, elected_cite, _by_highest("elected", people))
            d.rule(
                K.NEW_ELECTION_ORDERED,
                tie_cites,
                f"{', '.join(sel.tie_pool)} tie for {sel.tie_places} seat(s) with more than 5,000 "
                "voters in the ballot item: no lot; the State Board of Elections orders a new "
                "election with only the tied candidates on the ballot",
                sel.tie_pool,
                once=True,
                seats=sel.tie_places,
            )
            d.go(Phase.AWAITING_NEW_ELECTION)
            return
        _lot_ruling(d, sel, tie_cites)
    text = _by_highest("elected", people, lot=_by_lot(sel))
    if sel.tied:
        if sel.chosen:
            _declare(d, sel.chosen, elected_cite, text)
        d.go(Phase.AWAITING_LOT)
        return
    _declare(d, sel.chosen, elected_cite, text)
    _fill_vacancies_if_short(d, n, sel.chosen)
    d.go(Phase.DECIDED)


def _decide_nonpartisan_primary(
    d: Draft, result: Finding[declaration.ResultFacts, declaration.Decision]
) -> None:
    """G.S. 163-294(b): the 2N best are nominated; ties ranked by lot; 163-294.1(b)."""
    n = d.contest.seats
    tally = _effective_tally(d, 0)
    everyone = _people(d, tally, nominating=False)
    people = _people(d, tally, nominating=True)
    sel = select(people, 2 * n, d.lots, harmless_ties=d.ctx.interp.harmless_ties)
    top = {name for name, _ in everyone[: 2 * n]}
    skipped = [
        name
        for name, _ in everyone
        if name in top
        and (c := d.cand(name)) is not None
        and not c.active
        and not _holds_place(d, c)  # nominated before they left: 163-294.1(b) is not theirs
    ]
    left = [
        departed_declared.DECLARED_LEFT.evaluate(_left_facts(d, c))
        for n in skipped
        if (c := d.cand(n))
    ]
    if skipped:
        assert all(f.effect is departed_declared.Seat.NOT_NOMINATED for f in left)
        late = all(left_after_election_day(d, d.cand(x)) for x in skipped)
        d.rule(
            K.VOTES_DISREGARDED,
            finding_cites(left[0]),
            f"{', '.join(skipped)} polled enough votes for nomination but left the race "
            + ("on or after the primary day" if late else "after the ballots were printed")
            + ": those votes are disregarded and the next highest is nominated",
            skipped,
            once=True,
        )
    cite = _ruled_cite(result)
    if sel.tied or sel.lot_winners:
        tie = _tie_at(d, ties.TiePoint.NONPARTISAN_PRIMARY, sel)
        _lot_ruling(d, sel, tie)
    if sel.tied:
        if sel.chosen:
            _declare(d, sel.chosen, cite, _by_highest("nominated", people))
        d.go(Phase.AWAITING_LOT)
        return
    text = _by_highest("nominated", people, lot=_by_lot(sel))
    _declare(d, sel.chosen, cite, text)
    d.go(Phase.DECIDED)


def _timing(
    d: Draft, step: round_timing.Step, *, tie_for_first: bool = False
) -> tuple[round_timing.When, Cite]:
    """The ``round-dates`` table: how a date after the declaration is found, and its provision."""
    facts = round_timing.TimingFacts(step, d.ctx.partisan_primary, tie_for_first)
    finding = round_timing.TIMING.evaluate(facts)
    return finding.effect, _ruled_cite(finding)


def _after_declaration(
    d: Draft, kind: DeadlineKind, when: round_timing.When, cite: Cite, since: str = "lots drawn"
) -> Deadline:
    """A deadline counted from the day the result was declared (G.S. 103-5 moves it); with
    ``NOON_THURSDAY_AFTER_DRAWING``, from now (``since``: what happens now)."""
    declared = (d.declared_at or d.at).astimezone(d.ctx.tz).date()
    if when is round_timing.When.NOON_THURSDAY_AFTER_DRAWING:  # reading 22: the drawing is now
        drawn = d.at.astimezone(d.ctx.tz).date()
        return cal.noon_thursday_after(kind, drawn, cite, d.ctx.office, since=since)
    if when is round_timing.When.THIRD_DAY_AFTER:
        return cal.end_of_nth_day_after(kind, declared, 3, cite, d.ctx.office)
    assert when is round_timing.When.NOON_THURSDAY_AFTER
    return cal.noon_thursday_after(kind, declared, cite, d.ctx.office)


def runoff_cite(d: Draft) -> Cite:
    """The ``runoff-right`` table: the provision that gives the next round to those it names."""
    facts = declaration.RightFacts(primary=d.ctx.partisan_primary, group=d.contest.is_group)
    return _ruled_cite(declaration.RUNOFF_RIGHT.evaluate(facts))


def _decide_majority(
    d: Draft, result: Finding[declaration.ResultFacts, declaration.Decision]
) -> None:
    """G.S. 163-293 (majority, runoff) and 163-111 (substantial plurality, second primary): the
    ``result`` table's threshold decision."""
    ctx = d.ctx
    n = ctx.contest.seats
    group = n > 1
    primary = result.effect is declaration.Decision.SUBSTANTIAL_PLURALITY
    tally = _effective_tally(d, 0)
    total = _threshold_total(d, tally)
    share: dict[str, Any] = {}
    tcite = _ruled_cite(result)
    if primary:
        sp = in_force("substantial_plurality", ctx.election_day, pinned=dict(ctx.parameters))
        threshold = declaration.threshold(result.effect, total, n, sp.value)
        what = (
            f"substantial plurality (more than {sp.percent}"
            + (" of the total per seat" if group else " of the total")
            + f", the value in force: {sp.source})"
        )
        share = {"parameter": exact(sp.value), "source": sp.source}
    else:
        threshold = declaration.threshold(result.effect, total, n, Fraction(1, 2))
        what = "majority (more than half" + (" of the total per seat)" if group else ")")
    if not any(
        r.kind is K.MAJORITY_THRESHOLD and r.get("total") == total for r in d.rulings
    ):  # again after a recount that changes the total
        d.rule(
            K.MAJORITY_THRESHOLD,
            tcite,
            f"{what}: total {total}, so a candidate needs more than {exact(threshold)} votes",
            total=total,
            threshold=exact(threshold),
            **share,
        )
    people = _people(d, tally, nominating=primary)
    if not people:
        _fill_vacancies_if_short(d, n, ())
        d.go(Phase.DECIDED)
        return
    # the ``count-order`` table: which provision's question comes first
    lead = d.cand(people[0][0])
    order = count_order.OrderFacts(
        count_order.Place.FIRST,
        primary,
        group,
        tie=len(people) > 1 and people[0][1] == people[1][1],
        left=lead is not None and not lead.active,
    )
    question = count_order.ORDER.evaluate(order).effect
    if question is count_order.Question.TIE_FOR_FIRST:
        _tie_for_first(d, tuple(nm for nm, v in people if v == people[0][1]))
        return
    if question is count_order.Question.LEADER_LEFT and _leader_left(d, people, threshold):
        return
    # more than the threshold, exactly: v > p/q where v * q > p
    over, per = threshold.numerator, threshold.denominator
    majority = [(nm, v) for nm, v in people if v * per > over]
    top = select(majority, n, d.lots, harmless_ties=d.ctx.interp.harmless_ties)
    if top.tied or top.lot_winners:
        _lot_ruling(d, top, _tie_at(d, ties.TiePoint.OVER_THRESHOLD, top))
    if top.tied:
        if top.chosen:  # the seats the tie does not decide
            _declare(
                d,
                top.chosen,
                tcite,
                f"over the threshold of {exact(threshold)}: "
                + ", ".join(f"{nm} {tally.get(nm, 0)}" for nm in top.chosen),
            )
        if not _tie_orders_new_election(d, ties.TiePoint.OVER_THRESHOLD, top):
            d.go(Phase.AWAITING_LOT)
        return
    first = top.chosen
    if first:
        _declare(
            d,
            first,
            tcite,
            f"over the threshold of {exact(threshold)}: "
            + ", ".join(f"{nm} {tally.get(nm, 0)}" for nm in first),
        )
    r = n - len(first)
    if r == 0:
        d.go(Phase.DECIDED)
        return
    rest = [(nm, v) for nm, v in people if nm not in first]
    order = count_order.OrderFacts(
        count_order.Place.REMAINING, primary, group, tie=len(rest) > 1 and rest[0][1] == rest[1][1]
    )
    if count_order.ORDER.evaluate(order).effect is count_order.Question.FIRST_BY_LOT:
        tied = tuple(nm for nm, v in rest if v == rest[0][1])
        if not _lot_settles(d, tied, rest, 1):
            return
        rest = _reorder(rest, d.lots)
    best_sel = select(rest, r, d.lots, harmless_ties=d.ctx.interp.harmless_ties)
    if best_sel.tied or best_sel.lot_winners:
        _lot_ruling(d, best_sel, _tie_at(d, ties.TiePoint.BEST_REMAINING, best_sel))
    if best_sel.tied:
        if not _tie_orders_new_election(d, ties.TiePoint.BEST_REMAINING, best_sel):
            d.go(Phase.AWAITING_LOT)
        return
    best = best_sel.chosen
    below = [(nm, v) for nm, v in rest if nm not in best]
    if not group:
        leader = best[0]
        seconds = tuple(nm for nm, v in below if v == below[0][1]) if below else ()
        order = count_order.OrderFacts(
            count_order.Place.SECOND,
            primary,
            tie=len(seconds) > 1,
            left=any(standing(d.cand(n)) is not count_order.Standing.ACTIVE for n in seconds),
            alone=not below,
        )
        question = count_order.ORDER.evaluate(order).effect
        if question is count_order.Question.ALONE:
            _declare(d, best, runoff_cite(d), f"{_no_other(d)}: highest vote")
            d.go(Phase.DECIDED)
            return
        if question is count_order.Question.RUNNER_UP_LEFT:
            if _runner_up_left(d, best, seconds):
                return
            # a runoff stays possible: the next question, that one settled
            question = count_order.ORDER.evaluate(attrs.evolve(order, left=False)).effect
        if question is count_order.Question.TIE_FOR_SECOND:
            _tie_for_second(d, leader, seconds)
            return
        if question is count_order.Question.SECOND_BY_LOT:
            if not _lot_settles(d, seconds, below, 1, what="second place"):
                return
            seconds = (_reorder(below, d.lots)[0][0],)
        second = seconds[0]
        eligible: tuple[str, ...] = (second,)
    else:
        if not below:
            declare_leaders(d, best, runoff_cite(d), _no_other(d))
            return
        vacated = _group_left_best(d, best)
        if vacated:  # reading 18: their seats are vacant now, the others run their course
            best = tuple(nm for nm in best if nm not in vacated)
            r = len(best)
            if not best:
                d.set(runoff_status=RunoffStatus.NONE, pool=None)
                d.go(Phase.DECIDED)
                return
        places = _request_places(d, below, r)
        if places is None:  # reading 19: a lot decides the request places first
            d.go(Phase.AWAITING_LOT)
            return
        eligible = places
        if not eligible:
            declare_leaders(d, best, runoff_cite(d), "no eligible runner-up")
            return
    _open_request_window(
        d,
        Pool(
            PoolKind.REQUEST,
            leaders=tuple(best),
            eligible=eligible,
            seats=r,
            elected_first=tuple(first),
        ),
    )


def _leader_left(d: Draft, people: Sequence[tuple[str, int]], threshold: Fraction) -> bool:
    """The candidate with the highest vote for a single office has left the race: the
    ``leader-left`` table says whether the office is vacant now (True: decided here)."""
    leader, votes = people[0]
    c = d.cand(leader)
    if c is None or c.active:
        return False
    majority = votes > threshold
    facts = departed_in_count.LeaderFacts(
        count_order.Standing(c.status),
        left_after_election_day(d, c),
        majority,
        d.ctx.interp.withdrawal_as_death,
    )
    finding = consult(
        d,
        departed_in_count.LEADER,
        facts,
        [leader],
        f"{leader} ({c.status}) polled the highest vote",
    )
    if finding.effect is not departed_in_count.LeaderEffect.VACANT:
        return False
    cites = finding_cites(finding)
    short = "" if majority else ", short of a majority"
    d.set(vacant=d.vacant + 1, runoff_status=RunoffStatus.NONE, pool=None)
    d.rule(
        K.OFFICE_VACANT,
        cites,
        f"{leader} ({c.status}) polled the highest vote ({votes}{short}): the board declares "
        "the office vacant, to be filled under G.S. 160A-63" + finding.note(),
        [leader],
        once=True,
    )
    if not majority:
        d.rule(K.NO_RUNOFF, cites, "the office is vacant: no runoff is held", [leader], once=True)
    d.go(Phase.DECIDED)
    return True


def leader_left_in_window(d: Draft, name: str) -> bool:
    """The leader of a single office of the runoff method, short of a majority, left after the
    result was declared, while the runner-up may still request a runoff (or those tied for
    second withdraw): True when the ``leader-left`` table vacates the office, which must then be
    decided again now, as a departure before the declaration is decided at the canvass (a
    request made after the departure no longer calls a runoff with the departed leader)."""
    pool = d.pool
    c = d.cand(name)
    if (
        d.round != 0
        or d.ctx.nominating
        or d.ctx.contest.is_group
        or pool is None
        or pool.kind not in (PoolKind.REQUEST, PoolKind.TIE_SECOND)
        or name not in pool.leaders
        or c is None
        or c.active
    ):
        return False
    facts = departed_in_count.LeaderFacts(
        count_order.Standing(c.status),
        left_after_election_day(d, c),
        False,  # a request period is open only for a leader short of a majority
        d.ctx.interp.withdrawal_as_death,
    )
    found = departed_in_count.LEADER.evaluate(facts, chosen=d.ctx.chosen)
    return found.effect is departed_in_count.LeaderEffect.VACANT


def group_best_left_in_window(d: Draft, name: str) -> bool:
    """One of the best placed for a group's seats left without a majority leaves after the
    result was declared, while the next may still request a runoff: the ``group-left-best``
    table is consulted now, as it is at the canvass for a departure before it (its collision
    is said at the departure). True when the table vacates the seat at once (reading 18
    switched), so that the count must be decided again."""
    pool = d.pool
    c = d.cand(name)
    if (
        d.round != 0
        or d.ctx.nominating
        or not d.ctx.contest.is_group
        or pool is None
        or pool.kind != PoolKind.REQUEST
        or name not in pool.leaders
        or c is None
        or c.active
    ):
        return False
    facts = departed_in_count.GroupLeftFacts(
        count_order.Standing(c.status),
        left_after_election_day(d, c),
        d.ctx.interp.withdrawal_as_death,
    )
    found = consult(
        d,
        departed_in_count.GROUP_LEFT,
        facts,
        [name],
        f"{name} ({c.status}) is best placed for a seat",
    )
    return found.effect is departed_in_count.GroupLeftEffect.VACANT


def _runner_up_left(d: Draft, best: Sequence[str], seconds: Sequence[str]) -> bool:
    """The runner-up, or one of those tied for second, has left: the ``runner-up-left`` table
    says whether a runoff remains possible (True: decided here, no runoff)."""
    gone = [n for n in seconds if standing(d.cand(n)) is not count_order.Standing.ACTIVE]
    if not gone:
        return False
    c = d.cand(gone[0])
    assert c is not None
    facts = departed_in_count.SecondFacts(
        standing(c), left_after_election_day(d, c), len(seconds) > 1
    )
    who = ", ".join(f"{n} ({standing(d.cand(n)).value})" for n in gone)
    finding = consult(
        d, departed_in_count.SECOND, facts, gone, f"the second highest vote went to {who}"
    )
    if finding.effect is not departed_in_count.SecondEffect.NO_RUNOFF:
        return False
    cites = finding_cites(finding)
    d.rule(
        K.NO_RUNOFF,
        cites,
        f"the second highest vote went to {who}: no runoff" + finding.note(),
        gone,
    )
    d.set(runoff_status=RunoffStatus.NONE, pool=None)
    d.drop_timers(TT.RUNOFF_REQUEST_PASSES, TT.TIE_WITHDRAWAL_PASSES)
    _declare(
        d, best, cites[0] if len(cites) == 1 else cites, f"no runoff: {', '.join(best)} elected"
    )
    d.go(Phase.DECIDED)
    return True


def _group_left_best(d: Draft, best: Sequence[str]) -> tuple[str, ...]:
    """A departed candidate among the best placed for seats left without a majority: the
    ``group-left-best`` table. By default 163-293(b)(2) runs its course (the collisions are
    named); under reading 18 the seat is vacant at once. Returns those whose seats are vacant."""
    vacated: list[str] = []
    for n in best:
        c = d.cand(n)
        if c is None or c.active:
            continue
        facts = departed_in_count.GroupLeftFacts(
            count_order.Standing(c.status),
            left_after_election_day(d, c),
            d.ctx.interp.withdrawal_as_death,
        )
        finding = consult(
            d,
            departed_in_count.GROUP_LEFT,
            facts,
            [n],
            f"{n} ({c.status}) is best placed for a seat",
        )
        if finding.effect is departed_in_count.GroupLeftEffect.VACANT:
            vacated.append(n)
            cites = finding_cites(finding)
            if not any(r.kind is K.OFFICE_VACANT and n in r.candidates for r in d.rulings):
                d.set(vacant=d.vacant + 1)
            d.rule(
                K.OFFICE_VACANT,
                cites,
                f"{n} ({c.status}) is best placed for a seat left without a majority: the board "
                "declares the seat vacant, to be filled under G.S. 160A-63; no runoff is held "
                "for it",
                [n],
                once=True,
            )
    return tuple(vacated)


def _request_places(d: Draft, below: Sequence[tuple[str, int]], r: int) -> tuple[str, ...] | None:
    """Who may request a group runoff: the ``group-request-places`` table (None: a lot must
    first decide the tied places, reading 19)."""
    tied = len(below) > r and below[r - 1][1] == below[r][1]
    boundary = below[min(r, len(below)) - 1][1]
    pool = [nm for nm, v in below if v == boundary] if tied else []
    finding = consult(
        d,
        departed_in_count.PLACES,
        departed_in_count.PlacesFacts(tied),
        pool,
        f"{', '.join(pool)} tie for the last place that carries the right to request a runoff",
    )
    if finding.effect is departed_in_count.PlacesEffect.LOT:
        sel = select(below, r, d.lots)
        _lot_ruling(d, sel, finding_cites(finding))
        if sel.tied:
            return None
        chosen = list(sel.chosen)
    elif finding.effect is departed_in_count.PlacesEffect.ALL_TIED:
        chosen = [nm for nm, v in below if v >= boundary]
    else:
        chosen = [nm for nm, _ in below[:r]]
    return tuple(nm for nm in chosen if standing(d.cand(nm)) is count_order.Standing.ACTIVE)


def _tie_at_facts(d: Draft, point: ties.TiePoint, pool: Sequence[str] = ()) -> ties.TieAtFacts:
    """The ``tie-at`` table's facts for a tie among ``pool`` at ``point``."""
    over, estimate = count_order.voters_over_5000(
        sum(_effective_tally(d, 0).values()), d.contest.seats
    )
    primary = d.ctx.partisan_primary
    return ties.TieAtFacts(
        point,
        primary=primary,
        group=d.ctx.contest.is_group,
        over_5000=estimate if over is None else over,
        many=point is ties.TiePoint.RUNOFF and not primary and len(pool) > 2,
        left=point is ties.TiePoint.RUNOFF and not primary and _tied_one_left(d, pool),
    )


def _tied_one_left(d: Draft, pool: Sequence[str]) -> bool:
    """Whether one of the candidates tied with ``pool`` in the runoff (the pool itself, or,
    once lots are drawn, everyone with a lot winner's vote) has left the race."""
    tally = _effective_tally(d, 1)
    votes = {tally.get(n, 0) for n in pool}
    tied = {n for n in d.runoff_ballot if tally.get(n, 0) in votes} | set(pool)
    return any(standing(d.cand(n)) is not count_order.Standing.ACTIVE for n in tied)


def _tie_at(d: Draft, point: ties.TiePoint, sel: Selection) -> list[Cite]:
    """A tie a lot breaks: the ``tie-at`` table names the provision (or the gap, said once while
    the lot is pending); returns what the lot's ruling cites."""
    pool = sel.tie_pool or sel.lot_winners
    finding = consult(
        d,
        ties.TIE_AT,
        _tie_at_facts(d, point, pool),
        pool,
        f"{', '.join(pool)} tie for a place",
        say=sel.tied,
    )
    return finding_cites(finding)


def _tie_orders_new_election(d: Draft, point: ties.TiePoint, sel: Selection) -> bool:
    """Reading 20: a tie of the first election 163-293 leaves open goes to 163-182.8, whose (1)
    has the State Board order a new election among the tied (True: the contest waits for it)."""
    facts = _tie_at_facts(d, point, sel.tie_pool)
    finding = consult(d, ties.TIE_AT, facts, sel.tie_pool, "", say=False)
    if finding.effect is not ties.TieEffect.NEW_ELECTION or sel.lot_winners:
        return False
    d.rule(
        K.NEW_ELECTION_ORDERED,
        finding_cites(finding),  # the gap's provisions and 163-182.8(1), which the reading applies
        f"{', '.join(sel.tie_pool)} tie for {sel.tie_places} seat(s) with more than 5,000 "
        "voters in the ballot item: no lot; the State Board of Elections orders a new election "
        "with only the tied candidates on the ballot (interpretation first_election_tie: "
        "by_size)",
        sel.tie_pool,
        once=True,
        seats=sel.tie_places,
    )
    d.go(Phase.AWAITING_NEW_ELECTION)
    return True


def _lot_settles(
    d: Draft,
    tied: Sequence[str],
    people: Sequence[tuple[str, int]],
    places: int,
    what: str = "first place",
) -> bool:
    drawn = [n for n in d.lots if n in tied]
    finding = consult(
        d,
        ties.TIE_AT,
        ties.TieAtFacts(ties.TiePoint.PRIMARY_PLACE, primary=True),
        tied,
        f"a tie for {what} in the primary among {', '.join(tied)}",
        say=len(drawn) < places,
    )
    for winner in drawn[:places]:
        d.rule(
            K.DECIDED_BY_LOT,
            finding_cites(finding),
            f"{winner} won the drawing of lots for {what}",
            [winner],
            once=True,
        )
    if len(drawn) >= places:
        return True
    left = [n for n in tied if n not in drawn]
    _lot_awaited(d, left, places - len(drawn), finding_cites(finding), what)
    d.go(Phase.AWAITING_LOT)
    return False


def _reorder(people: Sequence[tuple[str, int]], lots: Sequence[str]) -> list[tuple[str, int]]:
    order = {n: i for i, n in enumerate(lots)}
    return sorted(people, key=lambda nv: (-nv[1], order.get(nv[0], len(order)), nv[0]))


def _open_request_window(d: Draft, pool: Pool) -> None:
    ctx = d.ctx
    when, by = _timing(d, round_timing.Step.REQUEST)
    kind = DK.SECOND_PRIMARY_REQUEST if ctx.partisan_primary else DK.RUNOFF_REQUEST
    dl = _after_declaration(d, kind, when, by)
    if dl.due <= d.at:
        # who may ask was settled only after the deadline counted from the canvass: by a
        # drawing of lots, or by a tied candidate's departure while one was awaited (the count
        # is decided again when the candidate leaves)
        drawn = bool(d.lots)
        late = round_timing.TimingFacts(
            round_timing.Step.REQUEST, ctx.partisan_primary, drawn_late=drawn, left_late=not drawn
        )
        at = d.at.astimezone(ctx.tz).strftime("%Y-%m-%d %H:%M")
        finding = consult(
            d,
            round_timing.TIMING,
            late,
            pool.eligible,
            f"{'the drawing of lots' if drawn else 'a departure'} of {at} settles who may ask "
            f"after the deadline of {dl.due.strftime('%Y-%m-%d %H:%M')}",
        )
        since = "lots drawn" if drawn else "the departure"
        dl = _after_declaration(d, kind, finding.effect, by, since=since)
        if dl.due <= d.at:  # reading 22, from_canvass: nobody can ask any more
            close = runoff_requests.WindowCloseFacts(
                ctx.partisan_primary, ctx.contest.is_group, False
            )
            found = runoff_requests.WINDOW_CLOSE.evaluate(close)
            declare_leaders(
                d,
                pool.leaders,
                finding_cites(found),
                "the deadline to "
                + ("demand a second primary" if ctx.partisan_primary else "request a runoff")
                + " passed before the drawing",
            )
            return
    if ctx.partisan_primary:
        text = (
            f"no substantial plurality: {', '.join(pool.eligible)} may demand a second "
            f"primary by {dl.due.strftime('%Y-%m-%d %H:%M')}"
        )
        cites = [runoff_cite(d), by]
    else:
        text = (
            f"no majority: {', '.join(pool.leaders)} "
            f"{'is' if len(pool.leaders) == 1 else 'are'} elected unless "
            f"{', '.join(pool.eligible)} request{'s' if len(pool.eligible) == 1 else ''} a "
            f"runoff by {dl.due.strftime('%Y-%m-%d %H:%M')}"
        )
        cites = [runoff_cite(d)]
    pool = attrs.evolve(pool, request_due=dl.due)
    d.deadline(dl)
    d.timer(dl.due, TT.RUNOFF_REQUEST_PASSES)
    d.set(pool=pool, runoff_status=RunoffStatus.AVAILABLE)
    d.rule(K.RUNOFF_AVAILABLE, cites, text, pool.eligible, once=True)
    d.go(Phase.RUNOFF_REQUEST)


def _tie_for_first(d: Draft, tied: tuple[str, ...]) -> None:
    """The ``recount`` table, then the ``tie-for-first`` table (163-293(d)(1)): a recount; if
    it confirms the tie, a runoff unless one withdraws within three days."""
    if not d.recounted:
        recount = tie_steps.RECOUNT.evaluate(
            tie_steps.RecountFacts(tie_steps.RecountMoment.TIE_FOR_FIRST)
        )
        assert recount.effect is tie_steps.Recount.REQUIRED
        d.rule(
            K.RECOUNT_REQUIRED,
            finding_cites(recount),
            f"a tie for the highest number of votes between {', '.join(tied)}: the board "
            "must recount",
            tied,
            once=True,
        )
        d.go(Phase.AWAITING_RECOUNT)
        return
    gone = [n for n in tied if standing(d.cand(n)) is not count_order.Standing.ACTIVE]
    first_gone = d.cand(gone[0]) if gone else None
    facts = departed_in_count.TieFirstFacts(
        standing(first_gone),
        len(tied),
        left_after_election_day(d, first_gone),
        one_stands=len(gone) < len(tied),
    )
    who = ", ".join(f"{n} ({standing(d.cand(n)).value})" if n in gone else n for n in tied)
    # every tied candidate has left: no reading that elects "the tied candidate who stands"
    # has anyone to elect (reading 15, dead_tied_for_first: other_elected), so the default holds
    finding = consult(
        d,
        departed_in_count.TIE_FIRST,
        facts,
        tied,
        f"the recount leaves {who} tied for first",
        readings=facts.one_stands,
    )
    if finding.effect is departed_in_count.TieFirstEffect.VACANT:
        fc = finding_cites(finding)
        d.set(vacant=d.vacant + 1, runoff_status=RunoffStatus.NONE, pool=None)
        d.rule(
            K.OFFICE_VACANT,
            fc,
            f"the highest vote is shared by {who}: the board declares the office vacant, to be "
            "filled under G.S. 160A-63" + finding.note(),
            gone,
            once=True,
        )
        d.rule(K.NO_RUNOFF, fc, "the office is vacant: no runoff is held", tied, once=True)
        d.go(Phase.DECIDED)
        return
    if finding.effect is departed_in_count.TieFirstEffect.OTHER_ELECTED:
        standing_ = tuple(n for n in tied if n not in gone)
        if len(standing_) == 1:
            declare_leaders(
                d,
                standing_,
                finding_cites(finding)[0],
                "the other tied candidate"
                + ("s" if len(gone) > 1 else "")
                + " had left the race ("
                + ", ".join(f"{n} {standing(d.cand(n)).value}" for n in gone)
                + ")",
            )
            return
        tied = standing_
        # the tie among those still standing is asked again
        facts = departed_in_count.TieFirstFacts(
            count_order.Standing.ACTIVE, len(tied), False, one_stands=True
        )
        finding = consult(
            d, departed_in_count.TIE_FIRST, facts, tied, f"{', '.join(tied)} remain tied for first"
        )
    cites = finding_cites(finding)
    if finding.effect is departed_in_count.TieFirstEffect.LOT:
        sel = select([(n, 0) for n in tied], 1, d.lots)
        if sel.tied:
            _lot_awaited(d, sel.tie_pool, sel.tie_places, cites, "first place")
            d.go(Phase.AWAITING_LOT)
            return
        _lot_ruling(d, sel, cites)
        declare_leaders(d, sel.chosen, cites, "decided by lot")
        return
    dl = _after_declaration(
        d, DK.TIE_WITHDRAWAL, *_timing(d, round_timing.Step.TIE_WITHDRAWAL, tie_for_first=True)
    )
    d.deadline(dl)
    d.set(
        pool=Pool(PoolKind.TIE_FIRST, eligible=tied, withdraw_due=dl.due),
        runoff_status=RunoffStatus.AVAILABLE,
    )
    if dl.due <= d.at:
        # the count reaches this tie only after the three days after the recount ended (a
        # tied candidate left while a drawing among more was awaited): none of these withdrew
        # within them, so what follows their end follows now
        d.go(Phase.TIE_WITHDRAWAL)
        settle_tie(d, tie_steps.TieMoment.WITHDRAWAL_PASSES)
        return
    d.timer(dl.due, TT.TIE_WITHDRAWAL_PASSES)
    # (a tied candidate who left on or after election day is still tied: said here, so that
    # the board knows now that the three days cannot end as (d)(1) foresees)
    late = [n for n in tied if n in gone and left_after_election_day(d, d.cand(n))]
    note = (
        f" ({', '.join(f'{n} {standing(d.cand(n)).value}' for n in late)} on or after election "
        "day: if the three days end with the tie standing, no provision covers what follows; "
        "it is ruled then)"
        if late
        else ""
    )
    d.rule(
        K.RUNOFF_AVAILABLE,
        cites,
        f"the recount confirms the tie: a runoff between {', '.join(tied)} unless one "
        f"withdraws by {dl.due.strftime('%Y-%m-%d %H:%M')}{note}",
        tied,
        once=True,
    )
    d.go(Phase.TIE_WITHDRAWAL)


def _tie_for_second(d: Draft, leader: str, seconds: tuple[str, ...]) -> None:
    """163-293(d)(2): the leader is elected unless all but one tied runner-up withdraw within
    3 days and the last demands a runoff under (c)."""
    wd = _after_declaration(d, DK.TIE_WITHDRAWAL, *_timing(d, round_timing.Step.TIE_WITHDRAWAL))
    rq = _after_declaration(d, DK.RUNOFF_REQUEST, *_timing(d, round_timing.Step.REQUEST))
    d.deadline(wd)
    d.deadline(rq)
    d.timer(wd.due, TT.TIE_WITHDRAWAL_PASSES)
    d.timer(rq.due, TT.RUNOFF_REQUEST_PASSES)
    d.set(
        pool=Pool(
            PoolKind.TIE_SECOND,
            leaders=(leader,),
            eligible=seconds,
            seats=1,
            request_due=rq.due,
            withdraw_due=wd.due,
        ),
        runoff_status=RunoffStatus.AVAILABLE,
    )
    d.rule(
        K.RUNOFF_AVAILABLE,
        wd.cites[0],
        f"{leader} leads short of a majority and {', '.join(seconds)} tie for second: "
        f"{leader} is elected unless all but one of them withdraw by "
        f"{wd.due.strftime('%Y-%m-%d %H:%M')} and the last demands a runoff by "
        f"{rq.due.strftime('%Y-%m-%d %H:%M')}",
        seconds,
        once=True,
    )
    d.go(Phase.TIE_WITHDRAWAL)


def tie_withdrawal(d: Draft, name: str) -> None:
    """The ``tie-withdrawal`` table: a withdrawal while a tie waits on its three days; one in
    time is then weighed by the ``tie-window`` table (:func:`settle_tie`)."""
    pool = d.pool
    assert pool is not None
    left = standing(d.cand(name))
    facts = tie_steps.TieWithdrawalFacts(
        tie_for_first=pool.kind == "tie_first",
        tied=name in pool.eligible,
        late=pool.withdraw_due is not None and d.at > pool.withdraw_due,
        left=left is not count_order.Standing.ACTIVE,
    )
    found = tie_steps.TIE_WITHDRAWAL.evaluate(facts)
    if found.effect is tie_steps.TieWithdrawal.LEFT:
        how = _LEFT_HOW.get(left, "already withdrew")
        d.rule(
            K.REQUEST_REJECTED,
            found.cites,
            f"{name}'s notice of withdrawal is rejected: {name} {how} and is no longer a candidate",
            [name],
            reason=f"{name} {how}: {found.effect}",
        )
        return
    if found.effect is tie_steps.TieWithdrawal.NOT_TIED:
        d.update_cand(name, status=cg.WITHDREW, off_at=d.at)
        if leader_left_in_window(d, name):
            # (d)(2)'s leader withdrew within the three days: decided again now, as a death is
            d.drop_timers(TT.RUNOFF_REQUEST_PASSES, TT.TIE_WITHDRAWAL_PASSES)
            decide_first(d)
        return
    if found.effect is tie_steps.TieWithdrawal.LATE:
        d.rule(
            K.REQUEST_REJECTED,
            found.cites,
            f"{name}'s withdrawal came after the three days",
            [name],
            reason=str(found.effect),
        )
        return
    d.update_cand(name, status=cg.WITHDREW, off_at=d.at, on_ballot=False)
    first = pool.kind == "tie_first"
    d.set(pool=attrs.evolve(pool, eligible=still_tied(d, pool.eligible, first=first)))
    settle_tie(d, tie_steps.TieMoment.WITHDREW, name)


_LEFT_HOW = {
    count_order.Standing.DIED: "died",
    count_order.Standing.DISQUALIFIED: "was disqualified",
}


def settle_tie(d: Draft, moment: tie_steps.TieMoment, who: str = "") -> None:
    """The ``tie-window`` table: what a tie's three days come to when a tied candidate
    withdraws in time (``who``), a tied runner-up's demand counts (``who``) or a deadline
    passes. This gathers the facts and applies the step the table gives."""
    pool = d.pool
    assert pool is not None
    first = pool.kind == "tie_first"
    remaining = still_tied(d, pool.eligible, first=first)
    departed = [
        f"{n} {_LEFT_HOW.get(standing(d.cand(n)), 'left the race')}"
        for n in remaining
        if standing(d.cand(n)) is not count_order.Standing.ACTIVE
    ]
    passed = moment is tie_steps.TieMoment.REQUEST_PASSES or (
        pool.request_due is not None and d.at > pool.request_due
    )
    facts = tie_steps.TieWindowFacts(
        first,
        moment,
        min(len(remaining), 2),
        # (a demand lapses when the one who made it dies or is disqualified before the runoff
        # is called: a runoff with the last tied runner-up needs that runner-up standing)
        demanded=not first
        and any(
            n in pool.requests and standing(d.cand(n)) is count_order.Standing.ACTIVE
            for n in remaining
        ),
        request_passed=not first and passed,
        departed=first and bool(departed),
    )
    finding = consult(
        d,
        tie_steps.TIE_WINDOW,
        facts,
        remaining,
        f"the three days end with {', '.join(remaining)} tied",
    )
    step = finding.effect
    if step is tie_steps.TieStep.WAIT:
        return
    cites = finding_cites(finding)
    last = remaining[0] if len(remaining) == 1 else ""
    why = tie_steps.tie_step_reason(
        step, moment, withdrew=who, last=last, departed=", ".join(departed)
    )
    if step is tie_steps.TieStep.REMAINING_ELECTED:
        declare_leaders(d, remaining, cites, why)
    elif step is tie_steps.TieStep.RUNOFF_AMONG_TIED:
        d.set(pool=attrs.evolve(pool, eligible=remaining))
        start_runoff(d, remaining, 1, cites, why)
    elif step is tie_steps.TieStep.RUNOFF_WITH_LAST:
        start_runoff(d, (*pool.leaders, last), 1, cites, why)
    else:  # the leader is declared elected (163-293(d)(2))
        declare_leaders(d, pool.leaders, cites, why)
        answer_held_demands(d, pool, cites, why, among=remaining)


def answer_held_demands(
    d: Draft,
    pool: Pool,
    cites: Cite | Sequence[Cite],
    why: str,
    among: Sequence[str] | None = None,
) -> None:
    """The demands a tie for second held (163-293(d)(2): each waits for the others'
    withdrawals), answered once the contest is decided without a runoff: each calls none, and
    says ``why`` (they were left without a ruling). A demand lapses with a maker who left (said
    where the maker left); ``among``: only those still tied."""
    for n in pool.requests:
        if (among is None or n in among) and standing(d.cand(n)) is count_order.Standing.ACTIVE:
            d.rule(
                K.REQUEST_REJECTED,
                cites,
                f"{n}'s demand for a runoff calls none: {why}",
                [n],
                reason=why,
            )


def ballot_final(d: Draft, pool: Pool) -> bool:
    """Whether the requests so far fix the runoff ballot: always for a single office; for a
    group (reading 5) once every runner-up who may request has done so."""
    if not d.ctx.contest.is_group or d.ctx.interp.group_runoff_ballot == "top_two_r":
        return True
    can = [n for n in pool.eligible if (c := d.cand(n)) is None or c.active]
    return all(n in pool.requests for n in can)


def call_runoff(d: Draft, pool: Pool) -> None:
    """Requests in time call the runoff (reading 5 for groups)."""
    ctx = d.ctx
    seats = pool.seats
    requesters = tuple(n for n in pool.eligible if n in pool.requests)
    if not ctx.contest.is_group:
        ballot = (*pool.leaders, *pool.requests[:1])
    elif ctx.interp.group_runoff_ballot == "top_two_r":
        ballot = (*pool.leaders, *pool.eligible[: pool.seats])
    elif ctx.interp.group_runoff_ballot == "pairwise":
        # each requester contests one place, against the lowest leaders; the others are seated
        k = min(len(requesters), seats)
        seated, contested = pool.leaders[: seats - k], pool.leaders[seats - k :]
        if seated:
            _declare(
                d,
                seated,
                runoff_cite(d),
                "no runoff was requested for their places (pairwise reading): "
                + ", ".join(seated)
                + " elected",
            )
        ballot, seats = (*contested, *requesters[:k]), k
    else:
        ballot = (*pool.leaders, *requesters)
    cite = [runoff_cite(d), _timing(d, round_timing.Step.REQUEST)[1]]
    start_runoff(d, ballot, seats, cite, f"{', '.join(pool.requests)} requested in time")


def start_runoff(
    d: Draft, ballot: Sequence[str], seats: int, cites: Cite | Sequence[Cite], reason: str
) -> None:
    """Call the runoff (second primary): its day, its ballot; no request window stays open."""
    ctx = d.ctx
    ballot = tuple(dict.fromkeys(ballot))
    d.drop_timers(TT.RUNOFF_REQUEST_PASSES, TT.TIE_WITHDRAWAL_PASSES)
    what = "second primary" if ctx.partisan_primary else "runoff"
    second = cal.rounds(ctx.method, ctx.stage)[1]  # G.S. 163-279(a)(2), (a)(4)
    day = second.day_of(ctx.contest.year)
    d.deadline(second.deadline(ctx.contest.year, ctx.tz))
    # the ``round-day`` table: a call on or after the day the law fixes leaves no day at all
    begun = not d.at < cal.local(day, time(0, 0), ctx.tz)
    called = d.at.astimezone(ctx.tz).date()
    gone = "had passed" if called > day else "had begun"
    held = consult(
        d,
        round_timing.ROUND_DAY,
        round_timing.DayFacts(ctx.partisan_primary, begun),
        ballot,
        f"the {what} between {', '.join(ballot)}, called on {called.isoformat()} when the day "
        f"fixed for it, {day.isoformat()}, {gone}",
    )
    if held.effect is round_timing.Day.FIXED:
        d.deadline(cal.canvass(day, second.canvass, ctx.office))
    pool = d.pool
    d.set(pool=Pool(PoolKind.RUNOFF, leaders=pool.leaders if pool else (), seats=seats))
    d.set(
        runoff_ballot=ballot,
        runoff_status=RunoffStatus.CALLED,
        round=1,
        tallies=(d.tallies[0], ()),
        lots=(),
    )
    when = (
        f"on {day.isoformat()}"
        if held.effect is round_timing.Day.FIXED
        else f"(the day fixed for it, {day.isoformat()}, {gone}: no day set by law)"
    )
    d.rule(
        K.RUNOFF_CALLED,
        cites,
        f"{reason}: a {what} {when} between {', '.join(ballot)}"
        + ("; no write-ins" if not ctx.partisan_primary else ""),
        ballot,
    )
    d.go(Phase.RUNOFF_CALLED)


def decide_runoff(d: Draft) -> None:
    """163-293(f): the highest in the runoff are elected; a tie is settled by lot. A second
    primary (163-111(b), partly available) likewise: a candidate on its ballot who left and
    cannot be nominated takes no place, and the places go to the highest of the others (the
    ``left-runoff`` table's fallback)."""
    pool = d.pool
    seats = pool.seats if pool is not None else 1
    tally = _effective_tally(d, 1)
    people = ranked(tally, d.runoff_ballot)
    if d.ctx.nominating:
        barred: list[str] = []  # those the places would go to, but for their leaving
        while people:
            # those the places would go to, or who tie for the last of them: one who left
            # takes no place, and is no party to a tie for one
            last = people[min(seats, len(people)) - 1][1]
            out = [n for n, v in people if v >= last and cannot_be_nominated(d, n)]
            if not out:
                break
            barred += out
            people = [(n, v) for n, v in people if n not in out]
        for n in barred:  # each ruled once: not nominated
            c = d.cand(n)
            assert c is not None
            _declare_departed(d, c, None)
    sel = select(people, seats, d.lots, harmless_ties=d.ctx.interp.harmless_ties)
    cite = _ruled_cite(_result(d, runoff=True))
    text = _by_highest(
        "nominated" if d.ctx.nominating else "elected",
        people,
        of=f" in the {round_name(d)}"
        + (" of the candidates who can be nominated" if len(people) < len(d.runoff_ballot) else ""),
        lot=_by_lot(sel),
    )
    d.set(runoff_status=RunoffStatus.HELD)
    if sel.tied or sel.lot_winners:
        _lot_ruling(d, sel, _tie_at(d, ties.TiePoint.RUNOFF, sel))
    if sel.tied:
        if sel.chosen:
            _declare(d, sel.chosen, cite, text)
        d.go(Phase.AWAITING_LOT)
        return
    _declare(d, sel.chosen, cite, text)
    d.set(pool=None)
    d.go(Phase.DECIDED)


def round_name(d: Draft) -> str:
    return "second primary" if d.ctx.partisan_primary else "runoff"
