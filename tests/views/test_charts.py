"""Timeline charts render headless, carry their labels and citations as text, and stay legible
from one lane to twenty: no label leaves the figure and no two labels overlap, measured with
matplotlib's renderer on every scenario of the library and on a generated twenty-contest one."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import attrs
import pytest
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Rectangle
from matplotlib.path import Path as CurvePath
from matplotlib.text import Text

from simulator import load_scenario, parse_scenario, replay
from simulator.cli.main import main
from simulator.engine.result import ContestResult, Result
from simulator.law.vocab import DeadlineKind, RulingKind
from simulator.model.errors import SimulatorError, UnsupportedFormat
from simulator.model.events import CandidateDied
from simulator.model.scenario import Scenario
from simulator.views.charts import plot_timeline, styles
from simulator.views.charts.figures import Chart
from simulator.views.charts.lanes import lane_of, lane_xs
from simulator.views.charts.styles import BANDS, mark_style, marks
from simulator.views.charts.time_axis import axis_for
from simulator.views.charts.timeline import _events_of
from simulator.views.charts.timeline import _to_num as to_num
from tests.chart_cases import layout_problems, tie_problems, twenty_contests
from tests.views.test_graph import LIBRARY, SCENARIOS, Case, case_id, not_blank, replayed, worked

SVG = "{http://www.w3.org/2000/svg}"
CLOSE = CurvePath.CLOSEPOLY  # its vertex is a placeholder, not a point of the path
TZ = ZoneInfo("America/New_York")


def svg_text(path: Path) -> str:
    """Every text element of an SVG, one a line, whitespace collapsed within each."""
    root = ET.parse(path).getroot()
    return "\n".join(" ".join("".join(t.itertext()).split()) for t in root.iter(f"{SVG}text"))


def flat(text: str) -> str:
    return " ".join(text.split())


def outcome_words(c: ContestResult) -> list[str]:
    return list(c.outcome.brief()) or [c.state.replace("_", " ")]


def drawn_text(fig: Figure) -> str:
    """Every visible text of a figure, one a line, whitespace collapsed within each."""
    texts = (t for t in fig.findobj(Text) if t.get_visible())
    return "\n".join(" ".join(t.get_text().split()) for t in texts)


@pytest.mark.sample(48)
@pytest.mark.parametrize("case", LIBRARY, ids=case_id)
def test_every_library_chart_labels_its_citations_and_outcomes_with_no_clash(case: Case) -> None:
    scenario, result = replayed(case)
    fig = plot_timeline(result, scenario=scenario)
    text = drawn_text(fig)
    notes = flat(text)
    for c in result.contests:
        assert c.id in text
        for d in c.deadlines:
            for cite in d.cites:
                assert str(cite) in text, f"{c.id}: {d.kind.value} has no label {cite}"
        for word in outcome_words(c):
            assert word in notes, f"{c.id}: outcome {word!r} missing (in full, never cut)"
    assert not re.search(r"\+\d+ more|\[\.\.\.\]", notes)  # nothing cut
    assert not layout_problems(fig)


def test_twenty_generated_contests_read_with_no_clash(tmp_path: Path) -> None:
    scenario = parse_scenario(twenty_contests(), source="twenty.yaml")
    result = replay(scenario)
    assert len(result.contests) == 20
    fig = plot_timeline(result, scenario=scenario, out=tmp_path / "twenty.svg")
    assert not layout_problems(fig)
    text = svg_text(tmp_path / "twenty.svg")
    assert all(f"{c.id} |" in text for c in result.contests)
    one = plot_timeline(Result(result.scenario, result.contests[:1]), scenario=scenario)
    assert fig.get_figheight() > 8 * one.get_figheight() / 2
    assert not layout_problems(one)


@pytest.mark.parametrize("width", [640, 1280, 2000])
def test_the_chart_reads_at_any_width(width: int) -> None:
    scenario = parse_scenario(twenty_contests(seed=5), source="twenty.yaml")
    fig = plot_timeline(replay(scenario), scenario=scenario, width=width, dpi=100)
    assert fig.bbox.width == pytest.approx(width)
    assert not layout_problems(fig)


def test_a_png_chart_is_an_image(tmp_path: Path) -> None:
    scenario, result = worked("tie-for-second")
    fig = plot_timeline(result, scenario=scenario, out=tmp_path / "chart.png")
    assert isinstance(fig, Chart) and not_blank(tmp_path / "chart.png")
    assert fig.get_figheight() > 2


def test_a_103_5_move_is_an_arrow_from_the_day_named_to_the_day_the_office_opens() -> None:
    # G.S. 103-5(a): filing opens on Independence Day 2025, the reopened filing closes on the
    # Sunday before Labor Day, the canvass falls on Veterans Day.
    _, result = worked("death-reopens-filing@2025-08-27T09:00")
    moved = [d for d in result.contests[0].deadlines if d.moved_from is not None]
    assert {d.kind for d in moved} >= {
        DeadlineKind.FILING_OPENS,
        DeadlineKind.REOPENED_FILING_CLOSES,
    }
    fig = plot_timeline(result)
    assert fig.x_of is not None
    arrows = [p for p in fig.axes[0].patches if isinstance(p, FancyArrowPatch)]
    assert len(arrows) == len(moved)
    for d, arrow in zip(moved, arrows, strict=True):
        path = arrow.get_path()
        xs = [v[0] for v, code in zip(path.vertices, path.codes, strict=True) if code != CLOSE]
        assert min(xs) == pytest.approx(fig.x_of(d.moved_from), abs=0.02)
        assert max(xs) == pytest.approx(fig.x_of(d.due), abs=0.02)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "G.S. 103-5 move" in legend


def test_the_legend_lists_only_what_is_drawn() -> None:
    scenario, result = worked("tie-for-second")  # nothing is moved by G.S. 103-5 here
    assert not any(d.moved_from for c in result.contests for d in c.deadlines)
    fig = plot_timeline(result, scenario=scenario)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "G.S. 103-5 move" not in legend and "filing reopened" not in legend
    assert {"candidate filed", "candidate withdrew", "ballots printed", "canvass held"} <= set(
        legend
    )
    assert "recount held" not in legend and "lot drawn" not in legend


def test_each_kind_of_event_has_its_own_mark_and_red_means_only_a_103_5_move() -> None:
    styles = [tuple(sorted(mark_style(k).items())) for k in marks()]
    assert len(set(styles)) == len(styles)
    filled = [m[0] for k, m in marks().items() if k != "filing_rejected"]
    assert len(set(filled)) == len(filled), "a marker shared by two kinds of event"
    assert marks()["canvass_held"][:2] != marks()["recount_held"][:2]
    reds = [k for k, (_, face, edge) in BANDS.items() if "c0392b" in face + edge]
    assert not reds


def _bands(fig: Figure, key: str) -> list[tuple[float, float]]:
    face = to_rgba(BANDS[key][1], 0.85)
    return [
        (r.get_x(), r.get_x() + r.get_width())
        for r in fig.axes[0].patches
        if isinstance(r, Rectangle) and r.get_facecolor() == pytest.approx(face)
    ]


def test_periods_are_bands_from_their_start_to_their_deadline() -> None:
    _, result = worked("death-reopens-filing@2025-08-27T09:00")
    fig = plot_timeline(result)
    assert fig.x_of is not None
    (reopened,) = [r for r in result.contests[0].rulings if r.kind is RulingKind.FILING_REOPENED]
    assert _bands(fig, "filing_reopened") == [
        (
            pytest.approx(fig.x_of(reopened.get("opens"))),
            pytest.approx(fig.x_of(reopened.get("closes"))),
        )
    ]
    assert len(_bands(fig, "filing")) == 1

    _, result = worked("tie-for-second")
    fig = plot_timeline(result)
    assert fig.x_of is not None
    seat = result.contest("seat-b")
    due = {d.kind: d.due for d in seat.deadlines}
    (runoff,) = _bands(fig, "runoff_request")
    assert runoff[1] == pytest.approx(fig.x_of(due[DeadlineKind.RUNOFF_REQUEST]))
    (tie,) = _bands(fig, "tie_withdrawal")
    assert tie[1] == pytest.approx(fig.x_of(due[DeadlineKind.TIE_WITHDRAWAL]))
    printed = [r for r in fig.axes[0].patches if isinstance(r, Rectangle) and r.get_hatch()]
    assert len(printed) == 1  # only seat-b's ballots were printed


def test_events_are_marked_and_captioned(tmp_path: Path) -> None:
    scenario, result = worked("tie-for-second")
    fig = plot_timeline(result, scenario=scenario, out=tmp_path / "chart.svg")
    svg = (tmp_path / "chart.svg").read_text()
    assert "<text" in svg and "DejaVuSans-" not in svg  # text is written as text, not paths
    written = svg_text(tmp_path / "chart.svg")
    assert sorted(written.split()) == sorted(drawn_text(fig).split())  # every text, as text
    text = flat(written)
    for caption in ("Eve withdrew", "ballots printed", "canvass", "3 filed"):
        assert caption in text
    # user text is drawn as text: markup and dollar signs stay as typed (no TeX)
    assert "Ann <b>&</b>" in text and 'Seat "B" <east>' in text
    assert "Two runners-up tie" in text  # the scenario's description


def test_votes_shares_and_the_threshold_are_shown_where_the_result_was_declared(
    tmp_path: Path,
) -> None:
    # G.S. 163-293(b): a majority is more than half of the votes cast; 1,050 here.
    scenario, result = worked("tie-for-second")
    fig = plot_timeline(result, scenario=scenario, out=tmp_path / "chart.svg")
    text = flat(svg_text(tmp_path / "chart.svg"))
    assert "Ann <b>&</b> 450 42.9%" in text and "Bob 300 28.6%" in text
    assert "majority: more than 525 of 1,050" in text
    assert fig.x_of is not None
    block = next(t for t in fig.axes[0].texts if t.get_text().startswith("votes\n"))
    canvass = datetime(2027, 10, 12, 11, tzinfo=TZ)
    assert block.get_position()[0] == pytest.approx(fig.x_of(canvass), abs=0.6)


def test_winners_are_starred_in_the_votes(tmp_path: Path) -> None:
    scenario = parse_scenario((SCENARIOS / "plurality" / "single-office.yaml").read_text())
    result = replay(scenario)
    winner = result.contests[0].outcome.elected[0]
    plot_timeline(result, scenario=scenario, out=tmp_path / "c.svg")
    assert any(
        line.startswith(winner) and line.endswith("*")
        for line in svg_text(tmp_path / "c.svg").split("\n")
        if "%" in line
    )


def test_same_day_events_are_one_mark_with_a_count() -> None:
    # Greensboro 2017: fifteen filed for three at-large seats, several on the same days.
    case = next(c for c in LIBRARY if "greensboro-2017-at-large" in c.id)
    scenario, result = replayed(case)
    primary = result.contests[0]
    filings = [t for t in primary.timeline if t.kind == "candidate_filed"]
    days = {t.at.astimezone(TZ).date() for t in filings}
    fig = plot_timeline(Result(result.scenario, (primary,)), scenario=scenario)
    filed_colour = to_rgba(styles.marks()["candidate_filed"][1])
    marks = [
        line
        for line in fig.axes[0].lines
        if isinstance(line, Line2D)
        and line.get_marker() == "o"
        and to_rgba(line.get_markerfacecolor()) == filed_colour
    ]
    assert len(filings) == 15 and len(marks) == len(days) < 15
    captions = [t.get_text() for t in fig.axes[0].texts]
    assert "15 filed" in captions


def test_the_axis_folds_a_quiet_summer_and_names_every_month() -> None:
    _, result = worked("tie-for-second")  # filing in July, nothing until September
    folded = plot_timeline(result)
    whole = plot_timeline(result, compress=False)
    notes = [t.get_text() for t in folded.axes[0].texts]
    assert any(t.endswith(" d") for t in notes), "the fold is marked with its length in days"
    assert not any(t.endswith(" d") for t in (t.get_text() for t in whole.axes[0].texts))
    assert folded.x_of is not None and whole.x_of is not None
    autumn = [datetime(2027, 10, 5, 21, tzinfo=TZ), datetime(2027, 11, 2, 12, tzinfo=TZ)]
    span = abs(folded.x_of(autumn[1]) - folded.x_of(autumn[0]))
    assert span > 1.2 * abs(whole.x_of(autumn[1]) - whole.x_of(autumn[0]))
    axis = {t.get_text().split()[0] for t in folded.axes[0].texts if t.get_position()[1] > 0}
    assert {"Jul", "Oct", "Nov"} <= axis


def test_from_to_title_width_and_dpi_shape_the_chart(tmp_path: Path) -> None:
    scenario, result = worked("tie-for-second")
    fig = plot_timeline(
        result,
        scenario=scenario,
        start=datetime(2027, 9, 1, tzinfo=TZ),
        end=datetime(2027, 12, 31, tzinfo=TZ),
        title="Autumn only",
        width=900,
        dpi=90,
        out=tmp_path / "autumn.svg",
    )
    text = flat(svg_text(tmp_path / "autumn.svg"))
    assert "Autumn only" in text and "Tie for second" not in text
    assert "filing opens" not in text and "Eve withdrew" not in text and "canvass" in text
    assert fig.bbox.width == pytest.approx(900) and fig.dpi == 90
    assert not layout_problems(fig)
    with pytest.raises(SimulatorError, match="width of 400 to 20,000 pixels"):
        plot_timeline(result, width=100)


@pytest.mark.parametrize(
    ("width", "dpi", "shown"),
    [
        (1430, 5000, "0.286 inches"),  # took minutes to draw before it was refused
        (100_000, 110, "width 100000"),
        (440, 110, "4 inches"),  # lanes' labels overlap under 6 inches
        (1430, 0, "dpi 0"),
    ],
)
def test_a_chart_size_that_cannot_be_drawn_well_is_refused(
    width: int, dpi: int, shown: str
) -> None:
    _, result = worked("tie-for-second")
    with pytest.raises(SimulatorError, match="at least 6 inches across") as error:
        plot_timeline(result, width=width, dpi=dpi)
    assert shown in str(error.value)


def test_the_chart_at_its_narrowest_has_no_overlaps() -> None:
    scenario, result = worked("tie-for-second")
    fig = plot_timeline(result, scenario=scenario, width=660, dpi=110)
    assert fig.bbox.width == pytest.approx(660)
    assert not layout_problems(fig)


def _long_names(n: int, letters: int) -> str:
    names = [f"Candidate {i} " + "X" * letters for i in range(n)]
    filed = "\n".join(
        f"  - {{type: candidate_filed, at: 2027-07-{6 + i:02d}T14:00, candidate: {name}}}"
        for i, name in enumerate(names)
    )
    counts = ", ".join(f"{name}: {100 + i}" for i, name in enumerate(names))
    return f"""format: electsim/v1
