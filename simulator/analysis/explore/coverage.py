"""Clause coverage of ``electsim explore``: which subsections of the five primary statutes the
explored courses of events reached, per configuration, as a table and a chart.

A subsection is *reached* by a configuration when a ruling of at least one of its courses cites
it (or one of its parts), or, for the subsections that fix dates, when a deadline of a course
does. A subsection not reached is one of three things, said in words: the section does not
govern the configuration's method (163-293 is the majority method's, 163-291 and 163-112 the
party primary's, 163-294.1 and 163-294.4 the nonpartisan contests'); the subsection is not
modeled (:data:`simulator.analysis.references.UNMODELED`, with its reason); or it lies outside the
explorer's bounds (said which). Anything else is a defect of the explorer or the engine, shown
as such.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from simulator.analysis.references import UNMODELED, matches
from simulator.law.vocab import Method

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from simulator.analysis.explore.outcomes import Exploration

#: The subsections of the five primary statutes, as one-string citations (their labels only).
SUBSECTIONS: tuple[str, ...] = (
    "163-112(a)",
    "163-112(b)",
    "163-112(c)",
    "163-112(d)",
    "163-112(d)(1)",
    "163-112(d)(2)",
    "163-112(d)(3)",
    "163-112(d)(4)",
    "163-291(1)",
    "163-291(2)",
    "163-291(2)a",
    "163-291(2)b",
    "163-291(3)",
    "163-291(4)",
    "163-291(5)",
    "163-291(6)",
    "163-293(a)",
    "163-293(a)(1)",
    "163-293(a)(2)",
    "163-293(b)",
    "163-293(b)(1)",
    "163-293(b)(2)",
    "163-293(c)",
    "163-293(d)",
    "163-293(d)(1)",
    "163-293(d)(2)",
    "163-293(e)",
    "163-293(f)",
    "163-294.1(a)",
    "163-294.1(b)",
    "163-294.1(c)",
    "163-294.1(d)",
    "163-294.4(a)",
    "163-294.4(b)",
    "163-294.4(c)",
)

NONPARTISAN = frozenset({Method.PLURALITY, Method.PRIMARY, Method.RUNOFF})

#: The methods each section governs.
GOVERNS: dict[str, frozenset[Method]] = {
    "163-112": frozenset({Method.PARTISAN}),
    "163-291": frozenset({Method.PARTISAN}),
    "163-293": frozenset({Method.RUNOFF}),
    "163-294.1": NONPARTISAN,
    "163-294.4": NONPARTISAN,
}

#: What of the partisan method's sections speaks only of its primary, not of the general
#: election of the parties' nominees (whose departures G.S. 163-114 governs)
PRIMARY_ONLY: dict[str, str] = {
    "163-112": "G.S. 163-112 speaks of candidates for a party's nomination, not of the "
    "general election of its nominees",
    "163-291(5)": "the canvass of the primary and the second primary",
    "163-291(6)": "the demand for a second primary",
}

#: Subsections that only point to another section: reached when a course cites that section.
POINTS_TO: dict[str, str] = {"163-291(1)": "163-279"}

#: Subsections outside what one method's configuration explores, and why.
OUTSIDE_FOR: dict[tuple[Method, str], str] = {
    (Method.PRIMARY, "163-294.1(c)"): "a person elected: the nonpartisan primary nominates; the "
    "election that follows it is explored as the plurality method",
    (Method.PRIMARY, "163-294.1(d)"): "an officer who took the oath: the nonpartisan primary "
    "nominates; the election that follows it is explored as the plurality method",
}

#: Subsections that speak of an exact number filed (163-294.4(b): "only two" for one seat, "as
#: many as" the seats for a group): a configuration with more candidates cannot reach them.
EXACT_FIELD = frozenset({"163-294.4(b)"})


def _field_named(seats: int) -> int:
    return seats if seats > 1 else 2


#: Subsections only two departures reach, and why.
NEEDS_TWO: dict[str, str] = {
    "163-112(d)(4)": "deaths after day 30 leaving fewer candidates than seats: one departure "
    "leaves as many as the seats at least (a smaller field has no primary); two reach it",
}

#: Subsections that speak only of elections of more than one seat (group elections).
GROUP_ONLY = frozenset({"163-293(a)(2)", "163-293(b)(2)"})

#: Subsections the explorer's courses never vary, and the bound that leaves them out.
OUTSIDE: dict[str, str] = {
    "163-291(2)a": "filing in the year after a census: the explorer's contests are held in 2027",
    "163-291(2)b": "filing in the second year after a census: the explorer's year is 2027",
    "163-291(3)": "filing fees: every explored notice of candidacy is filed with its fee",
}


class Status(StrEnum):
    """What a subsection is for one configuration."""

    REACHED = "reached"
    LANDMARK = "a deadline only"
    NOT_GOVERNED = "not this method's"
    UNMODELED = "not modeled"
    OUTSIDE = "outside the bounds"
    UNREACHABLE = "cannot be reached"
    NOT_REACHED = "not reached"


@attrs.frozen
class Cell:
    status: Status
    courses: int  # courses whose rulings (or, for LANDMARK, deadlines) cite the subsection
    why: str = ""


def _count(sub: str, found: Sequence[tuple[str, int]]) -> int:
    """The most courses any citation of ``sub`` or of one of its parts was counted in."""
    return max((k for c, k in found if matches(sub, c)), default=0)


def coverage(ex: Exploration) -> dict[str, Cell]:
    """Each subsection's status for one explored configuration."""
    out: dict[str, Cell] = {}
    method = ex.config.method
    for sub in SUBSECTIONS:
        section = sub.split("(")[0]
        by_rulings = _count(sub, ex.cites)
        by_deadlines = _count(POINTS_TO.get(sub, sub), ex.landmarks)
        if by_rulings:
            out[sub] = Cell(Status.REACHED, by_rulings)
        elif by_deadlines and method in GOVERNS[section]:
            out[sub] = Cell(Status.LANDMARK, by_deadlines, "a date or deadline of the courses")
        elif sub in UNMODELED:
            out[sub] = Cell(Status.UNMODELED, 0, UNMODELED[sub])
        elif method not in GOVERNS[section]:
            out[sub] = Cell(Status.NOT_GOVERNED, 0, f"G.S. {section} does not govern {method}")
        elif ex.config.general and (section in PRIMARY_ONLY or sub in PRIMARY_ONLY):
            out[sub] = Cell(Status.NOT_GOVERNED, 0, PRIMARY_ONLY.get(sub) or PRIMARY_ONLY[section])
        elif sub in GROUP_ONLY and ex.config.seats == 1:
            out[sub] = Cell(Status.NOT_GOVERNED, 0, "it speaks of elections of several seats")
        elif sub in OUTSIDE:
            out[sub] = Cell(Status.OUTSIDE, 0, OUTSIDE[sub])
        elif sub in NEEDS_TWO and ex.config.departures < 2:
            out[sub] = Cell(Status.OUTSIDE, 0, NEEDS_TWO[sub])
        elif (method, sub) in OUTSIDE_FOR:
            out[sub] = Cell(Status.OUTSIDE, 0, OUTSIDE_FOR[method, sub])
        elif sub in EXACT_FIELD and ex.config.candidates > _field_named(ex.config.seats):
            named = _field_named(ex.config.seats)
            out[sub] = Cell(
                Status.UNREACHABLE,
                0,
                f"it speaks of exactly {named} candidates filed; this configuration has "
                f"{ex.config.candidates}, so no course can reach it",
            )
        else:
            out[sub] = Cell(Status.NOT_REACHED, 0, "no course of this configuration reaches it")
    return out


