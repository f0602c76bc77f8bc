"""electsim: an event-sourced simulator of North Carolina municipal election law.

The public API, for notebooks and scripts::

    >>> import simulator
    >>> s = simulator.load_scenario("scenarios/plurality-single-office.yaml")  # doctest: +SKIP
    >>> simulator.replay(s).contests[0].outcome.elected  # doctest: +SKIP

Every name is imported on first use (``simulator.replay`` loads the replay engine,
``plot_timeline``
matplotlib), so ``import simulator`` and the command line start fast.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING

from simulator.model import classes as _classes

# before any class of the package is made: attrs' generated methods load compiled (model/classes.py)
_classes.install()

if TYPE_CHECKING:
    from simulator.analysis.conformance.data import find_data_dir  # noqa: F401 (lazy: see __getattr__)
    from simulator.analysis.conformance.runoffs import run_conformance  # noqa: F401 (lazy: see __getattr__)
    from simulator.analysis.panel.widgets import whatif_app  # noqa: F401 (lazy: see __getattr__)
    from simulator.analysis.whatif import *  # noqa: F403 (the what-if API is public as a whole)
    from simulator.engine.replay import replay  # noqa: F401 (lazy: see __getattr__)
    from simulator.engine.result import ContestResult, Outcome, PendingDecision, Result, Ruling  # noqa: F401 (lazy: see __getattr__)
    from simulator.input.expect import Mismatch, ScenarioCheck, check_scenario  # noqa: F401 (lazy: see __getattr__)
    from simulator.input.importer import import_results, list_contests  # noqa: F401 (lazy: see __getattr__)
    from simulator.input.loader import load_scenario, parse_scenario, structure  # noqa: F401 (lazy: see __getattr__)
    from simulator.input.loader.writing import dump_scenario, scenario_to_dict  # noqa: F401 (lazy: see __getattr__)
    from simulator.law.calendar import Deadline, OfficeCalendar, statutory_calendar  # noqa: F401 (lazy: see __getattr__)
    from simulator.law.readings import Interpretations  # noqa: F401 (lazy: see __getattr__)
    from simulator.law.vocab import DeadlineKind, Method, Pending, RulingKind, RunoffStatus, Stage  # noqa: F401 (lazy: see __getattr__)
    from simulator.model.errors import Problem, ScenarioError, SimulatorError  # noqa: F401 (lazy: see __getattr__)
    from simulator.model.expectations import Expectation  # noqa: F401 (lazy: see __getattr__)
    from simulator.model.scenario import Contest, Scenario  # noqa: F401 (lazy: see __getattr__)
    from simulator.views.charts.timeline import plot_timeline  # noqa: F401 (lazy: see __getattr__)
    from simulator.views.graph import export_graph, replay_graph, state_graph  # noqa: F401 (lazy: see __getattr__)
    from simulator.views.report import render_report, write_report  # noqa: F401 (lazy: see __getattr__)

# name -> the module that defines it
_WHERE = {
    "Contest": "simulator.model.scenario",
    "ContestResult": "simulator.engine.result",
    "Deadline": "simulator.law.calendar",
    "Expectation": "simulator.model.expectations",
    "Mismatch": "simulator.input.expect",
    "ScenarioCheck": "simulator.input.expect",
    "check_scenario": "simulator.input.expect",
    "DeadlineKind": "simulator.law.vocab",
    "Interpretations": "simulator.law.readings",
    "Method": "simulator.law.vocab",
    "OfficeCalendar": "simulator.law.calendar",
    "Outcome": "simulator.engine.result",
    "Pending": "simulator.law.vocab",
    "PendingDecision": "simulator.engine.result",
    "Problem": "simulator.model.errors",
    "Result": "simulator.engine.result",
    "Ruling": "simulator.engine.result",
    "RulingKind": "simulator.law.vocab",
    "RunoffStatus": "simulator.law.vocab",
    "Scenario": "simulator.model.scenario",
    "ScenarioError": "simulator.model.errors",
    "SimulatorError": "simulator.model.errors",
    "Stage": "simulator.law.vocab",
    "dump_scenario": "simulator.input.loader.writing",
    "load_scenario": "simulator.input.loader",
    "parse_scenario": "simulator.input.loader",
    "replay": "simulator.engine.replay",
    "scenario_to_dict": "simulator.input.loader.writing",
    "structure": "simulator.input.loader",
    "statutory_calendar": "simulator.law.calendar",
    # drawing, reports, importing and conformance
    "plot_timeline": "simulator.views.charts.timeline",
    "export_graph": "simulator.views.graph",
    "state_graph": "simulator.views.graph",
    "replay_graph": "simulator.views.graph",
    "render_report": "simulator.views.report",
    "write_report": "simulator.views.report",
    "import_results": "simulator.input.importer",
    "list_contests": "simulator.input.importer",
    "run_conformance": "simulator.analysis.conformance.runoffs",
    "find_data_dir": "simulator.analysis.conformance.data",
    "Chart": "simulator.views.charts.figures",
    "draw_graph": "simulator.views.graph",
    # the interactive what-if panel (ipywidgets; `electsim app` serves it as a page)
    "whatif_app": "simulator.analysis.panel.widgets",
}
# What-if analysis (simulator.whatif): fork, compare, sweep, rich display in Jupyter; its own
# ``__all__`` lists its public names.
_WHATIF = "simulator.analysis.whatif"


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


def _html(value: object) -> str | None:
    """A result, contest, outcome or timeline as HTML, for Jupyter (the views write it)."""
    display = importlib.import_module("simulator.analysis.whatif.display")
    written: str | None = display.html(value)
    return written


# Results show as tables in Jupyter with no setup: the engine asks this writer (engine/shown.py)
from simulator.engine import shown as _shown  # noqa: E402 (after the lazy machinery it needs)

_shown.writer = _html


def __dir__() -> list[str]:
    return sorted({*globals(), *_public()})
