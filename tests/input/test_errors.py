"""A :class:`simulator.model.errors.Problem` is a value: what attrs' frozen classes gave it before
it
became plain Python (so that the command line starts without attrs)."""

from __future__ import annotations

import copy
import pickle

import pytest

from simulator.model.errors import Problem, ScenarioError


def test_a_problem_is_compared_hashed_and_pickled_by_its_fields() -> None:
    p = Problem("events[3].candidate", "a filed candidate", "'Zed'", 12, "s.yaml")
    same = Problem("events[3].candidate", "a filed candidate", "'Zed'", line=12, file="s.yaml")
    other = Problem("events[3].candidate", "a filed candidate", "'Zed'", 13, "s.yaml")
    assert p == same and hash(p) == hash(same)
    assert p != other and len({p, same, other}) == 2
    assert p != ("events[3].candidate", "a filed candidate", "'Zed'", 12, "s.yaml")
    assert pickle.loads(pickle.dumps(p)) == p
    assert copy.deepcopy(p) == p
    assert repr(p) == (
        "Problem(path='events[3].candidate', expected='a filed candidate', found=\"'Zed'\", "
        "line=12, file='s.yaml')"
    )


def test_a_problem_cannot_be_changed() -> None:
    p = Problem("file", "a readable scenario file", "a directory")
    with pytest.raises(AttributeError):
        p.line = 3
    with pytest.raises(AttributeError):
        del p.found
    with pytest.raises(AttributeError):
        setattr(p, "extra", 1)  # noqa: B010 (a name it has no slot for)
    assert (p.line, p.file) == (None, None)


def test_a_problem_says_where_what_was_expected_and_what_was_found() -> None:
    error = ScenarioError(
        [Problem("events[0].at", "a date", "'soon'", 4, "s.yaml"), Problem("file", "YAML", "?")]
    )
    assert str(error).splitlines() == [
        "s.yaml:4: events[0].at: expected a date; found 'soon'",
        "<scenario>: file: expected YAML; found ?",
    ]