def never_reached(results: Sequence[Exploration]) -> dict[str, list[str]]:
    """Per method explored, the subsections that govern it that no configuration reached (by a
    ruling or a deadline), left neither unmodeled nor outside the bounds: defects to fix."""
    out: dict[str, list[str]] = {}
    by_method: dict[str, list[dict[str, Cell]]] = {}
    for ex in results:
        by_method.setdefault(ex.config.kind, []).append(coverage(ex))
    for method, cells in by_method.items():
        missing = [
            sub
            for sub in SUBSECTIONS
            if all(
                c[sub].status in (Status.NOT_REACHED, Status.NOT_GOVERNED, Status.UNREACHABLE)
                for c in cells
            )
            and any(c[sub].status is Status.NOT_REACHED for c in cells)
        ]
        if missing:
            out[method] = missing
    return out


def coverage_markdown(results: Sequence[Exploration]) -> str:
    """The coverage per method as a Markdown table: how many explored courses have a ruling
    citing each subsection (summed over the method's configurations), or why none does; then
    the reasons."""
    methods = list(dict.fromkeys(ex.config.kind for ex in results))
    cells: dict[str, list[dict[str, Cell]]] = {m: [] for m in methods}
    for ex in results:
        cells[ex.config.kind].append(coverage(ex))
    word = {
        Status.LANDMARK: "deadline",
        Status.NOT_GOVERNED: "n/a",
        Status.UNMODELED: "not modeled",
        Status.OUTSIDE: "outside",
        Status.UNREACHABLE: "cannot be",
        Status.NOT_REACHED: "**never**",
    }
    lines = [
        "| subsection | " + " | ".join(methods) + " |",
        "| --- | " + " | ".join("---:" for _ in methods) + " |",
    ]
    reasons: dict[str, str] = {}
    for sub in SUBSECTIONS:
        row = []
        for m in methods:
            found = cells[m]
            reached = sum(c[sub].courses for c in found if c[sub].status is Status.REACHED)
            if reached:
                row.append(f"{reached:,}")
                continue
            statuses = [c[sub] for c in found]
            best = min(statuses, key=lambda c: list(Status).index(c.status))
            row.append(word[best.status])
            if best.status in (Status.UNMODELED, Status.OUTSIDE, Status.UNREACHABLE):
                reasons.setdefault(sub, best.why)
        lines.append(f"| {sub} | " + " | ".join(row) + " |")
    lines.append("")
    lines += [f"- {sub}: {why}." for sub, why in sorted(reasons.items())]
    return "\n".join(lines)


