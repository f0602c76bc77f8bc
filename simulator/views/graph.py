"""The contest state machine as a graph, built from :data:`simulator.law.machine.TRANSITIONS`.

The replay engine refuses any phase change that is not in that table, and this module draws
exactly that table, so the picture cannot drift from the behaviour. Nodes are the values of
:class:`~simulator.law.machine.Phase`; each row of the table is one edge carrying its ``trigger``
(an
event type, or a timer such as ``runoff_request_passes``), its ``cite`` and its ``label``.

The graph is a :class:`networkx.MultiDiGraph` keyed by trigger, not a ``DiGraph`` with lists on
its edges: the table has several rows between the same two phases (``filing`` to
``awaiting_votes`` on ``filing_closes`` and on ``filing_closed``), each with its own citation,
and (source, trigger, target) is unique in it. So every row stays one edge with scalar
attributes, ``G.edges[source, target, trigger]`` finds it, and GraphML and node-link JSON
(which need flat values) carry it as it is.

>>> g = state_graph()
>>> g.edges["counting", "runoff_request", "canvass_held"]["cite"]
'G.S. 163-293(b)'
>>> sorted(g.nodes) == sorted(p.value for p in Phase)
True
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulator.engine.result import ContestResult, Result
from simulator.input.output import file_names, refuse_link
from simulator.law.labels import label, trigger_words
from simulator.law.machine import TRANSITIONS, Phase
from simulator.model.errors import SimulatorError, UnsupportedFormat
from simulator.model.events import EVENT_TYPES
from simulator.views.charts.text_measure import text_width

if TYPE_CHECKING:
    import networkx as nx
    from matplotlib.path import Path as CurvePath

    from simulator.views.charts.figures import Chart

__all__ = [
    "coverage",
    "draw_graph",
    "export_graph",
    "graph_data",
    "replay_graph",
    "state_graph",
    "to_dot",
    "to_mermaid",
]

Edge = tuple[str, str, str]  # (source phase, trigger, target phase)

START = Phase.FILING

# Where each phase sits in a drawing: the flow runs left to right, filing to decided. A phase
# added to the machine later without a place here is drawn in a row along the bottom.
POSITIONS: dict[str, tuple[float, float]] = {
    Phase.FILING.value: (0.0, 0.0),
    Phase.FILING_EXTENDED.value: (1.0, 1.8),
    Phase.FILING_REOPENED.value: (3.0, 1.8),
    Phase.BALLOT.value: (2.0, 0.0),
    Phase.AWAITING_NOMINATION.value: (2.0, -2.0),
    Phase.COUNTING.value: (4.0, 0.0),
    Phase.AWAITING_RECOUNT.value: (5.3, 1.8),
    Phase.TIE_WITHDRAWAL.value: (6.9, 1.3),
    Phase.RUNOFF_REQUEST.value: (6.0, -0.8),
    Phase.AWAITING_LOT.value: (5.0, -2.0),
    Phase.RUNOFF_CALLED.value: (7.9, 0.2),
    Phase.RUNOFF_COUNTING.value: (9.4, 1.0),
    Phase.DECIDED.value: (9.1, -1.6),
}

TAKEN = "#c62828"
UNTAKEN = "#b0b0b0"
VISITED_FILL = "#c6dbef"
FINAL_EDGE = "#08306b"


# ------------------------------------------------------------------------------------------
# Graphs
# ------------------------------------------------------------------------------------------


def state_graph() -> nx.MultiDiGraph:
    """Every phase and every allowed transition, with its trigger, citation and label.

    Edge attributes: ``trigger``, ``cite`` (the citation as text), ``url`` (the statute on
    ncleg.gov), ``label`` and ``timer`` (True when the trigger is a deadline passing or a derived
    moment rather than an event of the log). Node attributes: ``label`` and ``start``.
    """
    import networkx as nx

    g = nx.MultiDiGraph(name="electsim contest state machine", start=START.value)
    for phase in Phase:
        g.add_node(phase.value, label=phase.value.replace("_", " "), start=phase is START)
    for t in TRANSITIONS:
        g.add_edge(
            t.source.value,
            t.target.value,
            key=t.trigger.value,
            trigger=t.trigger.value,
            cite=str(t.cite),
            url=t.cite.url,
            label=t.label,
            timer=t.trigger not in EVENT_TYPES,
        )
    return g


def replay_graph(contest: ContestResult) -> nx.MultiDiGraph:
    """The state graph with the path one contest's replay took laid over it.

    Each edge gets ``taken`` (how many times the replay took it) and ``steps`` (the positions
    in the path, as text: ``"2,5"``); each node gets ``visited`` and ``final`` (the phase the
    contest ended in). A step that is not a row of the table (which the engine should never
    take) is added as an edge with ``in_table`` False, so a drawing shows it rather than hides it.
    """
    g = state_graph()
    g.graph.update(contest=contest.id, title=contest.title, state=contest.state)
    for _, _, data in g.edges(data=True):
        data.update(taken=0, steps="", in_table=True)
    for _, data in g.nodes(data=True):
        data.update(visited=False, final=False)
    visited = {START.value, contest.state}
    for step, (source, trigger, target) in enumerate(contest.path, 1):
        if not g.has_edge(source, target, key=trigger):
            for phase in (source, target):
                if phase not in g:
                    g.add_node(phase, label=phase.replace("_", " "), start=False, final=False)
            g.add_edge(
                source,
                target,
                key=trigger,
                trigger=trigger,
                cite="",
                url="",
                label="not in machine.TRANSITIONS",
                timer=False,
                taken=0,
                steps="",
                in_table=False,
            )
        data = g.edges[source, target, trigger]
        data["taken"] += 1
        data["steps"] = f"{data['steps']},{step}" if data["steps"] else str(step)
        visited.update((source, target))
    for phase in visited:
        if phase in g:
            g.nodes[phase]["visited"] = True
    if contest.state in g:
        g.nodes[contest.state]["final"] = True
    return g


def coverage(paths: Iterable[Sequence[Edge]]) -> tuple[list[Edge], list[Edge]]:
    """Which rows of the transition table some path takes, and which none does.

    Returns ``(taken, untaken)``, each a sorted list of (source, trigger, target); together
    they are exactly the table (a step outside the table is in neither: see
    :func:`replay_graph`).
    """
    table = {(t.source.value, t.trigger.value, t.target.value) for t in TRANSITIONS}
    seen = {tuple(step) for path in paths for step in path}
    taken = sorted(e for e in table if e in seen)
    return taken, sorted(table - set(taken))


# ------------------------------------------------------------------------------------------
# DOT, written by hand (no pydot or pygraphviz needed)
# ------------------------------------------------------------------------------------------


def _q(value: object) -> str:
    """A DOT quoted string."""
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{text}"'


def _attrs(values: dict[str, object]) -> str:
    return ", ".join(f"{k}={_q(v)}" for k, v in values.items())


def to_dot(g: nx.MultiDiGraph) -> str:
    """The graph in Graphviz DOT, the path taken (if any) drawn thick and red.

    Every edge keeps its ``trigger``, ``cite`` and ``taken`` as DOT attributes, and links its
    statute (``URL``) for SVG output of ``dot``.
    """
    title = g.graph.get("title") or g.graph.get("name", "")
    lines = [
        "digraph electsim {",
        f"  graph [{_attrs({'rankdir': 'LR', 'label': title, 'labelloc': 't'})}];",
        '  node [shape="box", style="rounded,filled", fillcolor="white", fontname="Helvetica"];',
        '  edge [fontname="Helvetica", fontsize="9"];',
    ]
    for node, data in g.nodes(data=True):
        a: dict[str, object] = {"label": _words(node)}
        if data.get("visited"):
            a["fillcolor"] = VISITED_FILL
        if data.get("final"):
            a["penwidth"] = 2.5
            a["color"] = FINAL_EDGE
        if data.get("start"):
            a["peripheries"] = 2
        lines.append(f"  {_q(node)} [{_attrs(a)}];")
    for source, target, key, data in g.edges(keys=True, data=True):
        taken = int(data.get("taken", 0))
        label = f"{trigger_words(data['trigger'])}\n{data['cite']}"
        if taken:
            label = f"[{data['steps']}] {label}"
        a = {
            "key": key,
            "label": label,
            "trigger": data["trigger"],
            "cite": data["cite"],
            "tooltip": data["label"],
            "URL": data["url"],
            "taken": taken,
            "color": TAKEN
            if taken
            else ("#e08214" if not data.get("in_table", True) else "gray55"),
            "penwidth": 2.5 if taken else 1,
        }
        if data["timer"]:
            a["style"] = "dashed"
        lines.append(f"  {_q(source)} -> {_q(target)} [{_attrs(a)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------------
# Mermaid
# ------------------------------------------------------------------------------------------


def to_mermaid(g: nx.MultiDiGraph, *, full: bool = False) -> str:
    """The graph as a Mermaid ``stateDiagram-v2`` (GitHub and many editors draw it): each
    transition labelled with its trigger and citation, a step of the path taken numbered
    (``[2] canvass_held, G.S. 163-293(b)``); phases visited and the final one styled. A
    replay's graph gives the path taken; with ``full`` (or for the bare :func:`state_graph`)
    every transition of the machine.

    >>> print(to_mermaid(state_graph()).splitlines()[:3])
    ['stateDiagram-v2', '    direction LR', '    [*] --> filing']
    """
    lines = ["stateDiagram-v2", "    direction LR", f"    [*] --> {g.graph.get('start', START)}"]
    title = g.graph.get("title")
    if title:
        lines.insert(0, f"---\ntitle: {json.dumps(str(title))}\n---")
    path_only = not full and any(d.get("taken") for _, _, d in g.edges(data=True))
    drawn = [
        (source, target, data)
        for source, target, data in g.edges(data=True)
        if not path_only or data.get("taken")
    ]
    # each phase drawn is named in words (its identifier stays its name in the diagram)
    named = dict.fromkeys(p for source, target, _ in drawn for p in (source, target))
    named.setdefault(str(g.graph.get("start", START)))
    lines.extend(f'    state "{_words(p)}" as {p}' for p in named)
    for source, target, data in drawn:
        words = trigger_words(data["trigger"])
        label = f"{words}, {data['cite']}" if data.get("cite") else words
        if data.get("taken"):
            label = f"[{data['steps']}] {label}"
        label = label.replace(":", " ").replace(";", ",")
        lines.append(f"    {source} --> {target} : {label}")
    final = [n for n, d in g.nodes(data=True) if d.get("final")]
    lines.extend(f"    {n} --> [*]" for n in final)
    visited = [n for n, d in g.nodes(data=True) if d.get("visited") and not d.get("final")]
    lines.append(f"    classDef visited fill:{VISITED_FILL},stroke:#4a6fa5")
    lines.append(f"    classDef final fill:{VISITED_FILL},stroke:{FINAL_EDGE},stroke-width:3px")
    if visited:
        lines.append(f"    class {','.join(visited)} visited")
    if final:
        lines.append(f"    class {','.join(final)} final")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------------
# Drawing with matplotlib
# ------------------------------------------------------------------------------------------


Point = tuple[float, float]
BOX_H = 0.32


def _words(phase: str) -> str:
    """A phase as people read it, in a drawing and in the labels of the DOT and Mermaid exports
    ("awaiting a new election"); the exports keep the identifier as the phase's name."""
    try:
        return label(Phase(phase))
    except ValueError:
        return phase.replace("_", " ")


