"""electsim: an event-sourced simulator of North Carolina municipal election law.

The public API, for notebooks and scripts::

    >>> import simulator
    >>> s = simulator.load_scenario("scenarios/plurality-single-office.yaml")  # doctest: +SKIP
    >>> simulator.replay(s).contests[0].outcome.elected  # doctest: +SKIP
"""

from simulator import whatif as _whatif
from simulator.calendar import Deadline, OfficeCalendar, statutory_calendar
from simulator.errors import Problem, ScenarioError, SimulatorError
from simulator.expect import Expectation, Mismatch, ScenarioCheck, check_scenario
from simulator.loader import dump_scenario, load_scenario, parse_scenario, scenario_to_dict
from simulator.replay import replay
from simulator.result import ContestResult, Outcome, Result, Ruling
from simulator.scenario import Contest, Interpretations, Scenario
from simulator.vocab import DeadlineKind, Method, Pending, RulingKind, RunoffStatus, Stage
from simulator.whatif import *  # noqa: F403 (the what-if API is public as a whole: see below)

__all__ = [
    "Contest",
    "ContestResult",
    "Deadline",
    "DeadlineKind",
    "Expectation",
    "Interpretations",
    "Method",
    "Mismatch",
    "OfficeCalendar",
    "Outcome",
    "Pending",
    "Problem",
    "Result",
    "Ruling",
    "RulingKind",
    "RunoffStatus",
    "Scenario",
    "ScenarioCheck",
    "ScenarioError",
    "SimulatorError",
    "Stage",
    "check_scenario",
    "dump_scenario",
    "load_scenario",
    "parse_scenario",
    "replay",
    "scenario_to_dict",
    "statutory_calendar",
]
# What-if analysis (simulator.whatif): fork, compare, sweep, and rich display in Jupyter.
__all__ += _whatif.__all__

# Drawing and importing pull in matplotlib and networkx: loaded on first use, so the command line
# and plain replays start fast.
_LAZY = {
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


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'simulator' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


__all__ += sorted(_LAZY)
