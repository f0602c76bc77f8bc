"""Expectations a scenario carries under ``expect:``, and checking a replay against them.

A scenario file may end with an ``expect:`` list. Each entry says what the JSON result of the
replay (at the end of the log, or ``as_of`` a moment) must show for one contest: its ``state``,
``pending``, ``elected``, ``nominated``, ``vacant_seats``, ``runoff``, rulings that must appear
(``rulings``), kinds that must not (``no_rulings``), how many of a kind (``rulings_count``) and
deadlines that must appear (``deadlines``). ``electsim test`` and the project's own scenario test
both run :func:`check_scenario`; the vocabulary is described in ``docs/expectations.md``.

How values compare:

- names (``elected``, ``candidates``...) compare as sets: order and surrounding spaces ignored;
- ``cite`` and ``text`` are regular expressions searched in the ruling's or deadline's citation
  or text (``'163-293\\(c\\)'``);
- times (``at``, ``due``, ``moved_from``, ``opens``, ``closes``) are prefixes of the local time
  written ``YYYY-MM-DDTHH:MM`` in the scenario's timezone: ``2023-10-19`` matches any time that
  day, ``2023-10-19T12:00`` only noon;
- any other field of a ruling (``total``, ``threshold``, ``reason``...) compares as text.

The loader validates every entry like the rest of the file (:func:`read_expectations`): an
unknown key, a kind outside the vocabularies or a regular expression that does not compile is
invalid input (exit 2), located by line.
"""

from __future__ import annotations

import contextlib
import itertools
import re
import warnings
from collections.abc import Callable, Iterable, Mapping
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

import attrs

from simulator.engine.replay import replay as replay_result
from simulator.law.machine import Phase
from simulator.law.vocab import (
    DeadlineKind,
    DeadlineState,
    Decision,
    Pending,
    RemarkKind,
    RulingKind,
    RunoffStatus,
)
from simulator.model.errors import Problem, ScenarioError
from simulator.model.expectations import Expectation

if TYPE_CHECKING:
    from simulator.engine.result import Result
    from simulator.model.scenario import Scenario

__all__ = [
    "ENTRY_KEYS",
    "EXIT_EXPECTATIONS_FAILED",
    "Expectation",
    "Mismatch",
    "ScenarioCheck",
    "check_scenario",
    "local_iso",
    "read_expectations",
]

#: The exit code of ``electsim test`` when a scenario replays but an expectation does not hold
#: (0 all hold; 2 invalid input; 1 a bug in electsim).
EXIT_EXPECTATIONS_FAILED = 3

#: The keys of one ``expect:`` entry, with what each holds (the documentation reads this table).
ENTRY_KEYS: dict[str, str] = {
    "as_of": "replay only what the board knew at this moment (default: the whole log)",
    "contest": "the contest's id (required when the scenario has more than one contest)",
    "state": "the contest's phase, like decided or runoff_request",
    "pending": "what the contest still waits for (a pending state), or null for nothing",
    "elected": "the names declared elected, in any order",
    "nominated": "the names declared nominated, in any order",
    "vacant_seats": "how many seats are declared vacant",
    "decisions": "the decisions still to be made (like [reprint]), in any order; [] for none",
    "runoff": "the runoff: {status: none|available|called|held, candidates: [names]}",
    "rulings": "rulings that must appear, each a pattern like {kind: elected, candidates: [Ann]}",
    "no_rulings": "ruling kinds that must not appear",
    "rulings_count": "how many rulings of each kind, like {elected: 1, runoff_called: 0}",
    "deadlines": "deadlines that must appear, each like {kind: canvass, due: 2027-11-14}",
    "remarks": "the kinds of the remarks the replay makes (facts off the statutory calendar), "
    "like [returns_off_day], in any order, each as often as made; [] for none",
}
#: The keys of a ruling pattern under ``rulings:``; any other field a ruling carries
#: (:data:`RULING_FIELDS`) may be given too.
RULING_PATTERN_KEYS: dict[str, str] = {
    "kind": "the ruling kind, or * for any kind",
    "cite": "a regular expression searched in the ruling's citation",
    "text": "a regular expression searched in the ruling's explanation",
    "candidates": "the people the ruling is about, in any order",
    "at": "a prefix of the ruling's local time, like 2023-10-17 or 2023-10-17T11:00",
}
#: Fields some rulings carry besides kind, cite, text, candidates and at.
RULING_FIELDS: dict[str, str] = {
    "opens": "filing_reopened: when the reopened period opens",
    "closes": "filing_reopened, filing_extended: when the period closes",
    "total": "majority_threshold: the votes counted in the total",
    "threshold": "majority_threshold: the number a candidate's votes must exceed, exactly",
    "parameter": "majority_threshold in a party primary: the substantial plurality's share in "
    "force (a dated parameter), exactly",
    "source": "majority_threshold in a party primary: the law the share comes from",
    "reason": "request_rejected, no_effect, filing_rejected: why the request, act or filing has "
    "no effect",
    "seats": "how many seats the ruling concerns",
    "gap": "no_provision: the name of the gap in the statutes (or of the conflict)",
    "conflict": "no_provision: true when provisions collide rather than none applying",
    "provisions": "no_provision of a conflict: the colliding provisions",
    "reading": "no_provision: the interpretation setting that chose the fallback, when not the "
    "default",
    "rule": "a ruling made by a rule table: the rule's id",
}
DEADLINE_PATTERN_KEYS: dict[str, str] = {
    "kind": "the deadline kind (required)",
    "due": "a prefix of the local due time, like 2023-10-19 or 2023-10-19T12:00",
    "moved_from": "a prefix of the time before a G.S. 103-5 move, or null for not moved",
    "cite": "a regular expression searched in the deadline's citation",
    "state": "its state at the replay's moment: upcoming, met, passed or void",
    "void_because": "the ruling kind that ended a void deadline",
}
RUNOFF_KEYS: dict[str, str] = {
    "status": "none, available, called or held",
    "candidates": "the names on the runoff ballot, in any order",
}

