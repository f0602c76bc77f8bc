"""Reading YAML and JSON text into plain data, remembering where things were written.

This module knows nothing of scenarios: it turns text into dicts, lists and scalars, records the
problems a reader can see on its own (malformed text, a repeated key, a tag, an alias to nothing)
with their lines, and afterwards finds the line of any path (``events[3].at``) a later check
complains about. :mod:`simulator.input.loader` holds the scenario schema and uses it.

1. **YAML** is read by :class:`YamlReader`, a subclass of PyYAML's ``CSafeLoader`` (the libyaml
   parser; ``SafeLoader`` when libyaml is absent). Instead of PyYAML's compose-then-construct
   passes, which build a node tree of the whole file and then walk it, :meth:`YamlReader.build`
   turns the parser's event stream straight into dicts and lists in one iterative pass: plain
   scalars are resolved once per distinct text (a cache), every mapping remembers its line,
   duplicate keys and tags other than YAML's own scalar tags (``!!python/object`` and friends)
   are recorded as problems rather than raised, and no recursion limit can be hit.
   :func:`read_yaml_quick` reads the common shape of a big log faster still: an event log of
   one-line flow mappings of simple scalars, read with string operations; it steps aside (None)
   whenever anything is in doubt. :func:`read_yaml_quick_log` is the same reading a piece of the
   log at a time (:class:`QuickLog`), for a reader that checks each piece and lets it go.
2. **JSON** is read by :func:`json.loads` with an ``object_pairs_hook`` (repeated keys) and
   ``parse_float=Decimal`` (money stays exact).
3. **Lines.** The first YAML reading knows the line of every mapping, of every key of a block
   mapping, and that a one-line flow mapping (an event like ``{type: votes_cast, ...}``) has all
   its keys on its line; only where that is not enough (a multi-line flow mapping, an item of a
   list of scalars) is the text read a second time, recording every line (:func:`locate`). For
   JSON, :func:`json_lines` follows just the problems' paths through the text, skipping
   everything else with the :mod:`json` scanner: :mod:`json` keeps no positions, and finding
   them on every load would add a second pass over the text.
"""

from __future__ import annotations

import contextlib
import gc
import json
import re
from collections.abc import Callable, Iterator
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import ScalarNode

from simulator.model.errors import Problem, ScenarioError

try:
    from yaml import CSafeLoader as _YamlLoader
except ImportError:  # pragma: no cover - no libyaml: the pure-Python parser, same events
    from yaml import SafeLoader as _YamlLoader  # type: ignore[assignment]

__all__ = [
    "MISSING",
    "REPEATED_KEY",
    "SHOW",
    "LongNumber",
    "Map",
    "QuickDoubt",
    "QuickLog",
    "RawProblem",
    "Seq",
    "YamlReader",
    "finish",
    "format_path",
    "gc_paused",
    "json_duplicates",
    "json_int",
    "json_lines",
    "json_nesting_line",
    "locate",
    "read_json",
    "read_yaml",
    "read_yaml_quick",
    "read_yaml_quick_log",
    "show",
    "yaml_problem",
]

#: One problem before it becomes a :class:`Problem`: path parts, expected, found, line.
RawProblem = tuple[tuple[Any, ...], str, str, int | None]

MISSING: Any = object()  # a key that is absent / no pending key
_MERGE: Any = object()  # the YAML merge key ``<<``

#: A fraction of a second written past its sixth digit with more than zeros there: Python reads
#: times to the microsecond and would cut it off, so that a request 100 ns after a noon deadline
#: would be read as made at noon, in time. Such a time is refused (see the scenario loader).
SUB_MICROSECOND = re.compile(r"[.,]\d{6}0*[1-9]")
_T = "tag:yaml.org,2002:"
_STR, _NULL, _BOOL, _INT, _FLOAT = _T + "str", _T + "null", _T + "bool", _T + "int", _T + "float"
_TIMESTAMP, _MAP, _SEQ, _MERGE_TAG = _T + "timestamp", _T + "map", _T + "seq", _T + "merge"
_SCALAR_TAGS = frozenset({_STR, _NULL, _BOOL, _INT, _FLOAT, _TIMESTAMP})

#: YAML 1.1 reads a number with a leading zero as octal and one with colons as base 60, so
#: ``precinct: 0012`` was precinct 10 (and one with precinct ``10``), ``count: 010`` was 8
#: votes and ``precinct: 1:30`` was 90. Nobody writing a scenario means either: such a number
#: is kept as the text written (a precinct's name; for a count, a problem that shows it).
#: So is every other integer form YAML 1.1 reads that is not plain decimal digits: hexadecimal
#: ``0x1F`` (31), binary ``0b101`` (5), octal ``0o17`` and digits grouped by underscores
#: (``1_5`` is 15): the scenario format asks for plain decimal numbers, and a value is never
#: read as other than it looks.
_DECIMAL = re.compile(r"[-+]?(0|[1-9][0-9]*)\Z")
SHOW = 60  # how much of a found value a message shows
_JSON_SPACE = re.compile(r"[ \t\n\r]*")  # JSON's whitespace (only used to find lines)
REPEATED_KEY = (
    "each key at most once in a mapping (nothing a user wrote may be lost: remove or rename "
    "the repeated key)"
)


