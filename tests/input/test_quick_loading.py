"""The quick paths of the loader give exactly what the full, located paths give.

A big log is read quickly in two places: a YAML event log of one-line flow mappings is read with
string operations instead of libyaml's event loop (``yaml_quick.read_yaml_quick``), and each event
of a common shape (a known type, a time and a name seen before) is checked in a few look-ups. Both
step aside whenever anything is in doubt, and every problem is reported by the full path. These
tests hold them to that on random documents, valid and invalid, written with the spellings a
person or a program uses (plain, single- and double-quoted scalars, spaces, YAML 1.1 words).
"""

from __future__ import annotations

import json
from typing import Any
from unittest.mock import patch

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.input.loader import _parse_yaml, parse_scenario, structure
from simulator.input.parse import yaml_quick
from simulator.input.parse.trees import Map
from simulator.input.parse.yaml_quick import (
    QuickDoubt,
    QuickLog,
    read_yaml_quick,
    read_yaml_quick_log,
)
from simulator.input.parse.yaml_reader import read_yaml
from simulator.model.errors import ScenarioError
from simulator.model.scenario import Scenario

HEAD = """\
format: electsim/v1
title: Quick and full
contests:
  - {id: mayor, method: nonpartisan-plurality, year: 2027}
  - {id: council, method: nonpartisan-plurality, seats: 2, year: 2027}
events:
"""

NAMES = [
    "Ann", "Bob", "ann", "Ann  Lee", " Cy", "O'Brien", "José", "yes", "null", "1", "~", "-x",
    "a: b", "a,b", "#x", "x#y", "Write-In (Miscellaneous)", "Dee (Write-In)", "Ann\u200b", "",
    "A\tB", "x:", "<<", "&a", "*a", "!x", "a}b", 'say "hi"', "back\\slash",
]  # fmt: skip
TIMES = [
    "2027-07-06", "2027-07-06T10:00", "2027-07-06 10:00", "2027-07-06T10:00:00-04:00",
    "2027-11-02T09:00", "2027-11-02T08:00", "2027-03-14T02:30", "2027-11-07T01:30", "bad",
    "2027-13-01", "20270706", "1800-01-01",
]  # fmt: skip
CONTESTS = ["mayor", "council", "nope", "Mayor"]
COUNTS = [1, 0, 3, -1, "2", "true", "1.0"]
TYPES = [
    "candidate_filed", "votes_cast", "votes_cast", "candidate_withdrew", "canvass_held",
    "runoff_requested", "filing_closed", "nominee_named", "bogus",
]  # fmt: skip


def scalar(value: Any, style: str) -> str:
    text = str(value)
    if style == "single":
        return "'" + text.replace("'", "''") + "'"
    if style == "double":
        return json.dumps(text, ensure_ascii=False)
    return text


@st.composite
def event_line(draw: st.DrawFn) -> str:
    pairs: list[tuple[str, Any]] = [("type", draw(st.sampled_from(TYPES)))]
    pairs.append(("at", draw(st.sampled_from(TIMES))))
    if draw(st.booleans()):
        pairs.append(("contest", draw(st.sampled_from(CONTESTS))))
    else:
        pairs.append(("contest", "mayor"))
    if draw(st.integers(0, 9)) > 0:
        pairs.append(("candidate", draw(st.sampled_from(NAMES))))
    if draw(st.integers(0, 5)) == 0:
        pairs.append(("count", draw(st.sampled_from(COUNTS))))
    if draw(st.integers(0, 12)) == 0:
        pairs.append(draw(st.sampled_from([("id", "e-1"), ("precinct", "P1"), ("foo", "x")])))
    styles = st.sampled_from(["plain", "plain", "single", "double"])
    if draw(st.integers(0, 4)) == 0:  # a nested one-line flow mapping, like returns' counts
        who, votes = (NAMES, COUNTS) if draw(st.booleans()) else (["Ann", "Bob", "José"], [3, 0])
        counts = draw(st.lists(st.tuples(st.sampled_from(who), st.sampled_from(votes)), max_size=4))
        inner = ", ".join(
            f"{scalar(k, draw(styles))}: {scalar(v, draw(styles))}" for k, v in counts
        )
        pairs.append(("counts", RawText("{" + inner + "}")))
        if draw(st.booleans()):
            pairs[0] = ("type", draw(st.sampled_from(["returns_reported", "recount_held"])))
    if draw(st.integers(0, 15)) == 0:
        pairs.append(pairs[-1])  # a repeated key
    pairs = draw(st.permutations(pairs))
    body = ", ".join(
        f"{k}: {v if isinstance(v, RawText) else scalar(v, draw(styles))}" for k, v in pairs
    )
    return "{" + body + "}"


