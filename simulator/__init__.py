"""electsim: an event-sourced simulator of North Carolina municipal election law.

The public API, for notebooks and scripts::

    >>> import simulator
    >>> s = simulator.load_scenario("scenarios/plurality-single-office.yaml")  # doctest: +SKIP
    >>> simulator.replay(s).contests[0].outcome.elected  # doctest: +SKIP

Every name is imported on first use (``simulator.replay`` loads the replay engine, ``plot_timeline``
matplotlib), so ``import simulator`` and the command line start fast.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from simulator.calendar import Deadline, OfficeCalendar, statutory_calendar  # noqa: F401 (lazy: see __getattr__)
    from simulator.charts import plot_timeline  # noqa: F401 (lazy: see __getattr__)
    from simulator.conformance import run_conformance  # noqa: F401 (lazy: see __getattr__)
    from simulator.errors import Problem, ScenarioError, SimulatorError  # noqa: F401 (lazy: see __getattr__)
    from simulator.expect import Expectation, Mismatch, ScenarioCheck, check_scenario  # noqa: F401 (lazy: see __getattr__)
    from simulator.graph import export_graph, replay_graph, state_graph  # noqa: F401 (lazy: see __getattr__)
    from simulator.importer import import_results, list_contests  # noqa: F401 (lazy: see __getattr__)
    from simulator.loader import (  # noqa: F401 (lazy: see __getattr__)
        dump_scenario,
        load_scenario,
        parse_scenario,
        scenario_to_dict,
        structure,
    )
    from simulator.replay import replay  # noqa: F401 (lazy: see __getattr__)
    from simulator.report import render_report, write_report  # noqa: F401 (lazy: see __getattr__)
    from simulator.result import ContestResult, Outcome, Result, Ruling  # noqa: F401 (lazy: see __getattr__)
    from simulator.scenario import Contest, Interpretations, Scenario  # noqa: F401 (lazy: see __getattr__)
    from simulator.vocab import DeadlineKind, Method, Pending, RulingKind, RunoffStatus, Stage  # noqa: F401 (lazy: see __getattr__)
    from simulator.whatif import *  # noqa: F403 (the what-if API is public as a whole)

# name -> the module that defines it
_WHERE = {
    "Contest": "simulator.scenario",
    "ContestResult": "simulator.result",
    "Deadline": "simulator.calendar",
    "Expectation": "simulator.expect",
    "Mismatch": "simulator.expect",
    "ScenarioCheck": "simulator.expect",
    "check_scenario": "simulator.expect",
    "DeadlineKind": "simulator.vocab",
    "Interpretations": "simulator.scenario",
    "Method": "simulator.vocab",
    "OfficeCalendar": "simulator.calendar",
    "Outcome": "simulator.result",
    "Pending": "simulator.vocab",
    "Problem": "simulator.errors",
    "Result": "simulator.result",
    "Ruling": "simulator.result",
    "RulingKind": "simulator.vocab",
    "RunoffStatus": "simulator.vocab",
    "Scenario": "simulator.scenario",
    "ScenarioError": "simulator.errors",
    "SimulatorError": "simulator.errors",
    "Stage": "simulator.vocab",
    "dump_scenario": "simulator.loader",
    "load_scenario": "simulator.loader",
    "parse_scenario": "simulator.loader",
    "replay": "simulator.replay",
    "scenario_to_dict": "simulator.loader",
    "structure": "simulator.loader",
    "statutory_calendar": "simulator.calendar",
    # drawing, reports, importing and conformance
    "plot_timeline": "simulator.charts",
    "export_graph": "simulator.graph",
    "state_graph": "simulator.graph",
    "replay_graph": "simulator.graph",
    "render_report": "simulator.report",
    "write_report": "simulator.report",
    "import_results": "simulator.importer",
    "list_contests": "simulator.importer",
    "run_conformance": "simulator.conformance",
    "find_data_dir": "simulator.conformance",
    "Chart": "simulator.charts",
    "draw_graph": "simulator.graph",
}
# What-if analysis (simulator.whatif): fork, compare, sweep, rich display in Jupyter; its own
# ``__all__`` lists its public names.
_WHATIF = "simulator.whatif"


def _public() -> list[str]:
    return [*_WHERE, *importlib.import_module(_WHATIF).__all__]


def __getattr__(name: str) -> object:
    if name == "__all__":
        return _public()
    module = _WHERE.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
    elif name.startswith("_") or importlib.util.find_spec(f"simulator.{name}") is not None:
        # a submodule not imported yet (``from simulator import calendar``): the import
        # system loads it once this look-up fails
        raise AttributeError(f"module 'simulator' has no attribute {name!r}")
    else:
        whatif = importlib.import_module(_WHATIF)
        if name not in whatif.__all__:
            raise AttributeError(f"module 'simulator' has no attribute {name!r}")
        value = getattr(whatif, name)
    globals()[name] = value  # the next look-up is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_public()})


class _Package(types.ModuleType):
    """The package object: importing ``simulator.replay`` (the module) must not replace the
    function ``simulator.replay`` that the package exports under the same name."""

    def __setattr__(self, name: str, value: object) -> None:
        if isinstance(value, types.ModuleType) and _WHERE.get(name) == value.__name__:
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
