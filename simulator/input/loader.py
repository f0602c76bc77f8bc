"""Reading scenario files (docs/scenarios.md): YAML or JSON in, a validated :class:`Scenario` out.

Validation lives here, at the edge: the loader turns raw text into typed, frozen events once, and
the rest of electsim trusts those types. Bad input never produces a half-built scenario and never
an exception other than :class:`~simulator.model.errors.ScenarioError`, which lists *every* problem
found, each with the file, the 1-based line, the path (``events[3].candidate``), what was
expected and what was found.

There is one structuring path, :func:`structure`: plain data (dicts, lists and scalars, as
YAML or JSON reads them, or as a script builds them) in, a :class:`Scenario` out. The file
functions read text with :mod:`simulator.input.parse` (the generic, line-tracking reader) and hand
the data to :func:`structure`'s checks; what-if edits, imported results and the conformance runs
hand theirs over directly, with no text in between.

How it works, and why it is fast enough for a log of a million events:

1. **Reading** (:mod:`simulator.input.parse`): one pass from text to dicts and lists, with the line
of
   every mapping, duplicate keys and tags recorded as problems. The garbage collector is paused
   while millions of small containers are created.
   A YAML event log of one-line flow mappings (``- {type: votes_cast, at: ..., candidate:
   Ann}``, the shape of a big generated log) is read quickly with string operations
   (:func:`simulator.input.parse.read_yaml_quick_log`), a piece of the log at a time as the checks
   read it, so that no mapping per event is kept for the whole log; anything else, and any file
   with a problem (wherever in the log the quick reading meets it), is read by libyaml's event
   loop, which locates every problem. A JSON file is decoded by msgspec
   straight into one typed struct per event (:func:`_parse_json_quick`), a few MiB of the event
   log at a time as the checks read it (:class:`_JsonLog`): lean structs first (only the fields
   of an event's common shape), and in a big log structs whose contest and candidate take only
   the contest ids and the names spelt so far, so that msgspec hands back those strings rather
   than a new one per event. A repeated key, which msgspec would drop silently, is found by
   counting the quotes of the text against the strings read. Any doubt (an unknown field, a
   wrong type, a repeated key, any problem at all) and the file is read again by
   :func:`json.loads`, whose reading locates every problem.
2. **Validating.** :class:`_Validator` walks the raw data once, checking every field and
   building the frozen values of :mod:`simulator.model.scenario` and :mod:`simulator.model.events`.
   An
   event of a common shape (a type without special fields, a time and a name seen before, a
   known contest) is checked in a few look-ups; any other event, or any doubt, takes the full
   path, which gives the same event or says what is wrong. A run of events of one common shape
   (the votes of a big log) is checked in bulk, a pass in C over each column of the run. A run
   of votes is kept as its columns (:class:`simulator.model.eventlog.VoteColumns`), which replay
   sums
   without making an event per vote (an event is made when something asks for it); the events
   of any other run are made by :func:`simulator.model.events.column_builder`, which sets each slot
   of
   the whole run with one ``map`` in C (an event checked alone is made by
   :func:`simulator.model.events.builder`). No regular expressions, no ``pendulum``, and no
   :class:`~simulator.model.errors.Problem` unless something is wrong. Times are parsed with
   :meth:`datetime.fromisoformat` and cached by what was written; on a day without a change of
   UTC offset, a local time needs no round trip through UTC.
3. **Locating.** Only when there are problems are lines looked up, by each problem's path
   (:func:`simulator.input.parse.locate`, :func:`simulator.input.parse.json_lines`). Events read
   from JSON
   carry ``line=None``: :mod:`json` keeps no positions, and finding them on every load would add
   a second pass over the text. Data handed to :func:`structure` has no lines at all: its
   problems name the path, what was expected and what was found.

Readings of docs/scenarios.md made here: every time (``at``, ``notice_at``, filing ``opens`` and
``closes``) must fall in the years 1900-2200, a contest's ``year`` in 1973-2200; money
(``filing_fee``, ``salary``, an event's ``fee``) may also be written as a quoted number, and
stays an exact Decimal (YAML and JSON floats are read from their text, never through binary
floating point); ``counts`` are kept in order of candidate name, since a mapping has no order
(so equal facts give equal events); a ``stage: primary`` is only for the partisan and
nonpartisan-primary methods; ``party`` is an error for the nonpartisan methods and optional for
a partisan election; references to a candidate who never filed are reported once per name and
contest, at the first event naming them.

A local time that does not exist (the spring-forward gap) is a problem, and so is one that
happens twice (the fall-back hour) unless it gives its UTC offset (see :func:`wall_clock`):
nothing is moved or chosen for the file. Times are then normalised, so that a scenario written
out by :func:`scenario_to_dict` reads back equal.
"""

from __future__ import annotations

import contextlib
import functools
import json
import operator
import os
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from itertools import islice, repeat
from pathlib import Path
from typing import Any, Literal, cast
from zoneinfo import ZoneInfo, available_timezones

import attrs
import yaml

from simulator.input.expect import Expectation, read_expectations
from simulator.input.files import (
    MAX_INPUT_BYTES,
    InputTooLarge,
    NotText,
    decode_text,
    describe_size,
    read_data,
)
from simulator.input.parse import (
    MISSING,
    REPEATED_KEY,
    SHOW,
    SUB_MICROSECOND,
    LongNumber,
    Map,
    QuickDoubt,
    QuickLog,
    RawProblem,
    finish,
    gc_paused,
    json_duplicates,
    json_lines,
    json_nesting_line,
    locate,
    read_json,
    read_yaml,
    read_yaml_quick_log,
    show,
    yaml_problem,
)
from simulator.law.parameters import MOST_PLACES, PARAMETERS, parse_value
from simulator.law.readings import Interpretations
from simulator.law.tables import filing as filing_rules
from simulator.law.vocab import Method, Stage, is_partisan_primary
from simulator.model.errors import Problem, ScenarioError
from simulator.model.eventlog import EventLog, VoteColumns
from simulator.model.events import (
    EVENT_TYPES,
    MAX_VOTES,
    CandidateDied,
    Event,
    VotesCast,
    builder,
    column_builder,
    is_write_in,
)
from simulator.model.scenario import DEFAULT_TZ, FORMAT, Contest, Scenario

try:
    from yaml import CSafeDumper as _YamlDumper
except ImportError:  # pragma: no cover - no libyaml: the pure-Python emitter, same text
    from yaml import SafeDumper as _YamlDumper  # type: ignore[assignment]

__all__ = ["dump_scenario", "load_scenario", "parse_scenario", "scenario_to_dict", "structure"]

_FIRST_YEAR, _LAST_YEAR = 1973, 2200  # contest years (municipal elections under G.S. 163-279)
_TIME_YEARS = (1900, 2200)  # any time in a scenario
_TZINFO, _YEAR = operator.attrgetter("tzinfo"), operator.attrgetter("year")
_MAX_AMOUNT = Decimal(10) ** 12
_VOTES = "a whole number of votes, 0 or more"
_VOTES_AT_MOST = f"{_VOTES} and at most {MAX_VOTES:,}"


# ---------------------------------------------------------------------------------------------
# Checking values. Each checker returns the value to keep or raises _Bad; no Problem is built
# unless something is wrong.


class _Bad(Exception):
    """A value that does not fit; ``subs`` are (extra path parts, expected, found) triples."""

    def __init__(self, expected: str, found: str, subs: tuple[tuple[Any, ...], ...] = ()) -> None:
        super().__init__(expected)
        self.expected = expected
        self.found = found
        self.subs = subs


#: What no text of a scenario may hold inside it: control characters (a newline in a name
#: would forge a line of the timeline, an escape sequence would drive the user's terminal) and
#: lone UTF-16 surrogates (JSON's ``"\ud800"``), which are no characters and cannot be written
#: out. Descriptions may hold newlines and tabs.
#: The line and paragraph separators (U+2028, U+2029) break a line as a newline does, and the
#: bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) turn the
#: rest of a printed line around (a name holding U+202E showed the line's citation backwards).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")
_CONTROL_IN_TEXT = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
_PRINTABLE = (
    "printable characters only (no control character, such as a newline or an escape, no line "
    "separator or bidirectional override such as \\u202e, and no lone surrogate such as \\ud800)"
)


def _controls(value: str, text: bool = False) -> bool:
    """Whether ``value`` holds a character no text may hold (see _CONTROL), surrounding
    whitespace aside (a name is shown without it)."""
    if value.isascii() and value.isprintable():
        return False
    return (_CONTROL_IN_TEXT if text else _CONTROL).search(
        value if text else value.strip()
    ) is not None


_NAMED_WRITE_IN = (
    "a write-in's name before '(Write-In)', like 'Jane Roe (Write-In)', or "
    "'Write-In (Miscellaneous)' for the unnamed ones"
)


def _nameless_write_in(name: str) -> bool:
    """``(Write-In)`` alone names nobody (it was counted as a write-in, and could be elected)."""
    return name.endswith("(Write-In)") and not name[: -len("(Write-In)")].strip()


def _name(value: Any) -> str:
    if type(value) is str and value.strip() and (value.isascii() or normal_name(value)):
        if _nameless_write_in(value):
            raise _Bad(_NAMED_WRITE_IN, show(value))
        if not _controls(value):
            return value
        raise _Bad(f"a name of {_PRINTABLE}", show(value))
    raise _Bad(
        _as_text("a non-empty name, as written on the notice of candidacy", value), show(value)
    )


def _as_text(expected: str, value: Any) -> str:
    """``expected``, and for a value YAML typed (``title: 2027``, ``candidate: No``) how to
    write it as text: the message said "expected a non-empty title; found 2027"."""
    if isinstance(value, bool | int | float | Decimal | date | LongNumber):
        how = "quote a value YAML reads as a number, a date or true/false"
        return f"text ({how})" if expected == "text" else f"{expected}, as text ({how})"
    return expected


def _flag(value: Any) -> bool:
    if type(value) is bool:
        return value
    raise _Bad("true or false", show(value))


def _count(value: Any) -> int:
    if type(value) is int and 0 <= value <= MAX_VOTES:
        return value
    raise _Bad(_votes_expected(value), show(value))


def _votes_expected(value: Any) -> str:
    too_many = type(value) is LongNumber or (type(value) is int and value > MAX_VOTES)
    if type(value) is str and value.strip()[:1].isdigit():  # quoted, 010, 1:30 (see reader)
        return f"{_VOTES}, written as a plain decimal number (no quotes, no leading zero)"
    return _VOTES_AT_MOST if too_many else _VOTES


def _precinct(value: Any) -> str:
    if type(value) is str and value.strip():
        if _controls(value):
            raise _Bad(f"a precinct name of {_PRINTABLE}", show(value))
        return value
    if type(value) is int:
        return str(value)
    raise _Bad("a precinct name or number", show(value))


