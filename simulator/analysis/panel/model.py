"""What a what-if panel knows, apart from how it is shown: the controls, their values, the
last good variant and its replay, what differs from the scenario as written, and the sweep of
the control last moved. The Jupyter widgets (:mod:`simulator.analysis.panel.widgets`) and the
page ``electsim app`` serves both drive a :class:`PanelState`."""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import date, timedelta
from itertools import pairwise
from typing import Any

import attrs
import yaml

from simulator.analysis.panel.controls import (
    Control,
    build_variant,
    check_value,
    find_controls,
    strip_ids,
    sweep_values,
    sweep_variable,
)
from simulator.analysis.whatif.sweep_results import Sweep, _key
from simulator.analysis.whatif.sweep_runner import OUTCOME_KINDS, _Job
from simulator.engine.replay import replay
from simulator.engine.result import ContestResult, Result, Ruling
from simulator.input.loader.writing import scenario_to_dict
from simulator.law.labels import label
from simulator.law.vocab import RulingKind
from simulator.model.errors import SimulatorError
from simulator.model.scenario import Scenario


@attrs.frozen
class RulingLine:
    """A ruling of the variant's replay, or one of the original's it no longer makes."""

    contest: str
    at: str
    words: str
    cite: str
    change: str  # "" (the same as the original), "new" or "gone"


@attrs.frozen
class DeadlineMove:
    contest: str
    what: str
    before: str
    after: str


def _when(at: Any) -> str:
    return f"{at:%a %d %b %Y %H:%M}"


def ruling_words(kind: str, text: str) -> str:
    """A ruling's line in words: its kind's label, then what the timeline says of it."""

    try:
        name = label(RulingKind(kind))
    except ValueError:
        return text
    return f"{name}: {text.removeprefix(kind + ': ')}"


def _ruling_lines(c: ContestResult) -> list[tuple[tuple[str, str], RulingLine]]:
    out = []
    for t in c.timeline:
        if t.what == "ruling":
            key = (t.kind, t.at.isoformat() + "|" + ",".join(t.candidates) + "|" + t.label)
            words = ruling_words(t.kind, t.label)
            out.append((key, RulingLine(c.id, _when(t.at), words, t.cite, "")))
    return out


def ruling_changes(before: Result, after: Result) -> list[RulingLine]:
    """The variant's rulings, each marked new when the original did not make it, followed by
    the original's rulings the variant no longer makes (marked gone)."""
    out: list[RulingLine] = []
    for c in after.contests:
        old = dict(_ruling_lines(before.contest(c.id)))
        new = _ruling_lines(c)
        keys = {k for k, _ in new}
        out.extend(attrs.evolve(line, change="" if k in old else "new") for k, line in new)
        out.extend(attrs.evolve(line, change="gone") for k, line in old.items() if k not in keys)
    return out


def deadline_moves(before: Result, after: Result) -> list[DeadlineMove]:
    """The deadlines whose time differs, that the variant adds, or that it no longer has."""

    out: list[DeadlineMove] = []
    for c in after.contests:
        old = {d.kind: d for d in before.contest(c.id).deadlines}
        new = {d.kind: d for d in c.deadlines}
        for kind in [*old, *(k for k in new if k not in old)]:
            a, b = old.get(kind), new.get(kind)
            if a is not None and b is not None and a.due == b.due:
                continue
            out.append(
                DeadlineMove(
                    c.id,
                    label(kind),
                    _when(a.due) if a else "none",
                    _when(b.due) if b else "none",
                )
            )
    return out