_TIMES = frozenset({"at", "opens", "closes", "due", "moved_from"})
_PREFIX = re.compile(r"\d{4}(-\d{2}(-\d{2}(T\d{2}(:\d{2})?)?)?)?")
_PREFIX_HELP = "a date or local time prefix like 2023-10-19 or 2023-10-19T12:00 (quoted)"


def _phases() -> tuple[str, ...]:
    return tuple(p.value for p in Phase)


def local_iso(value: Any, tz: ZoneInfo | None = None) -> str:
    """A time from a result document as local ``YYYY-MM-DDTHH:MM`` (a bare date stays a date).

    >>> local_iso("2023-10-19T16:00:00+00:00")
    '2023-10-19T12:00'
    """
    if value is None:
        return ""
    s = str(value)
    if len(s) == 10:
        return s
    try:
        dt = datetime.fromisoformat(s)
    except ValueError:
        return s
    if dt.tzinfo is not None:
        dt = dt.astimezone(tz or ZoneInfo("America/New_York"))
    return dt.strftime("%Y-%m-%dT%H:%M")


@attrs.frozen
class Mismatch:
    """One way a replay differs from an expectation."""

    expectation: int
    field: str
    expected: str
    found: str
    contest: str | None = None
    as_of: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.field}: expected {self.expected}; found {self.found}"

    def to_json(self) -> dict[str, Any]:
        return {
            "expectation": self.expectation,
            "line": self.line,
            "contest": self.contest,
            "as_of": self.as_of,
            "field": self.field,
            "expected": self.expected,
            "found": self.found,
        }


@attrs.frozen
class ScenarioCheck:
    """The outcome of checking every expectation of one scenario."""

    expectations: int
    mismatches: tuple[Mismatch, ...]

    @property
    def passed(self) -> bool:
        return self.expectations > 0 and not self.mismatches

    def failed_entries(self) -> int:
        return len({d.expectation for d in self.mismatches})


# ---------------------------------------------------------------------------------------------
# Validation (called by the loader, which locates the problems by line)

Add = Callable[[tuple[Any, ...], str, str], None]


#: What an expected name or pattern may not hold, as for the names of the scenario (see the
#: loader): it is printed in the report of what does not hold, and a lone surrogate (JSON's
#: ``"\ud800"``) cannot be printed at all (``electsim test`` stopped, exit 1).
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")
_PRINTABLE = (
    "printable characters only (no control character, such as a newline or an escape, no line "
    "separator or bidirectional override, and no lone surrogate such as \\ud800)"
)


def _show(value: Any) -> str:
    text = _brief(value, 0)
    return text if len(text) <= 60 else text[:57] + "..."


