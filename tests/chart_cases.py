"""A generated scenario of twenty contests, for charts that must read well at any size."""

from __future__ import annotations

import random
from itertools import combinations

from matplotlib.artist import Artist
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.text import Text
from matplotlib.transforms import Bbox

#: The most blank a figure may leave at its right and bottom edges, in inches.
MARGIN_IN = 0.6
#: How near a label sits to its mark or tick, in pixels, to need no leader.
ADJACENT_PX = 8.0

NAMES = (
    "Ann Alston", "Bob Barnes", "Cy Carter", "Dee Dalton", "Eve Ellis", "Flo Fenwick",
    "Gus Garner", "Hal Hobbs", "Ida Ingram", "Jo Jenkins", "Kai Keller", "Lou Lambeth",
    "Mae Morrow", "Ned Nash", "Ola Oakley", "Pat Pruitt",
)  # fmt: skip
KINDS = (
    ("nonpartisan-plurality", "election", "2027-11-02", "2027-11-12"),
    ("nonpartisan-runoff", "election", "2027-10-05", "2027-10-12"),
    ("nonpartisan-primary", "primary", "2027-10-05", "2027-10-12"),
)


def twenty_contests(seed: int = 13) -> str:
    """Scenario text: twenty contests of all three nonpartisan methods, one to fifteen filers
    each, filings bunched on the same days, deaths, withdrawals, runoff requests, recounts."""
    rng = random.Random(seed)
    contests, events = [], []
    for i in range(20):
        method, stage, voting, canvass = KINDS[i % 3]
        seats = 1 if i % 4 else 3
        cid = f"ward-{i + 1}"
        office = f"Council {'At-Large' if seats > 1 else f'Ward {i + 1}'}"
        contests.append(
            f"  - {{id: {cid}, municipality: Town of Example-{i + 1}, office: {office}, "
            f"seats: {seats}, method: {method}, stage: {stage}, year: 2027}}"
        )
        n = rng.choice((1, 2, 3, 5, 8, 15)) if seats == 1 else rng.choice((4, 7, 15))
        filers = NAMES[:n]
        for k, name in enumerate(filers):
            day = 6 + (k * 3) // max(n, 1)
            events.append((f"2027-07-{day:02d}T{9 + k % 3:02d}:00", cid, "candidate_filed", name))
        alive = list(filers)
        if n >= 3 and rng.random() < 0.3:
            events.append(("2027-07-20T10:00", cid, "candidate_withdrew", alive[-1]))
        votes = {name: rng.randrange(50, 900) for name in alive}
        if not (n >= 3 and rng.random() < 0.3) and stage != "primary":
            pass
        counts = ", ".join(f"{k}: {v}" for k, v in votes.items())
        events.append((f"{voting}T21:00", cid, "returns_reported", "{" + counts + "}"))
        events.append((f"{canvass}T11:00", cid, "canvass_held", None))
        if method == "nonpartisan-runoff" and n >= 3:
            second = sorted(votes, key=votes.get, reverse=True)[1]  # type: ignore[arg-type]
            events.append(("2027-10-13T09:30", cid, "runoff_requested", second))
    lines = [
        "format: electsim/v1",
        "title: Twenty contests in one town, 2027 (generated)",
        "description: One to fifteen filers per contest, filed in bunches; all three methods.",
        "contests:",
        *contests,
        "events:",
    ]
    for at, cid, kind, what in sorted(events):
        field = {
            "candidate_filed": "candidate",
            "candidate_withdrew": "candidate",
            "runoff_requested": "candidate",
            "returns_reported": "counts",
        }.get(kind)
        extra = f", {field}: {what if field == 'counts' else repr(what)}" if field else ""
        lines.append(f'  - {{type: {kind}, at: "{at}", contest: {cid}{extra}}}')
    return "\n".join(lines) + "\n"


def layout_problems(fig: Figure) -> list[str]:
    """Every text of the figure (titles, lane labels, deadline and event labels, the axis,
    the legend, the notes) that leaves the figure, and every pair whose boxes overlap by more
    than a pixel, measured with the renderer after drawing (a draw that places every artist
    but paints no pixel: the boxes are those of a real drawing); a blank strip wider than
    :data:`MARGIN_IN` at the right or the bottom; and on a timeline the problems of
    :func:`tie_problems`."""
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    width, height = fig.bbox.width, fig.bbox.height
    boxes = []
    problems = []
    for t in fig.findobj(Text):
        if not (t.get_visible() and t.get_text().strip()):
            continue
        b = t.get_window_extent(renderer)
        name = t.get_text().replace("\n", " / ")[:60]
        if b.x0 < -0.5 or b.y0 < -0.5 or b.x1 > width + 0.5 or b.y1 > height + 0.5:
            problems.append(f"{name!r} leaves the figure: {b} in {width}x{height}")
        boxes.append((name, b.x0 + 1, b.y0 + 1, b.x1 - 1, b.y1 - 1))
    problems += [
        f"{a[0]!r} overlaps {b[0]!r}"
        for a, b in combinations(boxes, 2)
        if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]
    ]
    drawn = [Bbox.from_extents(*b[1:]) for b in boxes]
    drawn += [ax.get_window_extent(renderer) for ax in fig.axes if ax.get_visible()]
    if drawn:
        used = Bbox.union(drawn)
        blank = MARGIN_IN * fig.dpi
        if width - used.x1 > blank:
            problems.append(f"a blank strip {width - used.x1:.0f} px wide at the right")
        if used.y0 > blank:
            problems.append(f"a blank strip {used.y0:.0f} px tall at the bottom")
    return problems + tie_problems(fig, drawn=True)


