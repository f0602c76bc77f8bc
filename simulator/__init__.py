"""electsim: an event-sourced simulator of North Carolina municipal election law.

The public API, for notebooks and scripts::

    >>> import simulator
    >>> s = simulator.load_scenario("scenarios/plurality-single-office.yaml")  # doctest: +SKIP
    >>> simulator.replay(s).contests[0].outcome.elected  # doctest: +SKIP
"""

from simulator.calendar import Deadline, OfficeCalendar, statutory_calendar
from simulator.errors import Problem, ScenarioError, SimulatorError
from simulator.loader import dump_scenario, load_scenario, parse_scenario, scenario_to_dict
from simulator.replay import replay
from simulator.result import ContestResult, Outcome, Result, Ruling
from simulator.scenario import Contest, Interpretations, Scenario
from simulator.vocab import DeadlineKind, Method, Pending, RulingKind, RunoffStatus, Stage

__all__ = [
    "Contest",
    "ContestResult",
    "Deadline",
    "DeadlineKind",
    "Interpretations",
    "Method",
    "OfficeCalendar",
    "Outcome",
    "Pending",
    "Problem",
    "Result",
    "Ruling",
    "RulingKind",
    "RunoffStatus",
    "Scenario",
    "ScenarioError",
    "SimulatorError",
    "Stage",
    "dump_scenario",
    "load_scenario",
    "parse_scenario",
    "replay",
    "scenario_to_dict",
    "statutory_calendar",
]