def _brief(value: Any, depth: int) -> str:
    """``value`` written out only as far as a message shows it: the first items of a list or a
    mapping, three levels deep (a file's aliases can make a list of millions of items from a
    few lines), a number too long to write out by its size."""
    if isinstance(value, str):
        return repr(value[:61])
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 160:
        return f"a number of about {int(value.bit_length() * 0.30103)} digits"
    if isinstance(value, Mapping):
        if depth > 2:
            return "{...}"
        items = [
            f"{_brief(k, depth + 1)}: {_brief(v, depth + 1)}" for k, v in _first(value.items())
        ]
        return "{" + ", ".join(items) + (", ..." if len(value) > 4 else "") + "}"
    if isinstance(value, list | tuple | set | frozenset):
        if depth > 2:
            return "[...]"
        items = [_brief(v, depth + 1) for v in _first(value, 6)]
        return "[" + ", ".join(items) + (", ..." if len(value) > 6 else "") + "]"
    return str(value)


def _first(values: Iterable[Any], n: int = 4) -> list[Any]:
    return list(itertools.islice(values, n))


class _Reader:
    def __init__(
        self,
        add: Add,
        time: Callable[[Any], datetime | None],
        time_help: str,
        contest_ids: Iterable[str],
    ) -> None:
        self.add = add
        self.time = time
        self.time_help = time_help
        self.contest_ids = tuple(sorted(contest_ids))

    def unknown(self, here: tuple[Any, ...], raw: Mapping[Any, Any], keys: Iterable[str]) -> None:
        allowed = tuple(keys)
        for key in raw:
            if key not in allowed:
                self.add(
                    (*here, key),
                    "one of the keys allowed here: " + ", ".join(allowed),
                    f"{_show(key)}, an unknown key (check its spelling; see docs/expectations.md)",
                )

    def choice(self, here: tuple[Any, ...], value: Any, allowed: Iterable[str]) -> bool:
        options = tuple(allowed)
        if isinstance(value, str) and value in options:
            return True
        self.add(here, "one of " + ", ".join(options), _show(value))
        return False

    def names(self, here: tuple[Any, ...], value: Any) -> list[str] | None:
        if isinstance(value, list) and all(isinstance(x, str) for x in value):
            names = [x.strip() for x in value]
            bad = [i for i, name in enumerate(names) if _UNPRINTABLE.search(name)]
            for i in bad:
                self.add((*here, i), f"a name of {_PRINTABLE}", _show(value[i]))
            # a name written twice was merged with itself: [Bob, Bob] passed for [Bob]
            again = [i for i, name in enumerate(names) if name in names[:i]]
            for i in again:
                self.add((*here, i), "each name at most once", _show(value[i]) + ", again")
            return None if bad or again else names
        self.add(
            here, "a list of names, like [Ann Smith, Bob Jones] (may be empty: [])", _show(value)
        )
        return None

    def field(self, here: tuple[Any, ...], value: Any) -> Any:
        """A ruling's field as a pattern gives it: a scalar or a list of scalars, its text
        printable (it is printed when it does not hold: a lone surrogate stopped the program,
        a list of lists of lists was written out whole)."""
        items = value if isinstance(value, list) else [value]
        if all(
            x is None or isinstance(x, bool | int | Decimal) for x in items if type(x) is not str
        ):
            bad = [x for x in items if type(x) is str and _UNPRINTABLE.search(x)]
            if not bad:
                return value
            self.add(here, f"text of {_PRINTABLE}", _show(bad[0]))
            return None
        self.add(
            here,
            "a value as the ruling gives it: text, a number, true or false, or a list of them",
            _show(value),
        )
        return None

    def count(self, here: tuple[Any, ...], value: Any) -> int | None:
        if type(value) is int and value >= 0:
            return value
        self.add(here, "a whole number, 0 or more", _show(value))
        return None

    def pattern(self, here: tuple[Any, ...], value: Any) -> str | None:
        if not isinstance(value, str):
            self.add(here, "a regular expression, quoted, like '163-293\\(c\\)'", _show(value))
            return None
        if _UNPRINTABLE.search(value):  # (`\n`, written as two characters, is fine)
            self.add(here, f"a regular expression of {_PRINTABLE}", _show(value))
            return None
        with contextlib.suppress(re.error), warnings.catch_warnings():
            # a pattern Python's own module compiles is one ``regex`` compiles too (its default
            # syntax is a superset of it); that module is slow to load, so it is loaded only for
            # the others, and to match (re's warnings, on a set that may one day nest, are not
            # regex's)
            warnings.simplefilter("ignore")
            re.compile(value)
            return value
        import regex

        try:
            regex.compile(value)
        except regex.error as error:
            self.add(here, f"a regular expression that compiles ({error})", _show(value))
            return None
        return value

    def prefix(self, here: tuple[Any, ...], value: Any) -> str | None:
        if type(value) is date:
            return value.isoformat()
        if isinstance(value, datetime):
            return value.strftime("%Y-%m-%dT%H:%M")
        if isinstance(value, str) and _PREFIX.fullmatch(value.strip()):
            return value.strip()
        self.add(here, _PREFIX_HELP, _show(value))
        return None

    def entry(self, i: int, raw: Any) -> Expectation | None:
        here: tuple[Any, ...] = ("expect", i)
        if not isinstance(raw, dict):
            self.add(here, "a mapping like {elected: [Ann], pending: null}", _show(raw))
            return None
        self.unknown(here, raw, ENTRY_KEYS)
        as_of: datetime | None = None
        if "as_of" in raw:
            as_of = self.time(raw["as_of"])
            if as_of is None:
                self.add((*here, "as_of"), self.time_help, _show(raw["as_of"]))
        contest = raw.get("contest")
        if contest is None and "contest" not in raw and len(self.contest_ids) > 1:
            self.add(
                (*here, "contest"),
                "a `contest` naming one of the contests (" + ", ".join(self.contest_ids) + ")",
                "nothing: the scenario has more than one contest",
            )
        elif "contest" in raw and not self.choice((*here, "contest"), contest, self.contest_ids):
            contest = None
        checks: list[tuple[str, Any]] = []
        for key, value in raw.items():
            at = (*here, key)
            got: Any = None
            if key == "state":
                got = value if self.choice(at, value, _phases()) else None
            elif key == "pending":
                if value is None or self.choice(at, value, [p.value for p in Pending]):
                    checks.append((key, value))
                continue
            elif key in ("elected", "nominated"):
                got = self.names(at, value)
            elif key == "vacant_seats":
                got = self.count(at, value)
            elif key == "decisions":
                if isinstance(value, list) and all(
                    self.choice(at, v, [x.value for x in Decision]) for v in value
                ):
                    got = sorted(value)
                elif not isinstance(value, list):
                    self.add(at, "a list of decisions, like [reprint], or []", _show(value))
            elif key == "remarks":
                if isinstance(value, list) and all(
                    self.choice(at, v, [x.value for x in RemarkKind]) for v in value
                ):
                    got = sorted(value)
                elif not isinstance(value, list):
                    self.add(
                        at, "a list of remark kinds, like [returns_off_day], or []", _show(value)
                    )
            elif key == "runoff":
                got = self.runoff(at, value)
            elif key == "rulings":
                got = self.patterns(at, value, self.ruling)
            elif key == "deadlines":
                got = self.patterns(at, value, self.deadline)
            elif key == "no_rulings":
                if isinstance(value, list):
                    kinds = [RulingKind(k) for k in value if self.choice(at, k, RulingKind)]
                    got = [k.value for k in kinds] if len(kinds) == len(value) else None
                else:
                    self.add(
                        at, "a list of ruling kinds, like [elected, runoff_called]", _show(value)
                    )
            elif key == "rulings_count":
                got = self.counts(at, value)
            if got is not None:
                checks.append((key, got))
        if not any(key not in ("as_of", "contest") for key in raw):
            # an entry that checks nothing passed whatever the replay gave
            self.add(
                here,
                "at least one check besides as_of and contest: "
                + ", ".join(k for k in ENTRY_KEYS if k not in ("as_of", "contest")),
                _show(raw),
            )
        return Expectation(
            index=i,
            as_of=as_of,
            contest=contest if isinstance(contest, str) else None,
            checks=tuple(checks),
            line=getattr(raw, "line", None),
        )

    def runoff(self, here: tuple[Any, ...], value: Any) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.add(here, "a mapping like {status: called, candidates: [Ann, Bob]}", _show(value))
            return None
        self.unknown(here, value, RUNOFF_KEYS)
        out: dict[str, Any] = {}
        if "status" in value and self.choice((*here, "status"), value["status"], RunoffStatus):
            out["status"] = value["status"]
        if "candidates" in value:
            names = self.names((*here, "candidates"), value["candidates"])
            if names is not None:
                out["candidates"] = names
        if not value:  # (it checked nothing, and passed)
            self.add(here, "status, candidates or both, like {status: none}", "{}")
        return out

    def counts(self, here: tuple[Any, ...], value: Any) -> dict[str, int] | None:
        if not isinstance(value, dict):
            self.add(here, "a mapping of ruling kind to a count, like {elected: 1}", _show(value))
            return None
        out: dict[str, int] = {}
        for kind, n in value.items():
            if self.choice((*here, kind), kind, RulingKind):
                got = self.count((*here, kind), n)
                if got is not None:
                    out[kind] = got
        return out

    def patterns(
        self,
        here: tuple[Any, ...],
        value: Any,
        one: Callable[[tuple[Any, ...], dict[Any, Any]], dict[str, Any]],
    ) -> list[dict[str, Any]] | None:
        if not isinstance(value, list):
            self.add(here, "a list of patterns, each a mapping like {kind: ...}", _show(value))
            return None
        out = []
        for j, item in enumerate(value):
            if not isinstance(item, dict):
                self.add(
                    (*here, j), "a mapping like {kind: elected, candidates: [Ann]}", _show(item)
                )
                continue
            out.append(one((*here, j), item))
        return out

    def ruling(self, here: tuple[Any, ...], raw: dict[Any, Any]) -> dict[str, Any]:
        self.unknown(here, raw, (*RULING_PATTERN_KEYS, *RULING_FIELDS))
        out: dict[str, Any] = {}
        for key, value in raw.items():
            at = (*here, key)
            got: Any = None
            if key == "kind":
                ok = value == "*" or self.choice(at, value, RulingKind)
                got = value if ok else None
            elif key in ("cite", "text"):
                got = self.pattern(at, value)
            elif key == "candidates":
                got = self.names(at, value)
            elif key in _TIMES:
                got = self.prefix(at, value)
            elif key in RULING_FIELDS:
                got = self.field(at, value)
            if got is not None:
                out[key] = got
        return out

    def deadline(self, here: tuple[Any, ...], raw: dict[Any, Any]) -> dict[str, Any]:
        self.unknown(here, raw, DEADLINE_PATTERN_KEYS)
        out: dict[str, Any] = {}
        if "kind" not in raw:
            self.add((*here, "kind"), "a deadline `kind`", "nothing: the key is missing")
        for key, value in raw.items():
            at = (*here, key)
            got: Any = None
            if key == "kind":
                got = value if self.choice(at, value, DeadlineKind) else None
            elif key == "cite":
                got = self.pattern(at, value)
            elif key == "state":
                got = value if self.choice(at, value, DeadlineState) else None
            elif key == "void_because":
                got = value if self.choice(at, value, RulingKind) else None
            elif key == "moved_from" and value is None:
                out[key] = None
                continue
            elif key in _TIMES:
                got = self.prefix(at, value)
            if got is not None:
                out[key] = got
        return out


