"""Every rule table of the law, in one place: ``electsim gaps`` explores them, ``electsim cite``
lists their rules, docs/statutes.md lists them (:func:`catalogue_markdown`), and the tests keep
each one free of unnamed gaps and conflicts.

Each module holds the tables of one legal question: :mod:`~simulator.law.tables.filing` (filing),
:mod:`~simulator.law.tables.counted_votes` (the votes a round counts),
:mod:`~simulator.law.tables.declaration` (who is elected or nominated),
:mod:`~simulator.law.tables.round_timing` (the next round's dates),
:mod:`~simulator.law.tables.departed_declared` (a departed candidate the count would declare),
:mod:`~simulator.law.tables.vacancies` (the oath and empty places),
:mod:`~simulator.law.tables.party_nominees` (a party's nominee),
:mod:`~simulator.law.tables.repeat_notice` (a second notice),
:mod:`~simulator.law.tables.departed_in_count` (a departed candidate placed by 163-293),
:mod:`~simulator.law.tables.ties` (which provision breaks a tie),
:mod:`~simulator.law.tables.runoff_requests` (a request for the next round),
:mod:`~simulator.law.tables.canvass` (the canvass),
:mod:`~simulator.law.tables.tie_steps` (a tie's three days, recount and lot),
:mod:`~simulator.law.tables.count` (the order of the count's questions), and
:mod:`~simulator.law.tables.departures` (a candidate who dies, withdraws or is disqualified:
163-112, 163-294.1, 163-294.4; :mod:`~simulator.law.tables.departure_facts` holds the facts it
reads and their every combination, :mod:`~simulator.law.tables.departure_gaps` lists its gaps by
the facts that reach them).

Nothing here is built when the package is imported: each module of tables is loaded when the
engine first reads one of its names (a small replay loads only the tables it consults), and
:data:`HOMES`, :data:`TABLES` and :data:`EVERY_TABLE` are made the first time they are read.

:data:`TABLES` are the tables ``electsim gaps`` explores beside the departures table, which has a
listing of its own (the facts that reach each of its gaps); :data:`EVERY_TABLE` adds it.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simulator.law.rules import Table

    HOMES: tuple[tuple[Table[Any, Any], str], ...]
    TABLES: tuple[Table[Any, Any], ...]
    EVERY_TABLE: tuple[tuple[Table[Any, Any], str], ...]


def _home(module: ModuleType) -> str:
    """The file that holds a module's tables, as a path from the repository's root."""
    return module.__name__.replace(".", "/") + ".py"


def _every() -> dict[str, Any]:
    """:data:`HOMES`, :data:`TABLES` and :data:`EVERY_TABLE` (loading every module of tables)."""
    from simulator.law.tables import (
        canvass,
        count,
        counted_votes,
        declaration,
        departed_declared,
        departed_in_count,
        departures,
        filing,
        party_nominees,
        repeat_notice,
        round_timing,
        runoff_requests,
        tie_steps,
        ties,
        vacancies,
    )

    #: (table, the module that holds it), in the order ``electsim gaps`` and ``electsim cite`` list
    HOMES: tuple[tuple[Table[Any, Any], str], ...] = (
        *((t, _home(filing)) for t in filing.TABLES),
        (counted_votes.VOTES, _home(counted_votes)),
        (counted_votes.TOTAL, _home(counted_votes)),
        (declaration.RESULT, _home(declaration)),
        (declaration.RUNOFF_RIGHT, _home(declaration)),
        (round_timing.TIMING, _home(round_timing)),
        (round_timing.ROUND_DAY, _home(round_timing)),
        (departed_declared.DECLARED_LEFT, _home(departed_declared)),
        (departed_declared.RUNOFF_LEFT, _home(departed_declared)),
        (vacancies.OATH, _home(vacancies)),
        (party_nominees.NOMINEE, _home(party_nominees)),
        (party_nominees.NOMINEE_PLACE, _home(party_nominees)),
        (party_nominees.TWICE, _home(party_nominees)),
        (vacancies.EMPTY_SEATS, _home(vacancies)),
        (tie_steps.TIE_WITHDRAWAL, _home(tie_steps)),
        (repeat_notice.REPEAT_NOTICE, _home(repeat_notice)),
        (departed_in_count.LEADER, _home(departed_in_count)),
        (departed_in_count.SECOND, _home(departed_in_count)),
        (departed_in_count.TIE_FIRST, _home(departed_in_count)),
        (departed_in_count.PLACES, _home(departed_in_count)),
        (departed_in_count.PLACE_LEFT, _home(departed_in_count)),
        (departed_in_count.GROUP_LEFT, _home(departed_in_count)),
        (ties.TIE, _home(ties)),
        (ties.TIE_AT, _home(ties)),
        (runoff_requests.REQUEST, _home(runoff_requests)),
        (canvass.CANVASS, _home(canvass)),
        (tie_steps.TIE_WINDOW, _home(tie_steps)),
        (tie_steps.RECOUNT, _home(tie_steps)),
        (tie_steps.LOT, _home(tie_steps)),
        (runoff_requests.WINDOW_CLOSE, _home(runoff_requests)),
        (tie_steps.STILL_TIED, _home(tie_steps)),
        (count.ORDER, _home(count)),
    )

    TABLES: tuple[Table[Any, Any], ...] = tuple(t for t, _ in HOMES)

    #: every table of the law, the departures table last
    EVERY_TABLE: tuple[tuple[Table[Any, Any], str], ...] = (
        *HOMES,
        (departures.TABLE, _home(departures)),
    )
    return {"HOMES": HOMES, "TABLES": TABLES, "EVERY_TABLE": EVERY_TABLE}


#: held while a module of tables runs: a thread that reads a name of a module another thread is
#: running waits for it to end (re-entrant: a module may read another as it runs)
_RUNNING = threading.RLock()


class _Unrun(ModuleType):
    """A module of tables registered but not yet run: reading a name it does not have runs it,
    once, and it becomes a plain module."""

    def __getattr__(self, name: str) -> Any:
        with _RUNNING:
            if type(self) is _Unrun:
                spec = self.__spec__
                assert spec is not None and spec.loader is not None
                _become(self, _Running)
                try:
                    spec.loader.exec_module(self)
                except BaseException:
                    # as a failed import: nothing is left registered, the next read tries again
                    sys.modules.pop(spec.name, None)
                    globals().pop(spec.name.rpartition(".")[2], None)
                    raise
                finally:
                    _become(self, ModuleType)
        return ModuleType.__getattribute__(self, name)


class _Running(_Unrun):
    """A module of tables while it runs: another thread waits for it to end; the thread running
    it reads only what it has made so far (as a module importing itself would)."""

    def __getattr__(self, name: str) -> Any:
        with _RUNNING:
            pass
        return ModuleType.__getattribute__(self, name)


def _become(module: ModuleType, kind: type[ModuleType]) -> None:
    module.__class__ = kind


def _lazy(name: str) -> ModuleType | None:
    """The module of tables ``name``, registered but not run (:class:`_Unrun`): its body runs
    when one of its names is first read; None if there is no such module."""
    full = f"{__name__}.{name}"
    if full in sys.modules:
        return sys.modules[full]
    spec = importlib.util.find_spec(full)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    _become(module, _Unrun)
    sys.modules[full] = module
    return module


def __getattr__(name: str) -> Any:
    """``from simulator.law.tables import filing`` hands back the module without running it;
    the catalogue's tuples are made when first read."""
    if name in ("HOMES", "TABLES", "EVERY_TABLE"):
        made = _every()
        globals().update(made)
        return made[name]
    if name.isidentifier() and not name.startswith("_"):
        module = _lazy(name)
        if module is not None:
            globals()[name] = module
            return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
