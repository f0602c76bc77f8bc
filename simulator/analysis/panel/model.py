"""What a what-if panel knows, apart from how it is shown: the controls, their values, the
last good variant and its replay, what differs from the scenario as written, and the sweep of
the control last moved. The Jupyter widgets (:mod:`simulator.analysis.panel.widgets`) and the
page ``electsim app`` serves both drive a :class:`PanelState`."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from datetime import date, datetime, timedelta
from itertools import pairwise
from typing import Any

import attrs
import yaml

from simulator.analysis.futures_shown import undecided_futures
from simulator.analysis.panel.controls import (
    HYPOTHETICAL,
    Control,
    build_variant,
    check_moment,
    check_value,
    find_controls,
    is_hypothetical,
    strip_ids,
    sweep_values,
    sweep_variable,
    with_ids,
)
from simulator.analysis.whatif.forks import fork
from simulator.analysis.whatif.sweep_results import Sweep, outcome_key
from simulator.analysis.whatif.sweep_runner import OUTCOME_KINDS, SweepJob
from simulator.engine.replay import replay
from simulator.engine.result import ContestResult, Result, Ruling
from simulator.input.loader.writing import scenario_to_dict
from simulator.law.calendar import Deadline
from simulator.law.labels import label
from simulator.law.vocab import DeadlineKind, PeriodKind, RulingKind, TimerTrigger
from simulator.model.errors import Problem, ScenarioError, SimulatorError
from simulator.model.events import DEFINITIONS, Event
from simulator.model.scenario import Scenario
from simulator.views.branches import BranchWords
from simulator.views.ical import title_of, vote_before
from simulator.views.words import event_words

#: the events a person may add in the panel, as hypothetical ones, by type: a candidate's
#: death, withdrawal or disqualification, a runoff request (or second-primary demand), a
#: recount, a drawing of lots, the board's determination whether there is time to reprint
ADDABLE = (
    "candidate_died",
    "candidate_withdrew",
    "candidate_disqualified",
    "runoff_requested",
    "recount_held",
    "lot_drawn",
    "reprint_determined",
)


def addable_words(event_type: str) -> str:
    """What adding an event of the type means, in words ("a candidate died")."""
    summary = DEFINITIONS[event_type].summary
    return summary.split(" (")[0].split(";")[0]


@attrs.frozen
class RulingLine:
    """A ruling of the variant's replay, or one of the original's it no longer makes."""

    contest: str
    at: str
    words: str
    cite: str
    change: str  # "" (the same as the original), "new" or "gone"
    #: the ruling follows an event added in the panel
    hypothetical: bool = False


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


def _ruling_lines(
    c: ContestResult, made_up: frozenset[int] = frozenset()
) -> list[tuple[tuple[str, str], RulingLine]]:
    out = []
    for t in c.timeline:
        if t.what == "ruling":
            key = (t.kind, t.at.isoformat() + "|" + ",".join(t.candidates) + "|" + t.label)
            words = ruling_words(t.kind, t.label)
            line = RulingLine(c.id, _when(t.at), words, t.cite, "", t.seq in made_up)
            out.append((key, line))
    return out


def hypothetical_indexes(scenario: Scenario) -> frozenset[int]:
    """The places in the log of the events added in the panel."""
    return frozenset(e.index for e in scenario.events if is_hypothetical(e.id))


def ruling_changes(
    before: Result, after: Result, variant: Scenario | None = None
) -> list[RulingLine]:
    """The variant's rulings, each marked new when the original did not make it, followed by
    the original's rulings the variant no longer makes (marked gone); those that follow an
    event added in the panel (in ``variant``) are marked hypothetical."""
    made_up = hypothetical_indexes(variant) if variant is not None else frozenset()
    out: list[RulingLine] = []
    for c in after.contests:
        old = dict(_ruling_lines(before.contest(c.id)))
        new = _ruling_lines(c, made_up)
        keys = {k for k, _ in new}
        out.extend(attrs.evolve(line, change="" if k in old else "new") for k, line in new)
        out.extend(attrs.evolve(line, change="gone") for k, line in old.items() if k not in keys)
    return out


def _deadline_keys(deadlines: Sequence[Deadline]) -> dict[tuple[str, str, int], Deadline]:
    """Each deadline by what it is: its kind, the vote it follows when that tells it apart (the
    election's canvass, the runoff's), and its place among deadlines of the same two."""
    out: dict[tuple[str, str, int], Deadline] = {}
    for d in deadlines:
        vote = vote_before(d, deadlines) if d.kind is DeadlineKind.CANVASS else None
        n = 0
        while (d.kind.value, vote.value if vote else "", n) in out:
            n += 1
        out[d.kind.value, vote.value if vote else "", n] = d
    return out


def deadline_name(d: Deadline, deadlines: Sequence[Deadline]) -> str:
    """A deadline's name in words, telling a canvass of the election from the runoff's."""
    words = title_of(d, deadlines, called=True)
    return words[0].lower() + words[1:]


def deadline_moves(before: Result, after: Result) -> list[DeadlineMove]:
    """The deadlines whose time differs, that the variant adds, or that it no longer has, each
    paired with the same deadline of the scenario as written (by its kind and round: the
    runoff's canvass with the runoff's canvass, never with the election's)."""
    out: list[DeadlineMove] = []
    for c in after.contests:
        was = before.contest(c.id).deadlines
        old, new = _deadline_keys(was), _deadline_keys(c.deadlines)
        for key in [*old, *(k for k in new if k not in old)]:
            a, b = old.get(key), new.get(key)
            if a is not None and b is not None and a.due == b.due:
                continue
            name = deadline_name(a, was) if a is not None else deadline_name(b, c.deadlines)  # type: ignore[arg-type]
            out.append(
                DeadlineMove(
                    c.id,
                    name,
                    _when(a.due) if a else "did not apply",
                    _when(b.due) if b else "no longer applies",
                )
            )
    return out


def assumptions(c: ContestResult, events: Sequence[Event]) -> list[str]:
    """What the contest's outcome takes for granted, in words: each time for an optional act
    (a runoff request, a tied candidate's withdrawal) that the replay let pass unused because
    the log records no such act in time ("assumes nobody asks for a runoff by Thu 19 Oct
    12:00"), and what the contest still waits for when the log ends there.

    Read from the replay: the steps of its path that a time passing took (the triggers of the
    state machine that no event records), the period that ended then, and the ruling that
    named who might have acted."""
    out: list[str] = []
    for _, trigger, _ in c.path:
        if trigger not in _PASSES:
            continue
        kind = PeriodKind(trigger.removesuffix("_passes"))
        period = next((p for p in reversed(c.periods) if p.kind is kind), None)
        if period is None:
            continue
        who = _who_might(c, period.end)
        act = _ACTS.get(kind, "act")
        if kind is PeriodKind.RUNOFF_REQUEST and any(
            d.kind is DeadlineKind.SECOND_PRIMARY_REQUEST for d in c.deadlines
        ):
            act = "demand a second primary"
        if who:
            sentence = f"assumes {who} did not {act} by {_short(period.end)}"
        else:
            sentence = f"assumes nobody chose to {act} by {_short(period.end)}"
        if sentence not in out:
            out.append(sentence)
    if c.outcome.pending is not None and events:
        last = max(e.known_at for e in events if e.contest == c.id) if events else None
        if last is not None:
            out.append(
                f"the log ends on {_short(last)}: nothing after it is assumed; the contest "
                f"waits for {label(c.outcome.pending)}"
            )
    return out


#: the triggers that mean a time for an optional act passed unused (:class:`TimerTrigger`'s
#: ``..._passes``), and each period's act in words
_PASSES = frozenset(t.value for t in TimerTrigger if t.value.endswith("_passes"))
_ACTS = {
    PeriodKind.RUNOFF_REQUEST: "ask for a runoff",
    PeriodKind.TIE_WITHDRAWAL: "withdraw from the tie",
}


def _who_might(c: ContestResult, end: datetime) -> str:
    """Who the last ruling before ``end`` that opened the choice names (the runner-up who may
    request a runoff, the candidates tied), in words."""
    for r in reversed(c.rulings):
        if r.at <= end and r.kind in (
            RulingKind.RUNOFF_AVAILABLE,
            RulingKind.RUNOFF_UNLESS_WITHDRAWN,
        ):
            return " or ".join(r.candidates)
    return ""


def _short(at: datetime) -> str:
    """A moment as the panel says it: ``Thu 19 Oct 12:00``."""
    return f"{at:%a %d %b %H:%M}"


class PanelState:
    """The controls of ``scenario`` with their values, and the last good replay.

    :meth:`set` changes one value and replays; :meth:`add` adds a hypothetical event (a death,
    a request, a recount...) and :meth:`remove` takes it away again. A value, an event or a
    variant that is refused leaves :attr:`error` set to the message and keeps the last good
    variant and result."""

    #: what can happen from here is recomputed on each change where the scenario as loaded took
    #: less than this (seconds; on the bundled scenarios: 22 ms at the 95th percentile, 0.9 s
    #: at most)
    FUTURES_EVERY_CHANGE = 0.25

    def __init__(self, scenario: Scenario, *, flip_strip: bool = True) -> None:
        self.original = scenario
        self.base = with_ids(scenario)
        #: the scenario as written with the events added in the panel (what the controls move)
        self.working = self.base
        self.base_result = replay(self.base)
        self._calendars = {c.id: _calendar(c) for c in self.base_result.contests}
        _, found = find_controls(self.base, calendars=self._calendars)
        self.controls: dict[str, Control] = {c.key: c for c in found}
        self.values: dict[str, Any] = {c.key: c.original for c in found}
        #: the strips already swept, by the control and the values of all the others: moving
        #: one control again and again sweeps it once
        self._sweeps: dict[tuple[str, frozenset[tuple[str, Any]]], Sweep | None] = {}
        self._added = 0
        self.variant = self.base
        self.result = self.base_result
        self.error = ""
        self.flip_strip = flip_strip
        self.moved: str | None = None
        self.sweep: Sweep | None = None
        self.seconds = 0.0
        self._futures: tuple[Scenario, dict[str, tuple[BranchWords, ...]]] | None = None
        self._slow_futures = False

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
            variant = build_variant(self.working, self.controls, values)
            result = replay(variant)
        except SimulatorError as err:
            self._refused(err, t0)
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

    def add(
        self,
        event_type: str,
        at: Any,
        *,
        candidate: str | None = None,
        contest: str | None = None,
        enough_time: bool | str | None = None,
    ) -> bool:
        """Add a hypothetical event (one of :data:`ADDABLE`) at the moment ``at`` (a naive
        datetime in the scenario's zone, or text like ``2023-10-16T09:00``), for ``candidate``
        (the winner of a drawing of lots), in ``contest`` (the only one when left out); a
        recount repeats the latest count, a board's determination says ``enough_time``. True
        when the panel now shows the variant with it; otherwise :attr:`error` says why (the
        loader's words) and the last good answer stays."""
        t0 = time.perf_counter()
        try:
            event = self._new_event(event_type, at, candidate, contest, enough_time)
            working = _inserted(self.working, event)
            _, found = find_controls(working, calendars=self._calendars)
            controls = {c.key: c for c in found}
            values = {c.key: self.values.get(c.key, c.original) for c in found}
            variant = build_variant(working, controls, values)
            result = replay(variant)
        except SimulatorError as err:
            self._refused(err, t0)
            return False
        self._added += 1
        self.working, self.controls, self.values = working, controls, values
        self.variant, self.result, self.error = variant, result, ""
        self.moved, self.sweep = f"{event['id']}.at", None
        self._sweeps.clear()
        if self.flip_strip:
            self.sweep = self._sweep(self.controls[self.moved])
        self.seconds = time.perf_counter() - t0
        return True

    def remove(self, event_id: str) -> bool:
        """Take away the hypothetical event ``event_id`` (``hypothetical-1``): the panel
        replays without it."""
        t0 = time.perf_counter()
        if not is_hypothetical(event_id) or all(e.id != event_id for e in self.working.events):
            made = ", ".join(self.added) or "none has been added"
            self.error = f"remove: expected the id of an added event ({made}); found {event_id!r}"
            return False
        try:
            working = fork(self.working).remove(event_id).build()
            controls = {k: c for k, c in self.controls.items() if c.event != event_id}
            values = {k: v for k, v in self.values.items() if k in controls}
            variant = build_variant(working, controls, values)
            result = replay(variant)
        except SimulatorError as err:
            self._refused(err, t0)
            return False
        self.working, self.controls, self.values = working, controls, values
        self.variant, self.result, self.error = variant, result, ""
        self._sweeps.clear()
        self.moved, self.sweep = None, None
        self.seconds = time.perf_counter() - t0
        return True

    def _new_event(
        self,
        event_type: str,
        at: Any,
        candidate: str | None,
        contest: str | None,
        enough_time: bool | str | None,
    ) -> dict[str, Any]:
        """The added event as a scenario's entry (checked by the loader when it is built)."""
        ids = [c.id for c in self.base.contests]
        if contest is None or contest == "":
            contest = ids[0]
        if contest not in ids:
            raise _refusal("the contest", f"one of {', '.join(ids)}", contest)
        if event_type not in ADDABLE:
            raise _refusal(
                "the event", f"one of {', '.join(map(addable_words, ADDABLE))}", event_type
            )
        year = self.base.contest(contest).year
        moment = check_moment(at, None, date(year, 1, 1), date(year, 12, 31), "the event's time")
        n = self._added + 1
        while any(e.id == f"{HYPOTHETICAL}{n}" for e in self.working.events):
            n += 1
        event: dict[str, Any] = {
            "type": event_type,
            "at": f"{moment:%Y-%m-%dT%H:%M}",
            "contest": contest,
            "id": f"{HYPOTHETICAL}{n}",
        }
        fields = DEFINITIONS[event_type].cls.fields
        name = "winner" if "winner" in fields else "candidate" if "candidate" in fields else None
        if name is not None:
            event[name] = candidate
        if "enough_time" in fields:
            event["enough_time"] = enough_time in (True, "true", "yes")
        if "counts" in fields:
            event["counts"] = dict(self.result.contest(contest).votes)
        return event

    def _refused(self, err: SimulatorError, t0: float) -> None:
        self.error = str(err).replace("<scenario>: ", "")
        self.seconds = time.perf_counter() - t0

    def reset(self) -> None:
        """Back to the scenario as written: every value as it was, no added event."""
        if self.working is not self.base:
            _, found = find_controls(self.base, calendars=self._calendars)
            self.controls = {c.key: c for c in found}
            self.working = self.base
            self._sweeps.clear()
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
        """The control swept on a coarse grid (days, for a moment), each change of outcome
        then narrowed by halving to the two neighbouring values where it happens: the minute,
        the vote (one change between two points of the grid is found exactly; two or more
        there show as one). A change between two days a few days apart costs some 13 replays."""
        assert control.contest is not None
        try:
            others = build_variant(self.working, self.controls, self.values, skip=control.key)
            job = SweepJob(others, vary, control.contest, None, None)
            replayer = job.replayer()
            grid = sweep_values(control, self.values[control.key], most=GRID)
            rows = {v: job.row(v, replayer) for v in grid}
            for a, b in pairwise(grid):
                lo, hi = a, b
                while outcome_key(rows[lo]) != outcome_key(rows[hi]) and _gap(lo, hi) > 1:
                    mid = _middle(lo, hi)
                    rows[mid] = job.row(mid, replayer)
                    if outcome_key(rows[mid]) == outcome_key(rows[lo]):
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
    def added(self) -> list[str]:
        """The ids of the events added in the panel, in the log's order."""
        return [e.id for e in self.working.events if e.id is not None and is_hypothetical(e.id)]

    def added_words(self) -> list[tuple[str, str]]:
        """Each added event's id and what it says, in words, at its time now."""
        out = []
        for e in self.variant.events:
            if e.id is not None and is_hypothetical(e.id):
                out.append((e.id, f"{event_words(e)}, at {_short(e.at.astimezone(self.base.tz))}"))
        return out

    @property
    def changed(self) -> dict[str, Any]:
        """The values that differ from the scenario as written (or from the moment an added
        event was given)."""
        return {k: v for k, v in self.values.items() if v != self.controls[k].original}

    def futures(self) -> dict[str, tuple[BranchWords, ...]]:
        """What can happen from here for each contest of the variant still undecided, in words
        (one more death at most), computed once for each variant the panel shows; where the
        scenario as loaded took more than :attr:`FUTURES_EVERY_CHANGE` seconds, those of the
        scenario as loaded (:attr:`futures_as_loaded` says so)."""
        if self._futures is None:
            t0 = time.perf_counter()
            shown, _ = undecided_futures(self.base, self.base_result, None)
            self._slow_futures = time.perf_counter() - t0 > self.FUTURES_EVERY_CHANGE
            self._futures = (self.base, shown)
        if self._futures[0] is not self.variant and not self._slow_futures:
            shown, _ = undecided_futures(self.variant, self.result, None)
            self._futures = (self.variant, shown)
        return self._futures[1]

    @property
    def futures_as_loaded(self) -> bool:
        """Whether :meth:`futures` are those of the scenario as loaded, not of what it shows."""
        return self._futures is not None and self._futures[0] is not self.variant

    def rulings(self) -> list[RulingLine]:
        return ruling_changes(self.base_result, self.result, self.variant)

    def deadlines(self) -> list[DeadlineMove]:
        return deadline_moves(self.base_result, self.result)

    def assumptions(self, contest: str) -> list[str]:
        """What the contest's outcome takes for granted, in words (:func:`assumptions`)."""
        return assumptions(self.result.contest(contest), self.variant.events)

    def outcome_changed(self, contest: str) -> bool:
        """Whether the contest's outcome, or the ruling that decided it, differs from the
        scenario as written."""
        a, b = self.result.contest(contest), self.base_result.contest(contest)
        return a.outcome != b.outcome or _decided(deciding(a)) != _decided(deciding(b))

    def flip_pairs(self) -> list[tuple[Any, Any]]:
        """Each change of outcome along the moved control: the last value of the one outcome
        and the first of the next (for a moment, a minute apart)."""
        if self.sweep is None:
            return []
        return [(a.value, b.value) for a, b in self.sweep.flips()]

    def flips(self) -> list[Any]:
        """The values of the moved control where the outcome changes (the first of each band
        after the first): for a moment, the first minute of the new outcome."""
        if self.sweep is None:
            return []
        return [b.value for _, b in self.sweep.flips()]

    def as_yaml(self) -> str:
        """The variant as a scenario file: it replays to what the panel shows. An added event
        keeps its id (``hypothetical-1``) and a ``# hypothetical`` comment on its line."""
        doc = strip_ids(scenario_to_dict(self.variant))
        said = [f"{self.controls[k].label} {_show(v)}" for k, v in self.changed.items()]
        said += [f"added {words}" for _, words in self.added_words()]
        if said:
            doc["title"] = f"{doc['title']} (what if: {', '.join(said)})"
        text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100)
        if not self.added:
            return text
        lines = []
        for line in text.splitlines():
            if line.lstrip("- ").startswith(f"id: {HYPOTHETICAL}"):
                line += "  # hypothetical: added in the what-if panel"
            lines.append(line)
        return "\n".join(lines) + "\n"


