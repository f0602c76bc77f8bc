"""What the text timeline and the report say for a result's identifiers and events.

A result keeps identifiers (``awaiting_votes``, ``runoff_request``): the JSON is for programs.
People read words (:func:`simulator.law.labels.label`): "awaiting the vote", "runoff request
deadline". An event is written as a short phrase ("candidate filed: Ann (party REP)"), and an
event the board learned of later than it happened carries both dates: "candidate died: Bob, on
Fri 2027-10-01 (board notified Sat 2027-10-02 09:00)", since the law counts some periods from
the death and others from the notice.

>>> word(Phase, "awaiting_votes"), word(DeadlineKind, "filing_closes"), word(Phase, "odd")
('awaiting the vote', 'filing closes', 'odd')
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime, time
from decimal import Decimal
from enum import Enum

from simulator.engine.result import ContestResult, Outcome, TimelineEntry
from simulator.law.labels import label, trigger_words
from simulator.law.machine import Phase
from simulator.law.vocab import DeadlineKind, Method, RemarkKind, RulingKind, RunoffStatus, Stage
from simulator.model.events import EVENT_TYPES, Event

__all__ = [
    "contest_words",
    "entry_words",
    "event_words",
    "events_by_index",
    "moment",
    "outcome_words",
    "type_words",
    "word",
]

#: the fields that name the person an event is about: written first, after a colon
_NAME_FIELDS = ("candidate", "winner")


def word(vocabulary: type[Enum], value: str) -> str:
    """The words of ``value`` (an identifier of ``vocabulary``); an unknown one as it is."""
    try:
        return label(vocabulary(value))
    except (ValueError, KeyError):
        return value


def moment(at: datetime, *, day_only: bool = False) -> str:
    """A moment as every line of the text timeline writes it: ``Sat 2027-10-02 09:00``
    (``day_only``: ``Sat 2027-10-02``)."""
    return at.strftime("%a %Y-%m-%d" if day_only else "%a %Y-%m-%d %H:%M")


def _day_or_moment(at: datetime) -> str:
    return moment(at, day_only=at.timetz().replace(tzinfo=None) == time(0))


def type_words(event_type: str) -> str:
    """An event type's words: ``candidate_died`` is "candidate died"; a moment no event records
    (a trigger of the state machine) too: ``runoff_request_passes`` is "runoff request time
    passes" (:func:`~simulator.law.labels.trigger_words`)."""
    return trigger_words(event_type)


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, datetime):
        return moment(value)
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, tuple) and all(isinstance(v, tuple) and len(v) == 2 for v in value):
        return ", ".join(f"{n} {c}" for n, c in value)
    return str(value)


def event_words(ev: Event) -> str:
    """An event as a phrase: its type, whom it is about, its other fields in words, and, for an
    event the board learned of later (a death's ``notice_at``), the day it happened and when the
    board was notified.

    >>> from datetime import datetime, timedelta, timezone
    >>> from simulator.model.events import CandidateDied, CandidateFiled
    >>> et = timezone(timedelta(hours=-4))
    >>> event_words(CandidateFiled(at=datetime(2027, 7, 6, 10, tzinfo=et), contest="c",
    ...     candidate="Ann", party="REP"))
    'candidate filed: Ann (party REP)'
    >>> event_words(CandidateDied(at=datetime(2027, 10, 1, tzinfo=et), contest="c",
    ...     candidate="Bob Jones", notice_at=datetime(2027, 10, 2, 9, tzinfo=et)))
    'candidate died: Bob Jones, on Fri 2027-10-01 (board notified Sat 2027-10-02 09:00)'
    """
    fields = [(f, getattr(ev, f, None)) for f in ev.fields]
    text = _phrase(ev.type, fields)
    if ev.known_at != ev.at:
        text += f", on {_day_or_moment(ev.at)} (board notified {moment(ev.known_at)})"
    return text + _others(fields)


def _phrase(event_type: str, fields: Sequence[tuple[str, object]]) -> str:
    """An event's type in words and whom (or what counts) it is about."""
    names: list[str] = []
    for f, v in fields:
        if v is None:
            continue
        if f == "winner":
            names.append(f"won by {_value(v)}")
        elif f in _NAME_FIELDS or f == "counts":
            names.append(_value(v))
    return type_words(event_type) + (": " + ", ".join(names) if names else "")