# ---------------------------------------------------------------------------------------------
# Reading YAML


class Map(dict[Any, Any]):
    """A mapping read from YAML: its 1-based line and where its keys are.

    ``key_lines`` is the line of each key (detail mode), or None when the whole mapping is on its
    one line (a flow mapping like ``{type: votes_cast, ...}``), or not set (not known).
    """

    __slots__ = ("key_lines", "line")
    line: int | None
    key_lines: dict[Any, int] | None


class Seq(list[Any]):
    """A sequence read in detail mode: its line and the line of each item."""

    __slots__ = ("item_lines", "line")
    line: int
    item_lines: list[int]


def _slot(container: Any, pending: Any) -> Any:
    """The path part of the value being read into ``container``."""
    if isinstance(container, dict):
        if pending is MISSING:
            return "<key>"
        return "<<" if pending is _MERGE else pending
    return len(container)


class LongNumber:
    """A whole number written with more digits than Python writes out as text (its limit on
    converting an integer to text, 4300 digits): no field takes one, and a message shows it by
    its size. Kept as an int it would pass a check for a count or a number of seats and then
    stop the program where the number is written out (a timeline, the JSON result)."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"a number of about {self.digits} digits"

    __str__ = __repr__


def _long_number(number: int) -> int | LongNumber:
    """``number``, or a :class:`LongNumber` where it is too long to write out in decimal."""
    if number.bit_length() > 14_000:  # about 4,200 decimal digits: near the limit, test it
        try:
            str(number)
        except ValueError:
            return LongNumber(int(number.bit_length() * 0.30103))
    return number


def _whole(construct: Callable[[ScalarNode], Any], text: str) -> int | LongNumber:
    """A YAML integer (decimal, ``0x``, ``0o``, ``0b``, sexagesimal), too long ones aside."""
    try:
        return _long_number(construct(ScalarNode(_INT, text)))
    except ValueError:  # more decimal digits than int() reads
        return LongNumber(sum(c.isdigit() for c in text))


def json_int(text: str) -> int | LongNumber:
    """A JSON integer, as :func:`json.loads` reads it (``parse_int``), too long ones aside."""
    try:
        return int(text)
    except ValueError:
        return LongNumber(len(text.lstrip("-")))


class YamlReader(_YamlLoader):
    """libyaml's safe parser with a one-pass, line-recording, problem-collecting builder.

    Use :meth:`build` instead of ``get_single_data``. docs/scenarios.md: "nothing a user wrote is
    lost", so a duplicate key is a problem, not a silent overwrite.
    """

    def __init__(self, text: str, *, detail: bool = False) -> None:
        super().__init__(text)
        self.detail = detail
        self.cache: dict[str, Any] = {}  # plain scalar text -> its value
        self.problems: list[RawProblem] = []
        self.duplicates: list[RawProblem] = []

    # -- scalars ----------------------------------------------------------------------------

    def _plain(self, value: str) -> Any:
        """A plain (unquoted, untagged) scalar, resolved as YAML 1.1 / PyYAML's safe loader does,
        but for YAML 1.1's octal and base-60 numbers, which are kept as the text written (see
        :data:`_DECIMAL`)."""
        tag: str = self.resolve(ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]
        if tag == _STR:
            return value
        if tag == _INT:
            if not _DECIMAL.match(value):
                return value
            return _whole(self.construct_yaml_int, value)
        if tag == _FLOAT and (":" in value or "_" in value):
            return value
        if tag == _FLOAT:
            return self._float(value)
        if tag == _BOOL:
            return self.bool_values[value.lower()]
        if tag == _NULL:
            return None
        if tag == _TIMESTAMP:
            return self._timestamp(value)
        if tag == _MERGE_TAG:
            return _MERGE
        return value  # the '=' value key, or anything else a resolver might add: plain text

    def plain_cached(self, value: str) -> Any:
        """:meth:`_plain` through the reader's cache of plain scalars."""
        cache = self.cache
        val = cache.get(value, MISSING)
        if val is MISSING:
            val = self._plain(value)
            if len(cache) > 100_000:
                cache.clear()
            cache[value] = val
        return val

    def _float(self, value: str) -> Any:
        """Floats become exact Decimals from their text, so ``12.50`` stays ``12.50``."""
        try:
            return Decimal(value.replace("_", ""))
        except InvalidOperation:
            pass
        try:  # .inf, .nan, sexagesimal 1:30.5
            number = self.construct_yaml_float(ScalarNode(_FLOAT, value))
        except ValueError:
            return value
        return Decimal(repr(number)) if number - number == 0 else Decimal(number)

    def _timestamp(self, value: str) -> Any:
        if SUB_MICROSECOND.search(value):
            return value  # text: the scenario loader says why it is refused
        try:
            if len(value) == 10:
                return date.fromisoformat(value)
            return datetime.fromisoformat(value)
        except ValueError:
            pass
        try:  # the rarer YAML forms (``2001-12-14 21:59:43.10 -5``); an impossible date stays text
            return self.construct_yaml_timestamp(ScalarNode(_TIMESTAMP, value))
        except ValueError:
            return value

    def _tagged(self, ev: Any, where: tuple[Any, ...]) -> Any:
        """A scalar with an explicit tag: YAML's own scalar tags are fine, others a problem."""
        tag = ev.tag
        value: str = ev.value
        if tag in _SCALAR_TAGS:
            try:
                if tag == _STR:
                    return value
                if tag == _BOOL:
                    return self.bool_values[value.lower()]
                if tag == _NULL:
                    return None
                if tag == _INT:
                    return _whole(self.construct_yaml_int, value)
                result = self._float(value) if tag == _FLOAT else self._timestamp(value)
                if isinstance(result, str):
                    raise ValueError(value)
                return result
            # PyYAML's constructors raise assorted errors on text that does not fit their tag.
            except Exception:
                self.problems.append(
                    (
                        where,
                        f"a value that fits its tag !!{str(tag)[len(_T) :]}",
                        show(value),
                        ev.start_mark.line + 1,
                    )
                )
                return value
        self._bad_tag(tag, ev, where)
        return value

    def _bad_tag(self, tag: Any, ev: Any, where: tuple[Any, ...]) -> None:
        self.problems.append(
            (
                where,
                "plain YAML data: no tags (a `!!python/...` or `!custom` tag is not allowed; "
                "remove it)",
                f"the tag {_short_tag(tag)}",
                ev.start_mark.line + 1,
            )
        )

    # -- the builder ------------------------------------------------------------------------

    def build(self) -> Any:
        """Read the single document: plain dicts/lists/scalars, maps as :class:`Map`.

        Raises :class:`yaml.YAMLError` for malformed text; collects everything else in
        :attr:`problems`.
        """
        get = self.get_event
        detail = self.detail
        problems = self.problems
        cache = self.cache
        anchors: dict[str, Any] = {}
        stack: list[tuple[Any, Any, Any, Any, Any]] = []
        cur: Any = None  # the open collection; None at the top
        in_map = False
        key: Any = MISSING  # the key waiting for its value, in a mapping
        key_ev: Any = None
        merges: list[Any] | None = None
        lines: dict[Any, int] | None = None  # the open mapping's key lines, if recorded
        root: Any = None
        documents = 0
        val: Any
        while True:
            ev: Any = get()
            et = type(ev)
            if et is ScalarEvent:
                tag = ev.tag
                if tag is None:
                    if ev.implicit[0]:
                        text = ev.value
                        val = cache.get(text, MISSING)
                        if val is MISSING:
                            val = self._plain(text)
                            if len(cache) > 100_000:
                                cache.clear()
                            cache[text] = val
                    else:
                        val = ev.value
                elif tag == "!":
                    val = ev.value
                else:
                    val = self._tagged(ev, _path_here(stack, cur, key))
                if val is _MERGE and not (in_map and key is MISSING):
                    val = "<<"  # a merge key is only special as a key
                if ev.anchor is not None:
                    anchors[ev.anchor] = val
            elif et is MappingStartEvent:
                new: Any = Map()
                new.line = ev.start_mark.line + 1
                if ev.tag is not None and ev.tag != _MAP and ev.tag != "!":
                    self._bad_tag(ev.tag, ev, _path_here(stack, cur, key))
                stack.append((cur, key, key_ev, merges, lines))
                # Key lines cost a little per key: recorded for block mappings (usually few);
                # a flow mapping, like each event of a big log, is usually on one line.
                lines = None
                if detail or not ev.flow_style:
                    new.key_lines = lines = {}
                if ev.anchor is not None:
                    anchors[ev.anchor] = new
                cur, in_map, key, merges = new, True, MISSING, None
                continue
            elif et is MappingEndEvent:
                if merges is not None:
                    _apply_merges(cur, merges)
                if lines is None and ev.end_mark.line + 1 == cur.line:
                    cur.key_lines = None  # all on one line: each key's line is the mapping's
                val = cur
                cur, key, key_ev, merges, lines = stack.pop()
                in_map = type(cur) is Map
            elif et is SequenceStartEvent:
                if detail:
                    new = Seq()
                    new.line = ev.start_mark.line + 1
                    new.item_lines = []
                else:
                    new = []
                if ev.tag is not None and ev.tag != _SEQ and ev.tag != "!":
                    self._bad_tag(ev.tag, ev, _path_here(stack, cur, key))
                if ev.anchor is not None:
                    anchors[ev.anchor] = new
                stack.append((cur, key, key_ev, merges, lines))
                cur, in_map, key, merges, lines = new, False, MISSING, None, None
                continue
            elif et is SequenceEndEvent:
                val = cur
                cur, key, key_ev, merges, lines = stack.pop()
                in_map = type(cur) is Map
            elif et is AliasEvent:
                val = anchors.get(ev.anchor, MISSING)
                if val is MISSING:
                    problems.append(
                        (
                            _path_here(stack, cur, key),
                            "an alias to an anchor defined above it (`&name` before `*name`)",
                            f"*{ev.anchor}",
                            ev.start_mark.line + 1,
                        )
                    )
                    val = None
            elif et is DocumentStartEvent:
                documents += 1
                if documents > 1:
                    problems.append(
                        (
                            (),
                            "a single YAML document (remove the second `---`)",
                            "another document",
                            ev.start_mark.line + 1,
                        )
                    )
                    break
                continue
            elif et is StreamEndEvent or ev is None:
                break
            else:  # stream start, document end
                continue

            # Place the value just read.
            if cur is None:
                root = val
            elif in_map:
                if key is MISSING:
                    key, key_ev = val, ev
                    continue
                if key is _MERGE:
                    merges = self._merge_source(merges, val, _path_here(stack, cur, key), ev)
                else:
                    n = len(cur)
                    try:
                        cur[key] = val
                    except TypeError:
                        problems.append(
                            (
                                _path_here(stack, cur, "<key>"),
                                "a plain key such as a field name (not a list or a mapping)",
                                show(key),
                                key_ev.start_mark.line + 1,
                            )
                        )
                    else:
                        if len(cur) == n:
                            self.duplicates.append(
                                (
                                    _path_here(stack, cur, key),
                                    REPEATED_KEY,
                                    f"{show(key)} again",
                                    key_ev.start_mark.line + 1,
                                )
                            )
                        if lines is not None:
                            lines[key] = key_ev.start_mark.line + 1
                key = MISSING
            else:
                cur.append(val)
                if detail:
                    t = type(val)
                    cur.item_lines.append(
                        val.line
                        if (t is Map or t is Seq) and et is not AliasEvent
                        else ev.start_mark.line + 1
                    )
        return root

    def _merge_source(
        self, merges: list[Any] | None, val: Any, where: tuple[Any, ...], ev: Any
    ) -> list[Any] | None:
        """Record ``<<: *base`` (or a list of bases: the first wins) for the open mapping."""
        sources = list(reversed(val)) if isinstance(val, list) else [val]
        good = [s for s in sources if isinstance(s, dict)]
        if len(good) != len(sources):
            self.problems.append(
                (
                    where,
                    "a mapping, or a list of mappings, to merge with `<<`",
                    show(val),
                    ev.start_mark.line + 1,
                )
            )
        return (merges or []) + good


