"""What a lane of a timeline holds, read from one contest's result: its bands, deadline
ticks, event marks, the votes at each declared result, its title and its outcome, in x
units (matplotlib date numbers, or days from the election)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, datetime, timedelta, tzinfo
from fractions import Fraction

import attrs

from simulator.engine.result import ContestResult, Ruling, Threshold
from simulator.law.labels import label
from simulator.law.vocab import DeadlineKind, DeadlineState, RulingKind, Stage
from simulator.model.events import CandidateDied, Event
from simulator.views.charts.dimensions import LANE_TITLE_PT, OUTCOME_PT, SUBTITLE_PT
from simulator.views.charts.styles import mark_of
from simulator.views.charts.text_measure import shown_name, wrap_text
from simulator.views.words import type_words


@attrs.frozen
class Band:
    """A period drawn as a band (its key in :data:`~simulator.views.charts.styles.BANDS`), from
    ``start`` to ``end`` in x units."""

    key: str
    start: float
    end: float


@attrs.frozen
class DeadlineTick:
    """A deadline drawn in a lane: where it falls, its label, where a G.S. 103-5 move took it
    from, and whether it is a whole day."""

    x: float
    lines: tuple[str, ...]  # the label: the deadline's kind, then one citation a line
    moved_from: float | None
    all_day: bool
    void: bool = False  # it no longer applies (a runoff's day once no runoff is held)

    @property
    def key(self) -> tuple[float, tuple[str, ...]]:
        return (round(self.x, 6), self.lines)


@attrs.frozen
class LaneMark:
    """The mark of one kind of event on one day in a lane, its caption, and how many events it
    stands for; a death's mark also knows the day the board heard of it, when later
    (``notice``), which no fold of the axis may hide."""

    x: float
    kind: str
    caption: str
    count: int = 1
    notice: float | None = None


@attrs.frozen
class Lane:
    """What one contest's lane holds, in x units, ready to be laid out and drawn."""

    title: tuple[str, ...]
    subtitle: tuple[str, ...]
    outcome: tuple[str, ...]
    outcome_colour: str
    bands: tuple[Band, ...]
    printed: float | None
    ticks: tuple[DeadlineTick, ...]
    marks: tuple[LaneMark, ...]
    votes: tuple[tuple[float, tuple[str, ...]], ...]  # (x, lines) at each declared result
    as_of: float | None


XFunc = Callable[[datetime], float]


#: The rulings after which the votes of a round are shown.
DECLARING = frozenset(
    {
        RulingKind.ELECTED,
        RulingKind.NOMINATED,
        RulingKind.RUNOFF_AVAILABLE,
        RulingKind.RUNOFF_UNLESS_WITHDRAWN,
        RulingKind.NO_RUNOFF,
        RulingKind.RECOUNT_REQUIRED,
        RulingKind.OFFICE_VACANT,
        RulingKind.VOTES_DISREGARDED,
        RulingKind.VOTES_AFTER_DECISION,
    }
)


def reference_day(c: ContestResult) -> datetime | None:
    """The day a contest's "days from election" count from: its primary or election day."""
    order = (
        (DeadlineKind.PRIMARY_DAY, DeadlineKind.ELECTION_DAY)
        if c.stage == Stage.PRIMARY.value
        else (DeadlineKind.ELECTION_DAY, DeadlineKind.PRIMARY_DAY)
    )
    for kind in order:
        for d in c.deadlines:
            if d.kind is kind:
                return d.due
    return None


#: A filing in an election lane by a nominee of the primary before it: the candidate was
#: carried from the primary (nobody files for the election itself).
CARRIED = "nominee_carried"


def _day(t: datetime, zone: tzinfo) -> str:
    """A day as a reader writes it: "Oct 1"."""
    local = t.astimezone(zone)
    return f"{local:%b} {local.day}"


