"""Invariants of election results (G.S. 163-111(a), 163-292, 163-293, 163-294), over random
returns and random post-election acts (requests, recounts, lots, withdrawals).

Hypothesis draws a contest of any method and stage with 1 to 3 seats, small vote counts (so
ties are frequent) and a few acts after the canvass; the properties hold for every log.
"""

from __future__ import annotations

import json
from datetime import date, timedelta
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import simulator
from simulator.engine.result import ContestResult, Result
from simulator.law import calendar as cal
from simulator.law.vocab import Method, Stage
from simulator.views.text import format_result

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]
WRITE_IN = "Write-In (Miscellaneous)"
KINDS = [
    (Method.PLURALITY, Stage.ELECTION, None),
    (Method.RUNOFF, Stage.ELECTION, None),
    (Method.PRIMARY, Stage.PRIMARY, None),
    (Method.PRIMARY, Stage.ELECTION, None),
    (Method.PARTISAN, Stage.PRIMARY, "DEM"),
    (Method.PARTISAN, Stage.ELECTION, None),
]
YEAR = 2027
PROPERTIES = settings(deadline=None)


def _day(method: Method, stage: Stage) -> date:
    if stage is Stage.PRIMARY:
        day = cal.primary_day(YEAR, method)
        assert day is not None
        return day
    return cal.first_election_day(YEAR, method)


def _at(d: date, hour: int, minute: int = 0) -> str:
    return f"{d.isoformat()}T{hour:02d}:{minute:02d}"