def _positions(g: nx.MultiDiGraph) -> dict[str, Point]:
    pos = {n: POSITIONS[n] for n in g if n in POSITIONS}
    extra = [n for n in g if n not in POSITIONS]
    for i, n in enumerate(sorted(extra)):
        pos[n] = (i * 1.6, -2.8)
    return pos


def _bezier(p0: Point, c: Point, p1: Point, t: float) -> Point:
    u = 1 - t
    return (
        u * u * p0[0] + 2 * u * t * c[0] + t * t * p1[0],
        u * u * p0[1] + 2 * u * t * c[1] + t * t * p1[1],
    )


def _inside(p: Point, centre: Point, half: Point) -> bool:
    return abs(p[0] - centre[0]) <= half[0] and abs(p[1] - centre[1]) <= half[1]


def _edge_curve(
    p0: Point, p1: Point, half0: Point, half1: Point, rad: float, aspect: float
) -> tuple[Point, Point, Point, Point]:
    """A quadratic curve from box to box, bowed by ``rad`` (like matplotlib's ``arc3``).

    Returns the clipped curve's start, control point and end, and the middle of the whole
    curve (where a label goes). ``aspect`` is inches per y unit over inches per x unit, so the
    bow looks the same whichever way the edge runs. Clipping is computed here, by bisection on
    the curve, rather than by matplotlib's patch clipping, which is many times slower.
    """
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    c = ((p0[0] + p1[0]) / 2 + rad * dy * aspect, (p0[1] + p1[1]) / 2 - rad * dx / aspect)

    def crossing(centre: Point, half: Point, inside_first: bool) -> float:
        lo, hi = 0.0, 1.0
        for _ in range(24):
            mid = (lo + hi) / 2
            if _inside(_bezier(p0, c, p1, mid), centre, half) == inside_first:
                lo = mid
            else:
                hi = mid
        return hi if inside_first else lo

    t0, t1 = crossing(p0, half0, True), crossing(p1, half1, False)
    if t0 >= t1:  # overlapping boxes: draw the whole curve
        t0, t1 = 0.0, 1.0
    q = (
        p0[0] * (1 - t0) * (1 - t1) + c[0] * ((1 - t0) * t1 + t0 * (1 - t1)) + p1[0] * t0 * t1,
        p0[1] * (1 - t0) * (1 - t1) + c[1] * ((1 - t0) * t1 + t0 * (1 - t1)) + p1[1] * t0 * t1,
    )
    return _bezier(p0, c, p1, t0), q, _bezier(p0, c, p1, t1), _bezier(p0, c, p1, 0.5)


