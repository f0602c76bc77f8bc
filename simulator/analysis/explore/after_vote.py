"""The courses of events after the vote: a departure on election night or in the request window,
the recount, the party's nominee or the lot the count waits for, the entitled runner-up's
request in time or late, the departures after the declaration, and the runoff (or second
primary) with its own returns, ties and lots.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from datetime import datetime, timedelta
from itertools import product
from typing import Any

from simulator.analysis.explore.before_vote import LATE_FILER, nominee_event
from simulator.analysis.explore.config import LEAVING_EVENT, Config, Departure, Region, Request
from simulator.analysis.explore.documents import dates_of, iso_minutes, learned_at, naive_time
from simulator.analysis.explore.folds import folds_of, run
from simulator.analysis.explore.outcomes import Course
from simulator.analysis.explore.states import call_state
from simulator.analysis.explore.votes import VoteClass, distinct_places
from simulator.engine.result import ContestResult, listed_deadlines
from simulator.engine.state import State
from simulator.law.vocab import DeadlineKind, Pending, RulingKind
from simulator.model.events import (
    CandidateDied,
    CanvassHeld,
    LotDrawn,
    NomineeNamed,
    OathTaken,
    RecountHeld,
    ReturnsReported,
    RunoffRequested,
)


def courses_after_vote(
    config: Config,
    d: dict[str, datetime],
    steps: list[str],
    log0: list[dict[str, Any]],
    returns: dict[str, Any],
    canvass: dict[str, Any],
    order: list[str],
    vc: VoteClass,
    gone: list[str],
    read: int | None,
    calls: dict[Hashable, int] | None,
) -> Iterator[tuple[Course, tuple[str, ...]]]:
    log = [*log0, returns, canvass]
    base = run(config, log)
    yield from _requests(config, d, steps, log, base, gone, calls)
    if len(gone) >= config.departures:
        return
    # one more departure after the vote: one candidate per group of the ranking
    firsts = []
    start = 0
    for g in vc.groups[: len(distinct_places(vc, read, config.seats))]:
        firsts.append(order[start])
        start += g
    # on election night, and in the request window (where the method has one)
    leaving: list[tuple[str, Departure, dict[str, Any], dict[str, Any] | None]] = []
    for who, kind in product(firsts, Departure):
        if who in gone:
            continue
        night = _leaving(kind, who, d["vote"] + timedelta(hours=13))
        window = _leaving(kind, who, d["canvass"] + timedelta(hours=22)) if "request" in d else None
        leaving.append((who, kind, night, window))
    # the loader reads them all in one pass (a departure is read the same in any of the logs)
    folds_of(config).read_ahead(log, [e for x in leaving for e in x[2:] if e is not None])
    for who, kind, night, window in leaving:
        s = [*steps[:-1], f"{who} {kind.value} {Region.NIGHT.value}", steps[-1]]
        lg = [*log0, returns, night, canvass]
        yield from _requests(config, d, s, lg, run(config, lg), [*gone, who], calls)
        if window is not None:
            s = [*steps, f"{who} {kind.value} {Region.WINDOW.value}"]
            lg = [*log, window]
            yield from _requests(config, d, s, lg, run(config, lg), [*gone, who], calls)


def _leaving(kind: Departure, who: str, at: datetime) -> dict[str, Any]:
    """``who`` leaves in the way ``kind`` at ``at``."""
    return {"type": LEAVING_EVENT[kind], "at": iso_minutes(at), "candidate": who}


def _requests(
    config: Config,
    d: dict[str, datetime],
    steps: list[str],
    log: list[dict[str, Any]],
    result: ContestResult,
    gone: list[str],
    calls: dict[Hashable, int] | None,
) -> Iterator[tuple[Course, tuple[str, ...]]]:
    """The course of ``log`` (replayed: ``result``), then the courses that continue it: the
    recount, the party's nominee or the lot the engine waits for, a departure after the
    declaration, the entitled runner-up's request in time or late, and after a call the
    runoff's (see :func:`_second_round`; with ``calls``, those of a canonical state at the call
    expanded before are not expanded again:
    :func:`~simulator.analysis.explore.states.call_state`)."""
    yield Course(tuple(steps), tuple(log), result), tuple(gone)
    pending = result.outcome.pending
    if pending is Pending.RECOUNT and not any(e["type"] == RecountHeld.type for e in log):
        # G.S. 163-182.7: the recount the engine waits for confirms the returns, or changes them
        first = next(e for e in log if e["type"] == ReturnsReported.type)
        at = iso_minutes(d["canvass"] + timedelta(days=2))
        tied = [c for c in _lot_candidates(result) if c in first["counts"]]
        changed = dict(first["counts"])
        if tied:
            changed[tied[-1]] += 1
        for label, counts in (
            ("the recount confirms the returns", first["counts"]),
            (f"the recount finds one more vote for {tied[-1]}" if tied else "", changed),
        ):
            if not label:
                continue
            lg = [*log, {"type": RecountHeld.type, "at": at, "counts": counts}]
            yield from _requests(config, d, [*steps, label], lg, run(config, lg), gone, calls)
        return
    if pending is Pending.NOMINATION and not any(e["type"] == NomineeNamed.type for e in log):
        lg = [*log, nominee_event(config, log, gone)]
        s = [*steps, f"the party's executive committee names {LATE_FILER}"]
        yield from _requests(config, d, s, lg, run(config, lg), gone, calls)
        return
    if (
        pending is None
        and result.outcome.runoff_status.value != "called"
        and not any(e["type"] == RunoffRequested.type for e in log)
    ):
        yield from _after_declaration(config, steps, log, result, gone, calls)
    if pending is Pending.LOT:
        drawn = [e["winner"] for e in log if e["type"] == LotDrawn.type]
        tied = list(_lot_candidates(result, drawn))
        if tied and len(drawn) < config.candidates:
            lot = {
                "type": LotDrawn.type,
                "at": iso_minutes(d["canvass"] + timedelta(days=3, hours=len(drawn) - 1)),
                "winner": tied[0],
            }
            lg = [*log, lot]
            yield from _requests(
                config, d, [*steps, f"lot drawn, {tied[0]} wins"], lg, run(config, lg), gone, calls
            )
        return
    # (after a tie for first the recount confirms, the runoff follows unless one withdraws: a
    # tied candidate's request then changes nothing, and the runoff is called when the three
    # days end, which is how the course reaches it)
    offered = (RulingKind.RUNOFF_AVAILABLE, RulingKind.RUNOFF_UNLESS_WITHDRAWN)
    available = [r for r in result.rulings if r.kind in offered]
    if not available or "request" not in d:
        return
    asker = next((c for c in available[-1].candidates if c not in gone), None)
    if asker is None:
        return
    last = max(datetime.fromisoformat(e["at"]) for e in log)
    # the deadline the engine set (a recount moves it), else the calendar's
    kinds = (DeadlineKind.RUNOFF_REQUEST, DeadlineKind.SECOND_PRIMARY_REQUEST)
    due = max(
        (naive_time(dl.due) for dl in listed_deadlines(result) if dl.kind in kinds), default=None
    )
    due = due or naive_time(d["request"])
    for how in (Request.IN_TIME, Request.LATE):
        when = (
            max(last, naive_time(d["canvass"])) + timedelta(hours=1)
            if how is Request.IN_TIME
            else max(last, due) + timedelta(hours=2)
        )
        if how is Request.IN_TIME and when > due:
            continue  # the window closed before anything else could happen
        req = {"type": RunoffRequested.type, "at": iso_minutes(when), "candidate": asker}
        lg = [*log, req]
        # (and the state the runoff's courses find, with the timers due before them fired)
        res, at_call = folds_of(config).result_and_stopped(lg, d["second"] - _BEFORE_SECOND)
        s = [*steps, f"{asker} {how.value}"]
        if res.outcome.runoff_status.value != "called":
            yield Course(tuple(s), tuple(lg), res), tuple(gone)
            continue
        if calls is not None:
            key = _call_key(config, at_call, gone)
            if key is not None:
                earlier = calls.get(key)
                if earlier is not None and earlier <= len(lg):
                    yield Course(tuple(s), tuple(lg), res, joined=True), tuple(gone)
                    continue
                calls[key] = len(lg)
        yield Course(tuple(s), tuple(lg), res), tuple(gone)
        yield from _second_round(config, d, s, lg, res, gone, calls)


def _call_key(config: Config, state: State, gone: Sequence[str]) -> Hashable | None:
    """The canonical state (:func:`~simulator.analysis.explore.states.call_state`) of the
    contest in ``state``, after a log that calls a runoff, as the first event
    :func:`_second_round` adds finds it: the timers due before it fired (a group's runoff is
    called when the time to request it passes)."""
    key = call_state(state, folds_of(config).ctx, settled=len(gone) >= config.departures)
    return None if key is None else (key, tuple(gone))


def _after_declaration(
    config: Config,
    steps: list[str],
    log: list[dict[str, Any]],
    result: ContestResult,
    gone: list[str],
    calls: dict[Hashable, int] | None,
) -> Iterator[tuple[Course, tuple[str, ...]]]:
    """After the result is final: an elected or nominated candidate leaves before taking the
    oath, or everyone elected takes it (only on courses where nobody left before, so that the
    number of courses stays bounded)."""
    o = result.outcome
    winners = [*o.elected, *o.nominated]
    if not winners or any(e["type"] == OathTaken.type for e in log):
        return
    # who leaves (while departures are left), and whether everyone elected takes the oath
    who = (
        next((w for w in winners if w not in gone), None) if len(gone) < config.departures else None
    )
    sworn = bool(o.elected) and not gone
    if who is None and not sworn:
        return
    # after the last event and after the result was declared (at the request deadline when
    # nobody asked for a runoff)
    deciding = (RulingKind.ELECTED, RulingKind.NOMINATED)
    last = max(
        [learned_at(e) for e in log]
        + [naive_time(r.at) for r in result.rulings if r.kind in deciding]
    )
    d = dates_of(config)
    if who is not None:
        left = {
            "type": CandidateDied.type,
            "at": iso_minutes(last + timedelta(days=3)),
            "candidate": who,
        }
        lg = [*log, left]
        role = "elected" if o.elected else "nominated"
        s = [*steps, f"{who}, {role}, died after the declaration, before the oath"]
        yield from _requests(config, d, s, lg, run(config, lg), [*gone, who], calls)
    if sworn:
        oaths = [
            {"type": OathTaken.type, "at": iso_minutes(last + timedelta(days=5)), "candidate": w}
            for w in o.elected
        ]
        lg = [*log, *oaths]
        s = [*steps, "the elected take the oath"]
        yield Course(tuple(s), tuple(lg)), tuple(gone)
        if config.departures >= 1:
            # G.S. 163-294.1(d): an officer who took the oath leaves
            who = o.elected[0]
            left = {
                "type": CandidateDied.type,
                "at": iso_minutes(last + timedelta(days=9)),
                "candidate": who,
            }
            s = [*s, f"{who} dies after taking the oath"]
            yield Course(tuple(s), tuple([*lg, left])), (who,)


def _lot_candidates(result: ContestResult, drawn: Sequence[str] = ()) -> tuple[str, ...]:
    """The candidates of the tie a lot or a recount waits for, but those ``drawn`` already: those
    of the last ``lot_required`` ruling (the engine names the tie a drawing must settle), else
    the last ruling of a recount or a drawing naming any, else the last naming two or more (a
    ruling on one name is most often a departure's, made after the tie was ruled)."""
    for r in reversed(result.rulings):
        if r.kind is RulingKind.LOT_REQUIRED:
            left = tuple(c for c in r.candidates if c not in drawn)
            if left:
                return left
            break
    for r in reversed(result.rulings):
        if r.kind in (RulingKind.DECIDED_BY_LOT, RulingKind.RECOUNT_REQUIRED):
            left = tuple(c for c in r.candidates if c not in drawn)
            if left:
                return left
    for wanted in (2, 1):
        for r in reversed(result.rulings):
            left = tuple(c for c in r.candidates if c not in drawn)
            if len(r.candidates) >= wanted and left:
                return left
    if result.tallies:  # no ruling names them (a partisan general election's tie): the leaders
        top = result.tallies[-1]
        return tuple(name for name, votes in top if votes == top[0][1])
    return ()


#: When a candidate in a runoff leaves (after the call, before the runoff's day)
_BEFORE_SECOND = timedelta(days=7)


def _second_round(
    config: Config,
    d: dict[str, datetime],
    steps: list[str],
    log: list[dict[str, Any]],
    result: ContestResult,
    gone: list[str],
    calls: dict[Hashable, int] | None,
) -> Iterator[tuple[Course, tuple[str, ...]]]:
    pair = [c for c in result.outcome.runoff_candidates]
    if not pair:
        return
    wins = [
        (label, counts, *_runoff_count(d, dict(zip(pair, counts, strict=True))))
        for label, counts in (
            ("the first named wins", [600 - 10 * i for i in range(len(pair))]),
            ("the last named wins", [500 + 10 * i for i in range(len(pair))]),
        )
    ]
    # the loader reads the runoff's returns (each way it ends, a tie included), its canvass
    # and the departures around it in one pass
    ahead = [ret for _label, _counts, ret, _can in wins]
    ahead += [*_runoff_count(d, dict.fromkeys(pair, 550)), _died_before_runoff(d, pair[0])]
    ahead += [_died_runoff_night(d, who) for who in dict.fromkeys([pair[0], pair[-1]])]
    folds_of(config).read_ahead(log, ahead)
    for label, counts, ret, can in wins:
        lg = [*log, ret, can]
        s = [*steps, f"runoff returns: {label}", "canvass"]
        res = run(config, lg)
        yield Course(tuple(s), tuple(lg), res), tuple(gone)
        # the runoff's (or second primary's) winner leaves before taking the oath, or takes it
        # and then leaves: what the first round's winner may do (see _after_declaration)
        yield from _after_declaration(config, s, lg, res, gone, calls)
        if len(gone) < config.departures:
            # the one these votes put first dies after the runoff's vote, before its canvass
            who = pair[0] if counts[0] >= counts[-1] else pair[-1]
            night = _died_runoff_night(d, who)
            lg = [*log, ret, night, can]
            s = [
                *steps,
                f"runoff returns: {label}",
                f"{who} died {Region.SECOND_NIGHT.value}",
                "canvass",
            ]
            yield Course(tuple(s), tuple(lg)), tuple([*gone, who])
        if len(gone) < config.departures:
            who = pair[0]
            leave = _died_before_runoff(d, who)
            lg = [*log, leave, ret, can]
            s = [*steps, f"{who} died {Region.CALLED.value}", f"runoff returns: {label}", "canvass"]
            yield Course(tuple(s), tuple(lg)), tuple([*gone, who])
    yield from _runoff_tie(config, d, steps, log, pair, gone)


def _died_runoff_night(d: dict[str, datetime], who: str) -> dict[str, Any]:
    """``who`` dies after the runoff's vote, before its canvass."""
    at = d["second"] + timedelta(hours=13)
    return {"type": CandidateDied.type, "at": iso_minutes(at), "candidate": who}


def _died_before_runoff(d: dict[str, datetime], who: str) -> dict[str, Any]:
    """``who`` dies after the runoff is called, before its day."""
    at = d["second"] - _BEFORE_SECOND
    return {"type": CandidateDied.type, "at": iso_minutes(at), "candidate": who}


def _runoff_count(
    d: dict[str, datetime], counts: dict[str, int]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The runoff's returns (``counts``) on its day, and its canvass."""
    ret = {"type": ReturnsReported.type, "at": iso_minutes(d["second"]), "counts": counts}
    return ret, {"type": CanvassHeld.type, "at": iso_minutes(d["second_canvass"])}


def _runoff_tie(
    config: Config,
    d: dict[str, datetime],
    steps: list[str],
    log: list[dict[str, Any]],
    pair: Sequence[str],
    gone: list[str],
) -> Iterator[tuple[Course, tuple[str, ...]]]:
    """The runoff (or second primary) ends in a tie of everyone on its ballot: the drawing of
    lots the count waits for (163-293(f); the gaps of a tie among three or more and of a second
    primary's tie), and one of the tied dying before it, with the drawing for either."""
    ret, can = _runoff_count(d, dict.fromkeys(pair, 550))
    lg = [*log, ret, can]
    s = [*steps, "runoff returns: a tie", "canvass"]
    res = run(config, lg)
    yield Course(tuple(s), tuple(lg), res), tuple(gone)
    yield from _runoff_lots(config, d, s, lg, res, gone, first=None)
    if len(gone) >= config.departures or res.outcome.pending is not Pending.LOT:
        return
    tied = _lot_candidates(res)
    if len(tied) < 2:
        return
    who = tied[0]
    death = {
        "type": CandidateDied.type,
        "at": iso_minutes(d["second_canvass"] + timedelta(days=1)),
        "candidate": who,
    }
    lg = [*lg, death]
    s = [*s, f"{who} died {Region.BEFORE_LOT.value}"]
    res = run(config, lg)
    left = [*gone, who]
    yield Course(tuple(s), tuple(lg), res), tuple(left)
    for winner in (who, tied[1]):  # the drawing falls to the one who died, or to another
        yield from _runoff_lots(config, d, s, lg, res, left, first=winner)


def _runoff_lots(
    config: Config,
    d: dict[str, datetime],
    steps: list[str],
    log: list[dict[str, Any]],
    result: ContestResult,
    gone: list[str],
    *,
    first: str | None,
) -> Iterator[tuple[Course, tuple[str, ...]]]:
    """The drawings of lots a runoff's count waits for, one after another until it waits no
    more: the first for ``first`` (when one of the tied), each other for the first one named."""
    drawn: list[str] = []
    while result.outcome.pending is Pending.LOT and len(drawn) < config.candidates:
        tied = _lot_candidates(result, drawn)
        if not tied:
            return
        winner = first if first in tied and not drawn else tied[0]
        lot = {
            "type": LotDrawn.type,
            "at": iso_minutes(d["second_canvass"] + timedelta(days=3, hours=len(drawn))),
            "winner": winner,
        }
        drawn.append(winner)
        log = [*log, lot]
        steps = [*steps, f"lot drawn, {winner} wins"]
        result = run(config, log)
        yield Course(tuple(steps), tuple(log), result), tuple(gone)