@st.composite
def contests(draw: st.DrawFn) -> dict[str, Any]:
    """A scenario document: filings, returns, the canvass, then a few acts of the board."""
    method, stage, party = draw(st.sampled_from(KINDS + KINDS[1:2] * 2 + KINDS[4:5] * 2))
    seats = draw(st.integers(1, 3))
    names = draw(
        st.lists(st.sampled_from(NAMES), min_size=min(seats + 2, 5), max_size=6, unique=True)
    )
    votes = {n: draw(st.integers(0, 40)) for n in names}
    if draw(st.booleans()):
        votes[WRITE_IN] = draw(st.integers(0, 15))
    night = _day(method, stage)
    canvass = night + timedelta(days=7)
    events: list[dict[str, Any]] = [
        {"type": "candidate_filed", "at": "2027-07-06", "candidate": n} for n in names
    ]
    events.append({"type": "returns_reported", "at": _at(night, 21), "counts": votes})
    events.append({"type": "canvass_held", "at": _at(canvass, 11)})
    later = canvass
    # withdrawals after the canvass: only where 163-293(d) gives them a result to change (the
    # other methods send them to the contingency rules of 163-294.1 and 163-114)
    choices = ["request", "recount", "lot"] + (["withdraw"] if method is Method.RUNOFF else [])
    acts = draw(st.lists(st.sampled_from(choices), max_size=4))
    for i, act in enumerate(acts):
        at = _at(canvass + timedelta(days=1 + i // 2), 9 + 2 * i)
        later = max(later, canvass + timedelta(days=1 + i // 2))
        name = draw(st.sampled_from(names))
        if act == "request":  # mostly by a runner-up, sometimes by anyone
            order = sorted(names, key=lambda n: (-votes[n], n))
            name = order[min(draw(st.sampled_from([1, 1, 2, 3, 4, 0])), len(order) - 1)]
            events.append({"type": "runoff_requested", "at": at, "candidate": name})
        elif act == "lot":
            events.append({"type": "lot_drawn", "at": at, "winner": name})
        elif act == "withdraw":
            events.append({"type": "candidate_withdrew", "at": at, "candidate": name})
        else:
            bumped = {n: v + draw(st.integers(-1, 1)) for n, v in votes.items()}
            events.append(
                {
                    "type": "recount_held",
                    "at": at,
                    "counts": {n: max(v, 0) for n, v in bumped.items()},
                }
            )
    second = (
        cal.election_day(YEAR)
        if method is Method.RUNOFF
        else (cal.fourth_tuesday_before_election(YEAR))
    )
    if second > later and draw(st.booleans()):
        runoff = {n: draw(st.integers(0, 40)) for n in names}
        events.append({"type": "returns_reported", "at": _at(second, 21), "counts": runoff})
        events.append({"type": "canvass_held", "at": _at(second + timedelta(days=7), 11)})
        if draw(st.booleans()):
            events.append(
                {
                    "type": "lot_drawn",
                    "at": _at(second + timedelta(days=8), 10),
                    "winner": draw(st.sampled_from(names)),
                }
            )
    contest: dict[str, Any] = {
        "id": "c",
        "office": "Council",
        "seats": seats,
        "method": method.value,
        "stage": stage.value,
        "year": YEAR,
    }
    if party:
        contest["party"] = party
        for e in events:
            if e["type"] == "candidate_filed":
                e["party"] = party
    return {
        "format": "electsim/v1",
        "title": "a random result",
        "contests": [contest],
        "events": events,
    }


def _replay(doc: dict[str, Any]) -> tuple[Result, ContestResult]:
    result = simulator.replay(simulator.parse_scenario(json.dumps(doc)))
    return result, result.contests[0]


def _declared(c: ContestResult) -> tuple[str, ...]:
    return c.outcome.nominated if c.stage == "primary" else c.outcome.elected


def _votes(c: ContestResult, rnd: int) -> dict[str, int]:
    return dict(c.tallies[rnd]) if len(c.tallies) > rnd else {}


@PROPERTIES
@given(contests())
def test_never_more_winners_than_places(doc: dict[str, Any]) -> None:
    # G.S. 163-292(2), 163-293(a)(2), 163-111(a)(2): as many as the offices; 163-294(b): twice
    _, c = _replay(doc)
    places = c.seats * 2 if (c.method, c.stage) == ("nonpartisan-primary", "primary") else c.seats
    assert len(c.outcome.elected) + c.outcome.vacant_seats <= c.seats
    assert len(c.outcome.nominated) <= places
    assert len(set(_declared(c))) == len(_declared(c))


@PROPERTIES
@given(contests())
def test_winners_outpoll_losers_unless_a_runoff_a_lot_or_a_withdrawal_explains_it(
    doc: dict[str, Any],
) -> None:
    # G.S. 163-292(1)-(2), 163-293(a), (b), (f), 163-294(b)-(c), 163-111(a)
    _, c = _replay(doc)
    kinds = {r.kind.value for r in c.rulings}
    if "decided_by_lot" in kinds or any(e["type"] == "candidate_withdrew" for e in doc["events"]):
        return
    won = set(_declared(c))
    ballot = set(c.outcome.runoff_candidates) if c.outcome.runoff_status.value == "held" else set()
    first, runoff = _votes(c, 0), _votes(c, 1)
    everyone = {n for n in first if n != WRITE_IN} | ballot
    for w in won - ballot:
        for x in everyone - won:
            assert first.get(w, 0) > first.get(x, 0), (w, x, first)
    for w in won & ballot:
        for x in ballot - won:
            assert runoff.get(w, 0) > runoff.get(x, 0), (w, x, runoff)


@PROPERTIES
@given(contests())
def test_a_candidate_with_a_majority_is_never_sent_to_a_runoff(doc: dict[str, Any]) -> None:
    # G.S. 163-293(a)-(b); 163-111(a): a substantial plurality ends the primary for its holder
    _, c = _replay(doc)
    thresholds = [r for r in c.rulings if r.kind.value == "majority_threshold"]
    if not thresholds or not c.outcome.runoff_candidates:
        return
    bar = Fraction(thresholds[-1].get("threshold"))
    first = _votes(c, 0)
    for name in c.outcome.runoff_candidates:
        assert first.get(name, 0) <= bar, (name, first, bar)


@PROPERTIES
@given(contests())
def test_replay_is_deterministic(doc: dict[str, Any]) -> None:
    # the same log always gives the same rulings, deadlines and outcome
    one, _ = _replay(doc)
    two, _ = _replay(doc)
    assert json.dumps(one.to_json(), sort_keys=True) == json.dumps(two.to_json(), sort_keys=True)


@PROPERTIES
@given(contests())
def test_the_timeline_shows_each_threshold_as_an_exact_number(doc: dict[str, Any]) -> None:
    # G.S. 163-293(a), 163-111(a) with interpretation write_ins_in_total and section 4 (exact
    # strings)
    result, c = _replay(doc)
    text = format_result(result)
    for r in c.rulings:
        if r.kind.value != "majority_threshold":
            continue
        total, shown = r.get("total"), r.get("threshold")
        share = Fraction(3, 10) if c.stage == "primary" else Fraction(1, 2)
        assert Fraction(shown) == Fraction(total, c.seats) * share
        assert f"more than {shown} votes" in text
        if "/" not in shown and "." in shown:  # a decimal only when it terminates, unrounded
            assert Fraction(shown).denominator in (2, 4, 5, 8, 10, 20, 40, 25, 50, 100, 200)
