"""A stateful generator of election logs (Hypothesis ``RuleBasedStateMachine``).

Each rule appends one event of SPEC section 1 to a valid, ordered log: every event type, every
method and stage, one to three seats, acts of the board at any point, times that step forward by
nothing (equal times), minutes, hours, days or weeks, or jump to a statutory date of the contest's
cycle and just around it. After every step the log is read and replayed; at the end it is also
replayed as of every moment an event became known. Replay must never raise, and the result must
keep the invariants of :func:`check_result`.

``tests/test_stateful_engine.py`` runs a bounded profile in ``make test``; ``python -m
tests.fuzz_stateful`` runs it for as long as it is told (``make fuzz``).
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from simulator.calendar import statutory_calendar
from simulator.loader import parse_scenario
from simulator.replay import replay
from simulator.result import Result
from simulator.scenario import Interpretations, Scenario
from simulator.vocab import Method, RulingKind, Stage

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")
WRITE_INS = ("Write-In (Miscellaneous)", "Zed (Write-In)")
START = datetime(2027, 6, 20, 9, 0)
STEPS = st.sampled_from([0, 0, 60, 3600, 3600, 6 * 3600, 86400, 86400, 2 * 86400, 5 * 86400])
_VOTING_DAYS = ("primary_day", "second_primary", "election_day", "runoff_election")
AROUND = st.sampled_from([-86400, -3600, -60, 0, 0, 60, 3600, 86400, 3 * 86400])
COUNTS = st.integers(0, 40)
#: (method, stage, party of the contest)
FORMS = (
    (Method.PLURALITY, Stage.ELECTION, None),
    (Method.RUNOFF, Stage.ELECTION, None),
    (Method.PRIMARY, Stage.PRIMARY, None),
    (Method.PRIMARY, Stage.ELECTION, None),
    (Method.PARTISAN, Stage.PRIMARY, "DEM"),
    (Method.PARTISAN, Stage.ELECTION, None),
)
#: rulings that say why someone who left is still elected (or why their seat is vacant)
EXPLAINS = frozenset({RulingKind.OFFICE_VACANT, RulingKind.NAME_REMAINS, RulingKind.NO_PROVISION})

examples = [0]  # logs checked (read by the long run to report how many)


def check_result(scenario: Scenario, result: Result) -> None:
    """The invariants every replay keeps, whatever the log."""
    left: dict[str, datetime] = {}
    dead: set[str] = set()
    for event in scenario.events:
        name = getattr(event, "candidate", "")
        if event.type in ("candidate_died", "candidate_withdrew", "candidate_disqualified"):
            left.setdefault(name, event.known_at)
            if event.type == "candidate_died":
                dead.add(name)
        elif event.type in ("candidate_filed", "nominee_named") and name not in dead:
            left.pop(name, None)  # a new notice of candidacy after a withdrawal
    for contest, seats in zip(result.contests, (c.seats for c in scenario.contests), strict=True):
        outcome = contest.outcome
        assert len(outcome.elected) + outcome.vacant_seats <= seats, (outcome, seats)
        assert len(set(outcome.elected)) == len(outcome.elected), outcome.elected
        for ruling in contest.rulings:
            assert ruling.cites and all(str(c) for c in ruling.cites), ruling
        for name in outcome.elected:
            gone = left.get(name)
            if gone is None:
                continue
            when = [
                r.at
                for r in contest.rulings
                if r.kind is RulingKind.ELECTED and name in r.candidates
            ]
            if when and gone > min(when):
                continue  # left after being elected
            said = [r for r in contest.rulings if r.kind in EXPLAINS and name in r.candidates]
            assert said, f"{name} left at {gone} yet is elected, and no ruling says why"


class ElectionLog(RuleBasedStateMachine):
    """One contest's log, built event by event."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[dict[str, Any]] = []
        self.filed: list[str] = []
        self.now = START
        self.contest: dict[str, Any] = {}
        self.interpretations: dict[str, Any] = {}
        self.milestones: list[datetime] = []
        self.days: list[datetime] = []
        self.canvasses: list[datetime] = []
        self.scenario: Scenario | None = None

    # -- the contest ------------------------------------------------------------------------

    @initialize(
        form=st.sampled_from(FORMS),
        seats=st.integers(1, 3),
        switches=st.fixed_dictionaries(
            {},
            optional={
                name: st.sampled_from(Interpretations.CHOICES[name])
                for name in sorted(Interpretations.CHOICES)
            }
            | {"write_ins_in_total": st.booleans(), "harmless_ties": st.booleans()},
        ),
    )
    def choose_contest(
        self, form: tuple[Method, Stage, str | None], seats: int, switches: dict[str, Any]
    ) -> None:
        method, stage, party = form
        self.contest = {
            "id": "c",
            "office": "Council",
            "seats": seats,
            "method": method.value,
            "stage": stage.value,
            "year": 2027,
        }
        if party:
            self.contest["party"] = party
        self.interpretations = switches
        dates = statutory_calendar(2027, method)
        self.milestones = sorted(d.due.replace(tzinfo=None) for d in dates)
        self.days = [d.due.replace(tzinfo=None) for d in dates if d.kind.value in _VOTING_DAYS]
        self.canvasses = [d.due.replace(tzinfo=None) for d in dates if d.kind.value == "canvass"]
        self.now = self.milestones[0] + timedelta(hours=1)  # filing has just opened

    # -- time -------------------------------------------------------------------------------

    def _add(self, kind: str, step: int, **fields: Any) -> dict[str, Any]:
        self.now += timedelta(seconds=step)
        event = {"type": kind, "at": self.now.isoformat(), **fields}
        self.events.append(event)
        return event

    @rule(which=st.integers(0, 20), around=AROUND)
    def jump_to_a_statutory_date(self, which: int, around: int) -> None:
        if not self.milestones:
            return
        target = self.milestones[which % len(self.milestones)] + timedelta(seconds=around)
        self.now = max(self.now, target)

    def _next(self, moments: list[datetime], skip: int) -> datetime | None:
        ahead = [m for m in moments if m >= self.now - timedelta(hours=12)]
        return ahead[min(skip, len(ahead) - 1)] if ahead else None

    @precondition(lambda self: self.filed)
    @rule(data=st.data(), skip=st.sampled_from([0, 0, 0, 1]), hour=st.sampled_from([7, 20, 22]))
    def returns_on_a_voting_day(self, data: st.DataObject, skip: int, hour: int) -> None:
        day = self._next(self.days, skip)
        if day is None:
            return
        self.now = max(self.now, day.replace(hour=hour))
        self._add("returns_reported", 0, counts=self._counts(data))

    @rule(skip=st.sampled_from([0, 0, 1]), late=st.sampled_from([0, 0, 3600, 3 * 86400]))
    def canvass_on_its_day(self, skip: int, late: int) -> None:
        day = self._next(self.canvasses, skip)
        if day is not None:
            self.now = max(self.now, day + timedelta(seconds=late))
            self._add("canvass_held", 0)

    # -- filing -----------------------------------------------------------------------------

    @rule(
        names=st.lists(st.sampled_from(NAMES), min_size=2, max_size=5, unique=True),
        party=st.sampled_from([None, "DEM"]),
    )
    def slate_filed(self, names: list[str], party: str | None) -> None:
        for name in names:
            self._add("candidate_filed", 600, candidate=name, **({"party": party} if party else {}))
            self.filed.append(name)

    @rule(
        step=STEPS,
        kind=st.sampled_from(["candidate_filed", "nominee_named"]),
        name=st.sampled_from(NAMES),
        party=st.sampled_from([None, "DEM", "REP"]),
    )
    def one_filed(self, step: int, kind: str, name: str, party: str | None) -> None:
        self._add(kind, step, candidate=name, **({"party": party} if party else {}))
        self.filed.append(name)

    # -- candidates leave -------------------------------------------------------------------

    @precondition(lambda self: self.filed)
    @rule(
        step=STEPS,
        data=st.data(),
        kind=st.sampled_from(["withdrew", "disqualified", "died"]),
        before=st.sampled_from([None, 0, 3600, 86400, 9 * 86400]),
    )
    def candidate_leaves(
        self, step: int, data: st.DataObject, kind: str, before: int | None
    ) -> None:
        name = data.draw(st.sampled_from(self.filed))
        if kind != "died" or before is None:
            self._add(f"candidate_{kind}", step, candidate=name)
            return
        # the board learns of it now; the death itself may be earlier than events above it
        self.now += timedelta(seconds=step)
        died = self.now - timedelta(seconds=before)
        self.events.append(
            {
                "type": "candidate_died",
                "at": died.isoformat(),
                "notice_at": self.now.isoformat(),
                "candidate": name,
            }
        )

    # -- votes ------------------------------------------------------------------------------

    def _counts(self, data: st.DataObject) -> dict[str, int]:
        names = data.draw(
            st.lists(
                st.sampled_from((*sorted(set(self.filed)), *WRITE_INS)), min_size=1, unique=True
            )
        )
        tied = data.draw(st.booleans())
        level = data.draw(COUNTS)
        return {n: level if tied else data.draw(COUNTS) for n in names}

    @precondition(lambda self: self.filed)
    @rule(step=STEPS, data=st.data(), batch=st.booleans(), write_in=st.booleans())
    def votes(self, step: int, data: st.DataObject, batch: bool, write_in: bool) -> None:
        if batch:
            precinct = data.draw(st.sampled_from([None, "P1", "P2"]))
            extra = {"precinct": precinct} if precinct else {}
            self._add("returns_reported", step, counts=self._counts(data), **extra)
            return
        name = data.draw(st.sampled_from(WRITE_INS if write_in else tuple(self.filed)))
        self._add("votes_cast", step, candidate=name, count=data.draw(st.integers(0, 30)))

    # -- acts of the board ------------------------------------------------------------------

    @precondition(lambda self: self.filed)
    @rule(
        step=STEPS,
        data=st.data(),
        kind=st.sampled_from(
            [
                "filing_opened",
                "filing_closed",
                "filing_extended",
                "ballots_printed",
                "reprint_determined",
                "canvass_held",
                "recount_held",
                "lot_drawn",
                "oath_taken",
            ]
        ),
    )
    def board_act(self, step: int, data: st.DataObject, kind: str) -> None:
        fields: dict[str, Any] = {}
        if kind == "reprint_determined":
            fields["enough_time"] = data.draw(st.booleans())
        elif kind == "recount_held":
            fields["counts"] = self._counts(data)
        elif kind == "lot_drawn":
            fields["winner"] = data.draw(st.sampled_from(self.filed))
        elif kind == "oath_taken":
            fields["candidate"] = data.draw(st.sampled_from(self.filed))
        self._add(kind, step, **fields)

    @precondition(lambda self: self.filed)
    @rule(step=STEPS, data=st.data())
    def runoff_requested(self, step: int, data: st.DataObject) -> None:
        self._add("runoff_requested", step, candidate=data.draw(st.sampled_from(self.filed)))

    # -- checks -----------------------------------------------------------------------------

    def text(self) -> str:
        doc: dict[str, Any] = {
            "format": "electsim/v1",
            "title": "a generated log",
            "contests": [self.contest],
            "events": self.events,
        }
        if self.interpretations:
            doc["interpretations"] = self.interpretations
        return json.dumps(doc)

    @invariant()
    def replays_and_keeps_the_invariants(self) -> None:
        if not self.contest:
            return
        self.scenario = parse_scenario(self.text(), fmt="json")
        check_result(self.scenario, replay(self.scenario))

    def teardown(self) -> None:
        scenario = self.scenario
        if scenario is None:
            return
        examples[0] += 1
        whole = replay(scenario)
        assert json.dumps(whole.to_json()) == json.dumps(replay(scenario).to_json())
        for moment in sorted({e.known_at for e in scenario.events}):
            for as_of in (moment - timedelta(seconds=1), moment):
                check_result(scenario, replay(scenario, as_of=as_of))