def _apply_merges(cur: Map, merges: list[Any]) -> None:
    """YAML merge keys: the mapping's own keys win, then later ``<<`` keys over earlier ones."""
    key_lines = getattr(cur, "key_lines", None)
    for src in reversed(merges):
        for k, v in src.items():
            if k not in cur:
                cur[k] = v
                if key_lines is not None:
                    lines = getattr(src, "key_lines", None) or {}
                    key_lines[k] = lines.get(k, getattr(src, "line", 0))


def _path_here(stack: list[tuple[Any, Any, Any, Any, Any]], cur: Any, key: Any) -> tuple[Any, ...]:
    """Path of the slot being filled, from the builder's stack (only used on problems)."""
    parts = [_slot(frame[0], frame[1]) for frame in stack[1:]]
    if cur is not None:
        parts.append(_slot(cur, key))
    return tuple(parts)


def _short_tag(tag: Any) -> str:
    text = str(tag)
    return "!!" + text[len(_T) :] if text.startswith(_T) else text


def yaml_problem(error: yaml.YAMLError, text: str) -> RawProblem:
    """One problem for malformed YAML, at the line the parser reports."""
    line: int | None = None
    if isinstance(error, yaml.MarkedYAMLError):
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark is not None else None
        found = " ".join(str(x) for x in (error.context, error.problem) if x)
    elif isinstance(error, yaml.reader.ReaderError):
        with contextlib.suppress(Exception):
            line = text.encode("utf-8", "replace")[: int(error.position)].count(b"\n") + 1
        found = f"the character {error.character!r}: {error.reason}"
    else:
        found = str(error)
    return ((), "well-formed YAML", found or "a syntax error", line)


