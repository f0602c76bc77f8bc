"""What can happen from here (simulator.analysis.futures, electsim next): the branches of the
issue's examples, every witness replaying to its branch's outcome, and soundness within the
bounds for bundled scenarios cut before their returns."""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from simulator.analysis.futures import Futures, futures
from simulator.cli.main import main
from simulator.engine.replay import replay
from simulator.input.loader import load_scenario, parse_scenario
from simulator.law.vocab import DeadlineKind, RulingKind
from simulator.model.events import CanvassHeld, ReturnsReported
from simulator.model.scenario import Scenario
from tests.conftest import examples
from tests.library import PATHS, loaded, replayed

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = PATHS

HEAD = """\
format: electsim/v1
title: Example council seat, {title}
contests:
  - {{id: seat-c, municipality: City of Example, office: Council Seat C, seats: 1,
     method: nonpartisan-runoff, year: 2027}}
events:
  - {{type: candidate_filed, at: "2027-07-06T10:00", candidate: Ann}}
  - {{type: candidate_filed, at: "2027-07-07T10:00", candidate: Bob}}
  - {{type: candidate_filed, at: "2027-07-08T10:00", candidate: Cy}}
"""

#: ballots printed; Bob dies the day after the election, before any returns
DIES_AFTER_VOTE = HEAD.format(title="a candidate dies after the vote") + (
    '  - {type: ballots_printed, at: "2027-09-01T09:00"}\n'
    '  - {type: candidate_died, at: "2027-10-06T08:00", candidate: Bob}\n'
)
#: Bob dies before the ballots are printed; the board has not yet said whether it can reprint
DIES_BEFORE_PRINTING = HEAD.format(title="a candidate dies, reprint not determined") + (
    '  - {type: ballots_printed, at: "2027-09-01T09:00"}\n'
    '  - {type: candidate_died, at: "2027-09-20T08:00", candidate: Bob}\n'
)

#: after the filing closed, before anything is printed
AFTER_CLOSE = datetime.fromisoformat("2027-07-20T00:00-04:00")


def _check_witnesses(found: Futures) -> int:
    n = 0
    for c in found.contests:
        for b in c.branches:
            got = replay(parse_scenario(b.witness)).contest(c.id).outcome.to_json()
            assert got == b.outcome, b.condition
            n += 1
    return n


def _branch(found: Futures, **when: object) -> dict[str, object]:
    for b in found.contests[0].branches:
        for w in b.when:
            if all(w.get(k) == v for k, v in when.items()):
                return b.to_json()
    raise AssertionError(f"no branch with {when}")


def test_death_after_the_vote_dead_leader_runner_up_and_majority() -> None:
    found = futures(parse_scenario(DIES_AFTER_VOTE))
    assert found.contests[0].state == "awaiting_votes"
    lead = _branch(found, kind="ranking", leader="Bob")
    assert lead["outcome"]["vacant_seats"] == 1 and lead["outcome"]["elected"] == []  # type: ignore[index]
    assert any(r["kind"] == "office_vacant" for r in lead["rulings"])  # type: ignore[attr-defined]
    assert "Bob (dead) polls the most votes" in str(lead["condition"])
    second = _branch(found, kind="ranking", leader="Ann", second=["Bob"], majority=False)
    assert second["outcome"]["elected"] == ["Ann"]  # type: ignore[index]
    assert second["outcome"]["runoff"]["status"] == "none"  # type: ignore[index]
    majority = _branch(found, kind="ranking", leader="Cy", majority=True)
    assert majority["outcome"]["elected"] == ["Cy"]  # type: ignore[index]
    assert any(r["cite"].startswith("G.S. 163-293(a)") for r in majority["rulings"])  # type: ignore[attr-defined]
    assert _check_witnesses(found) >= 3