def _gids(fig: Figure, kind: type[Artist]) -> dict[str, list[Artist]]:
    out: dict[str, list[Artist]] = {}
    for a in fig.findobj(lambda a: isinstance(a, kind) and bool(a.get_gid())):
        out.setdefault(str(a.get_gid()), []).append(a)
    return out


def _near(x: float, y: float, box: Bbox, pad: float) -> bool:
    return box.x0 - pad <= x <= box.x1 + pad and box.y0 - pad <= y <= box.y1 + pad


def _gap(a: Bbox, b: Bbox) -> float:
    """The distance between two boxes, in pixels (0 when they touch or overlap)."""
    dx = max(a.x0 - b.x1, b.x0 - a.x1, 0.0)
    dy = max(a.y0 - b.y1, b.y0 - a.y1, 0.0)
    return float((dx * dx + dy * dy) ** 0.5)


def tie_problems(fig: Figure, *, drawn: bool = False) -> list[str]:
    """On a timeline (whose artists are named by gid: ``mark:``/``tick:`` a mark or a
    deadline, ``label:<its name>`` a caption, ``leader:<its name>`` a leader): every caption
    neither adjacent to its mark or tick nor tied to it by a leader that runs from the one to
    the other; every two marks drawn on top of each other; every event captioned with the
    words of the deadline label of its day (a canvass labelled twice), and every caption that
    appears twice for one mark. ``drawn``: the figure has just been drawn as it stands (by
    :func:`layout_problems`), so its boxes are measured without drawing it again."""
    if not drawn:
        fig.draw_without_rendering()
    r = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    problems: list[str] = []
    labels = _gids(fig, Text)
    leaders = _gids(fig, Line2D)
    anchors = {**_gids(fig, Artist)}
    marks = sorted(
        (g, a[0].get_window_extent(r))
        for g, a in anchors.items()
        if g.startswith("mark:") and isinstance(a[0], Line2D)
    )
    for (g1, b1), (g2, b2) in combinations(marks, 2):
        if b1.x0 + 1 < b2.x1 and b2.x0 + 1 < b1.x1 and b1.y0 + 1 < b2.y1 and b2.y0 + 1 < b1.y1:
            problems.append(f"marks {g1} and {g2} are drawn on top of each other")
    ticks: dict[str, list[tuple[float, str]]] = {}  # lane -> (x, first line) of tick labels
    for gid, texts in labels.items():
        if not gid.startswith("label:"):
            continue
        key = gid.removeprefix("label:")
        if len(texts) > 1:
            problems.append(f"{key} is captioned {len(texts)} times")
        text = texts[0]
        first = text.get_text().split("\n")[0].strip()
        kind, lane, *rest = key.split(":")
        if kind == "tick":
            ticks.setdefault(lane, []).append((float(rest[-1]), first))
        if kind == "votes":
            continue  # a round's votes stand at the declaration, not at a mark
        target = [a for a in anchors.get(key, []) if not isinstance(a, Text)]
        if not target:
            problems.append(f"{first!r} ({key}) names no mark or tick")
            continue
        box = Bbox.union([a.get_window_extent(r) for a in target])
        lbox = text.get_window_extent(r)
        if _gap(box, lbox) <= ADJACENT_PX:
            continue
        tied = False
        for line in leaders.get(f"leader:{key}", []):
            assert isinstance(line, Line2D)
            pts = line.get_transform().transform(line.get_xydata())
            (x0, y0), (x1, y1) = pts[0], pts[-1]
            if _near(x0, y0, box, 3) and _near(x1, y1, lbox, ADJACENT_PX):
                tied = True
        if not tied:
            problems.append(f"{first!r} ({key}) is far from its mark with no leader to it")
    for gid, texts in labels.items():
        if not gid.startswith("label:"):
            continue  # a text of another chart (a sweep's flip label): no mark to tie it to
        kind, lane, *rest = gid.removeprefix("label:").split(":")
        if kind != "mark":
            continue
        first = texts[0].get_text().split("\n")[0].strip()
        x = float(rest[-1])
        for tx, words in ticks.get(lane, []) + ticks.get("", []):
            if abs(tx - x) < 1 and words == first:
                problems.append(f"{first!r} is written twice: by its mark and by its deadline")
    return problems
