"""Runs of votes folded in bulk are the same fold as one step per vote.

``replay`` sums a run of ``votes_cast`` and ``returns_reported`` events in a plain dict and merges
it in one step; a run never crosses a timer (a statutory deadline for an optional act) or the
start of the day a round is voted on. Hypothesis draws logs dense in votes around election day
and the runoff, mixed with every other kind of event, and the two replays must agree exactly.
"""

from __future__ import annotations

import importlib
import json
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator import parse_scenario, replay
from simulator.engine.fold import fold, fold_together
from simulator.engine.replay import make_context, one_office_bars, replay_contest
from simulator.engine.state import initial_state
from simulator.law.vocab import Method, RulingKind
from simulator.model.events import CandidateFiled, Event, OathTaken, VotesCast
from simulator.model.scenario import Contest, Scenario
from tests.conftest import examples

NAMES = ["Ann", "Bob", "Cy", "Dee"]
OTHER = [
    "candidate_withdrew",
    "candidate_died",
    "canvass_held",
    "canvass_held",
    "recount_held",
    "runoff_requested",
    "lot_drawn",
    "ballots_printed",
    "reprint_determined",
    "nominee_named",
    "oath_taken",
]
NY = ZoneInfo("America/New_York")
METHODS = [
    ("nonpartisan-plurality", "election", None),
    ("nonpartisan-runoff", "election", None),
    ("nonpartisan-primary", "primary", None),
    ("partisan", "primary", "DEM"),
    ("partisan", "election", None),
]
STEPS = [
    timedelta(0),
    timedelta(minutes=1),
    timedelta(minutes=40),
    timedelta(hours=5),
    timedelta(hours=9),
    timedelta(hours=20),
    timedelta(days=3),
]
# two days before the first election day (October or November), the runoff, the canvasses
STARTS = [datetime(2027, 10, 3, 8), datetime(2027, 10, 31, 8), datetime(2027, 9, 28, 8)]


@st.composite
def dense_logs(draw: st.DrawFn) -> str:
    method, stage, party = draw(st.sampled_from(METHODS))
    filers = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique=True))
    events: list[dict[str, Any]] = [
        {"type": "candidate_filed", "at": f"2027-07-{7 + i:02d}T10:00", "candidate": name}
        for i, name in enumerate(filers)
    ]
    # a notice after the filing period: votes for this person are disregarded
    events.append({"type": "candidate_filed", "at": "2027-08-20T10:00", "candidate": "Stray"})
    t = draw(st.sampled_from(STARTS))
    for _ in range(draw(st.integers(1, 40))):
        t += draw(st.sampled_from(STEPS))
        at = t.replace(tzinfo=NY).isoformat()  # with its offset: a time the clocks repeat
        kind = draw(st.sampled_from(["votes_cast"] * 5 + ["returns_reported"] * 2 + OTHER))
        name = draw(st.sampled_from([*filers, "Zed (Write-In)", "Stray"]))
        ev: dict[str, Any] = {"type": kind, "at": at}
        if kind == "votes_cast":
            ev |= {"candidate": name, "count": draw(st.integers(0, 3))}
        elif kind in ("returns_reported", "recount_held"):
            ev["counts"] = {
                n: draw(st.integers(0, 9))
                for n in draw(st.lists(st.sampled_from(filers), min_size=1, unique=True))
            }
        elif kind == "lot_drawn":
            ev["winner"] = draw(st.sampled_from(filers))
        elif kind == "reprint_determined":
            ev["enough_time"] = draw(st.booleans())
        elif kind != "canvass_held" and kind != "ballots_printed":
            ev["candidate"] = draw(st.sampled_from(filers))
        events.append(ev)
    contest: dict[str, Any] = {
        "id": "c",
        "office": "Council",
        "seats": draw(st.integers(1, 2)),
        "method": method,
        "stage": stage,
        "year": 2027,
    }
    if party:
        contest["party"] = party
    return json.dumps(
        {"format": "electsim/v1", "title": "dense", "contests": [contest], "events": events}
    )


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dense_logs(), st.integers(0, 60))
def test_votes_folded_in_bulk_give_the_same_result_as_one_step_per_event(
    text: str, cut: int
) -> None:
    s = parse_scenario(text, fmt="json")
    moment = s.events[min(cut, len(s.events) - 1)].at
    for as_of in (None, moment):
        try:
            one_by_one = replay(s, as_of=as_of, batched=False).to_json()
        except Exception as error:  # a log the engine cannot replay: the same error in bulk
            with pytest.raises(type(error)):
                replay(s, as_of=as_of)
            continue
        assert replay(s, as_of=as_of).to_json() == one_by_one
        # read afresh, its runs of votes still columns (simulator.eventlog): the same fold
        fresh = parse_scenario(text, fmt="json")
        assert replay(fresh, as_of=as_of).to_json() == one_by_one