def test_each_answer_of_a_pending_reprint_determination_is_a_branch() -> None:
    scenario = parse_scenario(DIES_BEFORE_PRINTING)
    assert replay(scenario).contests[0].decisions  # (the determination is pending)
    found = futures(scenario, departures=0)
    choices = {
        w["choice"] for b in found.contests[0].branches for w in b.when if w["kind"] == "decision"
    }
    assert choices == {"enough_time", "not_enough_time"}
    words = [b.condition for b in found.contests[0].branches]
    assert any("there is time to reprint" in w for w in words)
    assert any("there is not time to reprint" in w for w in words)
    _check_witnesses(found)


def test_a_decided_contest_still_has_futures_the_winner_who_dies_before_the_oath() -> None:
    scenario = parse_scenario(
        HEAD.format(title="decided")
        + '  - {type: returns_reported, at: "2027-10-05T21:00",\n'
        + "     counts: {Ann: 600, Bob: 300, Cy: 100}}\n"
        + '  - {type: canvass_held, at: "2027-10-12T11:00"}\n'
    )
    found = futures(scenario)
    plain, *rest = found.contests[0].branches
    assert plain.outcome["elected"] == ["Ann"] and plain.condition == "if nothing more happens"
    dies = [b for b in rest if b.when and b.when[0]["candidate"] == "Ann"]
    assert dies and dies[0].outcome["vacant_seats"] == 1
    assert any("163-294.1(c)" in c for _, c in dies[0].rulings)
    _check_witnesses(found)


def test_a_runoff_request_in_time_or_none_and_the_runoffs_own_outcomes() -> None:
    scenario = parse_scenario(
        HEAD.format(title="no majority")
        + '  - {type: returns_reported, at: "2027-10-05T21:00",\n'
        + "     counts: {Ann: 480, Bob: 420, Cy: 100}}\n"
    )
    found = futures(scenario, departures=0)
    branches = found.contests[0].branches
    conditions = [b.condition for b in branches]
    asks = "if Bob, second, asks for a runoff by Thu 2027-10-14 12:00"
    assert "if Bob does not ask for a runoff in time" in conditions
    # the runoff is counted: each of the two wins it, or they tie and a lot decides
    held = {
        (b.outcome["elected"][0], any(w["kind"] == "lot" for w in b.when))
        for b in branches
        if b.outcome["runoff"]["status"] == "held"
    }
    assert held == {("Ann", False), ("Bob", False), ("Ann", True), ("Bob", True)}
    assert f"{asks} and in the runoff Bob polls the most votes" in conditions
    runoff = next(
        b for b in branches if b.condition.endswith("in the runoff Bob polls the most votes")
    )
    assert ("elected", "G.S. 163-293(f)") in runoff.rulings
    assert "runoff" in runoff.witness and "runoff_requested" in runoff.witness
    assert "a runoff's returns in every ranking class" in found.words()  # (the bounds are said)
    _check_witnesses(found)


def _leaving(found: Futures, kind: str, stretch: str) -> list[dict[str, object]]:
    return [
        b.to_json()
        for b in found.contests[0].branches
        if b.when and b.when[0]["kind"] == kind and str(b.when[0]["stretch"]).startswith(stretch)
    ]


def test_a_withdrawal_after_the_filing_closes_is_a_branch_with_its_own_ruling() -> None:
    # three filed, the filing closed, nothing printed: a death removes the name under G.S.
    # 163-294.4(c), a withdrawal under 163-294.1(b): two branches, each with its witness
    found = futures(parse_scenario(HEAD.format(title="after the close")), as_of=AFTER_CLOSE)
    died = _leaving(found, "death", "within 30 days after the filing closes")
    withdrew = _leaving(found, "withdrawal", "within 30 days after the filing closes")
    assert died and withdrew
    cites = {r["cite"] for b in withdrew for r in b["rulings"] if r["kind"] == "name_removed"}  # type: ignore[attr-defined]
    assert cites == {"G.S. 163-294.1(b)"}
    cites = {r["cite"] for b in died for r in b["rulings"] if r["kind"] == "name_removed"}  # type: ignore[attr-defined]
    assert cites == {"G.S. 163-294.4(c)"}
    assert all(" withdraws within 30 days" in str(b["condition"]) for b in withdrew)
    _check_witnesses(found)