def _counts(value: Any) -> dict[str, int]:
    if not isinstance(value, dict) or not value:
        raise _Bad(
            "a non-empty mapping of candidate name to votes, like {Ann: 350, Bob: 180}",
            show(value),
        )
    subs: list[tuple[Any, ...]] = []
    for name, votes in value.items():
        if type(name) is not str or not name.strip():
            subs.append(((name,), "a candidate's name as the key", show(name)))
        elif _controls(name):
            subs.append(((name,), f"a candidate's name of {_PRINTABLE}", show(name)))
        elif _nameless_write_in(name):
            subs.append(((name,), _NAMED_WRITE_IN, show(name)))
        if type(votes) is not int or not 0 <= votes <= MAX_VOTES:
            subs.append(((name,), _votes_expected(votes), show(votes)))
    if subs:
        raise _Bad("", "", tuple(subs))
    # A YAML or JSON mapping has no order: keep the counts in one canonical order (by name), so
    # that equal facts make equal events whatever order they were written in.
    return dict(sorted(value.items())) if len(value) > 1 else value


def _amount(value: Any, what: str) -> Decimal:
    """A sum of money, exact: from the scalar's text, never through binary floating point."""
    number: Decimal | None = None
    if type(value) is int:
        number = Decimal(value)
    elif isinstance(value, Decimal):
        number = value
    elif type(value) is float:
        number = Decimal(repr(value))
    elif isinstance(value, str) and "_" not in value:  # (Decimal reads "1_5" as 15)
        with contextlib.suppress(InvalidOperation):
            number = Decimal(value.strip())
    if number is None or not number.is_finite() or number < 0 or number > _MAX_AMOUNT:
        raise _Bad(f"{what}: a number of dollars, 0 or more, like 250 or 12.50", show(value))
    return abs(number) if number.is_zero() else number


def _fee(value: Any) -> str:
    return str(_amount(value, "the fee paid"))


def _date(value: Any) -> date:
    day: date | None = None
    if type(value) is date:
        day = value
    elif isinstance(value, str):
        with contextlib.suppress(ValueError):
            day = date.fromisoformat(value.strip())
    if day is None or not _TIME_YEARS[0] <= day.year <= _TIME_YEARS[1]:
        raise _Bad("an ISO 8601 date like 2027-07-03 (a date, without a time)", show(value))
    return day


# Short descriptions of event fields, for "missing field" messages.
_FIELD_HELP = {
    "candidate": "the candidate's name, as on the notice of candidacy",
    "winner": "the name of the candidate the lot fell to",
    "party": "the party's abbreviation, like DEM",
    "fee": "the filing fee paid, in dollars",
    "notice_at": "when the board received notice of the death",
    "enough_time": "true or false: whether the board found time to reprint the ballots",
    "count": "how many ballots, a whole number (default 1)",
    "precinct": "the precinct's name",
    "counts": "a mapping of candidate name to votes, like {Ann: 350, Bob: 180}",
}

_TOP_KEYS = (
    "format",
    "title",
    "description",
    "timezone",
    "office_closed",
    "interpretations",
    "parameters",
    "contests",
    "events",
    "expect",
)
_CONTEST_KEYS = (
    "id",
    "municipality",
    "office",
    "seats",
    "method",
    "stage",
    "party",
    "year",
    "date",
    "district_based",
    "filing",
    "filing_fee",
    "salary",
)
_FILING_KEYS = ("opens", "closes")
_EVENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_FILERS = frozenset({"candidate_filed", "nominee_named"})
_METHODS = tuple(m.value for m in Method)
_STAGES = tuple(s.value for s in Stage)
_PRIMARY_METHODS = (Method.PARTISAN, Method.PRIMARY)
_INTERPRETATIONS = {f.name: f.default for f in attrs.fields(Interpretations)}


@attrs.frozen
class _EventSpec:
    """What the loader needs to know about one event type, computed once."""

    cls: type[Event]
    allowed: frozenset[str]
    names: tuple[str, ...]
    required: tuple[str, ...]
    checks: tuple[tuple[str, Callable[[Any], Any]], ...]
    #: the field naming a candidate who must have filed ("filer": the event is a filing)
    ref: str | None


class ClockError(ValueError):
    """A wall-clock time a change of clocks makes skipped or ambiguous; the message says which
    and what to write instead."""


def exact_offset(moment: datetime) -> datetime:
    """``moment``, with its fixed offset if it is in the second pass of a repeated hour (see
    :func:`wall_clock`), so that it compares with other times as the instant it is."""
    return (
        moment.astimezone(timezone(moment.utcoffset() or timedelta(0))) if moment.fold else moment
    )


def wall_clock(moment: datetime, tz: ZoneInfo, zone: str, *, whole_day: bool = False) -> datetime:
    """A naive wall-clock time in ``tz`` as an aware time.

    A time the clocks skip (02:30 when they go from 02:00 to 03:00) is a problem, and so is
    one they pass twice (01:30 when they go back from 02:00 to 01:00), unless it says which
    (an offset; from Python, ``fold=1`` for the second): the file does not say what
    happened when, and nothing is moved or chosen for it. A bare date is the start of its
    day: the first moment of it the clocks show. ``zone`` is ``tz``'s name, for the message
    of the :class:`ClockError` raised.

    The second pass of a repeated hour is given with its fixed offset: Python compares two
    times of one zone by their wall clocks, fold ignored, so in the zone it would sort before
    01:45 of the first pass; with its offset it compares as the instant it is.
    """
    first = moment.replace(tzinfo=tz, fold=0)
    second = moment.replace(tzinfo=tz, fold=1)
    before, after = first.utcoffset(), second.utcoffset()
    if before == after or whole_day or before is None or after is None:
        return exact_offset(first.astimezone(UTC).astimezone(tz))
    # the instant the offset changes, to the minute, and the clocks just before and after
    low = (first - timedelta(days=1)).astimezone(UTC)
    high = second.astimezone(UTC) + timedelta(days=1)
    while high - low > timedelta(minutes=1):
        middle = low + (high - low) // 2
        if middle.astimezone(tz).utcoffset() == before:
            low = middle
        else:
            high = middle
    was = (high + before).strftime("%H:%M")
    became = (high + after).strftime("%H:%M")
    day, clock = moment.date().isoformat(), moment.strftime("%H:%M")
    shown = moment.isoformat(timespec="minutes")
    if before < after:  # zoneinfo: in a gap, fold=0 takes the offset before it
        raise ClockError(
            f"a time the clocks show in {zone}: on {day} they go from {was} straight to "
            f"{became}, so {clock} never shows; write the time as the clocks showed it, "
            "or with its UTC offset"
        )
    if moment.fold:
        return exact_offset(second)
    raise ClockError(
        f"a time the clocks show once in {zone}: on {day} they go back from {was} to "
        f"{became}, so {clock} shows twice; give its UTC offset: {shown}{_offset(before)} "
        f"for the first, {shown}{_offset(after)} for the second"
    )


@functools.cache
def _zone_names() -> frozenset[str]:
    return frozenset(available_timezones())


def _zone_name(name: str) -> bool:
    """Whether ``name`` is a zone of the tz database. ZoneInfo reads any file under the zone
    folders, and ``localtime`` is there too: the machine's own zone, so that one file read on
    two machines gave two answers."""
    return name == DEFAULT_TZ or (name != "localtime" and name in _zone_names())


def _offset(delta: timedelta) -> str:
    """A UTC offset as ISO 8601 writes it: -04:00."""
    minutes = delta // timedelta(minutes=1)
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def _explain_time(tz_name: str) -> str:
    return (
        "an ISO 8601 date or date-time, like 2027-07-06 or 2027-07-06T12:15 or "
        f"2027-07-06T12:15:00-04:00 (a time without an offset is in {tz_name}; years "
        f"{_TIME_YEARS[0]}-{_TIME_YEARS[1]})"
    )


@attrs.frozen
class _Quick:
    """An event type whose common shape the events loop reads in a few look-ups: no field but
    ``type``, ``at``, ``contest`` and, where the type has them, ``candidate`` and ``count``."""

    allowed: frozenset[str]
    has_name: bool  # it names a candidate
    filer: bool  # and that is a filing
    bare: Callable[..., Event]  # builders (simulator.model.events.builder): no name,
    named: Callable[..., Event]  # a candidate,
    counted: Callable[..., Event]  # a candidate and a count (where the type has ``count``)
    #: the same three for a run of events (simulator.model.events.column_builder)
    many_bare: Callable[..., list[Event]]
    many_named: Callable[..., list[Event]]
    many_counted: Callable[..., list[Event]]
    #: a run of these is kept as columns (simulator.model.eventlog.VoteColumns), not as events
    columns: bool = False


def _quick_plans() -> dict[str, _Quick]:
    plans = {}
    for name, cls in EVENT_TYPES.items():
        own = set(cls.fields)
        if cls is CandidateDied or not own <= {"candidate", "party", "fee", "count", "precinct"}:
            continue
        common = own & {"candidate", "count"}
        has_name = "candidate" in common
        named = builder(cls, "candidate") if has_name else builder(cls)
        many_named = column_builder(cls, "candidate") if has_name else column_builder(cls)
        plans[name] = _Quick(
            allowed=frozenset({"type", "at", "contest", *common}),
            has_name=has_name,
            filer=name in _FILERS,
            bare=named if has_name else builder(cls),
            named=named,
            counted=builder(cls, "candidate", "count") if "count" in common else named,
            many_bare=many_named if has_name else column_builder(cls),
            many_named=many_named,
            many_counted=(
                column_builder(cls, "candidate", "count") if "count" in common else many_named
            ),
            columns=cls is VotesCast,
        )
    return plans


_QUICK = _quick_plans()


def _contest_of(written: Any, unset: Any, default: str | None, canon: dict[str, str]) -> str | None:
    """The contest id an event names (``unset``: it names none, the default is meant)."""
    if written is unset:
        return canon.get(default or "")
    return canon.get(written) if type(written) is str else None


