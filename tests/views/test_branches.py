"""What can happen from here where users meet it: the text replay and the report end an
undecided contest with its futures in words; a decided contest and ``--json`` are unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.analysis.futures import futures
from simulator.engine.replay import replay
from simulator.input.loader import load_scenario
from simulator.views.branches import HEADING, branch_lines, branches_in_words
from simulator.views.report import render_report
from simulator.views.text import format_result
from tests.cli.inprocess import electsim

PENDING = "scenarios/collisions/2944c-reprint-determination-not-recorded-is-pending.yaml"


def _decided() -> str:
    for f in sorted(Path("scenarios").rglob("*.yaml")):
        r = replay(load_scenario(f))
        if r.contests and all(c.outcome.pending is None for c in r.contests):
            return str(f)
    raise AssertionError("no decided scenario")


def test_the_branches_in_words_follow_the_futures_in_order() -> None:
    s = load_scenario(PENDING)
    doc = futures(s).to_json()
    words = branches_in_words(doc)
    (contest,) = doc["contests"]
    shown = words[contest["id"]]
    assert [b.condition for b in shown] == [b["condition"] for b in contest["branches"]]
    lines = branch_lines(shown)
    assert any("if the board finds there is time to reprint" in x for x in lines)
    assert any(x.endswith("elected Ann  [G.S. 163-294.4(b); G.S. 163-293(a)(1)]") for x in lines)
    for b in shown:  # each citation once, never two joined as one
        assert len(set(b.cites)) == len(b.cites)
        assert all("; " not in c for c in b.cites)


def test_the_text_replay_ends_an_undecided_contest_with_what_can_happen() -> None:
    done = electsim("replay", PENDING)
    code, out = done.returncode, done.stdout
    assert code == 0
    head, _, section = out.partition(f"{HEADING}:\n")
    assert "Decisions still to be made:" in head
    assert section.startswith("  - if the board finds there is not time to reprint")
    assert "if the board finds there is time to reprint and Ann polls the most votes" in section
    done = electsim("replay", PENDING, "--no-futures")
    code, out = done.returncode, done.stdout
    assert code == 0 and HEADING not in out
    plain = format_result(replay(load_scenario(PENDING)), events=load_scenario(PENDING).events)
    assert out == plain


def test_the_json_result_and_a_decided_contest_are_unchanged() -> None:
    done = electsim("replay", PENDING, "--json")
    code, out = done.returncode, done.stdout
    assert code == 0
    assert json.loads(out) == replay(load_scenario(PENDING)).to_json()
    decided = _decided()
    done = electsim("replay", decided)
    code, out = done.returncode, done.stdout
    assert code == 0 and HEADING not in out


@pytest.mark.parametrize("as_of", ["2027-09-08T14:00"])
def test_the_futures_follow_the_as_of_time(as_of: str) -> None:
    done = electsim("replay", PENDING, "--as-of", as_of)
    code, out = done.returncode, done.stdout
    assert code == 0
    # before the death was known: the plain count first, with nobody dead and no determination
    first = out.partition(f"{HEADING}:\n")[2].splitlines()[0]
    assert first.startswith("  - if ") and "reprint" not in first and "dead" not in first


def test_the_report_has_the_section_with_linked_citations(tmp_path: Path) -> None:
    s = load_scenario(PENDING)
    r = replay(s)
    page = render_report(s, r, branches_in_words(futures(s).to_json()))
    assert f'<h3 class="futures">{HEADING}</h3>' in page
    assert "<li><b>if the board finds there is time to reprint" in page
    assert 'href="https://www.ncleg.gov/' in page.split('<ul class="futures">')[1]
    assert HEADING not in render_report(s, r)
    out = tmp_path / "r.html"
    done = electsim("report", PENDING, "-o", str(out))
    code, _ = done.returncode, done.stdout
    assert code == 0 and '<ul class="futures">' in out.read_text(encoding="utf-8")


def test_futures_show_as_a_table_in_a_notebook_and_as_words_elsewhere() -> None:
    from IPython.lib.pretty import pretty

    from simulator.analysis.whatif.display import futures_html, show

    f = futures(load_scenario(PENDING))
    page = futures_html(f)
    assert f._repr_html_() == page and show(f) is f  # (a Futures shows itself)
    assert "<th" in page and ">the board finds there is time to reprint and Ann polls" in page
    rows = page.count("<tr>") - 1  # (the heading's row)
    assert rows == len(f.contests[0].branches)
    assert pretty(f) == f.words()


def test_before_the_first_event_there_is_nothing_to_start_from() -> None:
    done = electsim("replay", PENDING, "--as-of", "2027-01-02")
    assert done.returncode == 0 and HEADING not in done.stdout
    assert "before the first event" in done.stderr