def read_expectations(
    raw: Any,
    *,
    contest_ids: Iterable[str],
    add: Add,
    time: Callable[[Any], datetime | None],
    time_help: str,
) -> tuple[Expectation, ...]:
    """Validate a scenario's ``expect:`` value; report each problem through ``add(path,
    expected, found)``; ``time`` reads an ``as_of`` (None when it is not a time)."""
    reader = _Reader(add, time, time_help, contest_ids)
    if raw is None:
        return ()
    if not isinstance(raw, list):
        add(("expect",), "a list of expectations, each a mapping like {elected: [Ann]}", _show(raw))
        return ()
    out = []
    for i, item in enumerate(raw):
        entry = reader.entry(i, item)
        if entry is not None:
            out.append(entry)
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Checking


def _names(xs: Any) -> set[str]:
    return {str(x).strip() for x in (xs or [])}


def _show_names(xs: Any) -> str:
    return "[" + ", ".join(sorted(_names(xs))) + "]"


def _show_pattern(p: Mapping[str, Any]) -> str:
    parts = []
    for k, v in p.items():
        shown = _show_names(v) if k == "candidates" else ("null" if v is None else str(v))
        parts.append(f"{k}: {shown}")
    return "{" + ", ".join(parts) + "}"


class _Matcher:
    def __init__(self, tz: ZoneInfo) -> None:
        self.tz = tz

    def time(self, value: Any) -> str:
        return local_iso(value, self.tz)

    def ruling(self, exp: Mapping[str, Any], r: Mapping[str, Any]) -> bool:
        if exp.get("kind", "*") not in ("*", r.get("kind")):
            return False
        for k, v in exp.items():
            got = r.get(k)
            if k == "kind":
                continue
            if k in ("cite", "text"):
                ok = _found(v, str(got or ""))
            elif k == "candidates":
                ok = _names(v) == _names(got)
            elif k in _TIMES:
                ok = self.time(got).startswith(str(v))
            else:
                ok = str(got) == str(v)
            if not ok:
                return False
        return True

    def deadline(self, exp: Mapping[str, Any], d: Mapping[str, Any]) -> bool:
        if d.get("kind") != exp.get("kind"):
            return False
        if "due" in exp and not self.time(d.get("due")).startswith(exp["due"]):
            return False
        if "moved_from" in exp:
            if exp["moved_from"] is None:
                if d.get("moved_from") is not None:
                    return False
            elif not self.time(d.get("moved_from")).startswith(exp["moved_from"]):
                return False
        for key in ("state", "void_because"):
            if key in exp and d.get(key) != exp[key]:
                return False
        return "cite" not in exp or _found(exp["cite"], str(d.get("cite") or ""))

    def show_ruling(self, r: Mapping[str, Any], pattern: Mapping[str, Any] | None = None) -> str:
        who = f" {_show_names(r.get('candidates'))}" if r.get("candidates") else ""
        more = "".join(
            f", {k}: {self.time(r.get(k)) if k in _TIMES else r.get(k)}"
            for k in pattern or {}
            if k in RULING_FIELDS
        )
        return f"{r.get('kind')} ({r.get('cite')}) at {self.time(r.get('at'))}{who}{more}"

    def show_deadline(self, d: Mapping[str, Any]) -> str:
        moved = f", moved from {self.time(d['moved_from'])}" if d.get("moved_from") else ""
        state = f", {d['state']}" if d.get("state") else ""
        void = f" by {d['void_because']}" if d.get("void_because") else ""
        return (
            f"{d.get('kind')} due {self.time(d.get('due'))} ({d.get('cite')}){moved}{state}{void}"
        )