class _Validator:
    """One pass over the raw document; collects problems and builds the Scenario."""

    def __init__(self, source: str | None) -> None:
        self.source = source
        self.problems: list[RawProblem] = []
        #: (later, earlier): an event the board learned of before one listed above it
        self.misordered: list[tuple[Event, Event]] = []
        self.names = _Names(self.problems)
        self.tz_name = DEFAULT_TZ
        self.tz = ZoneInfo(DEFAULT_TZ)
        self.closed: tuple[date, ...] = ()
        self.times: dict[str | date, datetime] = {}  # see time()
        self.steady: dict[int, bool] = {}  # see steady_day()
        checks: dict[str, Callable[[Any], Any]] = {
            "candidate": _name,
            "winner": _name,
            "party": _name,
            "fee": _fee,
            "notice_at": self.time,
            "enough_time": _flag,
            "count": _count,
            "precinct": _precinct,
            "counts": _counts,
        }
        self.specs: dict[str, _EventSpec] = {}
        for name, cls in EVENT_TYPES.items():
            allowed = ("id", "type", "at", "contest", *cls.fields)
            ref: str | None = "filer"  # candidate_filed, nominee_named: a filing
            if name not in _FILERS:
                ref = next((f for f in ("candidate", "winner", "counts") if f in cls.fields), None)
            self.specs[name] = _EventSpec(
                cls=cls,
                allowed=frozenset(allowed),
                names=allowed,
                required=cls.required,
                checks=tuple((f, checks[f]) for f in cls.fields),
                ref=ref,
            )

        self.quick = _QUICK
        #: quotes the strings (keys and values) of the events read from JSON structs take in
        #: the text (see :func:`_parse_json_quick`)
        self.struct_quotes = 0

    # -- helpers ----------------------------------------------------------------------------

    def add(
        self, parts: tuple[Any, ...], expected: str, found: str, line: int | None = None
    ) -> None:
        self.problems.append((parts, expected, found, line))

    def bad(self, parts: tuple[Any, ...], error: _Bad, line: int | None = None) -> None:
        if error.subs:
            for sub, expected, found in error.subs:
                self.add(parts + sub, expected, found, line)
        else:
            self.add(parts, error.expected, error.found, line)

    def unknown_keys(
        self,
        parts: tuple[Any, ...],
        raw: dict[Any, Any],
        allowed: tuple[str, ...],
        what: str = "the fields allowed here",
    ) -> None:
        expected = f"one of {what}: " + ", ".join(allowed)
        for key in raw:
            if key not in allowed:
                self.add(
                    (*parts, key),
                    expected,
                    f"{show(key)}, an unknown field (check its spelling)",
                )

    def missing(self, parts: tuple[Any, ...], expected: str) -> None:
        self.add(parts, expected, "nothing: the field is missing")

    def time_or_none(self, value: Any) -> datetime | None:
        """:meth:`time`, or None where that raises (the full path then says why)."""
        try:
            return self.time(value)
        except _Bad:
            return None

    def time(self, value: Any) -> datetime:
        """A time as docs/scenarios.md reads it: aware, in the scenario's timezone."""
        # Cached by the value as written: text, or a date or time a reader made of it (two
        # naive times equal but for ``fold`` compare equal, so those are not cached).
        kind = type(value)
        cache = kind is str or kind is date or (kind is datetime and value.fold == 0)
        if cache:
            cached = self.times.get(value)
            if cached is not None:
                return cached
        tz = self.tz
        moment: datetime | None = None
        if isinstance(value, datetime):
            moment = value
        elif isinstance(value, date):
            moment = datetime(value.year, value.month, value.day)
        elif isinstance(value, str):
            if SUB_MICROSECOND.search(value):
                raise _Bad(
                    "a time to the microsecond at most (six digits after the seconds' point): "
                    "a finer one would be cut to the microsecond and compared with the deadlines "
                    "as if earlier",
                    show(value),
                )
            try:
                moment = datetime.fromisoformat(value.strip())
            except ValueError:
                moment = None
        if moment is None or not _TIME_YEARS[0] <= moment.year <= _TIME_YEARS[1]:
            raise _Bad(_explain_time(self.tz_name), show(value))
        if moment.tzinfo is None:
            # On a day whose UTC offset does not change, the time in the zone as it is; on the
            # days the clocks change, see _wall_time.
            result = datetime.combine(moment.date(), moment.time(), tz)  # replace(tzinfo=tz)
            steady = self.steady.get(moment.toordinal())
            if moment.fold or not (self.steady_day(moment) if steady is None else steady):
                whole_day = kind is date or (
                    kind is str and "T" not in value.upper() and " " not in value.strip()
                )
                result = self._wall_time(moment, value, whole_day)
        else:
            result = moment.astimezone(tz)
        if result.fold:  # the second pass of a repeated hour: see wall_clock
            result = exact_offset(result)
        if cache:
            if len(self.times) > 100_000:
                self.times.clear()
            self.times[value] = result
        return result

    def read_times(self, values: Iterable[Any]) -> None:
        """Read into the cache at once the times among ``values`` written as naive ISO text,
        not read before, on days the zone keeps one UTC offset: what :meth:`time` gives them,
        with less work per value. Anything else (and a text that does not read) is left to
        :meth:`time`."""
        times = self.times
        fresh = [v for v in values if type(v) is str and v not in times]
        if not fresh or len(times) + len(fresh) > 100_000:
            return
        if max(map(len, fresh)) > 26:  # (naive to the microsecond: 26 characters at most)
            fresh = [v for v in fresh if not SUB_MICROSECOND.search(v)]
            if not fresh:
                return
        try:
            moments = list(map(datetime.fromisoformat, fresh))
        except ValueError:
            return
        tz, steady, steady_day = self.tz, self.steady, self.steady_day
        low, high = _TIME_YEARS
        # Most often all of them at once: naive, in range, on steady days, each put in the zone.
        if list(map(_TZINFO, moments)).count(None) == len(moments):
            years = list(map(_YEAR, moments))
            if low <= min(years) and max(years) <= high:
                days = set(map(date.toordinal, moments))
                if all(steady.get(day) or steady_day(datetime.fromordinal(day)) for day in days):
                    # (combine: four times quicker than replace(tzinfo=tz) here)
                    dates, clocks = map(datetime.date, moments), map(datetime.time, moments)
                    zoned = map(datetime.combine, dates, clocks, repeat(tz))
                    times.update(zip(fresh, zoned, strict=True))
                    return
        for value, moment in zip(fresh, moments, strict=True):
            if moment.tzinfo is None and low <= moment.year <= high:
                day = steady.get(moment.toordinal())
                if day or (day is None and steady_day(moment)):
                    times[value] = datetime.combine(moment.date(), moment.time(), tz)

    def _wall_time(self, moment: datetime, value: Any, whole_day: bool) -> datetime:
        """:func:`wall_clock` in the scenario's zone, its complaint a problem of ``value``."""
        try:
            return wall_clock(moment, self.tz, self.tz_name, whole_day=whole_day)
        except ClockError as error:
            raise _Bad(str(error), show(value)) from None

    def steady_day(self, moment: datetime) -> bool:
        """Whether the scenario's timezone keeps one UTC offset all through ``moment``'s day."""
        day = moment.toordinal()
        steady = self.steady.get(day)
        if steady is None:
            midnight = datetime.fromordinal(day)
            offsets = {self.tz.utcoffset(midnight + timedelta(hours=h)) for h in range(0, 25, 3)}
            steady = self.steady[day] = len(offsets) == 1
        return steady

    # -- the document -----------------------------------------------------------------------

    def scenario(self, doc: Any) -> Scenario | None:
        if not isinstance(doc, dict):
            self.add(
                (),
                "a mapping with at least format, title, contests and events (docs/scenarios.md)",
                show(doc),
            )
            return None
        self.unknown_keys((), doc, _TOP_KEYS, "the top-level fields")

        fmt = doc.get("format", MISSING)
        if fmt is MISSING:
            self.missing(("format",), f"`format: {FORMAT}` at the top of the file")
        elif fmt != FORMAT:
            self.add(("format",), f"exactly {FORMAT!r}", show(fmt))

        title = doc.get("title", MISSING)
        if title is MISSING:
            self.missing(("title",), "a `title` naming the scenario")
        elif not isinstance(title, str) or not title.strip():
            self.add(("title",), _as_text("a non-empty title", title), show(title))
        elif _controls(title):
            self.add(("title",), f"a title of {_PRINTABLE}", show(title))

        description = doc.get("description", "")
        if not isinstance(description, str):
            self.add(("description",), _as_text("text", description), show(description))
            description = ""
        elif _controls(description, text=True):
            self.add(
                ("description",),
                f"text of {_PRINTABLE.replace('a newline or ', '')}; newlines and tabs are fine",
                show(description),
            )

        tz_name = doc.get("timezone", DEFAULT_TZ)
        try:
            if not isinstance(tz_name, str) or not _zone_name(tz_name):
                raise ValueError(tz_name)
            self.tz = ZoneInfo(tz_name)
            self.tz_name = tz_name
            self.steady.clear()
        except (KeyError, ValueError, OSError):
            self.add(
                ("timezone",),
                f"an IANA timezone name such as {DEFAULT_TZ!r} (the default)",
                show(tz_name),
            )

        closed = self.closed = self.office_closed(doc.get("office_closed", []))
        interpretations = self.interpretations(doc.get("interpretations", MISSING))
        parameters = self.parameters(doc.get("parameters", MISSING))
        contests, contest_ids, default = self.contests(doc.get("contests", MISSING))
        events = self.events(doc.get("events", MISSING), contest_ids, default)
        expectations = self.expectations(doc.get("expect"), contest_ids)

        if self.problems or self.misordered or not isinstance(title, str):
            return None
        return Scenario(
            title=title,
            contests=contests,
            events=events,
            description=description,
            timezone=self.tz_name,
            office_closed=closed,
            interpretations=interpretations,
            source=self.source,
            expectations=expectations,
            parameters=parameters,
        )

    def expectations(self, raw: Any, contest_ids: frozenset[str]) -> tuple[Expectation, ...]:
        """The ``expect:`` list, validated like the rest of the file
        (:mod:`simulator.input.expect`)."""
        if raw is None:
            return ()

        def when(value: Any) -> datetime | None:
            try:
                return self.time(value)
            except _Bad:
                return None

        return read_expectations(
            raw,
            contest_ids=contest_ids,
            add=self.add,
            time=when,
            time_help=_explain_time(self.tz_name),
        )

    def office_closed(self, raw: Any) -> tuple[date, ...]:
        # G.S. 103-5: extra days the board office is closed.
        if not isinstance(raw, list):
            self.add(("office_closed",), "a list of dates, like [2025-07-03]", show(raw))
            return ()
        days = []
        for i, value in enumerate(raw):
            try:
                days.append(_date(value))
            except _Bad as error:
                self.bad(("office_closed", i), error)
        return tuple(days)

    def parameters(self, raw: Any) -> tuple[tuple[str, Fraction], ...]:
        # Values of the law pinned for every contest, instead of the one in force on its day.
        if raw is MISSING:
            return ()
        if not isinstance(raw, dict):
            self.add(
                ("parameters",),
                "a mapping of parameter name to value, like {substantial_plurality: 40%}",
                show(raw),
            )
            return ()
        self.unknown_keys(("parameters",), raw, tuple(PARAMETERS), "the dated parameters")
        pinned: list[tuple[str, Fraction]] = []
        for name in PARAMETERS:
            if name not in raw:
                continue
            try:
                pinned.append((name, parse_value(raw[name])))
            except (ValueError, ZeroDivisionError):
                self.add(
                    ("parameters", name),
                    "a share strictly between 0 and 1: a percentage like 40%, a fraction like "
                    f"2/5, or a decimal like 0.4 (of at most {MOST_PLACES} decimal places)",
                    show(raw[name]),
                )
        return tuple(pinned)

    def interpretations(self, raw: Any) -> Interpretations:
        if raw is MISSING:
            return Interpretations()
        if not isinstance(raw, dict):
            self.add(
                ("interpretations",),
                "a mapping of interpretation name to setting (docs/readings.md)",
                show(raw),
            )
            return Interpretations()
        self.unknown_keys(
            ("interpretations",),
            raw,
            tuple(_INTERPRETATIONS),
            "the interpretations (docs/readings.md)",
        )
        chosen: dict[str, Any] = {}
        for name, default in _INTERPRETATIONS.items():
            if name not in raw:
                continue
            value = raw[name]
            if isinstance(default, bool):
                if type(value) is bool:
                    chosen[name] = value
                else:
                    self.add(("interpretations", name), "true or false", show(value))
            else:
                options = Interpretations.CHOICES[name]
                if isinstance(value, str) and value in options:
                    chosen[name] = value
                else:
                    self.add(
                        ("interpretations", name),
                        "one of " + ", ".join(options),
                        show(value),
                    )
        return Interpretations(**chosen)

    def contests(self, raw: Any) -> tuple[tuple[Contest, ...], frozenset[str], str | None]:
        if raw is MISSING:
            self.missing(("contests",), "a list of contests, each with at least id, method, year")
            return (), frozenset(), None
        if not isinstance(raw, list) or not raw:
            self.add(
                ("contests",),
                "a non-empty list of contests, each with at least id, method, year",
                show(raw),
            )
            return (), frozenset(), None
        contests = []
        ids: list[str] = []
        folded: dict[str, int] = {}  # each id, letter case and spacing aside -> its contest
        for i, item in enumerate(raw):
            contest, cid = self.contest(i, item, ids)
            if cid is not None and (j := folded.setdefault(_folded_id(cid), i)) != i:
                # (two contests that print alike: `[mayor]` and `[mayor ]`, Mayor and mayor)
                self.add(
                    ("contests", i, "id"),
                    f"an id that differs from those of the other contests by more than letter "
                    f"case, spacing or invisible characters: contests[{j}] is {raw[j]['id']!r}",
                    show(cid),
                )
                contest = cid = None
            if cid is not None:
                ids.append(cid)
            if contest is not None:
                contests.append(contest)
        default = ids[0] if len(raw) == 1 and ids else None
        return tuple(contests), frozenset(ids), default

    def contest(self, i: int, raw: Any, seen: list[str]) -> tuple[Contest | None, str | None]:
        here: tuple[Any, ...] = ("contests", i)
        if not isinstance(raw, dict):
            self.add(here, "a mapping with at least id, method and year", show(raw))
            return None, None
        before = len(self.problems)
        self.unknown_keys(here, raw, _CONTEST_KEYS, "the fields of a contest")
        line = raw.line if isinstance(raw, Map) else None

        cid = raw.get("id", MISSING)
        good_id: str | None = None
        if cid is MISSING:
            self.missing((*here, "id"), "an `id` for the contest, like cary-d")
        elif type(cid) is not str or not cid.strip():
            self.add((*here, "id"), "a non-empty id, like cary-d", show(cid))
        elif _controls(cid):
            self.add((*here, "id"), f"an id of {_PRINTABLE}, like cary-d", show(cid))
        elif cid in seen:
            self.add((*here, "id"), "an id no other contest uses", f"{cid!r} again")
        else:
            good_id = cid

        method: Method | None = None
        m = raw.get("method", MISSING)
        if m is MISSING:
            self.missing((*here, "method"), "a `method`: one of " + ", ".join(_METHODS))
        elif isinstance(m, str) and m in _METHODS:
            method = Method(m)
        else:
            self.add((*here, "method"), "one of " + ", ".join(_METHODS), show(m))

        stage = Stage.ELECTION
        s = raw.get("stage", "election")
        if isinstance(s, str) and s in _STAGES:
            stage = Stage(s)
        else:
            self.add((*here, "stage"), "one of " + ", ".join(_STAGES), show(s))
        if stage is Stage.PRIMARY and method is not None and method not in _PRIMARY_METHODS:
            # G.S. 163-291, 163-294: only the partisan and nonpartisan-primary methods have one.
            self.add(
                (*here, "stage"),
                "stage `election` for the nonpartisan-plurality and nonpartisan-runoff methods "
                "(only partisan and nonpartisan-primary contests have a primary)",
                show(s),
            )

        party: str | None = None
        p = raw.get("party", MISSING)
        if p is not MISSING:
            if method is not None and method is not Method.PARTISAN:
                self.add(
                    (*here, "party"),
                    f"no party for a {method.value} contest (remove `party`)",
                    show(p),
                )
            elif type(p) is str and p.strip() and _controls(p):
                self.add((*here, "party"), f"the party's abbreviation, of {_PRINTABLE}", show(p))
            elif type(p) is str and p.strip():
                party = p
            else:
                self.add((*here, "party"), "the party's abbreviation, like DEM", show(p))
        elif method is not None and is_partisan_primary(method, stage):
            self.missing(
                (*here, "party"), "a `party` for a partisan primary: whose primary it is, like DEM"
            )

        year = 0
        y = raw.get("year", MISSING)
        if y is MISSING:
            self.missing((*here, "year"), "the election `year`, like 2027")
        elif type(y) is int and _FIRST_YEAR <= y <= _LAST_YEAR:
            year = y
        else:
            self.add(
                (*here, "year"),
                f"an election year from {_FIRST_YEAR} to {_LAST_YEAR}, like 2027",
                show(y),
            )

        seats = 1
        n = raw.get("seats", 1)
        if type(n) is int and n >= 1:
            seats = n
        else:
            self.add(
                (*here, "seats"),
                "a whole number of seats, 1 or more (1 = a single office; a bare number, "
                "not a word or true/false)",
                show(n),
            )

        strings: dict[str, str] = {}
        for field in ("municipality", "office"):
            value = raw.get(field, "")
            if isinstance(value, str) and _controls(value):
                self.add((*here, field), f"text of {_PRINTABLE}", show(value))
            elif isinstance(value, str):
                strings[field] = value
            else:
                self.add((*here, field), _as_text("text", value), show(value))

        day: date | None = None
        if "date" in raw:
            try:
                day = _date(raw["date"])
            except _Bad as error:
                self.bad((*here, "date"), error)

        district_based = raw.get("district_based", False) is True
        if type(raw.get("district_based", False)) is not bool:
            self.add((*here, "district_based"), "true or false", show(raw["district_based"]))

        opens, closes = self.filing(here, raw.get("filing", MISSING))
        if (opens is None) != (closes is None) and year and method is not None:
            self.statutory_side(here, opens, closes, year, method, district_based)

        amounts: dict[str, Decimal | None] = {"filing_fee": None, "salary": None}
        for field in amounts:
            if field in raw:
                try:
                    amounts[field] = _amount(raw[field], f"the {field.replace('_', ' ')}")
                except _Bad as error:
                    self.bad((*here, field), error)
        self.check_fee(here, amounts["filing_fee"], amounts["salary"])

        if len(self.problems) > before or good_id is None or method is None:
            return None, good_id
        return (
            Contest(
                id=good_id,
                method=method,
                year=year,
                seats=seats,
                stage=stage,
                municipality=strings["municipality"],
                office=strings["office"],
                party=party,
                date=day,
                district_based=district_based,
                filing_opens=opens,
                filing_closes=closes,
                filing_fee=amounts["filing_fee"],
                salary=amounts["salary"],
                line=line,
            ),
            good_id,
        )

    def filing(self, here: tuple[Any, ...], raw: Any) -> tuple[datetime | None, datetime | None]:
        if raw is MISSING:
            return None, None
        where = (*here, "filing")
        if not isinstance(raw, dict):
            self.add(
                where,
                "a mapping like {opens: 2027-07-02T12:00, closes: 2027-07-16T12:00}",
                show(raw),
            )
            return None, None
        self.unknown_keys(where, raw, _FILING_KEYS)
        got: dict[str, datetime | None] = {"opens": None, "closes": None}
        for field in _FILING_KEYS:
            if field in raw:
                try:
                    got[field] = self.time(raw[field])
                except _Bad as error:
                    self.bad((*where, field), error)
        opens, closes = got["opens"], got["closes"]
        if opens is not None and closes is not None and closes <= opens:
            self.add(
                (*where, "closes"),
                f"a close after the opening ({opens.isoformat()})",
                closes.isoformat(),
            )
        return opens, closes

    def statutory_side(
        self,
        here: tuple[Any, ...],
        opens: datetime | None,
        closes: datetime | None,
        year: int,
        method: Method,
        district_based: bool,
    ) -> None:
        """A filing period set on one side keeps the statutory other side, and must still open
        before it closes (``filing: {closes: 2027-06-01}`` made a period from July 2 to June 1,
        and every filing was rejected as outside it; both sides given so are refused)."""
        from simulator.law.calendar import OfficeCalendar, filing_period

        office = OfficeCalendar(timezone=self.tz_name, extra_closed=frozenset(self.closed))
        statutory = filing_period(
            year, calendar=office, district_based=district_based, method=method
        )
        if closes is not None and closes <= statutory[0].due:
            self.add(
                (*here, "filing", "closes"),
                f"a close after the opening, the statutory one ({statutory[0].due.isoformat()}, "
                f"{statutory[0].how}) since `opens` is not given",
                closes.isoformat(),
            )
        if opens is not None and opens >= statutory[1].due:
            self.add(
                (*here, "filing", "opens"),
                f"an opening before the close, the statutory one ({statutory[1].due.isoformat()}, "
                f"{statutory[1].how}) since `closes` is not given",
                opens.isoformat(),
            )

    def check_fee(self, here: tuple[Any, ...], fee: Decimal | None, salary: Decimal | None) -> None:
        """G.S. 163-291(3)'s bounds on the fee: the ``fee-bounds`` table of
        :mod:`simulator.law.tables.filing`."""
        if fee is None:
            return
        problem = filing_rules.fee_bounds(fee, salary)
        if problem is not None:
            self.add((*here, "filing_fee"), *problem)

    # -- events -----------------------------------------------------------------------------

    def events(self, raw: Any, contest_ids: frozenset[str], default: str | None) -> EventLog:
        if raw is MISSING:
            self.missing(("events",), "the event log: a list of events (it may be empty: [])")
            return EventLog()
        pieces: Iterator[tuple[int, list[Any]]]
        structs = _JSON.structs if _JSON is not None else {}
        spelt = self.names.known
        if type(raw) is _JsonLog:
            structs = raw.structs

            def words() -> tuple[tuple[str, ...], tuple[str, ...]]:
                return tuple(sorted(contest_ids)), tuple(sorted({w for _, w in spelt}))

            pieces = raw.pieces(words)
        elif type(raw) is QuickLog:
            pieces = raw.pieces()
        elif isinstance(raw, list):
            pieces = iter(((0, raw),))
        else:
            self.add(("events",), "a list of events", show(raw))
            return EventLog()
        specs = {
            name: (spec, spec.cls, spec.allowed, len(spec.allowed), spec.checks, spec.ref)
            for name, spec in self.specs.items()
        }
        times = self.times
        time = self.time
        problems = self.problems
        built: list[Event | VoteColumns] = []
        ids: dict[str, int] = {}  # event id -> the index of the event that has it
        filed: dict[str, set[str]] = {c: set() for c in contest_ids}
        refs: dict[str, dict[str, tuple[int, tuple[Any, ...]]]] = {c: {} for c in contest_ids}
        # Each contest id, name and time is kept once, however often the log writes it.
        canon = {c: c for c in contest_ids}
        quick = self.quick
        UNSET = _JSON.unset if _JSON is not None else MISSING
        quotes = 0  # see _parse_json_quick
        read_time = self.time_or_none
        misordered = self.misordered
        latest: dict[str, tuple[datetime, Event]] = {}  # contest -> the latest known event
        # A run of struct events of one common shape is read in bulk (see _bulk), and the loop
        # goes on after it; after a failed try, the next try waits a little longer each time.
        retry = 0
        wait = 1
        size = 64
        for offset, piece in pieces:
            # (j, event), repositioned past a bulk run without walking it: list and range
            # iterators take the index to go on from (__setstate__)
            indices: Any = iter(range(len(piece)))
            each: Any = iter(piece)
            for j, ev in zip(indices, each, strict=True):
                i = offset + j
                # The common shapes first, in a few look-ups: an event of a quick type with only its
                # quick fields, a time read before, a known contest and a name spelt before. Any
                # doubt (a new time or name, an id, any other field) takes the full path below,
                # which gives the same event, or the problem.
                te = type(ev)
                if te is dict or te is Map:
                    kind = ev.get("type")
                    plan = quick.get(kind) if type(kind) is str else None
                    if plan is not None and i >= retry:
                        done, _ = self._bulk(
                            piece,
                            j,
                            offset,
                            size,
                            plan,
                            None,
                            False,
                            default,
                            canon,
                            filed,
                            refs,
                            latest,
                            built,
                        )
                        if done:
                            indices.__setstate__(j + done)  # past the run
                            each.__setstate__(j + done)
                            wait = 1
                            size = min(size * 2, 16384) if done == size else max(64, done)
                            continue
                        retry = i + wait
                        wait = min(wait * 2, 4096)
                    at = ev.get("at")
                    contest = ev.get("contest", default)
                    if (
                        plan is not None
                        and plan.allowed.issuperset(ev)
                        and (
                            type(at) is str
                            or type(at) is date
                            or (type(at) is datetime and at.fold == 0)  # see time()
                        )
                        and (at := times.get(at) or read_time(at)) is not None
                        and type(contest) is str
                        and (contest := canon.get(contest)) is not None
                    ):
                        written = ev.get("candidate")
                        name = spelt.get((contest, written)) if type(written) is str else None
                        count = ev.get("count", 1)
                        line = ev.line if te is Map else None
                        event = None
                        if not plan.has_name:
                            if name is None:
                                event = plan.bare(at, contest, i, line)
                        elif name is not None and type(count) is int and 0 <= count <= MAX_VOTES:
                            if "count" in ev:
                                event = plan.counted(at, contest, i, line, name, count)
                            else:
                                event = plan.named(at, contest, i, line, name)
                            if plan.filer:
                                filed[contest].add(name)
                            elif name not in (seen := refs[contest]):
                                seen[name] = (i, ("candidate",))
                        if event is not None:
                            built.append(event)
                            last = latest.get(contest)
                            if last is None or at >= last[0]:
                                latest[contest] = (at, event)
                            else:
                                misordered.append((event, last[1]))
                            continue
                elif te in structs:
                    # An event decoded from JSON by _parse_json_quick: the same common shapes, read
                    # from the struct's attributes; anything else becomes the plain dict it was.
                    plan, extras, none, counts, absent, spelt_ids = structs[te]
                    if plan is not None and i >= retry:
                        done, found = self._bulk(
                            piece,
                            j,
                            offset,
                            size,
                            plan,
                            absent,
                            spelt_ids,
                            default,
                            canon,
                            filed,
                            refs,
                            latest,
                            built,
                        )
                        if done:
                            quotes += found
                            indices.__setstate__(j + done)  # past the run
                            each.__setstate__(j + done)
                            wait = 1
                            size = min(size * 2, 16384) if done == size else max(64, done)
                            continue
                        retry = i + wait
                        wait = min(wait * 2, 4096)
                    at = times.get(ev.at) or read_time(ev.at)
                    written = ev.contest
                    contest = canon.get(default or "") if written is UNSET else canon.get(written)
                    if (
                        plan is not None
                        and at is not None
                        and contest is not None
                        and extras(ev) == none
                    ):
                        # (quotes: two for each key and each string value; a count is a number)
                        event = None
                        if not plan.has_name:
                            event = plan.bare(at, contest, i, None)
                            quotes += 8 if written is UNSET else 12
                        elif (name := spelt.get((contest, ev.candidate))) is not None:
                            count = ev.count if counts else UNSET
                            if count is UNSET:
                                event = plan.named(at, contest, i, None, name)
                                quotes += 12 if written is UNSET else 16
                            elif 0 <= count <= MAX_VOTES:
                                event = plan.counted(at, contest, i, None, name, count)
                                quotes += 14 if written is UNSET else 18
                            if event is not None:
                                if plan.filer:
                                    filed[contest].add(name)
                                elif name not in (seen := refs[contest]):
                                    seen[name] = (i, ("candidate",))
                        if event is not None:
                            built.append(event)
                            last = latest.get(contest)
                            if last is None or at >= last[0]:
                                latest[contest] = (at, event)
                            else:
                                misordered.append((event, last[1]))
                            continue
                    ev, found = _struct_dict(ev)
                    quotes += found
                if not isinstance(ev, dict):
                    self.add(
                        ("events", i),
                        "a mapping like {type: candidate_filed, at: 2027-07-06, candidate: Ann}",
                        show(ev),
                    )
                    continue
                before = len(problems)
                kind = ev.get("type", MISSING)
                fast = specs.get(kind) if type(kind) is str else None
                if fast is None:
                    self.event_type(i, kind, ev)
                else:
                    spec, cls, allowed, n_allowed, checks, ref = fast
                    if len(ev) > n_allowed or not allowed.issuperset(ev):
                        self.unknown_keys(
                            ("events", i), ev, spec.names, f"the fields of a {kind} event"
                        )

                at = ev.get("at", MISSING)
                if type(at) is str and (known := times.get(at)) is not None:
                    at = known
                elif at is MISSING:
                    self.missing(
                        ("events", i, "at"),
                        f"`at`: when it happened, {_explain_time(self.tz_name)}",
                    )
                else:
                    try:
                        at = time(at)
                    except _Bad as error:
                        self.bad(("events", i, "at"), error)

                event_id = ev.get("id")
                if event_id is not None:
                    event_id = self.event_id(i, event_id, ids)

                contest = ev.get("contest", default)
                if type(contest) is not str or contest not in contest_ids:
                    self.event_contest(i, ev, contest_ids)
                    contest = None
                else:
                    contest = canon[contest]

                if fast is None:
                    continue
                fields: dict[str, Any] = {}
                for field, check in checks:
                    value = ev.get(field, MISSING)
                    if value is MISSING:
                        if field in spec.required:
                            self.missing(
                                ("events", i, field),
                                f"a `{field}` field ({_FIELD_HELP[field]}) for {spec.cls.type}",
                            )
                        continue
                    try:
                        fields[field] = check(value)
                    except _Bad as error:
                        self.bad(("events", i, field), error)

                if contest is not None and ref is not None:
                    # Names are compared in their normal form and kept as first written.
                    field = "candidate" if ref == "filer" else ref
                    named = fields.get(field)
                    if named is not None:
                        where = ev.line if type(ev) is Map else None
                        if field == "counts":
                            fields[field] = self.names.counts(contest, named, i, where)
                        else:
                            fields[field] = self.names.spell(contest, named, i, (field,), where)
                    if ref == "filer":
                        named = fields.get("candidate")
                        if named is not None:
                            filed[contest].add(named)
                    elif (named := fields.get(ref)) is not None:
                        seen = refs[contest]
                        if ref == "counts":
                            for name in named:
                                if name not in seen:
                                    seen[name] = (i, ("counts", name))
                        elif named not in seen:
                            seen[named] = (i, (ref,))

                if len(problems) > before or contest is None:
                    continue
                if cls is CandidateDied and fields.get("notice_at", at) < at:
                    self.add(
                        ("events", i, "notice_at"),
                        f"a time on or after the death itself (`at` is {at.isoformat()})",
                        fields["notice_at"].isoformat(),
                    )
                    continue
                event = cls(
                    at=at,
                    contest=contest,
                    index=i,
                    id=event_id,
                    line=ev.line if type(ev) is Map else None,
                    **fields,
                )
                built.append(event)
                # docs/scenarios.md: each contest's events in the order the board learned of them
                # (``notice_at`` where given, else ``at``; equal times keep file order).
                known = event.known_at
                last = latest.get(contest)
                if last is None or known >= last[0]:
                    latest[contest] = (known, event)
                else:
                    misordered.append((event, last[1]))
        self.struct_quotes = quotes
        log = EventLog(built)
        self.never_filed(filed, refs, log)
        return log

    def _bulk(
        self,
        raw: list[Any],
        start: int,
        offset: int,
        size: int,
        plan: _Quick,
        absent: tuple[str, ...] | None,
        spelt_ids: bool,
        default: str | None,
        canon: dict[str, str],
        filed: dict[str, set[str]],
        refs: dict[str, dict[str, tuple[int, tuple[Any, ...]]]],
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
        contest id as spelt (see _JsonLog.spelt_decoder). Gives how many events it read (0 when
        it read none: the events loop reads them one by one, with the same result) and how many
        quotes their strings take in the text (two for each key and each string value; see
        _parse_json_quick).
        """
        chunk = raw[start : start + size]
        te = type(chunk[0])
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
            unset = MISSING

            def get(field: str, otherwise: Any) -> list[Any]:
                return list(map(dict.get, chunk, repeat(field), repeat(otherwise)))

        else:
            unset = _json_types().unset
            for field in absent:
                column = list(map(operator.attrgetter(field), chunk[:n]))
                if column.count(unset) != n:
                    n = next(k for k, value in enumerate(column) if value is not unset)

            def get(field: str, otherwise: Any) -> list[Any]:
                return list(map(operator.attrgetter(field), chunk))

        if n == 0:
            return 0, 0
        del chunk[n:]
        try:
            # Times: each distinct value read once.
            written = get("at", None)
            times = self.times
            distinct = set(written)
            self.read_times(distinct)
            moments = {
                value: (times.get(value) or self.time_or_none(value))
                if type(value) is str
                or type(value) is date
                or (type(value) is datetime and value.fold == 0)  # see time()
                else None
                for value in distinct
            }
            # (each column is cut to the first n events only where n shrank)
            read = list(map(moments.__getitem__, written))
            if None in moments.values():
                n = read.index(None)
                del read[n:]
            ats = cast("list[datetime]", read)
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
            if plan.has_name:
                spellings, _ = self.names.by_contest()
                written = get("candidate", None)
                if len(written) != n:
                    del written[n:]
                owners = self.names.verbatim_owners()
                if owners is not None and list(map(owners.get, written)) == cs:
                    names = written  # (each name as written, and spelt in its own contest)
                else:
                    nobody: dict[str, str] = {}
                    names = list(map(dict.get, map(spellings.get, cs, repeat(nobody)), written))
                if None in names:
                    n = names.index(None)
                    del names[n:]
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
                        return 0, 0
        except TypeError:  # a value that is no key (a list, a mapping): one by one
            return 0, 0
        if n == 0:
            return 0, 0
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
        # Time order: a run in order overall is in order in each contest; each contest's first
        # event in the run comes no earlier than its latest event before the run.
        if not all(map(operator.le, ats, ats[1:])):
            return 0, 0
        distinct = set(cs)
        for c in distinct:
            last = latest.get(c)
            if last is not None and ats[cs.index(c)] < last[0]:
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
                owners=self.names.owners(),
            )
        elif not plan.has_name:
            events = plan.many_bare(n, ats, cs, index, lines)
        elif number:
            events = plan.many_counted(n, ats, cs, index, lines, names, number)
        else:
            events = plan.many_named(n, ats, cs, index, lines, names)
        # (each contest's names all filed, or all named before: nothing new in this run)
        _, spelt = self.names.by_contest()
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
            else:  # where a name is first named in its contest (for its problem, if any)
                for c, name in pairs:
                    if name not in refs[c]:
                        k = next(k for k in range(n) if cs[k] == c and names[k] == name)
                        refs[c][name] = (offset + start + k, ("candidate",))
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

    def event_id(self, i: int, value: Any, ids: dict[str, int]) -> str | None:
        """An event's optional ``id``: a name made of letters, digits, ``-``, ``_`` and ``.``,
        given to one event only (what-if edits and sweeps address the event by it)."""
        if type(value) is not str or not _EVENT_ID.fullmatch(value):
            self.add(
                ("events", i, "id"),
                "an event id: letters, digits, '-', '_' or '.', starting with a letter or digit, "
                "like bob-dies",
                show(value),
            )
            return None
        if value in ids:
            self.add(
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
            self.missing(("events", i, "type"), f"a `type`: one of {kinds}")
        else:
            self.add(("events", i, "type"), f"one of the event types {kinds}", show(kind))

    def event_contest(self, i: int, ev: dict[Any, Any], contest_ids: frozenset[str]) -> None:
        if not contest_ids:
            return  # the contests themselves are wrong; that is reported already
        ids = ", ".join(sorted(contest_ids))
        if "contest" not in ev:
            self.missing(
                ("events", i, "contest"),
                f"a `contest` naming one of the contests ({ids}): the scenario has more than one",
            )
        else:
            self.add(
                ("events", i, "contest"), f"the id of a contest: one of {ids}", show(ev["contest"])
            )

    def never_filed(
        self,
        filed: dict[str, set[str]],
        refs: dict[str, dict[str, tuple[int, tuple[Any, ...]]]],
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
            self.add(
                ("events", i, *sub),
                f"a candidate who filed in contest {contest!r}: add a candidate_filed (or "
                "nominee_named) event for them, or correct the spelling; write-ins are named "
                "'Write-In (Miscellaneous)' or 'NAME (Write-In)'",
                f"{show(name)}, who never filed{count}",
            )


# ---------------------------------------------------------------------------------------------
# Candidates' names and the order of the log

#: Characters that print as nothing: zero-width space, non-joiner and joiner, word joiner,
#: byte-order mark, soft hyphen, Mongolian vowel separator.
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e"))


def _folded_id(cid: str) -> str:
    return normal_name(cid).casefold()


def normal_name(name: str) -> str:
    """A candidate's name as electsim compares it: Unicode NFC, no invisible characters, no
    surrounding whitespace, and single spaces between words. Letter case is kept (two names
    that differ only in case are an error, not the same person)."""
    if name.isascii():
        return " ".join(name.split())
    return " ".join(unicodedata.normalize("NFC", name).translate(_INVISIBLE).split())


class _Names:
    """Every candidate's name, spelt once: each later spelling that differs only by Unicode form,
    invisible characters or spacing becomes the first (without its surrounding whitespace); two
    spellings that differ by letter case in one contest are a problem (nothing is merged
    silently)."""

    def __init__(self, problems: list[RawProblem]) -> None:
        self.problems = problems
        self.known: dict[tuple[str, str], str] = {}  # (contest, as written) -> first spelling
        self.first: dict[str, str] = {}  # normal form -> first spelling, in the whole scenario
        #: (contest, case-folded normal form) -> (normal form, event index, path, line)
        self.folded: dict[tuple[str, str], tuple[str, int, tuple[Any, ...], int | None]] = {}
        self.clashed: set[tuple[str, str]] = set()  # (contest, spelling) reported already
        #: ``known`` by contest (see by_contest), up to its first ``by_size`` entries
        self.written: dict[str, dict[str, str]] = {}
        self.spelt: dict[str, set[str]] = {}
        self.by_size = 0
        #: each first spelling -> its one contest, made for ``known``'s first ``owned`` entries
        #: (None: a name in two contests)
        self.owned = -1
        self.owner: dict[str, str] | None = None
        self.verbatim = False  # every name of ``known`` written as first spelt (see owners)

    def by_contest(self) -> tuple[dict[str, dict[str, str]], dict[str, set[str]]]:
        """``known`` by contest: each contest's names as written -> first spelling, and each
        contest's first spellings; brought up to date with ``known`` (which only grows, in
        order) as they are asked for."""
        known = self.known
        if self.by_size != len(known):
            for (contest, written), first in islice(known.items(), self.by_size, None):
                self.written.setdefault(contest, {})[written] = first
                self.spelt.setdefault(contest, set()).add(first)
            self.by_size = len(known)
        return self.written, self.spelt

    def owners(self) -> dict[str, str] | None:
        """Each name (as first spelt) -> the one contest it is spelt in, or None where a name
        is spelt in two contests. A new mapping whenever ``known`` grew: one given out is
        never changed."""
        _, spelt = self.by_contest()
        if self.owned != self.by_size:
            owner: dict[str, str] | None = {}
            for contest, names in spelt.items():
                for name in names:
                    if owner.setdefault(name, contest) != contest:  # type: ignore[union-attr]
                        owner = None
                        break
                if owner is None:
                    break
            self.owner, self.owned = owner, self.by_size
            self.verbatim = all(w == first for (_, w), first in self.known.items())
        return self.owner

    def verbatim_owners(self) -> dict[str, str] | None:
        """:meth:`owners`, where every name known was written as first spelt (so a name as
        written is spelt in the contest it maps to, and needs no look-up by contest); else
        None."""
        owner = self.owners()
        return owner if self.verbatim else None

    def spell(self, contest: str, name: str, i: int, sub: tuple[Any, ...], line: int | None) -> str:
        known = self.known.get((contest, name))
        if known is not None:
            return known
        normal = normal_name(name)
        first = self.first.setdefault(normal, name.strip())
        folded = (contest, normal.casefold())
        seen = self.folded.setdefault(folded, (normal, i, sub, line))
        if seen[0] != normal:
            self.clashed.add((contest, first))
            there = f"events[{seen[1]}]" + (f" (line {seen[3]})" if seen[3] is not None else "")
            self.problems.append(
                (
                    ("events", i, *sub),
                    f"one spelling of each candidate's name in contest {contest!r}: "
                    f"{show(self.first[seen[0]])} at {there} differs from this one only in "
                    "letter case (write the name the same way in every event)",
                    show(name),
                    None,
                )
            )
        else:
            self.known[contest, name] = first
        return first

    def counts(
        self, contest: str, counts: dict[str, int], i: int, line: int | None
    ) -> dict[str, int]:
        out: dict[str, int] = {}
        written: dict[str, str] = {}
        for name, votes in counts.items():
            first = self.spell(contest, name, i, ("counts", name), line)
            if first in out:
                other, found = show(written[first]), show(name)
                if normal_name(found) == normal_name(other):  # (they would look the same)
                    other, found = ascii(written[first]), ascii(name)
                self.problems.append(
                    (
                        ("events", i, "counts", name),
                        f"each candidate once in `counts`: this name is the same as {other} but "
                        "for spacing, invisible characters or how its accents are encoded",
                        found,
                        None,
                    )
                )
                continue
            out[first] = votes
            written[first] = name
        return dict(sorted(out.items())) if len(out) > 1 else out


def _order_problems(
    misordered: list[tuple[Event, Event]], lines: dict[int, int | None] | None = None
) -> list[RawProblem]:
    """Problems for events out of order; ``lines`` are the events' lines where the events do
    not know them (JSON)."""
    raws: list[RawProblem] = []
    for later, earlier in misordered:
        field = "notice_at" if getattr(later, "notice_at", None) is not None else "at"
        line = earlier.line if lines is None else lines.get(earlier.index)
        there = f"events[{earlier.index}]" + (f" (line {line})" if line is not None else "")
        raws.append(
            (
                ("events", later.index, field),
                f"a time no earlier than {there}, {earlier.known_at.isoformat()}: the log "
                "lists each contest's events in the order the board learned of them "
                "(`notice_at` where given, else `at`); move this event to its place in time "
                "or correct its date",
                later.known_at.isoformat(),
                later.line,
            )
        )
    return raws


# ---------------------------------------------------------------------------------------------
# The public functions


def structure(doc: Any, *, source: str | None = None) -> Scenario:
    """A validated :class:`Scenario` from plain data in the scenario file format.

    ``doc`` is what a YAML or JSON reader gives (dicts, lists, strings, numbers, booleans, None)
    or what a script builds: times may also be :class:`~datetime.datetime` or
    :class:`~datetime.date` values and money a :class:`~decimal.Decimal`. ``source`` names where
    the data came from, in messages and in :attr:`Scenario.source`.

    Raises :class:`ScenarioError` listing every problem, each with its path
    (``events[3].candidate``), what was expected and what was found; nothing else escapes.

    >>> s = structure({"format": "electsim/v1", "title": "T",
    ...     "contests": [{"id": "mayor", "method": "nonpartisan-plurality", "year": 2027}],
    ...     "events": [{"type": "candidate_filed", "at": "2027-07-06", "candidate": "Ann"}]})
    >>> s.events[0].candidate, s.events[0].at.isoformat()
    ('Ann', '2027-07-06T00:00:00-04:00')
    >>> structure({"format": "electsim/v1", "title": "T", "contests": [], "events": []})
    Traceback (most recent call last):
    ...
    simulator.model.errors.ScenarioError: <scenario>: contests: expected a non-empty list of \
