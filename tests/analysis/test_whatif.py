"""What-if analysis (simulator.whatif): a fork is a new scenario and never changes the old one;
a comparison finds what differs; a sweep gives the same rows serially and across processes."""

from __future__ import annotations

import pickle
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from matplotlib.dates import date2num
from matplotlib.figure import Figure
from matplotlib.text import Text

from simulator import (
    EventTime,
    NewEvent,
    ScenarioError,
    Votes,
    compare,
    each_day,
    fork,
    load_scenario,
    parse_scenario,
    replay,
    sweep,
)
from simulator.analysis.whatif import OUTCOME_KINDS, EditError, Sweep, SweepRow, sweep_runner
from simulator.law.vocab import RulingKind
from simulator.model.events import CandidateFiled, RunoffRequested
from simulator.model.scenario import Scenario
from simulator.views.markup import escape
from simulator.whatif import (
    ContestFact,
    EventField,
    Margin,
    add_event,
    enable_rich_display,
    insert_event,
    remove_event,
    remove_events,
    replace_event,
    set_contest,
    shift_event,
    show,
)
from tests.chart_cases import layout_problems

TZ = ZoneInfo("America/New_York")

RUNOFF = """
format: electsim/v1
title: Example council seat, 2027
contests: [{id: seat-a, municipality: City of Example, office: Council Seat A, seats: 1,
            method: nonpartisan-runoff, year: 2027}]
events:
  - {type: candidate_filed, at: 2027-07-06, candidate: Ann}
  - {type: candidate_filed, at: 2027-07-07, candidate: Bob}
  - {type: candidate_filed, at: 2027-07-08, candidate: Cy}
  - {type: ballots_printed, at: 2027-09-10}
  - {type: returns_reported, at: "2027-10-05T21:00", precinct: P1,
     counts: {Ann: 300, Bob: 250, Cy: 60}}
  - {type: returns_reported, at: "2027-10-05T21:30", precinct: P2,
     counts: {Ann: 180, Bob: 170, Cy: 40}}
  - {type: canvass_held, at: "2027-10-12T11:00"}
"""

THIRTY_DAY = """
format: electsim/v1
title: Democratic primary for mayor, 2027
contests: [{id: mayor-dem, municipality: Town of Example, office: Mayor, method: partisan,
            stage: primary, party: DEM, year: 2027}]
events:
  - {type: candidate_filed, at: "2027-07-06T10:00", candidate: Ann, party: DEM}
  - {type: candidate_filed, at: "2027-07-07T10:00", candidate: Bob, party: DEM}
  - {type: candidate_died, at: "2027-08-01T15:00", notice_at: "2027-08-02T09:00", candidate: Bob}
"""


@pytest.fixture(scope="module")
def runoff() -> Scenario:
    return parse_scenario(RUNOFF, source="runoff.yaml")


@pytest.fixture(scope="module")
def thirty() -> Scenario:
    return parse_scenario(THIRTY_DAY, source="thirty.yaml")


def positions_are_indexes(s: Scenario) -> bool:
    return [e.index for e in s.events] == list(range(len(s.events)))


REQUEST = {"type": "runoff_requested", "at": "2027-10-13T09:30", "candidate": "Bob"}


# ---------------------------------------------------------------------------------------------
# Forks


def test_forking_never_changes_the_original(runoff: Scenario) -> None:
    before = pickle.dumps(runoff)
    events = runoff.events
    edited = [
        fork(runoff).insert(0, {"type": "candidate_filed", "at": "2027-07-05", "candidate": "Dee"}),
        fork(runoff).remove(3),
        fork(runoff).replace(4, counts={"Ann": 1, "Bob": 2, "Cy": 3}),
        fork(runoff).shift(3, days=10),
        fork(runoff).set_contest(seats=2, method="nonpartisan-plurality"),
        fork(runoff).without(type="ballots_printed"),
        fork(runoff).add(REQUEST),
    ]
    built = [f.build() for f in edited]
    assert pickle.dumps(runoff) == before
    assert runoff.events is events
    assert runoff.contests[0].seats == 1
    assert all(b != runoff for b in built)
    assert all(positions_are_indexes(b) for b in built)


def test_a_fork_is_a_value_each_edit_returns_a_new_one(runoff: Scenario) -> None:
    f = fork(runoff)
    g = f.remove(0)
    assert len(f.items) == len(runoff.events) and len(g.items) == len(runoff.events) - 1
    assert f.build() == runoff  # no edit: the same scenario, read back through the loader