def read_yaml(text: str, *, detail: bool) -> tuple[Any, list[RawProblem]]:
    """The document and the problems met while reading it; raises only :class:`yaml.YAMLError`."""
    try:
        loader = YamlReader(text, detail=detail)
    except UnicodeError as error:  # lone surrogates cannot be handed to libyaml
        raise yaml.YAMLError(f"text that is valid Unicode: {error}") from None
    try:
        root = loader.build()
        return root, loader.duplicates + loader.problems
    finally:
        loader.dispose()


# ---------------------------------------------------------------------------------------------
# Reading YAML quickly: an event log of one-line flow mappings

# (a line found after its newline: a pattern that starts with ``^`` is tried at every character,
# one that starts with a newline only at each newline)
_EVENTS_KEY = re.compile(r"events:[ ]*$", re.MULTILINE)  # on the first line
_EVENTS_LINE = re.compile(r"\nevents:[ ]*$", re.MULTILINE)  # on a later line
_BLOCK_END = re.compile(r"\n[^-#\s]")  # the next top-level key, after its newline
#: What may not start a plain scalar here (YAML's indicators, quotes, space); what may not be in
#: one (flow indicators, a comment, a tab); the characters that end a quoted one early.
_NOT_FIRST = frozenset("-?:,[]{}#&*!|>'\"%@` ")
_NOT_INSIDE = re.compile(r"[,\[\]{}#\t]|: |:$")


