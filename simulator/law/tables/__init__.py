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
the facts that reach them, :mod:`~simulator.law.tables.departure_words` holds what the ruling on
each of its effects says).

:data:`TABLES` are the tables ``electsim gaps`` explores beside the departures table, which has a
listing of its own (the facts that reach each of its gaps); :data:`EVERY_TABLE` adds it.
:func:`choices` says, at the end of a ``no_provision`` ruling of any table, the gap's or
conflict's id and its other readings.
"""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any

from simulator.law.readings import Interpretations
from simulator.law.rules import Conflict, Finding, Gap, Reading, Table
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


def _home(module: ModuleType) -> str:
    """The file that holds a module's tables, as a path from the repository's root."""
    return module.__name__.replace(".", "/") + ".py"


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


@functools.cache  # the tables are the law's constants; every no_provision ruling asks
def readings_of(named_id: str) -> tuple[Reading[Any], ...]:
    """Every other reading of the gap or conflict ``named_id``, from each table that names it
    (an id may name one question in several tables, not all of which carry its readings), each
    switch and value once."""
    found: dict[tuple[str, str], Reading[Any]] = {}
    for table, _ in EVERY_TABLE:
        named: list[Gap[Any, Any] | Conflict[Any, Any]] = [*table.gaps, *table.conflicts]
        for g in named:
            if g.id == named_id:
                for r in g.readings:
                    found.setdefault((r.switch, str(r.value)), r)
    return tuple(found.values())


def choices(finding: Finding[Any, Any]) -> str:
    """What a ``no_provision`` ruling adds after its fallback: the gap's or conflict's id, as
    ``electsim gaps`` lists it, and each other reading of it with the ``interpretations:`` key
    and value that selects it and what that reading rules (the default's fallback, where a
    switch chose another)."""
    named = finding.conflict or finding.gap
    prefix = "conflict" if finding.conflict is not None else "gap"
    said = f"This is {prefix}:{finding.id}"
    if named is None:
        return said + "."
    chosen = finding.extra().get("reading")
    readings = readings_of(named.id)
    others = [(r.switch, r.value, r.fallback) for r in readings if r.value != chosen]
    if chosen is not None and readings:
        switch = readings[0].switch
        default = Interpretations().setting(switch)
        default_words = named.fallback if isinstance(named.fallback, str) else ""
        if finding.facts is not None and isinstance(named, Gap):
            default_words = named.fallback_for(finding.facts)
        others.insert(0, (switch, str(default), default_words))
    if not others:
        return said + "."
    listed = "; ".join(
        f"`interpretations: {{{switch}: {value}}}`: {words}" for switch, value, words in others
    )
    return f"{said}. Other reading{'s' if len(others) > 1 else ''}: {listed} (docs/readings.md)."