def test_an_inserted_event_takes_its_position_and_the_log_is_reindexed(runoff: Scenario) -> None:
    new = insert_event(
        runoff, 1, {"type": "candidate_filed", "at": "2027-07-06T15:00", "candidate": "Dee"}
    )
    assert [e.type for e in new.events[:3]] == ["candidate_filed"] * 3
    assert new.events[1] == CandidateFiled(
        at=datetime(2027, 7, 6, 15, tzinfo=TZ), contest="seat-a", index=1, candidate="Dee"
    )
    assert positions_are_indexes(new)
    assert len(new.events) == len(runoff.events) + 1


def test_an_event_object_is_accepted_as_well_as_a_dict(runoff: Scenario) -> None:
    typed = RunoffRequested(
        at=datetime(2027, 10, 13, 9, 30, tzinfo=TZ), contest="seat-a", index=99, candidate="Bob"
    )
    a = add_event(runoff, typed)
    b = add_event(runoff, REQUEST)
    assert a == b
    assert a.events[-1].index == len(a.events) - 1


def test_a_bad_event_dict_is_a_scenario_error_naming_the_event_and_field(runoff: Scenario) -> None:
    with pytest.raises(ScenarioError) as caught:
        insert_event(
            runoff, 4, {"type": "votes_cast", "at": "2027-10-05", "candidate": "Ann", "count": -3}
        )
    (problem,) = caught.value.problems
    assert problem.path == "events[4].count"
    assert problem.file == "fork of runoff.yaml"
    with pytest.raises(ScenarioError) as caught:
        fork(runoff).append({"type": "runoff_requestd", "at": "2027-10-13"}).build()
    assert caught.value.problems[0].path == "events[7].type"
    with pytest.raises(ScenarioError) as caught:
        fork(runoff).append({**REQUEST, "candiate": "Bob"}).build()
    assert "events[7].candiate" in {p.path for p in caught.value.problems}


def test_removing_a_filing_but_not_the_votes_is_bad_input(runoff: Scenario) -> None:
    with pytest.raises(ScenarioError, match="who never filed"):
        remove_event(runoff, 2)  # Cy's filing; his returns remain


def test_a_position_out_of_range_is_an_edit_error_saying_the_range(runoff: Scenario) -> None:
    with pytest.raises(EditError, match=r"0\.\.6 .* found 7"):
        fork(runoff).remove(7)
    with pytest.raises(EditError, match="found 9"):
        fork(runoff).insert(9, REQUEST)
    assert fork(runoff).remove(-1).build().events[-1].type == "returns_reported"
    with pytest.raises(EditError, match="an event"):
        fork(runoff).append(42)  # type: ignore[arg-type]


def test_shift_moves_an_event_to_where_its_new_time_falls(runoff: Scenario) -> None:
    later = shift_event(runoff, 0, days=3)  # Ann now files on Jul 9, after Bob and Cy
    assert [getattr(e, "candidate", None) for e in later.events[:3]] == ["Bob", "Cy", "Ann"]
    assert later.events[2].at == datetime(2027, 7, 9, tzinfo=TZ)
    kept = shift_event(runoff, 0, hours=1, move=False)
    assert getattr(kept.events[0], "candidate", None) == "Ann"
    with pytest.raises(ScenarioError, match="order the board learned"):
        shift_event(runoff, 0, days=3, move=False)  # kept in place, out of order
    assert positions_are_indexes(later) and positions_are_indexes(kept)


def test_shifting_a_death_moves_its_notice_with_it(thirty: Scenario) -> None:
    moved = shift_event(thirty, 2, days=5, hours=1)
    death = moved.events[2]
    assert death.at == datetime(2027, 8, 6, 16, tzinfo=TZ)
    assert death.known_at == datetime(2027, 8, 7, 10, tzinfo=TZ)


def test_shifting_beyond_the_years_a_scenario_may_use_is_bad_input(runoff: Scenario) -> None:
    with pytest.raises(ScenarioError, match="1900-2200"):
        shift_event(runoff, 0, days=200 * 366)


def test_replace_changes_fields_or_the_whole_event(runoff: Scenario) -> None:
    changed = replace_event(runoff, 4, counts={"Ann": 10, "Bob": 250, "Cy": 60})
    assert dict(changed.events[4].counts)["Ann"] == 10  # type: ignore[attr-defined]
    whole = replace_event(
        runoff, 3, {"type": "reprint_determined", "at": "2027-09-11", "enough_time": True}
    )
    assert whole.events[3].type == "reprint_determined"
    with pytest.raises(EditError, match="either a whole event or field changes"):
        fork(runoff).replace(3)