def draw_graph(g: nx.MultiDiGraph, *, full: bool = False) -> Chart:
    """Draw a replay's state graph: by default the path the contest took, top to bottom, each
    phase it went through as a box and each step as an arrow labelled with its number, its
    trigger and its citation. With ``full`` (or for the bare :func:`state_graph`, which has no
    path) the whole machine, the path laid over it as numbered red arrows; the other edges are
    thin and grey, one arrow per pair of phases, unlabelled (their triggers and citations are in
    the DOT, Mermaid, GraphML and JSON exports); timers are dashed.
    """
    from matplotlib import rc_context

    with rc_context({"text.parse_math": False}):  # titles are plain text, never TeX
        taken = any(d.get("taken") for _, _, d in g.edges(data=True))
        return _graph_figure(g) if full or not taken else _path_figure(g)


PATH_PT = 9.0  # phase names
STEP_PT = 8.0  # step labels
ROW = 0.95  # inches between phases


def _text_w(text: str, size: float, bold: bool = False) -> float:
    return text_width(text, size, bold)


def _path_figure(g: nx.MultiDiGraph) -> Chart:
    """The path taken, as a column of phases joined by labelled arrows (see :func:`draw_graph`).

    Laid out in inches: phase ``i`` (in order of first visit) is a box centred on x = 0 at
    y = -i * ROW. A step to the next phase is a straight arrow down the column; any other step
    (back, skipping, or staying) is an arc on the right, further out the longer it spans. Each
    step's label sits right of its arrow, nudged down when it would touch the one above."""
    from simulator.views.charts.figures import Chart

    row, edges = _path_steps(g)
    half_w = max(_text_w(_words(p), PATH_PT, True) for p in row) / 2 + 0.12
    half_h = 0.17
    arcs = sorted(
        ((u, v, t) for u, v, t in edges if row[v] != row[u] + 1),
        key=lambda e: abs(row[e[1]] - row[e[0]]),
    )
    out_of = {e: 0.35 + 0.28 * k for k, e in enumerate(arcs)}
    label_x = half_w + 0.3 + (max(out_of.values()) if out_of else 0.0)
    placed = _step_labels(g, row, edges)
    label_w = max((_text_w(ln, STEP_PT) for _, t, _ in placed for ln in t.split("\n")), default=1)
    title = g.graph.get("title") or ""
    heading = f"{title} [{g.graph.get('contest')}]: the path through the state machine"
    top = 0.75
    bottom = min([-(len(row) - 1) * ROW - half_h, *(y - 0.3 for y, _, _ in placed)]) - 0.3
    left = half_w + 0.3
    right = label_x + label_w + 0.3
    note = (
        "each step numbered in order, with what moved it and the statute that allows it; "
        "bold border: the phase it ended in"
    )
    width = max(left + right, _text_w(heading, 11, True) + 0.4, _text_w(note, 8) + 0.4)
    right = width - left
    height = top - bottom + 0.35
    fig = Chart(figsize=(width, height), dpi=100)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(-left, right)
    ax.set_ylim(bottom, top + 0.35)
    ax.set_axis_off()
    fig.text(0.2 / width, 1 - 0.25 / height, heading, fontsize=11, weight="bold", va="center")
    fig.text(
        0.2 / width,
        1 - 0.52 / height,
        note,
        fontsize=8,
        color="#555555",
        va="center",
    )
    _draw_path_phases(ax, g, row, half_w, half_h)
    for y, text, key in placed:
        _draw_path_step(ax, g, key, row, (half_w, half_h), out_of, (label_x, y), text)
    return fig


