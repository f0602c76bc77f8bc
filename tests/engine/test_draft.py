"""The typed draft a step works on: the same fields as the state, and states stay values.

A draft reads the state's fields until a step changes one, then works on its own copy; these
tests check that no step ever changes a state it started from (a kept state, as an as-of
replay or a sweep's shared prefix keeps, must not move) and that a step that changes nothing
gives back the very state it started from.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import get_type_hints

import attrs
import pytest

from simulator import load_scenario
from simulator.engine.fold import step
from simulator.engine.replay import make_context, one_office_bars
from simulator.engine.state import FAR_FUTURE, Draft, State, initial_state
from simulator.engine.timers import fire_timers
from simulator.law.vocab import Method
from simulator.model.events import CandidateFiled, CandidateWithdrew, VotesCast
from simulator.model.scenario import Contest, Scenario

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = sorted((ROOT / "scenarios").rglob("*.yaml"))


def test_what_a_draft_may_set_is_exactly_the_fields_of_the_state() -> None:
    # the state's fields are declared once, on State: the draft declares none of its own (the
    # type checker sees it as a State), and refuses a name that is no field of it
    fields = {f.name for f in attrs.fields(State)}
    assert not set(get_type_hints(Draft)) & fields
    scenario = load_scenario(LIBRARY[0])
    ctx = make_context(scenario, scenario.contests[0])
    state = initial_state(ctx)
    d = Draft(state, ctx, state.clock, 0, "test")
    d.set(vacant=1)
    with pytest.raises(TypeError, match="not fields of the contest's state: vacancy"):
        d.set(vacancy=1)
    with pytest.raises(TypeError, match="tally"):
        state.evolved(tally={})
    assert state.evolved(vacant=2).vacant == 2


def test_a_draft_reads_every_field_of_the_state_it_opens() -> None:
    scenario = load_scenario(LIBRARY[0])
    ctx = make_context(scenario, scenario.contests[0])
    state = initial_state(ctx)
    d = Draft(state, ctx, state.clock, 0, "test")
    for f in attrs.fields(State):
        assert getattr(d, f.name) is getattr(state, f.name), f.name


def _snapshot(state: State) -> dict[str, object]:
    fields = dict(state.__dict__)
    fields.pop("cand_index", None)  # a look-up cache, not part of the state
    fields["ruling_log"] = state.rulings
    return fields


@pytest.mark.parametrize("path", LIBRARY[::3], ids=lambda p: p.stem)
def test_no_step_changes_the_state_it_started_from(path: Path) -> None:
    scenario = load_scenario(path)
    bars = one_office_bars(scenario)
    for contest in scenario.contests:
        ctx = make_context(scenario, contest, bars.get(contest.id, frozenset()))
        kept = [initial_state(ctx)]
        snapshots = [_snapshot(kept[0])]
        for ev in scenario.events:
            if ev.contest == contest.id:
                kept.append(step(kept[-1], ev, ctx))
                snapshots.append(_snapshot(kept[-1]))
        kept.append(fire_timers(kept[-1], ctx, FAR_FUTURE, -1))
        snapshots.append(_snapshot(kept[-1]))
        for state, snap in zip(kept, snapshots, strict=True):
            assert _snapshot(state) == snap


def test_a_step_that_changes_nothing_gives_back_the_same_state() -> None:
    tz = Scenario(title="t", contests=(), events=()).tz
    contest = Contest(id="mayor", method=Method.PLURALITY, year=2027, seats=1, office="Mayor")
    scenario = Scenario(title="t", contests=(contest,), events=())
    ctx = make_context(scenario, contest)
    state = initial_state(ctx)
    for ev in (
        CandidateFiled(at=datetime(2027, 7, 6, 10, tzinfo=tz), contest="mayor", candidate="Ann"),
        VotesCast(at=datetime(2027, 10, 20, 10, tzinfo=tz), contest="mayor", candidate="Ann"),
    ):
        state = step(state, ev, ctx)
    # a withdrawal by someone who never filed, at the time the board last heard of anything
    # (an oath by someone never elected is refused with a ruling, so it changes the state)
    oath = CandidateWithdrew(at=state.clock, contest="mayor", candidate="Nobody")
    assert step(state, oath, ctx) is state
    later = step(attrs.evolve(state), attrs.evolve(oath, at=datetime(2027, 10, 21, tzinfo=tz)), ctx)
    assert later.clock == datetime(2027, 10, 21, tzinfo=tz)
    assert attrs.evolve(later, clock=state.clock) == state