def test_without_removes_every_event_that_matches(runoff: Scenario) -> None:
    unprinted = remove_events(runoff, type="ballots_printed")
    assert "ballots_printed" not in {e.type for e in unprinted.events}
    assert len(unprinted.events) == len(runoff.events) - 1
    with pytest.raises(EditError, match="at least one of"):
        fork(runoff).without()


def test_set_contest_changes_a_fact_and_the_loader_checks_it(runoff: Scenario) -> None:
    two = set_contest(runoff, "seat-a", seats=2)
    assert two.contests[0].seats == 2 and runoff.contests[0].seats == 1
    with pytest.raises(ScenarioError) as caught:
        set_contest(runoff, seats=0)
    assert caught.value.problems[0].path == "contests[0].seats"
    with pytest.raises(EditError, match="seat-a"):
        set_contest(runoff, "seat-b", seats=2)


# ---------------------------------------------------------------------------------------------
# Comparisons


def test_compare_finds_the_outcome_ruling_and_deadline_differences(runoff: Scenario) -> None:
    asked = add_event(runoff, REQUEST)
    c = compare(runoff, asked, names=("as run", "Bob asks"))
    assert not c.same
    outcome = {r.about: (r.a, r.b) for r in c.outcomes}
    assert outcome["elected"] == ("Ann", "-")
    assert outcome["runoff"] == ("none", "called (Ann, Bob)")
    assert any(r.about.startswith("runoff called") and r.a == "-" for r in c.rulings)
    assert any(r.about.startswith("elected") and r.b == "-" for r in c.rulings)
    text = str(c)
    assert "Bob asks" in text and "runoff called" in text
    assert "_" not in text and "_" not in c._repr_html_().replace("_blank", "")  # words only
    assert repr(c) == f"<Comparison of as run and Bob asks: {len(c.rows)} difference(s)>"
    assert c.to_dicts()[0].keys() == {"contest", "what", "about", "a", "b"}


def test_compare_takes_results_and_as_of(runoff: Scenario) -> None:
    asked = add_event(runoff, REQUEST)
    assert compare(replay(runoff), replay(runoff)).same
    early = compare(runoff, asked, as_of=datetime(2027, 10, 12, 15, 0))
    assert early.same, str(early)  # before the request nothing differs
    assert str(early) == "a and b: no difference"


def test_deadlines_that_move_show_in_a_comparison(thirty: Scenario) -> None:
    day30 = EventTime(2)(thirty, date(2027, 8, 15))
    day31 = EventTime(2)(thirty, date(2027, 8, 16))
    kinds = {r.about for r in compare(day30, day31).deadlines}
    assert "reopened filing closes" in kinds


def test_comparison_html_is_a_table_with_escaped_text(runoff: Scenario) -> None:
    c = compare(runoff, add_event(runoff, REQUEST), names=("<b>a</b>", "b & c"))
    page = c._repr_html_()
    assert "<table" in page and "&lt;b&gt;a&lt;/b&gt;" in page and "b &amp; c" in page
    assert "<b>a</b>" not in page.replace("<b>" + "&lt;", "")
    # one contest is named above the table, whose four columns then fit a phone
    assert "difference(s), in contest seat-a</p>" in page and page.count("<th style") == 4


# ---------------------------------------------------------------------------------------------
# Sweeps


def test_a_sweep_has_one_row_per_value_in_order(runoff: Scenario) -> None:
    # Ann's lead over Bob in precinct P1 (P2: Ann 180, Bob 170); Bob has 420 in all, Cy 100.
    sw = sweep(runoff, Margin(4, "Ann", over="Bob"), [30, -30, -10, 400])
    assert [r.value for r in sw] == [30, -30, -10, 400]
    assert len(sw) == 4 and sw[0].value == 30
    # Ann 460, Bob 420: no majority, Ann first; Bob may ask, and does not.
    assert sw[0].elected == ("Ann",) and sw[0].ruling == "elected"
    assert sw[1].elected == ("Bob",)
    assert sw[2].pending == "recount" and sw[2].ruling == "recount_required"  # 163-293(d)(1)
    assert sw[2].elected == ()
    assert sw[3].elected == ("Ann",) and sw[3].cite == "G.S. 163-293(a)(1)"  # a majority