def test_a_disqualification_after_printing_waits_for_the_boards_reprint_answer() -> None:
    scenario = parse_scenario(DIES_AFTER_VOTE)
    found = futures(scenario, as_of=datetime.fromisoformat("2027-09-02T00:00-04:00"))
    out = _leaving(found, "disqualification", "after the ballots are printed")
    answers = {
        (w["choice"], r["kind"])
        for b in out
        for w in b["when"]  # type: ignore[attr-defined]
        if w["kind"] == "decision"
        for r in b["rulings"]  # type: ignore[attr-defined]
        if r["kind"] in ("name_removed", "name_remains")
    }
    assert answers == {("enough_time", "name_removed"), ("not_enough_time", "name_remains")}
    assert all("is disqualified after the ballots are printed" in str(b["condition"]) for b in out)
    _check_witnesses(found)


def test_two_departures_the_second_a_death_no_earlier_than_the_first() -> None:
    scenario = parse_scenario(DIES_AFTER_VOTE)
    cut = datetime.fromisoformat("2027-09-02T00:00-04:00")
    one = futures(scenario, as_of=cut, departures=1)
    two = futures(scenario, as_of=cut, departures=2)
    doubles = [
        b for b in two.contests[0].branches if len([w for w in b.when if "stretch" in w]) == 2
    ]
    assert doubles and all(b.when[1]["kind"] == "death" for b in doubles)
    assert not [
        b for b in one.contests[0].branches if len([w for w in b.when if "stretch" in w]) == 2
    ]
    # every outcome within one departure is still reached with two
    assert {json.dumps(b.outcome) for b in one.contests[0].branches} <= {
        json.dumps(b.outcome) for b in two.contests[0].branches
    }
    _check_witnesses(two)


def test_after_the_runoff_is_called_its_returns_and_its_candidates_departures() -> None:
    s = load_scenario(ROOT / "scenarios/runoff/cary-2023-district-d.yaml")
    found = futures(s, as_of=datetime.fromisoformat("2023-10-20T00:00-04:00"))
    branches = found.contests[0].branches
    assert found.contests[0].state == "runoff_called"
    assert {b.outcome["elected"][0] for b in branches if not b.when or len(b.when) == 1} == {
        "Sarika Bansal",
        "Rachel Jordan",
    }
    leaving = {str(b.when[0]["candidate"]) for b in branches if b.when and "stretch" in b.when[0]}
    assert leaving == {"Sarika Bansal", "Rachel Jordan"}  # (not the third, off the runoff ballot)
    assert not [b for b in branches if "does not ask" in b.condition]  # (the request was made)
    dead_leads = [b for b in branches if "Sarika Bansal (dead) polls the most" in b.condition]
    assert dead_leads and dead_leads[0].outcome["vacant_seats"] == 1
    _check_witnesses(found)


def _cut_at_random_event(path: Path, rng: random.Random) -> tuple[Scenario, datetime]:
    s = loaded(path)
    return s, rng.choice(list(s.events)).known_at


def test_witnesses_of_a_sample_of_bundled_scenarios_replay_to_their_outcomes() -> None:
    rng = random.Random(46)
    for path in rng.sample(SCENARIOS, 6):
        s, cut = _cut_at_random_event(path, rng)
        _check_witnesses(futures(s, as_of=cut, departures=1))


