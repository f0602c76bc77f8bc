"""A stateful generator of election logs (Hypothesis ``RuleBasedStateMachine``).

Each rule appends one event of the scenario format to a valid, ordered log: every event type, every
method and stage, one to three seats, acts of the board at any point, times that step forward by
nothing (equal times), minutes, hours, days or weeks, or jump to a statutory date of the contest's
cycle and just around it. After every step the log is read and replayed; at the end it is also
replayed as of every moment an event became known. Replay must never raise, and the result must
keep the invariants of :func:`check_result`.

``tests/engine/test_stateful_engine.py`` runs a bounded profile in ``make test``; ``python -m
tests.fuzz_stateful`` runs it for as long as it is told (``make fuzz``).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from simulator.engine.replay import replay
from simulator.engine.result import Result, Ruling
from simulator.input.loader import parse_scenario
from simulator.law.calendar import statutory_calendar
from simulator.law.readings import Interpretations
from simulator.law.vocab import Method, RulingKind, Stage
from simulator.model.scenario import Scenario

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")
WRITE_INS = ("Write-In (Miscellaneous)", "Zed (Write-In)")
START = datetime(2027, 6, 20, 9, 0)
STEPS = st.sampled_from([0, 0, 60, 3600])  # between events that follow each other
NY = ZoneInfo("America/New_York")


def written(moment: datetime) -> str:
    """A model time as the log writes it: with its offset, so that one the clocks repeat or
    skip (the model steps through wall-clock days) is still a time the loader reads."""
    return moment.replace(tzinfo=NY).isoformat()


LATER = st.sampled_from([3600, 6 * 3600, 86400, 2 * 86400, 5 * 86400])  # time passing
AROUND = st.sampled_from([-86400, -3600, -60, 0, 0, 60, 3600, 86400, 3 * 86400])
COUNTS = st.integers(0, 40)
BOARD_ACTS = (
    "filing_opened",
    "filing_closed",
    "filing_extended",
    "ballots_printed",
    "reprint_determined",
    "recount_held",
    "lot_drawn",
    "oath_taken",
)
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
    # who left each contest, and when the board learned of it (each contest's own log says)
    left: dict[tuple[str, str], datetime] = {}
    dead: set[tuple[str, str]] = set()
    for event in scenario.events:
        who = (event.contest, getattr(event, "candidate", ""))
        if event.type in ("candidate_died", "candidate_withdrew", "candidate_disqualified"):
            left.setdefault(who, event.known_at)
            if event.type == "candidate_died":
                dead.add(who)
        elif event.type in ("candidate_filed", "nominee_named") and who not in dead:
            left.pop(who, None)  # a new notice of candidacy after a withdrawal
    for contest, spec in zip(result.contests, scenario.contests, strict=True):
        outcome, seats = contest.outcome, spec.seats
        # a contest is decided exactly when it waits for nothing (docs/results.md)
        assert (contest.state == "decided") == (outcome.pending is None), (
            contest.state,
            outcome.pending,
        )
        assert len(outcome.elected) + outcome.vacant_seats <= seats, (outcome, seats)
        # a nonpartisan primary nominates two for each seat (G.S. 163-294(a)); every other
        # contest one: a recount of any round replaces its declaration, never adds to it
        nonpartisan_primary = spec.stage is Stage.PRIMARY and spec.method is Method.PRIMARY
        places = 2 * seats if nonpartisan_primary else seats
        taken = len(outcome.elected) + len(outcome.nominated) + outcome.vacant_seats
        assert taken <= places, (outcome, places)
        assert len(set(outcome.nominated)) == len(outcome.nominated), outcome.nominated
        assert len(set(outcome.elected)) == len(outcome.elected), outcome.elected
        for ruling in contest.rulings:
            assert ruling.cites and all(str(c) for c in ruling.cites), ruling
        for name in outcome.elected:
            gone = left.get((spec.id, name))
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


OFFICES = ("Council", "Mayor", "Commissioner", "Alderman")


class ElectionLog(RuleBasedStateMachine):
    """The log of one to four contests of one town's election (one office each, so the
    one-office rule of G.S. 163-291(2) joins them), built event by event."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[dict[str, Any]] = []
        self.filed: dict[str, list[str]] = {}  # contest id -> names filed
        self.now = START
        self.contests: list[dict[str, Any]] = []
        self.interpretations: dict[str, Any] = {}
        self.milestones: list[datetime] = []
        self.scenario: Scenario | None = None

    # -- the contests -----------------------------------------------------------------------

    @initialize(
        forms=st.lists(
            st.tuples(
                st.sampled_from(FORMS),
                st.integers(1, 3),
                st.lists(st.sampled_from(NAMES), min_size=1, max_size=5, unique=True),
            ),
            min_size=1,
            max_size=4,
        ),
        switches=st.fixed_dictionaries(
            {},
            optional={
                name: st.sampled_from(Interpretations.CHOICES[name])
                for name in sorted(Interpretations.CHOICES)
            }
            | {"write_ins_in_total": st.booleans(), "harmless_ties": st.booleans()},
        ),
    )
    def choose_contests(
        self,
        forms: list[tuple[tuple[Method, Stage, str | None], int, list[str]]],
        switches: dict[str, Any],
    ) -> None:
        self.interpretations = switches
        milestones: set[datetime] = set()
        for k, ((method, stage, party), seats, _) in enumerate(forms):
            contest = {
                "id": "c" if k == 0 else f"c{k + 1}",
                "municipality": "Town of Example",
                "office": OFFICES[k],
                "seats": seats,
                "method": method.value,
                "stage": stage.value,
                "year": 2027,
            }
            if party:
                contest["party"] = party
            self.contests.append(contest)
            self.filed[contest["id"]] = []
            milestones |= {d.due.replace(tzinfo=None) for d in statutory_calendar(2027, method)}
        self.milestones = sorted(milestones)
        self.now = self.milestones[0] + timedelta(hours=1)  # filing has just opened
        for contest, (_, _, slate) in zip(self.contests, forms, strict=True):
            party = contest.get("party")
            for name in slate:
                self._add(
                    "candidate_filed",
                    600,
                    contest["id"],
                    candidate=name,
                    **({"party": party} if party else {}),
                )
                self.filed[contest["id"]].append(name)

    # -- time -------------------------------------------------------------------------------

    def _add(self, kind: str, step: int, contest: str, **fields: Any) -> dict[str, Any]:
        self.now += timedelta(seconds=step)
        event = {"type": kind, "at": written(self.now), **fields}
        if len(self.contests) > 1:
            event["contest"] = contest
        self.events.append(event)
        return event

    def _contest(self, data: st.DataObject) -> str:
        """The contest an act is about."""
        return str(data.draw(st.sampled_from([c["id"] for c in self.contests])))

    # -- the acts, one of which each step takes ---------------------------------------------

    def next_statutory_date(self, data: st.DataObject) -> None:
        """Time moves on to the cycle's next date (a filing close, an election day, a canvass,
        a request deadline), or just before or after it."""
        around = data.draw(AROUND)
        ahead = [m for m in self.milestones if m + timedelta(seconds=around) > self.now]
        if ahead:
            self.now = ahead[0] + timedelta(seconds=around)

    def time_passes(self, data: st.DataObject) -> None:
        self.now += timedelta(seconds=data.draw(LATER))

    def returns_now(self, data: st.DataObject) -> None:
        cid = self._contest(data)
        self._add("returns_reported", data.draw(STEPS), cid, counts=self._counts(data, cid))

    def canvass_now(self, data: st.DataObject) -> None:
        self._add("canvass_held", data.draw(STEPS), self._contest(data))

    def one_filed(self, data: st.DataObject) -> None:
        cid = self._contest(data)
        kind = data.draw(st.sampled_from(["candidate_filed", "candidate_filed", "nominee_named"]))
        name = data.draw(st.sampled_from(NAMES))
        party = data.draw(st.sampled_from([None, "DEM", "REP"]))
        self._add(
            kind, data.draw(STEPS), cid, candidate=name, **({"party": party} if party else {})
        )
        self.filed[cid].append(name)

    def candidate_leaves(self, data: st.DataObject) -> None:
        cid = self._contest(data)
        kind = data.draw(st.sampled_from(["withdrew", "disqualified", "died"]))
        name = data.draw(st.sampled_from(self.filed[cid]))
        before = data.draw(st.sampled_from([None, 0, 3600, 86400, 9 * 86400]))
        step = data.draw(STEPS)
        if kind != "died" or before is None:
            self._add(f"candidate_{kind}", step, cid, candidate=name)
            return
        # the board learns of it now; the death itself may be earlier than events above it
        self.now += timedelta(seconds=step)
        died = self.now - timedelta(seconds=before)
        event = {
            "type": "candidate_died",
            "at": written(died),
            "notice_at": written(self.now),
            "candidate": name,
        }
        if len(self.contests) > 1:
            event["contest"] = cid
        self.events.append(event)

    def _counts(self, data: st.DataObject, cid: str) -> dict[str, int]:
        names = data.draw(
            st.lists(
                st.sampled_from((*sorted(set(self.filed[cid])), *WRITE_INS)),
                min_size=1,
                unique=True,
            )
        )
        tied = data.draw(st.booleans())
        level = data.draw(COUNTS)
        return {n: level if tied else data.draw(COUNTS) for n in names}

    def votes_cast(self, data: st.DataObject) -> None:
        cid = self._contest(data)
        write_in = data.draw(st.booleans())
        name = data.draw(st.sampled_from(WRITE_INS if write_in else tuple(self.filed[cid])))
        count = data.draw(st.integers(0, 30))
        self._add("votes_cast", data.draw(STEPS), cid, candidate=name, count=count)

    def board_act(self, data: st.DataObject) -> None:
        cid = self._contest(data)
        kind = data.draw(st.sampled_from(BOARD_ACTS))
        fields: dict[str, Any] = {}
        if kind == "reprint_determined":
            fields["enough_time"] = data.draw(st.booleans())
        elif kind == "recount_held":
            fields["counts"] = self._counts(data, cid)
        elif kind == "lot_drawn":
            fields["winner"] = data.draw(st.sampled_from(self.filed[cid]))
        elif kind == "oath_taken":
            fields["candidate"] = data.draw(st.sampled_from(self.filed[cid]))
        self._add(kind, data.draw(STEPS), cid, **fields)

    def runoff_requested(self, data: st.DataObject) -> None:
        cid = self._contest(data)
        name = data.draw(st.sampled_from(self.filed[cid]))
        self._add("runoff_requested", data.draw(STEPS), cid, candidate=name)

    #: (act, weight): the weights keep a log moving through the cycle (time passes, votes come,
    #: the board canvasses) while every other act can happen at any point.
    ACTS = (
        ("next_statutory_date", 14),
        ("time_passes", 8),
        ("returns_now", 12),
        ("canvass_now", 10),
        ("one_filed", 6),
        ("candidate_leaves", 8),
        ("votes_cast", 6),
        ("board_act", 14),
        ("runoff_requested", 10),
    )

    @precondition(lambda self: bool(self.contests))
    @rule(data=st.data(), pick=st.integers(0, 10**6))
    def act(self, data: st.DataObject, pick: int) -> None:
        """One act, chosen by weight (Hypothesis's own choice of rules tends to repeat one)."""
        total = sum(w for _, w in self.ACTS)
        point = pick % total
        for name, weight in self.ACTS:
            if point < weight:
                getattr(self, name)(data)
                return
            point -= weight

    # -- checks -----------------------------------------------------------------------------

    def text(self, order: list[str] | None = None) -> str:
        """The log as a scenario file; with ``order``, its contests listed in that order and
        its events grouped by contest in that order (each contest's own in their order)."""
        contests, events = self.contests, self.events
        if order is not None:
            by_id = {c["id"]: c for c in contests}
            contests = [by_id[cid] for cid in order]
            events = [e for cid in order for e in events if e.get("contest", "c") == cid]
        doc: dict[str, Any] = {
            "format": "electsim/v1",
            "title": "a generated log",
            "contests": contests,
            "events": events,
        }
        if self.interpretations:
            doc["interpretations"] = self.interpretations
        return json.dumps(doc)

    @invariant()
    def replays_and_keeps_the_invariants(self) -> None:
        if not self.contests:
            return
        with self.showing_the_log():
            self.scenario = parse_scenario(self.text(), fmt="json")
            check_result(self.scenario, replay(self.scenario))

    def teardown(self) -> None:
        scenario = self.scenario
        if scenario is None:
            return
        examples[0] += 1
        with self.showing_the_log():
            whole = replay(scenario)
            assert json.dumps(whole.to_json()) == json.dumps(replay(scenario).to_json())
            ids = [c["id"] for c in self.contests]
            for order in (ids[::-1], ids[1:] + ids[:1]) if len(ids) > 1 else ():
                check_same_story(whole, replay(parse_scenario(self.text(order), fmt="json")))
            for moment in sorted({e.known_at for e in scenario.events}):
                for as_of in (moment - timedelta(seconds=1), moment):
                    with self.showing_the_log(as_of):
                        cut = replay(scenario, as_of=as_of)
                        check_result(scenario, cut)
                        check_prefix(whole, cut, as_of)
            # and at each deadline, where a window closes, and just after it
            dues = {d.due for c in whole.contests for d in c.deadlines}
            for due in sorted(dues, key=lambda t: t.timestamp()):
                for as_of in (due, due + timedelta(seconds=1)):
                    with self.showing_the_log(as_of):
                        check_prefix(whole, replay(scenario, as_of=as_of), as_of)

    @contextlib.contextmanager
    def showing_the_log(self, as_of: datetime | None = None) -> Iterator[None]:
        """A failure says which log (and which as-of moment) it was."""
        try:
            yield
        except Exception as error:  # an engine error too: the log is what reproduces it
            if "the log:" in str(error):
                raise
            when = f" as of {as_of.isoformat()}" if as_of else ""
            what = str(error) if isinstance(error, AssertionError) else repr(error)
            raise AssertionError(f"{what}{when}; the log: {self.text()}") from None