def test_a_parallel_sweep_gives_the_same_rows_as_a_serial_one(thirty: Scenario) -> None:
    days = each_day(date(2027, 7, 16), date(2027, 9, 13))
    serial = sweep(thirty, EventTime(2), days, decider=["filing_reopened", "nominee_certified"])
    parallel = sweep(
        thirty,
        EventTime(2),
        days,
        decider=["filing_reopened", "nominee_certified"],
        workers=2,
        chunksize=7,
    )
    assert serial == parallel
    assert len(serial) == len(days)


def test_a_parallel_sweep_over_votes_matches_too(runoff: Scenario) -> None:
    values = range(0, 700, 25)
    vary = Votes(5, "Cy")
    assert sweep(runoff, vary, values, workers=2).rows == sweep(runoff, vary, values).rows


def test_a_lambda_cannot_go_to_other_processes_and_the_error_says_what_to_use(
    runoff: Scenario,
) -> None:
    with pytest.raises(EditError, match="module-level function or one of EventTime"):
        sweep(runoff, lambda s, v: s, [1, 2, 3], workers=2)
    assert len(sweep(runoff, lambda s, v: s, [1, 2, 3])) == 3  # serially it is fine


def test_the_thirty_day_rule_flips_between_day_30_and_day_31_after_the_close(
    thirty: Scenario,
) -> None:
    # G.S. 163-112(a): a death within 30 days reopens filing; 163-112(b): after, the survivor
    # is certified. Notice comes the next morning: the death's date decides
    # (interpretation late_notice).
    # (The last day is the eve of the eve of the primary: notice of a death on the eve arrives
    # on primary day itself, which the engine treats as a gap, no_provision.)
    days = each_day(date(2027, 7, 16), date(2027, 9, 12))
    sw = sweep(thirty, EventTime(2), days, decider=["filing_reopened", "nominee_certified"])
    ((before, after),) = sw.flips()
    close = date(2027, 7, 16)
    assert ((before.value - close).days, (after.value - close).days) == (30, 31)
    assert (before.ruling, before.cite) == ("filing_reopened", "G.S. 163-112(a)")
    assert after.ruling == "nominee_certified" and "163-112(b)" in after.cite


def test_the_deciding_ruling_is_the_last_that_changed_the_outcome(thirty: Scenario) -> None:
    sw = sweep(thirty, EventTime(2), [date(2027, 8, 1)])
    row = sw[0]
    result = replay(EventTime(2)(thirty, date(2027, 8, 1))).contest("mayor-dem")
    last = [r for r in result.rulings if r.kind in OUTCOME_KINDS][-1]
    assert (row.ruling, row.cite, row.ruling_at) == (last.kind.value, last.cite, last.at)
    assert result.rulings[-1].kind.value == "primary_cancelled"  # explains, changes nothing
    assert row.ruling == "nominee_certified"


def test_a_decider_that_is_not_a_ruling_kind_is_an_edit_error(thirty: Scenario) -> None:
    with pytest.raises(EditError, match="filing_reopened"):
        sweep(thirty, EventTime(2), [1], decider="filing_reopend")


def test_a_bad_value_is_reported_like_bad_input(runoff: Scenario) -> None:
    with pytest.raises(ScenarioError, match="0 or more"):
        sweep(runoff, Votes(4, "Ann"), [-1])
    with pytest.raises(ScenarioError, match="at most 1,000,000,000,000; found a number of about"):
        sweep(runoff, Votes(4, "Ann"), [16**4000])  # (too long to write out in a message)
    with pytest.raises(EditError, match="counts"):
        sweep(runoff, Votes(4, "Zed"), [1])
    with pytest.raises(EditError, match="votes_cast, returns_reported or recount_held"):
        sweep(runoff, Votes(0, "Ann"), [1])