def coverage_json(ex: Exploration) -> dict[str, Any]:
    return {
        sub: {"status": cell.status.value, "courses": cell.courses, "why": cell.why}
        for sub, cell in coverage(ex).items()
    }


def _short(ex: Exploration) -> str:
    c = ex.config
    if c.general:
        return f"partisan gen s{c.seats} n{c.candidates}"
    name = {
        Method.PARTISAN: "partisan",
        Method.PLURALITY: "plurality",
        Method.PRIMARY: "np primary",
        Method.RUNOFF: "runoff",
    }[c.method]
    return f"{name} s{c.seats} n{c.candidates}"


_MARK = {
    Status.REACHED: "#",
    Status.LANDMARK: "d",
    Status.NOT_GOVERNED: ".",
    Status.UNMODELED: "u",
    Status.OUTSIDE: "o",
    Status.UNREACHABLE: "-",
    Status.NOT_REACHED: "X",
}


def coverage_table(results: Sequence[Exploration]) -> str:
    """A text table: one row per subsection, one column per configuration (a mark per cell),
    then the reasons for every subsection not reached."""
    labels = [_short(ex) for ex in results]
    cells = [coverage(ex) for ex in results]
    lines = [
        "clause coverage: # a ruling cites it, d only a deadline, . not this method's, "
        "u not modeled, o outside the bounds, - no course can reach it, X not reached here",
    ]
    width = max(len(s) for s in SUBSECTIONS)
    for i in range(max(len(x) for x in labels)):
        head = "".join((x[i] if i < len(x) else " ") for x in labels)
        lines.append(" " * (width + 2) + head)
    for sub in SUBSECTIONS:
        lines.append(f"{sub:<{width}}  " + "".join(_MARK[c[sub].status] for c in cells))
    reasons: dict[str, str] = {}
    for c in cells:
        for sub, cell in c.items():
            if cell.status in (
                Status.UNMODELED,
                Status.OUTSIDE,
                Status.UNREACHABLE,
                Status.NOT_REACHED,
            ):
                reasons.setdefault(sub, f"{cell.status.value}: {cell.why}")
    if reasons:
        lines.append("why a subsection is not reached:")
        lines += [f"  {sub}: {why}" for sub, why in sorted(reasons.items())]
    missing = never_reached(results)
    for method, subs in missing.items():
        lines.append(f"NEVER REACHED by any {method} configuration: " + ", ".join(subs))
    if not missing:
        lines.append("every subsection governing an explored method is reached or explained")
    return "\n".join(lines)