#: How long one pattern of an expectation may take to match one text. Patterns are the user's
#: regular expressions, matched with the ``regex`` package, which gives up on a pattern that
#: would backtrack without end (``re`` cannot be interrupted: ``'^(\\w+\\s?)*$'`` against a
#: ruling's text hung ``electsim test``).
MATCH_SECONDS = 2.0


class SlowPattern(Exception):
    """A pattern that did not match or fail within :data:`MATCH_SECONDS`."""

    def __init__(self, pattern: str) -> None:
        super().__init__(pattern)
        self.pattern = pattern


def _found(pattern: str, text: str) -> bool:
    """Whether ``pattern`` is found in ``text`` (:data:`MATCH_SECONDS` at most)."""
    import regex

    try:
        return regex.search(pattern, text, timeout=MATCH_SECONDS) is not None
    except TimeoutError:
        raise SlowPattern(pattern) from None


def check_result(exp: Expectation, doc: Mapping[str, Any], *, tz: ZoneInfo) -> list[Mismatch]:
    """Every way the JSON result ``doc`` differs from ``exp``."""
    as_of = exp.as_of.astimezone(tz).strftime("%Y-%m-%dT%H:%M") if exp.as_of else None

    def diff(field: str, expected: str, found: str) -> Mismatch:
        return Mismatch(exp.index, field, expected, found, exp.contest, as_of, exp.line)

    contests = list(doc.get("contests", []))
    if exp.contest is not None:
        contests = [c for c in contests if c.get("id") == exp.contest]
    if not contests:
        return [diff("contest", f"a contest {exp.contest}", "no such contest in the result")]
    c = contests[0]
    if exp.contest is None:
        exp = attrs.evolve(exp, contest=c.get("id"))
    out = c["outcome"]
    m = _Matcher(tz)
    errs: list[Mismatch] = []
    for key, want in exp.checks:
        if key in ("elected", "nominated"):
            if _names(want) != _names(out.get(key)):
                errs.append(diff(key, _show_names(want), _show_names(out.get(key))))
        elif key == "decisions":
            pending = sorted(str(x.get("decision")) for x in c.get("decisions", []))
            if pending != want:
                errs.append(diff(key, f"[{', '.join(want)}]", f"[{', '.join(pending)}]"))
        elif key == "remarks":
            made = sorted(str(x.get("kind")) for x in c.get("remarks", []))
            if made != want:
                errs.append(
                    diff(
                        key,
                        f"[{', '.join(want)}]",
                        "; ".join(f"{x.get('kind')} ({x.get('text')})" for x in c["remarks"])
                        if made
                        else "[]",
                    )
                )
        elif key in ("vacant_seats", "pending", "state"):
            got = c.get("state") if key == "state" else out.get(key)
            if got != want:
                errs.append(
                    diff(key, str(want).replace("None", "null"), str(got).replace("None", "null"))
                )
        elif key == "runoff":
            got = out.get("runoff") or {}
            if "status" in want and got.get("status") != want["status"]:
                errs.append(diff("runoff.status", want["status"], str(got.get("status"))))
            if "candidates" in want and _names(want["candidates"]) != _names(got.get("candidates")):
                errs.append(
                    diff(
                        "runoff.candidates",
                        _show_names(want["candidates"]),
                        _show_names(got.get("candidates")),
                    )
                )
        elif key == "rulings":
            rulings = c.get("rulings", [])
            for j, pattern in enumerate(want):
                if any(m.ruling(pattern, r) for r in rulings):
                    continue
                same = [r for r in rulings if pattern.get("kind", "*") in ("*", r.get("kind"))]
                found = (
                    "; ".join(m.show_ruling(r, pattern) for r in same)
                    if same
                    else (
                        f"no {pattern.get('kind')} ruling"
                        if pattern.get("kind", "*") != "*"
                        else "no rulings"
                    )
                )
                errs.append(diff(f"rulings[{j}]", "a ruling " + _show_pattern(pattern), found))
        elif key == "no_rulings":
            for kind in want:
                hits = [r for r in c.get("rulings", []) if r.get("kind") == kind]
                if hits:
                    errs.append(
                        diff("no_rulings", f"no {kind} ruling", "; ".join(map(m.show_ruling, hits)))
                    )
        elif key == "rulings_count":
            for kind, n in want.items():
                got_n = sum(1 for r in c.get("rulings", []) if r.get("kind") == kind)
                if got_n != n:
                    errs.append(diff(f"rulings_count.{kind}", str(n), str(got_n)))
        elif key == "deadlines":
            deadlines = c.get("deadlines", [])
            for j, pattern in enumerate(want):
                if any(m.deadline(pattern, d) for d in deadlines):
                    continue
                same = [d for d in deadlines if d.get("kind") == pattern.get("kind")]
                found = (
                    "; ".join(m.show_deadline(d) for d in same)
                    if same
                    else f"no {pattern.get('kind')} deadline"
                )
                errs.append(diff(f"deadlines[{j}]", "a deadline " + _show_pattern(pattern), found))
    return errs


def check_scenario(
    scenario: Scenario, *, replay: Callable[..., Result] | None = None
) -> ScenarioCheck:
    """Replay ``scenario`` at each moment its expectations name and compare."""
    replay_ = replay_result if replay is None else replay
    docs: dict[datetime | None, Mapping[str, Any]] = {}
    differences: list[Mismatch] = []
    for exp in scenario.expectations:
        if exp.as_of not in docs:
            docs[exp.as_of] = replay_(scenario, as_of=exp.as_of).to_json()
        try:
            differences.extend(check_result(exp, docs[exp.as_of], tz=scenario.tz))
        except SlowPattern as slow:
            raise ScenarioError(
                [
                    Problem(
                        f"expect[{exp.index}]",
                        f"regular expressions that match or fail within {MATCH_SECONDS:g} s "
                        "(this one backtracks without end on a ruling's text: simplify it)",
                        repr(slow.pattern),
                        exp.line,
                        scenario.source,
                    )
                ]
            ) from None
    return ScenarioCheck(len(scenario.expectations), tuple(differences))