def read_yaml_quick(text: str) -> Any | None:
    """The document exactly as :func:`read_yaml` reads it, for the common shape of a big
    scenario: a top-level ``events:`` whose items are one-line flow mappings of simple scalars
    (``- {type: votes_cast, at: '2027-11-02T09:00', candidate: Ann}``). Those lines are read here
    with string operations (each distinct ``key: value`` once), each item a :class:`Map` with its
    line, and the rest of the text (those lines blanked, so that lines stay where they are) by
    :class:`YamlReader`.

    None when the text has another shape, when anything is in doubt (quotes with escapes, a tag,
    an anchor, a comment on an item's line, a repeated key, ...) or when the rest has a problem:
    the caller then reads the whole text with :func:`read_yaml`, which reports it.

    This is :func:`read_yaml_quick_log` with the whole event log read at once.
    """
    root = read_yaml_quick_log(text)
    if root is None:
        return None
    try:
        root["events"] = [item for _, piece in root["events"].pieces() for item in piece]
    except QuickDoubt:
        return None
    return root


class QuickDoubt(Exception):
    """What :meth:`QuickLog.pieces` raises where the quick reading is in doubt about a line."""


#: About how many characters of an event log :meth:`QuickLog.pieces` reads at once.
_LINES_PIECE = 1 << 20


class QuickLog:
    """The event log of :func:`read_yaml_quick_log`, its one-line flow mappings read piece by
    piece as a reader takes them, so that only one piece of mappings is alive at once."""

    __slots__ = ("end", "first_line", "plain", "start", "text")

    def __init__(
        self, text: str, start: int, end: int, first_line: int, plain: Callable[[str], Any]
    ) -> None:
        self.text = text
        self.start = start
        self.end = end
        self.first_line = first_line
        self.plain = plain

    def pieces(self) -> Iterator[tuple[int, list[Any]]]:
        """Each piece of items (:class:`Map`) with the index of its first item in the log.

        Raises :class:`QuickDoubt` on the first line in doubt, and at the end of a log with
        no items: the whole text is then for :func:`read_yaml`, exactly as if
        :func:`read_yaml_quick` had stepped aside.
        """
        text, end, plain = self.text, self.end, self.plain
        pairs: dict[str, tuple[Any, Any] | None] = {}  # "key: value" -> (key, value) or None
        indent: str | None = None
        first = self.first_line
        at = self.start
        offset = 0
        while at < end:
            cut = text.find("\n", at + _LINES_PIECE, end) if end - at > _LINES_PIECE else -1
            if cut < 0:
                cut = end
            items: list[Any] = []
            lines = text[at:cut].split("\n")
            for number, line in enumerate(lines, first):
                body = line.lstrip(" ")
                if not body or body[0] == "#":
                    continue
                if body[:3] != "- {" or body[-1] != "}":
                    raise QuickDoubt(number)
                if indent is None:
                    indent = line[: len(line) - len(body)]
                elif len(line) - len(body) != len(indent):
                    raise QuickDoubt(number)
                inner = body[3:-1].strip(" ")
                parts = inner.split(", ")
                if "{" in inner:  # a nested mapping (or a doubt)
                    nested = _nested_parts(parts)
                    item = _flow_map(nested, number, pairs, plain) if nested else None
                    if item is None:
                        raise QuickDoubt(number)
                    items.append(item)
                    continue
                item = Map()
                item.line = number
                item.key_lines = None
                for part in parts:
                    pair = pairs.get(part, MISSING)
                    if pair is MISSING:
                        pair = pairs[part] = _flow_pair(part, plain)
                    if pair is None:
                        raise QuickDoubt(number)
                    item[pair[0]] = pair[1]
                if len(item) != len(parts):
                    raise QuickDoubt(number)  # a repeated key: the full reading reports it
                items.append(item)
            first += len(lines)
            del lines
            at = cut + 1
            if items:
                yield offset, items
                offset += len(items)
                del items
        if not offset:
            raise QuickDoubt("no items")


