"""Reading scenario files (docs/scenarios.md): YAML or JSON in, a validated :class:`Scenario` out.

This module holds the entry points; the package's modules hold one part of the checks each.

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

1. **Reading** (:mod:`simulator.input.parse`): one pass from text to dicts and lists, with the
   line of every mapping, duplicate keys and tags recorded as problems. The garbage collector is
   paused while millions of small containers are created. A YAML event log of one-line flow
   mappings (``- {type: votes_cast, at: ..., candidate: Ann}``, the shape of a big generated log)
   is read quickly with string operations
   (:func:`simulator.input.parse.yaml_quick.read_yaml_quick_log`), a piece of the log at a time
   as the checks read it, so that no mapping per event is kept for the whole log; anything
   else, and any file with a problem (wherever in the log the quick reading meets it), is read
   by libyaml's event loop, which locates every problem. A JSON file is decoded
   by msgspec straight into one typed struct per event (:func:`_parse_json_quick`), a few MiB of
   the event log at a time as the checks read it (:mod:`simulator.input.loader.json_structs`): lean
   structs first (only the fields of an event's common shape), and in a big log structs whose
   contest and candidate take only the contest ids and the names spelt so far, so that msgspec
   hands back those strings rather than a new one per event. A repeated key, which msgspec would
   drop silently, is found by counting the quotes of the text against the strings read. Any doubt
   (an unknown field, a wrong type, a repeated key, any problem at all) and the file is read again
   by :func:`json.loads`, whose reading locates every problem.
2. **Validating.** :class:`simulator.input.loader.document.ScenarioReader` walks the raw data
   once, checking every field and building the frozen values of :mod:`simulator.model.scenario` and
   :mod:`simulator.model.events`. An event of a common shape (a type without special fields, a time
   and a name seen before, a known contest) is checked in a few look-ups; any other event, or any
   doubt, takes the full path, which gives the same event or says what is wrong. A run of events of
   one common shape (the votes of a big log) is checked in bulk, a pass in C over each column of
   the run (:mod:`simulator.input.loader.bulk`). Each event type's own checks are those of its
   family (:mod:`simulator.input.loader.families`). A run of votes is kept as its columns
   (:class:`simulator.model.eventlog.VoteColumns`), which replay sums without making an event per
   vote (an event is made when something asks for it); the events of any other run are made by
   :func:`simulator.model.events.column_builder`, which sets each slot of the whole run with one
   ``map`` in C (an event checked alone is made by :func:`simulator.model.events.builder`). No
   regular expressions, no ``pendulum``, and no :class:`~simulator.model.errors.Problem` unless
   something is wrong. Times are parsed with :meth:`datetime.fromisoformat` and cached by what was
   written; on a day without a change of UTC offset, a local time needs no round trip through UTC.
3. **Locating.** Only when there are problems are lines looked up, by each problem's path
   (:func:`simulator.input.parse.locations.locate`,
   :func:`simulator.input.parse.locations.json_lines`). Events read from JSON carry
   ``line=None``: :mod:`json` keeps no positions, and finding them on every load would add a
   second pass over the text. Data handed to :func:`structure` has no lines at all: its
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
happens twice (the fall-back hour) unless it gives its UTC offset (see
:func:`simulator.input.loader.clock.wall_clock`):
nothing is moved or chosen for the file. Times are then normalised, so that a scenario written
out by :func:`scenario_to_dict` reads back equal.
"""

from __future__ import annotations

import contextlib
import json
import os
from typing import Any

import yaml

from simulator.engine.replay import collector_paused
from simulator.input.files import (
    MAX_INPUT_BYTES,
    InputTooLarge,
    NotText,
    decode_text,
    describe_size,
    read_data,
)
from simulator.input.loader.clock import ClockError, wall_clock
from simulator.input.loader.document import ScenarioReader
from simulator.input.loader.fields import TOP_KEYS
from simulator.input.loader.json_structs import (
    JsonLog,
    json_types,
    quotes_in,
    quotes_of,
)
from simulator.input.loader.problems import editor_lines, order_problems
from simulator.input.loader.writing import dump_scenario, scenario_to_dict
from simulator.input.parse.json_reading import json_duplicates, json_nesting_line, read_json
from simulator.input.parse.locations import json_lines, locate
from simulator.input.parse.messages import REPEATED_KEY, SHOW, RawProblem, finish
from simulator.input.parse.yaml_quick import QuickDoubt, read_yaml_quick_log
from simulator.input.parse.yaml_reader import read_yaml, yaml_problem
from simulator.model.errors import Problem, ScenarioError
from simulator.model.scenario import Scenario