contests, each with at least id, method, year; found a list []
    """
    with gc_paused():
        scenario, validator = _structured(doc, source)
    if scenario is not None:
        return scenario
    raise finish(validator.problems + _order_problems(validator.misordered), source)


def _structured(doc: Any, source: str | None) -> tuple[Scenario | None, _Validator]:
    """The scenario (None if anything is wrong) and the validator that holds the problems."""
    validator = _Validator(source)
    scenario = validator.scenario(doc)
    # the specs' time check is the validator's own method: let go of them, so that the
    # validator is freed when its last reference goes (not left to the cyclic collector)
    validator.specs = {}
    return scenario, validator


def parse_scenario(text: str, *, source: str = "<string>", fmt: str | None = None) -> Scenario:
    """Read a scenario from ``text``: ``fmt`` is ``"yaml"`` (the default) or ``"json"``.

    Raises :class:`ScenarioError` listing every problem found; nothing else escapes.
    """
    if fmt not in (None, "yaml", "json"):
        raise ValueError(f"fmt must be 'yaml', 'json' or None, not {fmt!r}")
    with gc_paused():
        if fmt == "json":
            return _parse_json(text, source)
        return _parse_yaml(text, source)


_YAML_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def _editor_lines(raws: list[RawProblem], text: str) -> list[RawProblem]:
    """The problems with their lines counted as editors and ``grep -n`` count them: YAML also
    breaks lines at U+0085, U+2028 and U+2029 (allowed in a description), so its line numbers
    run ahead of the editor's after one."""
    if not any(c in text for c in "\x85\u2028\u2029"):
        return raws
    editor = [0, 1]  # editor[yaml line] (1-based)
    for m in _YAML_BREAK.finditer(text):
        editor.append(editor[-1] + (m.group() in ("\r\n", "\r", "\n")))
    return [
        (parts, expected, found, editor[line] if line is not None and line < len(editor) else line)
        for parts, expected, found, line in raws
    ]


