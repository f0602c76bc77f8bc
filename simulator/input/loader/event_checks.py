"""The pieces the validation of an event family is made of: :class:`NamedEvents`, what the
event log has named so far (who filed in each contest, and where each other name was first
used), and the validators shared by families, which spell a candidate's name once per scenario
(:class:`simulator.input.loader.names.Spellings`) and record it.

An event validator (:data:`EventValidator`) runs once an event's fields have each been read
(by :data:`FIELD_READERS`), its contest known: it checks what concerns the event as a whole
and records the names it uses. It reports what is wrong to the log's problems; the event is
made only where nothing was reported since ``before`` (the number of problems before the
event was read)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from simulator.input.loader.names import Spellings
from simulator.input.loader.problems import Problems
from simulator.input.loader.values import (
    read_count,
    read_counts,
    read_fee,
    read_flag,
    read_name,
    read_precinct,
)

#: (event index, path below it) of the first event naming a candidate in a contest
FirstUse = tuple[int, tuple[Any, ...]]


@attrs.frozen
class NamedEvents:
    """The names of an event log read so far: ``filed`` (contest -> who filed), ``refs``
    (contest -> each other name used -> where first), spelt by ``names``."""

    problems: Problems
    names: Spellings
    filed: dict[str, set[str]]
    refs: dict[str, dict[str, FirstUse]]


#: validate(log, event index, contest, fields read, at, line, problems before the event)
EventValidator = Callable[[NamedEvents, int, str, dict[str, Any], Any, int | None, int], None]

#: The reader of each event field but ``notice_at`` (a time, read by the scenario's clock).
FIELD_READERS: dict[str, Callable[[Any], Any]] = {
    "candidate": read_name,
    "winner": read_name,
    "party": read_name,
    "fee": read_fee,
    "enough_time": read_flag,
    "count": read_count,
    "precinct": read_precinct,
    "counts": read_counts,
}


def names_nobody(
    log: NamedEvents,
    i: int,
    contest: str,
    fields: dict[str, Any],
    at: Any,
    line: int | None,
    before: int,
) -> None:
    """An event that names no candidate: nothing more to check."""


def files_candidate(
    log: NamedEvents,
    i: int,
    contest: str,
    fields: dict[str, Any],
    at: Any,
    line: int | None,
    before: int,
) -> None:
    """A filing: the candidate it names has filed in the contest."""
    named = fields.get("candidate")
    if named is not None:
        fields["candidate"] = name = log.names.spell(contest, named, i, ("candidate",), line)
        log.filed[contest].add(name)


def names_one(field: str) -> EventValidator:
    """The validator of an event that names one candidate in ``field``, who must have filed
    (:meth:`simulator.input.loader.event_log.EventLogReader.never_filed`)."""

    def names_filer(
        log: NamedEvents,
        i: int,
        contest: str,
        fields: dict[str, Any],
        at: Any,
        line: int | None,
        before: int,
    ) -> None:
        named = fields.get(field)
        if named is not None:
            fields[field] = name = log.names.spell(contest, named, i, (field,), line)
            seen = log.refs[contest]
            if name not in seen:
                seen[name] = (i, (field,))

    return names_filer


def names_counted(
    log: NamedEvents,
    i: int,
    contest: str,
    fields: dict[str, Any],
    at: Any,
    line: int | None,
    before: int,
) -> None:
    """An event of ``counts``: each candidate counted must have filed; each once."""
    counts = fields.get("counts")
    if counts is not None:
        fields["counts"] = counts = log.names.counts(contest, counts, i, line)
        seen = log.refs[contest]
        for name in counts:
            if name not in seen:
                seen[name] = (i, ("counts", name))