title: Long names
contests:
  - {{id: council, municipality: Town of Longview, office: Council, method: nonpartisan-runoff,
     year: 2027}}
events:
  - {{type: candidate_filed, at: 2027-07-02T10:00, candidate: Early {"Y" * letters}}}
{filed}
  - {{type: returns_reported, at: 2027-10-05T21:00, counts: {{{counts}}}}}
  - {{type: canvass_held, at: 2027-10-12T11:00}}
  - {{type: runoff_requested, at: 2027-10-13T10:00, candidate: {names[-2]}}}
"""


@pytest.mark.parametrize(("n", "letters"), [(4, 60), (8, 200)])
@pytest.mark.parametrize("width", [660, 1200, 2400])
def test_long_names_are_shortened_and_wrapped_so_nothing_clashes(
    n: int, letters: int, width: int
) -> None:
    # a name of sixty or two hundred letters ran off the figure and over the lane's title and
    # outcome: a chart shows a long name by its beginning and end, and wraps what is still
    # wider than the axis
    # (the first notice comes before the period opens: its caption names it, rejected)
    scenario = parse_scenario(_long_names(n, letters), source="long.yaml")
    result = replay(scenario)
    fig = plot_timeline(result, scenario=scenario, width=width)
    assert not layout_problems(fig)
    drawn = drawn_text(fig)
    assert "X" * 40 not in drawn and "Y" * 40 not in drawn
    shown = f"Candidate {n - 1} XXXXXXXX\u2026XXXXXXXXXXX"  # (the most votes: always shown)
    assert shown in drawn and "filed late (rejected)" in drawn
    # the result itself keeps every name in full
    assert f"Candidate {n - 2} " + "X" * letters in result.contests[0].outcome.runoff_candidates


@pytest.mark.parametrize("glyph", ["i", "l", "W"])
@pytest.mark.parametrize("width", [660, 2400])
def test_a_long_contest_id_of_narrow_or_wide_letters_stays_inside_the_figure(
    glyph: str, width: int
) -> None:
    # the lane's subtitle (the contest's id, method and stage) is wrapped to the margin: a
    # line of sixty narrow letters drew 5 px wider than its outline measured, at 2,400 px,
    # and left the figure on the left
    text = _long_names(3, 10).replace("id: council", "id: " + glyph * 200)
    scenario = parse_scenario(text, source="long-id.yaml")
    fig = plot_timeline(replay(scenario), scenario=scenario, width=width)
    assert not layout_problems(fig)
    assert glyph * 200 in drawn_text(fig).replace("\n", "").replace(" ", "")


def test_a_chart_window_that_ends_before_it_starts_is_refused(tmp_path: Path) -> None:
    source = Path(__file__).resolve().parents[2] / "scenarios/runoff/cary-2023-district-d.yaml"
    chart = tmp_path / "c.png"
    for start, end in (("2023-12-01", "2023-01-01"), ("2023-10-10T12:00", "2023-10-10T12:00")):
        args = ["replay", str(source), "--chart", str(chart), "--from", start, "--to", end]
        assert main(args) == 2
    assert not chart.exists()


def test_a_chart_window_to_a_date_takes_in_the_whole_day(tmp_path: Path) -> None:
    # `--to 2023-10-10` once stopped at that day's midnight: the election day's returns (21:30
    # and 21:45) were left out, and `--from D --to D` was refused as an empty window
    source = Path(__file__).resolve().parents[2] / "scenarios/runoff/cary-2023-district-d.yaml"
    chart = tmp_path / "c.svg"
    args = ["replay", str(source), "--chart", str(chart), "--from", "2023-10-10"]
    assert main([*args, "--to", "2023-10-10"]) == 0
    text = flat(svg_text(chart))
    assert "returns (2 reports)" in text and "Oct 17" not in text  # the day, not the canvass
    assert main([*args, "--to", "2023-10-10T12:00"]) == 0  # a time is kept as written
    assert "returns (2 reports)" not in flat(svg_text(chart))


def test_descriptions_show_file_names_not_paths(tmp_path: Path) -> None:
    scenario, result = worked("tie-for-second")
    long = "Results from ../shared/data/nc-results/20171010 and /tmp/x/y.csv; " + "word " * 80
    fig = plot_timeline(result, scenario=attrs.evolve(scenario, description=long))
    desc = next(t.get_text() for t in fig.texts if "Results from" in t.get_text())
    assert "../shared" not in desc and "20171010" in desc and "y.csv" in desc
    assert "[...]" not in desc and desc.count("word") == 80  # wrapped, never cut


def test_days_from_election_put_each_election_day_at_zero() -> None:
    _, result = worked("tie-for-second")  # one lane votes in October, the other in November
    fig = plot_timeline(result, days_from_election=True)
    ax = fig.axes[0]
    assert "days from election day" in ax.get_xlabel()
    assert fig.x_of is not None
    zeros = [
        fig.x_of(next(d.due for d in c.deadlines if d.kind is DeadlineKind.ELECTION_DAY), lane)
        for lane, c in enumerate(result.contests)
    ]
    assert zeros[0] == pytest.approx(zeros[1])  # October's and November's election days
    assert "0" in [t.get_text() for t in ax.texts]
    labels = [t for t in ax.texts if t.get_text().startswith("election day")]
    assert len(labels) == 2  # G.S. 163-279(a)(4) and (a)(1): one label a lane
    assert not layout_problems(fig)


def test_an_empty_result_draws_an_empty_chart() -> None:
    fig = plot_timeline(Result("Nothing yet", ()))
    assert any(t.get_text() == "no contests" for t in fig.axes[0].texts)


def test_an_unknown_chart_format_is_an_error(tmp_path: Path) -> None:
    _, result = worked("tie-for-second")
    with pytest.raises(UnsupportedFormat, match=r"expected a file ending in \.png or \.svg"):
        plot_timeline(result, out=tmp_path / "chart.pdf")
    assert not list(tmp_path.iterdir())


def test_the_replay_command_takes_the_chart_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = SCENARIOS / "runoff" / "raleigh-2019-mayor-not-requested.yaml"
    chart, graph = tmp_path / "c.svg", tmp_path / "g.mmd"
    args = ["replay", str(source), "--chart", str(chart), "--graph", str(graph)]
    args += ["--from", "2019-10-01", "--to", "2019-10-31", "--title", "Raleigh, October"]
    assert main([*args, "--width", "900", "--dpi", "90", "--days-from-election"]) == 0
    text = flat(svg_text(chart))
    assert "Raleigh, October" in text and "days from election day" in text
    assert "filing opens" not in text  # July is left out
    root = ET.parse(chart).getroot()
    assert root.get("width") == "720pt"  # 900 pixels at 90 dpi: 10 inches
    assert "decided --> [*]" in graph.read_text() and "-->" in graph.read_text()
    assert main(["replay", str(source), "--graph", str(graph), "--full-graph"]) == 0
    assert graph.read_text().count("-->") > 50  # the whole machine
    capsys.readouterr()
    assert main(["replay", str(source), "--chart", str(chart), "--to", "soon"]) == 2
    assert "--to: expected an ISO 8601 date" in capsys.readouterr().err
    assert main(["replay", str(source), "--chart", str(chart), "--width", "50"]) == 2
    assert "width of 400 to 20,000 pixels" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("options", "refused"),
    [
        (["--from", "2019-10-01"], "--from: expected with --chart OUT"),
        (["--width", "900", "--no-compress"], "--width, --no-compress: expected with --chart OUT"),
        (["--graph", "g.dot", "--title", "October"], "--title: expected with --chart OUT"),
        (["--chart", "c.svg", "--full-graph"], "--full-graph: expected with --graph OUT"),
    ],
)
def test_a_chart_option_without_the_chart_is_refused_not_ignored(
    options: list[str],
    refused: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `replay FILE --from 2019-10-01` printed the whole timeline, exit 0, as if --from shaped it.
    monkeypatch.chdir(tmp_path)
    source = SCENARIOS / "runoff" / "raleigh-2019-mayor-not-requested.yaml"
    assert main(["replay", str(source), *options]) == 2
    assert capsys.readouterr().err.startswith(f"electsim: {refused}")
    assert list(tmp_path.iterdir()) == []


def test_the_result_keeps_the_periods_and_whom_each_event_concerns() -> None:
    # G.S. 163-293(c): the request window runs from the canvass to noon on the Thursday after;
    # 163-293(d)(2): tied runners-up may withdraw through the third day after it
    _, result = worked("tie-for-second")
    seat = result.contest("seat-b")
    periods = [(p.kind.value, p.start.isoformat(), p.end.isoformat()) for p in seat.periods]
    assert periods == [
        ("filing", "2027-07-02T12:00:00-04:00", "2027-07-16T12:00:00-04:00"),
        ("runoff_request", "2027-10-12T11:00:00-04:00", "2027-10-14T12:00:00-04:00"),
        ("tie_withdrawal", "2027-10-12T11:00:00-04:00", "2027-10-15T23:59:59-04:00"),
    ]
    assert seat.to_json()["periods"][2]["cite"] == "G.S. 163-293(d)(2)"
    filed = [t for t in seat.timeline if t.kind == "candidate_filed"]
    assert [(t.seq, t.candidates) for t in filed] == [
        (0, ("Ann <b>&</b>",)),
        (1, ("Bob",)),
        (2, ("Cy $mith$",)),
    ]
    runoff = next(t for t in seat.timeline if t.kind == "runoff_available")
    assert runoff.to_json()["candidates"] == ["Bob", "Cy $mith$"] and runoff.seq == 8


def test_a_long_description_is_wrapped_measuring_about_its_own_length(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each line's words were found by halving all the words left, so every line measured about
    # half the rest of the text: a description of 8,000 words took 44 s to draw.
    from simulator.views.charts import text_measure

    measured: list[int] = []

    def width(text: str, size: float = 8, bold: bool = False) -> float:
        measured.append(len(text))
        return len(text) * 0.05

    monkeypatch.setattr(text_measure, "text_width", width)
    text = " ".join(f"w{i % 97}" for i in range(20_000))
    lines = text_measure.wrap_text(text, 6.0, 8)
    assert " ".join(lines) == text
    assert all(len(line) * 0.05 <= 6.0 for line in lines)
    assert all(len(a) + 1 + len(b.split(" ")[0]) > 120 for a, b in itertools.pairwise(lines))
    assert sum(measured) < 10 * len(text)


def test_a_timeline_taller_than_viewers_open_is_refused_before_it_is_drawn(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the twenty contests' chart is drawn whole under the limit, refused with the lanes that
    # would fit when the limit is lowered below its height (600 contests took 16 s to draw
    # into a 50,818-pixel picture before the limit)
    from simulator.views.charts import timeline

    scenario = parse_scenario(twenty_contests())
    result = replay(scenario)
    fig = plot_timeline(result, scenario=scenario)
    tall = fig.bbox.height
    assert tall < timeline.MAX_HEIGHT_PX
    monkeypatch.setattr(timeline, "MAX_HEIGHT_PX", int(tall) - 200)
    with pytest.raises(SimulatorError, match="chart size: expected a timeline at most") as error:
        plot_timeline(result, scenario=scenario)
    shown = str(error.value)
    assert "found 20 contest lane(s)" in shown and f"{tall:,.0f} pixels at 110 dpi" in shown
    fits = int(re.search(r"about (\d+) lanes fit", shown).group(1))  # type: ignore[union-attr]
    assert 15 <= fits < 20
    # lower dpi draws the same lanes in fewer pixels
    assert plot_timeline(result, scenario=scenario, width=715, dpi=55).bbox.height < tall - 200
    path = tmp_path / "twenty.yaml"
    path.write_text(twenty_contests(), encoding="utf-8")
    out = tmp_path / "tall.png"
    assert main(["replay", str(path), "--chart", str(out)]) == 2
    assert not out.exists()
    assert "chart size: expected a timeline at most" in capsys.readouterr().err


def library(name: str) -> tuple[Scenario, Result]:
    return replayed(next(c for c in LIBRARY if c.id == f"scenarios/{name}"))


def marks_of(fig: Figure) -> dict[str, Line2D]:
    """The event marks drawn, by name (gid ``mark:<lane>:<index>:<x>``)."""
    return {
        str(a.get_gid()): a
        for a in fig.axes[0].lines
        if isinstance(a, Line2D) and str(a.get_gid()).startswith("mark:")
    }


def test_a_death_noticed_days_later_is_marked_on_its_day_with_both_dates() -> None:
    scenario, result = library("contingencies/112b-late-notice-death-within-30-notice-after.yaml")
    fig = plot_timeline(result, scenario=scenario)
    assert "Cy died Aug 14 (notified Aug 17)" in drawn_text(fig).splitlines()
    died = next(e for e in scenario.events if e.type == "candidate_died")
    assert fig.x_of is not None
    (mark,) = [m for m in marks_of(fig).values() if m.get_marker() == "X"]
    assert mark.get_xdata()[0] == pytest.approx(fig.x_of(died.at), abs=0.01)  # type: ignore[index]
    assert mark.get_xdata()[0] < fig.x_of(died.notice_at) - 0.1  # type: ignore[attr-defined,index]
    # without the scenario, only the notice is known: it is drawn there, as before
    bare = plot_timeline(result)
    assert "Cy died" in drawn_text(bare).splitlines()


def test_an_elections_nominees_are_carried_from_its_primary_not_filed() -> None:
    scenario, result = library("nonpartisan-primary/greensboro-2017-at-large-group.yaml")
    fig = plot_timeline(result, scenario=scenario)
    lines = drawn_text(fig).splitlines()
    assert "6 nominees carried from the primary" in lines
    assert "6 filed" not in lines and "15 filed" in lines  # the primary's filings stay filings
    assert "nominee carried from the primary" in lines  # in the legend
    faces = {to_rgba(p.get_facecolor()[:3], 0.85) for p in fig.axes[0].patches}
    assert to_rgba(BANDS["filing_primary"][1], 0.85) in faces
    assert to_rgba(BANDS["filing"][1], 0.85) in faces  # the primary's own lane


def test_a_withdrawal_and_a_runoff_request_of_one_afternoon_are_both_seen_and_captioned() -> None:
    scenario, result = library("runoff/tie-for-second-withdrawal-then-demand.yaml")
    fig = plot_timeline(result, scenario=scenario)
    lines = drawn_text(fig).splitlines()
    assert "Cy withdrew" in lines and "Bob requests runoff" in lines
    assert lines.count("canvass") == 0  # the canvass is labelled by its deadline only
    assert any(line.startswith("canvass") for line in lines)
    fig.draw_without_rendering()
    r = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    (down,) = [m for m in marks_of(fig).values() if m.get_marker() == "v"]
    (up,) = [m for m in marks_of(fig).values() if m.get_marker() == "^"]
    a, b = down.get_window_extent(r), up.get_window_extent(r)
    assert a.x1 <= b.x0 or b.x1 <= a.x0
    assert not layout_problems(fig)


def test_the_layout_check_finds_an_untied_caption_stacked_marks_and_a_caption_said_twice() -> None:
    scenario, result = library("runoff/tie-for-second-withdrawal-then-demand.yaml")
    fig = plot_timeline(result, scenario=scenario)
    assert tie_problems(fig) == []
    ax = fig.axes[0]
    leader = next(a for a in ax.lines if str(a.get_gid()).startswith("leader:mark:"))
    leader.remove()
    assert any("no leader" in p for p in tie_problems(fig))
    marks = list(marks_of(fig).values())
    marks[1].set_xdata(marks[0].get_xdata())
    assert any("on top of each other" in p for p in tie_problems(fig))
    tick = next(t for t in ax.texts if str(t.get_gid()).startswith("label:tick:0:"))
    x = str(tick.get_gid()).rsplit(":", 1)[1]
    first = tick.get_text().split("\n")[0]
    ax.text(0, 0, first, gid=f"label:mark:0:99:{x}")
    assert any("written twice" in p for p in tie_problems(fig))


def test_the_layout_check_finds_a_wide_blank_margin() -> None:
    scenario, result = library("runoff/tie-for-second-withdrawal-then-demand.yaml")
    fig = plot_timeline(result, scenario=scenario)
    assert layout_problems(fig) == []
    fig.set_size_inches(fig.get_figwidth() + 2, fig.get_figheight())
    assert any("blank strip" in p for p in layout_problems(fig))


DIES_QUIETLY = """
format: electsim/v1
title: Example council seat, 2027
contests: [{id: seat-a, municipality: City of Example, office: Council Seat A, seats: 1,
            method: nonpartisan-plurality, year: 2027}]