def _parse_yaml(text: str, source: str, *, quick: bool = True) -> Scenario:
    # The quick reading where the text has its shape; the located reading below reports
    # whatever is wrong, exactly as if the quick one had not been tried.
    doc = read_yaml_quick_log(text) if quick else None
    if doc is not None:
        with contextlib.suppress(QuickDoubt):
            scenario, _ = _structured(doc, source)
            if scenario is not None:
                return scenario
        del doc
    try:
        doc, read_problems = read_yaml(text, detail=False)
    except yaml.YAMLError as error:
        raise finish(_editor_lines([yaml_problem(error, text)], text), source) from None
    scenario, validator = _structured(doc, source)
    if scenario is not None and not read_problems:
        return scenario
    # An alias or tag problem already covers what the validator says about the same value.
    covered = {parts for parts, expected, _, _ in read_problems if expected != REPEATED_KEY}
    raws = read_problems + [p for p in validator.problems if p[0] not in covered]
    raws += _order_problems(validator.misordered)
    # Lines: from the first reading where it knows them, else from a second, detailed one.
    located: list[RawProblem] = []
    unsure = False
    for parts, expected, found, line in raws:
        if line is None:
            line, exact = locate(doc, parts)
            unsure = unsure or not exact
        located.append((parts, expected, found, line))
    if unsure:
        with contextlib.suppress(yaml.YAMLError):
            tree, _ = read_yaml(text, detail=True)
            located = [
                (parts, expected, found, locate(tree, parts)[0] if line is None else line)
                for (parts, expected, found, line) in raws
            ]
    raise finish(_editor_lines(located, text), source)


