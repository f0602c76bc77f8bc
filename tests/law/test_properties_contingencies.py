"""Properties of the contingency rules over random logs of deaths, withdrawals and
disqualifications (Hypothesis).

Each example is one contest of a 2027 cycle: candidates file around the statutory period (some
too early or too late), then any mix of deaths (with late notices), withdrawals,
disqualifications, printing, reprint determinations, extensions, late filings, returns, a canvass
and an oath. The properties are the law's invariants: a dead or disqualified candidate is never
elected or nominated (G.S. 163-294.1, 163-294.4(c), 163-112); no notice of candidacy is accepted
outside an open filing period (163-291(2), 163-294.2(c), 163-112, 163-294.4(a)-(b)); reopening
never shortens a period; and replay never makes a transition outside the machine's table.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import simulator
from simulator.law import calendar as cal
from simulator.law.cite import statute
from simulator.law.vocab import DeadlineKind
from simulator.model.scenario import Scenario

TZ = ZoneInfo("America/New_York")
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
LATE = ("Gus", "Hal")
SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
METHODS = (
    ("partisan", "primary"),
    ("partisan", "election"),
    ("nonpartisan-primary", "primary"),
    ("nonpartisan-primary", "election"),
    ("nonpartisan-plurality", "election"),
    ("nonpartisan-runoff", "election"),
)


def _moment(lo: date, hi: date) -> st.SearchStrategy[datetime]:
    """A local moment between two days, on the hour or at noon give or take a minute."""
    days = (hi - lo).days
    return st.builds(
        lambda d, t: datetime.combine(lo + timedelta(days=d), t),
        st.integers(0, days),
        st.sampled_from([time(9), time(11, 59), time(12), time(12, 1), time(15), time(23)]),
    )


def _iso(dt: datetime) -> str:
    # with its offset: a wall-clock time drawn into the hour the clocks repeat says which pass
    return dt.replace(tzinfo=TZ).isoformat(timespec="minutes")


@st.composite
def contingency_logs(draw: st.DrawFn) -> dict[str, Any]:
    method, stage = draw(st.sampled_from(METHODS))
    seats = draw(st.integers(1, 3))
    contest: dict[str, Any] = {
        "id": "c",
        "municipality": "Town of Example",
        "office": "Council",
        "seats": seats,
        "method": method,
        "stage": stage,
        "year": 2027,
    }
    if method == "partisan" and stage == "primary":
        contest["party"] = "DEM"
    primary_day = {
        ("partisan", "primary"): date(2027, 9, 14),
        ("nonpartisan-primary", "primary"): date(2027, 10, 5),
        ("nonpartisan-runoff", "election"): date(2027, 10, 5),
    }.get((method, stage), date(2027, 11, 2))
    events: list[tuple[datetime, dict[str, Any]]] = []
    n = draw(st.integers(1, len(NAMES)))
    filers = list(NAMES[:n])
    filed_at: dict[str, datetime] = {}
    for name in filers:
        filed_at[name] = draw(_moment(date(2027, 7, 1), date(2027, 7, 17)))
        events.append((filed_at[name], {"type": "candidate_filed", "candidate": name}))
    for _ in range(draw(st.integers(0, 4))):
        what = draw(
            st.sampled_from(["candidate_died", "candidate_withdrew", "candidate_disqualified"])
        )
        who = draw(st.sampled_from(filers))
        # a candidate leaves after filing (a death before it is no candidate's death)
        at = filed_at[who] + timedelta(hours=draw(st.integers(1, 24 * 140)))
        ev: dict[str, Any] = {"type": what, "at": _iso(at), "candidate": who}
        known = at
        if what == "candidate_died" and draw(st.booleans()):
            known = at + timedelta(hours=draw(st.integers(1, 24 * 6)))
            ev["notice_at"] = _iso(known)
        events.append((known, ev))
    if draw(st.booleans()):
        at = draw(_moment(date(2027, 7, 16), date(2027, 7, 24)))
        events.append((at, {"type": "filing_extended"}))
    for name in LATE[: draw(st.integers(0, 2))]:
        at = draw(_moment(date(2027, 7, 15), date(2027, 9, 20)))
        events.append((at, {"type": "candidate_filed", "candidate": name}))
        filers.append(name)
    printed = draw(st.none() | _moment(date(2027, 8, 10), date(2027, 10, 1)))
    if printed is not None:
        events.append((printed, {"type": "ballots_printed"}))
        if draw(st.booleans()):
            at = draw(_moment(printed.date(), date(2027, 10, 20)))
            events.append((at, {"type": "reprint_determined", "enough_time": draw(st.booleans())}))
    if draw(st.booleans()):
        at = draw(_moment(date(2027, 7, 20), date(2027, 10, 1)))
        events.append((at, {"type": "nominee_named", "candidate": "Ned"}))
        filers.append("Ned")
    if draw(st.booleans()):
        counts = {name: draw(st.integers(0, 50)) for name in filers}
        vote_at = datetime.combine(primary_day, time(21))
        events.append((vote_at, {"type": "returns_reported", "counts": counts}))
        canvass = datetime.combine(primary_day + timedelta(days=7), time(11))
        events.append((canvass, {"type": "canvass_held"}))
        if draw(st.booleans()):
            oath = canvass + timedelta(days=draw(st.integers(1, 20)))
            events.append(
                (oath, {"type": "oath_taken", "candidate": draw(st.sampled_from(filers))})
            )
    # the log is in the order the board learned of things: a death at its notice
    events.sort(key=lambda e: e[0])
    log = [ev if "at" in ev else {"at": _iso(at), **ev} for at, ev in events]
    return {
        "format": "electsim/v1",
        "title": "random contingencies",
        "contests": [contest],
        "events": log,
    }


def _load(doc: dict[str, Any]) -> Scenario:
    return simulator.parse_scenario(yaml.safe_dump(doc, sort_keys=False))


def _replay(doc: dict[str, Any]) -> dict[str, Any]:
    result = simulator.replay(_load(doc)).to_json()
    return result["contests"][0]  # type: ignore[no-any-return]


def _local(s: str) -> datetime:
    return datetime.fromisoformat(s).astimezone(TZ)


@SETTINGS
@given(contingency_logs())
def test_a_dead_or_disqualified_candidate_is_never_elected_or_nominated(
    doc: dict[str, Any],
) -> None:
    # G.S. 163-294.1(b)-(c), 163-294.4(c), 163-112: the office is vacant or another is chosen
    c = _replay(doc)
    sworn: dict[str, datetime] = {}
    gone: dict[str, datetime] = {}
    for ev in doc["events"]:
        at = datetime.fromisoformat(ev["at"])
        if ev["type"] == "oath_taken":
            sworn.setdefault(ev["candidate"], at)
        if ev["type"] in ("candidate_died", "candidate_disqualified"):
            gone.setdefault(ev["candidate"], at)
    out = c["outcome"]
    for name in out["nominated"]:
        assert name not in gone, (name, c["rulings"])
    for name in out["elected"]:
        if name in gone:
            # only an officer who took the oath first stays elected (163-294.1(d))
            assert name in sworn and sworn[name] <= gone[name], (name, c["rulings"])


@SETTINGS
@given(contingency_logs())
def test_no_notice_of_candidacy_is_accepted_outside_an_open_filing_period(
    doc: dict[str, Any],
) -> None:
    # G.S. 163-291(2), 163-294.2(c); reopened (163-112, 163-294.4(b)) and extended (163-294.4(a))
    scenario = _load(doc)
    if scenario.contests[0].stage.value == "election" and scenario.contests[0].method.value in (
        "partisan",
        "nonpartisan-primary",
    ):
        return  # the election after a primary lists its nominees (README, "Choices made")
    c = simulator.replay(scenario).to_json()["contests"][0]
    windows: list[tuple[datetime, datetime]] = []
    dl = {d["kind"]: _local(d["due"]) for d in c["deadlines"]}
    windows.append((dl["filing_opens"], dl["filing_closes"]))
    for r in c["rulings"]:
        if r["kind"] in ("filing_reopened", "filing_extended"):
            windows.append((_local(r["opens"]), _local(r["closes"])))
    rejected = {
        (r["seq"], tuple(r["candidates"])) for r in c["rulings"] if r["kind"] == "filing_rejected"
    }
    for i, ev in enumerate(scenario.events):
        if ev.type != "candidate_filed":
            continue
        if (i, (ev.candidate,)) in rejected:  # type: ignore[attr-defined]
            continue
        at = ev.at.astimezone(TZ)
        assert any(lo <= at <= hi for lo, hi in windows), (ev, windows)


@SETTINGS
@given(contingency_logs())
def test_a_reopened_or_extended_period_never_shortens_filing(doc: dict[str, Any]) -> None:
    # G.S. 163-112 (3 days), 163-294.4(b) (5 or 3 days), 163-294.4(a) (5 days); 103-5 moves later
    c = _replay(doc)
    close = next(_local(d["due"]) for d in c["deadlines"] if d["kind"] == "filing_closes")
    for r in c["rulings"]:
        if r["kind"] not in ("filing_reopened", "filing_extended"):
            continue
        opens, closes = _local(r["opens"]), _local(r["closes"])
        days = 5 if r["kind"] == "filing_extended" or "5 days" in r["text"] else 3
        assert closes > opens
        assert closes >= close
        assert closes.date() - opens.date() >= timedelta(days=days)


@SETTINGS
@given(contingency_logs())
def test_replay_of_a_contingency_log_is_deterministic(doc: dict[str, Any]) -> None:
    # the fold is pure: the same log gives the same result
    assert _replay(doc) == _replay(doc)


@settings(deadline=None)
@given(
    notice=st.datetimes(min_value=datetime(2025, 1, 1), max_value=datetime(2040, 12, 31)),
    days=st.sampled_from([3, 5]),
)
def test_a_reopened_period_opens_at_noon_on_an_open_day_and_runs_its_full_length(
    notice: datetime, days: int
) -> None:
    # day counting (docs/readings.md); G.S. 103-5(a) moves only the close, and only later
    office = cal.OfficeCalendar()
    at = notice.replace(tzinfo=TZ)
    opens, close = cal.reopened_period(at, days, statute("163-112(a)"), office)
    assert opens.time() == cal.NOON and office.is_open(opens.date())
    assert opens >= at.replace(hour=0, minute=0) and (opens.date() > at.date() or at <= opens)
    assert close.due.time() == cal.NOON and office.is_open(close.due.date())
    assert close.due.date() >= opens.date() + timedelta(days=days)
    assert close.moved_from is None or close.due > close.moved_from
    assert close.kind is DeadlineKind.REOPENED_FILING_CLOSES


@settings(deadline=None)
@given(original=st.datetimes(min_value=datetime(2025, 1, 1), max_value=datetime(2040, 12, 31)))
def test_an_extended_period_closes_at_noon_five_days_or_more_after_the_original_close(
    original: datetime,
) -> None:
    # G.S. 163-294.4(a), day counting (docs/readings.md), G.S. 103-5(a)
    office = cal.OfficeCalendar()
    at = original.replace(tzinfo=TZ)
    ext = cal.extended_close(at, statute("163-294.4(a)"), office)
    assert ext.due.time() == cal.NOON
    assert ext.due.date() >= at.date() + timedelta(days=5)
    assert ext.due > at
    assert office.is_open(ext.due.date())
