"""Remarks: every fact of a log checked against the contest's statutory calendar, said at its
event and never ruling anything (docs/results.md, ``remarks``). Each kind fires on a fact off
the calendar and stays silent on the fitting one.

The contest: a seat elected by the election-and-runoff method in 2027, whose election is on Tue
5 October (G.S. 163-279(a)(4)) and canvassed on Tue 12 October (163-293(c)).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simulator
from simulator.engine.result import ContestResult, Result
from simulator.input.expect import check_scenario
from simulator.law.vocab import RemarkKind
from tests.cli.inprocess import electsim
from tests.inline import filed, returns, run, scenario
from tests.library import PATHS, loaded, replayed

ROOT = Path(__file__).resolve().parents[2]
SEAT = "{id: seat, municipality: Town of Example, office: Council, seats: 1, method: nonpartisan-runoff, year: 2027}"  # noqa: E501 (one flow mapping)
VOTES = returns("2027-10-05T21:00", Ann=600, Bob=300, Cy=100)
CANVASS = "- {type: canvass_held, at: '2027-10-12T11:00'}"


def kinds(c: ContestResult) -> list[str]:
    return [r.kind.value for r in c.remarks]


def story(*lines: str) -> ContestResult:
    return run(SEAT, "\n".join((filed("Ann", "Bob", "Cy"), *lines)))


def test_a_log_that_fits_the_calendar_has_no_remark() -> None:
    assert kinds(story(VOTES, CANVASS)) == []


# G.S. 163-279(a)(4): returns are of the election's day (and its night, until 6:00 next morning)
@pytest.mark.parametrize("at", ["2027-10-05T21:00", "2027-10-06T01:30", "2027-10-06T05:59"])
def test_returns_on_the_election_night_are_the_days(at: str) -> None:
    assert kinds(story(returns(at, Ann=600, Bob=400), CANVASS)) == []


@pytest.mark.parametrize("at", ["2027-10-04T21:00", "2027-10-06T06:00", "2027-10-11T21:00"])
def test_returns_on_another_day_are_remarked_and_still_counted(at: str) -> None:
    c = story(returns(at, Ann=600, Bob=400), CANVASS)
    assert kinds(c) == ["returns_off_day"]
    r = c.remarks[0]
    assert r.seq == 3 and "163-279(a)(4)" in r.cite and "2027-10-05" in r.text
    assert c.outcome.elected == ("Ann",)  # the replay goes on as the log says


def test_a_canvass_after_its_day_is_remarked_with_no_reading() -> None:
    c = story(VOTES, "- {type: canvass_held, at: '2027-10-13T11:00'}")
    assert kinds(c) == ["canvass_off_day"]
    assert c.remarks[0].reading is None and "2027-10-12" in c.remarks[0].text
    assert "163-293(c)" in c.remarks[0].cite  # the canvass deadline's own provision


def test_a_canvass_before_its_day_names_the_reading_its_gap_ruling_relies_on() -> None:
    c = story(VOTES, "- {type: canvass_held, at: '2027-10-07T11:00'}")
    assert kinds(c) == ["canvass_off_day"]
    assert c.remarks[0].reading == "canvass_before_its_day"
    assert any(r.get("gap") == "canvass-before-its-day" for r in c.rulings)


def test_a_request_before_the_election_is_early_and_names_the_early_request_reading() -> None:
    c = story("- {type: runoff_requested, at: '2027-09-01T10:00', candidate: Bob}", VOTES, CANVASS)
    assert kinds(c) == ["request_early"]
    assert c.remarks[0].reading == "early_request" and "163-293(c)" in c.remarks[0].cite


def test_a_request_before_the_requester_filed_is_early() -> None:
    c = run(
        SEAT,
        "\n".join(
            (
                filed("Ann", "Cy"),
                "- {type: runoff_requested, at: '2027-07-07T10:00', candidate: Bob}",
                filed("Bob", at="2027-07-08"),
                VOTES,
                CANVASS,
            )
        ),
    )
    assert kinds(c) == ["request_early"] and "before Bob filed" in c.remarks[0].text


def test_a_request_after_the_election_in_time_is_no_remark() -> None:
    for at in ("2027-10-07T10:00", "2027-10-13T10:00"):  # before the canvass, and after it
        line = f"- {{type: runoff_requested, at: '{at}', candidate: Bob}}"
        assert (
            kinds(story(VOTES, CANVASS, line) if at > "2027-10-12" else story(VOTES, line, CANVASS))
            == []
        )


def test_a_request_by_someone_not_on_the_ballot_is_remarked() -> None:
    # Zed files after filing closed: the notice is rejected, and Zed is on no ballot
    late = filed("Zed", at="2027-08-02")
    line = "- {type: runoff_requested, at: '2027-10-13T10:00', candidate: Zed}"
    c = story(late, VOTES, CANVASS, line)
    assert kinds(c) == ["request_not_on_ballot"]
    assert any(r.kind.value == "filing_rejected" for r in c.rulings)


def test_a_request_in_a_party_primary_is_said_to_demand_a_second_primary() -> None:
    # G.S. 163-111(b): in a party primary the runner-up demands a second primary; a demand
    # before the primary is remarked in those words, never as a runoff request
    primary = (
        "{id: mayor-rep, municipality: City of Example, office: Mayor, seats: 1, "
        "method: partisan, stage: primary, party: REP, year: 2027}"
    )
    log = "\n".join(
        (
            "- {type: candidate_filed, at: 2027-07-06, candidate: Ann, party: REP}",
            "- {type: candidate_filed, at: 2027-07-07, candidate: Bob, party: REP}",
            "- {type: runoff_requested, at: '2027-09-01T10:00', candidate: Bob}",
        )
    )
    (remark,) = run(primary, log).remarks
    assert remark.kind.value == "request_early"
    assert "Bob demanded a second primary on Wed 2027-09-01, before the primary of" in remark.text
    assert "runoff" not in remark.text


def test_ballots_printed_after_the_election_are_remarked() -> None:
    late = story(VOTES, "- {type: ballots_printed, at: '2027-10-06T12:00'}", CANVASS)
    assert kinds(late) == ["ballots_after_election"]
    assert kinds(story("- {type: ballots_printed, at: '2027-08-25T12:00'}", VOTES, CANVASS)) == []


def test_a_departure_of_someone_who_never_filed_is_remarked() -> None:
    c = run(
        SEAT,
        "\n".join(
            (
                filed("Ann", "Bob"),
                "- {type: candidate_withdrew, at: '2027-07-07T12:00', candidate: Zed}",
                filed("Zed", at="2027-07-08"),
            )
        ),
    )
    assert kinds(c) == ["departure_not_filed"] and "163-294.2" in c.remarks[0].cite
    fits = story("- {type: candidate_withdrew, at: '2027-07-10T12:00', candidate: Cy}")
    assert kinds(fits) == []


def test_a_reprint_determination_with_no_departure_after_printing_is_moot() -> None:
    printed = "- {type: ballots_printed, at: '2027-08-25T12:00'}"
    decided = "- {type: reprint_determined, at: '2027-08-29T12:00', enough_time: false}"
    assert kinds(story(printed, decided, VOTES, CANVASS)) == ["determination_moot"]
    assert kinds(story(decided, VOTES, CANVASS)) == ["determination_moot"]  # nothing printed
    died = "- {type: candidate_died, at: '2027-08-27T12:00', candidate: Cy}"
    assert kinds(story(printed, died, decided, VOTES, CANVASS)) == []


def test_a_death_after_the_vote_is_no_remark() -> None:
    # a candidate may die after the vote: nothing in the calendar is out of place (the timeline
    # says that the death came after the election day)
    c = story("- {type: candidate_died, at: '2027-10-20T12:00', candidate: Bob}")
    assert kinds(c) == []


def test_remarks_are_in_the_json_and_on_the_timeline() -> None:
    c = story(returns("2027-11-02T21:00", Ann=600, Bob=400))
    doc = c.to_json()["remarks"]
    assert [set(d) for d in doc] == [{"seq", "at", "kind", "text", "cite", "reading"}]
    assert [t.kind for t in c.timeline if t.what == "remark"] == ["returns_off_day"]
    from simulator.views.text import format_result

    text = format_result(Result("t", (c,)))
    assert "remark    returns on another day: returns dated Tue 2027-11-02 21:00" in text


def test_every_bundled_remark_is_expected_by_its_scenario() -> None:
    # the bundled stories fit the law, or say which remark they mean to make
    for path in PATHS:
        s = loaded(path)
        expected = {
            e.contest or s.contests[0].id: dict(e.checks)["remarks"]
            for e in s.expectations
            if e.as_of is None and "remarks" in dict(e.checks)
        }
        for c in replayed(path).contests:
            made = sorted(kinds(c))
            assert made == expected.get(c.id, []), f"{path.name} [{c.id}]: {made}"


def test_validate_strict_exits_2_on_the_november_returns() -> None:
    path = ROOT / "scenarios" / "remarks" / "returns-in-november.yaml"
    plain = electsim("validate", str(path))
    assert plain.returncode == 0
    strict = electsim("validate", "--strict", str(path))
    assert strict.returncode == 2, strict.stderr
    lines = strict.stdout.splitlines()
    # each remark names the line its event starts on in the file
    source = path.read_text(encoding="utf-8").splitlines()
    returns, canvass = (
        next(i for i, ln in enumerate(source, 1) if f"type: {kind}" in ln)
        for kind in ("returns_reported", "canvass_held")
    )
    assert f"{path}:{returns}: events[2]: returns_off_day: returns on another day: " in lines[0]
    assert f"{path}:{canvass}: events[3]: canvass_off_day: canvass on another day: " in lines[1]
    fits = ROOT / "scenarios" / "runoff" / "cary-2023-district-d.yaml"
    ok = electsim("validate", "--strict", str(fits))
    assert ok.returncode == 0, ok.stdout
    js = electsim("validate", "--strict", "--json", str(path))
    problems = json.loads(js.stdout)["files"][0]["problems"]
    assert [p["kind"] for p in problems] == ["returns_off_day", "canvass_off_day"]


def test_expect_remarks_checks_the_kinds_made() -> None:
    text = (ROOT / "scenarios" / "remarks" / "returns-in-november.yaml").read_text()
    ok = check_scenario(simulator.parse_scenario(text))
    assert ok.passed
    none = text.replace("remarks: [returns_off_day, canvass_off_day]", "remarks: []")
    check = check_scenario(simulator.parse_scenario(none))
    assert not check.passed and check.mismatches[0].field == "remarks"
    with pytest.raises(simulator.ScenarioError, match="remarks"):
        simulator.parse_scenario(none.replace("remarks: []", "remarks: [late_returns]"))


@settings(max_examples=25, deadline=None)
@given(
    returns_day=st.integers(-3, 40),
    canvass_day=st.integers(-3, 40),
    request_day=st.integers(-100, 30),
)
def test_remarks_are_deterministic_and_name_an_event_and_a_known_kind(
    returns_day: int, canvass_day: int, request_day: int
) -> None:
    from datetime import date, timedelta

    def day(n: int) -> str:
        return (date(2027, 10, 5) + timedelta(days=n)).isoformat()

    acts = sorted(
        [
            (f"{day(request_day)}T10:00", "- {type: runoff_requested, at: '%s', candidate: Bob}"),
            (f"{day(returns_day)}T21:00", returns("%s", Ann=500, Bob=400, Cy=100)),
            (f"{day(canvass_day)}T11:00", "- {type: canvass_held, at: '%s'}"),
        ]
    )
    lines = "\n".join((filed("Ann", "Bob", "Cy"), *(line % at for at, line in acts)))
    s = scenario(SEAT, lines)
    first, again = simulator.replay(s).contests[0], simulator.replay(s).contests[0]
    assert tuple(first.remarks) == tuple(again.remarks)
    indices = {ev.index for ev in s.events}
    for r in first.remarks:
        assert r.seq in indices and r.kind in RemarkKind
    # the returns fit exactly when they are the election day's
    assert ("returns_off_day" in kinds(first)) == (returns_day != 0)


def test_the_text_timeline_says_a_death_came_after_the_vote() -> None:
    # scenarios/remarks/death-after-the-vote.yaml: a candidate may die after the vote (no
    # remark), and the timeline says the death came after the election day
    from simulator.views.text import format_result

    s = simulator.load_scenario(ROOT / "scenarios" / "remarks" / "death-after-the-vote.yaml")
    text = format_result(simulator.replay(s), events=s.events)
    assert "candidate died: Bob Brown (after the election of Tue 2027-10-05)" in text
    early = story("- {type: candidate_died, at: '2027-08-20T12:00', candidate: Cy}")
    assert "(after the election" not in format_result(Result("t", (early,)))


def test_the_report_the_page_and_the_notebook_tables_show_the_remarks() -> None:
    from simulator.analysis.whatif.display import html
    from simulator.views.report import render_report

    s = simulator.load_scenario(ROOT / "scenarios" / "remarks" / "returns-in-november.yaml")
    result = simulator.replay(s)
    page = render_report(s, result)
    assert "<h3>Remarks</h3>" in page and "returns on another day" in page
    shown = html(result.contests[0])
    assert shown is not None and "<b>remarks</b>" in shown and "canvass on another day" in shown
    fits = simulator.replay(
        simulator.load_scenario(ROOT / "scenarios/runoff/cary-2023-district-d.yaml")
    )
    assert "<h3>Remarks</h3>" not in render_report(s, fits)


#: the event type each remark kind is about
_ABOUT = {
    "returns_off_day": {"returns_reported"},
    "canvass_off_day": {"canvass_held"},
    "request_early": {"runoff_requested"},
    "request_not_on_ballot": {"runoff_requested"},
    "ballots_after_election": {"ballots_printed"},
    "departure_not_filed": {"candidate_died", "candidate_withdrew", "candidate_disqualified"},
    "determination_moot": {"reprint_determined"},
}
_LIBRARY = sorted((ROOT / "scenarios").rglob("*.yaml"))[::7]  # a spread of the library


@settings(max_examples=30, deadline=None)
@given(
    path=st.sampled_from(_LIBRARY),
    pick=st.integers(0, 10_000),
    days=st.integers(-60, 60),
)
def test_library_events_moved_in_time_make_remarks_that_name_their_event(
    path: Path, pick: int, days: int
) -> None:
    # a bundled scenario with one event's date moved (and the log kept in order): its remarks
    # are the same on every replay, each about an event of the log of the type its kind reads
    from datetime import timedelta

    from hypothesis import assume

    from tests.conftest import read_yaml

    raw = read_yaml(path.read_text())
    events = raw.get("events", [])
    assume(events)
    i = pick % len(events)
    at = events[i].get("at")
    assume(isinstance(at, str))
    from datetime import datetime

    moved = datetime.fromisoformat(at) + timedelta(days=days)
    events[i]["at"] = moved.isoformat()
    events[i].pop("notice_at", None)
    raw["events"] = sorted(events, key=lambda e: str(e.get("at")))
    raw.pop("expect", None)
    import yaml

    try:
        s = simulator.parse_scenario(yaml.safe_dump(raw, allow_unicode=True))
    except simulator.ScenarioError:
        assume(False)
        return
    first, again = simulator.replay(s), simulator.replay(s)
    types = {ev.index: ev.type for ev in s.events}
    for a, b in zip(first.contests, again.contests, strict=True):
        assert tuple(a.remarks) == tuple(b.remarks)
        assert a.rulings == b.rulings
        for r in a.remarks:
            assert r.kind in RemarkKind and types[r.seq] in _ABOUT[r.kind.value], r
