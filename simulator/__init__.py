"""electsim: an event-sourced simulator of North Carolina municipal election law.

The public API, for notebooks and scripts: the names the README and the notebooks use, in
groups (``__all__`` lists them in the same order)::

    >>> import simulator
    >>> s = simulator.load_scenario("scenarios/plurality-single-office.yaml")  # doctest: +SKIP
    >>> simulator.replay(s).contests[0].outcome.elected  # doctest: +SKIP

- scenarios: :func:`load_scenario`, :func:`parse_scenario`, :func:`structure` (plain data, with
  the file's checks) and :func:`scenario_to_dict`; a bad one raises :class:`ScenarioError`, a
  :class:`SimulatorError`;
- the replay: :func:`replay`, and :func:`futures`, every way each contest can still end;
- what if: :func:`fork`, :func:`compare`, :func:`sweep` over :class:`EventTime`,
  :class:`Votes` or :class:`NewEvent` (:func:`each_day`), :func:`side_by_side` (results next
  to each other in Jupyter), and :func:`whatif_app`, the interactive panel; the rest of the
  what-if API is :mod:`simulator.whatif`;
- pictures: :func:`plot_timeline`, :func:`replay_graph` and :func:`draw_graph`;
- real results: :func:`import_results` and :func:`find_data_dir`.

Everything else lives in the layers' packages (``simulator.law``, ``simulator.model``,
``simulator.engine``, ``simulator.input``, ``simulator.views``, ``simulator.analysis``:
docs/development.md). matplotlib, networkx and ipywidgets are imported by the functions that
draw or show, so ``import simulator`` and a replay do without them.
"""

from simulator import whatif
from simulator.analysis.conformance.data import find_data_dir
from simulator.analysis.futures import futures
from simulator.analysis.panel.widgets import whatif_app
from simulator.engine.replay import replay
from simulator.input.importer import import_results
from simulator.input.loader import load_scenario, parse_scenario, scenario_to_dict, structure
from simulator.model.errors import ScenarioError, SimulatorError
from simulator.views.charts import plot_timeline
from simulator.views.graph import draw_graph, replay_graph
from simulator.whatif import (
    EventTime,
    NewEvent,
    Votes,
    compare,
    each_day,
    fork,
    side_by_side,
    sweep,
)

__all__ = [  # noqa: RUF022 (in groups, as the docstring lists them, not sorted)
    # scenarios
    "load_scenario",
    "parse_scenario",
    "structure",
    "scenario_to_dict",
    "ScenarioError",
    "SimulatorError",
    # the replay
    "replay",
    "futures",
    # what if (the rest: simulator.whatif)
    "whatif",
    "fork",
    "compare",
    "sweep",
    "EventTime",
    "Votes",
    "NewEvent",
    "each_day",
    "side_by_side",
    "whatif_app",
    # pictures
    "plot_timeline",
    "replay_graph",
    "draw_graph",
    # real results
    "import_results",
    "find_data_dir",
]