class RawText(str):
    """YAML text written as it is (a nested flow mapping), not as a scalar."""


@st.composite
def document(draw: st.DrawFn) -> str:
    names = draw(st.lists(st.sampled_from(["Ann", "Bob", "Cy", "O'Brien", "José"]), max_size=3))
    filed = [
        f"{{type: candidate_filed, at: '2027-07-0{6 + i}T10:00', contest: {c}, candidate: {n}}}"
        for i, n in enumerate(names)
        for c in ("mayor", "council")
    ]
    lines = filed + draw(st.lists(event_line(), max_size=12))
    indent = draw(st.sampled_from(["", "  "]))
    out = []
    for line in lines:
        out.append(f"{indent}- {line}\n")
        if draw(st.integers(0, 10)) == 0:
            out.append(draw(st.sampled_from(["\n", "# a comment\n", f"{indent}  # note\n"])))
    tail = draw(st.sampled_from(["", "office_closed: [2027-07-03]\n", "timezone: UTC\n"]))
    return HEAD + "".join(out) + tail


def outcome(read: Any) -> Scenario | tuple[str, ...]:
    try:
        return read()  # type: ignore[no-any-return]
    except ScenarioError as error:
        return tuple(map(str, error.problems))


def same_tree(quick: Any, full: Any, path: str = "") -> None:
    assert type(quick) is type(full), path
    if isinstance(full, dict):
        assert list(quick.items()) == list(full.items()), path
        assert quick.line == full.line, path
        assert getattr(quick, "key_lines", "unset") == getattr(full, "key_lines", "unset"), path
        for key in full:
            same_tree(quick[key], full[key], f"{path}.{key}")
    elif isinstance(full, list):
        assert len(quick) == len(full), path
        for i, (a, b) in enumerate(zip(quick, full, strict=True)):
            same_tree(a, b, f"{path}[{i}]")
    else:
        assert quick == full, path


QUICK = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@QUICK
@given(document())
def test_the_quick_yaml_reading_is_the_full_reading_or_steps_aside(text: str) -> None:
    quick = read_yaml_quick(text)
    if quick is not None:
        full, problems = read_yaml(text, detail=False)
        assert not problems
        same_tree(quick, full)


@QUICK
@given(document())
def test_loading_gives_the_same_scenario_or_the_same_problems_as_the_full_path(text: str) -> None:
    quick = outcome(lambda: parse_scenario(text, source="s.yaml"))
    full = outcome(lambda: _parse_yaml(text, "s.yaml", quick=False))
    assert quick == full
    if isinstance(quick, Scenario):
        assert [e.line for e in quick.events] == [e.line for e in full.events]  # type: ignore[union-attr]


@QUICK
@given(document(), st.sampled_from([1, 30, 80, 200]))
def test_a_log_read_in_small_pieces_gives_the_same_scenario_or_the_same_problems(
    text: str, piece: int
) -> None:
    with patch.object(yaml_quick, "_LINES_PIECE", piece):
        quick = outcome(lambda: parse_scenario(text, source="s.yaml"))
        tree = read_yaml_quick(text)
    full = outcome(lambda: _parse_yaml(text, "s.yaml", quick=False))
    assert quick == full
    if isinstance(quick, Scenario):
        assert [e.line for e in quick.events] == [e.line for e in full.events]  # type: ignore[union-attr]
    if tree is not None:
        same_tree(tree, read_yaml(text, detail=False)[0])


def test_the_quick_log_is_read_piece_by_piece_with_each_line() -> None:
    votes = [
        f"  - {{at: '2027-11-02T09:{i % 60:02d}', candidate: Ann, contest: mayor, type: {kind}}}"
        for i in range(200)
        for kind in ["votes_cast"]
    ]
    text = HEAD + "\n".join(votes) + "\n  # a comment\n\nexpect: []\n"
    root = read_yaml_quick_log(text)
    assert root is not None and type(root["events"]) is QuickLog
    with patch.object(yaml_quick, "_LINES_PIECE", 500):
        pieces = list(root["events"].pieces())
    assert len(pieces) > 10
    offsets = [offset for offset, _ in pieces]
    assert offsets == [0, *[sum(len(p) for _, p in pieces[:k]) for k in range(1, len(pieces))]]
    items = [item for _, piece in pieces for item in piece]
    assert [item.line for item in items] == list(range(7, 207))  # HEAD has 6 lines
    assert items == read_yaml(text, detail=False)[0]["events"]


