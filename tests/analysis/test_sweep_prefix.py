"""A sweep folds the events its variants share once, and gets the rows a whole replay gives.

:class:`simulator.engine.replay.PrefixReplay` keeps the state after each event of the base scenario
and
replays a variant only from where its events part from the base's. Every scenario of the library,
edited at several places (an event removed, moved in time, a count changed, an event added in
another contest), must give exactly the contest result of replaying the variant whole.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator import Votes, load_scenario, parse_scenario, replay, sweep
from simulator.engine.build import result_of
from simulator.engine.replay import PrefixReplay, make_context, one_office_bars, replay_contest
from simulator.model.events import Event, ReturnsReported, VotesCast
from simulator.model.scenario import Scenario
from tests.engine.test_batching import dense_logs

LIBRARY = sorted((Path(__file__).resolve().parents[2] / "scenarios").rglob("*.yaml"))


def _with(scenario: Scenario, events: list[Event]) -> Scenario:
    ordered = [attrs.evolve(e, index=i) for i, e in enumerate(events)]
    return attrs.evolve(scenario, events=tuple(ordered))


def _variants(s: Scenario, where: int) -> list[Scenario]:
    events = list(s.events)
    if not events:
        return []
    i = where % len(events)
    e = events[i]
    out = [_with(s, events[:i] + events[i + 1 :])]  # removed
    for delta in (timedelta(days=-20), timedelta(hours=1), timedelta(days=9)):
        moved = attrs.evolve(e, at=e.at + delta)
        rest = events[:i] + events[i + 1 :]
        # where the board learned of it: its new place in the log
        place = next((k for k, x in enumerate(rest) if x.at > moved.at), len(rest))
        out.append(_with(s, [*rest[:place], moved, *rest[place:]]))
    if isinstance(e, VotesCast):
        out.append(_with(s, [*events[:i], attrs.evolve(e, count=e.count + 7), *events[i + 1 :]]))
    if isinstance(e, ReturnsReported):
        counts = {n: c * 2 + 1 for n, c in e.counts}
        out.append(_with(s, [*events[:i], attrs.evolve(e, counts=counts), *events[i + 1 :]]))
    return out


def _whole(variant: Scenario, contest_id: str) -> dict[str, object]:
    """What ``replay(variant).contest(contest_id)`` gives, replaying that contest alone."""
    contest = variant.contest(contest_id)
    ctx = make_context(variant, contest, one_office_bars(variant).get(contest_id, frozenset()))
    events = [e for e in variant.events if e.contest == contest_id]
    return result_of(replay_contest(ctx, events), ctx, events).to_json()


def _same(base: Scenario, variant: Scenario) -> None:
    for c in base.contests:
        try:
            whole = _whole(variant, c.id)
        except Exception as error:  # an edit the engine cannot replay: the same error either way
            with pytest.raises(type(error)):
                PrefixReplay(base, c.id).contest_result(variant)
            continue
        fast = PrefixReplay(base, c.id).contest_result(variant).to_json()
        assert fast == whole, c.id


@pytest.mark.sample(6)
@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: p.stem)
def test_every_library_scenario_edited_anywhere_replays_the_same_from_the_shared_prefix(
    path: Path,
) -> None:
    s = load_scenario(path)
    n = len(s.events)
    for where in sorted({0, n // 3, n // 2, n - 2, n - 1}):
        for variant in _variants(s, where):
            _same(s, variant)


def test_a_filing_changed_in_another_contest_changes_what_the_one_office_rule_bars() -> None:
    # G.S. 163-291(2): Ann files for mayor, then for council, so her council notice is barred;
    # if her mayoral notice came before the filing period (it does not stand), it is not. The
    # council contest's own events are the same in both: only the other contest changed.
    doc = {
        "format": "electsim/v1",
        "title": "one office",
        "contests": [
            {"id": "mayor", "municipality": "Town", "office": "Mayor", "seats": 1}
            | {"method": "nonpartisan-plurality", "year": 2027},
            {"id": "council", "municipality": "Town", "office": "Council", "seats": 1}
            | {"method": "nonpartisan-plurality", "year": 2027},
        ],
        "events": [
            {"type": "candidate_filed", "contest": "council", "at": "2027-07-07T09:00"}
            | {"candidate": "Bea"},
            {"type": "candidate_filed", "contest": "mayor", "at": "2027-07-08T10:00"}
            | {"candidate": "Ann"},
            {"type": "candidate_filed", "contest": "council", "at": "2027-07-09T10:00"}
            | {"candidate": "Ann"},
            {"type": "votes_cast", "contest": "council", "at": "2027-11-02T10:00"}
            | {"candidate": "Ann", "count": 5},
            {"type": "votes_cast", "contest": "council", "at": "2027-11-02T11:00"}
            | {"candidate": "Bea", "count": 3},
            {"type": "canvass_held", "contest": "council", "at": "2027-11-12T11:00"},
        ],
    }
    s = parse_scenario(json.dumps(doc), fmt="json")
    assert replay(s).contest("council").outcome.elected == ("Bea",)
    events = list(s.events)
    early = attrs.evolve(events[1], at=events[1].at - timedelta(days=40))
    variant = attrs.evolve(s, events=(events[0], early, *events[2:]))
    assert replay(variant).contest("council").outcome.elected == ("Ann",)
    _same(s, variant)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dense_logs(), st.integers(0, 60), st.sampled_from([None, 0, 5, 12]))
def test_random_logs_edited_anywhere_replay_the_same_from_the_shared_prefix(
    text: str, where: int, cut: int | None
) -> None:
    s = parse_scenario(text, fmt="json")
    as_of = None if cut is None else s.events[min(cut, len(s.events) - 1)].at
    for variant in _variants(s, where):
        for stride in (1, 3):
            replayer = PrefixReplay(s, "c", as_of=as_of, stride=stride)
            whole = replay(variant, as_of=as_of).contest("c")
            assert replayer.contest_result(variant).to_json() == whole.to_json()
            summary = replayer.summary(variant)
            assert (summary.outcome, summary.rulings) == (whole.outcome, whole.rulings)


def test_a_sweep_gives_the_rows_of_whole_replays() -> None:
    lines = [
        "format: electsim/v1",
        "title: sweep",
        "contests: [{id: a, office: Council, seats: 1, method: nonpartisan-runoff, year: 2027}]",
        "events:",
        "  - {type: candidate_filed, at: 2027-07-06, candidate: Ann}",
        "  - {type: candidate_filed, at: 2027-07-07, candidate: Bob}",
        "  - {type: candidate_filed, at: 2027-07-08, candidate: Cy}",
        "  - {type: returns_reported, at: '2027-10-05T20:00', counts: {Ann: 50, Bob: 40, Cy: 30}}",
        "  - {type: returns_reported, at: '2027-10-05T21:00', counts: {Ann: 50, Bob: 40, Cy: 9}}",
        "  - {type: canvass_held, at: '2027-10-12T11:00'}",
        "  - {type: runoff_requested, at: '2027-10-13T09:30', candidate: Bob}",
    ]
    s = parse_scenario("\n".join(lines) + "\n", source="sweep")
    for index in (3, 4):
        vary = Votes(index, "Ann")
        rows = sweep(s, vary, range(0, 200, 7)).rows
        whole = []
        for v in range(0, 200, 7):
            c = replay(vary(s, v)).contest("a")
            whole.append((c.outcome.elected, c.outcome.runoff_status.value))
        assert [(r.elected, r.runoff) for r in rows] == whole
        assert len({r.outcome for r in rows}) > 1  # the sweep crosses an outcome
