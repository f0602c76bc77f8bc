"""JSON, quickly: msgspec decodes a JSON scenario's event log straight into typed structs, one
per event, a piece of the log at a time (:class:`JsonLog`), which the events loop reads
without making a mapping per event. The types are made on first use (msgspec is imported only
by a JSON load); any doubt and the caller reads the text again with :mod:`json`, whose reading
locates every problem (see :func:`simulator.input.loader._parse_json_quick`)."""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Callable, Iterator
from typing import Any, Literal, cast

import attrs

from simulator.input.loader.fields import TOP_KEYS
from simulator.input.loader.plans import QUICK_PLANS, QuickPlan
from simulator.input.parse.json_reading import read_json
from simulator.model.events import EVENT_TYPES, REVISION

_StructEntry = tuple[QuickPlan | None, Callable[[Any], Any], Any, bool, tuple[str, ...], bool]


@attrs.frozen
class JsonTypes:
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


_JSON: JsonTypes | None = None
#: the revision of the event types' definitions ``_JSON`` was made for (a type defined later
#: makes them again)
_JSON_REVISION = -1
#: The fields a struct reads as typed values; every other field stays JSON text (msgspec.Raw)
#: and is read like the rest of the file, by :func:`simulator.input.parse.json_reading.read_json`.
_STRUCT_TYPES: dict[str, Any] = {"candidate": str, "winner": str, "party": str, "count": int}


def _nothing(event: Any) -> None:
    """The extra fields of a lean struct: none."""


def _lean_union(
    full: dict[str, type[Any]], contest: Any, candidate: Any
) -> tuple[list[type[Any]], dict[type[Any], _StructEntry]]:
    """The union a lean decoder decodes (each event type with a quick plan as a lean struct, its
    ``contest`` and ``candidate`` fields of the given types; any other type as its ``full``
    struct) and the ``JsonTypes.structs`` entries of the lean structs."""
    import msgspec

    union: list[type[Any]] = []
    entries: dict[type[Any], _StructEntry] = {}
    for name, cls in EVENT_TYPES.items():
        plan = QUICK_PLANS.get(name)
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
    import msgspec

    return msgspec.json.Decoder(list.__class_getitem__(functools.reduce(operator.or_, union)))


def json_types() -> JsonTypes:
    global _JSON, _JSON_REVISION
    if _JSON is not None and REVISION[0] == _JSON_REVISION:
        return _JSON

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
        plan = QUICK_PLANS.get(name)
        extras = ["id", *(f for f in cls.fields if plan is None or f not in plan.allowed)]
        none = unset if len(extras) == 1 else (unset,) * len(extras)
        getter = operator.attrgetter(*extras)
        structs[struct] = (plan, getter, none, "count" in cls.fields, tuple(extras), False)
        full[name] = struct
    members = [(k, raw | unset_type, unset) for k in TOP_KEYS if k != "events"]
    union: Any = functools.reduce(operator.or_, full.values())
    log: Any = list.__class_getitem__(union)
    document = msgspec.defstruct(
        "_JsonDocument", [("events", raw), *members], forbid_unknown_fields=True
    )
    lean_union, lean_structs = _lean_union(full, str, str)
    structs.update(lean_structs)
    _JSON_REVISION = REVISION[0]
    _JSON = JsonTypes(
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


class JsonLog:
    """The event log of a JSON text (as msgspec.Raw, a view of the text) decoded into structs
    piece by piece as the events loop reads it, so that only one piece's structs are alive at
    once (a piece is cut after an event, where ``}``, a comma and ``{`` meet).

    A cut that falls inside a string leaves that string open at the end of its piece, so the
    piece does not decode: the error ends the quick reading, as any other would."""

    def __init__(self, raw: Any, types: JsonTypes) -> None:
        self.raw = raw
        self.types = types
        self.lean = True  # each piece is decoded lean first, until one does not decode lean
        #: the struct classes of this log's pieces -> JsonTypes.structs entries (with those of
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


def struct_dict(event: Any) -> tuple[dict[str, Any], int]:
    """A struct of the quick JSON reading as the plain dict :func:`json.loads` would have read
    (every number exact), and how many quotes its strings take in the text (escaped quotes
    not counted; see :func:`_parse_json_quick`).

    Raises ValueError where a value repeats a key (the located reading reports it).
    """
    types = json_types()
    out: dict[str, Any] = {"type": type(event).__struct_config__.tag}
    quotes = 4  # the key "type" and its value
    for field in event.__struct_fields__:
        value = getattr(event, field)
        if value is types.unset:
            continue
        quotes += 2
        if type(value) is types.raw:
            written = bytes(value)
            quotes += quotes_in(written)
            value, repeated = read_json(written.decode())
            if repeated:
                raise ValueError("a repeated key")
        elif type(value) is str:
            quotes += 2
        out[field] = value
    return out, quotes


def quotes_in(text: bytes) -> int:
    """The quotes in a piece of JSON text that open or close a string (escaped ones not)."""
    quotes = text.count(b'"')
    return quotes - text.count(b'\\"') if b"\\" in text else quotes


def loaded_types() -> JsonTypes | None:
    """The msgspec types, if a JSON load has made them (else None: no struct to read)."""
    return _JSON


def quotes_of(text: str | bytes) -> int | None:
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
