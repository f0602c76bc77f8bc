"""YAML scalars: plain text resolved as YAML 1.1 does, but for its oddities, and explicit tags.

:class:`YamlScalars` is PyYAML's ``CSafeLoader`` (the libyaml parser; ``SafeLoader`` when
libyaml is absent) with the scalar half of the reading: a plain scalar is resolved once per
distinct text (a cache); YAML 1.1's octal, base-60, hexadecimal, binary and underscored
numbers are kept as the text written; floats become exact Decimals; times past the microsecond
stay text for the loader to refuse; a tag other than YAML's own scalar tags
(``!!python/object`` and friends) is recorded as a problem rather than obeyed.
:class:`~simulator.input.parse.yaml_reader.YamlReader` builds documents on top of it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from yaml.nodes import ScalarNode

from simulator.input.parse.long_numbers import LongNumber, long_number
from simulator.input.parse.messages import RawProblem, show
from simulator.input.parse.trees import MISSING

try:
    from yaml import CSafeLoader as _YamlLoader
except ImportError:  # pragma: no cover - no libyaml: the pure-Python parser, same events
    from yaml import SafeLoader as _YamlLoader  # type: ignore[assignment]

__all__ = [
    "MAP_TAG",
    "MERGE",
    "SEQ_TAG",
    "SUB_MICROSECOND",
    "TAG_PREFIX",
    "YamlScalars",
]

MERGE: Any = object()  # the YAML merge key ``<<``

#: A fraction of a second written past its sixth digit with more than zeros there: Python reads
#: times to the microsecond and would cut it off, so that a request 100 ns after a noon deadline
#: would be read as made at noon, in time. Such a time is refused (see the scenario loader).
SUB_MICROSECOND = re.compile(r"[.,]\d{6}0*[1-9]")
TAG_PREFIX = "tag:yaml.org,2002:"
_STR, _NULL, _BOOL = TAG_PREFIX + "str", TAG_PREFIX + "null", TAG_PREFIX + "bool"
_INT, _FLOAT, _TIMESTAMP = TAG_PREFIX + "int", TAG_PREFIX + "float", TAG_PREFIX + "timestamp"
MAP_TAG, SEQ_TAG, _MERGE_TAG = TAG_PREFIX + "map", TAG_PREFIX + "seq", TAG_PREFIX + "merge"
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


def _whole(construct: Callable[[ScalarNode], Any], text: str) -> int | LongNumber:
    """A YAML integer (decimal, ``0x``, ``0o``, ``0b``, sexagesimal), too long ones aside."""
    try:
        return long_number(construct(ScalarNode(_INT, text)))
    except ValueError:  # more decimal digits than int() reads
        return LongNumber(sum(c.isdigit() for c in text))


class YamlScalars(_YamlLoader):
    """libyaml's safe parser, its scalars read as a scenario means them.

    Problems (a tag, a value that does not fit its tag) go to :attr:`problems`; the plain
    scalars read so far are in :attr:`cache`.
    """

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.cache: dict[str, Any] = {}  # plain scalar text -> its value
        self.problems: list[RawProblem] = []

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
            return MERGE
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
                        f"a value that fits its tag !!{str(tag)[len(TAG_PREFIX) :]}",
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


def _short_tag(tag: Any) -> str:
    """A tag as it is written: ``!!python/object`` for YAML's own, any other as it is."""
    text = str(tag)
    return "!!" + text[len(TAG_PREFIX) :] if text.startswith(TAG_PREFIX) else text