events:
  - {type: candidate_filed, at: "2027-07-06T10:00", candidate: Ann}
  - {type: candidate_filed, at: "2027-07-07T10:00", candidate: Bob}
  - {type: candidate_filed, at: "2027-07-08T10:00", candidate: Cy}
  - {type: ballots_printed, at: "2027-09-10T10:00"}
  - {type: candidate_died, at: "2027-09-15T15:00", notice_at: "2027-10-12T09:00",
     candidate: Bob}
"""


def test_no_fold_hides_the_day_a_death_was_noticed() -> None:
    # Bob dies on Sep 15, after the ballots were printed, and the board hears of it on Oct 12;
    # his name stays on the ballot and nothing else happens, but no fold may hide the notice
    scenario = parse_scenario(DIES_QUIETLY, source="dies.yaml")
    result = replay(scenario)
    (contest,) = result.contests
    died = scenario.events[4]
    assert isinstance(died, CandidateDied) and died.notice_at is not None
    lane = lane_of(contest, to_num, None, TZ, 2.0, 2.0, events=_events_of(scenario))
    (mark,) = [m for m in lane.marks if m.kind == "candidate_died"]
    assert mark.notice == to_num(died.notice_at)
    axis = axis_for(lane_xs(lane), 6.0, True)
    assert axis.folds, "the quiet stretches are folded"
    for x0, x1, _, _ in axis.folds:
        assert not x0 < mark.notice < x1 and not x0 < mark.x < x1
    fig = plot_timeline(result, scenario=scenario, compress=True)
    assert "Bob died Sep 15 (notified Oct 12)" in drawn_text(fig).splitlines()
    assert layout_problems(fig) == []


NO_MAJORITY = """
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
     counts: {Ann: ANN, Bob: 420, Cy: 100}}
  - {type: canvass_held, at: "2027-10-12T11:00"}
