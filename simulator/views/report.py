"""A self-contained HTML report of a replay: one page, no network.

The page holds the outcome of every contest, the timeline chart and each contest's path through
the state machine as inline SVG (text kept as text), and tables of the rulings, deadlines and
events, each citation linking its section on ncleg.gov. States, deadlines, rulings and events are
written in words (:mod:`simulator.views.words`); the JSON keeps the identifiers. It reads on a
phone: below 700 pixels the tables become stacked cards, each value under its heading, and the
timeline chart scrolls sideways in its own box, which says so. It loads nothing: no scripts, fonts,
style sheets or images from anywhere; the CSS is inline. Every piece of user text (titles,
names, descriptions) is escaped.

>>> from simulator.engine.result import Result
>>> from simulator.model.scenario import Scenario
>>> page = render_report(Scenario("A <b>test</b>", (), ()), Result("A <b>test</b>", ()))
>>> "A &lt;b&gt;test&lt;/b&gt;" in page and "<b>test</b>" not in page
True
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from datetime import date, datetime, tzinfo
from decimal import Decimal
from pathlib import Path

from simulator.engine.result import ContestResult, Outcome, Result, Ruling, Threshold
from simulator.law.cite import statute
from simulator.law.labels import label
from simulator.law.machine import Phase
from simulator.law.readings import chosen_words
from simulator.law.vocab import RulingKind
from simulator.model.events import Event
from simulator.model.scenario import Scenario
from simulator.views.branches import HEADING, HOW, BranchWords
from simulator.views.charts.timeline import plot_timeline
from simulator.views.graph import draw_graph, replay_graph
from simulator.views.markup import cite_links, escape, table
from simulator.views.words import contest_words, event_words, outcome_words, type_words, word

__all__ = ["render_report", "write_report"]

# The timeline is drawn 10.8 inches wide and shown across the page (up to 1184 pixels), so its
# 7-point labels read at about 14 pixels on a 1280-pixel screen.
CHART_PX, CHART_DPI = 1080, 100
MAX_EVENT_ROWS = 400  # per contest; a log of single votes can hold many thousands
OPEN_GRAPHS = 3  # state-machine drawings shown open when there are at most this many contests

CSS = """
:root { --ink: #1d2433; --muted: #5b6475; --line: #d9dee7; --band: #f5f7fa; --accent: #1f4e79;
        --good: #1b7837; --warn: #b35806; --bad: #b2182b; }
* { box-sizing: border-box; }
/* a long name or id breaks where it must rather than run past its column */
body { margin: 0; color: var(--ink); background: #fff; line-height: 1.45; overflow-wrap: anywhere;
       font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
       sans-serif; }
main { max-width: 1240px; margin: 0 auto; padding: 24px 28px 48px; }
header.page { border-bottom: 3px solid var(--accent); margin-bottom: 18px; padding-bottom: 10px; }
h1 { font-size: 1.7rem; margin: 0 0 4px; }
h2 { font-size: 1.3rem; margin: 34px 0 10px; padding-bottom: 4px;
     border-bottom: 1px solid var(--line); }
h3 { font-size: 1.02rem; margin: 22px 0 8px; color: var(--accent); }
p.desc { color: var(--muted); margin: 4px 0 10px; max-width: 70em; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 8px 0 0;
          font-size: .9rem; }
dl.meta dt { color: var(--muted); }
dl.meta dd { margin: 0; }
nav.toc { font-size: .92rem; margin: 8px 0 0; }
nav.toc a { margin-right: 14px; }
a { color: var(--accent); }
a.cite { white-space: nowrap; }
.id { font: .8em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: var(--muted);
      font-weight: normal; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: .88rem; margin: 4px 0 8px; }
table.narrow { width: auto; min-width: 22em; }
th, td { text-align: left; vertical-align: top; padding: 5px 8px;
         border-bottom: 1px solid var(--line); }
th { background: var(--band); font-weight: 600; white-space: nowrap; }
tbody tr:nth-child(even) td { background: #fbfcfd; }
td.when, td.num, td.kind { white-space: nowrap; }
/* a method breaks between its words (or after a hyphen), never inside one */
td.method { overflow-wrap: normal; }
/* a cell that may hold a long name keeps room for a few words (the table scrolls first) */
td:not(.num):not(.when) { min-width: 7em; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.ignored td { color: #9aa1ad; }
tr.won td { font-weight: 600; }
tr.total td { border-top: 2px solid var(--line); color: var(--muted); }
p.threshold { margin: 2px 0 6px; font-size: .9rem; }
.kind { font-size: .85rem; }
.badge { display: inline-block; padding: 1px 7px; border-radius: 10px; background: #e8edf5;
         font-size: .78rem; }
.badge.good { background: #dcefe0; color: var(--good); }
.badge.warn { background: #fbe6d2; color: var(--warn); }
.badge.bad { background: #f8dadd; color: var(--bad); }
.badge.runoff { background: #ebe1f2; color: #6a3d9a; }
.outcome { display: flex; flex-wrap: wrap; gap: 10px 28px; padding: 10px 14px; margin: 8px 0;
           background: var(--band); border-left: 4px solid var(--good); border-radius: 4px; }
.outcome.pending { border-left-color: var(--warn); }
.outcome div { min-width: 9em; }
.outcome .label { display: block; font-size: .75rem; color: var(--muted); text-transform: uppercase;
                  letter-spacing: .04em; }
.extra { display: block; color: var(--muted); font-size: .8rem; }
figure { margin: 10px 0; }
figure svg { width: 100%; height: auto; display: block; }
figcaption { font-size: .82rem; color: var(--muted); }
details summary { cursor: pointer; color: var(--accent); margin: 6px 0; }
ol.path { font-size: .88rem; }
ul.futures { padding-left: 1.2em; max-width: 70em; }
ul.futures li { margin: 4px 0; overflow-wrap: anywhere; }
footer { margin-top: 40px; font-size: .8rem; color: var(--muted); }
.chartbox { overflow-x: auto; }
.hint { display: none; font-size: .82rem; color: var(--muted); margin: 4px 0; }
/* a phone: each row of a table becomes a card, each value under its heading; the chart keeps
   a readable size and scrolls sideways in its box */
@media (max-width: 700px) {
  main { padding: 14px 12px 32px; }
  h1 { font-size: 1.35rem; }
  table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; width: 100%; }
  table.cards thead { display: none; }
  table.cards tr { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 10px;
                   padding: 4px 0; }
  table.cards td { border: 0; padding: 3px 10px; min-width: 0; white-space: normal; }
  table.cards td.num { text-align: left; }
  table.cards td::before { content: attr(data-label); display: block; font-size: .72rem;
                           color: var(--muted); text-transform: uppercase;
                           letter-spacing: .04em; }
  table.cards td.empty { display: none; }
  /* the short cells (number, time, kind) share a line */
  table.cards td.num, table.cards td.when, table.cards td.kind, table.cards td.type,
  table.cards td.deadline, table.cards td.state {
    display: inline-block; width: auto; vertical-align: top; }
  tbody tr:nth-child(even) td { background: none; }
  .chartbox figure svg { width: 1000px; max-width: none; }
  .chartbox.graph figure svg { width: 720px; }
  .hint { display: block; }
  .outcome div { min-width: 0; }
  dl.meta { grid-template-columns: 1fr; gap: 0; }
  dl.meta dd { margin: 0 0 6px; }
}
@media print { details { display: block; } .scroll { overflow: visible; } }
"""

_GOOD = {"elected", "nominated", "nominee_certified", "decided_by_lot"}
_WARN = {
    "no_provision",
    "recount_required",
    "lot_required",
    "name_remains",
    "votes_disregarded",
    "votes_after_decision",
}
_BAD = {
    "filing_rejected",
    "request_rejected",
    "no_effect",
    "canvass_repeated",
    "oath_not_elected",
    "office_vacant",
}


def _when(at: datetime, tz: tzinfo, *, day_only: bool = False) -> str:
    local = at.astimezone(tz)
    return local.strftime("%a %Y-%m-%d" if day_only else "%a %Y-%m-%d %H:%M")


def _badge(kind: str) -> str:
    tone = (
        "good"
        if kind in _GOOD
        else "warn"
        if kind in _WARN
        else "bad"
        if kind in _BAD
        else "runoff"
        if "runoff" in kind
        else ""
    )
    return f'<span class="badge {tone}">{escape(word(RulingKind, kind))}</span>'


def _cards(head: Sequence[str], rows: Sequence[tuple[str, Sequence[tuple[str, str]]]]) -> str:
    """A table that becomes stacked cards on a narrow screen: each row a card, each cell
    labelled with its heading. ``rows`` are (the row's class, its cells as (HTML, class))."""
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = []
    for cls, cells in rows:
        tds = []
        for h, (html, cell_cls) in zip(head, cells, strict=True):
            klass = f' class="{cell_cls}"' if cell_cls else ""
            tds.append(f'<td{klass} data-label="{escape(h)}">{html}</td>')
        body.append(f"<tr{f' class={cls}' if cls else ''}>{''.join(tds)}</tr>")
    rows_html = "\n".join(body)
    return (
        f'<div class="scroll"><table class="cards"><thead><tr>{th}</tr></thead>'
        f"<tbody>\n{rows_html}\n</tbody></table></div>"
    )


def shown_path(source: str, cwd: Path | None = None) -> str:
    """The scenario file as the report names it: its path relative to the folder the command
    ran in (``cwd``) when it lies there, else its name alone (an absolute path would tell
    whoever reads a published report the layout of the author's disk).

    >>> shown_path("scenarios/runoff/a.yaml"), shown_path("/home/me/x/b.yaml", Path("/srv"))
    ('scenarios/runoff/a.yaml', 'b.yaml')
    >>> shown_path("/home/me/x/b.yaml", Path("/home/me"))
    'x/b.yaml'
    """
    path = Path(source)
    if not path.is_absolute():
        return path.as_posix()
    here = Path.cwd() if cwd is None else cwd
    if path.is_relative_to(here):
        return Path(os.path.relpath(path, here)).as_posix()
    return path.name


def _value(value: object, tz: tzinfo) -> str:
    """A field value as text: counts as "A 10, B 5", moments in local time."""
    if isinstance(value, datetime):
        return _when(value, tz)
    if isinstance(value, date | Decimal):
        return str(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple) and all(isinstance(v, tuple) and len(v) == 2 for v in value):
        return ", ".join(f"{k} {v}" for k, v in value)
    return str(value)


def _inline_svg(svg: str, prefix: str, label: str) -> str:
    """An SVG document as an element of the page: no prolog, ids made unique, scaled to fit."""
    body = svg[svg.index("<svg") :]
    body = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{prefix}-{m.group(1)}"', body)
    body = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}-{m.group(1)})", body)
    body = re.sub(r'href="#([^"]+)"', lambda m: f'href="#{prefix}-{m.group(1)}"', body)
    end = body.index(">")
    head = re.sub(r'\s(?:width|height)="[^"]*"', "", body[:end])
    return f'{head} role="img" aria-label="{escape(label)}"{body[end:]}'


# ------------------------------------------------------------------------------------------
# Sections
# ------------------------------------------------------------------------------------------


def _header(scenario: Scenario, result: Result, tz: tzinfo) -> str:
    meta = [("time zone", escape(scenario.timezone))]
    if scenario.source:
        meta.append(
            ("scenario file", f'<span class="id">{escape(shown_path(scenario.source))}</span>')
        )
    meta.append(("contests", str(len(result.contests))))
    meta.append(("events in the log", str(len(scenario.events))))
    if result.as_of is not None:
        meta.append(("as of", escape(_when(result.as_of, tz)) + " (later events are ignored)"))
    else:
        meta.append(("as of", "the end of the log"))
    if scenario.office_closed:
        meta.append(
            ("office closed", escape(", ".join(d.isoformat() for d in scenario.office_closed)))
        )
    changed = chosen_words(scenario.interpretations.changed())
    meta.append(("readings", escape(changed) if changed else "the default readings"))
    dl = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in meta)
    desc = (
        f'<p class="desc">{escape(" ".join(scenario.description.split()))}</p>'
        if scenario.description
        else ""
    )
    toc = "".join(
        f'<a href="#contest-{escape(c.id)}">{escape(c.title)} ({escape(contest_words(c)[1])})</a>'
        for c in result.contests
    )
    return (
        f'<header class="page"><h1>{escape(result.scenario)}</h1>{desc}'
        f'<dl class="meta">{dl}</dl>'
        '<nav class="toc"><a href="#outcomes">Outcomes</a><a href="#timeline">Timeline</a>'
        f"{toc}</nav>"
        f"</header>"
    )


def _names(names: Sequence[str]) -> str:
    return escape(", ".join(names)) if names else "&ndash;"


def _outcome_cell(words: str) -> str:
    return escape(words) if words else "&ndash;"


def _outcomes(result: Result) -> str:
    rows = []
    for c in result.contests:
        method, stage, state = contest_words(c)
        cells = [
            (
                f'<a href="#contest-{escape(c.id)}">{escape(c.title)}</a> '
                f'<span class="id">{escape(c.id)}</span>',
                "",
            ),
            (f"{escape(method)}, {escape(stage)}", "method"),
            (str(c.seats), "num"),
            (escape(state), "state"),
            *((_outcome_cell(w), "" if w else "empty") for _, w in outcome_words(c.outcome)),
        ]
        rows.append(("", cells))
    head = ["contest", "method", "seats", "state", *(p.label for p in Outcome().parts())]
    return f'<section id="outcomes"><h2>Outcomes</h2>{_cards(head, rows)}</section>'


def _outcome_card(c: ContestResult) -> str:
    o = c.outcome
    cells = "".join(
        f'<div><span class="label">{name}</span>{_outcome_cell(w)}</div>'
        for name, w in outcome_words(o)
    )
    return f'<div class="outcome{" pending" if o.pending else ""}">{cells}</div>'


def _marks(c: ContestResult, round_: int) -> dict[str, str]:
    """What a round's table says of a candidate: elected, nominated, or in the runoff."""
    o = c.outcome
    last = round_ == len(c.tallies) - 1
    marks: dict[str, str] = {}
    if round_ == 0:
        marks.update((n, "runoff") for n in o.runoff_candidates)
    if last:
        marks.update((n, "elected") for n in o.elected)
        marks.update((n, "nominated") for n in o.nominated)
    return marks


def _tallies(c: ContestResult) -> str:
    """Each round's votes with shares, the winners marked, and the threshold to pass."""
    if not c.tallies:
        return ""
    thresholds = [r for r in c.rulings if r.kind is RulingKind.MAJORITY_THRESHOLD]
    parts = []
    for i, tally in enumerate(c.tallies):
        total = sum(v for _, v in tally)
        marks = _marks(c, i)
        rows = []
        for name, votes in tally:
            share = f"{100 * votes / total:.1f}%" if total else "&ndash;"
            mark = marks.get(name)
            badge = f' <span class="badge {_TONE[mark]}">{mark}</span>' if mark else ""
            rows.append(
                f"<tr{' class=won' if mark in ('elected', 'nominated') else ''}>"
                f"<td>{escape(name)}{badge}</td><td class=num>{votes:,}</td>"
                f"<td class=num>{share}</td></tr>"
            )
        rows.append(
            f'<tr class="total"><td>total</td><td class=num>{total:,}</td>'
            "<td class=num>100%</td></tr>"
        )
        parts.append(f"<h3>{'Votes' if i == 0 else f'Votes, round {i + 1} (runoff)'}</h3>")
        if i < len(thresholds):
            t = Threshold.of(thresholds[i])
            parts.append(
                f'<p class="threshold">Threshold: {escape(t.what)}, more than '
                f"<b>{escape(t.limit)}</b> of {t.total:,} votes "
                f"({cite_links(thresholds[i].cites)})</p>"
            )
        parts.append(table(["candidate", "votes", "share"], rows, narrow=True))
    return "".join(parts)


_TONE = {"elected": "good", "nominated": "good", "runoff": "runoff"}


def _ruling_extra(r: Ruling, tz: tzinfo) -> str:
    bits = [f"{k}: {_value(v, tz)}" for k, v in r.extra]
    return f'<span class="extra">{escape("; ".join(bits))}</span>' if bits else ""


def _rulings(c: ContestResult, tz: tzinfo) -> str:
    rows = [
        (
            "",
            [
                (str(r.seq + 1) if r.seq >= 0 else "end of the log", "num"),
                (escape(_when(r.at, tz)), "when"),
                (_badge(r.kind.value), "kind"),
                (_names(r.candidates), "" if r.candidates else "empty"),
                (f"{escape(r.text)}{_ruling_extra(r, tz)}", "ruling"),
                (cite_links(r.cites), ""),
            ],
        )
        for r in c.rulings
    ]
    if not rows:
        return "<h3>Rulings</h3><p>No rulings yet.</p>"
    return "<h3>Rulings</h3>" + _cards(
        ["event #", "time", "kind", "candidates", "ruling", "citation"], rows
    )


def _remarks(c: ContestResult, tz: tzinfo) -> str:
    """The facts of the log off the statutory calendar (docs/results.md, remarks): nothing
    when every fact fits."""
    if not c.remarks:
        return ""
    rows = [
        (
            "",
            [
                (str(r.seq + 1), "num"),
                (escape(_when(r.at, tz)), "when"),
                (f'<span class="badge warn">{escape(label(r.kind))}</span>', "kind"),
                (escape(r.text), "ruling"),
                (cite_links(r.cites), ""),
            ],
        )
        for r in c.remarks
    ]
    return (
        "<h3>Remarks</h3>"
        '<p class="desc">Facts of the log that do not fit the statutory calendar; the replay '
        "follows the log, and no ruling changes.</p>"
        + _cards(["event #", "time", "kind", "remark", "citation"], rows)
    )


def _decisions(c: ContestResult, tz: tzinfo) -> str:
    """The decisions the contest waits on that nobody has recorded: one row per answer open,
    with what it leads to (docs/history.md)."""
    if not c.decisions:
        return ""
    rows = []
    for p in c.decisions:
        what = p.heading
        for o in p.options:
            rows.append(
                (
                    "",
                    [
                        (escape(what), ""),
                        (escape(label(p.by)), ""),
                        (escape(_when(p.since, tz)), "when"),
                        (cite_links(p.cites), ""),
                        (escape(label(o.choice)), ""),
                        (escape(o.text), ""),
                    ],
                )
            )
    return (
        "<h3>Decisions still to be made</h3>"
        '<p class="desc">The log records no answer yet; nothing is decided for the board.</p>'
        + _cards(["decision", "by", "since", "citation", "if", "then"], rows)
    )


def _futures(branches: Sequence[BranchWords]) -> str:
    """What can happen from here (the contest's futures, ``electsim next``): one item a branch,
    its condition, its outcome and the citations of the rulings it brings."""
    if not branches:
        return ""
    items = "".join(
        f"<li><b>{escape(b.condition)}</b>: {escape(b.outcome)}"
        + (f" ({cite_links(statute(x) for x in b.cites)})" if b.cites else "")
        + "</li>"
        for b in branches
    )
    return (
        f'<h3 class="futures">{escape(HEADING)}</h3><p class="desc">{escape(HOW)}</p>'
        f'<ul class="futures">{items}</ul>'
    )


def _deadlines(c: ContestResult, tz: tzinfo) -> str:
    rows = []
    for d in c.deadlines:
        moved = (
            f"{escape(_when(d.moved_from, tz, day_only=d.all_day))}"
            f'<span class="extra">{escape(d.why_moved or "")}</span>'
            if d.moved_from is not None
            else "&ndash;"
        )
        rows.append(
            (
                "",
                [
                    (escape(label(d.kind)), "deadline"),
                    (escape(_when(d.due, tz, day_only=d.all_day)), "when"),
                    (cite_links(d.cites), ""),
                    (moved, "" if d.moved_from is not None else "empty"),
                    (escape(d.how), ""),
                    (escape(d.state_words()), "state"),
                ],
            )
        )
    return "<h3>Deadlines</h3>" + _cards(
        ["deadline", "due (local time)", "citation", "moved from (G.S. 103-5)", "how", "now"], rows
    )


def _events(events: Sequence[Event], as_of: datetime | None, tz: tzinfo) -> str:
    rows = []
    for ev in events[:MAX_EVENT_ROWS]:
        ignored = as_of is not None and ev.known_at > as_of
        note = " (after the as-of time: not known yet)" if ignored else ""
        rows.append(
            (
                "ignored" if ignored else "",
                [
                    (str(ev.index + 1), "num"),
                    (escape(_when(ev.known_at, tz)), "when"),
                    (escape(event_words(ev)) + escape(note), "event"),
                ],
            )
        )
    more = len(events) - MAX_EVENT_ROWS
    tail = f"<p>{more:,} more events are not shown.</p>" if more > 0 else ""
    if not rows:
        return "<h3>Events</h3><p>No events in the log for this contest.</p>"
    return (
        "<h3>Events</h3>"
        + _cards(["#", "known to the board (local time)", "what happened"], rows)
        + tail
    )


def _graph(c: ContestResult, n_contests: int, index: int) -> str:
    from simulator.views.charts.figures import figure_svg

    svg = _inline_svg(
        figure_svg(draw_graph(replay_graph(c))),
        f"g{index}",
        f"state machine path of {c.title}",
    )
    steps = "".join(
        f"<li>{escape(word(Phase, a))} &rarr; {escape(word(Phase, b))} "
        f"on <i>{escape(type_words(t))}</i></li>"
        for a, t, b in c.path
    )
    path = (
        f'<ol class="path">{steps}</ol>'
        if steps
        else "<p>The contest is still in its first phase.</p>"
    )
    is_open = " open" if n_contests <= OPEN_GRAPHS else ""
    return (
        f"<h3>State machine</h3>{path}<details{is_open}><summary>Drawing of the path</summary>"
        '<p class="hint">The drawing is wider than this screen: scroll it sideways in its box.'
        f'</p><div class="chartbox graph"><figure>{svg}<figcaption>The states this contest went '
        "through, each step numbered with what moved it and its citation.</figcaption></figure>"
        "</div></details>"
    )


def _contest(
    c: ContestResult,
    scenario: Scenario,
    result: Result,
    tz: tzinfo,
    index: int,
    branches: Sequence[BranchWords] = (),
) -> str:
    events = [ev for ev in scenario.events if ev.contest == c.id]
    seats = f"{c.seats} seat{'s' if c.seats != 1 else ''}"
    method, stage, state = contest_words(c)
    return (
        f'<section class="contest" id="contest-{escape(c.id)}">'
        f'<h2>{escape(c.title)}, {escape(stage)} <span class="id">{escape(c.id)}</span></h2>'
        f'<p class="desc">{escape(method)}, {escape(stage)}, {seats}; '
        f"state: <b>{escape(state)}</b></p>"
        f"{_outcome_card(c)}{_decisions(c, tz)}{_futures(branches)}{_tallies(c)}"
        f"{_rulings(c, tz)}{_remarks(c, tz)}"
        f"{_deadlines(c, tz)}"
        f"{_events(events, result.as_of, tz)}{_graph(c, len(result.contests), index)}"
        "</section>"
    )


def render_report(
    scenario: Scenario,
    result: Result,
    futures: Mapping[str, Sequence[BranchWords]] | None = None,
) -> str:
    """The report as one self-contained HTML page (a string); ``futures`` (the branches in words
    by contest id) give a contest its section "What can happen from here"."""
    from simulator.views.charts.figures import figure_svg

    tz = scenario.tz
    chart = _inline_svg(
        figure_svg(plot_timeline(result, scenario=scenario, width=CHART_PX, dpi=CHART_DPI)),
        "chart",
        f"timeline of {result.scenario}",
    )
    contests = "".join(
        _contest(c, scenario, result, tz, i, (futures or {}).get(c.id, ()))
        for i, c in enumerate(result.contests)
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(result.scenario)} &ndash; electsim report</title>"
        f"<style>{CSS}</style></head><body><main>"
        f"{_header(scenario, result, tz)}{_outcomes(result)}"
        '<section id="timeline"><h2>Timeline</h2><p class="hint">The chart is wider than this '
        "screen: scroll it sideways in its box.</p>"
        f'<div class="chartbox"><figure>{chart}<figcaption>Bands are periods, '
        "markers events, ticks deadlines (with their citations); a red arrow is a G.S. 103-5 "
        "move to the next day the office is open; the votes and the threshold are shown where "
        "each result was declared; a shaded strip folds days where nothing happened."
        "</figcaption></figure></div></section>"
        f"{contests}"
        "<footer>Made by electsim. Citations link the sections of the General Statutes on "
        "ncleg.gov; this page itself loads nothing from the network.</footer>"
        "</main></body></html>\n"
    )


def write_report(
    scenario: Scenario,
    result: Result,
    path: str | Path,
    futures: Mapping[str, Sequence[BranchWords]] | None = None,
) -> Path:
    """Write :func:`render_report` to ``path`` (UTF-8); returns the path."""
    out = Path(path)
    out.write_text(render_report(scenario, result, futures), encoding="utf-8")
    return out
