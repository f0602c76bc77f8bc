"""A result's timeline and periods are made when a view first reads them
(simulator.engine.result.Made).

A replay read only for its outcome and rulings (a sweep, a comparison in a notebook) builds no
line for its events; a view that reads the timeline gets exactly the lines it always got.
"""

from __future__ import annotations

import importlib
import pickle
from pathlib import Path

import attrs
import pytest

from simulator import load_scenario, replay
from simulator.engine.result import Made

# the module that builds the timeline
build_module = importlib.import_module("simulator.engine.build")

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
CARY = SCENARIOS / "runoff" / "cary-2023-district-d.yaml"


def test_the_timeline_is_built_only_when_read_and_once(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []
    real = build_module.event_entry

    def counting(ev):  # type: ignore[no-untyped-def]
        made.append(ev.type)
        return real(ev)

    monkeypatch.setattr(build_module, "event_entry", counting)
    result = replay(load_scenario(CARY))
    contest = result.contests[0]
    assert made == []  # the outcome and rulings are there without a line of the timeline
    assert contest.outcome.elected or contest.outcome.pending is not None
    lines = list(contest.timeline)
    events = [t for t in lines if t.what == "event"]
    assert events and len(made) == len(events)
    list(contest.timeline)
    list(contest.periods)
    assert len(made) == len(events)  # read again, not built again


def test_a_made_timeline_reads_compares_and_pickles_as_its_tuple() -> None:
    contest = replay(load_scenario(CARY)).contests[0]
    assert isinstance(contest.timeline, Made)
    lines = tuple(contest.timeline)
    assert contest.timeline == lines and lines == contest.timeline
    assert hash(contest.timeline) == hash(lines)
    assert contest.timeline[0] == lines[0] and contest.timeline[-2:] == lines[-2:]
    assert len(contest.timeline) == len(lines) and bool(contest.timeline)
    assert repr(contest.timeline) == repr(lines)
    again = pickle.loads(pickle.dumps(contest))
    assert type(again.timeline) is tuple and again.timeline == lines
    assert again == contest and again.to_json() == contest.to_json()


def test_two_replays_of_one_log_are_equal_whether_or_not_their_timelines_were_read() -> None:
    s = load_scenario(CARY)
    first, second = replay(s), replay(s)
    list(first.contests[0].timeline)  # one read, the other not
    assert first == second
    assert first.to_json() == second.to_json()


def test_an_empty_made_sequence_is_false_and_equal_to_the_empty_tuple() -> None:
    empty: Made[int] = Made(tuple)
    assert not empty and empty == () and list(empty) == []
    assert Made(lambda: (1, 2)) == Made(lambda: (1, 2)) != Made(lambda: (2, 1))


def test_a_result_without_its_timeline_states_its_deadlines_only_when_they_are_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # (what the explorer builds for each course: it reads the deadlines' kinds, days and
    # citations as listed, and where they stand of almost none)
    from simulator.engine.build import result_of
    from simulator.engine.replay import PrefixReplay, finish, replay_contest
    from simulator.engine.result import Deadlines, listed_deadlines

    scenario = load_scenario(CARY)
    whole = replay(scenario).contests[0]
    prefix = PrefixReplay(scenario, whole.id)
    state = replay_contest(prefix.ctx, prefix.events)
    stated: list[int] = []
    real = build_module.stated

    def counting(s):  # type: ignore[no-untyped-def]
        stated.append(1)
        return real(s)

    monkeypatch.setattr(build_module, "stated", counting)
    lean = result_of(finish(state, prefix.ctx, None, -1), prefix.ctx, (), timeline=False)
    assert isinstance(lean.deadlines, Deadlines)
    listed = listed_deadlines(lean)
    assert stated == [] and listed == state.deadlines
    assert all(dl.state is None for dl in listed)
    assert lean.deadlines == whole.deadlines and stated == [1]  # where each stands, when read
    assert sorted(listed, key=lambda dl: dl.due) == [
        attrs.evolve(dl, state=None, void_because=None, void_words="") for dl in whole.deadlines
    ]
    assert listed_deadlines(whole) == whole.deadlines  # a whole replay's are stated already
    again = pickle.loads(pickle.dumps(lean))
    assert type(again.deadlines) is tuple and again.deadlines == whole.deadlines
