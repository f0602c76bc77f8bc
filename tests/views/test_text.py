"""The text timeline (``electsim replay``) in words: states, deadlines, rulings, what a contest
waits for and methods as people say them (the JSON keeps the identifiers), and both dates of an
event the board learned of later."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from simulator import parse_scenario, replay
from simulator.cli.main import main
from simulator.law.labels import WORDS, label
from simulator.law.vocab import DeadlineKind, RulingKind
from simulator.model.events import EVENT_TYPES
from simulator.views.report import render_report
from simulator.views.text import format_result
from tests.views.test_graph import LIBRARY, replayed
from tests.views.test_report import undrawn  # noqa: F401 (a fixture)

LATE_NOTICE = """\
format: electsim/v1
title: A death the board hears of the next morning
contests:
- {id: mayor, municipality: Town of Example, office: Mayor, seats: 1,
   method: nonpartisan-plurality, stage: election, year: 2027}
events:
- {type: candidate_filed, at: '2027-07-06T10:00', candidate: Ann}
- {type: candidate_filed, at: '2027-07-07T10:00', candidate: Bob Jones}
- {type: candidate_died, at: '2027-10-01', notice_at: '2027-10-02T09:00', candidate: Bob Jones}
"""

#: identifiers people should not have to read: every one of more than one word (a one-word
#: identifier, "decided" or "elected", is its own word)
IDENTIFIERS = {m.value for _, _, words in WORDS.values() for m in words if "_" in m.value}
IDENTIFIERS |= set(EVENT_TYPES)
_RAW = re.compile(r"\d\d:\d\d(:\d\d)?[+-]\d\d:\d\d|\dT\d\d:|\b[a-z_]+=")


def _replayed_text(tmp_path: Path, text: str, *args: str) -> str:
    source = tmp_path / "scenario.yaml"
    source.write_text(text, encoding="utf-8")
    return _run(["replay", str(source), *args])


def _run(argv: list[str]) -> str:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(argv) == 0
    return out.getvalue()


def test_a_death_the_board_learned_of_later_shows_both_dates(tmp_path: Path) -> None:
    # G.S. 163-112, 163-294.4: some periods count from the death, others from the notice
    text = _replayed_text(tmp_path, LATE_NOTICE)
    line = next(ln for ln in text.splitlines() if "died" in ln)
    assert line.startswith("Sat 2027-10-02 09:00  event")  # in the log where the board learned
    assert line.endswith(
        "candidate died: Bob Jones, on Fri 2027-10-01 (board notified Sat 2027-10-02 09:00)"
    )
    assert not _RAW.search(text), _RAW.search(text)
    assert "notice_at" not in text

    # the JSON keeps both moments as they were
    doc = json.loads(_replayed_text(tmp_path, LATE_NOTICE, "--json"))
    entry = next(t for t in doc["contests"][0]["timeline"] if t["kind"] == "candidate_died")
    assert entry["at"] == "2027-10-02T09:00:00-04:00"
    assert "notice_at=2027-10-02 09:00:00-04:00" in entry["label"]


def test_the_report_shows_both_dates_of_a_late_notice() -> None:
    scenario = parse_scenario(LATE_NOTICE, source="late.yaml")
    page = render_report(scenario, replay(scenario))
    assert "candidate died: Bob Jones, on Fri 2027-10-01 (board notified Sat 2027-10-02 09:00)" in (
        page
    )
    assert "notice_at" not in page


def test_states_deadlines_and_rulings_are_in_words(tmp_path: Path) -> None:
    text = _replayed_text(tmp_path, LATE_NOTICE)
    head = text.splitlines()[2]
    assert head == (
        "Town of Example - Mayor [mayor] - nonpartisan plurality, election, 1 seat: "
        "awaiting the vote"
    )
    assert f"deadline  {label(DeadlineKind.FILING_CLOSES)}: " in text
    assert "filing_closes" not in text and "nonpartisan-plurality" not in text


def test_the_outcome_says_what_a_contest_waits_for_in_words() -> None:
    case = next(c for c in LIBRARY if c.id == "scenarios/gaps/gap-late-notice.yaml")
    scenario, result = replayed(case)
    text = format_result(result, events=scenario.events)
    assert "  pending:      a drawing of lots" in text
    assert ": awaiting a drawing of lots\n" in text
    assert f"ruling    {label(RulingKind.NO_PROVISION)}: " in text
    assert "awaiting_lot" not in text.split("\n", 1)[1].replace(scenario.title, "")


@pytest.mark.parametrize(
    "case",
    [c for c in LIBRARY if c.id.startswith("scenarios/")][::7],
    ids=lambda c: c.id,
)
def test_no_identifier_or_raw_moment_in_the_text_of_a_bundled_scenario(case: object) -> None:
    scenario, result = replayed(case)  # type: ignore[arg-type]
    text = format_result(result, events=scenario.events)
    # the scenario's own title and description are its author's words
    shown = "\n".join(ln for ln in text.splitlines() if not ln.startswith("# "))
    for c in result.contests:
        shown = shown.replace(c.title, "")
    # an interpretation switch is named as a scenario writes it, so that it can be chosen
    # (`interpretations: {recount_not_ordered: result_stands}`, docs/readings.md)
    shown = re.sub(
        r"`interpretations:\s+\{[^}]*\}`|\(interpretation\s+\w+:\s+\w+\)",
        "",
        shown,
    )
    found = set(re.findall(r"[a-z]+(?:_[a-z0-9]+)+", shown)) & IDENTIFIERS
    assert not found, found
    assert not _RAW.search(shown), _RAW.search(shown)
    # without the log (a notebook's text form of a result) each event is read back from its
    # line: the same words, but for the date of a death the board learned of later
    alone = format_result(result)
    assert not _RAW.search(alone.replace(scenario.title, "")), _RAW.search(alone)
    late = {ev.index for ev in scenario.events if ev.known_at != ev.at}
    for with_log, without in zip(text.splitlines(), alone.splitlines(), strict=True):
        if with_log != without:
            assert late and "died: " in with_log, (with_log, without)
            died = re.sub(r", on \w{3} [\d-]+( [\d:]+)? \(", " (", with_log)
            assert died == without, (with_log, without)


@pytest.mark.parametrize(
    "case",
    [c for c in LIBRARY if c.id.startswith("scenarios/")][3::7],
    ids=lambda c: c.id,
)
@pytest.mark.usefixtures("undrawn")
def test_no_identifier_in_what_the_report_gives_to_read(case: object) -> None:
    scenario, result = replayed(case)  # type: ignore[arg-type]
    page = render_report(scenario, result)
    body = page[page.index("<body>") :]
    body = re.sub(r'<span class="id">[^<]*</span>', "", body)  # contest ids: the author's
    body = re.sub(r"<[^>]*>", " ", body)  # what is read, not the markup
    for own in (scenario.title, scenario.description or "", *(c.title for c in result.contests)):
        body = body.replace(html.escape(" ".join(own.split())), "")
    found = set(re.findall(r"[a-z]+(?:_[a-z0-9]+)+", body)) & IDENTIFIERS
    assert not found, found
    assert not _RAW.search(body), _RAW.search(body)


def test_the_readings_line_wraps_to_the_terminal_and_stays_whole_in_a_pipe() -> None:
    case = next(c for c in LIBRARY if "2933e-three-way-runoff-candidate-withdraws" in c.id)
    scenario, result = replayed(case)
    said = "a candidate on a runoff ballot leaves: other declared"
    whole = format_result(result, events=scenario.events)
    (line,) = [ln for ln in whole.splitlines() if ln.startswith("readings other than")]
    assert said in line and line.endswith("(interpretation left_runoff_ballot: other_declared)")
    narrow = format_result(result, width=60, events=scenario.events)
    block = narrow.split("\n\n")[1].splitlines()  # the paragraph under the title
    assert block[0].startswith("readings other than the defaults: ") and len(block) > 1
    assert all(len(ln) <= 60 for ln in block) and all(ln.startswith("  ") for ln in block[1:])
    assert " ".join(ln.strip() for ln in block) == line