def council(title: str, events: list[dict[str, Any]]) -> str:
    """A JSON scenario of one council seat elected by plurality in 2027."""
    contest = {"id": "c", "office": "Council", "seats": 1, "method": "nonpartisan-plurality"}
    doc = {"format": "electsim/v1", "title": title, "contests": [contest | {"year": 2027}]}
    return json.dumps(doc | {"events": events})


def test_a_run_of_votes_that_crosses_the_start_of_election_day_starts_the_count() -> None:
    # G.S. 163-279: the count starts on election day, whatever was banked before it
    events = [
        {"type": "candidate_filed", "at": "2027-07-07T10:00", "candidate": "Ann"},
        {"type": "votes_cast", "at": "2027-11-01T10:00", "candidate": "Ann"},
        {"type": "votes_cast", "at": "2027-11-02T10:00", "candidate": "Ann"},
    ]
    s = parse_scenario(council("early votes, then the day", events), fmt="json")
    assert [e.type for e in s.events].count(VotesCast.type) == 2
    for batched in (True, False):
        c = replay(s, batched=batched).contests[0]
        assert c.state == "counting"
        assert c.tallies == ((("Ann", 2),),)


@st.composite
def two_contest_logs(draw: st.DrawFn) -> str:
    """A dense log whose events are dealt between two contests at random, with the same people
    filing for both (the one-office rule bars the later notice of each) and long runs of
    votes."""
    doc = json.loads(draw(dense_logs()))
    other = dict(doc["contests"][0], id="d", office="Mayor", seats=1)
    doc["contests"].append(other)
    events: list[dict[str, Any]] = []
    for ev in doc["events"]:
        ev["contest"] = draw(st.sampled_from(["c", "d"]))
        if ev["type"] == "candidate_filed":
            events.append(dict(ev, contest="d" if ev["contest"] == "c" else "c"))
        events.append(ev)
        if ev["type"] == "votes_cast":
            # a long run of votes: the bulk path sums most of them
            events += [dict(ev, contest=ev["contest"])] * draw(st.integers(0, 30))
    doc["events"] = events
    return json.dumps(doc)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(two_contest_logs(), st.integers(0, 400))
def test_two_contests_folded_in_bulk_give_the_same_result_as_one_step_per_event(
    text: str, cut: int
) -> None:
    s = parse_scenario(text, fmt="json")
    moment = s.events[min(cut, len(s.events) - 1)].at
    for as_of in (None, moment):
        try:
            one_by_one = replay(s, as_of=as_of, batched=False).to_json()
        except Exception as error:
            with pytest.raises(type(error)):
                replay(s, as_of=as_of)
            continue
        assert replay(s, as_of=as_of).to_json() == one_by_one
        assert replay(parse_scenario(text, fmt="json"), as_of=as_of).to_json() == one_by_one


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(two_contest_logs())
def test_a_log_of_two_contests_folded_in_one_pass_gives_each_contest_its_own_fold(
    text: str,
) -> None:
    # the whole state (the clock and the log's bookkeeping too), not only what the JSON shows
    s = parse_scenario(text, fmt="json")
    bars = one_office_bars(s)
    contexts = {c.id: make_context(s, c, bars.get(c.id, frozenset())) for c in s.contests}
    own = {cid: [e for e in s.events if e.contest == cid] for cid in contexts}
    try:
        alone = {cid: fold(initial_state(ctx), ctx, own[cid]) for cid, ctx in contexts.items()}
    except Exception as error:
        with pytest.raises(type(error)):
            fold_together(s.events, contexts)
        return
    # the log as events, and read afresh with its runs of votes as columns
    fresh = parse_scenario(text, fmt="json").events
    assert len(fresh.parts()) <= len(s.events.parts())
    for log in (s.events, fresh):
        together = fold_together(log, contexts)
        for cid, state in alone.items():
            assert together[cid] == (state, own[cid][-1].index if own[cid] else -1)


