"""The event log of a scenario, read once (:class:`EventLogReader`): each event's type, time,
id and contest, its fields each by its reader, then the validation of its family
(:mod:`simulator.input.loader.families`), and the order in which the board learned of the
events; at the end, every name used by someone who never filed.

An event of a common shape (:mod:`simulator.input.loader.plans`: a type without special
fields, a time and a name seen before, a known contest) is checked in a few look-ups, and a
run of them in bulk (:func:`simulator.input.loader.bulk.read_run`); any other event, or any
doubt, takes the full path, which gives the same event or says what is wrong."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, datetime
from typing import Any, cast

from simulator.input.loader.bulk import read_run
from simulator.input.loader.clock import Clock, explain_time
from simulator.input.loader.event_checks import FirstUse, NamedEvents
from simulator.input.loader.families import event_specs
from simulator.input.loader.fields import FIELD_HELP
from simulator.input.loader.json_structs import JsonLog, loaded_types, struct_dict
from simulator.input.loader.names import Spellings
from simulator.input.loader.plans import QUICK_PLANS, QuickPlan
from simulator.input.loader.problems import Problems, did_you_mean
from simulator.input.loader.values import BadValue
from simulator.input.parse.messages import show
from simulator.input.parse.trees import MISSING, Map
from simulator.input.parse.yaml_quick import QuickLog
from simulator.model.eventlog import EventLog, VoteColumns
from simulator.model.events import EVENT_TYPES, MAX_VOTES, Event, is_write_in

_EVENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


class EventLogReader:
    """Reads a scenario's ``events``, reporting to ``problems``; times by ``clock``, names
    spelt by ``names``. ``misordered`` holds (later, earlier) pairs: an event the board learned
    of before one listed above it."""

    def __init__(self, problems: Problems, clock: Clock, names: Spellings) -> None:
        self.problems = problems
        self.clock = clock
        self.names = names
        self.misordered: list[tuple[Event, Event]] = []
        self.specs = event_specs(clock.time)
        #: quotes the strings (keys and values) of the events read from JSON structs take in
        #: the text (see :func:`simulator.input.loader._parse_json_quick`)
        self.struct_quotes = 0

    def events(self, raw: Any, contest_ids: frozenset[str], default: str | None) -> EventLog:
        """The event log ``raw`` read (a list, or the pieces of a quick JSON or YAML reading),
        each problem reported; ``default``: the contest of an event that names none."""
        if raw is MISSING:
            self.problems.missing(
                ("events",), "the event log: a list of events (it may be empty: [])"
            )
            return EventLog()
        pieces: Iterator[tuple[int, list[Any]]]
        loaded = loaded_types()
        structs = loaded.structs if loaded is not None else {}
        spelt = self.names.known
        if type(raw) is JsonLog:
            structs = raw.structs

            def words() -> tuple[tuple[str, ...], tuple[str, ...]]:
                return tuple(sorted(contest_ids)), tuple(sorted({w for _, w in spelt}))

            pieces = raw.pieces(words)
        elif type(raw) is QuickLog:
            pieces = raw.pieces()
        elif isinstance(raw, list):
            pieces = iter(((0, raw),))
        else:
            self.problems.add(("events",), "a list of events", show(raw))
            return EventLog()
        reading = _Reading(self, contest_ids, default, structs)
        for offset, piece in pieces:
            reading.piece(offset, piece)
        self.struct_quotes = reading.quotes
        log = EventLog(reading.built)
        self.never_filed(reading.filed, reading.refs, log)
        return log

    def event_id(self, i: int, value: Any, ids: dict[str, int]) -> str | None:
        """An event's optional ``id``: a name made of letters, digits, ``-``, ``_`` and ``.``,
        given to one event only (what-if edits and sweeps address the event by it)."""
        if type(value) is not str or not _EVENT_ID.fullmatch(value):
            self.problems.add(
                ("events", i, "id"),
                "an event id: letters, digits, '-', '_' or '.', starting with a letter or digit, "
                "like bob-dies",
                show(value),
            )
            return None
        if value in ids:
            self.problems.add(
                ("events", i, "id"),
                f"an id no other event uses (events[{ids[value]}] is {value!r} already)",
                f"{value!r} again",
            )
            return None
        ids[value] = i
        return value

    def event_type(self, i: int, kind: Any, ev: dict[Any, Any]) -> None:
        kinds = ", ".join(EVENT_TYPES)
        if kind is MISSING:
            self.problems.missing(("events", i, "type"), f"a `type`: one of {kinds}")
        else:
            self.problems.add(
                ("events", i, "type"),
                f"one of the event types {kinds}",
                show(kind) + did_you_mean(kind, EVENT_TYPES),
            )

    def event_contest(self, i: int, ev: dict[Any, Any], contest_ids: frozenset[str]) -> None:
        if not contest_ids:
            return  # the contests themselves are wrong; that is reported already
        ids = ", ".join(sorted(contest_ids))
        if "contest" not in ev:
            self.problems.missing(
                ("events", i, "contest"),
                f"a `contest` naming one of the contests ({ids}): the scenario has more than one",
            )
        else:
            self.problems.add(
                ("events", i, "contest"), f"the id of a contest: one of {ids}", show(ev["contest"])
            )

    def never_filed(
        self,
        filed: dict[str, set[str]],
        refs: dict[str, dict[str, FirstUse]],
        built: EventLog,
    ) -> None:
        """docs/scenarios.md: votes for (or acts by) someone who never filed are bad input."""
        missing: dict[tuple[str, str], tuple[int, tuple[Any, ...]]] = {}
        for contest, seen in refs.items():
            for name, where in seen.items():
                if (
                    name not in filed[contest]
                    and not is_write_in(name)
                    and (contest, name) not in self.names.clashed
                ):
                    missing[contest, name] = where
        if not missing:
            return
        uses: dict[tuple[str, str], int] = dict.fromkeys(missing, 0)
        for event in built:
            for name in set(event.names()):
                if (event.contest, name) in uses:
                    uses[event.contest, name] += 1
        for (contest, name), (i, sub) in missing.items():
            more = uses[contest, name]
            count = f" (named by {more} events; the first is here)" if more > 1 else ""
            self.problems.add(
                ("events", i, *sub),
                f"a candidate who filed in contest {contest!r}: add a candidate_filed (or "
                "nominee_named) event for them, or correct the spelling; write-ins are named "
                "'Write-In (Miscellaneous)' or 'NAME (Write-In)'",
                f"{show(name)}, who never filed{count}",
            )


class _Reading:
    """One reading of an event log, piece by piece, into ``built``: what it has seen so far
    (event ids, who filed, who was named, each contest's latest event) and how its bulk runs
    go.

    Each event takes the first of three ways that reads it. A run of events of one common
    shape is read in bulk (:func:`~simulator.input.loader.bulk.read_run`); after a failed try,
    the next waits a little longer each time. Else an event of a common shape alone, in a few
    look-ups (:meth:`quick_mapping`, :meth:`quick_struct`): a quick type with only its quick
    fields, a time read before, a known contest, a name spelt before. Any doubt (a new time or
    name, an id, any other field) takes the full path (:meth:`full`), which gives the same
    event, or the problem."""

    __slots__ = (
        "built",
        "canon",
        "contest_ids",
        "default",
        "filed",
        "ids",
        "latest",
        "log",
        "misordered",
        "named_events",
        "quick",
        "quotes",
        "read_time",
        "refs",
        "retry",
        "size",
        "specs",
        "spelt",
        "structs",
        "times",
        "unset",
        "wait",
    )

    def __init__(
        self,
        log: EventLogReader,
        contest_ids: frozenset[str],
        default: str | None,
        structs: dict[type[Any], Any],
    ) -> None:
        self.log = log
        self.contest_ids = contest_ids
        self.default = default
        self.structs = structs
        self.specs = {
            name: (spec, spec.cls, spec.allowed, len(spec.allowed), spec.checks, spec.validate)
            for name, spec in log.specs.items()
        }
        self.times = log.clock.times
        self.read_time = log.clock.time_or_none
        self.spelt = log.names.known
        self.misordered = log.misordered
        self.built: list[Event | VoteColumns] = []
        self.ids: dict[str, int] = {}  # event id -> the index of the event that has it
        self.filed: dict[str, set[str]] = {c: set() for c in contest_ids}
        self.refs: dict[str, dict[str, FirstUse]] = {c: {} for c in contest_ids}
        self.named_events = NamedEvents(log.problems, log.names, self.filed, self.refs)
        # Each contest id, name and time is kept once, however often the log writes it.
        self.canon = {c: c for c in contest_ids}
        self.quick = QUICK_PLANS
        loaded = loaded_types()
        self.unset = loaded.unset if loaded is not None else MISSING
        self.quotes = 0  # see _parse_json_quick
        self.latest: dict[str, tuple[datetime, Event]] = {}  # contest -> its latest known event
        self.retry = 0
        self.wait = 1
        self.size = 64

    def piece(self, offset: int, piece: list[Any]) -> None:
        """Read the events of one piece of the log, the first of them event ``offset``."""
        quick = self.quick
        structs = self.structs
        # (j, event), repositioned past a bulk run without walking it: list and range
        # iterators take the index to go on from (__setstate__)
        indices: Any = iter(range(len(piece)))
        each: Any = iter(piece)
        for j, ev in zip(indices, each, strict=True):
            i = offset + j
            te = type(ev)
            if te is dict or te is Map:
                kind = ev.get("type")
                plan = quick.get(kind) if type(kind) is str else None
                if plan is not None:
                    if i >= self.retry:
                        done, _ = self.run(piece, j, offset, plan, None, False)
                        if done:
                            indices.__setstate__(j + done)  # past the run
                            each.__setstate__(j + done)
                            continue
                    if self.quick_mapping(i, ev, te is Map, plan):
                        continue
            elif te in structs:
                entry = structs[te]
                plan = entry[0]
                if plan is not None and i >= self.retry:
                    done, found = self.run(piece, j, offset, plan, entry[4], entry[5])
                    if done:
                        self.quotes += found
                        indices.__setstate__(j + done)  # past the run
                        each.__setstate__(j + done)
                        continue
                if self.quick_struct(i, ev, entry):
                    continue
                ev, found = struct_dict(ev)
                self.quotes += found
            self.full(i, ev)

    def run(
        self,
        piece: list[Any],
        j: int,
        offset: int,
        plan: QuickPlan,
        absent: tuple[str, ...] | None,
        spelt_ids: bool,
    ) -> tuple[int, int]:
        """Read in bulk the run of events from ``piece[j]`` (see
        :func:`~simulator.input.loader.bulk.read_run`): how many it read and their quotes. A
        full run doubles the next one's size; a failed try puts off the next."""
        done, found = read_run(
            self.log.clock,
            self.log.names,
            piece,
            j,
            offset,
            self.size,
            plan,
            absent,
            spelt_ids,
            self.default,
            self.canon,
            self.filed,
            self.refs,
            self.latest,
            self.built,
        )
        if done:
            self.wait = 1
            self.size = min(self.size * 2, 16384) if done == self.size else max(64, done)
        else:
            self.retry = offset + j + self.wait
            self.wait = min(self.wait * 2, 4096)
        return done, found

    def keep(
        self,
        event: Event,
        contest: str,
        known: datetime,
        name: str | None = None,
        filer: bool = False,
        i: int = 0,
    ) -> None:
        """Keep a built event; docs/scenarios.md: each contest's events in the order the
        board learned of them (``known``; equal times keep file order), else it is noted as
        misordered. An event ``i`` read the quick way notes the ``name`` it gives: as filed
        (``filer``), or where it is first named in its contest (for its problem, if any)."""
        if name is not None:
            if filer:
                self.filed[contest].add(name)
            elif name not in (seen := self.refs[contest]):
                seen[name] = (i, ("candidate",))
        self.built.append(event)
        last = self.latest.get(contest)
        if last is None or known >= last[0]:
            self.latest[contest] = (known, event)
        else:
            self.misordered.append((event, last[1]))

    def quick_mapping(self, i: int, ev: dict[str, Any], located: bool, plan: QuickPlan) -> bool:
        """Event ``i``, a mapping (``located``: with its line) of a quick type, read in a few
        look-ups if it has a common shape; False if not (nothing is kept or reported)."""
        at = ev.get("at")
        contest = ev.get("contest", self.default)
        if not (
            plan.allowed.issuperset(ev)
            and (
                type(at) is str
                or type(at) is date
                or (type(at) is datetime and at.fold == 0)  # see time()
            )
            and (at := self.times.get(at) or self.read_time(at)) is not None
            and type(contest) is str
            and (contest := self.canon.get(contest)) is not None
        ):
            return False
        written = ev.get("candidate")
        name = self.spelt.get((contest, written)) if type(written) is str else None
        count = ev.get("count", 1)
        line = cast("Map", ev).line if located else None
        event = None
        if not plan.has_name:
            if name is None:
                event = plan.bare(at, contest, i, line)
        elif name is not None and type(count) is int and 0 <= count <= MAX_VOTES:
            if "count" in ev:
                event = plan.counted(at, contest, i, line, name, count)
            else:
                event = plan.named(at, contest, i, line, name)
        if event is None:
            return False
        self.keep(event, contest, at, name, plan.filer, i)
        return True

    def quick_struct(self, i: int, ev: Any, entry: Any) -> bool:
        """Event ``i``, decoded from JSON by _parse_json_quick, read in a few look-ups from the
        struct's attributes if it has a common shape; False if not (it is then read as the
        plain dict it was)."""
        plan, extras, none, counts, _absent, _spelt_ids = entry
        at = self.times.get(ev.at) or self.read_time(ev.at)
        written = ev.contest
        unset = self.unset
        canon = self.canon
        contest = canon.get(self.default or "") if written is unset else canon.get(written)
        if plan is None or at is None or contest is None or extras(ev) != none:
            return False
        # (quotes: two for each key and each string value; a count is a number)
        event = None
        name = None
        if not plan.has_name:
            event = plan.bare(at, contest, i, None)
            self.quotes += 8 if written is unset else 12
        elif (name := self.spelt.get((contest, ev.candidate))) is not None:
            count = ev.count if counts else unset
            if count is unset:
                event = plan.named(at, contest, i, None, name)
                self.quotes += 12 if written is unset else 16
            elif 0 <= count <= MAX_VOTES:
                event = plan.counted(at, contest, i, None, name, count)
                self.quotes += 14 if written is unset else 18
        if event is None:
            return False
        self.keep(event, contest, at, name, plan.filer, i)
        return True

    def full(self, i: int, ev: Any) -> None:
        """Event ``i`` read the full way: its type, its fields each by its reader, its time,
        id and contest, then the validation of its family; every problem reported."""
        log = self.log
        problems = log.problems
        if not isinstance(ev, dict):
            problems.add(
                ("events", i),
                "a mapping like {type: candidate_filed, at: 2027-07-06, candidate: Ann}",
                show(ev),
            )
            return
        before = len(problems.raws)
        kind = ev.get("type", MISSING)
        fast = self.specs.get(kind) if type(kind) is str else None
        if fast is None:
            log.event_type(i, kind, ev)
        else:
            spec, cls, allowed, n_allowed, checks, validate = fast
            if len(ev) > n_allowed or not allowed.issuperset(ev):
                problems.unknown_keys(
                    ("events", i), ev, spec.names, f"the fields of a {kind} event"
                )
        at = ev.get("at", MISSING)
        if type(at) is str and (known := self.times.get(at)) is not None:
            at = known
        elif at is MISSING:
            problems.missing(
                ("events", i, "at"),
                f"`at`: when it happened, {explain_time(log.clock.tz_name)}",
            )
        else:
            try:
                at = log.clock.time(at)
            except BadValue as error:
                problems.bad(("events", i, "at"), error)
        event_id = ev.get("id")
        if event_id is not None:
            event_id = log.event_id(i, event_id, self.ids)
        contest = ev.get("contest", self.default)
        if type(contest) is not str or contest not in self.contest_ids:
            log.event_contest(i, ev, self.contest_ids)
            contest = None
        else:
            contest = self.canon[contest]
        if fast is None:
            return
        line = ev.line if type(ev) is Map else None
        fields: dict[str, Any] = {}
        for field, check in checks:
            value = ev.get(field, MISSING)
            if value is MISSING:
                if field in spec.required:
                    problems.missing(
                        ("events", i, field),
                        f"a `{field}` field ({FIELD_HELP[field]}) for {spec.cls.type}",
                    )
                continue
            try:
                fields[field] = check(value)
            except BadValue as error:
                problems.bad(("events", i, field), error)
        if contest is not None:
            # the validation of the event's family; names are compared in their normal
            # form and kept as first written
            validate(self.named_events, i, contest, fields, at, line, before)
        if len(problems.raws) > before or contest is None:
            return
        event = cls(at=at, contest=contest, index=i, id=event_id, line=line, **fields)
        self.keep(event, contest, event.known_at)
