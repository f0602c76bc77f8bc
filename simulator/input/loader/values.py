"""The strict readers of a scenario's scalar values: names, vote counts, precincts, money and
dates. Each reader returns the value to keep or raises :class:`BadValue`; no
:class:`~simulator.model.errors.Problem` is built unless something is wrong. Money stays an exact
Decimal (read from the scalar's text, never through binary floating point)."""

from __future__ import annotations

import contextlib
import re
import unicodedata
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from simulator.input.parse.long_numbers import LongNumber
from simulator.input.parse.messages import show
from simulator.model.events import MAX_VOTES

TIME_YEARS = (1900, 2200)  # any time in a scenario
_MAX_AMOUNT = Decimal(10) ** 12
_VOTES = "a whole number of votes, 0 or more"
_VOTES_AT_MOST = f"{_VOTES} and at most {MAX_VOTES:,}"


class BadValue(Exception):
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
PRINTABLE = (
    "printable characters only (no control character, such as a newline or an escape, no line "
    "separator or bidirectional override such as \\u202e, and no lone surrogate such as \\ud800)"
)


def has_controls(value: str, text: bool = False) -> bool:
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


def read_name(value: Any) -> str:
    if type(value) is str and value.strip() and (value.isascii() or normal_name(value)):
        if _nameless_write_in(value):
            raise BadValue(_NAMED_WRITE_IN, show(value))
        if not has_controls(value):
            return value
        raise BadValue(f"a name of {PRINTABLE}", show(value))
    raise BadValue(
        as_text("a non-empty name, as written on the notice of candidacy", value), show(value)
    )


def as_text(expected: str, value: Any) -> str:
    """``expected``, and for a value YAML typed (``title: 2027``, ``candidate: No``) how to
    write it as text: the message said "expected a non-empty title; found 2027"."""
    if isinstance(value, bool | int | float | Decimal | date | LongNumber):
        how = "quote a value YAML reads as a number, a date or true/false"
        return f"text ({how})" if expected == "text" else f"{expected}, as text ({how})"
    return expected


def read_flag(value: Any) -> bool:
    if type(value) is bool:
        return value
    raise BadValue("true or false", show(value))


def read_count(value: Any) -> int:
    if type(value) is int and 0 <= value <= MAX_VOTES:
        return value
    raise BadValue(_votes_expected(value), show(value))


def _votes_expected(value: Any) -> str:
    too_many = type(value) is LongNumber or (type(value) is int and value > MAX_VOTES)
    if type(value) is str and value.strip()[:1].isdigit():  # quoted, 010, 1:30 (see reader)
        return f"{_VOTES}, written as a plain decimal number (no quotes, no leading zero)"
    return _VOTES_AT_MOST if too_many else _VOTES


def read_precinct(value: Any) -> str:
    if type(value) is str and value.strip():
        if has_controls(value):
            raise BadValue(f"a precinct name of {PRINTABLE}", show(value))
        return value
    if type(value) is int:
        return str(value)
    raise BadValue("a precinct name or number", show(value))


def read_counts(value: Any) -> dict[str, int]:
    if not isinstance(value, dict) or not value:
        raise BadValue(
            "a non-empty mapping of candidate name to votes, like {Ann: 350, Bob: 180}",
            show(value),
        )
    subs: list[tuple[Any, ...]] = []
    for name, votes in value.items():
        if type(name) is not str or not name.strip():
            subs.append(((name,), "a candidate's name as the key", show(name)))
        elif has_controls(name):
            subs.append(((name,), f"a candidate's name of {PRINTABLE}", show(name)))
        elif _nameless_write_in(name):
            subs.append(((name,), _NAMED_WRITE_IN, show(name)))
        if type(votes) is not int or not 0 <= votes <= MAX_VOTES:
            subs.append(((name,), _votes_expected(votes), show(votes)))
    if subs:
        raise BadValue("", "", tuple(subs))
    # A YAML or JSON mapping has no order: keep the counts in one canonical order (by name), so
    # that equal facts make equal events whatever order they were written in.
    return dict(sorted(value.items())) if len(value) > 1 else value


def read_amount(value: Any, what: str) -> Decimal:
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
        raise BadValue(f"{what}: a number of dollars, 0 or more, like 250 or 12.50", show(value))
    return abs(number) if number.is_zero() else number


def read_fee(value: Any) -> str:
    return str(read_amount(value, "the fee paid"))


def read_date(value: Any) -> date:
    day: date | None = None
    if type(value) is date:
        day = value
    elif isinstance(value, str):
        with contextlib.suppress(ValueError):
            day = date.fromisoformat(value.strip())
    if day is None or not TIME_YEARS[0] <= day.year <= TIME_YEARS[1]:
        raise BadValue("an ISO 8601 date like 2027-07-03 (a date, without a time)", show(value))
    return day


#: Characters that print as nothing beyond the format characters (Unicode category Cf, which
#: holds the zero-width space and joiners, the byte-order mark, the soft hyphen, the
#: left-to-right and right-to-left marks, the Arabic letter mark, the invisible operators and
#: the tag characters): the rest of Unicode's default-ignorable code points, i.e. the combining
#: grapheme joiner, the Hangul and halfwidth Hangul fillers, the Khmer inherent vowels, the
#: Mongolian free variation selectors and vowel separator, the variation selectors and their
#: supplement, and the reserved default-ignorable ranges.
_IGNORABLE = re.compile(
    "[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)


def without_invisible(name: str) -> str:
    """``name`` without the characters that print as nothing: every format character (Unicode
    category Cf) and the other default-ignorable code points (:data:`_IGNORABLE`). "Ann"
    followed by a left-to-right mark, a tag character or a variation selector prints as "Ann"
    and is "Ann".

    >>> without_invisible("Ann\u200e") == without_invisible("A\u2062nn\U000e0041") == "Ann"
    True
    """
    if name.isascii():
        return name
    kept = "".join(ch for ch in name if unicodedata.category(ch) != "Cf")
    return _IGNORABLE.sub("", kept)


def normal_name(name: str) -> str:
    """A candidate's name as electsim compares it: Unicode NFC, no invisible characters
    (:func:`without_invisible`), no surrounding whitespace, and single spaces between words.
    Letter case is kept (two names that differ only in case are an error, not the same
    person)."""
    if name.isascii():
        return " ".join(name.split())
    return " ".join(without_invisible(unicodedata.normalize("NFC", name)).split())