# ---------------------------------------------------------------------------------------------
# JSON, quickly: msgspec decodes the event log straight into typed structs


_StructEntry = tuple[_Quick | None, Callable[[Any], Any], Any, bool, tuple[str, ...], bool]


@attrs.frozen
class _JsonTypes:
    """The msgspec types of the quick JSON reading, made on its first use (msgspec is imported
    only by a JSON load)."""

    decoder: Any  # msgspec.json.Decoder of the whole document, its event log left as text
    log: Any  # msgspec.json.Decoder of (a piece of) the event log
    #: the same for a piece whose events of a type with a quick plan have only the plan's
    #: fields (no ``id``, no ``precinct``): lean structs, with no fields to check are absent
    lean: Any
    unset: Any  # msgspec.UNSET: a field the event does not have
    raw: type[Any]  # msgspec.Raw: a value left as its JSON text
    errors: tuple[type[Exception], ...]
    #: struct class -> (quick plan or None, getter of the fields that must be absent for the
    #: quick plan, what that getter gives when they are, whether the type has ``count``, the
    #: names of those fields, whether its ``contest`` can only be a contest id as spelt)
    structs: dict[type[Any], _StructEntry]
    full: dict[str, type[Any]]  # event type -> its full struct class


_JSON: _JsonTypes | None = None
#: The fields a struct reads as typed values; every other field stays JSON text (msgspec.Raw)
#: and is read like the rest of the file, by :func:`simulator.input.parse.read_json`.
_STRUCT_TYPES: dict[str, Any] = {"candidate": str, "winner": str, "party": str, "count": int}