def _within_bounds(path: Path) -> list[datetime]:
    """The cuts of a one-seat, one-contest scenario after which the log only reports its returns
    once and canvasses (the continuations the enumeration covers with no departure)."""
    s = loaded(path)
    if len(s.contests) != 1 or s.contests[0].seats != 1:
        return []
    ev = list(s.events)
    whole = replayed(path).contests[0].outcome
    # (outside the bounds: a runoff's returns, a wait for a lot, a recount or a new election,
    # whose tie the class's small realized votes cannot reach)
    if whole.runoff_status.value == "held" or whole.pending is not None:
        return []
    cuts = []
    for i, e in enumerate(ev):
        rest = ev[i:]
        if (
            i > 0
            and isinstance(e, ReturnsReported)
            and ev[i - 1].known_at < e.known_at
            and sum(isinstance(x, ReturnsReported) for x in rest) == 1
            and sum(isinstance(x, CanvassHeld) for x in rest) <= 1
            and all(isinstance(x, (ReturnsReported, CanvassHeld)) for x in rest)
        ):
            cuts.append(ev[i - 1].known_at)
    return cuts


CASES = [(p, c) for p in SCENARIOS for c in _within_bounds(p)]


def test_there_are_cases_within_the_bounds() -> None:
    assert len(CASES) >= 20


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CASES))
def test_the_outcome_the_log_reaches_is_a_predicted_branch(case: tuple[Path, datetime]) -> None:
    path, cut = case
    s = loaded(path)
    whole = replayed(path).contests[0].outcome.to_json()
    found = futures(s, as_of=cut, departures=0)
    assert whole in [b.outcome for b in found.contests[0].branches], path.name


#: the moments a random log's departure takes, one in each stretch the enumeration reads
LEAVE_AT = (
    "2027-07-26T10:00",  # within 30 days after the filing closes
    "2027-08-25T10:00",  # after day 30, before printing
    "2027-09-05T10:00",  # after printing (the board then answers whether it can reprint)
    "2027-10-05T22:00",  # after the vote, before the canvass
    "2027-10-12T15:00",  # after the result is declared
)
LEAVE_TYPES = ("candidate_died", "candidate_withdrew", "candidate_disqualified")


def _in_time(lines: list[str]) -> Scenario:
    """The head and the event lines sorted by their times (each event line has one ``at``)."""
    head, events = lines[0], lines[1:]
    return parse_scenario(head + "".join(sorted(events, key=lambda x: x.split('at: "')[1][:16])))


@st.composite
def random_logs(draw: st.DrawFn) -> Scenario:
    """A three-candidate runoff-method log to its end: at most one departure, the returns, the
    canvass, a request for a runoff by the runner-up or none, the runoff's returns and canvass."""
    names = ["Ann", "Bob", "Cy"]
    lines = [HEAD.format(title="random")]
    printed = '  - {type: ballots_printed, at: "2027-09-01T09:00"}\n'
    if draw(st.booleans()):
        at = draw(st.sampled_from(LEAVE_AT))
        kind = draw(st.sampled_from(LEAVE_TYPES))
        leave = f'  - {{type: {kind}, at: "{at}", candidate: {draw(st.sampled_from(names))}}}\n'
        lines += [printed, leave]
        if at.startswith("2027-09-05"):
            enough = str(draw(st.booleans())).lower()
            lines.append(
                f'  - {{type: reprint_determined, at: "2027-09-06T10:00", enough_time: {enough}}}\n'
            )
    else:
        lines.append(printed)
    counts = {n: draw(st.integers(1, 60)) for n in names}
    said = ", ".join(f"{n}: {v}" for n, v in counts.items())
    lines.append(f'  - {{type: returns_reported, at: "2027-10-05T21:00", counts: {{{said}}}}}\n')
    lines.append('  - {type: canvass_held, at: "2027-10-12T11:00"}\n')
    scenario = _in_time(lines)
    avail = replay(scenario).contests[0].ruling(RulingKind.RUNOFF_AVAILABLE)
    if avail is not None and avail.candidates and draw(st.booleans()):
        who = avail.candidates[0]
        lines.append(f'  - {{type: runoff_requested, at: "2027-10-13T10:00", candidate: {who}}}\n')
        result = replay(_in_time(lines)).contests[0]
        day = [d.due for d in result.deadlines if d.kind is DeadlineKind.RUNOFF_ELECTION]
        pair = result.outcome.runoff_candidates
        if day and pair:
            said = ", ".join(f"{n}: {draw(st.integers(1, 60))}" for n in pair)
            at = f"{day[-1]:%Y-%m-%d}T21:00"
            lines.append(f'  - {{type: returns_reported, at: "{at}", counts: {{{said}}}}}\n')
            canvass = day[-1] + timedelta(days=7)
            lines.append(f'  - {{type: canvass_held, at: "{canvass:%Y-%m-%d}T11:00"}}\n')
    return _in_time(lines)


