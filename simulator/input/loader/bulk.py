"""A run of events of one common shape read in bulk (:func:`read_run`): each check is one pass
in C over a column of the run (``map``, ``list.count``) or one look-up per distinct value,
instead of a few look-ups per event. A run of votes is kept as its columns
(:class:`simulator.model.eventlog.VoteColumns`); the events of any other run are made by the
plan's column builders (:mod:`simulator.input.loader.plans`)."""

from __future__ import annotations

import operator
from collections.abc import Callable
from datetime import date, datetime
from itertools import repeat
from typing import Any, NamedTuple, cast

from simulator.input.loader.clock import Clock
from simulator.input.loader.event_checks import FirstUse
from simulator.input.loader.json_structs import json_types
from simulator.input.loader.names import Spellings
from simulator.input.loader.plans import QuickPlan
from simulator.input.parse.trees import MISSING, Map
from simulator.model.eventlog import VoteColumns
from simulator.model.events import MAX_VOTES, Event


def _contest_of(written: Any, unset: Any, default: str | None, canon: dict[str, str]) -> str | None:
    """The contest id an event names (``unset``: it names none, the default is meant)."""
    if written is unset:
        return canon.get(default or "")
    return canon.get(written) if type(written) is str else None


def read_run(
    clock: Clock,
    spelling: Spellings,
    raw: list[Any],
    start: int,
    offset: int,
    size: int,
    plan: QuickPlan,
    absent: tuple[str, ...] | None,
    spelt_ids: bool,
    default: str | None,
    canon: dict[str, str],
    filed: dict[str, set[str]],
    refs: dict[str, dict[str, FirstUse]],
    latest: dict[str, tuple[datetime, Event]],
    built: list[Event | VoteColumns],
) -> tuple[int, int]:
    """Read in bulk the longest run from ``raw[start]``, the event ``offset + start`` of
    the log (at most ``size`` events) of events of one type in its common shape, in time
    order, by known contests and names spelt before: each check is one pass in C over a
    column (``map``, ``list.count``) or one look-up per distinct value, instead of a few
    look-ups per event.

    The events are JSON structs (``absent``: the fields they must not have, none for a lean
    struct) or mappings (``absent`` None); ``spelt_ids``: their contest, where written, is a
    contest id as spelt (see JsonLog.spelt_decoder). Gives how many events it read (0 when
    it read none: the events loop reads them one by one, with the same result) and how many
    quotes their strings take in the text (two for each key and each string value; see
    _parse_json_quick).
    """
    chunk = raw[start : start + size]
    te = type(chunk[0])
    n, get, unset = _one_shape(chunk, te, plan, absent)
    if n == 0:
        return 0, 0
    del chunk[n:]
    try:
        columns = _columns(clock, spelling, plan, absent, spelt_ids, default, canon, get, unset)
    except TypeError:  # a value that is no key (a list, a mapping): one by one
        return 0, 0
    if columns is None or columns.n == 0:
        return 0, 0
    n, ats, cs, names, number, quotes = columns
    distinct = set(cs)
    if not _in_order(ats, cs, distinct, latest):
        return 0, 0
    index = range(offset + start, offset + start + n)
    lines: Any = None
    if te is Map:  # (n may have shrunk since the chunk was cut)
        lines = map(operator.attrgetter("line"), chunk[:n])
    run: VoteColumns | None = None
    events: list[Event] = []
    if plan.columns:  # votes: kept as columns (simulator.eventlog)
        run = VoteColumns(
            index.start,
            ats,
            cs,
            names,
            number or None,
            None if lines is None else list(lines),
            ordered=True,  # (checked above)
            # (each vote's name is one spelt in its contest: see ``names``)
            owners=spelling.owners(),
        )
    elif not plan.has_name:
        events = plan.many_bare(n, ats, cs, index, lines)
    elif number:
        events = plan.many_counted(n, ats, cs, index, lines, names, number)
    else:
        events = plan.many_named(n, ats, cs, index, lines, names)
    _note_names(spelling, plan, cs, names, distinct, filed, refs, offset + start)
    backwards = cs[::-1]
    for c in distinct:
        k = n - 1 - backwards.index(c)
        latest[c] = (ats[k], events[k] if run is None else run.event(k))
    if run is None:
        built.extend(events)
    else:
        built.append(run)
    if absent is not None:  # structs of our own reading, read now: free them
        raw[start : start + n] = repeat(None, n)
    return n, quotes


def _one_shape(
    chunk: list[Any], te: type, plan: QuickPlan, absent: tuple[str, ...] | None
) -> tuple[int, Callable[[str, Any], list[Any]], Any]:
    """How many events from the start of ``chunk`` share its first one's shape: its type, and
    for mappings its ``type`` with only the plan's fields, for structs none of the ``absent``
    fields. With the reader of a column of the chunk (a field, and what stands for it where
    it is not written) and what the events' reading writes for a field not given."""
    n = len(chunk)
    if list(map(type, chunk)).count(te) != n:
        n = next(k for k, ev in enumerate(chunk) if type(ev) is not te)
    get: Callable[[str, Any], list[Any]]
    if absent is None:
        kind = chunk[0]["type"]
        kinds = list(map(dict.get, chunk[:n], repeat("type")))
        if kinds.count(kind) != n:
            n = next(k for k, value in enumerate(kinds) if value != kind)
        shapes = list(map(plan.allowed.issuperset, chunk[:n]))
        if shapes.count(True) != n:
            n = shapes.index(False)

        def get(field: str, otherwise: Any) -> list[Any]:
            return list(map(dict.get, chunk, repeat(field), repeat(otherwise)))

        return n, get, MISSING
    unset = json_types().unset
    for field in absent:
        column = list(map(operator.attrgetter(field), chunk[:n]))
        if column.count(unset) != n:
            n = next(k for k, value in enumerate(column) if value is not unset)

    def get_attr(field: str, otherwise: Any) -> list[Any]:
        return list(map(operator.attrgetter(field), chunk))

    return n, get_attr, unset