class PanelState:
    """The controls of ``scenario`` with their values, and the last good replay.

    :meth:`set` changes one value and replays; a value or a variant that is refused leaves
    :attr:`error` set to the message and keeps the last good variant and result."""

    def __init__(self, scenario: Scenario, *, flip_strip: bool = True) -> None:
        self.original = scenario
        self.base, found = find_controls(scenario)
        self.base_result = replay(self.base)
        found = tuple(_spanned(c, self.base_result) for c in found)
        self.controls: dict[str, Control] = {c.key: c for c in found}
        self.values: dict[str, Any] = {c.key: c.original for c in found}
        #: the strips already swept, by the control and the values of all the others: moving
        #: one control again and again sweeps it once
        self._sweeps: dict[tuple[str, frozenset[tuple[str, Any]]], Sweep | None] = {}
        self.variant = self.base
        self.result = self.base_result
        self.error = ""
        self.flip_strip = flip_strip
        self.moved: str | None = None
        self.sweep: Sweep | None = None
        self.seconds = 0.0

    # -- changing --------------------------------------------------------------------------

    def set(self, key: str, value: Any) -> bool:
        """Give control ``key`` the value; True when the panel now shows its replay."""
        t0 = time.perf_counter()
        try:
            control = self.controls[key]
        except KeyError:
            self.error = f"no control named {key!r}"
            return False
        try:
            checked = check_value(control, value)
            values = {**self.values, key: checked}
            variant = build_variant(self.base, self.controls, values)
            result = replay(variant)
        except SimulatorError as err:
            self.error = str(err).replace("<scenario>: ", "")
            self.seconds = time.perf_counter() - t0
            return False
        self.values, self.variant, self.result, self.error = values, variant, result, ""
        self.moved = key
        self.sweep = self._sweep(control) if self.flip_strip else None
        self.seconds = time.perf_counter() - t0
        return True

    def update(self, changes: Mapping[str, Any]) -> bool:
        ok = True
        for k, v in changes.items():
            ok = self.set(k, v) and ok
        return ok

    def reset(self) -> None:
        self.values = {k: c.original for k, c in self.controls.items()}
        self.variant, self.result, self.error = self.base, self.base_result, ""
        self.moved, self.sweep = None, None

    def _sweep(self, control: Control) -> Sweep | None:
        vary = sweep_variable(control)
        if vary is None or control.contest is None:
            return None
        others = frozenset((k, v) for k, v in self.changed.items() if k != control.key)
        value = self.values[control.key]
        if (control.key, others) in self._sweeps:
            cached = self._sweeps[control.key, others]
            if cached is None or cached.values[0] <= value <= cached.values[-1]:
                return cached
        found = self._sweep_anew(control, vary)
        if len(self._sweeps) > 64:
            self._sweeps.clear()
        self._sweeps[(control.key, others)] = found
        return found

    def _sweep_anew(self, control: Control, vary: Any) -> Sweep | None:
        """The control swept on a coarse grid, each change of outcome then narrowed by
        halving to the two neighbouring values where it happens (one change between two
        points of the grid is found exactly; two or more there show as one)."""
        assert control.contest is not None
        try:
            others = build_variant(self.base, self.controls, self.values, skip=control.key)
            job = _Job(others, vary, control.contest, None, None)
            replayer = job.replayer()
            grid = sweep_values(control, self.values[control.key], most=GRID)
            rows = {v: job.row(v, replayer) for v in grid}
            for a, b in pairwise(grid):
                lo, hi = a, b
                while _key(rows[lo]) != _key(rows[hi]) and _gap(lo, hi) > 1:
                    mid = _middle(lo, hi)
                    rows[mid] = job.row(mid, replayer)
                    if _key(rows[mid]) == _key(rows[lo]):
                        lo = mid
                    else:
                        hi = mid
        except SimulatorError:
            return None
        return Sweep(control.label, control.contest, tuple(rows[v] for v in sorted(rows)))

    # -- reading ---------------------------------------------------------------------------

    def key(self, words: str) -> str:
        """The key of the first control whose label holds ``words`` (``"Bob died"``)."""
        for key, c in self.controls.items():
            if words.lower() in c.label.lower():
                return key
        known = "; ".join(c.label for c in self.controls.values() if c.group != "readings")
        raise KeyError(f"no control says {words!r}; the controls: {known}")

    @property
    def changed(self) -> dict[str, Any]:
        """The values that differ from the scenario as written."""
        return {k: v for k, v in self.values.items() if v != self.controls[k].original}

    def rulings(self) -> list[RulingLine]:
        return ruling_changes(self.base_result, self.result)

    def deadlines(self) -> list[DeadlineMove]:
        return deadline_moves(self.base_result, self.result)

    def outcome_changed(self, contest: str) -> bool:
        """Whether the contest's outcome, or the ruling that decided it, differs from the
        scenario as written."""
        a, b = self.result.contest(contest), self.base_result.contest(contest)
        return a.outcome != b.outcome or _decided(deciding(a)) != _decided(deciding(b))

    def flips(self) -> list[Any]:
        """The values of the moved control where the outcome changes (the first of each band
        after the first)."""
        if self.sweep is None:
            return []
        return [b.value for _, b in self.sweep.flips()]

    def as_yaml(self) -> str:
        """The variant as a scenario file: it replays to what the panel shows."""
        doc = strip_ids(scenario_to_dict(self.variant))
        changed = ", ".join(f"{self.controls[k].label} {_show(v)}" for k, v in self.changed.items())
        if changed:
            doc["title"] = f"{doc['title']} (what if: {changed})"
        return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100)


#: the points of the coarse grid a strip is first swept on
GRID = 48


def _gap(a: Any, b: Any) -> int:
    return (b - a).days if isinstance(a, date) else int(b - a)


def _middle(a: Any, b: Any) -> Any:
    half = _gap(a, b) // 2
    return a + timedelta(days=half) if isinstance(a, date) else a + half


def _spanned(c: Control, result: Result) -> Control:
    """A date control with the days its strip sweeps: its contest's calendar as written."""
    if c.kind != "date" or c.contest is None or c.first is None or c.last is None:
        return c
    days = [t.at.date() for t in result.contest(c.contest).timeline]
    first = max(c.first, min(days, default=c.first) - timedelta(days=14))
    last = min(c.last, max(days, default=c.last) + timedelta(days=14))
    return attrs.evolve(c, span=(first, last))


def deciding(c: ContestResult) -> Ruling | None:
    """The ruling that decided the contest's outcome: the last that can change an outcome,
    passing over votes set aside (they explain what was not counted, not who won)."""
    for r in reversed(c.rulings):
        if r.kind in OUTCOME_KINDS and r.kind is not RulingKind.VOTES_DISREGARDED:
            return r
    return None


def _decided(r: Ruling | None) -> tuple[str, str] | None:
    return (r.kind.value, r.cite) if r is not None else None


def _show(value: Any) -> str:
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
