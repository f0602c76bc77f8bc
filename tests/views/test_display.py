"""Everything electsim draws shows itself in Jupyter, and its tables keep their layout there.

IPython shows an object by asking it for ``_repr_png_`` / ``_repr_svg_`` / ``_repr_html_``; a
bare matplotlib Figure made without pyplot answers none of them unless ``%matplotlib inline`` has
registered a formatter, which a new user has no reason to know.
"""

from __future__ import annotations

import re

import pytest
from IPython.core.formatters import DisplayFormatter

from simulator import Votes, draw_graph, plot_timeline, replay_graph, sweep
from simulator.views.charts.figures import Chart
from simulator.whatif import Margin, show
from tests.chart_cases import layout_problems
from tests.views.test_graph import LIBRARY, replayed, worked

PNG = b"\x89PNG\r\n\x1a\n"


def shown(obj: object) -> dict[str, object]:
    """What IPython's display machinery puts in a cell's output for ``obj``."""
    data, _ = DisplayFormatter().format(obj)
    return dict(data)


def test_a_timeline_a_graph_and_a_sweep_chart_show_themselves_as_png() -> None:
    scenario, result = worked("tie-for-second")
    seat = result.contests[0]
    returns = next(e for e in scenario.events if e.type == "returns_reported")
    bob = sorted(dict(returns.counts))[0]  # type: ignore[attr-defined]
    chart = sweep(
        scenario, Votes(returns.index, bob), range(0, 3), contest=returns.contest, progress=False
    ).plot()
    for fig in (plot_timeline(result, scenario=scenario), draw_graph(replay_graph(seat)), chart):
        assert isinstance(fig, Chart)
        data = shown(fig)
        assert "image/png" in data, sorted(data)
        png = data["image/png"]
        assert isinstance(png, bytes) and png.startswith(PNG)


def test_a_chart_can_show_itself_as_svg_instead() -> None:
    _, result = worked("tie-for-second")
    fig = plot_timeline(result)
    fig.display_as = "svg"
    data = shown(fig)
    assert "image/png" not in data and "<svg" in str(data["image/svg+xml"])


@pytest.mark.parametrize("which", ["result", "contest"])
def test_every_table_cell_carries_its_own_left_alignment(which: str) -> None:
    # JupyterLab's `.jp-RenderedHTMLCommon td` and the classic Notebook's `.rendered_html td`
    # right-align cells with a rule as specific as a class selector; an inline style wins.
    _, result = worked("tie-for-second")
    html = str(shown(show(result if which == "result" else result.contests[0]))["text/html"])
    cells = re.findall(r"<t[dh]\b[^>]*>", html)
    assert len(cells) > 20
    assert all("text-align:left" in c for c in cells), [c for c in cells if "left" not in c]
    assert all("margin:0" in t for t in re.findall(r"<table\b[^>]*>", html))


def test_a_sweep_chart_writes_outcomes_in_full_with_no_clash() -> None:
    # Greensboro 2017's at-large primary: six nominated, a long outcome on each tick label
    case = next(c for c in LIBRARY if "greensboro-2017-at-large" in c.id)
    scenario, result = replayed(case)
    primary = result.contests[0]
    returns = next(e for e in scenario.events if e.type == "returns_reported")
    sixth, seventh = (name for name, _ in primary.tallies[0][5:7])
    chart = sweep(
        scenario,
        Margin(returns.index, seventh, over=sixth),
        range(-3, 4),
        contest=primary.id,
        progress=False,
    ).plot()
    ticks = [t.get_text() for t in chart.axes[0].get_yticklabels()]
    assert any(sixth in " ".join(t.split()) for t in ticks) and not any("…" in t for t in ticks)
    assert not layout_problems(chart)