def test_the_progress_bar_does_not_change_the_rows(
    runoff: Scenario, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    quiet = sweep(runoff, Votes(4, "Bob"), range(240, 260), progress=False)
    monkeypatch.setattr(sweep_runner, "PROGRESS_AFTER", 0.0)  # show the bar from the first variant
    loud = sweep(runoff, Votes(4, "Bob"), range(240, 260))
    assert quiet == loud
    assert "20/20" in capsys.readouterr().err


def test_progress_is_on_by_default_and_off_when_asked(
    runoff: Scenario, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sweep_runner, "PROGRESS_AFTER", 0.0)
    sweep(runoff, Votes(4, "Bob"), range(240, 243), progress=False)
    assert "sweep" not in capsys.readouterr().err
    sweep(runoff, Votes(4, "Bob"), range(240, 243))
    assert "3/3" in capsys.readouterr().err


def test_new_event_from_a_dict_is_read_once_and_placed_by_time(runoff: Scenario) -> None:
    vary = NewEvent({"type": "runoff_requested", "candidate": "Bob"})
    times = [datetime(2027, 10, 14, 11), datetime(2027, 10, 14, 12), datetime(2027, 10, 14, 13)]
    sw = sweep(runoff, vary, times)
    assert [r.runoff for r in sw] == ["called", "called", "none"]  # noon is still in time
    assert [r.ruling for r in sw] == ["runoff_called", "runoff_called", "elected"]
    variant = vary(runoff, times[0])
    assert variant.events[-1].type == "runoff_requested" and positions_are_indexes(variant)


def test_contest_facts_and_event_fields_can_be_swept(runoff: Scenario) -> None:
    by_seats = sweep(runoff, ContestFact("seats"), [1, 2])
    assert by_seats[1].elected == ("Ann", "Bob") or by_seats[1].runoff != "none"
    printed = replace_event(
        runoff, 3, {"type": "reprint_determined", "at": "2027-09-11", "enough_time": True}
    )
    by_field = sweep(printed, EventField(3, "enough_time"), [True, False])
    assert len(by_field) == 2


def test_variables_pickle_for_worker_processes() -> None:
    for v in (
        EventTime(2),
        Votes(4, "Ann"),
        Margin(4, "Ann", "Bob"),
        EventField(1, "x"),
        ContestFact("seats"),
        NewEvent({"type": "ballots_printed"}),
    ):
        assert pickle.loads(pickle.dumps(v)) == v


def test_a_sweep_draws_outcomes_against_the_value_with_coloured_bands(
    thirty: Scenario,
) -> None:
    days = each_day(date(2027, 8, 10), date(2027, 8, 20))
    sw = sweep(
        thirty,
        EventTime(2),
        days,
        decider=["filing_reopened", "nominee_certified"],
        label="day of Bob's death",
    )
    fig = sw.plot()
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "day of Bob's death (2027)"  # the ticks need no year then
    assert [t.get_text() for t in ax.get_yticklabels()] == ["nominated Ann"]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["filing reopened", "nominee certified", "flip: outcome or ruling changes"]
    assert len(ax.patches) == len(sw.bands()) == 2


def test_a_sweep_shows_its_bands_as_text_and_escaped_html() -> None:
    rows = tuple(
        SweepRow(v, ("<Ann>",) if v < 3 else ("Bob",), (), 0, "none", (), None, "elected")
        for v in range(5)
    )
    sw = Sweep("votes", "c", rows)
    assert [(b.first, b.last, b.count) for b in sw.bands()] == [(0, 2, 3), (3, 4, 2)]
    assert "elected <Ann>" in str(sw)
    page = sw._repr_html_()
    assert "&lt;Ann&gt;" in page and "<Ann>" not in page
    assert repr(sw) == "<Sweep of votes in c: 5 variant(s), 2 band(s), 1 flip(s)>"
    assert sw.to_dicts()[0]["outcome"] == "elected <Ann>"


# ---------------------------------------------------------------------------------------------
# Display


def test_show_wraps_a_result_in_a_view_with_escaped_html(runoff: Scenario) -> None:
    hostile = attrs.evolve(runoff, title="<script>alert(1)</script>")
    result = replay(hostile)
    page = show(result)._repr_html_()
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "G.S. 163-293(b)(1)" in page and "ncleg.gov" in page
    assert str(show(result)).startswith("# <script>")
    contest = show(result.contests[0])
    assert "<table" in contest._repr_html_() and "seat-a" in str(contest)
    assert show(42) == 42


def test_rich_display_needs_ipython_running() -> None:
    assert enable_rich_display() is False


# ---------------------------------------------------------------------------------------------
# Random edits (Hypothesis)

EVENT_DICTS = [
    {"type": "ballots_printed", "at": "2027-09-12"},
    {"type": "candidate_filed", "at": "2027-07-09T10:00", "candidate": "Dee"},
    {"type": "candidate_withdrew", "at": "2027-08-01", "candidate": "Cy"},
    {"type": "runoff_requested", "at": "2027-10-13T09:30", "candidate": "Bob"},
    {"type": "votes_cast", "at": "2027-10-05T20:00", "candidate": "Ann", "count": 7},
    {"type": "votes_cast", "at": "2027-10-05T20:00", "candidate": "Nobody"},  # never filed
    {"type": "canvass_held"},  # no time: bad input
]

edit = st.one_of(
    st.tuples(st.just("insert"), st.integers(-10, 10), st.sampled_from(EVENT_DICTS)),
    st.tuples(st.just("add"), st.sampled_from(EVENT_DICTS)),
    st.tuples(st.just("remove"), st.integers(-10, 10)),
    st.tuples(st.just("shift"), st.integers(-10, 10), st.integers(-40, 40), st.booleans()),
    st.tuples(st.just("replace"), st.integers(-10, 10), st.sampled_from(EVENT_DICTS)),
    st.tuples(st.just("seats"), st.integers(0, 3)),
    st.tuples(st.just("without"), st.sampled_from(["ballots_printed", "canvass_held", "x"])),
)


def _apply(f: Any, e: tuple[Any, ...]) -> Any:
    match e:
        case ("insert", i, ev):
            return f.insert(i, ev)
        case ("add", ev):
            return f.add(ev)
        case ("remove", i):
            return f.remove(i)
        case ("shift", i, days, move):
            return f.shift(i, days=days, move=move)
        case ("replace", i, ev):
            return f.replace(i, ev)
        case ("seats", n):
            return f.set_contest(seats=n)
        case ("without", kind):
            return f.without(type=kind)
    raise AssertionError(e)


_ORIGINAL = parse_scenario(RUNOFF, source="runoff.yaml")
_SNAPSHOT = pickle.dumps(_ORIGINAL)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(edit, max_size=6))
def test_random_edits_never_change_the_original_and_keep_positions_as_indexes(
    edits: list[tuple[Any, ...]],
) -> None:
    f = fork(_ORIGINAL)
    try:
        for e in edits:
            f = _apply(f, e)
        new = f.build()
    except (ScenarioError, EditError):
        pass  # bad input is reported, never half-applied
    else:
        assert positions_are_indexes(new)
        assert new.contests[0].id == "seat-a"
        replay(new)  # a fork the loader accepts replays
        times = [e.known_at for e in new.events]
        shifted_in_place = any(e[0] == "shift" and not e[3] for e in edits) or any(
            e[0] in ("insert", "replace") for e in edits
        )
        if not shifted_in_place:
            assert times == sorted(times) or times == [e.known_at for e in _ORIGINAL.events]
    assert pickle.dumps(_ORIGINAL) == _SNAPSHOT
    assert parse_scenario(RUNOFF) == _ORIGINAL