def _path_steps(
    g: nx.MultiDiGraph,
) -> tuple[dict[str, int], dict[tuple[str, str, str], list[int]]]:
    """The phases of the path in order of first visit, each with its row; and each edge taken
    (from, to, trigger) with the numbers of the steps that took it."""
    steps = sorted(
        (int(n), u, v, d)
        for u, v, d in g.edges(data=True)
        if d.get("taken")
        for n in str(d["steps"]).split(",")
    )
    order: list[str] = []
    for _, u, v, _ in steps:
        for phase in (u, v):
            if phase not in order:
                order.append(phase)
    row = {p: i for i, p in enumerate(order)}
    edges: dict[tuple[str, str, str], list[int]] = {}
    for n, u, v, d in steps:
        edges.setdefault((u, v, d["trigger"]), []).append(n)
    return row, edges


def _step_labels(
    g: nx.MultiDiGraph, row: dict[str, int], edges: dict[tuple[str, str, str], list[int]]
) -> list[tuple[float, str, tuple[str, str, str]]]:
    """Each edge's label (its step numbers, trigger and citation) at the height of its
    arrow's middle, from the top down, each nudged down clear of the one above."""
    labels: list[tuple[float, str, tuple[str, str, str]]] = []
    for (u, v, trigger), numbers in edges.items():
        data = g.edges[u, v, trigger]
        text = f"[{','.join(map(str, numbers))}] {trigger_words(trigger)}\n{data['cite']}"
        y = -(row[u] + row[v]) / 2 * ROW if u != v else -row[u] * ROW + 0.25
        labels.append((y, text.rstrip(), (u, v, trigger)))
    labels.sort(key=lambda a: -a[0])
    line = STEP_PT * 1.25 / 72
    placed: list[tuple[float, str, tuple[str, str, str]]] = []
    for y, text, key in labels:
        height = line * (text.count("\n") + 1)
        if placed:
            prev_y, prev_text, _ = placed[-1]
            lowest = prev_y - line * (prev_text.count("\n") + 1) / 2 - height / 2 - 0.08
            y = min(y, lowest)
        placed.append((y, text, key))
    return placed


