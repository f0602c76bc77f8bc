"""The rulings log that successive states share behaves as an immutable tuple."""

from __future__ import annotations

import pickle

from hypothesis import given
from hypothesis import strategies as st

from simulator.engine.state import Log


@given(st.lists(st.tuples(st.integers(0, 30), st.integers())))
def test_appending_to_any_earlier_version_never_changes_another(
    ops: list[tuple[int, int]],
) -> None:
    # every version kept, as a fork or an as-of replay keeps older states
    versions: list[tuple[Log[int], tuple[int, ...]]] = [(Log(), ())]
    for which, item in ops:
        log, model = versions[which % len(versions)]
        versions.append((log.append(item), (*model, item)))
        for v, m in versions:
            assert v.as_tuple() == m
            assert len(v) == len(m)
    for v, m in versions:
        assert pickle.loads(pickle.dumps(v)).as_tuple() == m
        assert v == Log(list(m))