def test_each_day_counts_both_ends() -> None:
    assert len(each_day(date(2027, 7, 16), date(2027, 9, 13))) == 60
    assert each_day(datetime(2027, 1, 1, 15), date(2027, 1, 1)) == (date(2027, 1, 1),)
    assert each_day(date(2027, 1, 2), date(2027, 1, 1)) == ()
    assert timedelta(days=59) == each_day(date(2027, 7, 16), date(2027, 9, 13))[-1] - date(
        2027, 7, 16
    )


# ---------------------------------------------------------------------------------------------
# Results in words: accessors, reprs, HTML with no setup, sweeps that name the deciding ruling

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def test_a_contest_reads_its_runner_up_votes_and_rulings_as_words(runoff: Scenario) -> None:
    seat = replay(runoff).contest("seat-a")
    assert seat.votes == {"Ann": 480, "Bob": 420, "Cy": 100}
    assert list(seat.votes) == ["Ann", "Bob", "Cy"] and seat.runner_up == "Bob"
    elected = seat.ruling("elected")
    assert elected is not None and elected.candidates == ("Ann",)
    assert seat.ruling(RulingKind.ELECTED) is elected
    assert seat.ruling("runoff_called") is None
    with pytest.raises(ValueError):
        seat.ruling("no_such_kind")
    # the latest counted round: the runoff's, once one was held
    ran = replay(
        fork(runoff)
        .add(REQUEST)
        .add(
            {
                "type": "returns_reported",
                "at": "2027-11-02T21:00",
                "counts": {"Bob": 520, "Ann": 480},
            }
        )
        .add({"type": "canvass_held", "at": "2027-11-12T11:00"})
        .build()
    ).contest("seat-a")
    assert ran.votes == {"Bob": 520, "Ann": 480} and ran.runner_up == "Ann"
    called = ran.ruling("runoff_called")
    assert called is not None and called.candidates == ("Ann", "Bob")
    assert ran.ruling("elected").candidates == ("Bob",)  # type: ignore[union-attr]