"""


@pytest.mark.parametrize(("ann", "reason"), [(480, True), (600, False)])
def test_a_star_under_a_majority_it_does_not_reach_says_why(ann: int, reason: bool) -> None:
    # G.S. 163-293(b)(1): with no majority, the leader is elected when nobody asks for a runoff
    scenario = parse_scenario(NO_MAJORITY.replace("ANN", str(ann)), source="s.yaml")
    result = replay(scenario)
    assert result.contests[0].outcome.elected == ("Ann",)
    fig = plot_timeline(result, scenario=scenario)
    lines = drawn_text(fig).splitlines()
    block = next(t.get_text() for t in fig.axes[0].texts if t.get_text().startswith("votes\n"))
    assert f"Ann {ann} " in block and block.split("\n")[1].endswith(" *")
    said = "* elected without a majority: no runoff was requested in time"
    assert (said in block.split("\n")) is reason
    assert not [line for line in lines if "without a majority" in line and not reason]
    assert layout_problems(fig) == []


def test_a_deadline_that_no_longer_applies_is_drawn_grey_and_dashed_and_named_in_the_key() -> None:
    # Raleigh 2019: nobody asked for a runoff, so the runoff's day no longer applies
    from matplotlib.colors import to_hex

    from simulator.views.charts.styles import VOID_COLOUR

    scenario = load_scenario(
        Path(__file__).resolve().parents[2]
        / "scenarios/runoff/raleigh-2019-mayor-not-requested.yaml"
    )
    fig = plot_timeline(replay(scenario), scenario=scenario)
    ticks = [
        c for ax in fig.axes for c in ax.collections if str(c.get_gid() or "").startswith("tick:")
    ]
    greys = [c for c in ticks if to_hex(c.get_colors()[0]) == VOID_COLOUR]
    assert len(greys) == 1 and len(ticks) > 1
    assert any(style[1] is not None for style in greys[0].get_linestyles())  # dashed
    texts = [t.get_text() for t in fig.findobj(Text)]
    assert "deadline that no longer applies" in texts
