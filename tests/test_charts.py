"""Timeline charts render headless, carry their labels and citations as text, and stay legible
from one lane to twenty."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import combinations
from pathlib import Path

import attrs
import pytest
from matplotlib import dates as mdates
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, Rectangle
from matplotlib.path import Path as CurvePath
from matplotlib.text import Text

from simulator.charts import BANDS, UnsupportedFormat, plot_timeline
from simulator.result import ContestResult, Result
from simulator.vocab import DeadlineKind, RulingKind
from tests.test_graph import LIBRARY, Case, case_id, not_blank, replayed, worked

SVG = "{http://www.w3.org/2000/svg}"
CLOSE = CurvePath.CLOSEPOLY  # its vertex is a placeholder, not a point of the path


def svg_text(path: Path) -> str:
    """Every text element of an SVG, one a line, whitespace collapsed within each."""
    root = ET.parse(path).getroot()
    return "\n".join(" ".join("".join(t.itertext()).split()) for t in root.iter(f"{SVG}text"))


def flat(text: str) -> str:
    return " ".join(text.split())


def overlapping_texts(fig: Figure, *, whole: bool = False) -> list[tuple[str, str]]:
    """Pairs of visible texts whose boxes overlap (by more than a pixel): the chart's own texts,
    or with ``whole`` every text of the figure, legend and axis labels included (slower: the
    figure is drawn first, as legends place their texts when drawn)."""
    if whole:
        fig.canvas.draw()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    texts = fig.findobj(Text) if whole else [*fig.texts, *fig.axes[0].texts]
    boxes = []
    for t in texts:
        if t.get_visible() and t.get_text().strip():
            b = t.get_window_extent(renderer)
            boxes.append((t.get_text(), b.x0 + 1, b.y0 + 1, b.x1 - 1, b.y1 - 1))
    return [
        (a[0], b[0])
        for a, b in combinations(boxes, 2)
        if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]
    ]


def outcome_words(c: ContestResult) -> list[str]:
    o = c.outcome
    words = [f"elected: {o.elected[0]}"] if o.elected else []
    words += [f"nominated: {o.nominated[0]}"] if o.nominated else []
    words += [f"pending: {o.pending.value.replace('_', ' ')}"] if o.pending else []
    words += [f"vacant: {o.vacant_seats} seat"] if o.vacant_seats else []
    return words or [c.state.replace("_", " ")]


@pytest.mark.parametrize("case", LIBRARY, ids=case_id)
def test_the_svg_chart_labels_each_deadline_with_its_citation_and_each_lane_with_its_outcome(
    case: Case, tmp_path: Path
) -> None:
    scenario, result = replayed(case)
    out = tmp_path / "chart.svg"
    fig = plot_timeline(result, scenario=scenario, out=out)
    text = svg_text(out)
    assert "<text" in out.read_text() and "DejaVuSans-" not in out.read_text()  # text as text
    for c in result.contests:
        assert c.id in text
        for d in c.deadlines:
            for cite in d.cites:
                assert str(cite) in text, f"{c.id}: {d.kind.value} has no label {cite}"
        for word in outcome_words(c):
            assert word in flat(text), f"{c.id}: outcome {word!r} missing"
    assert not overlapping_texts(fig)


def test_a_png_chart_is_an_image(tmp_path: Path) -> None:
    scenario, result = worked("tie-for-second")
    fig = plot_timeline(result, scenario=scenario, out=tmp_path / "chart.png")
    assert not_blank(tmp_path / "chart.png")
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
    ax = plot_timeline(result).axes[0]
    arrows = [p for p in ax.patches if isinstance(p, FancyArrowPatch)]
    assert len(arrows) == len(moved)
    for d, arrow in zip(moved, arrows, strict=True):
        # the arrow's path, in data coordinates, runs from the day named to the day moved to
        path = arrow.get_path()
        xs = [v[0] for v, code in zip(path.vertices, path.codes, strict=True) if code != CLOSE]
        assert min(xs) == pytest.approx(mdates.date2num(d.moved_from), abs=0.5)
        assert max(xs) == pytest.approx(mdates.date2num(d.due), abs=0.5)


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
    (reopened,) = [r for r in result.contests[0].rulings if r.kind is RulingKind.FILING_REOPENED]
    assert _bands(fig, "filing_reopened") == [
        (
            pytest.approx(mdates.date2num(reopened.get("opens"))),
            pytest.approx(mdates.date2num(reopened.get("closes"))),
        )
    ]
    assert len(_bands(fig, "filing")) == 1

    _, result = worked("tie-for-second")
    fig = plot_timeline(result)
    seat = result.contest("seat-b")
    due = {d.kind: d.due for d in seat.deadlines}
    (runoff,) = _bands(fig, "runoff_request")
    assert runoff[1] == pytest.approx(mdates.date2num(due[DeadlineKind.RUNOFF_REQUEST]))
    (tie,) = _bands(fig, "tie_withdrawal")
    assert tie[1] == pytest.approx(mdates.date2num(due[DeadlineKind.TIE_WITHDRAWAL]))
    printed = [r for r in fig.axes[0].patches if isinstance(r, Rectangle) and r.get_hatch()]
    assert len(printed) == 1  # only seat-b's ballots were printed


def test_events_are_marked_and_captioned(tmp_path: Path) -> None:
    scenario, result = worked("tie-for-second")
    plot_timeline(result, scenario=scenario, out=tmp_path / "chart.svg")
    text = flat(svg_text(tmp_path / "chart.svg"))
    for caption in ("Eve withdrew", "ballots printed", "canvass"):
        assert caption in text
    # user text is drawn as text: markup and dollar signs stay as typed (no TeX)
    assert "Ann <b>&</b>" in text and 'Seat "B" <east>' in text
    assert "Two runners-up tie" in text  # the scenario's description


def test_days_from_election_put_each_election_day_at_zero() -> None:
    _, result = worked("tie-for-second")  # one lane votes in October, the other in November
    fig = plot_timeline(result, days_from_election=True)
    ax = fig.axes[0]
    assert "days from election day" in ax.get_xlabel()
    labels = [t for t in ax.texts if t.get_text().startswith("election day")]
    assert len(labels) == 2  # G.S. 163-279(a)(4) and (a)(1): one label a lane
    assert [t.get_position()[0] for t in labels] == [pytest.approx(0.5)] * 2  # noon of the day
    assert ax.get_xlim()[0] < -100 < 0 < ax.get_xlim()[1]


def test_twenty_lanes_grow_the_figure_and_no_two_labels_overlap(tmp_path: Path) -> None:
    scenario, result = worked("tie-for-second")
    one = plot_timeline(Result(result.scenario, result.contests[:1]))
    many = Result(
        result.scenario,
        tuple(attrs.evolve(c, id=f"{c.id}-{i}") for i in range(10) for c in result.contests),
    )
    fig = plot_timeline(many, scenario=scenario, out=tmp_path / "twenty.svg")
    assert len(many.contests) == 20
    assert fig.get_figheight() > 8 * one.get_figheight() / 2
    assert not overlapping_texts(fig, whole=True)
    text = svg_text(tmp_path / "twenty.svg")
    assert all(f"{c.id} |" in text for c in many.contests)


def test_an_empty_result_draws_an_empty_chart() -> None:
    fig = plot_timeline(Result("Nothing yet", ()))
    assert any(t.get_text() == "no contests" for t in fig.axes[0].texts)


def test_an_unknown_chart_format_is_an_error(tmp_path: Path) -> None:
    _, result = worked("tie-for-second")
    with pytest.raises(UnsupportedFormat, match=r"expected a file ending in \.png or \.svg"):
        plot_timeline(result, out=tmp_path / "chart.pdf")
    assert not list(tmp_path.iterdir())