def test_the_event_log_is_found_on_the_first_line_and_ends_at_the_next_key() -> None:
    vote = "- {at: '2027-11-02T09:00', candidate: Ann, contest: mayor, type: votes_cast}\n"
    filed = "- {type: candidate_filed, at: '2027-07-06T10:00', candidate: Ann, contest: mayor}\n"
    rest = HEAD.removesuffix("events:\n")
    for text in (
        "events:\n" + filed + vote * 3 + "# done\n" + rest,
        "myevents: 1\n" + rest + "events:\n" + filed + "#x\n\n" + vote + "description: d\n",
    ):
        quick = read_yaml_quick(text)
        assert quick is not None and len(quick["events"]) in (2, 4)
        same_tree(quick, read_yaml(text, detail=False)[0])
        full = outcome(lambda: _parse_yaml(text, "<string>", quick=False))  # noqa: B023
        assert outcome(lambda: parse_scenario(text)) == full  # noqa: B023
    assert isinstance(full, tuple) and "'myevents', an unknown field" in full[0]


def test_a_doubt_late_in_the_log_stops_the_quick_reading_there() -> None:
    vote = "- {at: '2027-11-02T09:00', candidate: Ann, contest: mayor, type: votes_cast}\n"
    text = HEAD + vote * 100 + "- {at: '2027-11-02T09:00', candidate: &a Ann}\n"
    root = read_yaml_quick_log(text)
    assert root is not None
    with patch.object(yaml_quick, "_LINES_PIECE", 200):
        pieces = root["events"].pieces()
        assert next(pieces)[0] == 0
        with pytest.raises(QuickDoubt):
            list(pieces)
    assert read_yaml_quick(text) is None
    empty = read_yaml_quick_log(HEAD + "  # nothing\n")
    assert empty is not None
    with pytest.raises(QuickDoubt):
        list(empty["events"].pieces())


class _Plain(dict[Any, Any]):
    """A mapping the quick event checks do not take: every event goes the full way."""


@QUICK
@given(document())
def test_the_quick_event_checks_give_what_the_full_checks_give(text: str) -> None:
    try:
        doc, problems = read_yaml(text, detail=False)
    except yaml.YAMLError:
        return  # malformed: no data to check
    if problems or not isinstance(doc, dict) or not isinstance(doc.get("events"), list):
        return
    # Without lines on either side (a plain dict carries none), the quick checks on and off.
    quick = dict(doc, events=[dict(e) if type(e) is Map else e for e in doc["events"]])
    slow = dict(doc, events=[_Plain(e) if type(e) is Map else e for e in doc["events"]])
    assert outcome(lambda: structure(quick)) == outcome(lambda: structure(slow))


WHO = ("Ann", "O'Brien")


def test_a_big_log_in_the_common_shape_takes_the_quick_reading() -> None:
    lines = [
        "- {type: candidate_filed, at: '2027-07-06T10:00', candidate: Ann, contest: mayor}",
        "- {type: candidate_filed, at: 2027-07-06T11:00, candidate: O'Brien, contest: mayor}",
        *(
            f"- {{at: '2027-11-02T{9 + i // 60:02d}:{i % 60:02d}', candidate: {WHO[i % 2]},"
            f" contest: mayor, type: votes_cast}}"
            for i in range(500)
        ),
    ]
    text = HEAD + "\n".join(lines) + "\n"
    assert read_yaml_quick(text) is not None
    scenario = parse_scenario(text)
    assert len(scenario.events) == 502
    assert scenario.events[7].line == 14 and scenario.events[7].candidate == "O'Brien"
    assert scenario == _parse_yaml(text, "<string>", quick=False)


def test_a_problem_in_a_quick_shaped_log_is_reported_with_its_line() -> None:
    good = "- {type: candidate_filed, at: '2027-07-06T10:00', candidate: Ann, contest: mayor}\n"
    bad = "- {type: votes_cast, at: '2027-11-02T09:00', candidate: Bob, contest: mayor}\n"
    with_problem = HEAD + good * 3 + bad
    try:
        parse_scenario(with_problem, source="big.yaml")
    except ScenarioError as error:
        (problem,) = error.problems
    assert str(problem).startswith(
        "big.yaml:10: events[3].candidate: expected a candidate who filed"
    )