_COLOUR = {
    Status.REACHED: "#1b7837",
    Status.LANDMARK: "#a6dba0",
    Status.NOT_GOVERNED: "#f0f0f0",
    Status.UNMODELED: "#c2a5cf",
    Status.OUTSIDE: "#fee090",
    Status.UNREACHABLE: "#d9d9d9",
    Status.NOT_REACHED: "#d73027",
}
#: A cell no course can reach is hatched grey: nothing to fix, unlike a red one.
_HATCH = {Status.UNREACHABLE: "xxxx"}
#: What each colour means, in the chart's legend.
_MEANS = {
    Status.REACHED: "reached: a ruling of a course cites it",
    Status.LANDMARK: "a deadline only: a date the courses keep",
    Status.NOT_GOVERNED: "not this method's: the section does not govern it",
    Status.UNMODELED: "not modeled (the text says why)",
    Status.OUTSIDE: "outside the explorer's bounds",
    Status.UNREACHABLE: "cannot be reached: no course of this configuration can",
    Status.NOT_REACHED: "not reached in this configuration (no rule keeps it out)",
}


def coverage_figure(results: Sequence[Exploration]) -> Figure:
    """The coverage as a chart: subsections down, configurations across, one coloured cell
    each (its status), with a legend; the figure grows with the number of configurations."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch, Rectangle

    from simulator.views.charts.text_measure import text_width, wrap_text

    labels = [_short(ex) for ex in results]
    cells = [coverage(ex) for ex in results]
    cols, rows = len(results), len(SUBSECTIONS)
    cell = 0.22  # inches
    left, pad = 1.0, 0.12
    bottom = 0.2 + 0.055 * max((len(x) for x in labels), default=0)
    # as wide as the cells, or the legend in one column, whichever is wider; the title is
    # wrapped to that width
    key_w = max(text_width(m, 7.0) for m in _MEANS.values()) + 0.5
    width = max(left + cols * cell + pad, key_w + 2 * pad)
    ncol = max(1, min(3, int((width - 2 * pad) // key_w)))
    legend_h = 0.19 * -(-len(Status) // ncol) + 0.1
    heading = "Clause coverage of the explored courses of events"
    title = wrap_text(heading, width - 2 * pad, 10.0, bold=True)
    top = 0.2 + 0.2 * len(title)
    height = top + rows * cell + bottom + legend_h
    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_axes(
        (left / width, (bottom + legend_h) / height, cols * cell / width, rows * cell / height)
    )
    for j, c in enumerate(cells):
        for i, sub in enumerate(SUBSECTIONS):
            ax.add_patch(
                Rectangle(
                    (j, rows - 1 - i),
                    1,
                    1,
                    facecolor=_COLOUR[c[sub].status],
                    edgecolor="white",
                    linewidth=0.8,
                    hatch=_HATCH.get(c[sub].status),
                )
            )
    ax.set_xlim(0, max(cols, 1))
    ax.set_ylim(0, rows)
    ax.set_yticks([rows - 0.5 - i for i in range(rows)], list(SUBSECTIONS), fontsize=7)
    ax.set_xticks([j + 0.5 for j in range(cols)], labels, rotation=90, fontsize=7)
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)
    fig.text(pad / width, 1 - 0.1 / height, "\n".join(title), fontsize=10, weight="bold", va="top")
    fig.legend(
        handles=[
            Patch(facecolor=_COLOUR[s], edgecolor="#999999", hatch=_HATCH.get(s), label=_MEANS[s])
            for s in Status
        ],
        loc="lower left",
        bbox_to_anchor=(pad / width, 0.05 / height),
        borderaxespad=0,
        ncol=ncol,
        fontsize=7,
        frameon=False,
    )
    return fig


def write_coverage_chart(results: Sequence[Exploration], path: Path) -> None:
    coverage_figure(results).savefig(path)