def test_a_contest_before_any_count_has_no_runner_up(thirty: Scenario) -> None:
    c = replay(thirty).contests[0]
    assert c.votes == {} and c.runner_up is None


def test_a_result_repr_is_short_and_in_words(runoff: Scenario) -> None:
    result = replay(runoff)
    early = replay(runoff, as_of=datetime(2027, 10, 12, 15, 0))
    assert repr(result) == "<Result of 'Example council seat, 2027': seat-a: elected Ann>"
    assert repr(result.contests[0]) == "<ContestResult seat-a: elected Ann>"
    assert repr(early.contests[0].outcome) == (
        "<Outcome: runoff may be requested; waiting for a runoff request>"
    )
    assert "\n" not in repr(early) and "as of 2027-10-12T15:00" in repr(early)


def test_results_show_as_html_in_words_with_no_setup(runoff: Scenario) -> None:
    from IPython.core.formatters import DisplayFormatter

    early = replay(runoff, as_of=datetime(2027, 10, 12, 15, 0))
    seat = early.contests[0]
    for value in (early, seat, seat.outcome, seat.timeline):
        data, _ = DisplayFormatter().format(value)
        assert "electsim-t" in data["text/html"], type(value)
    page = seat._repr_html_()
    assert page is not None
    for words in ("runoff may be requested", "runoff request deadline", "votes needed"):
        assert words in page, words
    text = page.replace('target="_blank"', "")
    assert "runoff_request" not in text and "majority_threshold" not in text


def test_the_cary_sweep_names_the_declaration_as_deciding_in_every_band() -> None:
    # The November returns are set aside when no runoff was called (G.S. 163-279(a)); that
    # ruling decides nothing, and the declaration of the result is what decided each band.
    cary = load_scenario(SCENARIOS / "runoff" / "cary-2023-district-d.yaml")
    sw = sweep(cary, Votes(3, "Rachel Jordan"), range(0, 20000, 7), progress=False)
    assert {r.ruling for r in sw} == {"elected"}
    assert all(b.ruling == "elected" for b in sw.bands())
    outright = [b for b in sw.bands() if "runoff" not in b.outcome]
    assert outright[0].cite == outright[-1].cite == "G.S. 163-293(a)(1)"
    assert outright[0].outcome == "elected Sarika Bansal"
    assert outright[-1].outcome == "elected Rachel Jordan"
    assert "votes_disregarded" not in str(sw) and "votes set aside" not in str(sw)
    assert "elected (G.S. 163-293(a)(1))" in str(sw)
    assert sw.title == "Town of Cary - Town Council District D"


def test_a_ruling_that_changed_nothing_never_decides() -> None:
    assert not OUTCOME_KINDS & {
        RulingKind.VOTES_DISREGARDED,
        RulingKind.MAJORITY_THRESHOLD,
        RulingKind.REQUEST_REJECTED,
        RulingKind.FILING_REJECTED,
        RulingKind.NO_RUNOFF,
    }
    assert {
        RulingKind.ELECTED,
        RulingKind.RUNOFF_CALLED,
        RulingKind.DECIDED_BY_LOT,
    } <= OUTCOME_KINDS


def _texts(fig: Figure) -> list[str]:
    return [t.get_text() for t in fig.findobj(Text) if t.get_text()]


def test_a_sweep_chart_speaks_in_words_and_marks_the_flip(thirty: Scenario) -> None:
    days = each_day(date(2027, 8, 10), date(2027, 8, 20))
    bob_dies = fork(thirty).replace(2, id="bob-dies").build()
    sw = sweep(
        bob_dies, EventTime("bob-dies"), days, decider=["filing_reopened", "nominee_certified"]
    )
    ((before, after),) = sw.flips()
    fig = sw.plot()
    ax = fig.axes[0]
    assert ax.get_xlabel() == "date of Bob's death (2027)"
    texts = _texts(fig)
    assert not [t for t in texts if "_" in t or "event '" in t], texts
    assert "filing reopened" in texts and "nominee certified" in texts
    # no stray offset label ("2027-Aug") in a corner
    assert not ax.xaxis.get_offset_text().get_text()
    flips = [ln for ln in ax.get_lines() if ln.get_gid() == "flip"]
    assert len(flips) == 1
    x = flips[0].get_xdata()[0]
    assert date2num(before.value) < x < date2num(after.value)
    # the line is labelled with the values on either side, then with what changes
    label = f"{before.value.isoformat()} → {after.value.isoformat()}"
    assert f"{label}\nfiling reopened → nominee certified" in texts