def test_votes_of_two_contests_out_of_order_keep_each_contests_latest_time() -> None:
    tz = ZoneInfo("America/New_York")
    contests = tuple(
        Contest(id=cid, method=Method.PLURALITY, year=2027, seats=1, office=cid)
        for cid in ("c", "d")
    )
    day = datetime(2027, 10, 20, 9, tzinfo=tz)
    events: list[Event] = [
        CandidateFiled(at=datetime(2027, 7, 7, 10, tzinfo=tz), contest=cid, candidate=name)
        for cid, name in (("c", "Ann"), ("d", "Bob"))
    ]
    for k, cid in ((3, "c"), (1, "d"), (7, "c"), (2, "d"), (9, "d"), (5, "c"), (0, "c")):
        name = "Ann" if cid == "c" else "Bob"
        events.append(VotesCast(at=day + timedelta(hours=k), contest=cid, candidate=name))
    events = [attrs.evolve(e, index=i) for i, e in enumerate(events)]
    s = Scenario(title="out of order", contests=contests, events=tuple(events))
    together = fold_together(events, {c.id: make_context(s, c) for c in contests})
    assert together["c"][0].clock == day + timedelta(hours=7)
    assert together["d"][0].clock == day + timedelta(hours=9)
    assert together["c"][0].tallies == ((("Ann", 4),),)
    assert (together["c"][1], together["d"][1]) == (8, 6)
    assert replay(s).to_json() == replay(s, batched=False).to_json()


def test_votes_out_of_order_in_memory_keep_the_latest_time_as_the_clock() -> None:
    # a scenario built in code need not list its votes in time order: the clock is the latest
    tz = ZoneInfo("America/New_York")
    contest = Contest(id="c", method=Method.PLURALITY, year=2027, seats=1, office="Council")
    day = datetime(2027, 10, 20, 9, tzinfo=tz)
    events: list[Event] = [
        CandidateFiled(at=datetime(2027, 7, 7, 10, tzinfo=tz), contest="c", candidate="Ann")
    ]
    for k in (3, 1, 7, 2, 5, 0):
        events.append(VotesCast(at=day + timedelta(hours=k), contest="c", candidate="Ann"))
    events = [attrs.evolve(e, index=i) for i, e in enumerate(events)]
    s = Scenario(title="out of order", contests=(contest,), events=tuple(events))
    ctx = make_context(s, contest)
    bulk = replay_contest(ctx, events)
    assert bulk == replay_contest(ctx, events, batched=False)
    assert bulk.clock == day + timedelta(hours=7)
    assert bulk.tallies == ((("Ann", 6),),)
    assert replay(s).to_json() == replay(s, batched=False).to_json()


def test_refused_oaths_between_votes_keep_their_rulings_in_the_run() -> None:
    # G.S. 163-294.1(c): an oath by a person not elected is refused and changes nothing else,
    # so the run of votes goes on past it and the refusal is ruled in its place in the log
    tz = ZoneInfo("America/New_York")
    contest = Contest(id="c", method=Method.PLURALITY, year=2027, seats=1, office="Council")
    day = datetime(2027, 10, 20, 9, tzinfo=tz)
    events: list[Event] = [
        CandidateFiled(at=datetime(2027, 7, 7, 10, tzinfo=tz), contest="c", candidate=name)
        for name in ("Ann", "Bob")
    ]
    for k in range(6):
        at = day + timedelta(minutes=k)
        events.append(VotesCast(at=at, contest="c", candidate="Ann" if k % 3 else "Bob"))
        events.append(OathTaken(at=at, contest="c", candidate="Nobody"))
    events = [attrs.evolve(e, index=i) for i, e in enumerate(events)]
    s = Scenario(title="oaths between votes", contests=(contest,), events=tuple(events))
    ctx = make_context(s, contest)
    bulk = replay_contest(ctx, events)
    assert bulk == replay_contest(ctx, events, batched=False)
    assert bulk.tallies == ((("Bob", 2), ("Ann", 4)),)
    refused = [r for r in bulk.rulings if r.kind is RulingKind.OATH_NOT_ELECTED]
    assert [r.seq for r in refused] == [e.index for e in events if type(e) is OathTaken]
    # the log appends in place: no ruling a step tried in the run gave up is left behind
    assert bulk.ruling_log.stored == len(bulk.ruling_log)
    assert replay(s).to_json() == replay(s, batched=False).to_json()


