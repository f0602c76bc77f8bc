"""The problems found in a scenario and where they are: :class:`Problems` collects them as the
checks go (each a path, what was expected, what was found, and the line where it is known), and
the problems of events listed out of time order, and the lines of a YAML text as an editor
counts them, are made here. :func:`simulator.input.parse.messages.finish` turns them into a
:class:`~simulator.model.errors.ScenarioError`."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from typing import Any

from simulator.input.loader.values import BadValue
from simulator.input.parse.messages import RawProblem, show
from simulator.model.events import Event


def _plain(word: str) -> str:
    return re.sub(r"[-_\s]+", "_", word.strip().lower())


def close_names(found: object, choices: Iterable[str], *, n: int = 3) -> list[str]:
    """The ``choices`` that ``found`` looks like a misspelling or a shortening of, best first:
    the same words written otherwise (``Nonpartisan_Runoff``), difflib's close matches
    (``candidate_dies``: ``candidate_died``), then the names that end with it or start with it
    (``plurality``: ``nonpartisan-plurality``)."""
    if not isinstance(found, str) or not found.strip():
        return []
    names = list(dict.fromkeys(choices))
    plain = {_plain(c): c for c in names}
    word = _plain(found)
    if word in plain:
        return [plain[word]]

    scored = sorted(
        ((difflib.SequenceMatcher(None, word, k).ratio(), k) for k in plain), reverse=True
    )
    # the best match, and the others as good as it (a slip is one name, not a list)
    close = [k for r, k in scored if r >= 0.75 and r >= scored[0][0] - 0.02][:n]
    if close:
        return [plain[k] for k in close]
    within = [k for k in plain if len(word) >= 3 and (k.endswith(word) or k.startswith(word))]
    return [plain[k] for k in within[:n]]


#: Fields people write for another one, spelt nothing alike: the person an event is about is
#: its ``candidate`` (the name on the notice of candidacy), its moment ``at``, a return's
#: votes ``counts``. Offered only where the field meant is allowed.
MEANT = {
    "name": "candidate",
    "person": "candidate",
    "who": "candidate",
    "time": "at",
    "when": "at",
    "datetime": "at",
    "votes": "counts",
}


def did_you_mean(found: object, choices: Iterable[str]) -> str:
    """``"; did you mean 'candidate_died'?"`` when ``found`` looks like one of ``choices`` (to
    put after what was found), else ``""``."""
    close = close_names(found, choices)
    if not close:
        return ""
    return "; did you mean " + " or ".join(repr(c) for c in close) + "?"


class Problems:
    """The problems of one scenario, in the order found (``raws``)."""

    def __init__(self) -> None:
        self.raws: list[RawProblem] = []

    def __len__(self) -> int:
        return len(self.raws)

    def add(
        self, parts: tuple[Any, ...], expected: str, found: str, line: int | None = None
    ) -> None:
        self.raws.append((parts, expected, found, line))

    def bad(self, parts: tuple[Any, ...], error: BadValue, line: int | None = None) -> None:
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
                meant = MEANT.get(key.casefold()) if isinstance(key, str) else None
                hint = (
                    f"; did you mean {meant!r}?"
                    if meant in allowed and meant not in raw
                    else did_you_mean(key, allowed) or " (check its spelling)"
                )
                self.add((*parts, key), expected, f"{show(key)}, an unknown field{hint}")

    def missing(self, parts: tuple[Any, ...], expected: str) -> None:
        self.add(parts, expected, "nothing: the field is missing")


def order_problems(
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


_YAML_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def editor_lines(raws: list[RawProblem], text: str) -> list[RawProblem]:
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