class _Columns(NamedTuple):
    """The columns of the events of a run read so far (``n`` of them): times, contests,
    names and counts (empty where the events have none), and the quotes their strings take."""

    n: int
    ats: list[datetime]
    cs: list[str]
    names: list[Any]
    number: list[Any]
    quotes: int


def _columns(
    clock: Clock,
    spelling: Spellings,
    plan: QuickPlan,
    absent: tuple[str, ...] | None,
    spelt_ids: bool,
    default: str | None,
    canon: dict[str, str],
    get: Callable[[str, Any], list[Any]],
    unset: Any,
) -> _Columns | None:
    """The run's columns, each read in one pass or one look-up per distinct value, as far as
    every event's time, contest and name is one read before (the run ends at the first that
    is not); None when a count is wrong. Raises TypeError on a value that is no key."""
    ats = _moments(clock, get("at", None))
    n = len(ats)
    # Contests: each distinct one looked up once.
    written = get("contest", default)
    if len(written) != n:
        del written[n:]
    unnamed = written.count(unset)
    if spelt_ids and not unnamed:
        found = written  # each an id already (and the very string)
    else:
        known = {c: _contest_of(c, unset, default, canon) for c in set(written)}
        found = list(map(known.__getitem__, written))
        if None in known.values():
            n = found.index(None)
            del found[n:], written[n:]
            unnamed = written.count(unset)
    cs = cast("list[str]", found)
    contests, before = written, n
    names: list[Any] = []
    number: list[Any] = []
    unwritten = 0
    if plan.has_name:
        names = _names(spelling, get, cs, n)
        n = len(names)
        if "count" in plan.allowed:
            number = get("count", unset)
            if len(number) != n:
                del number[n:]
            unwritten = number.count(unset)
            if unwritten == n:
                number = []
            elif unwritten:
                number = [1 if c is unset else c for c in number]
            # (a struct's count is an int already: msgspec checked it)
            if number and (
                (absent is None and set(map(type, number)) != {int})
                or min(number) < 0
                or max(number) > MAX_VOTES
            ):
                return None
    # The quotes of the n events read: type, at, contest where written, candidate (a key
    # and a string value each), and the key of each count written (its value a number).
    if n != before:
        unnamed = contests[:n].count(unset)
    quotes = 4 * (3 * n - unnamed)
    if plan.has_name:
        quotes += 4 * n
        if "count" in plan.allowed:
            quotes += 2 * (n - unwritten)
    del ats[n:], cs[n:]
    return _Columns(n, ats, cs, names, number, quotes)


def _moments(clock: Clock, written: list[Any]) -> list[datetime]:
    """The times of a run, each distinct value read once, up to the first that is no time."""
    times = clock.times
    distinct = set(written)
    clock.read_times(distinct)
    moments = {
        value: (times.get(value) or clock.time_or_none(value))
        if type(value) is str
        or type(value) is date
        or (type(value) is datetime and value.fold == 0)  # see time()
        else None
        for value in distinct
    }
    read = list(map(moments.__getitem__, written))
    if None in moments.values():
        del read[read.index(None) :]
    return cast("list[datetime]", read)


def _names(
    spelling: Spellings, get: Callable[[str, Any], list[Any]], cs: list[str], n: int
) -> list[Any]:
    """The names of a run's ``n`` events, each one spelt before in its contest, up to the
    first that is not."""
    spellings, _ = spelling.by_contest()
    written = get("candidate", None)
    if len(written) != n:
        del written[n:]
    owners = spelling.verbatim_owners()
    if owners is not None and list(map(owners.get, written)) == cs:
        names = written  # (each name as written, and spelt in its own contest)
    else:
        nobody: dict[str, str] = {}
        names = list(map(dict.get, map(spellings.get, cs, repeat(nobody)), written))
    if None in names:
        del names[names.index(None) :]
    return names


def _in_order(
    ats: list[datetime],
    cs: list[str],
    distinct: set[str],
    latest: dict[str, tuple[datetime, Event]],
) -> bool:
    """Time order: a run in order overall is in order in each contest; each contest's first
    event in the run comes no earlier than its latest event before the run."""
    if not all(map(operator.le, ats, ats[1:])):
        return False
    for c in distinct:
        last = latest.get(c)
        if last is not None and ats[cs.index(c)] < last[0]:
            return False
    return True


def _note_names(
    spelling: Spellings,
    plan: QuickPlan,
    cs: list[str],
    names: list[Any],
    distinct: set[str],
    filed: dict[str, set[str]],
    refs: dict[str, dict[str, FirstUse]],
    first: int,
) -> None:
    """Who filed, or where each name is first named in its contest (for its problem, if any),
    from a run whose first event is event ``first``; nothing to do where each contest's names
    all filed, or were all named, before."""
    _, spelt = spelling.by_contest()
    none: frozenset[str] = frozenset()
    if plan.filer:
        fresh = not all(filed[c] >= spelt.get(c, none) for c in distinct)
    else:
        fresh = not all(refs[c].keys() >= spelt.get(c, none) for c in distinct)
    if plan.has_name and fresh:
        pairs = set(zip(cs, names, strict=True))
        if plan.filer:
            for c, name in pairs:
                filed[c].add(name)
        else:
            for c, name in pairs:
                if name not in refs[c]:
                    k = next(k for k in range(len(cs)) if cs[k] == c and names[k] == name)
                    refs[c][name] = (first + k, ("candidate",))