def read_yaml_quick_log(text: str) -> Any | None:
    """:func:`read_yaml_quick`, the event log not read yet: the document, its ``events`` a
    :class:`QuickLog` whose :meth:`~QuickLog.pieces` read it (or raise :class:`QuickDoubt`,
    where :func:`read_yaml_quick` would have given None). None where the text has another shape
    or the rest of it a problem."""
    if "\r" in text:
        return None
    found = _EVENTS_KEY.match(text) or _EVENTS_LINE.search(text)
    if found is None or found.end() == len(text):
        return None
    start = found.end() + 1
    end_match = _BLOCK_END.search(text, start - 1)
    end = end_match.start() + 1 if end_match is not None else len(text)
    first_line = text.count("\n", 0, start) + 1
    try:
        reader = YamlReader(text[:start] + "\n" * text.count("\n", start, end) + text[end:])
    except UnicodeError:
        return None
    try:
        root = reader.build()
        if reader.problems or reader.duplicates:
            return None
    except yaml.YAMLError:
        return None
    finally:
        reader.dispose()
    if (
        type(root) is not Map
        or root.get("events", MISSING) is not None
        or not isinstance(root.key_lines, dict)
        or root.key_lines.get("events") != first_line - 1
    ):
        return None
    root["events"] = QuickLog(text, start, end, first_line, reader.plain_cached)
    return root


def _nested_parts(parts: list[str]) -> list[str] | None:
    """The parts of a one-line flow mapping whose values may be flow mappings themselves
    (``counts: {Ann: 10, Bob: 5}``), one level deep: the parts split inside a nested mapping
    joined again. None if in doubt (a brace elsewhere, deeper nesting)."""
    out: list[str] = []
    open_part: list[str] | None = None
    for part in parts:
        if open_part is None:
            key, sep, value = part.partition(": ")
            if "{" not in part:
                out.append(part)
            elif not sep or "{" in key or not value.startswith("{") or value.count("{") != 1:
                return None
            elif value.endswith("}") and value.count("}") == 1:
                out.append(part)
            elif "}" in value:
                return None
            else:
                open_part = [part]
        else:
            if "{" in part:
                return None
            open_part.append(part)
            if "}" in part:
                if not part.endswith("}") or part.count("}") != 1:
                    return None
                out.append(", ".join(open_part))
                open_part = None
    return out if open_part is None else None


def _flow_map(
    parts: list[str],
    line: int,
    pairs: dict[str, tuple[Any, Any] | None],
    plain: Callable[[str], Any],
    *,
    nested: bool = False,
) -> Map | None:
    """A one-line flow mapping from its ``key: value`` parts, as the full reading builds it
    (its line; each key's line is the mapping's), or None if in doubt. ``pairs`` caches the
    reading of each distinct part; a nested mapping (:func:`_nested_parts`) is read anew."""
    item = Map()
    item.line = line
    item.key_lines = None
    for part in parts:
        key, _, value = part.partition(": ")
        if not nested and value.startswith("{") and value.endswith("}"):
            inner = value[1:-1].strip(" ")
            sub = _flow_map(inner.split(", "), line, {}, plain, nested=True) if inner else None
            name = _flow_pair(key + ": x", plain)
            if sub is None or name is None:
                return None
            item[name[0]] = sub
            continue
        pair = pairs.get(part, MISSING)
        if pair is MISSING:
            pair = pairs[part] = _flow_pair(part, plain, any_key=nested)
        if pair is None:
            return None
        item[pair[0]] = pair[1]
    if len(item) != len(parts):
        return None  # a repeated key: the full reading reports it
    return item