def _draw_path_phases(
    ax: Any, g: nx.MultiDiGraph, row: dict[str, int], half_w: float, half_h: float
) -> None:
    """Each phase of the path as a box in its row; the one it ended in with a bold border."""
    from matplotlib.patches import FancyBboxPatch

    for phase, i in row.items():
        data = g.nodes[phase]
        final = bool(data.get("final"))
        ax.add_artist(
            FancyBboxPatch(
                (-half_w, -i * ROW - half_h),
                2 * half_w,
                2 * half_h,
                boxstyle="round,pad=0.0,rounding_size=0.06",
                facecolor=VISITED_FILL,
                edgecolor=FINAL_EDGE if final else "#4a6fa5",
                linewidth=2.4 if final else 1.0,
                zorder=3,
            )
        )
        ax.text(
            0,
            -i * ROW,
            _words(phase),
            ha="center",
            va="center",
            fontsize=PATH_PT,
            weight="bold" if final or data.get("start") else "normal",
            zorder=4,
        )


def _draw_path_step(
    ax: Any,
    g: nx.MultiDiGraph,
    key: tuple[str, str, str],
    row: dict[str, int],
    half: Point,
    out_of: dict[tuple[str, str, str], float],
    at: Point,
    text: str,
) -> None:
    """One edge of the path: a straight arrow down to the next phase, or an arc on the right
    (``out_of`` the boxes' edge) for any other step; a dotted guide from it to its label
    ``text``, written ``at`` (x, y)."""
    from matplotlib.patches import FancyArrowPatch
    from matplotlib.path import Path as CurvePath

    u, v, trigger = key
    half_w, half_h = half
    label_x, y = at
    a, b = row[u], row[v]
    if b == a + 1:
        start, end = (0.0, -a * ROW - half_h), (0.0, -b * ROW + half_h)
        path = CurvePath([start, end], [CurvePath.MOVETO, CurvePath.LINETO])
        anchor = (0.0, -(a + b) / 2 * ROW)
    else:
        out = half_w + out_of[key]
        if a == b:
            y0, y1 = -a * ROW + 0.08, -a * ROW - 0.08
            out = half_w + 0.3
        else:
            y0, y1 = -a * ROW, -b * ROW
        path = CurvePath(
            [(half_w, y0), (out, y0), (out, y1), (half_w, y1)],
            [CurvePath.MOVETO, CurvePath.LINETO, CurvePath.LINETO, CurvePath.LINETO],
        )
        anchor = (out, (y0 + y1) / 2)
    ax.add_artist(
        FancyArrowPatch(
            path=path,
            arrowstyle="-|>",
            mutation_scale=12,
            color=TAKEN if g.edges[u, v, trigger].get("in_table", True) else "#e08214",
            linewidth=1.6,
            linestyle=(0, (3, 2)) if g.edges[u, v, trigger].get("timer") else "-",
            shrinkA=0,
            shrinkB=0,
            zorder=5,
        )
    )
    ax.plot(
        [anchor[0], label_x - 0.05],
        [anchor[1], y],
        color="#cccccc",
        linewidth=0.6,
        linestyle=(0, (1, 1.5)),
        zorder=2,
    )
    ax.text(
        label_x,
        y,
        text,
        ha="left",
        va="center",
        fontsize=STEP_PT,
        color=TAKEN,
        linespacing=1.25,
        zorder=6,
    )