def _nothing(event: Any) -> None:
    """The extra fields of a lean struct: none."""


def _lean_union(
    full: dict[str, type[Any]], contest: Any, candidate: Any
) -> tuple[list[type[Any]], dict[type[Any], _StructEntry]]:
    """The union a lean decoder decodes (each event type with a quick plan as a lean struct, its
    ``contest`` and ``candidate`` fields of the given types; any other type as its ``full``
    struct) and the ``_JsonTypes.structs`` entries of the lean structs."""
    import msgspec

    union: list[type[Any]] = []
    entries: dict[type[Any], _StructEntry] = {}
    for name, cls in EVENT_TYPES.items():
        plan = _QUICK.get(name)
        if plan is None:
            union.append(full[name])
            continue
        fields: list[Any] = [("at", str), ("contest", contest | msgspec.UnsetType, msgspec.UNSET)]
        for f in cls.fields:
            if f in plan.allowed:
                kind = candidate if f == "candidate" and not plan.filer else _STRUCT_TYPES[f]
                fields.append((f, kind | msgspec.UnsetType, msgspec.UNSET))
        lean = msgspec.defstruct(
            f"_Lean_{name}",
            fields,
            tag=name,
            tag_field="type",
            forbid_unknown_fields=True,
            gc=False,
        )
        union.append(lean)
        entries[lean] = (plan, _nothing, None, "count" in cls.fields, (), contest is not str)
    return union, entries


def _lean_decoder(union: list[type[Any]]) -> Any:
    import functools

    import msgspec

    return msgspec.json.Decoder(list.__class_getitem__(functools.reduce(operator.or_, union)))


def _json_types() -> _JsonTypes:
    global _JSON
    if _JSON is not None:
        return _JSON
    import functools

    import msgspec

    unset, unset_type, raw = msgspec.UNSET, msgspec.UnsetType, msgspec.Raw
    structs: dict[type[Any], _StructEntry]
    structs = {}
    full: dict[str, type[Any]] = {}
    for name, cls in EVENT_TYPES.items():
        own = [(f, _STRUCT_TYPES.get(f, raw) | unset_type, unset) for f in cls.fields]
        common: list[Any] = [
            ("at", str),
            ("contest", str | unset_type, unset),
            ("id", raw | unset_type, unset),
        ]
        struct = msgspec.defstruct(
            f"_Json_{name}",
            [*common, *own],
            tag=name,
            tag_field="type",
            forbid_unknown_fields=True,
            gc=False,
        )
        plan = _QUICK.get(name)
        extras = ["id", *(f for f in cls.fields if plan is None or f not in plan.allowed)]
        none = unset if len(extras) == 1 else (unset,) * len(extras)
        getter = operator.attrgetter(*extras)
        structs[struct] = (plan, getter, none, "count" in cls.fields, tuple(extras), False)
        full[name] = struct
    members = [(k, raw | unset_type, unset) for k in _TOP_KEYS if k != "events"]
    union: Any = functools.reduce(operator.or_, full.values())
    log: Any = list.__class_getitem__(union)
    document = msgspec.defstruct(
        "_JsonDocument", [("events", raw), *members], forbid_unknown_fields=True
    )
    lean_union, lean_structs = _lean_union(full, str, str)
    structs.update(lean_structs)
    _JSON = _JsonTypes(
        decoder=msgspec.json.Decoder(document),
        log=msgspec.json.Decoder(log),
        lean=_lean_decoder(lean_union),
        unset=unset,
        raw=raw,
        errors=(msgspec.MsgspecError, ValueError, RecursionError),
        structs=structs,
        full=full,
    )
    return _JSON


#: Bytes of JSON text in each piece of an event log decoded at once, and how far to look past
#: that for the end of an event (``}``, a comma, the next ``{``).
_PIECE = 1 << 22
_WINDOW = 1 << 16
_OWN_DECODER = 1 << 20  # bytes of event log from which a log gets a decoder of its own
_SPELT_NAMES = 4096  # names a log's own decoder takes as a Literal, at most
_BETWEEN = re.compile(rb"\}[ \t\n\r]*,[ \t\n\r]*\{")


class _JsonLog:
    """The event log of a JSON text (as msgspec.Raw, a view of the text) decoded into structs
    piece by piece as the events loop reads it, so that only one piece's structs are alive at
    once (a piece is cut after an event, where ``}``, a comma and ``{`` meet).

    A cut that falls inside a string leaves that string open at the end of its piece, so the
    piece does not decode: the error ends the quick reading, as any other would."""

    def __init__(self, raw: Any, types: _JsonTypes) -> None:
        self.raw = raw
        self.types = types
        self.lean = True  # each piece is decoded lean first, until one does not decode lean
        #: the struct classes of this log's pieces -> _JsonTypes.structs entries (with those of
        #: the decoders made for this log)
        self.structs = dict(types.structs)
        #: a lean decoder made for this log's spellings, and the spellings it was made for
        self.spelt: tuple[Any, Any] | None = None

    def spelt_decoder(self, words: tuple[tuple[str, ...], tuple[str, ...]]) -> Any:
        """A lean decoder whose ``contest`` takes only the contest ids and whose ``candidate``
        (but in a filing) takes only the names spelt so far: msgspec gives back those very
        strings, so a big log makes no new string for each contest and name it writes (and the
        events loop finds each contest canonical already). None once it has failed for these
        spellings. (``typing`` caches a Literal by its values: the strings may be those of an
        earlier document, equal to these.)"""
        if self.spelt is None or self.spelt[0] != words:
            contests, names = words
            literal = cast("Any", Literal)
            # (past a few thousand names, a name is any string again: a Literal that big costs
            # more to make for each piece than it saves)
            spelt = literal[names] if 0 < len(names) <= _SPELT_NAMES else str
            union, entries = _lean_union(self.types.full, literal[contests], spelt)
            self.structs.update(entries)
            self.spelt = (words, _lean_decoder(union))
        return self.spelt[1]

    def pieces(
        self, words: Callable[[], tuple[tuple[str, ...], tuple[str, ...]]] | None = None
    ) -> Iterator[tuple[int, list[Any]]]:
        """Each piece with the index of its first event in the log; ``words`` gives the
        spellings known before each piece (see spelt_decoder), for a log big enough to pay for
        a decoder of its own."""
        view = memoryview(self.raw)
        end = len(view) - 1
        if end < 1 or view[0] != ord("[") or view[end] != ord("]"):
            raise ValueError("the event log is not a list")
        at = 1
        offset = 0
        while True:
            cut, after = end, end
            if end - at > _PIECE:
                window = bytes(view[at + _PIECE : at + _PIECE + _WINDOW])
                found = _BETWEEN.search(window)
                if found is not None:
                    cut = at + _PIECE + found.start() + 1
                    after = at + _PIECE + found.end() - 1
            text = bytearray(b"[")
            text += view[at:cut]
            text += b"]"
            piece = None
            if words is not None and self.lean and end > _OWN_DECODER:
                decoder = self.spelt_decoder(words())
                if decoder is not None:
                    try:
                        piece = decoder.decode(text)
                    except self.types.errors:
                        self.spelt = (self.spelt[0], None) if self.spelt else None
            if piece is None and self.lean:
                try:
                    piece = self.types.lean.decode(text)
                except self.types.errors:
                    self.lean = False
            if piece is None:
                piece = self.types.log.decode(text)
            del text
            yield offset, piece
            offset += len(piece)
            if cut == end:
                return
            at = after


