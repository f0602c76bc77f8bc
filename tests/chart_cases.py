"""A generated scenario of twenty contests, for charts that must read well at any size."""

from __future__ import annotations

import random
from itertools import combinations

from matplotlib.figure import Figure
from matplotlib.text import Text

NAMES = (
    "Ann Alston", "Bob Barnes", "Cy Carter", "Dee Dalton", "Eve Ellis", "Flo Fenwick",
    "Gus Garner", "Hal Hobbs", "Ida Ingram", "Jo Jenkins", "Kai Keller", "Lou Lambeth",
    "Mae Morrow", "Ned Nash", "Ola Oakley", "Pat Pruitt",
)  # fmt: skip
KINDS = (
    ("nonpartisan-plurality", "election", "2027-11-02", "2027-11-09"),
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
    but paints no pixel: the boxes are those of a real drawing)."""
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
    return problems