def _ruling_key(r: Ruling) -> tuple[Any, ...]:
    """A ruling as the story tells it: what, when, under which law, about whom, and why. Its
    ``seq`` is left out: a deadline that passes is attributed to the next event, which a cut
    log does not have."""
    return (r.kind, r.at.timestamp(), r.cites, r.text, r.candidates, r.extra)


def check_prefix(whole: Result, cut: Result, as_of: datetime) -> None:
    """History does not rewrite itself (issue 36; docs/history.md): the rulings and deadlines
    dated before ``as_of`` are the same in the whole story and in the replay of what was known
    at ``as_of``. At ``as_of`` itself, the whole story may have more rulings than the cut one:
    those of a deadline that falls at that very instant, a window the cut replay still holds
    open (an act at a deadline is in time); every ruling the cut replay makes at ``as_of`` is
    one the whole story makes too."""
    cut_at = as_of.timestamp()
    for w, c in zip(whole.contests, cut.contests, strict=True):
        before_w = [_ruling_key(r) for r in w.rulings if r.at.timestamp() < cut_at]
        before_c = [_ruling_key(r) for r in c.rulings if r.at.timestamp() < cut_at]
        assert before_c == before_w, (w.id, "rulings before the cut", before_c, before_w)
        at_w = [_ruling_key(r) for r in w.rulings if r.at.timestamp() == cut_at]
        at_c = [_ruling_key(r) for r in c.rulings if r.at.timestamp() == cut_at]
        assert all(k in at_w for k in at_c), (w.id, "rulings at the cut", at_c, at_w)
        # (a request deadline listed from the calendar before the canvass is counted again from
        # the declaration: a cut before it may hold the first count; left out on both sides)
        due_w = {(d.kind, d.due.timestamp(), d.cites) for d in w.deadlines if not d.provisional}
        due_c = {(d.kind, d.due.timestamp(), d.cites) for d in c.deadlines if not d.provisional}
        early_w = {d for d in due_w if d[1] <= cut_at}
        early_c = {d for d in due_c if d[1] <= cut_at}
        assert early_c == early_w, (w.id, "deadlines by the cut", early_c, early_w)


def check_same_story(first: Result, other: Result) -> None:
    """The same log with its contests listed otherwise tells each contest's story alike."""
    mine = {c.id: c for c in other.contests}
    for c in first.contests:
        o = mine[c.id]
        assert o.outcome == c.outcome, (c.id, o.outcome, c.outcome)
        assert [_ruling_key(r) for r in o.rulings] == [_ruling_key(r) for r in c.rulings], c.id
        assert o.deadlines == c.deadlines, c.id