def _struct_dict(event: Any) -> tuple[dict[str, Any], int]:
    """A struct of the quick JSON reading as the plain dict :func:`json.loads` would have read
    (every number exact), and how many quotes its strings take in the text (escaped quotes
    not counted; see :func:`_parse_json_quick`).

    Raises ValueError where a value repeats a key (the located reading reports it).
    """
    types = _json_types()
    out: dict[str, Any] = {"type": type(event).__struct_config__.tag}
    quotes = 4  # the key "type" and its value
    for field in event.__struct_fields__:
        value = getattr(event, field)
        if value is types.unset:
            continue
        quotes += 2
        if type(value) is types.raw:
            written = bytes(value)
            quotes += _quotes_in(written)
            value, repeated = read_json(written.decode())
            if repeated:
                raise ValueError("a repeated key")
        elif type(value) is str:
            quotes += 2
        out[field] = value
    return out, quotes


def _quotes_in(text: bytes) -> int:
    """The quotes in a piece of JSON text that open or close a string (escaped ones not)."""
    quotes = text.count(b'"')
    return quotes - text.count(b'\\"') if b"\\" in text else quotes


def _parse_json_quick(text: str | bytes, source: str) -> Scenario | None:
    """The scenario a JSON text (or its UTF-8 bytes) holds, read quickly, or None: the caller
    then reads it with :func:`_parse_json`, which says what is wrong (or gives the same
    scenario).

    msgspec decodes the event log straight into one struct per event (unknown fields, wrong
    types and unknown event types fail the decoding); the rest of the document, small, is read
    by :func:`simulator.input.parse.read_json` as before, and :class:`_Validator` checks it all.
    msgspec keeps the last of a repeated key silently, so the strings read are counted and
    compared with the strings in the text. A key is a string, and a string is written between
    two quotes, however it is escaped inside (the text of a value left as msgspec.Raw counts
    its own quotes); in a text with no escaped backslash before a quote, every other quote is
    an escaped one (``\\"``). Each repeated key, whose value msgspec dropped, leaves the text
    with more quotes than the strings read take: a count of one character, fast.
    """
    quotes_in_text = _quotes_of(text)
    if quotes_in_text is None:
        return None
    types = _json_types()
    try:
        doc = types.decoder.decode(text)
        plain: dict[str, Any] = {}
        quotes = 2  # the key "events"
        for name in _TOP_KEYS:
            value = getattr(doc, name)
            if name == "events" or value is types.unset:
                continue
            written = bytes(value)
            value, repeated = read_json(written.decode())
            if repeated:
                return None
            plain[name] = value
            quotes += 2 + _quotes_in(written)
        plain["events"] = _JsonLog(doc.events, types)
        del doc
        scenario, validator = _structured(plain, source)
    except types.errors:
        return None
    if scenario is None:
        return None
    if quotes + validator.struct_quotes != quotes_in_text:
        return None
    return scenario


def _quotes_of(text: str | bytes) -> int | None:
    """The quotes of a JSON text that open or close a string, or None where an escaped
    backslash comes before a quote (``\\\\"``: the count would need to read the escapes)."""
    if isinstance(text, bytes):
        if b"\\" not in text:
            return text.count(b'"')
        if b'\\\\"' in text:
            return None
        return text.count(b'"') - text.count(b'\\"')
    if "\\" not in text:
        return text.count('"')
    if '\\\\"' in text:
        return None
    return text.count('"') - text.count('\\"')


#: How deep a scenario's JSON may nest lists and objects: :mod:`json` reads nesting by
#: recursion and gives up somewhere below the interpreter's recursion limit (about 1000); a
#: scenario needs five levels.
_JSON_DEPTH = 500
_JSON_NESTING = (
    f"JSON whose lists and objects are nested at most {_JSON_DEPTH} deep (a scenario needs a few)"
)


def _parse_json(text: str, source: str, *, quick: bool = True) -> Scenario:
    # As for YAML: the quick reading first, the located one whenever it steps aside.
    text = text.removeprefix("\ufeff")
    scenario = _parse_json_quick(text, source) if quick else None
    if scenario is not None:
        return scenario
    try:
        doc, repeated = read_json(text)
    except json.JSONDecodeError as error:
        raise finish([((), "well-formed JSON", error.msg, error.lineno)], source) from None
    except RecursionError:  # lists or objects inside each other deeper than json reads
        deep = f"lists or objects nested more than {_JSON_DEPTH} deep, from this line on"
        raise finish(
            [((), _JSON_NESTING, deep, json_nesting_line(text, _JSON_DEPTH))], source
        ) from None
    except ValueError as error:
        raise finish([((), "well-formed JSON", str(error)[:SHOW], None)], source) from None
    scenario, validator = _structured(doc, source)
    if scenario is not None and not repeated:
        return scenario
    duplicates = json_duplicates(doc, repeated)
    again: dict[tuple[Any, ...], int] = {}
    for parts, _, _, _ in duplicates:
        again[parts] = again.get(parts, 0) + 1
    raws = duplicates + validator.problems
    if validator.misordered:
        earlier = sorted({e.index for _, e in validator.misordered})
        found = json_lines(text, [(("events", j), "", "", None) for j in earlier], {})
        lines = {j: line for j, (_, _, _, line) in zip(earlier, found, strict=True)}
        raws += _order_problems(validator.misordered, lines)
    raise finish(json_lines(text, raws, again), source)


def load_scenario(path: str | os.PathLike[str], *, max_bytes: int = MAX_INPUT_BYTES) -> Scenario:
    """Read a scenario file: ``.json`` as JSON, anything else as YAML (docs/scenarios.md).

    A missing or unreadable file, one over ``max_bytes`` (1 GiB unless raised) and one that is
    not UTF-8 text are a :class:`ScenarioError` too; reading stops as soon as that is clear.
    A JSON file's bytes go to the quick reading as they are (msgspec reads UTF-8 and refuses
    what is not); they are decoded only where it steps aside.
    """
    source = os.fspath(path)
    fmt = "json" if source.lower().endswith(".json") else "yaml"
    try:
        data = read_data(source, max_bytes=max_bytes, decoded=fmt != "json")
    except (InputTooLarge, NotText, OSError, ValueError) as error:  # ValueError: NUL in the name
        raise _file_problem(error, source) from None
    quick = True
    if isinstance(data, bytes):
        with gc_paused():
            scenario = _parse_json_quick(data.removeprefix(b"\xef\xbb\xbf"), source)
        if scenario is not None:
            return scenario
        quick = False
        try:
            data = decode_text(data)
        except NotText as error:
            raise _file_problem(error, source) from None
    with gc_paused():
        if fmt == "json":
            return _parse_json(data, source, quick=quick)
        return _parse_yaml(data, source)


def _file_problem(error: Exception, source: str) -> ScenarioError:
    """The scenario file could not be read as text: why, as the one problem of the file."""
    if isinstance(error, InputTooLarge):
        expected = (
            f"a scenario file of at most {describe_size(error.limit)} (raise the limit with "
            "--max-bytes)"
        )
        found = f"a longer file (reading stopped at {describe_size(error.limit)})"
        return ScenarioError([Problem("file", expected, found, None, source)])
    if isinstance(error, NotText):
        found = f"{error.reason} (at byte {error.offset})"
        expected = "UTF-8 text (a YAML or JSON scenario)"
        return ScenarioError([Problem("file", expected, found, error.line, source)])
    found = _describe_os_error(error)
    return ScenarioError([Problem("file", "a readable scenario file", found, None, source)])


def _describe_os_error(error: Exception) -> str:
    if isinstance(error, UnicodeDecodeError):
        return f"bytes that are not UTF-8 text (at byte {error.start})"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)


# ---------------------------------------------------------------------------------------------
# Writing


def _number(amount: Decimal) -> int | float | str:
    """A Decimal as the plainest scalar that reads back equal."""
    if amount == amount.to_integral_value():
        return int(amount)
    as_float = float(amount)
    if Decimal(repr(as_float)) == amount:
        return as_float
    return str(amount)


def _percent_text(value: Fraction) -> str:
    pct = value * 100
    if pct.denominator == 1:
        return f"{pct.numerator}%"
    return f"{value.numerator}/{value.denominator}"


def scenario_to_dict(scenario: Scenario) -> dict[str, Any]:
    """The scenario as plain data in the scenario file format; defaults are left out.

    ``parse_scenario(yaml.safe_dump(scenario_to_dict(s))) == s``.
    """
    out: dict[str, Any] = {"format": FORMAT, "title": scenario.title}
    if scenario.description:
        out["description"] = scenario.description
    if scenario.timezone != DEFAULT_TZ:
        out["timezone"] = scenario.timezone
    if scenario.office_closed:
        out["office_closed"] = [d.isoformat() for d in scenario.office_closed]
    default = Interpretations()
    switched = {
        f.name: scenario.interpretations.setting(f.name)
        for f in attrs.fields(Interpretations)
        if getattr(scenario.interpretations, f.name) != getattr(default, f.name)
    }
    if switched:
        out["interpretations"] = switched
    if scenario.parameters:
        out["parameters"] = {name: _percent_text(v) for name, v in scenario.parameters}
    out["contests"] = [_contest_to_dict(c) for c in scenario.contests]
    several = len(scenario.contests) != 1
    out["events"] = [_event_to_dict(e, several) for e in scenario.events]
    return out


def _contest_to_dict(contest: Contest) -> dict[str, Any]:
    out: dict[str, Any] = {"id": contest.id}
    if contest.municipality:
        out["municipality"] = contest.municipality
    if contest.office:
        out["office"] = contest.office
    out["seats"] = contest.seats
    out["method"] = contest.method.value
    if contest.stage is not Stage.ELECTION:
        out["stage"] = contest.stage.value
    if contest.party is not None:
        out["party"] = contest.party
    out["year"] = contest.year
    if contest.date is not None:
        out["date"] = contest.date.isoformat()
    if contest.district_based:
        out["district_based"] = True
    filing = {}
    if contest.filing_opens is not None:
        filing["opens"] = contest.filing_opens.isoformat()
    if contest.filing_closes is not None:
        filing["closes"] = contest.filing_closes.isoformat()
    if filing:
        out["filing"] = filing
    if contest.filing_fee is not None:
        out["filing_fee"] = _number(contest.filing_fee)
    if contest.salary is not None:
        out["salary"] = _number(contest.salary)
    return out


def _event_to_dict(event: Event, with_contest: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"id": event.id} if event.id is not None else {}
    out.update(type=event.type, at=event.at.isoformat())
    if with_contest:
        out["contest"] = event.contest
    for field in event.fields:
        value = getattr(event, field)
        if value is None or (field == "count" and value == 1):
            continue
        if isinstance(value, datetime):
            value = value.isoformat()
        elif field == "counts":
            value = dict(value)
        elif field == "fee":
            value = int(value) if value.isdigit() else value
        out[field] = value
    return out


def dump_scenario(scenario: Scenario, path: str | os.PathLike[str]) -> None:
    """Write ``scenario`` to ``path``: JSON for a ``.json`` name, else YAML."""
    data = scenario_to_dict(scenario)
    target = Path(path)
    if target.suffix.lower() == ".json":
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    else:
        text = yaml.dump(
            data,
            Dumper=_YamlDumper,
            sort_keys=False,
            allow_unicode=True,
            default_flow_style=None,
            width=100,
        )
    target.write_text(text, encoding="utf-8")