def _flow_pair(
    part: str, plain: Callable[[str], Any], *, any_key: bool = False
) -> tuple[Any, Any] | None:
    """``key: value`` of a one-line flow mapping as libyaml reads it, or None if in doubt.

    Keys are plain ASCII identifiers (an event's fields), or with ``any_key`` any scalar
    written as a value may be (the candidates' names of a nested ``counts`` mapping)."""
    key, sep, value = part.partition(": ")
    if not sep:
        return None
    if any_key:
        name = _flow_scalar(key, plain) if key == key.strip(" ") else MISSING
    else:
        name = plain(key) if key.isidentifier() and key.isascii() else MISSING
    scalar = _flow_scalar(value.strip(" "), plain)
    if name is MISSING or scalar is MISSING:
        return None
    return name, scalar


def _flow_scalar(value: str, plain: Callable[[str], Any]) -> Any:
    """A scalar of a one-line flow mapping as libyaml reads it, or MISSING if in doubt."""
    if not value or not value.isprintable():  # control characters, YAML's other line breaks
        return MISSING
    first = value[0]
    if first == "'" or first == '"':
        inner = value[1:-1]
        if len(value) < 2 or value[-1] != first or first in inner or "\\" in inner:
            return MISSING
        return inner
    if first in _NOT_FIRST or _NOT_INSIDE.search(value):
        return MISSING
    scalar = plain(value)
    return MISSING if scalar is _MERGE else scalar


# ---------------------------------------------------------------------------------------------
# Reading JSON


def read_json(text: str) -> tuple[Any, list[tuple[dict[str, Any], list[str]]]]:
    """The document, and each object that repeats a key (with those keys).

    Raises ValueError (JSONDecodeError included) or RecursionError.
    """
    repeated: list[tuple[dict[str, Any], list[str]]] = []

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        d = dict(pairs)
        if len(d) != len(pairs):
            seen: set[str] = set()
            again = []
            for k, _ in pairs:
                if k in seen:
                    again.append(k)
                seen.add(k)
            repeated.append((d, again))
        return d

    doc = json.loads(
        text,
        object_pairs_hook=pairs_hook,
        parse_float=Decimal,
        parse_constant=Decimal,
        parse_int=json_int,
    )
    return doc, repeated


_JSON_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def json_nesting_line(text: str, depth: int) -> int | None:
    """The line of the first ``[`` or ``{`` of a JSON text nested more than ``depth`` deep."""
    level = 0
    for token in _JSON_NESTING.finditer(text):
        c = token.group()
        if c == "[" or c == "{":
            level += 1
            if level > depth:
                return text.count("\n", 0, token.start()) + 1
        elif c == "]" or c == "}":
            level -= 1
    return None


def json_duplicates(doc: Any, repeated: list[tuple[dict[str, Any], list[str]]]) -> list[RawProblem]:
    """Problems for repeated JSON keys, with their paths."""
    if not repeated:
        return []
    keys = {id(d): again for d, again in repeated}
    found: list[RawProblem] = []
    todo: list[tuple[tuple[Any, ...], Any]] = [((), doc)]
    while todo:
        parts, value = todo.pop()
        if isinstance(value, dict):
            for k in keys.get(id(value), ()):
                found.append(((*parts, k), REPEATED_KEY, f"{show(k)} again", None))
            todo.extend(((*parts, k), v) for k, v in value.items())
        elif isinstance(value, list):
            todo.extend(((*parts, i), v) for i, v in enumerate(value))
    return found


# ---------------------------------------------------------------------------------------------
# Showing values in messages


def render(value: Any, depth: int = 0) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return repr(value[: SHOW + 1])
    if isinstance(value, int):
        if value.bit_length() > 160:
            return f"a number of about {int(value.bit_length() * 0.30103)} digits"
        return str(value)
    if isinstance(value, Decimal):
        text = str(value)
        if value.is_finite() and "." not in text and "E" not in text:
            return f"{value:E}"  # 2.027e3 is no int: shown as it reads, not as 2027
        return text
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):
        if depth > 2:
            return "{...}"
        items = []
        for i, (k, v) in enumerate(value.items()):
            if i == 4:
                items.append("...")
                break
            items.append(f"{render(k, depth + 1)}: {render(v, depth + 1)}")
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list | tuple | set | frozenset):
        if depth > 2:
            return "[...]"
        items = []
        for i, v in enumerate(value):
            if i == 6:
                items.append("...")
                break
            items.append(render(v, depth + 1))
        return "[" + ", ".join(items) + "]"
    if isinstance(value, bytes):
        return f"{len(value)} bytes of binary data"
    if isinstance(value, LongNumber):
        return repr(value)
    return type(value).__name__