NODE_PT = 8.5  # phase names in the whole machine
EDGE_PT = 7.0  # the labels of the steps taken, on it
PAD_IN = 0.15  # blank kept around what is drawn, in inches


def _edge_shapes(
    g: nx.MultiDiGraph, pos: dict[str, Point], halves: dict[str, Point], aspect: float
) -> list[tuple[dict[str, Any], CurvePath, Point]]:
    """Each edge drawn of the whole machine: its data, its curve and the middle of it (where
    a step's label goes). The taken ones come first; of the others, one per pair of phases."""
    from matplotlib.path import Path as CurvePath

    drawn_grey: set[tuple[str, str]] = set()
    parallel: dict[tuple[str, str], int] = defaultdict(int)
    out: list[tuple[dict[str, Any], CurvePath, Point]] = []
    edges = sorted(g.edges(data=True), key=lambda e: -int(e[2].get("taken", 0)))
    for source, target, data in edges:
        taken = int(data.get("taken", 0))
        listed = bool(data.get("in_table", True))
        if not taken and listed:
            if (source, target) in drawn_grey:
                continue
            drawn_grey.add((source, target))
        k = parallel[(source, target)]
        parallel[(source, target)] += 1
        if source == target:
            (x, y), hh = pos[source], halves[source][1]
            top = y + hh
            lift = 0.42 + 0.15 * k
            path = CurvePath(
                [(x - 0.14, top), (x - 0.32, top + lift), (x + 0.32, top + lift), (x + 0.14, top)],
                [CurvePath.MOVETO, CurvePath.CURVE4, CurvePath.CURVE4, CurvePath.CURVE4],
            )
            mid = (x, top + lift * 0.75)
        else:
            start, control, end, mid = _edge_curve(
                pos[source], pos[target], halves[source], halves[target], 0.15 + 0.14 * k, aspect
            )
            path = CurvePath(
                [start, control, end], [CurvePath.MOVETO, CurvePath.CURVE3, CurvePath.CURVE3]
            )
        out.append((data, path, mid))
    return out


def _edge_label(data: dict[str, Any]) -> str:
    return f"[{data['steps']}] {trigger_words(data['trigger'])}\n{data['cite']}"