def test_a_votes_sweep_chart_names_the_candidate_and_marks_each_flip(runoff: Scenario) -> None:
    named = fork(runoff).replace(4, id="returns").build()
    sw = sweep(named, Votes("returns", "Bob"), range(200, 400, 10), progress=False)
    fig = sw.plot()
    ax = fig.axes[0]
    assert ax.get_xlabel() == "votes for Bob"
    assert sw.variable == "votes for Bob" and "event '" not in str(sw)
    texts = _texts(fig)
    assert not [t for t in texts if "_" in t or "event '" in t], texts
    lines = [ln.get_xdata()[0] for ln in ax.get_lines() if ln.get_gid() == "flip"]
    assert len(lines) == len(sw.flips()) >= 1
    for (a, b), x in zip(sw.flips(), lines, strict=True):
        assert a.value < x < b.value
        assert f"{a.value} → {b.value}" in [t.splitlines()[0] for t in texts]


def test_a_sweeps_flips_show_in_words_what_changes(thirty: Scenario) -> None:
    days = each_day(date(2027, 8, 10), date(2027, 8, 20))
    bob_dies = fork(thirty).replace(2, id="bob-dies").build()
    sw = sweep(bob_dies, EventTime("bob-dies"), days)
    flips = sw.flips()
    assert len(flips) >= 1 and all(isinstance(pair, tuple) for pair in flips)
    text, html = str(flips), flips._repr_html_()
    assert text.splitlines()[0].split() == ["flips", "between", "what", "changes"]
    for before, after in flips:
        where = f"{before.value.isoformat()} → {after.value.isoformat()}"
        assert where in text and escape(where) in html
        if before.outcome == after.outcome:  # the outcome holds: the ruling or its cite moved
            assert f"{before.outcome} either way" in text
        else:
            assert f"{before.outcome} → {after.outcome}" in text
    assert "<table" in html and "SweepRow(" not in text and "SweepRow(" not in html


DIES_NEAR_ELECTION = """
format: electsim/v1
title: Example council seat, 2027
contests: [{id: seat-a, municipality: City of Example, office: Council Seat A, seats: 1,
            method: nonpartisan-runoff, year: 2027}]
events:
  - {type: candidate_filed, at: 2027-07-06, candidate: Ann}
  - {type: candidate_filed, at: 2027-07-07, candidate: Bob}
  - {type: ballots_printed, at: 2027-09-10}
  - {type: candidate_died, at: "2027-10-01T15:00", candidate: Ann, id: ann-dies}
  - {type: returns_reported, at: "2027-10-05T21:00", precinct: P1, counts: {Ann: 600, Bob: 400}}
  - {type: canvass_held, at: "2027-10-12T11:00"}
"""


def test_a_sweep_chart_labels_a_flip_where_only_the_provision_changes() -> None:
    # a death swept across election day leaves the seat vacant either way: before the
    # election under G.S. 163-294.4(c), after it under G.S. 163-294.1(c)
    s = parse_scenario(DIES_NEAR_ELECTION, source="dies.yaml")
    sw = sweep(s, EventTime("ann-dies"), each_day(date(2027, 9, 25), date(2027, 10, 20)))
    ((before, after),) = sw.flips()
    assert before.outcome == after.outcome == "1 vacant seat"
    fig = sw.plot()
    labels = [t.get_text() for t in fig.findobj(Text) if t.get_gid() == "flip-label"]
    assert labels == ["2027-10-04 → 2027-10-05\n163-294.4(c) → 163-294.1(c)"]
    assert layout_problems(fig) == []


def test_a_sweep_charts_close_flip_labels_are_stacked_with_no_clash(runoff: Scenario) -> None:
    named = fork(runoff).replace(4, id="returns").build()
    sw = sweep(named, Votes("returns", "Bob"), range(0, 1000, 5), progress=False)
    fig = sw.plot()
    labels = [t for t in fig.findobj(Text) if t.get_gid() == "flip-label"]
    assert len(labels) == len(sw.flips()) >= 3
    assert layout_problems(fig) == []
    # the flips' labels sit above the plot and below the title
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    ax = fig.axes[0]
    top = ax.get_window_extent(renderer).y1
    title = ax.title.get_window_extent(renderer)
    for t in labels:
        box = t.get_window_extent(renderer)
        assert top <= box.y0 and box.y1 <= title.y0