def _marks(
    c: ContestResult,
    x: XFunc,
    zone: tzinfo,
    events: Callable[[int], Event | None] = lambda seq: None,
    carried: frozenset[str] = frozenset(),
) -> tuple[LaneMark, ...]:
    """One mark per kind of event and local day, captioned with the count when several.

    A death the board heard of later is marked on the day of the death (``events`` gives the
    logged event of a timeline entry, which knows both days) and captioned with both; a filing
    in an election by one of ``carried`` (the nominees of its primary) is marked as carried
    from the primary, not as a filing."""
    rejected = {
        (r.at, name)
        for r in c.rulings
        if r.kind is RulingKind.FILING_REJECTED
        for name in r.candidates
    }
    groups: dict[tuple[str, date], list[tuple[datetime, str]]] = {}
    out = []
    for t in c.timeline:
        if t.what == "event":
            kind = t.kind
            who = t.candidates[0] if len(t.candidates) == 1 else ""
            if kind == "candidate_filed" and (t.at, who) in rejected:
                kind = "filing_rejected"
            elif kind == "candidate_filed" and who and who in carried:
                kind = CARRIED
            ev = events(t.seq) if t.seq is not None and kind == "candidate_died" else None
            notice = ev.notice_at if isinstance(ev, CandidateDied) else None
            if ev is not None and notice is not None and _day(ev.at, zone) != _day(notice, zone):
                # its own mark: the day of the death, and the day the board heard of it
                caption = f"{shown_name(who)} died {_day(ev.at, zone)}".lstrip()
                caption += f" (notified {_day(notice, zone)})"
                out.append(LaneMark(x(ev.at), kind, caption, notice=x(notice)))
                continue
            groups.setdefault((kind, t.at.astimezone(zone).date()), []).append((t.at, who))
    for (kind, _), items in groups.items():
        one, several = mark_of(kind)[3:]
        names = list(dict.fromkeys(who for _, who in items if who))
        if len(items) == 1 or (len(names) == 1 and "{name}" in one):
            caption = one.format(name=shown_name(names[0]) if names else "", kind=type_words(kind))
        else:
            caption = several.format(n=len(items), kind=type_words(kind))
        at = min(a for a, _ in items) if len(items) > 1 else items[0][0]
        out.append(LaneMark(x(at), kind, caption.strip(), len(items)))
    return _one_caption_a_run(sorted(out, key=lambda m: m.x))


#: Kinds whose marks on neighbouring days are captioned once, with their number.
BULK = {
    "candidate_filed": "{n} filed",
    "returns_reported": "returns ({n} reports)",
    CARRIED: "{n} nominees carried from the primary",
}


def _one_caption_a_run(marks: list[LaneMark]) -> tuple[LaneMark, ...]:
    """Marks of a bulk kind (filings, returns) on days at most three apart make a run: its
    first mark is captioned with the run's count ("15 filed"), the others not at all."""
    out = list(marks)
    for kind, template in BULK.items():
        run: list[int] = []
        for i, m in enumerate([*out, None]):
            if m is not None and m.kind == kind and (not run or m.x - out[run[-1]].x <= 3.0):
                run.append(i)
                continue
            if len(run) > 1:
                total = sum(out[j].count for j in run)
                out[run[0]] = attrs.evolve(out[run[0]], caption=template.format(n=total))
                for j in run[1:]:
                    out[j] = attrs.evolve(out[j], caption="")
            run = [i] if m is not None and m.kind == kind else []
    return tuple(out)


def _votes(c: ContestResult, x: XFunc) -> tuple[tuple[float, tuple[str, ...]], ...]:
    """The votes of each round, with shares and the threshold, where the round was declared."""
    thresholds = [r for r in c.rulings if r.kind is RulingKind.MAJORITY_THRESHOLD]
    declared = [r for r in c.rulings if r.kind in DECLARING]
    winners = set(c.outcome.elected) | set(c.outcome.nominated)
    out = []
    for i, tally in enumerate(c.tallies):
        if not tally:
            continue
        threshold = thresholds[i] if i < len(thresholds) else None
        when = threshold.at if threshold is not None else None
        if when is None:
            later = [r.at for r in declared]
            when = later[min(i, len(later) - 1)] if later else None
        if when is None:
            continue
        total = sum(v for _, v in tally)
        head = "runoff votes" if i else "votes"
        lines = [head]
        shown = tally[: max(c.seats * 2 + 1, 4)]
        for name, v in shown:
            share = f" {100 * v / total:.1f}%" if total else ""
            mark = " *" if name in winners and i == len(c.tallies) - 1 else ""
            lines.append(f"{shown_name(name)} {v:,}{share}{mark}")
        rest = tally[len(shown) :]
        if rest:
            others = "1 other" if len(rest) == 1 else f"{len(rest)} others"
            lines.append(f"{others} {sum(v for _, v in rest):,}")
        if threshold is not None:
            t = Threshold.of(threshold)
            lines.append(f"{t.what}: more than {t.limit} of {t.total:,}")
            if i == len(c.tallies) - 1:
                lines.extend(_star_reason(c, tally, threshold))
        out.append((x(when), tuple(lines)))
    return tuple(out)


def _star_reason(
    c: ContestResult, tally: Sequence[tuple[str, int]], threshold: Ruling
) -> tuple[str, ...]:
    """Where a starred candidate has no more than the threshold, why they were declared all
    the same, from the ruling that declared them ("* elected without a majority: no runoff
    was requested in time"); nothing where every star is above it (the legend says what a
    star means)."""
    try:
        limit = Fraction(str(threshold.get("threshold")))
    except (TypeError, ValueError, ZeroDivisionError):
        return ()
    winners = set(c.outcome.elected) | set(c.outcome.nominated)
    below = [name for name, v in tally if name in winners and v <= limit]
    if not below:
        return ()
    kinds = (RulingKind.ELECTED, RulingKind.NOMINATED)
    ruling = next((r for r in c.rulings if r.kind in kinds and below[0] in r.candidates), None)
    if ruling is None:
        return ()
    verb = "nominated" if ruling.kind is RulingKind.NOMINATED else "elected"
    what = Threshold.of(threshold).what
    reason = ruling.text.rsplit(": ", 1)[0] if ": " in ruling.text else ""
    reason = reason or ", ".join(str(cite) for cite in ruling.cites)
    return (f"* {verb} without a {what}: {reason}",)