# Long runs of single votes read from a file are summed a stretch at a time
# (simulator.engine.fold._summable): stretches that stop at a timer, at the start of the round's
# day,
# at a name's first vote in its run, at a name the round does not count, and with the same
# names in both contests (each vote's contest then read from its column) or different ones.
ENGINE = importlib.import_module("simulator.engine.fold")
VOTE_STEPS = [timedelta(0)] * 12 + [timedelta(seconds=7), timedelta(minutes=3), *STEPS[:-1]]
UTC = ZoneInfo("UTC")


def later(t: datetime, step: timedelta | None) -> datetime:
    """``step`` after ``t`` on the clocks of the world (across a change of the clocks too);
    None: the next midnight (the start of a day a round may be voted on, a run's stop)."""
    if step is None:
        return datetime.combine(t.date() + timedelta(days=1), datetime.min.time(), NY)
    return (t.astimezone(UTC) + step).astimezone(NY)


@st.composite
def long_runs(draw: st.DrawFn) -> tuple[str, bool]:
    method, stage, party = draw(st.sampled_from(METHODS))
    shared = draw(st.booleans())  # the same people on both ballots (the one-office rule bars one)
    filers = {
        "c": draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique=True)),
        "d": draw(
            st.lists(
                st.sampled_from(["Cy", "Dee", "Eve", "Fay"] if shared else ["Eve", "Fay", "Gil"]),
                min_size=1,
                max_size=3,
                unique=True,
            )
        ),
    }
    events: list[dict[str, Any]] = [
        {
            "type": "candidate_filed",
            "contest": cid,
            "at": f"2027-07-{7 + i:02d}T10:00",
            "candidate": name,
        }
        for cid, names in filers.items()
        for i, name in enumerate(names)
    ]
    t = draw(st.sampled_from(STARTS)).replace(tzinfo=NY)
    for _ in range(draw(st.integers(1, 6))):
        for _ in range(draw(st.integers(0, 400))):
            t = later(t, draw(st.sampled_from([*VOTE_STEPS, None])))
            cid = draw(st.sampled_from(["c", "d"]))
            name = draw(st.sampled_from([*filers[cid]] * 60 + ["Zed (Write-In)"]))
            at = t.isoformat()
            events.append({"type": "votes_cast", "contest": cid, "at": at, "candidate": name})
        t = later(t, draw(st.sampled_from(STEPS)))
        kind = draw(st.sampled_from(OTHER))
        cid = draw(st.sampled_from(["c", "d"]))
        ev: dict[str, Any] = {"type": kind, "contest": cid, "at": t.isoformat()}
        if kind == "recount_held":
            ev["counts"] = {filers[cid][0]: draw(st.integers(0, 900))}
        elif kind == "lot_drawn":
            ev["winner"] = draw(st.sampled_from(filers[cid]))
        elif kind == "reprint_determined":
            ev["enough_time"] = draw(st.booleans())
        elif kind not in ("canvass_held", "ballots_printed"):
            ev["candidate"] = draw(st.sampled_from(filers[cid]))
        events.append(ev)
    contests = [
        {
            "id": cid,
            "office": cid,
            "seats": draw(st.integers(1, 2)),
            "method": method,
            "stage": stage,
            "year": 2027,
        }
        | ({"party": party} if party else {})
        for cid in ("c", "d")
    ]
    doc = {"format": "electsim/v1", "title": "long runs", "contests": contests, "events": events}
    return json.dumps(doc), shared


