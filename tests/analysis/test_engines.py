"""Where a sweep runs does not change its rows: serial, a process pool, a Dask cluster."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from simulator import Votes, parse_scenario, sweep
from simulator.analysis.whatif import EditError
from simulator.analysis.workers import ENGINES, EngineError, Serial, engine_named
from simulator.model.scenario import Scenario

LINES = [
    "format: electsim/v1",
    "title: sweep",
    "contests: [{id: a, office: Council, seats: 1, method: nonpartisan-runoff, year: 2027}]",
    "events:",
    "  - {type: candidate_filed, at: 2027-07-06, candidate: Ann}",
    "  - {type: candidate_filed, at: 2027-07-07, candidate: Bob}",
    "  - {type: candidate_filed, at: 2027-07-08, candidate: Cy}",
    "  - {type: returns_reported, at: '2027-10-05T20:00', counts: {Ann: 50, Bob: 40, Cy: 30}}",
    "  - {type: returns_reported, at: '2027-10-05T21:00', counts: {Ann: 50, Bob: 40, Cy: 9}}",
    "  - {type: canvass_held, at: '2027-10-12T11:00'}",
    "  - {type: runoff_requested, at: '2027-10-13T09:30', candidate: Bob}",
]


def _scenario() -> Scenario:
    return parse_scenario("\n".join(LINES) + "\n", source="engines")


def test_a_dask_cluster_gives_the_rows_of_a_serial_sweep() -> None:
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
    s = _scenario()
    vary = Votes(3, "Ann")
    values = list(range(0, 300, 3))
    serial = sweep(s, vary, values)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = sweep(s, vary, values, engine="dask", client=client, chunksize=7)
        # lambdas travel to a cluster too (cloudpickle)
        late = sweep(s, lambda sc, v: Votes(4, "Bob")(sc, v), range(5), engine="dask")
    assert on_dask.rows == serial.rows
    assert len({r.outcome for r in serial.rows}) > 1  # the values cross an outcome
    assert [r.value for r in late.rows] == list(range(5))


def test_a_process_pool_gives_the_rows_of_a_serial_sweep() -> None:
    s = _scenario()
    vary = Votes(4, "Cy")
    values = list(range(0, 60, 4))
    pooled = sweep(s, vary, values, engine="processes", chunksize=4)
    assert pooled.rows == sweep(s, vary, values).rows


class _Reversed:
    """An engine of one's own: runs the chunks in reverse and puts them back in order."""

    def run(self, rows: Any, values: Sequence[Any], *, progress: Any = None) -> list[Any]:
        parts = [rows(values[i : i + 2]) for i in range(0, len(values), 2)]
        return [row for part in parts for row in part]


def test_any_object_with_a_run_method_is_an_engine() -> None:
    s = _scenario()
    vary = Votes(3, "Bob")
    assert sweep(s, vary, range(5), engine=_Reversed()).rows == sweep(s, vary, range(5)).rows
    assert set(ENGINES) == {"serial", "processes", "dask"}
    assert isinstance(engine_named("serial"), Serial)


def test_an_unknown_engine_says_which_there_are() -> None:
    with pytest.raises(EngineError, match="one of dask, processes, serial"):
        sweep(_scenario(), Votes(3, "Bob"), range(2), engine="spark")
    with pytest.raises(EditError, match="run\\(rows, values\\)"):
        sweep(_scenario(), Votes(3, "Bob"), range(2), engine=42)