def outcome_lines(c: ContestResult, width_in: float) -> tuple[tuple[str, ...], str]:
    """The outcome written at the end of a lane, in full, wrapped to ``width_in``; its colour."""
    o = c.outcome
    parts = []
    for part in o.parts():
        if part.notable:
            words = part.words
            for name in part.names:  # a name is never broken across lines
                words = words.replace(name, shown_name(name).replace(" ", "\u00a0"))
            parts.append(f"{part.label}: {words}")
    if not parts:
        parts.append(c.state.replace("_", " "))
    if o.pending is not None:
        colour = "#b35806"
    elif o.vacant_seats and not (o.elected or o.nominated):
        colour = "#b2182b"
    else:
        colour = "#1b7837"
    lines = [
        line
        for part in parts
        for line in wrap_text(part, width_in, OUTCOME_PT, bold=True, indent="  ")
    ]
    return tuple(lines), colour


def lane_of(
    c: ContestResult,
    x: XFunc,
    as_of: datetime | None,
    zone: tzinfo,
    left: float,
    right: float,
    *,
    events: Callable[[int], Event | None] = lambda seq: None,
    carried: frozenset[str] = frozenset(),
) -> Lane:
    """A contest's lane; ``events`` and ``carried`` as for :func:`_marks`. The filing period of
    an election whose candidates were carried from its primary is the primary's: its band says
    so."""
    marks = _marks(c, x, zone, events, carried)
    shared = any(m.kind == CARRIED for m in marks)
    bands = tuple(
        Band(
            "filing_primary" if shared and p.kind.value == "filing" else p.kind.value,
            x(p.start),
            x(p.end),
        )
        for p in c.periods
    )
    printed = [t.at for t in c.timeline if t.what == "event" and t.kind == "ballots_printed"]
    ticks = []
    for d in c.deadlines:
        due = d.due + timedelta(hours=12) if d.all_day else d.due
        lines = (label(d.kind), *(str(cite) for cite in d.cites))
        moved = x(d.moved_from) if d.moved_from is not None else None
        void = d.state is DeadlineState.VOID
        ticks.append(DeadlineTick(x(due), lines, moved, d.all_day, void))
    outcome, colour = outcome_lines(c, right - 0.2)
    seats = f"{c.seats} seat{'s' if c.seats != 1 else ''}"
    return Lane(
        title=wrap_text(c.title, left - 0.2, LANE_TITLE_PT, bold=True),
        subtitle=wrap_text(f"{c.id} | {c.method}, {c.stage}, {seats}", left - 0.2, SUBTITLE_PT),
        outcome=outcome,
        outcome_colour=colour,
        bands=bands,
        printed=x(min(printed)) if printed else None,
        ticks=tuple(ticks),
        marks=marks,
        votes=_votes(c, x),
        as_of=x(as_of) if as_of is not None else None,
    )


def lane_xs(lane: Lane) -> list[float]:
    """Every x a lane draws something at: the time axis must reach each of them."""
    xs = [t.x for t in lane.ticks]
    xs.extend(t.moved_from for t in lane.ticks if t.moved_from is not None)
    xs.extend(m.x for m in lane.marks)
    xs.extend(m.notice for m in lane.marks if m.notice is not None)
    xs.extend(v[0] for v in lane.votes)
    for b in lane.bands:
        xs.extend((b.start, b.end))
    if lane.as_of is not None:
        xs.append(lane.as_of)
    return xs


def clip_lane(lane: Lane, lo: float | None, hi: float | None) -> Lane:
    """The lane with what falls outside [lo, hi] left out (bands cut at the edges)."""

    def inside(x: float) -> bool:
        return (lo is None or x >= lo) and (hi is None or x <= hi)

    bands = []
    for b in lane.bands:
        start = b.start if lo is None else max(b.start, lo)
        end = b.end if hi is None else min(b.end, hi)
        if start < end:
            bands.append(Band(b.key, start, end))
    printed = lane.printed
    if printed is not None and hi is not None and printed > hi:
        printed = None
    elif printed is not None and lo is not None:
        printed = max(printed, lo)
    return attrs.evolve(
        lane,
        bands=tuple(bands),
        printed=printed,
        ticks=tuple(
            attrs.evolve(t, moved_from=t.moved_from if inside(t.moved_from or t.x) else None)
            for t in lane.ticks
            if inside(t.x)
        ),
        marks=tuple(
            attrs.evolve(m, notice=m.notice if inside(m.notice or m.x) else None)
            for m in lane.marks
            if inside(m.x)
        ),
        votes=tuple(v for v in lane.votes if inside(v[0])),
        as_of=lane.as_of if lane.as_of is not None and inside(lane.as_of) else None,
    )