__all__ = [
    "ClockError",
    "dump_scenario",
    "load_scenario",
    "parse_scenario",
    "scenario_to_dict",
    "structure",
    "wall_clock",
]


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
    with collector_paused():
        scenario, validator = _structured(doc, source)
    if scenario is not None:
        return scenario
    raise finish(validator.problems.raws + order_problems(validator.log.misordered), source)


def _structured(doc: Any, source: str | None) -> tuple[Scenario | None, ScenarioReader]:
    """The scenario (None if anything is wrong) and the reader that holds the problems."""
    reader = ScenarioReader(source)
    return reader.scenario(doc), reader


def parse_scenario(text: str, *, source: str = "<string>", fmt: str | None = None) -> Scenario:
    """Read a scenario from ``text``: ``fmt`` is ``"yaml"`` (the default) or ``"json"``.

    Raises :class:`ScenarioError` listing every problem found; nothing else escapes.
    """
    if fmt not in (None, "yaml", "json"):
        raise ValueError(f"fmt must be 'yaml', 'json' or None, not {fmt!r}")
    with collector_paused():
        if fmt == "json":
            return _parse_json(text, source)
        return _parse_yaml(text, source)


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
        raise finish(editor_lines([yaml_problem(error, text)], text), source) from None
    scenario, validator = _structured(doc, source)
    if scenario is not None and not read_problems:
        return scenario
    # An alias or tag problem already covers what the validator says about the same value.
    covered = {parts for parts, expected, _, _ in read_problems if expected != REPEATED_KEY}
    raws = read_problems + [p for p in validator.problems.raws if p[0] not in covered]
    raws += order_problems(validator.log.misordered)
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
    raise finish(editor_lines(located, text), source)


def _parse_json_quick(text: str | bytes, source: str) -> Scenario | None:
    """The scenario a JSON text (or its UTF-8 bytes) holds, read quickly, or None: the caller
    then reads it with :func:`_parse_json`, which says what is wrong (or gives the same
    scenario).

    msgspec decodes the event log straight into one struct per event (unknown fields, wrong
    types and unknown event types fail the decoding); the rest of the document, small, is read
    by :func:`simulator.input.parse.json_reading.read_json` as before, and
    :class:`~simulator.input.loader.document.ScenarioReader` checks it all.
    msgspec keeps the last of a repeated key silently, so the strings read are counted and
    compared with the strings in the text. A key is a string, and a string is written between
    two quotes, however it is escaped inside (the text of a value left as msgspec.Raw counts
    its own quotes); in a text with no escaped backslash before a quote, every other quote is
    an escaped one (``\\"``). Each repeated key, whose value msgspec dropped, leaves the text
    with more quotes than the strings read take: a count of one character, fast.
    """
    quotes_in_text = quotes_of(text)
    if quotes_in_text is None:
        return None
    types = json_types()
    try:
        doc = types.decoder.decode(text)
        plain: dict[str, Any] = {}
        quotes = 2  # the key "events"
        for name in TOP_KEYS:
            value = getattr(doc, name)
            if name == "events" or value is types.unset:
                continue
            written = bytes(value)
            value, repeated = read_json(written.decode())
            if repeated:
                return None
            plain[name] = value
            quotes += 2 + quotes_in(written)
        plain["events"] = JsonLog(doc.events, types)
        del doc
        scenario, validator = _structured(plain, source)
    except types.errors:
        return None
    if scenario is None:
        return None
    if quotes + validator.log.struct_quotes != quotes_in_text:
        return None
    return scenario


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
    raws = duplicates + validator.problems.raws
    if validator.log.misordered:
        earlier = sorted({e.index for _, e in validator.log.misordered})
        found = json_lines(text, [(("events", j), "", "", None) for j in earlier], {})
        lines = {j: line for j, (_, _, _, line) in zip(earlier, found, strict=True)}
        raws += order_problems(validator.log.misordered, lines)
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
        with collector_paused():
            scenario = _parse_json_quick(data.removeprefix(b"\xef\xbb\xbf"), source)
        if scenario is not None:
            return scenario
        quick = False
        try:
            data = decode_text(data)
        except NotText as error:
            raise _file_problem(error, source) from None
    with collector_paused():
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
