"""History that never rewrites itself: what was ruled at a moment depends only on what was known
then, whatever the order the file lists its contests in and wherever the log stops (issue 36;
docs/cli.md, "What a replay knows").

- the rules that read several contests (G.S. 163-291(2)'s one office per election) read them in
  time order: every bundled scenario gives the same result with its contests listed otherwise;
- ``replay(..., as_of=)`` takes an instant however it is written, as ``--as-of`` does.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import attrs
import pytest

from simulator.engine.replay import replay
from simulator.input.loader import load_scenario, parse_scenario
from simulator.model.events import Event
from simulator.model.scenario import Scenario
from tests.library import PATHS, loaded, replayed

ROOT = Path(__file__).resolve().parents[2]
SEVERAL = [p for p in PATHS if len(loaded(p).contests) > 1]


def listed_otherwise(scenario: Scenario, order: list[str]) -> tuple[Scenario, dict[int, int]]:
    """The scenario with its contests listed in ``order`` and its events grouped by contest in
    that order (each contest's own events in their order), and the events' new positions ->
    old ones."""
    by_id = {c.id: c for c in scenario.contests}
    moved: list[Event] = []
    for cid in order:
        moved.extend(ev for ev in scenario.events if ev.contest == cid)
    back = {new: ev.index for new, ev in enumerate(moved)}
    events = [attrs.evolve(ev, index=new) for new, ev in enumerate(moved)]
    return (
        attrs.evolve(scenario, contests=tuple(by_id[c] for c in order), events=events),
        back,
    )


def _renumbered(doc: Any, back: dict[int, int]) -> Any:
    """A result's JSON with the events' positions (``seq``) read back to the first order."""
    if isinstance(doc, dict):
        return {
            k: (back.get(v, v) if k == "seq" and isinstance(v, int) else _renumbered(v, back))
            for k, v in doc.items()
        }
    if isinstance(doc, list):
        return [_renumbered(v, back) for v in doc]
    return doc


def _per_contest(result_json: dict[str, Any]) -> dict[str, str]:
    return {c["id"]: json.dumps(c, sort_keys=True) for c in result_json["contests"]}


@pytest.mark.parametrize("path", SEVERAL, ids=lambda p: p.stem)
def test_listing_the_contests_otherwise_changes_no_result(path: Path) -> None:
    # issue 36, item 1: written order never decides; time does
    scenario = load_scenario(path)
    ids = [c.id for c in scenario.contests]
    first = _per_contest(replay(scenario).to_json())
    for order in (ids[::-1], ids[1:] + ids[:1]):
        other, back = listed_otherwise(scenario, order)
        again = _per_contest(_renumbered(replay(other).to_json(), back))
        assert again == first, order


def test_a_later_notice_for_another_office_is_refused_whichever_contest_is_listed_first() -> None:
    # G.S. 163-291(2): Ann's 6 July notice for council stands; her 10 July notice for mayor is
    # the one refused, though the mayor's contest is written first
    scenario = load_scenario(ROOT / "scenarios/collisions/291-one-office-read-in-time-order.yaml")
    result = replay(scenario)
    mayor, council = result.contest("mayor"), result.contest("council")
    assert [r.candidates for r in mayor.rulings if r.kind.value == "filing_rejected"] == [("Ann",)]
    assert [r.candidates for r in council.rulings if r.kind.value == "filing_rejected"] == [
        ("Bob",)
    ]
    # as of 9 July, before Bob's withdrawal: the same refusal
    cut = replay(scenario, as_of=datetime(2027, 7, 9, tzinfo=scenario.tz)).contest("council")
    assert [r.candidates for r in cut.rulings if r.kind.value == "filing_rejected"] == [("Bob",)]


TWO_AT_ONCE = """
format: electsim/v1
title: two notices at one moment
contests:
  - {id: mayor, municipality: Town, office: Mayor, seats: 1, method: nonpartisan-plurality,
     year: 2027}
  - {id: council, municipality: Town, office: Council, seats: 1, method: nonpartisan-plurality,
     year: 2027}
events:
  - {type: candidate_filed, at: "2027-07-06T10:00", contest: mayor, candidate: Ann}
  - {type: candidate_filed, at: "2027-07-06T10:00", contest: council, candidate: Ann}
  - {type: candidate_filed, at: "2027-07-06T11:00", contest: council, candidate: Bob}
"""


def test_two_notices_for_two_offices_at_one_moment_are_both_refused() -> None:
    # neither came first: a person may file for only one office, so neither stands (and the
    # ruling says they came at the same moment, not that another notice stood first)
    result = replay(parse_scenario(TWO_AT_ONCE))
    for cid in ("mayor", "council"):
        refused = [r for r in result.contest(cid).rulings if r.kind.value == "filing_rejected"]
        assert [r.candidates for r in refused] == [("Ann",)]
        assert "at the same moment" in refused[0].text


REPEATED_HOUR = """
format: electsim/v1
title: a request in the repeated hour
contests:
  - {id: c, seats: 1, method: nonpartisan-plurality, year: 2027}
events:
  - {type: candidate_filed, at: "2027-07-06T10:00", candidate: Ann}
  - {type: candidate_withdrew, at: "2027-11-07T01:40-04:00", candidate: Ann}
"""


def test_an_as_of_is_an_instant_however_it_is_written() -> None:
    # issue 36, item 3: 01:10 of the second pass (fold=1) is 30 minutes after 01:40 of the
    # first; the withdrawal is known by then, as --as-of 2027-11-07T01:10-05:00 has it
    scenario = parse_scenario(REPEATED_HOUR)
    ny = ZoneInfo("America/New_York")
    instant = datetime(2027, 11, 7, 6, 10, tzinfo=UTC)
    ways = [
        datetime(2027, 11, 7, 1, 10, fold=1, tzinfo=ny),
        datetime(2027, 11, 7, 1, 10, fold=1),  # naive: read on the scenario's clocks
        instant,
        instant.astimezone(ZoneInfo("Europe/Paris")),
    ]
    results = [replay(scenario, as_of=moment) for moment in ways]
    for result in results:
        assert result.as_of is not None and result.as_of.timestamp() == instant.timestamp()
        kinds = [t.kind for t in result.contests[0].timeline if t.what == "event"]
        assert kinds == ["candidate_filed", "candidate_withdrew"]
    docs = {json.dumps(r.to_json()) for r in results}
    assert len(docs) == 1
    # the first pass's 01:10 is before the withdrawal
    early = replay(scenario, as_of=datetime(2027, 11, 7, 1, 10, tzinfo=ny))
    assert early.to_json() != results[0].to_json()
    assert early.as_of is not None
    assert early.as_of.timestamp() == (instant - timedelta(hours=1)).timestamp()


PENDING = ROOT / "scenarios/collisions/2944c-reprint-determination-not-recorded-is-pending.yaml"


def test_a_reprint_determination_nobody_recorded_is_a_pending_decision() -> None:
    # issue 36, item 2: the whole story rules nothing on Bob's name where the log stops; the
    # result names the decision, who makes it, its provisions and each answer's consequences
    scenario = load_scenario(PENDING)
    whole = replay(scenario).contest("seat-b")
    assert not any(r.kind.value in ("name_remains", "name_removed") for r in whole.rulings)
    doc = whole.to_json()["decisions"]
    assert [(d["decision"], d["by"], d["candidates"]) for d in doc] == [
        ("reprint", "county_board", ["Bob"])
    ]
    assert doc[0]["since"] == "2027-09-08T15:00:00-04:00"  # the notice of the death
    assert "G.S. 163-294.4(b)" in doc[0]["cite"] and "G.S. 163-294.4(c)" in doc[0]["cite"]
    options = {o["choice"]: o["effects"] for o in doc[0]["options"]}
    assert options == {
        "enough_time": ["name_removed", "reopen"],
        "not_enough_time": ["name_remains", "vacant_if_elected"],
    }
    # before the notice there is nothing to decide; from it on, the same pending decision
    before = replay(scenario, as_of=datetime(2027, 9, 8, 14, tzinfo=scenario.tz)).contest("seat-b")
    assert before.decisions == ()
    later = replay(scenario, as_of=datetime(2027, 9, 20, tzinfo=scenario.tz)).contest("seat-b")
    assert later.decisions == whole.decisions
    assert "decisions" not in replay(load_scenario(ROOT / SEVERAL[0])).to_json()["contests"][0]


def test_the_first_votes_settle_a_reprint_determination_nobody_recorded() -> None:
    # docs/statutes.md and docs/history.md: the end of the log leaves the determination pending
    # (above); the first votes cast on the printed ballots settle it, with a name_remains ruling
    # at the returns (G.S. 163-294.4(c)), and the decision is no longer listed
    text = PENDING.read_text(encoding="utf-8").split("expect:")[0]
    text += '  - {type: returns_reported, at: "2027-10-05T21:00", counts: {Ann: 480, Bob: 520}}\n'
    scenario = parse_scenario(text, source="pending-then-votes")
    voted = replay(scenario).contest("seat-b")
    (remains,) = [r for r in voted.rulings if r.kind.value == "name_remains"]
    assert remains.at == datetime(2027, 10, 5, 21, tzinfo=scenario.tz)
    assert "no time to reprint was found" in remains.text
    assert voted.decisions == ()
    before = replay(scenario, as_of=datetime(2027, 10, 5, 20, tzinfo=scenario.tz))
    assert [d.decision for d in before.contest("seat-b").decisions] == ["reprint"]


def test_a_pending_decision_is_said_in_words_in_the_text_and_the_report() -> None:
    from simulator.views.report import render_report
    from simulator.views.text import format_result

    scenario = load_scenario(PENDING)
    result = replay(scenario)
    text = format_result(result, events=scenario.events)
    assert "Decisions still to be made:" in text
    assert "reprint determination (Bob), by the county board of elections" in text
    assert "if there is time to reprint: Bob's name comes off the reprinted ballots" in text
    assert "county_board" not in text and "enough_time" not in text
    page = render_report(scenario, result)
    assert "Decisions still to be made" in page and "there is not enough time to reprint" in page
    # and in Jupyter: a contest's HTML has the decision's table, in words
    html = result.contests[0]._repr_html_() or ""
    assert "decisions still to be made" in html
    assert "reprint determination (Bob)" in html and "county board of elections" in html
    assert "Bob&#x27;s name comes off the reprinted ballots" in html
    assert "county_board" not in html and "enough_time" not in html


def test_a_recorded_determination_leaves_nothing_pending() -> None:
    scenario = load_scenario(
        ROOT / "scenarios/contingencies/2944b-printed-time-to-reprint-reopen-3-days.yaml"
    )
    assert all(c.decisions == () for c in replay(scenario).contests)
    cut = replay(scenario, as_of=datetime(2027, 9, 8, 18, tzinfo=scenario.tz))
    assert [d.decision.value for d in cut.contests[0].decisions] == ["reprint"]


ALL = PATHS


@pytest.mark.sample(3)
@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_every_bundled_story_is_the_same_before_any_cut(path: Path) -> None:
    # issue 36: cut at each moment an event became known (and a second before), the rulings and
    # deadlines dated before the cut are the whole story's (docs/history.md; the exception at
    # the very instant of the cut is the one check_prefix allows)
    from tests.stateful import check_prefix, check_result

    scenario = loaded(path)
    whole = replayed(path)
    check_result(scenario, whole)  # elected, nominated and vacant never exceed the places
    moments = {ev.known_at for ev in scenario.events}
    moments |= {d.due for c in whole.contests for d in c.deadlines}  # where windows close
    for moment in sorted(moments, key=lambda t: t.timestamp()):
        for cut in (moment - timedelta(seconds=1), moment, moment + timedelta(seconds=1)):
            check_prefix(whole, replay(scenario, as_of=cut), cut)


def test_an_expect_block_checks_the_decisions_still_to_be_made() -> None:
    from simulator import parse_scenario
    from simulator.input.expect import check_scenario

    text = PENDING.read_text()
    assert check_scenario(parse_scenario(text)).passed
    wrong = text.replace(
        "    decisions: [reprint]\n    no_rulings", "    decisions: []\n    no_rulings"
    )
    check = check_scenario(parse_scenario(wrong))
    assert [(m.field, m.expected, m.found) for m in check.mismatches] == [
        ("decisions", "[]", "[reprint]"),
        ("decisions", "[]", "[reprint]"),
    ]
