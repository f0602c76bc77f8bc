"""The panel's outputs as HTML: the outcome of each contest, the rulings (those that differ
from the scenario as written highlighted), the deadlines that moved, a timeline drawn as SVG
(quick enough to redraw on every change), and the "where does it flip" strip of the control
last moved. The same HTML goes into the Jupyter widgets and the page ``electsim app`` serves."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from html import escape
from typing import Any

from simulator.analysis.panel.model import PanelState, deciding, hypothetical_indexes
from simulator.analysis.whatif.sweep_results import SweepRow
from simulator.engine.result import ContestResult, Outcome, Ruling
from simulator.law.labels import label
from simulator.law.machine import Phase
from simulator.law.vocab import Pending, RulingKind, RunoffStatus
from simulator.model.events import Event
from simulator.views.branches import HEADING, BranchWords
from simulator.views.words import entry_words, events_by_index

CSS = """
.ws-panel{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;font-size:14px;color:#1d2433}
.ws-panel h3{font-size:15px;margin:14px 0 6px}
.ws-outcome{border:1px solid #c9d1de;border-radius:6px;padding:8px 10px;margin:6px 0;
 background:#f7f9fc}
.ws-outcome.ws-changed{border-color:#d9822b;background:#fff4e5}
.ws-outcome b{font-size:15px}
.ws-tag{display:inline-block;border-radius:10px;padding:1px 8px;margin-left:6px;font-size:12px;
 background:#d9822b;color:#fff}
.ws-rulings{list-style:none;padding:0;margin:0}
.ws-rulings li{padding:3px 6px;border-left:4px solid transparent;margin:2px 0}
.ws-rulings li.ws-new{border-left-color:#d9822b;background:#fff4e5}
.ws-rulings li.ws-gone{border-left-color:#8a94a6;color:#6b7485;text-decoration:line-through}
.ws-cite{color:#5a6478;font-size:12px}
.ws-error{border:1px solid #c23030;background:#fdecec;color:#8a1c1c;border-radius:6px;
 padding:8px 10px;margin:6px 0;white-space:pre-wrap}
.ws-table{border-collapse:collapse;font-size:13px}
.ws-table td,.ws-table th{border-bottom:1px solid #e1e6ee;padding:3px 8px;text-align:left}
.ws-svg{width:100%;height:auto;max-width:900px}
.ws-scroll{overflow-x:auto}
.ws-scroll .ws-svg{min-width:560px}
.ws-hint{display:none;color:#5a6478;font-size:12px;margin:2px 0}
@media (max-width:620px){.ws-hint{display:block}}
.ws-note{color:#5a6478;font-size:12px}
.ws-assumes{margin:4px 0;padding:3px 8px;border-left:4px solid #5a6478;background:#eef1f6;
 font-size:13px}
.ws-timeline{list-style:none;padding:0;margin:4px 0}
.ws-timeline li{display:grid;grid-template-columns:8.6em 12px minmax(0,1fr);gap:6px;
 align-items:baseline;padding:2px 4px;font-size:13px;border-bottom:1px solid #f0f2f6}
.ws-timeline li>span:last-child{overflow-wrap:anywhere}
.ws-when{color:#5a6478;font-size:12px;white-space:nowrap}
.ws-mark{display:inline-block;width:10px;height:10px}
.ws-t-event .ws-mark{border-radius:50%;background:#2b6cb0}
.ws-t-ruling .ws-mark{background:#d9822b}
.ws-t-deadline .ws-mark{width:0;height:12px;border-left:3px dashed #7b3fa0}
li.ws-t-hypo{background:#e6f4f1}
.ws-tag.ws-hypo{background:#0f766e}
.ws-tkey>span{display:inline-block;margin-right:14px}
.ws-futures{margin:6px 0 2px;font-size:13px}
.ws-futures summary{cursor:pointer;font-weight:600}
.ws-futures ul{margin:4px 0;padding-left:1.2em}
.ws-futures li{margin:2px 0;overflow-wrap:anywhere}
.ws-outcome .ws-futures b{font-size:13px}
.ws-futures .ws-cite span{white-space:nowrap}
.ws-key{display:inline-block;margin:2px 14px 2px 0}
.ws-key i{display:inline-block;width:10px;height:10px;margin-right:4px}
"""

#: the colours of a flip strip's bands, in turn; the key's swatches take theirs from a class
#: (the page ``electsim app`` serves allows no style attribute)
_BANDS = ("#4c78a8", "#f58518", "#54a24b", "#b279a2", "#e45756", "#72b7b2", "#9d755d")
CSS += "".join(f".ws-band{i}{{background:{c}}}\n" for i, c in enumerate(_BANDS))


def outcome_words(o: Outcome) -> str:
    """An outcome in words: who was elected or nominated, vacant seats, a runoff, what the
    contest still waits for."""
    parts = []
    if o.elected:
        parts.append("elected " + ", ".join(o.elected))
    if o.nominated:
        parts.append("nominated " + ", ".join(o.nominated))
    if o.vacant_seats:
        parts.append(f"{o.vacant_seats} vacant seat{'s' if o.vacant_seats != 1 else ''}")
    if o.runoff_status is not RunoffStatus.NONE:
        who = f" ({', '.join(o.runoff_candidates)})" if o.runoff_candidates else ""
        parts.append(f"runoff {label(o.runoff_status)}{who}")
    if o.pending is not None:
        parts.append("waiting for: " + label(o.pending))
    return "; ".join(parts) or "nothing decided"


def decided_words(r: Ruling | None) -> str:
    """How a contest's outcome was decided: the deciding ruling's words and citation."""
    if r is None:
        return "nothing has decided it yet"
    return f"decided by: {label(r.kind)} ({r.cite})"


def row_words(r: SweepRow) -> str:
    """A sweep row's outcome, and the ruling that decided it, in words (votes set aside
    explain what was not counted, not who won: they are left out)."""
    shown = r.ruling and r.ruling != RulingKind.VOTES_DISREGARDED.value
    how = f" ({label(RulingKind(r.ruling))}, {r.cite})" if shown and r.ruling else ""
    return _row_outcome(r) + how


def _row_outcome(r: SweepRow) -> str:
    return outcome_words(
        Outcome(
            r.elected,
            r.nominated,
            r.vacant_seats,
            RunoffStatus(r.runoff),
            r.runoff_candidates,
            Pending(r.pending) if r.pending else None,
        )
    )


def _state(c: ContestResult) -> str:
    try:
        return label(Phase(c.state))
    except ValueError:
        return c.state.replace("_", " ")


#: the list of what can happen from here is open where it has no more ways than this
FUTURES_OPEN = 4


def futures_html(branches: tuple[BranchWords, ...], as_loaded: bool = False) -> str:
    """What can happen from here beside a contest's outcome: each branch's condition and
    outcome in words, its citations small, in a box the reader may close; ``as_loaded``: they
    are the scenario's as loaded (too slow to compute again on each change), and it says so."""
    if not branches:
        return ""
    items = "".join(
        f"<li>{escape(b.condition)}: <b>{escape(b.outcome)}</b>"
        + (
            ' <span class="ws-cite">'
            + "; ".join(f"<span>{escape(x)}</span>" for x in b.cites)
            + "</span>"
            if b.cites
            else ""
        )
        + "</li>"
        for b in branches
    )
    # (open where the list is short; a long one waits for a tap, so the controls stay near)
    is_open = " open" if len(branches) <= FUTURES_OPEN else ""
    return (
        f'<details class="ws-futures"{is_open}><summary>{escape(HEADING)} '
        f"({len(branches)} way{'s' if len(branches) != 1 else ''}"
        f"{', for the scenario as loaded' if as_loaded else ''})</summary>"
        f"<ul>{items}</ul></details>"
    )


def outcome_html(p: PanelState) -> str:
    out = []
    futures = p.futures()
    for c in p.result.contests:
        changed = p.outcome_changed(c.id)
        tag = '<span class="ws-tag">changed</span>' if changed else ""
        was = ""
        if changed:
            b = p.base_result.contest(c.id)
            was = (
                '<div class="ws-note">as written: '
                f"{escape(outcome_words(b.outcome))}; {escape(decided_words(deciding(b)))}</div>"
            )
        assumed = "".join(
            f'<div class="ws-assumes">{escape(a[0].upper() + a[1:])}.</div>'
            for a in p.assumptions(c.id)
        )
        out.append(
            f'<div class="ws-outcome{" ws-changed" if changed else ""}" data-contest="'
            f'{escape(c.id)}"><div>{escape(c.title)}{tag}</div>'
            f'<b class="ws-outcome-words">{escape(outcome_words(c.outcome))}</b>'
            f'<div class="ws-decided">{escape(decided_words(deciding(c)))}</div>{assumed}'
            f'<div class="ws-note">{escape(_state(c))}</div>{was}'
            f"{futures_html(futures.get(c.id, ()), p.futures_as_loaded)}</div>"
        )
    return "".join(out)


def outcome_text(p: PanelState) -> str:
    """The outcome the panel shows, one line a contest (and what it assumes, if anything)."""
    return "\n".join(
        f"{c.title}: {outcome_words(c.outcome)}; {decided_words(deciding(c))}"
        + "".join(f"; {a}" for a in p.assumptions(c.id))
        for c in p.result.contests
    )


def rulings_html(p: PanelState) -> str:
    lines = p.rulings()
    many = len(p.result.contests) > 1
    items = []
    for r in lines:
        cls = f' class="ws-{r.change}"' if r.change else ""
        mark = {"new": "new: ", "gone": "no longer: "}.get(r.change, "")
        where = f"{escape(r.contest)} · " if many else ""
        made_up = _HYPOTHETICAL if r.hypothetical else ""
        items.append(
            f"<li{cls}>{where}{escape(r.at)}: {mark}{escape(r.words)} "
            f'<span class="ws-cite">{escape(r.cite)}</span>{made_up}</li>'
        )
    changed = sum(1 for r in lines if r.change)
    head = f"Rulings ({changed} differ from the scenario as written)" if changed else "Rulings"
    return f'<h3>{head}</h3><ul class="ws-rulings">{"".join(items)}</ul>' + remarks_html(p)


def remarks_html(p: PanelState) -> str:
    """The facts of the log off the statutory calendar (docs/results.md, remarks), under the
    rulings: nothing when every fact fits."""
    many = len(p.result.contests) > 1
    items = [
        f"<li>{f'{escape(c.id)} · ' if many else ''}{r.at:%a %Y-%m-%d %H:%M}: "
        f"{escape(label(r.kind))}: {escape(r.text)} "
        f'<span class="ws-cite">{escape(r.cite)}</span></li>'
        for c in p.result.contests
        for r in c.remarks
    ]
    if not items:
        return ""
    return (
        "<h3>Remarks (facts off the statutory calendar; no ruling changes)</h3>"
        f'<ul class="ws-rulings">{"".join(items)}</ul>'
    )


def deadlines_html(p: PanelState) -> str:
    moves = p.deadlines()
    if not moves:
        return '<h3>Deadlines that moved</h3><div class="ws-note">none</div>'
    rows = "".join(
        f"<tr><td>{escape(m.what)}</td><td>{escape(m.before)}</td><td>{escape(m.after)}</td></tr>"
        for m in moves
    )
    return (
        '<h3>Deadlines that moved</h3><table class="ws-table"><tr><th>deadline</th>'
        f"<th>as written</th><th>now</th></tr>{rows}</table>"
    )


#: A drawing keeps a size its words read at (560 px at least: 11-unit text at some 9 px) and
#: scrolls sideways in its box on a narrower screen, which the hint, shown only there, says
_SCROLLS = (
    '<p class="ws-hint">The drawing is wider than this screen: scroll it sideways.</p>'
    '<div class="ws-scroll">'
)


#: the mark an added event, and a ruling that follows one, carry wherever they show
_HYPOTHETICAL = ' <span class="ws-tag ws-hypo">hypothetical</span>'

#: what each kind of line of a timeline is, in words (its mark's tooltip and the key)
_KINDS = {"event": "event", "ruling": "ruling", "deadline": "deadline"}


def timeline_list(c: ContestResult, events: Mapping[int, Event], made_up: frozenset[int]) -> str:
    """One contest's timeline as a list down the page: each line's moment, its mark (a dot for
    an event, a square for a ruling, a dashed bar for a deadline) and what it says in words
    beside it (:func:`simulator.views.words.entry_words`, as the text timeline says it)."""
    rows = []
    for t in c.timeline:
        kind = _KINDS.get(t.what, t.what)
        words = entry_words(t, events)
        cite = f' <span class="ws-cite">{escape(t.cite)}</span>' if t.cite else ""
        made = _HYPOTHETICAL if t.seq is not None and t.seq in made_up else ""
        rows.append(
            f'<li class="ws-t-{escape(kind)}{" ws-t-hypo" if made else ""}">'
            f'<span class="ws-when">{escape(f"{t.at:%a %d %b %H:%M}")}</span>'
            f'<i class="ws-mark" title="{escape(kind, quote=True)}"></i>'
            f"<span>{escape(words)}{cite}{made}</span></li>"
        )
    return f'<ol class="ws-timeline">{"".join(rows)}</ol>'


_TIMELINE_KEY = (
    '<div class="ws-note ws-tkey"><span class="ws-t-event"><i class="ws-mark"></i> event</span>'
    '<span class="ws-t-ruling"><i class="ws-mark"></i> ruling</span>'
    '<span class="ws-t-deadline"><i class="ws-mark"></i> deadline</span></div>'
)


def timeline_html(p: PanelState) -> str:
    events = events_by_index(p.variant.events)
    made_up = hypothetical_indexes(p.variant)
    return "".join(
        f"<h3>Timeline: {escape(c.title)}</h3>{_TIMELINE_KEY}{timeline_list(c, events, made_up)}"
        for c in p.result.contests
    )


def _distance(a: Any, b: Any) -> float:
    return (b - a).total_seconds() / 86400 if isinstance(a, datetime) else float(b - a)


def _value_words(v: Any) -> str:
    """A strip's value in words: a moment as ``Thu 19 Oct 12:00``, a count as ``2,076``."""
    return f"{v:%a %d %b %H:%M}" if isinstance(v, datetime) else f"{v:,}"


def _short_words(v: Any) -> str:
    """A strip's value as its label under the strip: ``19 Oct``, ``2,076``."""
    return f"{v:%d %b}" if isinstance(v, datetime) else f"{v:,}"


def _flip_words(before: Any, after: Any) -> str:
    """Where the outcome changes: after the last value of the one, at the first of the next."""
    if isinstance(before, datetime):
        same_day = before.date() == after.date()
        return f"after {_value_words(before)} (from {after:%H:%M}" + (
            ")" if same_day else f" on {after:%a %d %b})"
        )
    return f"between {before:,} and {after:,}"


def flip_strip_html(p: PanelState) -> str:
    """The sweep of the control last moved: a strip coloured by outcome, the flip points
    marked, the current value shown."""
    sw = p.sweep
    if sw is None or p.moved is None or not len(sw):
        return (
            '<h3>Where does it flip</h3><div class="ws-note">move a moment or a count to see '
            "where the outcome changes along it (to the minute, to the vote)</div>"
        )
    control = p.controls[p.moved]
    rows = list(sw)
    values = [r.value for r in rows]
    w, left, width = 640, 8, 624
    whole = max(_distance(values[0], values[-1]), 1)

    def x_of(v: Any) -> float:
        return left + width * _distance(values[0], v) / whole

    colour_of: dict[str, str] = {}
    parts = [_SCROLLS, f'<svg class="ws-svg ws-strip" viewBox="0 0 {w} 104" role="img">']
    for i, r in enumerate(rows):
        words = row_words(r)
        colour = colour_of.setdefault(words, _BANDS[len(colour_of) % len(_BANDS)])
        x = x_of(r.value)
        end = x_of(values[i + 1]) if i + 1 < len(rows) else left + width
        parts.append(
            f'<rect x="{x:.1f}" y="20" width="{max(end - x, 1.5) + 0.6:.1f}" height="26" '
            f'fill="{colour}"><title>{escape(_value_words(r.value))}: {escape(words)}</title>'
            "</rect>"
        )
    current = p.values[p.moved]
    flips = p.flips()
    for i, v in enumerate(flips):
        x = x_of(v)
        y = 64 + 14 * (i % 2)  # (neighbouring flips' labels on two lines)
        anchor = "end" if x > left + width * 0.85 else "start"
        parts.append(
            f'<line x1="{x:.1f}" y1="12" x2="{x:.1f}" y2="{y - 10}" stroke="#111" '
            f'stroke-width="2"/><text x="{x + 2:.1f}" y="{y}" font-size="12" '
            f'text-anchor="{anchor}">{escape(_short_words(v))}</text>'
        )
    if values[0] <= current <= values[-1]:
        x = x_of(current)
        parts.append(
            f'<path d="M{x - 6:.1f},4 L{x + 6:.1f},4 L{x:.1f},16 Z" fill="#111">'
            f"<title>now: {escape(_value_words(current))}</title></path>"
        )
    parts.append(
        f'<text x="{left}" y="98" font-size="12" fill="#5a6478">'
        f"{escape(_short_words(values[0]))}</text>"
        f'<text x="{left + width}" y="98" font-size="12" fill="#5a6478" text-anchor="end">'
        f"{escape(_short_words(values[-1]))}</text></svg></div>"
    )
    key = "".join(
        f'<span class="ws-key"><i class="ws-band{_BANDS.index(c)}"></i>{escape(words)}</span>'
        for words, c in colour_of.items()
    )
    said = (
        "flips " + "; ".join(_flip_words(a, b) for a, b in p.flip_pairs())
        if flips
        else "the outcome is the same all along"
    )
    return (
        f"<h3>Where does it flip: {escape(control.label)}</h3>{''.join(parts)}"
        f'<div class="ws-note">{key}</div><div class="ws-note ws-flips">{escape(said)}</div>'
    )


def error_html(p: PanelState) -> str:
    if not p.error:
        return ""
    return (
        '<div class="ws-error" role="alert"><b>Not replayed; the last good result is shown.'
        f"</b>\n{escape(p.error)}</div>"
    )


def outputs_html(p: PanelState) -> dict[str, str]:
    """Each output's HTML, by name."""
    return {
        "error": error_html(p),
        "outcome": outcome_html(p),
        "flip": flip_strip_html(p),
        "rulings": rulings_html(p),
        "deadlines": deadlines_html(p),
        "timeline": timeline_html(p),
    }
