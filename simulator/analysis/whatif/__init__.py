"""What-if analysis, made for notebooks: fork a scenario, compare two replays, sweep a variable.

A scenario is a frozen value, so a *fork* is a new scenario built from an old one; the old one
never changes. Edits are chained on a :class:`Fork` and applied by :meth:`Fork.build`, which
re-indexes the log (``index`` is an event's position) and checks the result through the loader,
so an event written as a dict in the scenario format, or an edit that leaves the log inconsistent,
is reported as a :class:`~simulator.model.errors.ScenarioError` naming the field, exactly as in a
file.

The pieces:

* forking: :func:`fork` (a chain of edits ending in :meth:`Fork.build`) and the one-edit
  functions :func:`insert_event`, :func:`add_event`, :func:`remove_event`,
  :func:`remove_events`, :func:`replace_event`, :func:`shift_event`, :func:`set_contest`;
* comparing: :func:`compare` gives a :class:`Comparison` (rows, text, HTML);
* sweeping: :func:`sweep` over a :class:`Variable` (:class:`EventTime`, :class:`Votes`,
  :class:`Margin`, :class:`EventField`, :class:`ContestFact`, :class:`NewEvent`, or any
  function) gives a :class:`Sweep` (rows, bands, flips, text, HTML, :meth:`Sweep.plot`);
* displaying: in Jupyter a result, a contest, an outcome, a timeline, a comparison and a sweep
  show as tables by themselves, in words (:mod:`~simulator.analysis.whatif.display`);
  :func:`show` and :func:`enable_rich_display` are kept for older notebooks and not needed.

The package holds one job a module: :mod:`~simulator.analysis.whatif.edits` (what an edit is
made of), :mod:`~simulator.analysis.whatif.forks`, :mod:`~simulator.analysis.whatif.comparison`,
:mod:`~simulator.analysis.whatif.variables`, :mod:`~simulator.analysis.whatif.sweep_runner`,
:mod:`~simulator.analysis.whatif.sweep_results`, :mod:`~simulator.analysis.whatif.display` and
the tables they write (:mod:`~simulator.analysis.whatif.tables`). Dependencies point one way:
it reads the loader, the replay and the results, and nothing in the engine reads it.

>>> import simulator
>>> from simulator import replay
>>> s = simulator.parse_scenario('''
... format: electsim/v1
... title: Council seat A, 2027
... contests: [{id: seat-a, seats: 1, method: nonpartisan-runoff, year: 2027}]
... events:
...   - {type: candidate_filed, at: 2027-07-06, candidate: Ann}
...   - {type: candidate_filed, at: 2027-07-07, candidate: Bob}
...   - {type: candidate_filed, at: 2027-07-08, candidate: Cy}
...   - {type: returns_reported, at: "2027-10-05T21:00", counts: {Ann: 480, Bob: 420, Cy: 100}}
...   - {type: canvass_held, at: "2027-10-12T11:00"}
... ''')
>>> asked = fork(s).add(
...     {"type": "runoff_requested", "at": "2027-10-13T09:30", "candidate": "Bob"}).build()
>>> len(s.events), len(asked.events), asked.events[-1].type, asked.events[-1].index
(5, 6, 'runoff_requested', 5)
>>> replay(s).contests[0].outcome.elected, replay(asked).contests[0].outcome.runoff_candidates
(('Ann',), ('Ann', 'Bob'))
>>> print(compare(s, asked, names=("as run", "Bob asks")).outcome_table())
contest  what     about        as run   Bob asks
-------  -------  -----------  -------  -----------------
seat-a   outcome  elected      Ann      -
seat-a   outcome  runoff       none     called (Ann, Bob)
seat-a   outcome  waiting for  nothing  votes
seat-a   outcome  state        decided  runoff called

A sweep replays one variant per value, serially or across processes (``workers=``), and keeps
for each the outcome and the ruling that decided it:

>>> sw = sweep(s, Margin(3, "Ann", over="Bob"), range(-2, 3))  # a tie: G.S. 163-293(d)(1)
>>> [(r.value, r.outcome, r.decided_by) for r in sw]  # doctest: +NORMALIZE_WHITESPACE
[(-2, 'elected Bob', 'elected (G.S. 163-293(b)(1))'),
 (-1, 'elected Bob', 'elected (G.S. 163-293(b)(1))'),
 (0, 'waiting for a recount', 'recount required (G.S. 163-293(d)(1))'),
 (1, 'elected Ann', 'elected (G.S. 163-293(b)(1))'),
 (2, 'elected Ann', 'elected (G.S. 163-293(b)(1))')]
"""

from simulator.analysis.whatif.comparison import Comparison, Difference, compare
from simulator.analysis.whatif.display import (
    ContestView,
    ResultView,
    enable_rich_display,
    show,
    side_by_side,
)
from simulator.analysis.whatif.edits import EditError, each_day
from simulator.analysis.whatif.forks import (
    Fork,
    add_event,
    fork,
    insert_event,
    remove_event,
    remove_events,
    replace_event,
    set_contest,
    shift_event,
)
from simulator.analysis.whatif.sweep_results import Band, Sweep, SweepRow
from simulator.analysis.whatif.sweep_runner import OUTCOME_KINDS, sweep
from simulator.analysis.whatif.variables import (
    ContestFact,
    EventField,
    EventTime,
    Margin,
    NewEvent,
    Variable,
    Votes,
)

__all__ = [
    "OUTCOME_KINDS",
    "Band",
    "Comparison",
    "ContestFact",
    "ContestView",
    "Difference",
    "EditError",
    "EventField",
    "EventTime",
    "Fork",
    "Margin",
    "NewEvent",
    "ResultView",
    "Sweep",
    "SweepRow",
    "Variable",
    "Votes",
    "add_event",
    "compare",
    "each_day",
    "enable_rich_display",
    "fork",
    "insert_event",
    "remove_event",
    "remove_events",
    "replace_event",
    "set_contest",
    "shift_event",
    "show",
    "side_by_side",
    "sweep",
]