def _reaches_a_predicted_branch(s: Scenario, data: st.DataObject) -> None:
    """Soundness within the bounds: the outcome the whole log reaches (when it waits for no
    recount or lot) is one of the branches predicted at a cut before one of its events, with
    one departure; and (for some) every branch's witness replays to its outcome."""
    whole = replay(s).contests[0].outcome
    assume(whole.pending is None)
    events = list(s.events)
    i = data.draw(st.integers(3, len(events) - 1))
    cut = events[i].known_at - timedelta(minutes=1)
    found = futures(s, as_of=cut, departures=1)
    predicted = [b.outcome for b in found.contests[0].branches]
    assert whole.to_json() in predicted, (cut, [e.type for e in events])
    if data.draw(st.booleans()):
        _check_witnesses(found)


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(random_logs(), st.data())
def test_random_logs_cut_anywhere_reach_a_predicted_branch(
    s: Scenario, data: st.DataObject
) -> None:
    _reaches_a_predicted_branch(s, data)


@pytest.mark.long
@settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
@given(random_logs(), st.data())
def test_random_logs_cut_anywhere_reach_a_predicted_branch_long(
    s: Scenario, data: st.DataObject
) -> None:
    _reaches_a_predicted_branch(s, data)


def test_next_prints_words_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "dies.yaml"
    f.write_text(DIES_AFTER_VOTE, encoding="utf-8")
    assert main(["next", str(f)]) == 0
    text = capsys.readouterr().out
    assert "What can happen from here" in text and "Bob (dead) polls the most votes" in text
    assert main(["next", str(f), "--json", "--departures", "0"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "electsim-futures/v1" and doc["departures"] == 0
    assert doc["contests"][0]["branches"][0]["witness"].startswith("format: electsim/v1")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--departures", "3"], "--departures: expected 0, 1 or 2; found 3"),
        (["--departures", "-1"], "--departures: expected 0, 1 or 2; found -1"),
        (["--as-of", "soon"], "--as-of: expected an ISO 8601 date"),
        (["--as-of", "2027-07-01"], "--as-of: expected a time at or after the log's first event"),
    ],
)
def test_next_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    f = tmp_path / "dies.yaml"
    f.write_text(DIES_AFTER_VOTE, encoding="utf-8")
    assert main(["next", str(f), *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and said in err[0], err


def test_no_condition_says_the_same_thing_twice() -> None:
    # a ranking read again after a departure said "Ann (dead) polls the most votes with a
    # majority and Ann (dead) polls the most votes with a majority"
    from simulator.input.loader import load_scenario

    root = Path(__file__).resolve().parents[2]
    scenario = load_scenario(
        root / "scenarios/collisions/2944c-reprint-determination-not-recorded-is-pending.yaml"
    )
    for contest in futures(scenario).to_json()["contests"]:
        for branch in contest["branches"]:
            clauses = branch["condition"].removeprefix("if ").split(" and ")
            assert len(clauses) == len(set(clauses)), branch["condition"]


def test_a_candidate_who_could_still_file_in_a_reopened_period_is_a_new_candidate() -> None:
    # G.S. 163-112(a): Bob died on day 30; filing reopens until Thu 19 Aug noon. A new
    # candidate may file (and win or lose), or nobody does and Ann is the nominee
    from simulator.input.loader import load_scenario

    root = Path(__file__).resolve().parents[2]
    scenario = load_scenario(
        root / "scenarios/contingencies/112a-one-of-two-dies-day-30-nobody-files.yaml"
    )
    found = futures(scenario, as_of=datetime(2027, 8, 15, 10, tzinfo=scenario.tz), departures=0)
    (contest,) = found.to_json()["contests"]
    conditions = [b["condition"] for b in contest["branches"]]
    assert "if nothing more happens" in conditions
    newcomer = {"kind": "filing", "candidate": "(new candidate 1)"}
    filing = [b for b in contest["branches"] if b["when"] and b["when"][0] == newcomer]
    assert filing and all("a new candidate files by Thu 2027-08-19 12:00" in b["condition"]
                          for b in filing)  # fmt: skip
    assert any(b["outcome"]["nominated"] == ["(new candidate 1)"] for b in filing)
    assert _check_witnesses(found) == len(contest["branches"])


def test_the_futures_document_follows_its_committed_json_schema() -> None:
    import json

    import jsonschema

    from simulator.analysis.futures import futures_schema
    from simulator.input.loader import load_scenario

    root = Path(__file__).resolve().parents[2]
    committed = json.loads((root / "docs/futures.schema.json").read_text(encoding="utf-8"))
    assert committed == futures_schema(), "regenerate: electsim schema --futures"
    validator = jsonschema.Draft202012Validator(committed)
    for name in (
        "scenarios/contingencies/112a-one-of-two-dies-day-30-nobody-files.yaml",
        "scenarios/collisions/2944c-reprint-determination-not-recorded-is-pending.yaml",
        "scenarios/runoff/cary-2023-district-d.yaml",
    ):
        doc = futures(load_scenario(root / name)).to_json()
        assert not list(validator.iter_errors(doc)), name
    doc["contests"][0]["branches"][0]["condition"] = "when Ann wins"  # (a condition is an if)
    assert list(validator.iter_errors(doc))


_BUNDLED = sorted((Path(__file__).resolve().parents[2] / "scenarios").rglob("*.yaml"))


@pytest.mark.sample(12)
@pytest.mark.parametrize("path", _BUNDLED, ids=lambda p: p.name)
def test_every_witness_of_a_bundled_scenario_replays_to_its_branch(path: Path) -> None:
    # from the end of the log (the board knows everything the scenario holds): every branch's
    # witness, read back through the loader, replays to exactly that branch's outcome (one
    # scenario in 12 under `make test`, every one under `make fuzz`)
    from simulator.input.loader import load_scenario

    _check_witnesses(futures(load_scenario(path)))


def test_a_runner_up_who_may_demand_a_second_primary_is_a_branch_with_its_returns() -> None:
    # G.S. 163-291(6), 163-111(b): at the primary's canvass Bob, second, may demand a second
    # primary until noon Thursday; either he does (and the second primary is counted) or not
    from simulator.input.loader import load_scenario

    root = Path(__file__).resolve().parents[2]
    scenario = load_scenario(root / "scenarios/partisan/second-primary-not-demanded.yaml")
    found = futures(scenario, as_of=datetime(2027, 9, 21, 11, tzinfo=scenario.tz), departures=0)
    (contest,) = found.to_json()["contests"]
    demands = [b for b in contest["branches"] if "demands a second primary by" in b["condition"]]
    assert {tuple(b["outcome"]["nominated"]) for b in demands} >= {("Ann",), ("Bob",)}
    assert all("by Thu 2027-09-23 12:00" in b["condition"] for b in demands)
    assert all("in the second primary" in b["condition"] for b in demands)
    (late,) = [b for b in contest["branches"] if "too late" in b["condition"]]
    assert late["outcome"]["nominated"] == ["Ann"]
    assert "request_rejected" in {r["kind"] for r in late["rulings"]}
    _check_witnesses(found)