def show(value: Any) -> str:
    """A found value for a message: YAML-like, truncated to about 60 characters."""
    text = render(value)
    if len(text) > SHOW:
        text = text[: SHOW - 3] + "..."
    if isinstance(value, bool):
        text += " (a boolean)"
    elif value is None:
        text += " (an empty value)"
    elif isinstance(value, dict):
        text = "a mapping " + text
    elif isinstance(value, list):
        text = "a list " + text
    return text


def format_path(parts: tuple[Any, ...]) -> str:
    if not parts:
        return "document"
    out = ""
    for part in parts:
        if type(part) is int:
            out += f"[{part}]"
        elif isinstance(part, str) and (part.isidentifier() or part in ("<key>", "<<")):
            out += f".{part}" if out else part
        else:
            out += f"[{render(part)}]"
    return out


# ---------------------------------------------------------------------------------------------
# Lines for problems


def locate(tree: Any, parts: tuple[Any, ...]) -> tuple[int | None, bool]:
    """The line of the deepest part of ``parts`` present in a tree read from YAML, and whether
    that line is exact (in a first-pass tree, a key of a multi-line mapping is not known)."""
    line: int | None = getattr(tree, "line", None)
    node = tree
    for part in parts:
        if isinstance(node, Map):
            try:
                if part not in node:
                    break  # a missing field: the mapping's own line
            except TypeError:
                break
            key_lines = getattr(node, "key_lines", MISSING)
            if key_lines is MISSING:
                return line, False
            line = node.line if key_lines is None else key_lines.get(part, line)
            node = node[part]
        elif isinstance(node, list):
            if type(part) is not int or not 0 <= part < len(node):
                break
            if isinstance(node, Seq):
                line = node.item_lines[part]
            elif isinstance(node[part], Map):
                line = node[part].line
            else:
                return line, False
            node = node[part]
        else:
            break
    return line, True


def json_lines(
    text: str, raws: list[RawProblem], again: dict[tuple[Any, ...], int]
) -> list[RawProblem]:
    """Lines for problems in a JSON text that :func:`json.loads` accepted.

    Walks only the objects and arrays on the problems' paths, skipping everything else with the
    json module's own scanner, and stops once every path is found. ``again`` counts the extra
    occurrences of repeated keys, so that the line given is the repetition's.
    """
    need: dict[tuple[Any, ...], int] = {}
    for parts, _, _, _ in raws:
        for depth in range(len(parts) + 1):
            need.setdefault(parts[:depth], 1)
    for parts, extra in again.items():
        need[parts] = 1 + extra
    remaining = sum(need.values())
    found: dict[tuple[Any, ...], int] = {}
    decoder = json.JSONDecoder()
    match_space = _JSON_SPACE.match
    counted = [0, 1]  # position and line, counted forward as the walk goes on

    class Done(Exception):
        pass

    def space(pos: int) -> int:
        gap = match_space(text, pos)
        return gap.end() if gap is not None else pos

    def mark(parts: tuple[Any, ...], pos: int) -> None:
        nonlocal remaining
        counted[1] += text.count("\n", counted[0], pos)
        counted[0] = pos
        found[parts] = counted[1]
        if need.get(parts, 0) > 0:
            need[parts] -= 1
            remaining -= 1
            if remaining == 0:
                raise Done

    def walk(pos: int, parts: tuple[Any, ...]) -> int:
        """Read the value at ``pos`` (already marked), return the position after it."""
        opener = text[pos]
        if opener not in "{[":
            return int(decoder.raw_decode(text, pos)[1])
        closer = "}" if opener == "{" else "]"
        pos = space(pos + 1)
        index = 0
        while text[pos] != closer:
            at = pos  # where the member (its key) or the item starts
            part: Any
            if opener == "{":
                part, after = decoder.raw_decode(text, pos)
                pos = space(space(after) + 1)  # past the ':'
            else:
                part, index = index, index + 1
            child = (*parts, part)
            if child in need:
                mark(child, at)
                pos = walk(pos, child)
            else:
                pos = decoder.raw_decode(text, pos)[1]
            pos = space(pos)
            if text[pos] == ",":
                pos = space(pos + 1)
        return pos + 1

    with contextlib.suppress(Done, ValueError, IndexError, RecursionError):
        start = space(0)
        mark((), start)
        walk(start, ())
    located = []
    for parts, expected, what, line in raws:
        if line is None:
            depth = len(parts)
            while depth > 0 and parts[:depth] not in found:
                depth -= 1
            line = found.get(parts[:depth])
        located.append((parts, expected, what, line))
    return located


def finish(raws: list[RawProblem], source: str | None) -> ScenarioError:
    problems = [
        Problem(format_path(parts), expected, found, line, source)
        for parts, expected, found, line in raws
    ]
    problems.sort(key=lambda p: (p.line is None, p.line or 0))
    return ScenarioError(problems)


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Creating millions of small containers triggers needless collections; pause them."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