def _graph_figure(g: nx.MultiDiGraph) -> Chart:
    """The whole machine. Its limits are found from what is drawn, never guessed: each box as
    wide as its measured name, every loop, curve and label of a step taken, with a margin, so
    nothing is cut at an edge of the figure."""
    from simulator.views.charts.figures import Chart

    pos = _positions(g)
    width, height = 13.0, 6.2
    rect = (0.01, 0.02, 0.98, 0.88)
    box_in = {n: _text_w(_words(n), NODE_PT, bold=True) + 0.24 for n in g}  # a box's width
    xlim, ylim = _graph_limits(g, pos, box_in, rect, (width, height))
    per_x = (xlim[1] - xlim[0]) / (rect[2] * width)
    per_y = (ylim[1] - ylim[0]) / (rect[3] * height)
    aspect = per_x / per_y
    halves = {n: (box_in[n] / 2 * per_x, BOX_H / 2) for n in g}
    fig = Chart(figsize=(width, height), dpi=100)
    ax = fig.add_axes(rect)
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_axis_off()
    title = g.graph.get("title")
    heading = (
        f"{title} [{g.graph.get('contest')}]: the path through the state machine"
        if title
        else "The contest state machine (simulator.law.machine.TRANSITIONS)"
    )
    fig.text(0.01, 0.965, heading, fontsize=12, weight="bold", va="center")
    fig.text(
        0.01,
        0.925,
        "red: transitions the replay took, numbered in order, with trigger and citation; "
        "grey: the other transitions of the table (dashed: timers); blue: phases visited; "
        "dark border: the phase it ended in",
        fontsize=8,
        color="#555555",
        va="center",
    )
    _draw_machine_phases(ax, g, pos, halves)
    _draw_machine_edges(ax, g, pos, halves, aspect)
    return fig


def _graph_limits(
    g: nx.MultiDiGraph,
    pos: dict[str, Point],
    box_in: dict[str, float],
    rect: tuple[float, float, float, float],
    size: Point,
) -> tuple[Point, Point]:
    """The axes' x and y limits that hold every box, curve and label of a step taken, with a
    margin, on axes at ``rect`` of a figure of ``size`` inches. The scale depends on the
    limits, and they on the scale: settled in four rounds."""
    width, height = size
    xs, ys = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
    xlim, ylim = (min(xs) - 0.8, max(xs) + 0.8), (min(ys) - 0.6, max(ys) + 0.5)
    for _ in range(4):
        per_x = (xlim[1] - xlim[0]) / (rect[2] * width)  # x units an inch
        per_y = (ylim[1] - ylim[0]) / (rect[3] * height)
        aspect = per_x / per_y
        halves = {n: (box_in[n] / 2 * per_x, BOX_H / 2) for n in g}
        px: list[float] = []
        py: list[float] = []
        for n, (x, y) in pos.items():
            px += [x - halves[n][0], x + halves[n][0]]
            py += [y - halves[n][1], y + halves[n][1]]
        for data, path, mid in _edge_shapes(g, pos, halves, aspect):
            ext = path.get_extents()
            px += [ext.x0, ext.x1]
            py += [ext.y0, ext.y1]
            if data.get("taken"):
                lines = _edge_label(data).split("\n")
                half_w = max(_text_w(ln, EDGE_PT) for ln in lines) / 2 * per_x
                half_h = len(lines) * EDGE_PT * 1.1 / 72 / 2 * per_y
                px += [mid[0] - half_w, mid[0] + half_w]
                py += [mid[1] - half_h, mid[1] + half_h]
        xlim = (min(px) - PAD_IN * per_x, max(px) + PAD_IN * per_x)
        ylim = (min(py) - PAD_IN * per_y, max(py) + PAD_IN * per_y)
    return xlim, ylim


def _draw_machine_phases(
    ax: Any, g: nx.MultiDiGraph, pos: dict[str, Point], halves: dict[str, Point]
) -> None:
    """Each phase of the machine as a box: blue if the replay went through it, the phase it
    ended in with a dark border."""
    from matplotlib.patches import FancyBboxPatch

    for node, data in g.nodes(data=True):
        (x, y), (hw, hh) = pos[node], halves[node]
        final, visited = bool(data.get("final")), bool(data.get("visited"))
        box = FancyBboxPatch(
            (x - hw, y - hh),
            2 * hw,
            2 * hh,
            boxstyle="round,pad=0.0,rounding_size=0.08",
            facecolor=VISITED_FILL if visited else "white",
            edgecolor=FINAL_EDGE if final else ("#4a6fa5" if visited else "#9e9e9e"),
            linewidth=2.4 if final else 1.0,
            zorder=3,
            gid=f"node:{node}",
        )
        ax.add_artist(box)
        ax.text(
            x,
            y,
            _words(node),
            ha="center",
            va="center",
            fontsize=NODE_PT,
            zorder=4,
            color="#111111" if visited else "#666666",
            weight="bold" if final else "normal",
            gid=f"name:{node}",
        )


