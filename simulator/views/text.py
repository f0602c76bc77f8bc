"""The readable timeline printed by ``electsim replay`` (aligned columns, local times)."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from simulator.engine.result import ContestResult, Result
from simulator.law.labels import label
from simulator.law.readings import chosen_words
from simulator.law.vocab import DeadlineKind, RunoffStatus
from simulator.model.events import Event
from simulator.views.branches import HEADING, BranchWords, branch_lines
from simulator.views.words import contest_words, entry_words, events_by_index, outcome_words

_COLOURS = {
    "event": "\033[36m",
    "ruling": "\033[1;33m",
    "deadline": "\033[35m",
    "remark": "\033[31m",
}
_RESET = "\033[0m"


def _when(at: datetime) -> str:
    return at.strftime("%a %Y-%m-%d %H:%M")


def format_outcome(c: ContestResult) -> list[str]:
    parts = outcome_words(c.outcome)
    width = max(len(name) for name, _ in parts) + 1
    lines = [f"  {(name + ':').ljust(width)} {words or '-'}" for name, words in parts]
    for i, t in enumerate(c.tallies):
        label = "votes" if i == 0 else "runoff votes"
        lines.append(f"  {label}: " + ", ".join(f"{n} {v}" for n, v in t))
    return lines


def format_contest(
    c: ContestResult,
    *,
    colour: bool = False,
    width: int | None = None,
    events: Mapping[int, Event] | None = None,
    branches: Sequence[BranchWords] = (),
) -> str:
    """One contest's timeline and outcome, in words; ``events`` (the log's events by index)
    let each event's line say what it records in words, with both dates of one the board
    learned of later; ``branches``, what can happen from here (its futures), end it."""
    method, stage, state = contest_words(c)
    seats = f"{c.seats} seat{'s' if c.seats != 1 else ''}"
    head = f"{c.title} [{c.id}] - {method}, {stage}, {seats}: {state}"
    out = [head, "=" * min(len(head), 100)]
    what_width = max((len(t.what) for t in c.timeline), default=8)
    votes = _votes_held(c)
    for t in c.timeline:
        label = entry_words(t, events)
        if t.what == "event" and t.kind in _DEPARTURES:
            # the day it happened (a death the board learned of later: the day of the death)
            ev = events.get(t.seq) if events is not None and t.seq is not None else None
            label += _after_vote(t.at if ev is None else ev.at, votes)
        if t.cite:
            label += f"  [{t.cite}]"
        what = t.what.ljust(what_width)
        if colour:
            what = _COLOURS.get(t.what, "") + what + _RESET
        indent = len(_when(t.at)) + 2 + what_width + 2
        if width is not None and indent + len(label) > width:
            lines = textwrap.wrap(label, max(width - indent, 30)) or [""]
            label = ("\n" + " " * indent).join(lines)
        out.append(f"{_when(t.at)}  {what}  {label}")
    out.append("Outcome:")
    out.extend(format_outcome(c))
    out.extend(format_decisions(c, width))
    if branches:
        out.append(f"{HEADING}:")
        out.extend("  - " + _wrapped(line, width, 4) for line in branch_lines(branches))
    return "\n".join(out)


#: the events of a candidate leaving the race
_DEPARTURES = frozenset({"candidate_died", "candidate_withdrew", "candidate_disqualified"})
_FIRST_VOTES = frozenset({DeadlineKind.ELECTION_DAY, DeadlineKind.PRIMARY_DAY})
_SECOND_VOTES = frozenset({DeadlineKind.RUNOFF_ELECTION, DeadlineKind.SECOND_PRIMARY})


def _votes_held(c: ContestResult) -> list[tuple[datetime, str]]:
    """When each vote of the contest was over (the end of its day), and the vote in words
    ("election of Tue 2027-10-05"): the first, and the runoff or second primary once called. A
    candidate may leave the race after a vote (it is no remark), and the timeline says so."""
    kinds = _FIRST_VOTES
    if c.outcome.runoff_status in (RunoffStatus.CALLED, RunoffStatus.HELD):
        kinds = kinds | _SECOND_VOTES
    return sorted(
        (d.due + timedelta(days=1), f"{label(d.kind).removesuffix(' day')} of {d.due:%a %Y-%m-%d}")
        for d in c.deadlines
        if d.kind in kinds
    )


def _after_vote(at: datetime, votes: list[tuple[datetime, str]]) -> str:
    """`` (after the election of ...)`` for a departure at ``at`` after a vote, else ""."""
    done = [words for over, words in votes if over <= at]
    return f" (after the {done[-1]})" if done else ""


def format_decisions(c: ContestResult, width: int | None = None) -> list[str]:
    """The decisions the contest waits on that nobody has recorded, in words: what, about whom,
    by whom, since when and under which provisions, then each answer and what it leads to."""
    if not c.decisions:
        return []
    out = ["Decisions still to be made:"]
    for p in c.decisions:
        head = f"{p.heading}, by {label(p.by)}, since {_when(p.since)}  [{p.cite}]"
        out.append("  " + _wrapped(head, width, 2))
        for o in p.options:
            out.append("    " + _wrapped(f"if {label(o.choice)}: {o.text}", width, 4))
    return out


def _wrapped(line: str, width: int | None, indent: int) -> str:
    """``line`` after ``indent`` spaces, wrapped to ``width`` under itself (two more spaces)."""
    if width is None or len(line) + indent <= width:
        return line
    lines = textwrap.wrap(line, max(width - indent - 2, 30))
    return ("\n" + " " * (indent + 2)).join(lines)


def format_result(
    result: Result,
    *,
    colour: bool = False,
    width: int | None = None,
    events: Sequence[Event] | None = None,
    futures: Mapping[str, Sequence[BranchWords]] | None = None,
) -> str:
    """The readable timeline; with ``width``, long labels wrap under themselves; ``events``
    (the scenario's log) words each event's line from the event itself; ``futures`` (by contest
    id) end a contest with what can happen from here."""
    by_index = events_by_index(events) if events is not None else None
    parts = [f"# {result.scenario}"]
    if result.as_of is not None:
        parts.append(f"(as of {_when(result.as_of)})")
    if result.readings:
        said = f"readings other than the defaults: {chosen_words(result.readings)}"
        parts.append(_wrapped(said, width, 0))
    parts.extend(
        format_contest(
            c, colour=colour, width=width, events=by_index, branches=(futures or {}).get(c.id, ())
        )
        for c in result.contests
    )
    return "\n\n".join(parts) + "\n"