def _others(fields: Sequence[tuple[str, object]]) -> str:
    """An event's other fields in words, in brackets ("" when it has none)."""
    others: list[str] = []
    for f, v in fields:
        if v is None or f == "notice_at" or f in _NAME_FIELDS or f in ("winner", "counts"):
            continue
        sep = ": " if isinstance(v, bool) else " "  # "enough time: no", "party REP"
        others.append(f"{f.replace('_', ' ')}{sep}{_value(v)}")
    return f" ({'; '.join(others)})" if others else ""


def _from_label(entry: TimelineEntry) -> str:
    """An event's line in words from the line a result keeps (``candidate died candidate=Ann
    notice_at=2027-10-02 09:00:00-04:00``), for a view that has the result but not the log: the
    fields are read back by their names, in the order the event type writes them.

    >>> from datetime import datetime
    >>> line = "candidate died candidate=Bob Jones notice_at=2027-10-02 09:00:00-04:00"
    >>> _from_label(TimelineEntry(datetime(2027, 10, 2, 9), "event", line, kind="candidate_died"))
    'candidate died: Bob Jones (board notified Sat 2027-10-02 09:00)'
    """
    cls = EVENT_TYPES.get(entry.kind)
    if cls is None or not cls.fields:
        return entry.label
    split = re.split(rf" ({'|'.join(map(re.escape, cls.fields))})=", entry.label)
    values: dict[str, object] = dict(zip(split[1::2], split[2::2], strict=True))
    notice = values.get("notice_at")
    for f, v in values.items():
        if v in ("True", "False"):
            values[f] = v == "True"
    fields = [(f, values.get(f)) for f in cls.fields]
    text = _phrase(entry.kind, fields)
    if isinstance(notice, str):
        try:
            text += f" (board notified {moment(datetime.fromisoformat(notice))})"
        except ValueError:
            text += f" (board notified {notice})"
    return text + _others(fields)


def entry_words(entry: TimelineEntry, events: Mapping[int, Event] | None = None) -> str:
    """A timeline line in words: a deadline's or ruling's kind in words before its text, an
    event as :func:`event_words` says it when its event is at hand (otherwise read back from
    the line the result keeps: the date of a late-noticed death is then not known)."""
    if entry.what in ("deadline", "ruling"):
        vocabulary: type[Enum] = DeadlineKind if entry.what == "deadline" else RulingKind
        prefix = f"{entry.kind}: "
        if entry.label.startswith(prefix):
            return f"{word(vocabulary, entry.kind)}: {entry.label[len(prefix) :]}"
        return entry.label
    if entry.what == "remark":
        prefix = f"{entry.kind}: "
        if entry.label.startswith(prefix):
            return f"{word(RemarkKind, entry.kind)}: {entry.label[len(prefix) :]}"
    if entry.what != "event":
        return entry.label
    ev = events.get(entry.seq) if events is not None and entry.seq is not None else None
    return event_words(ev) if ev is not None else _from_label(entry)


def outcome_words(o: Outcome) -> list[tuple[str, str]]:
    """The outcome's parts (label, words) in the order every view shows them, the runoff and
    what the contest waits for in words ("" where there is nobody to name)."""
    out = []
    for p in o.parts():
        words = p.words
        if p.label == "runoff":
            words = label(o.runoff_status)
            if o.runoff_candidates and o.runoff_status is not RunoffStatus.NONE:
                words += f" ({', '.join(o.runoff_candidates)})"
        elif p.label == "pending":
            words = label(o.pending) if o.pending is not None else "nothing"
        out.append((p.label, words))
    return out


def contest_words(c: ContestResult) -> tuple[str, str, str]:
    """A contest's method, stage and state in words."""
    return word(Method, c.method), word(Stage, c.stage), word(Phase, c.state)


def events_by_index(events: Sequence[Event]) -> dict[int, Event]:
    """The events of a log by their index (what a timeline line's ``seq`` names)."""
    return {ev.index: ev for ev in events}