def _draw_machine_edges(
    ax: Any,
    g: nx.MultiDiGraph,
    pos: dict[str, Point],
    halves: dict[str, Point],
    aspect: float,
) -> None:
    """Each transition as an arrow: red and labelled if the replay took it, grey if not
    (dashed for a timer), orange for one the table does not list."""
    from matplotlib.patches import FancyArrowPatch

    for data, path, mid in _edge_shapes(g, pos, halves, aspect):
        taken = int(data.get("taken", 0))
        listed = bool(data.get("in_table", True))
        colour = TAKEN if taken else (UNTAKEN if listed else "#e08214")
        dashed = not taken and bool(data.get("timer"))
        ax.add_artist(
            FancyArrowPatch(
                path=path,
                arrowstyle="-|>",
                mutation_scale=12 if taken else 9,
                color=colour,
                linewidth=1.8 if taken else 0.7,
                linestyle=(0, (3, 2)) if dashed else "-",
                shrinkA=0,
                shrinkB=0,
                zorder=5 if taken else 1,
            )
        )
        if taken:
            ax.text(
                *mid,
                _edge_label(data),
                ha="center",
                va="center",
                fontsize=EDGE_PT,
                color=TAKEN,
                zorder=6,
                linespacing=1.1,
                bbox={
                    "boxstyle": "round,pad=0.15",
                    "facecolor": "white",
                    "edgecolor": "none",
                    "alpha": 0.9,
                },
            )


# ------------------------------------------------------------------------------------------
# Export
# ------------------------------------------------------------------------------------------


def _write(g: nx.MultiDiGraph, path: Path, *, full: bool = False) -> None:
    import networkx as nx

    from simulator.views.charts.figures import save_figure

    suffix = path.suffix.lower()
    if suffix in (".dot", ".gv"):
        path.write_text(to_dot(g), encoding="utf-8")
    elif suffix == ".graphml":
        nx.write_graphml(g, path)
    elif suffix == ".json":
        path.write_text(
            json.dumps(graph_data(g), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    elif suffix in (".mmd", ".mermaid"):
        path.write_text(to_mermaid(g, full=full), encoding="utf-8")
    else:
        save_figure(
            draw_graph(g, full=full), path, salt=f"electsim-graph-{g.graph.get('contest', '')}"
        )


FORMATS = (".dot", ".gv", ".mmd", ".mermaid", ".graphml", ".json", ".png", ".svg")


def export_graph(
    result: Result, path: str | Path, *, contest: str | None = None, full: bool = False
) -> list[Path]:
    """Write the state graph with each contest's path, in the format named by the extension.

    ``.dot``/``.gv`` (Graphviz DOT), ``.mmd``/``.mermaid`` (Mermaid ``stateDiagram-v2``),
    ``.graphml``, ``.json`` (node-link data) or ``.png``/``.svg`` (a drawing: the path taken,
    or with ``full`` the whole machine with the path laid over it). One contest (or the one
    named by ``contest``) goes to ``path``; a result with several contests gives one file per
    contest beside it, ``STEM.CONTEST-ID.EXT``, and a result with none the bare state machine.
    Returns the files written.
    """

    out = Path(path)
    if out.suffix.lower() not in FORMATS:
        raise UnsupportedFormat(
            f"{out}: expected a file ending in {', '.join(FORMATS)}; found "
            f"{out.suffix or 'no extension'} (name the output e.g. graph.dot)"
        )
    if contest is not None:
        try:
            chosen = [result.contest(contest)]
        except KeyError:
            ids = ", ".join(c.id for c in result.contests)
            raise SimulatorError(f"contest: expected one of {ids}; found {contest!r}") from None
    else:
        chosen = list(result.contests)
    if not chosen:
        _write(state_graph(), out)
        return [out]
    if len(chosen) == 1:
        _write(replay_graph(chosen[0]), out, full=full)
        return [out]
    written = []
    for c, name in zip(chosen, file_names([c.id for c in chosen]), strict=True):
        target = out.with_name(f"{out.stem}.{name}{out.suffix}")
        refuse_link(target)  # (named from the scenario: never written through a link)
        _write(replay_graph(c), target, full=full)
        written.append(target)
    return written


def graph_data(g: nx.MultiDiGraph) -> dict[str, Any]:
    """The graph as node-link data (what the ``.json`` export writes)."""
    import networkx as nx

    return dict(nx.node_link_data(g, edges="edges"))
