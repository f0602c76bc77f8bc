"""Explore the courses of events of one contest: every outcome, gap and conflict, with a witness.

``electsim explore --method M --seats S --candidates N`` enumerates abstract courses of events
breadth-first, from the shortest, and drives the engine itself
(:func:`simulator.engine.replay.replay`) on each: there is no second model of the law here. An
abstract course is

- who leaves before the vote, how (died, withdrew, disqualified) and when, as a region between
  the statutory landmarks (before the filing closes, within 30 days of the close, after day 30,
  after the ballots are printed with the board finding time to reprint or not);
- the returns as a *ranking class*: the weak order of the candidates on the ballot (groups of tied
  candidates, best first), where a departed candidate whose name stayed on the ballot sits in it,
  and for the methods that read a threshold (majority of G.S. 163-293(a), substantial plurality
  of 163-111(a)) how many leading groups are above it and whether the next is exactly at it;
- who leaves after the vote (election night, the request window, after a runoff is called);
- the requests the engine says are open (the entitled runner-up asks in time, late, or never),
  the lot the engine waits for, and the runoff's own returns.

Candidates who share a profile are interchangeable (no rule reads a name or a filing order), so
one representative is tried per distinct place: the canonical form of a course is its class, not
its names. Each abstract course becomes a concrete ``electsim/v1`` scenario (names, dates from
:func:`simulator.law.calendar.statutory_calendar`, integer votes realizing the class exactly,
checked with :class:`fractions.Fraction`), whose replay is the prediction. The first course (fewest
events) reaching an outcome is its witness. ``--check`` writes nothing new: it reads every witness
back through the scenario loader and checks its ``expect:`` block the way ``electsim test`` does.

Courses share their beginnings: each is folded from the engine's state after the longest
beginning folded before (:class:`~simulator.analysis.explore.folds.Folds`), one fold step per
new event. Two beginnings that reach the same canonical state at the vote
(:func:`~simulator.analysis.explore.states.ballot_state`) have the same futures: those are
enumerated once, after the first (shortest) beginning. So are those of two courses that call a
runoff (a second primary) in the same canonical state
(:func:`~simulator.analysis.explore.states.call_state`).

Bounds of this version (said in the report, never hidden): one contest, K departures (default 1),
the first round and one runoff or second primary; totals near 1,000 votes (a tie among more than
5,000 voters is not reached).

The package, lowest first: :mod:`~simulator.analysis.explore.config` (the configurations),
:mod:`~simulator.analysis.explore.votes` (ranking classes and their votes),
:mod:`~simulator.analysis.explore.documents` (a course's concrete scenario),
:mod:`~simulator.analysis.explore.outcomes` (courses, outcomes, witnesses, explorations),
:mod:`~simulator.analysis.explore.states` (canonical states),
:mod:`~simulator.analysis.explore.folds` (running courses through the engine),
:mod:`~simulator.analysis.explore.before_vote`, :mod:`~simulator.analysis.explore.after_vote` and
:mod:`~simulator.analysis.explore.courses` (the enumeration),
:mod:`~simulator.analysis.explore.exploration` (exploring one configuration or a grid),
:mod:`~simulator.analysis.explore.witnesses` (witness scenarios),
:mod:`~simulator.analysis.explore.coverage` (clause coverage) and
:mod:`~simulator.analysis.explore.findings` (JSON, text, Markdown). The command line and all its
printing are in :mod:`simulator.cli.explore`.
"""

from simulator.analysis.explore.config import Config, other_readings
from simulator.analysis.explore.exploration import explore, explore_grid
from simulator.analysis.explore.outcomes import Exploration, Outcome, Witness
from simulator.analysis.explore.votes import VoteClass

__all__ = [
    "Config",
    "Exploration",
    "Outcome",
    "VoteClass",
    "Witness",
    "explore",
    "explore_grid",
    "other_readings",
]