@pytest.mark.early
@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(long_runs())
def test_long_runs_of_votes_summed_a_stretch_at_a_time_are_the_fold_of_each_vote(
    drawn: tuple[str, bool],
) -> None:
    text, _ = drawn
    s = parse_scenario(text, fmt="json")
    runs = [p for p in s.events.parts() if not isinstance(p, Event)]
    parts = len(s.events.parts())
    assert all(run.ordered for run in runs)
    for run in runs:  # a name's contest, where the loader says it, is its vote's contest
        assert run.owners is None or list(map(run.owners.get, run.candidate)) == run.contest
    # (a log whose events were all made, as a replay vote by vote makes them, has no columns)
    try:
        one_by_one = replay(parse_scenario(text, fmt="json"), batched=False).to_json()
    except Exception as error:
        with pytest.raises(type(error)):
            replay(s)
        return
    bars = one_office_bars(parse_scenario(text, fmt="json"))
    contexts = {c.id: make_context(s, c, bars.get(c.id, frozenset())) for c in s.contests}
    folds = []
    # vote by vote; and stretches of 2 votes or more, looked at 16 or 65,536 at a time (the
    # same code as for a big file's runs, with more of its stretches ending inside a run)
    for at_once, window in ((1 << 40, 1 << 16), (2, 16), (2, 1 << 16)):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(ENGINE, "_AT_ONCE", at_once)
            patch.setattr(ENGINE, "_WINDOW", window)
            fresh = parse_scenario(text, fmt="json")
            assert len(fresh.events.parts()) == parts
            folds.append(fold_together(fresh.events, contexts))
            assert replay(parse_scenario(text, fmt="json")).to_json() == one_by_one
    assert folds[0] == folds[1] == folds[2]


def test_a_long_run_of_votes_is_summed_in_stretches_that_stop_where_each_vote_would(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # polls close on election day (a timer: the canvass is due) and the run stops there; a
    # write-in's first vote and a name in both contests end a stretch too
    events: list[dict[str, Any]] = [
        {"type": "candidate_filed", "contest": cid, "at": "2027-07-07T10:00", "candidate": name}
        for cid, name in (("c", "Ann"), ("c", "Bob"), ("d", "Cy"), ("d", "Dee"))
    ]
    t = datetime(2027, 11, 2, 6, 30)
    for k in range(3000):
        t += timedelta(seconds=20)
        cid = "cd"[k % 2]
        pair = ("Ann", "Bob") if cid == "c" else ("Cy", "Dee")
        name = pair[k // 2 % 2] if k != 1500 else "Zed (Write-In)"
        events.append(
            {"type": "votes_cast", "contest": cid, "at": t.isoformat(), "candidate": name}
        )
    contests = [
        {"id": cid, "office": cid, "seats": 1, "method": "nonpartisan-plurality", "year": 2027}
        for cid in "cd"
    ]
    text = json.dumps(
        {"format": "electsim/v1", "title": "a day of votes", "contests": contests, "events": events}
    )
    s = parse_scenario(text, fmt="json")
    # no name in both contests: each vote's contest is known from its name
    owners = {"Ann": "c", "Bob": "c", "Cy": "d", "Dee": "d", "Zed (Write-In)": "c"}
    runs = [p for p in s.events.parts() if not isinstance(p, Event)]
    assert runs and all(p.owners and p.owners.items() <= owners.items() for p in runs)
    summed: list[int] = []
    real = ENGINE._sum_votes

    def counted(run: Any, folders: Any, start: int, end: int, pairs: Any) -> None:
        summed.append(end - start)
        real(run, folders, start, end, pairs)

    monkeypatch.setattr(ENGINE, "_sum_votes", counted)
    result = replay(s)
    assert sum(summed) > 2500  # most votes summed a stretch at a time
    assert result.to_json() == replay(s, batched=False).to_json()
    c = next(c for c in result.contests if c.id == "c")
    assert dict(c.tallies[0]) == {"Ann": 749, "Bob": 750, "Zed (Write-In)": 1}


def test_a_stretch_of_votes_stops_before_a_vote_at_the_start_of_election_day(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # G.S. 163-279: the vote at midnight of election day starts the count; summed with the
    # votes banked before it, it would leave the contest waiting for votes
    events: list[dict[str, Any]] = [
        {"type": "candidate_filed", "at": "2027-07-07T10:00", "candidate": name}
        for name in ("Ann", "Bob")
    ]
    t = datetime(2027, 11, 1, 8)
    for k in range(300):
        at = (t + timedelta(minutes=k)).isoformat()
        events.append({"type": "votes_cast", "at": at, "candidate": ("Ann", "Bob")[k % 2]})
    events.append({"type": "votes_cast", "at": "2027-11-02T00:00", "candidate": "Bob"})
    text = council("votes banked, then midnight", events)
    monkeypatch.setattr(ENGINE, "_AT_ONCE", 2)
    c = replay(parse_scenario(text, fmt="json")).contests[0]
    assert c.state == "counting"
    assert c.tallies == ((("Bob", 151), ("Ann", 150)),)
    assert (
        replay(parse_scenario(text, fmt="json")).to_json()
        == replay(parse_scenario(text, fmt="json"), batched=False).to_json()
    )