def _refusal(path: str, expected: str, found: Any) -> ScenarioError:
    return ScenarioError([Problem(path, expected, repr(found))])


def _inserted(scenario: Scenario, event: dict[str, Any]) -> Scenario:
    """``scenario`` with ``event`` (a scenario's entry) where its time falls in the log, checked
    by the loader."""
    at = datetime.fromisoformat(event["at"]).replace(tzinfo=scenario.tz)
    place = sum(1 for e in scenario.events if e.known_at <= at)
    return fork(scenario).insert(place, event).build()


#: the points of the coarse grid a strip is first swept on
GRID = 48


def _gap(a: Any, b: Any) -> int:
    """How far apart two values of a strip are: minutes between moments, votes between counts."""
    return int((b - a).total_seconds() // 60) if isinstance(a, datetime) else int(b - a)


def _middle(a: Any, b: Any) -> Any:
    half = _gap(a, b) // 2
    return a + timedelta(minutes=half) if isinstance(a, datetime) else a + half


def _calendar(c: ContestResult) -> tuple[date, date] | None:
    """The first and the last day of a contest's timeline as written (None when it has none),
    which the strips of its date controls span: read once per contest, however many date
    controls it has."""
    days = [t.at.date() for t in c.timeline]
    return (min(days), max(days)) if days else None


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
    if isinstance(value, datetime):
        return f"{value:%Y-%m-%d %H:%M}"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
