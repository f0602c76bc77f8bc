"""electsim explore: the courses beyond the first round, the reduction of rankings to the places
the law reads, renaming symmetry, two departures, and the engines the grid runs on."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.analysis.explore.config import Config
from simulator.analysis.explore.courses import courses
from simulator.analysis.explore.documents import scenario_doc
from simulator.analysis.explore.exploration import explore, explore_grid
from simulator.analysis.explore.findings import to_json
from simulator.analysis.explore.folds import run
from simulator.analysis.explore.outcomes import Exploration
from simulator.analysis.explore.votes import (
    VoteClass,
    depth,
    leading,
    read_depth,
    truncated,
    vote_classes,
)
from simulator.cli.main import main
from simulator.law.vocab import Method
from tests.explore_cases import explored


def _stories(ex: Exploration) -> list[str]:
    return ["; ".join(w.course.steps) for _o, w, _k in ex.outcomes]


def _courses(config: Config) -> list[str]:
    return ["; ".join(c.steps) for c, _gone in courses(config)]


def _outcomes(ex: Exploration) -> set[str]:
    return {o.describe() for o, _w, _k in ex.outcomes}


@pytest.mark.parametrize(
    "config",
    [
        Config(method=Method.PLURALITY, seats=1, candidates=5),
        Config(method=Method.PRIMARY, seats=1, candidates=6),
        # 163-111(a)(2): only the seats' worth of those over the threshold are read (with five
        # candidates under the long profile only)
        Config(method=Method.PARTISAN, seats=2, candidates=4),
        pytest.param(Config(method=Method.PARTISAN, seats=2, candidates=5), marks=pytest.mark.long),
    ],
    ids=lambda c: c.label,
)
def test_reading_rankings_only_as_deep_as_the_method_loses_no_outcome(config: Config) -> None:
    # G.S. 163-292 reads the boundary after the seats, 163-294 after twice the seats: the
    # places below are interchangeable losers, so one ranking stands for all of theirs
    reduced, full = explored(config), explore(config, reduce=False)
    assert reduced.courses < full.courses
    assert _outcomes(reduced) == _outcomes(full)
    assert {f for f, _o, _w in reduced.findings} == {f for f, _o, _w in full.findings}


def test_a_truncated_ranking_keeps_the_places_read_and_one_order_below() -> None:
    places = depth(Method.PLURALITY, 1)  # the winner and the runner-up
    assert places == 2
    assert truncated(VoteClass((1, 1, 1, 1)), places)
    assert truncated(VoteClass((1, 3)), places)  # the tie at the boundary is kept whole
    assert not truncated(VoteClass((1, 1, 2)), places)  # a tie below the places read
    kept = list(vote_classes(Method.PLURALITY, 1, 6, places=places))
    assert len(kept) < 2**5 and VoteClass((6,)) in kept


def test_the_threshold_is_read_only_for_the_places_that_can_take_a_seat() -> None:
    # two seats and one departure: whether the fourth place or below passes the threshold, or
    # stands exactly at it, is read by no rule; one class stands for all that agree above it
    lead = leading(2, 1)
    assert lead == 3
    every = list(vote_classes(Method.PARTISAN, 2, 6))
    kept = list(vote_classes(Method.PARTISAN, 2, 6, lead=lead))
    assert VoteClass((1, 1, 1, 1, 1, 1), 3, False) in kept
    assert VoteClass((1, 1, 1, 1, 1, 1), 4, False) in every
    assert VoteClass((1, 1, 1, 1, 1, 1), 4, False) not in kept
    assert VoteClass((1, 1, 1, 1, 1, 1), 3, True) not in kept  # the fourth exactly at it
    assert VoteClass((1, 1, 1, 1, 1, 1), 2, True) in kept  # the third exactly at it is read
    assert VoteClass((1, 2, 1, 1, 1), 2, False) in kept  # a tie across the third place
    assert len(kept) < len(every)


def test_a_seat_taken_over_the_threshold_carries_no_runners_up() -> None:
    # 163-293(b): two seats, one departure, so six places are read; a candidate over the
    # threshold takes a seat, and only the seat left open has runners-up below it
    places = depth(Method.RUNOFF, 2, 1)
    assert places == 6
    assert read_depth(VoteClass((1, 1, 1, 1, 1, 1), 0, False), places, 2) == 6
    assert read_depth(VoteClass((1, 1, 1, 1, 1, 1), 1, False), places, 2) == 5
    assert read_depth(VoteClass((3, 1, 1, 1), 1, False), places, 2) == 4  # no more than the seats
    assert read_depth(VoteClass((1, 1, 1)), places, 2) == 6  # no threshold read
    kept = list(vote_classes(Method.RUNOFF, 2, 7, places=places))
    assert VoteClass((1, 1, 1, 1, 1, 2), 1, False) not in kept  # a tie below the fifth place
    assert VoteClass((1, 1, 1, 1, 1, 2), 0, False) in kept


def test_the_recount_the_engine_waits_for_may_confirm_or_break_the_tie() -> None:
    # G.S. 163-182.7: a recount of a tie; its counts replace the returns
    stories = _courses(Config(method=Method.RUNOFF, seats=1, candidates=2))
    assert any("the recount confirms the returns" in s for s in stories)
    assert any("the recount finds one more vote for" in s for s in stories)


def test_an_elected_candidate_leaving_before_and_after_the_oath_are_explored() -> None:
    # G.S. 163-294.1(c) before the oath, 163-294.1(d) after it
    config = Config(method=Method.PLURALITY, seats=1, candidates=2)
    ex = explored(config)
    stories = _courses(config)
    assert any("elected, died after the declaration, before the oath" in s for s in stories)
    assert any("dies after taking the oath" in s for s in stories)
    cited = {c for c, _k in ex.cites}
    assert {"G.S. 163-294.1(c)", "G.S. 163-294.1(d)"} <= cited


def test_a_party_names_a_nominee_when_the_nominated_candidate_leaves() -> None:
    # G.S. 163-114: the party's executive committee fills the nomination
    config = Config(method=Method.PARTISAN, seats=1, candidates=2)
    ex = explored(config)
    assert any("executive committee names" in s for s in _courses(config))
    assert "G.S. 163-114" in {c for c, _k in ex.cites}


def test_late_filers_extended_and_reopened_filing_and_late_notices_are_explored() -> None:
    # 163-294.4(a) extension when too few filed; 163-294.4(b) reopening after a death; a death
    # whose notice comes later (the late-notice gap of 163-112(b) in a party primary)
    assert any(
        "files in the extension" in s
        for s in _courses(Config(method=Method.PLURALITY, seats=2, candidates=1))
    )
    stories = _courses(Config(method=Method.PLURALITY, seats=1, candidates=2))
    assert any("files while filing is reopened" in s for s in stories)
    assert any("files after the filing closed" in s for s in stories)
    primary = explored(Config(method=Method.PARTISAN, seats=1, candidates=3))
    assert "gap:late-notice" in {f for f, _o, _w in primary.findings}


@pytest.mark.parametrize(
    "config",
    [
        Config(method=m, seats=s, candidates=n, departures=2)
        for m in Method
        for s, n in ((1, 2), (2, 2))
    ],
    ids=lambda c: c.label,
)
def test_two_departures_never_make_the_engine_raise(config: Config) -> None:
    ex = explored(config)
    assert ex.errors == ()
    assert any(o.departed.count(",") == 1 for o, _w, _k in ex.outcomes) or config.candidates < 2


NAMES = ("Ann", "Bob", "Cy", "Dee")
OTHERS = ("Uma", "Val", "Wes", "Xan")


@settings(max_examples=25, deadline=None)
@given(st.permutations(OTHERS), st.integers(0, 100))
def test_renaming_the_candidates_renames_the_rulings_and_nothing_else(
    names: list[str], pick: int
) -> None:
    # no rule reads a name: the canonical form of a course is its class, not its names
    ex = _runoff()
    _o, witness, _k = ex.outcomes[pick % len(ex.outcomes)]
    to = dict(zip(NAMES, names, strict=True))

    def rename(value: object) -> object:
        if isinstance(value, str):
            return to.get(value, value)
        if isinstance(value, dict):
            return {rename(k): rename(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [rename(v) for v in value]
        return value

    events = [rename(e) for e in witness.course.events]
    renamed = run(ex.config, events)  # type: ignore[arg-type]
    before = witness.result
    assert renamed.state == before.state
    assert renamed.outcome.elected == tuple(sorted(to[n] for n in before.outcome.elected)) or (
        sorted(renamed.outcome.elected) == sorted(to[n] for n in before.outcome.elected)
    )
    assert [r.kind for r in renamed.rulings] == [r.kind for r in before.rulings]
    assert [sorted(r.candidates) for r in renamed.rulings] == [
        sorted(to.get(c, c) for c in r.candidates) for r in before.rulings
    ]


_CACHE: dict[str, Exploration] = {}


def _runoff() -> Exploration:
    if "runoff" not in _CACHE:
        _CACHE["runoff"] = explored(Config(method=Method.RUNOFF, seats=1, candidates=3))
    return _CACHE["runoff"]


CONFIGS = [
    Config(method=Method.PLURALITY, seats=1, candidates=2),
    Config(method=Method.RUNOFF, seats=1, candidates=2),
]


def test_the_grid_on_a_dask_cluster_equals_the_serial_grid() -> None:
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
    from simulator.analysis.workers import Dask

    serial = [to_json(ex) for ex in explore_grid(CONFIGS)]
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = explore_grid(CONFIGS, engine=Dask(client=client, chunksize=1))
    assert [to_json(ex) for ex in on_dask] == serial


def test_the_explore_command_runs_its_grid_on_a_dask_scheduler(
    capsys: pytest.CaptureFixture[str],
) -> None:
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
    args = ["explore", "--grid", "--method", "nonpartisan-plurality", "--json"]
    assert main(args) == 0
    serial = json.loads(capsys.readouterr().out)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        assert main([*args, "--engine", "dask", "--scheduler", cluster.scheduler_address]) == 0
    assert json.loads(capsys.readouterr().out) == serial


def test_the_dask_engine_without_a_scheduler_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    args = ["explore", "--grid", "--method", "nonpartisan-plurality", "--engine", "dask"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--scheduler" in err


def test_gaps_explore_lists_the_gaps_courses_reach_with_a_witness(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # electsim gaps is a view of the exploration: the runoff's gaps met in courses of events
    assert main(["gaps", "--json", "--explore"]) == 0
    doc = json.loads(capsys.readouterr().out)
    found = {f["id"]: f for f in doc["explored"]}
    assert {"gap:runner-up-left", "gap:three-way-tie", "gap:late-notice"} <= set(found)
    assert all(f["witness"] for f in found.values())
    listed = {g["id"] for g in doc["gaps"]} | {t["id"] for t in doc["table_gaps"]}
    assert "three-way-tie" in listed
    assert main(["gaps"]) == 0
    assert "reached by a course of events" not in capsys.readouterr().out


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 7), st.integers(0, 100))
def test_votes_scaled_within_their_class_give_the_same_abstract_outcome(
    factor: int, pick: int
) -> None:
    # the abstraction is sound only if every count realizing a class rules alike: scaling all
    # the counts keeps every ranking, tie and threshold comparison (G.S. 163-293(a)(1))
    from simulator.analysis.explore.outcomes import outcome_of

    ex = _runoff()
    outcome, witness, _k = ex.outcomes[pick % len(ex.outcomes)]
    events = [
        e | {"counts": {c: v * factor for c, v in e["counts"].items()}} if "counts" in e else e
        for e in witness.course.events
    ]
    assert outcome_of(run(ex.config, events), witness.departed) == outcome


def test_an_engine_failure_is_reported_not_raised(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import simulator.analysis.explore.after_vote as after_vote_module

    real = after_vote_module.run

    def failing(config: Config, events: object, **kw: object) -> object:
        if any(e["type"] == "canvass_held" for e in events):  # type: ignore[attr-defined]
            raise RuntimeError("a defect")
        return real(config, events, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(after_vote_module, "run", failing)
    ex = explore(Config(method=Method.PLURALITY, seats=1, candidates=2))
    assert ex.errors and "RuntimeError: a defect" in ex.errors[0][1]
    args = ["explore", "--method", "nonpartisan-plurality", "--candidates", "2"]
    assert main(args) == 1
    assert "ENGINE ERRORS" in capsys.readouterr().out


def _loses_nothing(memo: Exploration, full: Exploration) -> None:
    """The exploration with its states expanded once has every outcome, witness, gap, conflict,
    subsection and landmark of the one without."""
    assert _outcomes(memo) == _outcomes(full)
    assert _stories(memo) == _stories(full)
    assert {f for f, _o, _w in memo.findings} == {f for f, _o, _w in full.findings}
    assert {c for c, _n in memo.cites} == {c for c, _n in full.cites}
    assert {c for c, _n in memo.landmarks} == {c for c, _n in full.landmarks}


@pytest.mark.parametrize(
    "config",
    [
        Config(method=Method.RUNOFF, seats=1, candidates=3),
        Config(method=Method.PARTISAN, seats=1, candidates=3),
        Config(method=Method.PLURALITY, seats=2, candidates=3),
        Config(method=Method.RUNOFF, seats=1, candidates=2, departures=2),
    ],
    ids=lambda c: c.label,
)
def test_a_state_at_the_vote_reached_twice_is_expanded_once_and_loses_nothing(
    config: Config,
) -> None:
    # the courses from a canonical state at the vote are the same whichever beginning reached
    # it: enumerating them once keeps every outcome, gap, conflict, witness and subsection
    memo, full = explored(config), explore(config, memo=False)
    assert memo.merged > 0 and memo.courses < full.courses
    _loses_nothing(memo, full)


@pytest.mark.parametrize(
    "config",
    [
        Config(method=Method.RUNOFF, seats=1, candidates=4),
        Config(method=Method.RUNOFF, seats=2, candidates=4),  # a group's call: at the deadline
        Config(method=Method.PARTISAN, seats=2, candidates=4),
        pytest.param(  # the slowest: under the long profile only
            Config(method=Method.PARTISAN, seats=1, candidates=3, departures=2),
            marks=pytest.mark.long,
        ),
    ],
    ids=lambda c: c.label,
)
def test_a_state_at_a_runoffs_call_reached_twice_is_expanded_once_and_loses_nothing(
    config: Config,
) -> None:
    # different first-round returns calling the same runoff in the same canonical state have
    # the same runoff after them: enumerated once, with every outcome, witness and subsection
    found = list(courses(config))
    joined = [c for c, _gone in found if c.joined]
    assert joined and all(c.result is not None for c in joined)
    # a course that joins one before has its own outcome: it is a course like any other, but
    # the runoff's returns never follow it
    for j in joined[:20]:
        n = len(j.events)
        assert not any(len(c.events) > n and c.events[:n] == j.events for c, _gone in found)
    memo, full = explored(config), explore(config, memo=False)
    assert memo.courses < full.courses
    _loses_nothing(memo, full)


def test_the_canonical_state_at_a_call_forgets_the_first_rounds_votes_but_their_size() -> None:
    import attrs

    from simulator.analysis.explore.folds import folds_of
    from simulator.analysis.explore.states import call_state

    config = Config(method=Method.RUNOFF, seats=1, candidates=5)
    called = [
        (c, gone)
        for c, gone in courses(config, memo=False)
        if c.result is not None
        and c.result.outcome.runoff_status.value == "called"
        and c.steps[-1].endswith("requests in time")
        and not gone
    ]
    folds = folds_of(config)
    # (those called at the request: a tie's runoff is called when the time to withdraw passes)
    states = [s for c, _gone in called if (s := folds.fold(c.events)[0]).round == 1]
    forms = [call_state(s, folds.ctx, settled=False) for s in states]
    assert len(forms) > 5 and all(f is not None for f in forms)
    # Ann leads, Bob asks: many returns, one state after the call
    firsts = [str(t.tallies[0]) for t in states]
    assert len(set(firsts)) > 1 and len(set(forms)) < len(forms)
    # more than 5,000 voters is another state (the runoff's tie rule reads it)
    s = states[0]
    many = attrs.evolve(s, tallies=(tuple((n, v * 10) for n, v in s.tallies[0]), *s.tallies[1:]))
    assert sum(v for _n, v in many.tallies[0]) > 5000
    assert call_state(many, folds.ctx, settled=False) != forms[0]
    # before the call there is no such state
    asked = next(c for c, _gone in called if folds.fold(c.events)[0].round == 1)
    before = folds.fold([e for e in asked.events if e["type"] != "runoff_requested"])[0]
    assert call_state(before, folds.ctx, settled=False) is None


def _folded_as_whole(config: Config, folds: Any, course: Any) -> None:
    """The course's result from ``folds`` is its whole replay's, field by field."""
    from simulator.engine.replay import replay
    from simulator.input.loader import structure

    doc = scenario_doc(config, course.events, "a course")
    whole = replay(structure(doc, source="<test>")).contests[0]
    folded = folds.result(course.events)
    for field in ("state", "outcome", "rulings", "deadlines", "tallies", "path"):
        assert getattr(folded, field) == getattr(whole, field), (field, course.steps)


@pytest.mark.parametrize(
    ("limit", "every", "first"),
    [
        (None, 2, 1),
        (40, 3, 0),
        pytest.param(None, 1, 0, marks=pytest.mark.long),
        pytest.param(40, 1, 0, marks=pytest.mark.long),
    ],
)
def test_each_course_folded_from_a_shared_beginning_equals_its_whole_replay(
    limit: int | None, every: int, first: int
) -> None:
    # Every course is folded, and one in ``every`` (from the ``first``) is compared with its
    # whole replay: under the fast profile every second with all states kept and every third
    # with a limit of 40 (those of all but the log being folded let go again and again), so
    # that between them most courses are compared; under the long profile every course, both
    # ways
    from simulator.analysis.explore.folds import Folds

    config = Config(method=Method.RUNOFF, seats=1, candidates=3)
    folds = Folds(config) if limit is None else Folds(config, limit=limit)
    seen = 0
    for course, _gone in courses(config, memo=False):
        if seen % every == first:
            _folded_as_whole(config, folds, course)
        else:
            folds.result(course.events)
        seen += 1
        assert limit is None or folds.nodes <= limit + len(course.events)
    assert seen > 500


def test_the_timers_fired_up_to_a_runoffs_first_course_and_then_on_tell_the_same_story() -> None:
    # a request's course fires the timers due before the runoff's courses begin (the state they
    # continue from), then on to the end of its log: its result is the one fired at once, and
    # the state stopped there is the fold's with those timers fired
    from datetime import timedelta

    from simulator.analysis.explore.documents import dates_of
    from simulator.analysis.explore.folds import Folds
    from simulator.engine.timers import fire_timers

    config = Config(method=Method.RUNOFF, seats=2, candidates=4)
    stop = dates_of(config)["second"] - timedelta(days=7)
    split, whole = Folds(config), Folds(config)
    asked = [
        c for c, _gone in courses(config, memo=False) if c.events[-1]["type"] == "runoff_requested"
    ]
    called = 0
    for course in asked[:: max(1, len(asked) // 150)]:
        result, stopped = split.result_and_stopped(course.events, stop)
        once = whole.result(course.events)
        for field in ("state", "outcome", "rulings", "deadlines", "tallies", "path"):
            assert getattr(result, field) == getattr(once, field), (field, course.steps)
        state, evs = whole.fold(course.events)
        assert stopped == fire_timers(state, whole.ctx, stop, evs[-1].index)
        called += result.outcome.runoff_status.value == "called" and stopped != state
    assert called > 5


def test_events_read_ahead_in_one_pass_are_read_as_each_course_alone_reads_them() -> None:
    # the enumeration reads every ranking class's returns for a ballot in one pass of the
    # loader, and every departure on election night and in the request window after a vote in
    # another, into the folds it replays its courses with: each course's result is still its
    # whole replay's, departures and a party's nominee included
    from simulator.analysis.explore.folds import folds_of, forget_folds

    config = Config(method=Method.PARTISAN, seats=2, candidates=4)
    forget_folds()
    found = [course for course, _gone in courses(config)]
    folds = folds_of(config)
    seen = 0
    for course in found[:: max(1, len(found) // 600)]:
        _folded_as_whole(config, folds, course)
        seen += 1
    returns = {k for (k, i) in folds.events if i == -1 and "returns_reported" in k}
    assert seen > 300 and len(returns) > 50
    forget_folds()


def test_two_beginnings_leaving_the_same_ballot_share_a_state_at_the_vote() -> None:
    # a candidate who withdrew before the close and one who died within 30 days of it are
    # both off the ballot with nobody left to depart: the same state at the vote (K = 1);
    # a name kept on the printed ballot is another state, the same whenever the board learned
    # of the death; a withdrawal that keeps the name on it is a third
    config = Config(method=Method.RUNOFF, seats=1, candidates=3)
    stories = _courses(config)
    merged = {s for s in stories if s.endswith("the same state at the vote as a course before")}

    def first(step: str) -> bool:
        return not any(step in s for s in merged)

    assert not first("Cy died within 30 days after the close, before printing")
    assert first("Cy died after printing, no time to reprint")
    assert not first("Cy died before printing, the board learns of it after printing and finds no")
    assert first("Cy withdrew after printing, no time to reprint")


def test_a_runoff_winner_leaving_before_and_after_the_oath_is_explored() -> None:
    # the runoff's winner may die once declared, before the oath, or take it and then die:
    # the courses go on past the runoff's canvass
    stories = _courses(Config(method=Method.RUNOFF, seats=1, candidates=3))
    after = [s.split("runoff returns: ", 1)[1] for s in stories if "runoff returns: " in s]
    assert any("died after the declaration, before the oath" in s for s in after)
    assert any("the elected take the oath" in s and "dies after taking" in s for s in after)


def test_a_partisan_general_election_goes_on_with_the_partys_new_nominee() -> None:
    # G.S. 163-114: a nominee who dies before the general election is replaced by the party's
    # executive committee, and the election is held with the new nominee
    config = Config(method=Method.PARTISAN, seats=1, candidates=2, general=True)
    ex = explored(config)
    assert ex.errors == ()
    named = [
        w.course
        for _o, w, _k in ex.outcomes
        if any("names Zed" in s for s in w.course.steps)
        and any(s.startswith("returns") for s in w.course.steps)
    ]
    assert named
    nominee = next(e for e in named[0].events if e["type"] == "nominee_named")
    died = next(e for e in named[0].events if e["type"] == "candidate_died")
    filed = next(e for e in named[0].events if e.get("candidate") == died["candidate"])
    assert nominee["party"] == filed["party"]  # the departed nominee's own party names one
    assert {c for c, _n in ex.cites} >= {"G.S. 163-114", "G.S. 163-182.8(2)"}  # and a lot


def test_the_stage_names_the_partisan_methods_general_election_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["explore", "--method", "nonpartisan-runoff", "--stage", "election"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--stage" in err
    args = ["explore", "--method", "partisan", "--stage", "election", "--candidates", "2"]
    assert main([*args, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["config"]["stage"] == "election" and doc["engine_errors"] == []


#: Run in a fresh interpreter: in the suite's process, threads left by other tests (process
#: pools' managers) may make garbage of their own while the collector is paused.
_CYCLES = """
import gc
from collections import Counter
from simulator.analysis.explore.config import Config
from simulator.analysis.explore.exploration import explore
from simulator.law.vocab import Method
# every module of rule tables made first (the package imports them all): making a module's
# classes leaves garbage of its own (attrs replaces each slotted class it makes), once per process
from simulator.law.tables import EVERY_TABLE
gc.collect()
gc.disable()
ex = explore(Config(method=Method.RUNOFF, seats=2, candidates=4))
gc.set_debug(gc.DEBUG_SAVEALL)
found = gc.collect()
print(ex.courses, found, Counter(type(o).__name__ for o in gc.garbage).most_common(6))
"""


def test_an_exploration_leaves_nothing_for_the_cyclic_collector() -> None:
    # explore() pauses the collector: every value it lets go must be freed by its last
    # reference going (the loader's validator and the canonical state once made cycles)
    done = subprocess.run(
        [sys.executable, "-c", _CYCLES], capture_output=True, text=True, check=True, timeout=300
    )
    courses, found, kinds = done.stdout.split(" ", 2)
    assert int(courses) > 1000
    assert int(found) == 0, kinds


@pytest.mark.parametrize(
    "config",
    [
        Config(method=Method.PLURALITY, seats=2, candidates=4),
        Config(method=Method.PRIMARY, seats=2, candidates=6),
        Config(method=Method.RUNOFF, seats=2, candidates=4),
        Config(method=Method.PARTISAN, seats=2, candidates=4),
    ],
    ids=lambda c: c.label,
)
def test_every_course_waiting_for_a_lot_says_who_is_tied(config: Config) -> None:
    # a result pending a drawing of lots has a lot_required ruling naming the tie (two or
    # more names), whichever method, point of the count or departure led there
    waiting = 0
    for course, _gone in courses(config):
        if course.merged:
            continue
        result = course.result or run(config, course.events)
        if result.outcome.pending is None or result.outcome.pending.value != "lot":
            continue
        waiting += 1
        lots = [r for r in result.rulings if r.kind.value == "lot_required"]
        assert lots and len(lots[-1].candidates) >= 2, course.steps
        assert (lots[-1].get("seats") or 0) < len(lots[-1].candidates), course.steps
    assert waiting > 10
